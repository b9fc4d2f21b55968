/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA producer protocol (ibgda_dev.h compiled for the host) end to end
 * against the SOFTWARE NIC TEST DOUBLE (ibgda_swnic.c): host producer
 * threads reserve, write, publish, ring and poll; the double executes the
 * WQEs and writes mlx5 CQEs. Checks the data (--validate style), atomics,
 * collapsed and normal CQs, doorbell batching, the ibgda-cpudb ringer, an
 * error CQE decoded to its syndrome name, and a stalled NIC caught by the
 * deadline with the indices recorded. Every wait is bounded.
 */
#include <pthread.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "ibgda_cpudb.h"
#include "ibgda_dev.h"
#include "ibgda_swnic.h"
#include "mlx5_dump.h"

enum { SRC_KEY = 0x1111, DST_KEY = 0x2222, NSLOT = 1 << 15 };

struct rig {
	struct gd_ibgda_qp qp;
	struct gd_ibgda_ctr ctr;
	struct gd_ibgda_err err;
	uint32_t dbrec, cq_dbrec;
	uint64_t db, cpudb_word;
	uint8_t *sq, *cq;
	uint64_t *src, *dst, *res;
	struct gd_swnic nic;
	struct gd_cpudb cpudb;
	uint32_t sig_every;
};

static struct rig *rig_new(uint32_t nwqe, uint32_t flags, uint32_t ring_every)
{
	struct rig *r = calloc(1, sizeof(*r));
	uint32_t ncqe = flags & GD_IBGDA_COLLAPSED ? 1 : nwqe;

	assert_int_equal(posix_memalign((void **)&r->sq, 4096, (size_t)nwqe * 64), 0);
	assert_int_equal(posix_memalign((void **)&r->cq, 4096, (size_t)ncqe * 64), 0);
	memset(r->sq, 0, (size_t)nwqe * 64);
	memset(r->cq, 0xff, (size_t)ncqe * 64); /* opcode INVALID */
	r->src = calloc(NSLOT, 8);
	r->dst = calloc(NSLOT, 8);
	r->res = calloc(NSLOT, 8);
	for (uint32_t i = 0; i < NSLOT; i++)
		r->src[i] = 0xabc0000000000000ull | i;
	r->qp = (struct gd_ibgda_qp){
		.sq = r->sq,
		.nwqe = nwqe,
		.qpn = 0x1a2b3c,
		.dbrec = &r->dbrec,
		.db = flags & GD_IBGDA_CPUDB ? &r->cpudb_word : &r->db,
		.cq = r->cq,
		.ncqe = ncqe,
		.flags = flags | GD_IBGDA_SYSMEM,
		.cq_dbrec = &r->cq_dbrec,
		.ring_every = ring_every,
		.ctr = &r->ctr,
		.err = &r->err,
		.timeout_ns = 5000000000ull,
	};
	r->sig_every = nwqe / 4;
	r->nic.nqps = 1;
	r->nic.qps[0] = (struct gd_swnic_qp){.sq = r->sq,
					     .nwqe = nwqe,
					     .qpn = r->qp.qpn,
					     .dbrec = &r->dbrec,
					     .db = &r->db,
					     .cq = r->cq,
					     .ncqe = ncqe,
					     .collapsed = !!(flags & GD_IBGDA_COLLAPSED)};
	r->nic.mrs[0] = (struct gd_swnic_mr){r->src, NSLOT * 8, SRC_KEY};
	r->nic.mrs[1] = (struct gd_swnic_mr){r->dst, NSLOT * 8, DST_KEY};
	r->nic.mrs[2] = (struct gd_swnic_mr){r->res, NSLOT * 8, SRC_KEY};
	r->nic.nmrs = 3;
	r->nic.inject_err_at = GD_SWNIC_NONE;
	r->nic.stall_at = GD_SWNIC_NONE;
	r->nic.max_idle_ns = 10000000000ull;
	if (flags & GD_IBGDA_CPUDB) {
		r->cpudb.nqps = 1;
		r->cpudb.qps[0] = (struct gd_cpudb_qp){
			.prod = &r->cpudb_word, .dbrec = &r->dbrec, .db = &r->db, .qpn = r->qp.qpn};
		r->cpudb.max_idle_ns = 10000000000ull;
		assert_int_equal(gd_cpudb_start(&r->cpudb), 0);
	}
	assert_int_equal(gd_swnic_start(&r->nic), 0);
	return r;
}

