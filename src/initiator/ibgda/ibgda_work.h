/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA kernels' work, one definition for two callers: the CUDA
 * kernels (ibgda_kernels.cu) and the host stand-in for the GPU side
 * (ibgda_gpu_host.c, a test double chosen by GDPERF_TEST_IBGDA_GPU=host).
 * What an item's WQE says, the run's start and end stamps, the quiet of one
 * QP, the check of a fetched atomic result and the latency loop, all over
 * the producer protocol (ibgda_dev.h). Only the spreading of a group's WQEs
 * over lanes (warp shuffles, __syncthreads) stays in the kernels: the
 * stand-in runs a group's lanes one after the other in one host thread.
 */
#ifndef GD_IBGDA_WORK_H
#define GD_IBGDA_WORK_H

#include <stdint.h>

#include "ibgda_kernels.h"

GD_HD int gd_ibgda_is_atomic(uint32_t op)
{
	return op == GD_MLX5_OP_ATOMIC_FA || op == GD_MLX5_OP_ATOMIC_CS;
}

/* The WQE at index idx of qp for item (the grid's k * T + g). */
GD_HD void gd_ibgda_build_item(const struct gd_ibgda_kargs *a, const struct gd_ibgda_qp *qp,
			       uint64_t idx, uint64_t item, struct gd_mlx5_wqebb *w)
{
	struct gd_mlx5_wr wr;

	uint32_t size = a->size ? a->size : 8;
	uint64_t off = (a->slots ? item % a->slots : item) * (uint64_t)size +
		       (uint64_t)(qp - a->qps) * a->qp_stride;

	wr.opcode = a->opcode ? (uint8_t)a->opcode : GD_MLX5_OP_RDMA_WRITE;
	wr.fm_ce_se = (idx + 1) % a->sig_every == 0 ? GD_MLX5_CTRL_CQ_UPDATE : 0;
	wr.pi = (uint16_t)idx;
	wr.qpn = qp->qpn;
	/* data flows src -> dst: a WRITE reads src locally, a READ reads it remotely */
	wr.laddr = (wr.opcode == GD_MLX5_OP_RDMA_READ ? a->dst : a->src) + off;
	wr.lkey = a->lkey;
	wr.len = size;
	wr.raddr = (wr.opcode == GD_MLX5_OP_RDMA_READ ? a->src : a->dst) + off;
	wr.rkey = item == a->bad_at ? 0xbad : a->rkey;
	wr.imm = 0;
	wr.op1 = wr.op2 = 0;
	if (gd_ibgda_is_atomic(wr.opcode)) { /* the k-th atomic of the run on this QP */
		uint64_t k = idx - gd_ib_ld(&qp->ctr->atom_base);

		wr.op1 = wr.opcode == GD_MLX5_OP_ATOMIC_FA ? 1 : k + 1; /* add / swap */
		wr.op2 = k;						  /* compare */
	}
	gd_mlx5_wqe_rc(w, &wr);
}

/* A producer group's start (one per CTA on the GPU): the run's deadline
 * starts, the window's first stamp. */
GD_HD void gd_ibgda_begin(const struct gd_ibgda_kargs *a)
{
	gd_ibgda_run_start(&a->qps[0]);
	if (a->stamps)
		gd_ib_min(&a->stamps[0], gd_ib_now());
}

/* A group's last post done: the window's last stamp. */
GD_HD void gd_ibgda_end(const struct gd_ibgda_kargs *a)
{
	if (a->stamps)
		gd_ib_max(&a->stamps[1], gd_ib_now());
}

/* The quiet of QP q: a signalled NOP behind everything, then wait for it.
 * snap: NULL, or 2 words per QP (what the producers published and rang). */
