/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* SOFTWARE NIC — a test double for a ConnectX send queue (see ibgda_swnic.h). */
#include "ibgda_swnic.h"

#include <stdio.h>
#include <string.h>

#include "mlx5_wqe.h"

/* The buffer [addr, addr + len) inside a region with this key, or NULL. */
static uint8_t *mr_find(struct gd_swnic *nic, uint64_t addr, uint64_t len, uint32_t key)
{
	for (uint32_t i = 0; i < nic->nmrs; i++) {
		const struct gd_swnic_mr *m = &nic->mrs[i];
		uint64_t b = (uint64_t)(uintptr_t)m->addr;

		if (m->key == key && addr >= b && len <= m->len && addr - b <= m->len - len)
			return (uint8_t *)(uintptr_t)addr;
	}
	return NULL;
}

static void write_cqe(struct gd_swnic_qp *q, uint8_t op, uint16_t counter, uint8_t wqe_op,
		      uint32_t bytes, uint8_t synd)
{
	uint32_t slot = q->collapsed ? 0 : q->cq_pi & (q->ncqe - 1);
	uint8_t owner = q->collapsed ? 0 : (q->cq_pi / q->ncqe) & 1;
	uint8_t *e = q->cq + (size_t)slot * GD_MLX5_CQE;
	uint8_t img[GD_MLX5_CQE];
	uint64_t tail;

	gd_mlx5_cqe_fill(img, op, owner, counter, q->qpn, wqe_op, bytes, synd, synd ? 0x88 : 0);
	/* body first, then the last 8 bytes (counter, op_own) in one release store */
	for (int k = 0; k < 56; k += 8) { /* word stores: pollers may read the body */
		uint64_t w;

		memcpy(&w, img + k, 8);
		__atomic_store_n((uint64_t *)(e + k), w, __ATOMIC_RELAXED);
	}
	memcpy(&tail, img + 56, 8);
	__atomic_store_n((uint64_t *)(e + 56), tail, __ATOMIC_RELEASE);
	q->cq_pi++;
}

/* Move len bytes (either side may be GPU memory when nic->copy is set). */
static int move(struct gd_swnic *nic, void *dst, const void *src, size_t len)
{
	if (nic->copy)
		return nic->copy(nic->copy_ctx, dst, src, len);
	memcpy(dst, src, len);
	return 0;
}

/* 8-byte FETCH_ADD / CMP_SWAP on the target word (host order); the old
 * value back to the requester in the mode's byte order. The NIC thread is
 * the only agent on the target, so a GPU-memory word is read, changed and
 * written back through copy. */
static uint8_t atomic64(struct gd_swnic *nic, const struct gd_mlx5_wqe_view *v, uint8_t *r,
			uint8_t *l)
{
	uint64_t old, res;

	if (nic->copy) {
		uint64_t nv;

		if (move(nic, &old, r, 8))
			return GD_MLX5_SYND_REMOTE_OP;
		nv = v->opcode == GD_MLX5_OP_ATOMIC_FA ? old + v->op1 : old == v->op2 ? v->op1 : old;
		if (nv != old && move(nic, r, &nv, 8))
			return GD_MLX5_SYND_REMOTE_OP;
	} else if (v->opcode == GD_MLX5_OP_ATOMIC_FA) {
		old = __atomic_fetch_add((uint64_t *)r, v->op1, __ATOMIC_SEQ_CST);
	} else {
		old = v->op2;
		__atomic_compare_exchange_n((uint64_t *)r, &old, v->op1, 0, __ATOMIC_SEQ_CST,
					    __ATOMIC_SEQ_CST);
	}
	res = nic->atomic_be ? gd_be64(old) : old;
	return move(nic, l, &res, 8) ? GD_MLX5_SYND_LOCAL_PROT : 0;
}

/* 4-byte masked FA / CS (host memory only); the result big-endian. */
static uint8_t masked32(const struct gd_mlx5_wqe_view *v, uint8_t *r, uint8_t *l)
{
	uint32_t old, *t = (uint32_t *)r;

	if (v->opcode == GD_MLX5_OP_ATOMIC_MASKED_FA) {
		old = __atomic_fetch_add(t, (uint32_t)v->op1, __ATOMIC_SEQ_CST);
	} else {
		old = __atomic_load_n(t, __ATOMIC_SEQ_CST);
		while ((old & (uint32_t)v->mask2) == ((uint32_t)v->op2 & (uint32_t)v->mask2) &&
		       !__atomic_compare_exchange_n(
			       t, &old,
			       (old & ~(uint32_t)v->mask1) | ((uint32_t)v->op1 & (uint32_t)v->mask1), 0,
			       __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST))
			;
	}
	old = gd_be32(old); /* 4-byte results come back big-endian */
	memcpy(l, &old, 4);
	return 0;
}