static void rig_free(struct rig *r)
{
	gd_swnic_stop(&r->nic);
	gd_cpudb_stop(&r->cpudb);
	free(r->sq);
	free(r->cq);
	free(r->src);
	free(r->dst);
	free(r->res);
	free(r);
}

/* What a producer posts for item i. */
enum kind { K_WRITE, K_INLINE, K_READ, K_FA, K_MFA, K_CS };

static void build(struct rig *r, struct gd_mlx5_wqebb *w, uint64_t idx, uint32_t i, enum kind k,
		  uint32_t rkey)
{
	uint8_t ce = (idx + 1) % r->sig_every == 0 ? GD_MLX5_CTRL_CQ_UPDATE : 0;
	struct gd_mlx5_wr wr = {.opcode = GD_MLX5_OP_RDMA_WRITE,
				.fm_ce_se = ce,
				.pi = (uint16_t)idx,
				.qpn = r->qp.qpn,
				.laddr = (uintptr_t)&r->src[i],
				.lkey = SRC_KEY,
				.len = 8,
				.raddr = (uintptr_t)&r->dst[i],
				.rkey = rkey};

	switch (k) {
	case K_INLINE:
		gd_mlx5_wqe_write_inline(w, (uint16_t)idx, r->qp.qpn, ce, (uintptr_t)&r->dst[i],
					 rkey, &r->src[i], 8);
		return;
	case K_READ: /* dst -> src area of res */
		wr.opcode = GD_MLX5_OP_RDMA_READ;
		wr.laddr = (uintptr_t)&r->res[i];
		wr.raddr = (uintptr_t)&r->src[i];
		wr.rkey = rkey == DST_KEY ? SRC_KEY : rkey;
		break;
	case K_FA:
		wr.opcode = GD_MLX5_OP_ATOMIC_FA;
		wr.op1 = 1;
		wr.raddr = (uintptr_t)&r->dst[0];
		wr.laddr = (uintptr_t)&r->res[i];
		break;
	case K_MFA:
		wr.opcode = GD_MLX5_OP_ATOMIC_MASKED_FA;
		wr.op1 = 3;
		wr.len = 4;
		wr.raddr = (uintptr_t)&r->dst[1];
		wr.laddr = (uintptr_t)&r->res[i];
		break;
	case K_CS: /* dst[2] counts up: only the CAS that sees i succeeds */
		wr.opcode = GD_MLX5_OP_ATOMIC_CS;
		wr.op1 = i + 1;
		wr.op2 = i;
		wr.raddr = (uintptr_t)&r->dst[2];
		wr.laddr = (uintptr_t)&r->res[i];
		break;
	default:
		break;
	}
	gd_mlx5_wqe_rc(w, &wr);
}

struct prod_arg {
	struct rig *r;
	uint32_t first, count, batch;
	enum kind kind;
	uint32_t bad_at; /* item index that gets a wrong rkey, or UINT32_MAX */
	int rc;
};

