/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The HOST STAND-IN FOR THE GPU SIDE of IBGDA (ibgda_gpu_host.c, a test
 * double) against the SOFTWARE NIC TEST DOUBLE (ibgda_swnic.c), without the
 * tools: the kernels' work (ibgda_work.h) on host threads at thread, warp
 * and CTA scope over several QPs (every item written once, the count of
 * WQEs executed, the quiet's snapshot), the latency loop with an atomic's
 * fetched values checked, the backstop: a NIC that stops while the
 * protocol's own wait is long ends at the caller's deadline, the stop flag
 * raised and every thread joined, and what a GPU could not reach (an
 * unmapped fetch word, samples, snapshot or counters) refused. Also built with ThreadSanitizer
 * (ibgda-tsan.sh).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ibgda_gpu_host.h"
#include "ibgda_swnic.h"
#include "ibgda_work.h"

enum { NQP_MAX = 4, NWQE = 256, SRC_KEY = 0x5e000, DST_KEY = 0x5e001, BYTES = 1 << 16 };

struct rig {
	struct gd_ibgda_host *h;
	struct gd_ibgda_qp *qps;
	struct gd_ibgda_ctr *ctr;
	struct gd_ibgda_ctl *ctl;
	struct gd_ibgda_err *err;
	uint8_t *sq, *cq, *src, *dst;
	uint32_t *dbrec;
	uint64_t *db, *snap; /* the quiet's snapshot: memory a GPU reaches */
	uint32_t nqps;
	struct gd_swnic nic;
};

static struct rig *rig_new(uint32_t nqps, uint32_t flags, uint64_t stall_at)
{
	struct rig *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	assert_int_equal(gd_ibgda_host_open(&r->h), 0);
	r->nqps = nqps;
	r->qps = gd_ibgda_host_alloc(r->h, nqps * sizeof(*r->qps));
	r->ctr = gd_ibgda_host_alloc(r->h, nqps * sizeof(*r->ctr));
	r->ctl = gd_ibgda_host_alloc(r->h, sizeof(*r->ctl));
	r->err = gd_ibgda_host_alloc(r->h, sizeof(*r->err));
	r->sq = gd_ibgda_host_alloc(r->h, (size_t)nqps * NWQE * 64);
	r->cq = gd_ibgda_host_alloc(r->h, (size_t)nqps * 64);
	r->dbrec = gd_ibgda_host_alloc(r->h, (size_t)nqps * 64);
	r->db = gd_ibgda_host_alloc(r->h, (size_t)nqps * 64);
	r->src = gd_ibgda_host_alloc(r->h, BYTES);
	r->dst = gd_ibgda_host_alloc(r->h, BYTES);
	r->snap = gd_ibgda_host_alloc(r->h, 2 * NQP_MAX * sizeof(uint64_t));
	memset(r->cq, 0xff, (size_t)nqps * 64); /* CQE opcode INVALID */
	for (uint32_t i = 0; i < BYTES; i++)
		r->src[i] = (uint8_t)(i * 131 + (i >> 9));
	r->ctl->budget_ns = 20000000000ull;
	for (uint32_t q = 0; q < nqps; q++) {
		r->qps[q] = (struct gd_ibgda_qp){.sq = r->sq + (size_t)q * NWQE * 64,
						 .nwqe = NWQE,
						 .qpn = 0x5100 + q,
						 .dbrec = r->dbrec + 16 * q,
						 .db = r->db + 8 * q,
						 .cq = r->cq + 64 * q,
						 .ncqe = 1,
						 .flags = flags | GD_IBGDA_SYSMEM | GD_IBGDA_COLLAPSED,
						 .ring_every = 32,
						 .ctr = r->ctr + q,
						 .err = r->err,
						 .timeout_ns = 5000000000ull,
						 .ctl = r->ctl};
		r->nic.qps[q] = (struct gd_swnic_qp){.sq = r->qps[q].sq,
						     .nwqe = NWQE,
						     .qpn = r->qps[q].qpn,
						     .dbrec = r->qps[q].dbrec,
						     .db = r->qps[q].db,
						     .cq = r->qps[q].cq,
						     .ncqe = 1,
						     .collapsed = true};
	}
	r->nic.nqps = nqps;
	r->nic.mrs[0] = (struct gd_swnic_mr){r->src, BYTES, SRC_KEY};
	r->nic.mrs[1] = (struct gd_swnic_mr){r->dst, BYTES, DST_KEY};
	r->nic.nmrs = 2;
	r->nic.inject_err_at = GD_SWNIC_NONE;
	r->nic.stall_at = stall_at;
	r->nic.max_idle_ns = 10000000000ull;
	assert_int_equal(gd_swnic_start(&r->nic), 0);
	return r;
}

static void rig_free(struct rig *r)
{
	gd_swnic_stop(&r->nic);
	gd_ibgda_host_free(r->h, r->qps);
	gd_ibgda_host_free(r->h, r->ctr);
	gd_ibgda_host_free(r->h, r->ctl);
	gd_ibgda_host_free(r->h, r->err);
	gd_ibgda_host_free(r->h, r->sq);
	gd_ibgda_host_free(r->h, r->cq);
	gd_ibgda_host_free(r->h, r->dbrec);
	gd_ibgda_host_free(r->h, r->db);
	gd_ibgda_host_free(r->h, r->src);
	gd_ibgda_host_free(r->h, r->dst);
	gd_ibgda_host_free(r->h, r->snap);
	gd_ibgda_host_close(r->h);
	free(r);
}

static struct gd_ibgda_kargs kargs(const struct rig *r, uint32_t scope, uint32_t opcode,
				   uint32_t size)
{
	return (struct gd_ibgda_kargs){.qps = r->qps,
				       .nqps = r->nqps,
				       .scope = scope,
				       .sig_every = 64,
				       .src = (uintptr_t)r->src,
				       .dst = (uintptr_t)r->dst,
				       .lkey = SRC_KEY,
				       .rkey = DST_KEY,
				       .bad_at = ~0ull,
				       .opcode = opcode,
				       .size = size,
				       .slots = BYTES / size};
}

/* 2 CTAs x 64 threads x 4 rounds = 512 items of 64 B: every slot of the
 * first 32 KiB written once, from the source, over nqps QPs. */
static void writes_at(uint32_t scope, uint32_t nqps, uint32_t flags)
{
	struct rig *r = rig_new(nqps, flags | (nqps > 1 || scope == GD_IBGDA_SCOPE_THREAD ?
						       GD_IBGDA_SHARED : 0), GD_SWNIC_NONE);
	struct gd_ibgda_kargs a = kargs(r, scope, GD_MLX5_OP_RDMA_WRITE, 64);
	uint64_t ns = 0, posted = 0;

	a.iters = 4;
	assert_int_equal(gd_ibgda_host_run(r->h, &a, 2, 64, r->snap, 10000000000ull, &ns), 0);
	assert_int_equal(r->err->code, 0);
	assert_string_equal(r->nic.problem, "");
	assert_memory_equal(r->dst, r->src, 512 * 64);
	assert_int_equal(r->dst[512 * 64], 0); /* nothing past the run's items */
	gd_swnic_stop(&r->nic);
	assert_int_equal(r->nic.wqes, 512 + nqps); /* + the quiet's NOP per QP */
	for (uint32_t q = 0; q < nqps; q++) {
		posted += r->snap[2 * q];
		assert_int_equal(r->ctr[q].cons_idx, r->snap[2 * q] + 1);
	}
	assert_int_equal(posted, 512);
	assert_true(ns > 0);
	rig_free(r);
}

static void thread_scope(void **s)
{
	writes_at(GD_IBGDA_SCOPE_THREAD, 2, 0);
}

static void warp_scope(void **s)
{
	writes_at(GD_IBGDA_SCOPE_WARP, 4, 0);
}

static void cta_scope(void **s)
{
	writes_at(GD_IBGDA_SCOPE_CTA, 2, 0);
}

static void one_warp_one_qp(void **s)
{
	writes_at(GD_IBGDA_SCOPE_WARP, 1, 0);
}

/* The latency loop, FETCH_AND_ADD: every fetched value checked in the loop
 * (a wrong one is GD_IBGDA_ERR_FETCH), the word holds the count. */
static void latency_atomics(void **s)
{
	struct rig *r = rig_new(1, 0, GD_SWNIC_NONE);
	struct gd_ibgda_kargs a = kargs(r, GD_IBGDA_SCOPE_WARP, GD_MLX5_OP_ATOMIC_FA, 8);
	uint64_t *t_db = gd_ibgda_host_alloc(r->h, 200 * 8), *t_cqe = gd_ibgda_host_alloc(r->h, 200 * 8);
	uint64_t word;

	a.slots = 1;
	a.iters = 200;
	memset(r->src, 0, 64); /* the fetch word */
	assert_int_equal(gd_ibgda_host_lat(r->h, &a, t_db, t_cqe, 10000000000ull), 0);
	assert_int_equal(r->err->code, 0);
	memcpy(&word, r->dst, 8);
	assert_int_equal(word, 200);
	for (int k = 0; k < 200; k++)
		assert_true(t_cqe[k] >= t_db[k]);
	gd_ibgda_host_free(r->h, t_db);
	gd_ibgda_host_free(r->h, t_cqe);
	rig_free(r);
}

/* What a GPU could not reach (a481eab's fault on the H200): the latency
 * loop's fetch word in plain host memory is refused before anything runs
 * (-EFAULT, no WQE posted); mapped (gd_ibgda_gpu_map's range), the run
 * passes; unmapped again, refused again. Samples on the stack are refused
 * too. */
static void unmapped_fetch_word(void **s)
{
	struct rig *r = rig_new(1, 0, GD_SWNIC_NONE);
	struct gd_ibgda_kargs a = kargs(r, GD_IBGDA_SCOPE_WARP, GD_MLX5_OP_ATOMIC_FA, 8);
	uint64_t *t_db = gd_ibgda_host_alloc(r->h, 16 * 8), *t_cqe = gd_ibgda_host_alloc(r->h, 16 * 8);
	uint64_t stack[16], word;
	uint8_t *plain = calloc(1, BYTES); /* the engine's buffer: not the stand-in's */

	assert_non_null(plain);
	r->nic.mrs[0].addr = plain; /* the NIC's key covers it: only the GPU cannot reach it */
	a.src = (uintptr_t)plain;
	a.slots = 1;
	a.iters = 16;
	assert_int_equal(gd_ibgda_host_lat(r->h, &a, t_db, t_cqe, 10000000000ull), -EFAULT);
	assert_int_equal(r->ctr[0].resv_head, 0); /* nothing ran */
	assert_int_equal(gd_ibgda_host_map(r->h, plain + 64, BYTES - 64), 0);
	assert_int_equal(gd_ibgda_host_lat(r->h, &a, t_db, t_cqe, 10000000000ull), -EFAULT);
	gd_ibgda_host_unmap(r->h, plain + 64);
	assert_int_equal(gd_ibgda_host_map(r->h, plain, BYTES), 0);
	assert_int_equal(gd_ibgda_host_lat(r->h, &a, stack, t_cqe, 10000000000ull), -EFAULT);
	assert_int_equal(gd_ibgda_host_lat(r->h, &a, t_db, t_cqe, 10000000000ull), 0);
	assert_int_equal(r->err->code, 0);
	memcpy(&word, r->dst, 8);
	assert_int_equal(word, 16);
	gd_ibgda_host_unmap(r->h, plain);
	assert_int_equal(gd_ibgda_host_lat(r->h, &a, t_db, t_cqe, 10000000000ull), -EFAULT);
	gd_ibgda_host_free(r->h, t_db);
	gd_ibgda_host_free(r->h, t_cqe);
	rig_free(r);
	free(plain);
}

/* The post and quiet kernels' addresses: a snapshot in plain memory and a
 * QP whose counters are not the stand-in's are refused, nothing posted. */
static void unmapped_run_words(void **s)
{
	struct rig *r = rig_new(2, GD_IBGDA_SHARED, GD_SWNIC_NONE);
	struct gd_ibgda_kargs a = kargs(r, GD_IBGDA_SCOPE_WARP, GD_MLX5_OP_RDMA_WRITE, 64);
	struct gd_ibgda_ctr plain_ctr = {0};
	uint64_t snap[4], ns = 0;

	a.iters = 1;
	assert_int_equal(gd_ibgda_host_run(r->h, &a, 1, 64, snap, 10000000000ull, &ns), -EFAULT);
	r->qps[1].ctr = &plain_ctr;
	assert_int_equal(gd_ibgda_host_run(r->h, &a, 1, 64, r->snap, 10000000000ull, &ns), -EFAULT);
	assert_int_equal(r->ctr[0].resv_head, 0);
	r->qps[1].ctr = r->ctr + 1;
	assert_int_equal(gd_ibgda_host_run(r->h, &a, 1, 64, r->snap, 10000000000ull, &ns), 0);
	rig_free(r);
}

/* The backstop: the NIC stops at WQE 40 while a wait may last 60 s and the
 * run has no budget: the caller's 300 ms end it, the stop flag ends the
 * threads, and the failure names the stop. */
static void backstop(void **s)
{
	struct rig *r = rig_new(1, 0, 40);
	struct gd_ibgda_kargs a = kargs(r, GD_IBGDA_SCOPE_WARP, GD_MLX5_OP_RDMA_WRITE, 64);
	uint64_t ns = 0, t0 = gd_ib_now();

	r->qps[0].timeout_ns = 60000000000ull;
	r->ctl->budget_ns = 0;
	a.iters = 64;
	assert_int_equal(gd_ibgda_host_run(r->h, &a, 1, 32, NULL, 300000000ull, &ns), -ETIMEDOUT);
	assert_true(gd_ib_now() - t0 < 5000000000ull);
	assert_int_equal(r->ctl->stop, 1);
	assert_int_equal(r->err->code, GD_IBGDA_ERR_STOPPED);
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(thread_scope),	   cmocka_unit_test(warp_scope),
		cmocka_unit_test(cta_scope),	   cmocka_unit_test(one_warp_one_qp),
		cmocka_unit_test(latency_atomics), cmocka_unit_test(backstop),
		cmocka_unit_test(unmapped_fetch_word), cmocka_unit_test(unmapped_run_words),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