/* Execute one parsed WQE. Returns 0 or an error syndrome. */
static uint8_t execute(struct gd_swnic *nic, const struct gd_mlx5_wqe_view *v)
{
	uint8_t *r, *l = NULL;
	uint32_t len = v->len;

	if (v->opcode == GD_MLX5_OP_NOP)
		return 0;
	if (v->opcode == GD_MLX5_OP_ATOMIC_FA || v->opcode == GD_MLX5_OP_ATOMIC_CS)
		len = 8;
	else if (v->opcode == GD_MLX5_OP_ATOMIC_MASKED_FA ||
		 v->opcode == GD_MLX5_OP_ATOMIC_MASKED_CS)
		len = v->opmod == GD_MLX5_OPMOD_EXT_ATOMIC_8B ? 8 : 4;
	r = mr_find(nic, v->raddr, len, v->rkey);
	if (!r)
		return GD_MLX5_SYND_REMOTE_ACCESS;
	if (v->has_data && !v->is_inline && !(l = mr_find(nic, v->laddr, len, v->lkey)))
		return GD_MLX5_SYND_LOCAL_PROT;
	if (len == 8 && v->opcode != GD_MLX5_OP_RDMA_WRITE && v->opcode != GD_MLX5_OP_RDMA_READ &&
	    (v->raddr & 7))
		return GD_MLX5_SYND_REMOTE_INVAL_REQ;
	switch (v->opcode) {
	case GD_MLX5_OP_RDMA_WRITE:
	case GD_MLX5_OP_RDMA_WRITE_IMM:
		return move(nic, r, v->is_inline ? v->inline_data : l, len) ? GD_MLX5_SYND_LOCAL_PROT
									    : 0;
	case GD_MLX5_OP_RDMA_READ:
		return move(nic, l, r, len) ? GD_MLX5_SYND_LOCAL_PROT : 0;
	case GD_MLX5_OP_ATOMIC_FA:
	case GD_MLX5_OP_ATOMIC_CS:
		return l ? atomic64(nic, v, r, l) : GD_MLX5_SYND_LOCAL_LENGTH;
	case GD_MLX5_OP_ATOMIC_MASKED_FA:
	case GD_MLX5_OP_ATOMIC_MASKED_CS:
		if (len != 4 || nic->copy || !l)
			return GD_MLX5_SYND_REMOTE_INVAL_REQ; /* 8-byte masked: not modelled */
		return masked32(v, r, l);
	default:
		return GD_MLX5_SYND_LOCAL_QP_OP;
	}
}

static void problem(struct gd_swnic *nic, struct gd_swnic_qp *q, const char *what)
{
	if (!nic->problem[0])
		snprintf(nic->problem, sizeof(nic->problem),
			 "software NIC (test double): QP 0x%x WQE %llu: %s", q->qpn,
			 (unsigned long long)q->ci, what);
	q->errored = true;
}

/* Consume one WQE at q->ci. Returns 1 when consumed, 0 when stopped. */
static int one_wqe(struct gd_swnic *nic, struct gd_swnic_qp *q)
{
	uint8_t buf[GD_MLX5_WQEBB * 4];
	const uint8_t *w = q->sq + (size_t)(q->ci & (q->nwqe - 1)) * GD_MLX5_WQEBB;
	struct gd_mlx5_wqe_view v;
	uint32_t nbb;
	uint8_t synd;

	if (q->ci == nic->stall_at)
		return 0;
	nbb = gd_mlx5_wqebbs(w[7] & 0x3f);
	for (uint32_t k = 0; k < nbb && k < 4; k++) /* a WQE may wrap the ring */
		memcpy(buf + k * GD_MLX5_WQEBB,
		       q->sq + (size_t)((q->ci + k) & (q->nwqe - 1)) * GD_MLX5_WQEBB,
		       GD_MLX5_WQEBB);
	if (gd_mlx5_wqe_parse(buf, &v) || v.qpn != q->qpn || v.pi != (uint16_t)q->ci || !nbb) {
		problem(nic, q, "malformed WQE (qpn, index or ds wrong)");
		write_cqe(q, GD_MLX5_CQE_REQ_ERR, (uint16_t)q->ci, v.opcode, 0,
			  GD_MLX5_SYND_LOCAL_QP_OP);
		return 0;
	}
	synd = q->ci == nic->inject_err_at ? nic->inject_syndrome : execute(nic, &v);
	if (synd) {
		write_cqe(q, GD_MLX5_CQE_REQ_ERR, (uint16_t)q->ci, v.opcode, 0, synd);
		q->errored = true; /* the QP is in error: nothing more runs */
		q->ci += nbb;
		return 0;
	}
	if (v.fm_ce_se & GD_MLX5_CTRL_CQ_UPDATE)
		write_cqe(q, GD_MLX5_CQE_REQ, (uint16_t)q->ci, v.opcode, v.len, 0);
	q->ci += nbb;
	nic->wqes++;
	return 1;
}