/* A producer: batches of `batch` WQEs, like a warp (lane i writes WQE i). */
static void *producer(void *arg)
{
	struct prod_arg *a = arg;
	struct gd_ibgda_qp *qp = &a->r->qp;

	for (uint32_t done = 0; done < a->count;) {
		uint32_t n = a->count - done < a->batch ? a->count - done : a->batch;
		uint64_t base = gd_ibgda_reserve(qp, n);

		if (base == ~0ull) {
			a->rc = -1;
			return NULL;
		}
		for (uint32_t j = 0; j < n; j++) {
			struct gd_mlx5_wqebb w;
			uint32_t i = a->first + done + j;

			build(a->r, &w, base + j, i, a->kind, i == a->bad_at ? 0xbad : DST_KEY);
			gd_ib_store_wqebb(gd_ibgda_wqe_ptr(qp, base + j), &w);
		}
		if (gd_ibgda_submit(qp, base, n, 0)) {
			a->rc = -1;
			return NULL;
		}
		done += n;
	}
	return NULL;
}

/* A signalled NOP, then wait for everything. */
static int finish(struct rig *r)
{
	struct gd_mlx5_wqebb w;
	struct gd_mlx5_wr nop = {
		.opcode = GD_MLX5_OP_NOP, .fm_ce_se = GD_MLX5_CTRL_CQ_UPDATE, .qpn = r->qp.qpn};
	uint64_t base = gd_ibgda_reserve(&r->qp, 1);

	if (base == ~0ull)
		return -1;
	nop.pi = (uint16_t)base;
	gd_mlx5_wqe_rc(&w, &nop);
	gd_ib_store_wqebb(gd_ibgda_wqe_ptr(&r->qp, base), &w);
	if (gd_ibgda_publish(&r->qp, base, 1))
		return -1;
	return gd_ibgda_quiet(&r->qp, base + 1);
}

static int run(struct rig *r, int nthreads, uint32_t per, uint32_t batch, enum kind k,
	       uint32_t bad_at)
{
	pthread_t th[8];
	struct prod_arg a[8];
	int rc = 0;

	for (int t = 0; t < nthreads; t++) {
		a[t] = (struct prod_arg){r, (uint32_t)t * per, per, batch, k, bad_at, 0};
		assert_int_equal(pthread_create(&th[t], NULL, producer, &a[t]), 0);
	}
	for (int t = 0; t < nthreads; t++) {
		pthread_join(th[t], NULL);
		rc |= a[t].rc;
	}
	return rc ? rc : finish(r);
}

static void expect_clean(struct rig *r)
{
	if (r->nic.problem[0])
		fail_msg("%s", r->nic.problem);
	if (r->err.code)
		fail_msg("producer error %u syndrome %s", r->err.code,
			 gd_mlx5_syndrome_name(r->err.syndrome));
}

static void write_validate(uint32_t flags, uint32_t nwqe, uint32_t ring_every, int threads,
			   uint32_t batch, enum kind k)
{
	const uint32_t per = 4000;
	struct rig *r = rig_new(nwqe, flags, ring_every);

	assert_int_equal(run(r, threads, per, batch, k, UINT32_MAX), 0);
	expect_clean(r);
	for (uint32_t i = 0; i < per * (uint32_t)threads; i++)
		if (r->dst[i] != r->src[i])
			fail_msg("item %u: dst %llx src %llx", i, (unsigned long long)r->dst[i],
				 (unsigned long long)r->src[i]);
	assert_int_equal(r->ctr.cons_idx, r->ctr.resv_head);
	gd_swnic_stop(&r->nic); /* its counters are read after it stopped */
	assert_int_equal(r->nic.wqes, per * (uint32_t)threads + 1);
	rig_free(r);
}

static void collapsed_write(void **s)
{
	write_validate(GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 64, 8, 4, 8, K_WRITE);
}
static void collapsed_inline(void **s)
{
	write_validate(GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 64, 1, 4, 1, K_INLINE);
}
static void normal_cq_write(void **s)
{
	write_validate(GD_IBGDA_SHARED, 128, 16, 3, 4, K_WRITE);
}
static void single_owner(void **s)
{
	write_validate(GD_IBGDA_COLLAPSED, 32, 4, 1, 4, K_WRITE);
}
static void cpudb_write(void **s)
{
	write_validate(GD_IBGDA_COLLAPSED | GD_IBGDA_CPUDB, 64, 8, 4, 8, K_WRITE);
}