GD_HD void gd_ibgda_quiet_qp(const struct gd_ibgda_qp *qps, uint32_t q, uint64_t *snap)
{
	const struct gd_ibgda_qp *qp = &qps[q];
	struct gd_mlx5_wqebb w;
	struct gd_mlx5_wr nop = {0};
	uint64_t base;

	if (snap) {
		snap[2 * q] = gd_ib_ld(&qp->ctr->ready_head);
		snap[2 * q + 1] = gd_ib_ld(&qp->ctr->prod_idx);
	}
	gd_ibgda_run_start(qp);
	if (gd_ibgda_failed(qp))
		return;
	base = gd_ibgda_reserve(qp, 1);
	if (base == ~0ull)
		return;
	nop.opcode = GD_MLX5_OP_NOP;
	nop.fm_ce_se = GD_MLX5_CTRL_CQ_UPDATE;
	nop.pi = (uint16_t)base;
	nop.qpn = qp->qpn;
	gd_mlx5_wqe_rc(&w, &nop);
	gd_ib_store_wqebb(gd_ibgda_wqe_ptr(qp, base), &w);
	if (gd_ibgda_publish(qp, base, 1))
		return;
	if (!gd_ibgda_quiet(qp, base + 1)) /* the next run's atomics count from here */
		gd_ib_st64_rel(&qp->ctr->atom_base, base + 1);
}

/* QP qp's fetch word: where its atomics' results land and the latency
 * loop reads them (the one rule; the stand-in checks a GPU reaches it). */
GD_HD uint64_t gd_ibgda_fetch_word(const struct gd_ibgda_kargs *a, const struct gd_ibgda_qp *qp)
{
	return a->src + (uint64_t)(qp - a->qps) * a->qp_stride;
}

/* An atomic's fetched value (QP qp's fetch word) is the k-th: decoded in
 * the device's byte order. 0, or -1 (recorded: GD_IBGDA_ERR_FETCH). */
GD_HD int gd_ibgda_check_fetch(const struct gd_ibgda_kargs *a, const struct gd_ibgda_qp *qp,
			       uint64_t k)
{
	const void *at = (const void *)(uintptr_t)gd_ibgda_fetch_word(a, qp);
	uint64_t got = gd_mlx5_fetched64(gd_ib_ld_acq_sys(at), (int)a->atomic_be);

	if (got == k)
		return 0;
	gd_ibgda_fail(qp, GD_IBGDA_ERR_FETCH, 6, 0);
	qp->err->fetched = got;
	qp->err->expected = k;
	return -1;
}

/* One producer, QP 0: a->iters single WQEs, each waited for; t_db[k]: ns
 * from reserve to the doorbell, t_cqe[k]: to the completion. */
GD_HD void gd_ibgda_latency(const struct gd_ibgda_kargs *a, uint64_t *t_db, uint64_t *t_cqe)
{
	const struct gd_ibgda_qp *qp = &a->qps[0];
	uint64_t ab = gd_ib_ld(&qp->ctr->atom_base), base = ab - 1;
	struct gd_ibgda_kargs one = *a;

	one.sig_every = 1;
	gd_ibgda_run_start(qp);
	for (uint32_t k = 0; k < a->iters; k++) {
		struct gd_mlx5_wqebb w;
		uint64_t t0 = gd_ib_now(), t1;

		base = gd_ibgda_reserve(qp, 1);
		if (base == ~0ull)
			return;
		gd_ibgda_build_item(&one, qp, base, k, &w);
		gd_ib_store_wqebb(gd_ibgda_wqe_ptr(qp, base), &w);
		if (gd_ibgda_submit(qp, base, 1, 1))
			return;
		t1 = gd_ib_now();
		if (gd_ibgda_wait(qp, base + 1, 4))
			return;
		t_db[k] = t1 - t0;
		t_cqe[k] = gd_ib_now() - t0;
		if (gd_ibgda_is_atomic(a->opcode) && gd_ibgda_check_fetch(a, qp, base - ab))
			return;
	}
	gd_ib_st64_rel(&qp->ctr->atom_base, base + 1);
}

#endif