/* Rate mode: never read the send queue (it may be GPU memory); complete
 * everything below the doorbell record with one CQE naming its last WQEBB
 * (collapsed CQ), as a NIC with infinite speed would. */
static uint64_t consume_only(struct gd_swnic *nic, struct gd_swnic_qp *q, uint16_t dbr)
{
	uint64_t n = (uint16_t)(dbr - (uint16_t)q->ci);

	if (nic->stall_at != GD_SWNIC_NONE && q->ci + n > nic->stall_at)
		n = nic->stall_at > q->ci ? nic->stall_at - q->ci : 0;
	if (!n)
		return 0;
	q->ci += n;
	write_cqe(q, GD_MLX5_CQE_REQ, (uint16_t)(q->ci - 1), GD_MLX5_OP_RDMA_WRITE, 0, 0);
	nic->wqes += n;
	return n;
}

/* A QP in the error state: everything posted since completes with
 * WR_FLUSH_ERR, one CQE each (a collapsed CQ keeps only the last). */
static void flush(struct gd_swnic_qp *q, uint16_t dbr)
{
	while ((uint16_t)q->ci != dbr) {
		const uint8_t *w = q->sq + (size_t)(q->ci & (q->nwqe - 1)) * GD_MLX5_WQEBB;
		uint32_t nbb = gd_mlx5_wqebbs(w[7] & 0x3f);

		write_cqe(q, GD_MLX5_CQE_REQ_ERR, (uint16_t)q->ci, w[3], 0, GD_MLX5_SYND_WR_FLUSH);
		q->ci += nbb ? nbb : 1;
	}
}

uint64_t gd_swnic_pass(struct gd_swnic *nic)
{
	uint64_t done = 0;

	for (uint32_t i = 0; i < nic->nqps; i++) {
		struct gd_swnic_qp *q = &nic->qps[i];
		uint16_t dbr;

		dbr = (uint16_t)gd_be32(__atomic_load_n(q->dbrec, __ATOMIC_ACQUIRE));
		if (q->errored) {
			if (nic->flush_after_error)
				flush(q, dbr);
			continue;
		}
		if ((uint16_t)(dbr - (uint16_t)q->ci) > q->nwqe) {
			problem(nic, q, "doorbell record ahead of the ring by more than its size");
			continue;
		}
		if (q->db && dbr != (uint16_t)q->ci) {
			uint64_t db = __atomic_load_n(q->db, __ATOMIC_ACQUIRE);

			if (db && (uint32_t)(gd_be32((uint32_t)(db >> 32)) >> 8) != q->qpn)
				problem(nic, q, "doorbell names another QPN");
		}
		if (nic->consume_only)
			done += consume_only(nic, q, dbr);
		else
			while ((uint16_t)q->ci != dbr && !q->errored && one_wqe(nic, q))
				done++;
	}
	return done;
}

static int nic_thread_init(void *arg)
{
	struct gd_swnic *nic = arg;

	if (!nic->thread_init || !nic->thread_init(nic->copy_ctx))
		return 0;
	snprintf(nic->problem, sizeof(nic->problem),
		 "software NIC (test double): its thread cannot reach the buffers' "
		 "memory (CUDA context)");
	return -1;
}

static uint64_t nic_pass(void *arg)
{
	return gd_swnic_pass(arg);
}

int gd_swnic_start(struct gd_swnic *nic)
{
	nic->thread = (struct gd_poller){ .pass = nic_pass, .init = nic_thread_init, .arg = nic };
	return gd_poller_start(&nic->thread, nic->max_idle_ns);
}

void gd_swnic_stop(struct gd_swnic *nic)
{
	gd_poller_stop(&nic->thread);
}