static void reads(void **s)
{
	struct rig *r = rig_new(64, GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 8);

	assert_int_equal(run(r, 2, 3000, 8, K_READ, UINT32_MAX), 0);
	expect_clean(r);
	for (uint32_t i = 0; i < 6000; i++)
		assert_int_equal(r->res[i], r->src[i]);
	rig_free(r);
}

static void atomics(void **s)
{
	struct rig *r = rig_new(64, GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 8);
	uint32_t v32;

	assert_int_equal(run(r, 4, 2500, 8, K_FA, UINT32_MAX), 0);
	expect_clean(r);
	assert_int_equal(r->dst[0], 10000);
	rig_free(r);

	r = rig_new(64, GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 8);
	assert_int_equal(run(r, 4, 2500, 8, K_MFA, UINT32_MAX), 0);
	expect_clean(r);
	memcpy(&v32, &r->dst[1], 4);
	assert_int_equal(v32, 30000);
	rig_free(r);

	/* one producer, in order: every CAS i -> i + 1 succeeds */
	r = rig_new(64, GD_IBGDA_COLLAPSED, 8);
	assert_int_equal(run(r, 1, 3000, 8, K_CS, UINT32_MAX), 0);
	expect_clean(r);
	assert_int_equal(r->dst[2], 3000);
	for (uint32_t i = 0; i < 3000; i++)
		assert_int_equal(r->res[i], i); /* fetched the old value */
	rig_free(r);
}

/* The PRM's byte order of 8-byte fetched results: host order with
 * atomic_req_8B_endianness_mode 1 (above), big-endian with 0; the decoder
 * the kernels use gives the old value in both. */
static void atomics_big_endian_results(void **s)
{
	struct rig *r = rig_new(64, GD_IBGDA_COLLAPSED, 8);

	gd_swnic_stop(&r->nic);
	r->nic.atomic_be = true;
	assert_int_equal(gd_swnic_start(&r->nic), 0);
	assert_int_equal(run(r, 1, 2000, 8, K_CS, UINT32_MAX), 0);
	expect_clean(r);
	assert_int_equal(r->dst[2], 2000); /* the target word stays in host order */
	for (uint32_t i = 0; i < 2000; i++) {
		assert_true(r->res[i] == __builtin_bswap64(i)); /* as the NIC wrote it */
		assert_true(gd_mlx5_fetched64(r->res[i], 1) == i);
	}
	assert_true(gd_mlx5_fetched64(5, 0) == 5);
	assert_true(gd_mlx5_fetched32(__builtin_bswap32(7)) == 7);
	rig_free(r);
}

/* Ten WRITEs, WQE 3 with a wrong rkey, then the double flushes the rest
 * (a QP in the error state), driven pass by pass. */
static struct rig *flushed(uint32_t flags)
{
	struct rig *r = rig_new(64, flags, 64);
	uint64_t base;

	gd_swnic_stop(&r->nic);
	r->nic.flush_after_error = true;
	base = gd_ibgda_reserve(&r->qp, 10);
	for (uint32_t j = 0; j < 10; j++) {
		struct gd_mlx5_wqebb w;

		build(r, &w, base + j, j, K_WRITE, j == 3 ? 0xbad : DST_KEY);
		gd_ib_store_wqebb(gd_ibgda_wqe_ptr(&r->qp, base + j), &w);
	}
	assert_int_equal(gd_ibgda_submit(&r->qp, base, 10, 1), 0);
	gd_swnic_pass(&r->nic); /* WQE 3 fails */
	gd_swnic_pass(&r->nic); /* 4..9 flushed */
	assert_int_equal(r->nic.qps[0].ci, 10);
	assert_int_equal(gd_ibgda_poll(&r->qp), -1);
	assert_int_equal(r->err.code, GD_IBGDA_ERR_CQE);
	return r;
}

/* F8: a normal CQ keeps the first error CQE (the cause); a collapsed one
 * shows the last flush, and the report says the cause may be masked. */
static void first_error_kept(void **s)
{
	struct rig *r = flushed(GD_IBGDA_SHARED); /* normal CQ */
	char line[512];

	assert_int_equal(r->err.syndrome, GD_MLX5_SYND_REMOTE_ACCESS);
	assert_int_equal(r->err.wqe_counter, 3);
	gd_ibgda_err_text(line, sizeof(line), &r->err, 0);
	assert_non_null(strstr(line, "REMOTE_ACCESS_ERR (syndrome 0x13"));
	assert_null(strstr(line, "masked"));
	rig_free(r);

	r = flushed(GD_IBGDA_COLLAPSED);
	assert_int_equal(r->err.syndrome, GD_MLX5_SYND_WR_FLUSH);
	assert_int_equal(r->err.wqe_counter, 9);
	gd_ibgda_err_text(line, sizeof(line), &r->err, 1);
	assert_non_null(strstr(line, "WR_FLUSH_ERR"));
	assert_non_null(strstr(line, "the cause may be masked"));
	rig_free(r);
}

/* The failure record's other lines: a wrong fetched value, a deadline. */
static void err_text_kinds(void **s)
{
	struct gd_ibgda_err e = {.code = GD_IBGDA_ERR_FETCH, .qpn = 0x5100, .fetched = 1ull << 56,
				 .expected = 1};
	char line[512];

	gd_ibgda_err_text(line, sizeof(line), &e, 1);
	assert_non_null(strstr(line, "decodes to 72057594037927936, 1 was due"));
	assert_non_null(strstr(line, "atomic_req_8B_endianness_mode"));
	e = (struct gd_ibgda_err){.code = GD_IBGDA_ERR_TIMEOUT, .qpn = 7, .where = 4,
				  .cons_idx = 300};
	gd_ibgda_err_text(line, sizeof(line), &e, 1);
	assert_non_null(strstr(line, "deadline passed (--timeout) on QP 0x7 in poll"));
	assert_non_null(strstr(line, "cons_idx 300"));
}

/* A wrong rkey: the double answers REMOTE_ACCESS_ERR, the producers stop
 * and the failure record names the syndrome, QPN and WQE. */
static void error_cqe_bad_key(void **s)
{
	struct rig *r = rig_new(64, GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 8);

	assert_int_not_equal(run(r, 2, 3000, 8, K_WRITE, 1234), 0);
	assert_int_equal(r->err.code, GD_IBGDA_ERR_CQE);
	assert_int_equal(r->err.syndrome, GD_MLX5_SYND_REMOTE_ACCESS);
	assert_string_equal(gd_mlx5_syndrome_name(r->err.syndrome), "REMOTE_ACCESS_ERR");
	assert_int_equal(r->err.cqe_opcode, GD_MLX5_CQE_REQ_ERR);
	assert_int_equal(r->err.qpn, r->qp.qpn);
	assert_int_equal(r->err.wqe_opcode, GD_MLX5_OP_RDMA_WRITE);
	assert_true(r->dst[1234] == 0);
	rig_free(r);
}

static void error_cqe_injected(void **s)
{
	struct rig *r = rig_new(128, GD_IBGDA_SHARED, 8); /* normal CQ */

	gd_swnic_stop(&r->nic); /* configure it while stopped */
	r->nic.inject_err_at = 777;
	r->nic.inject_syndrome = GD_MLX5_SYND_TRANSPORT_RETRY;
	assert_int_equal(gd_swnic_start(&r->nic), 0);
	assert_int_not_equal(run(r, 2, 2000, 4, K_WRITE, UINT32_MAX), 0);
	assert_int_equal(r->err.code, GD_IBGDA_ERR_CQE);
	assert_string_equal(gd_mlx5_syndrome_name(r->err.syndrome), "TRANSPORT_RETRY_CNT_ERR");
	assert_int_equal(r->err.wqe_counter, 777);
	rig_free(r);
}

/* The NIC stops at WQE 300: the producers' deadline fires with the indices. */
static void stalled_nic(void **s)
{
	struct rig *r = rig_new(64, GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 8);

	r->qp.timeout_ns = 200000000ull;
	gd_swnic_stop(&r->nic);
	r->nic.stall_at = 300;
	assert_int_equal(gd_swnic_start(&r->nic), 0);
	assert_int_not_equal(run(r, 2, 2000, 8, K_WRITE, UINT32_MAX), 0);
	assert_int_equal(r->err.code, GD_IBGDA_ERR_TIMEOUT);
	assert_int_equal(r->err.qpn, r->qp.qpn);
	assert_true(r->err.cons_idx <= 300);
	assert_true(r->err.resv_head > 300);
	assert_true(r->err.prod_idx >= 300);
	gd_swnic_stop(&r->nic);
	assert_int_equal(r->nic.qps[0].ci, 300);
	rig_free(r);
}

/* The run budget: a stalled NIC with a long per-wait timeout still ends at
 * the run's deadline, recorded as such (where 5), and the stop flag halts
 * every other producer. */
static void run_budget(void **s)
{
	struct rig *r = rig_new(64, GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 8);
	struct gd_ibgda_ctl ctl = {.budget_ns = 150000000ull};
	uint64_t t0 = gd_ib_now();

	r->qp.timeout_ns = 60000000000ull;
	r->qp.ctl = &ctl;
	gd_swnic_stop(&r->nic);
	r->nic.stall_at = 300;
	assert_int_equal(gd_swnic_start(&r->nic), 0);
	gd_ibgda_run_start(&r->qp);
	assert_int_not_equal(run(r, 3, 2000, 8, K_WRITE, UINT32_MAX), 0);
	assert_true(gd_ib_now() - t0 < 5000000000ull);
	assert_int_equal(r->err.code, GD_IBGDA_ERR_TIMEOUT);
	assert_int_equal(r->err.where, 5);
	assert_int_equal(ctl.stop, 1);
	rig_free(r);
}

/* Many producers on one QP with single-WQE batches (thread scope without
 * coalescing): the combining doorbell rings for waiting publishers, the
 * data is right and the doorbell record never passes what is published. */
static void combining_many(void **s)
{
	write_validate(GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 256, 4, 8, 1, K_WRITE);
}

/* Rate-mode double: completes below the doorbell record without reading
 * the queue. */
static void consume_only(void **s)
{
	struct rig *r = rig_new(64, GD_IBGDA_COLLAPSED | GD_IBGDA_SHARED, 16);

	gd_swnic_stop(&r->nic);
	r->nic.consume_only = true;
	assert_int_equal(gd_swnic_start(&r->nic), 0);
	assert_int_equal(run(r, 4, 5000, 8, K_WRITE, UINT32_MAX), 0);
	expect_clean(r);
	assert_int_equal(r->ctr.cons_idx, 20001);
	assert_int_equal(r->dst[5], 0); /* nothing executed */
	rig_free(r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(collapsed_write),
		cmocka_unit_test(collapsed_inline),
		cmocka_unit_test(normal_cq_write),
		cmocka_unit_test(single_owner),
		cmocka_unit_test(cpudb_write),
		cmocka_unit_test(reads),
		cmocka_unit_test(atomics),
		cmocka_unit_test(atomics_big_endian_results),
		cmocka_unit_test(first_error_kept),
		cmocka_unit_test(err_text_kinds),
		cmocka_unit_test(error_cqe_bad_key),
		cmocka_unit_test(error_cqe_injected),
		cmocka_unit_test(stalled_nic),
		cmocka_unit_test(consume_only),
		cmocka_unit_test(run_budget),
		cmocka_unit_test(combining_many),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
