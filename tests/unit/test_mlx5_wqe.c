/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The shared mlx5 encoders: byte-for-byte against rdma-core's own
 * mlx5dv_set_ctrl_seg / mlx5dv_set_data_seg for random fields, golden bytes
 * written from the PRM for the remote-address, atomic and masked segments,
 * parse round trips, doorbell values, and exhaustive ring/counter/owner-bit
 * logic on small rings.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <endian.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <infiniband/mlx5dv.h>

#include "mlx5_dump.h"
#include "mlx5_wqe.h"

static uint64_t rng = 0x9e3779b97f4a7c15ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static void ctrl_vs_rdma_core(void **state)
{
	_Static_assert(sizeof(struct mlx5_wqe_ctrl_seg) == sizeof(struct gd_mlx5_seg), "ctrl");
	for (int i = 0; i < 100000; i++) {
		struct mlx5_wqe_ctrl_seg ref;
		struct gd_mlx5_seg ours;
		uint16_t pi = (uint16_t)rnd();
		uint8_t op = (uint8_t)rnd(), opmod = (uint8_t)rnd(), fm = (uint8_t)rnd();
		uint8_t ds = (uint8_t)(rnd() & 0x3f), sig = (uint8_t)rnd();
		uint32_t qpn = (uint32_t)rnd() & 0xffffff, imm = (uint32_t)rnd();

		memset(&ref, 0, sizeof(ref));
		mlx5dv_set_ctrl_seg(&ref, pi, op, opmod, qpn, fm, ds, sig, imm);
		ours = gd_mlx5_ctrl(pi, op, opmod, qpn, fm, ds, sig, imm);
		if (memcmp(&ref, &ours, 16))
			fail_msg("ctrl differs: pi %u op %u opmod %u qpn %u fm %u ds %u", pi, op, opmod,
				 qpn, fm, ds);
	}
}

static void data_vs_rdma_core(void **state)
{
	_Static_assert(sizeof(struct mlx5_wqe_data_seg) == sizeof(struct gd_mlx5_seg), "data");
	for (int i = 0; i < 100000; i++) {
		struct mlx5_wqe_data_seg ref;
		struct gd_mlx5_seg ours;
		uint32_t len = (uint32_t)rnd(), lkey = (uint32_t)rnd();
		uint64_t addr = rnd();

		mlx5dv_set_data_seg(&ref, len, lkey, (uintptr_t)addr);
		ours = gd_mlx5_data(len, lkey, addr);
		assert_memory_equal(&ref, &ours, 16);
	}
}

/* The remote-address and atomic segments as libmlx5 fills rdma-core's own
 * structs (qp.c set_raddr_seg / set_atomic_seg: htobe64 of swap_add and
 * compare; FETCH_ADD puts the addend in swap_add), and a whole 8-byte atomic
 * WQE as the IBGDA kernels build it: ctrl (rdma-core's helper), raddr,
 * atomic, data. */
static void atomic_vs_rdma_core(void **state)
{
	(void)state;
	for (uint32_t i = 0; i < 500; i++) {
		uint64_t a = rnd(), b = rnd(), raddr = rnd() & ~7ull, laddr = rnd();
		uint32_t rkey = (uint32_t)rnd(), lkey = (uint32_t)rnd(), qpn = i * 77 & 0xffffff;
		bool cas = i & 1;
		struct mlx5_wqe_raddr_seg rs = {.raddr = htobe64(raddr), .rkey = htobe32(rkey)};
		struct mlx5_wqe_atomic_seg as = {.swap_add = htobe64(a),
						 .compare = htobe64(cas ? b : 0)};
		struct gd_mlx5_seg s = gd_mlx5_raddr(raddr, rkey);
		struct gd_mlx5_wqebb w, ref;
		struct gd_mlx5_wr wr = {.opcode = cas ? GD_MLX5_OP_ATOMIC_CS : GD_MLX5_OP_ATOMIC_FA,
					.fm_ce_se = GD_MLX5_CTRL_CQ_UPDATE, .pi = (uint16_t)i,
					.qpn = qpn, .laddr = laddr, .lkey = lkey, .len = 8,
					.raddr = raddr, .rkey = rkey, .op1 = a, .op2 = b};

		assert_memory_equal(&s, &rs, 16);
		s = gd_mlx5_atomic(a, cas ? b : 0);
		assert_memory_equal(&s, &as, 16);
		memset(&ref, 0, sizeof(ref));
		mlx5dv_set_ctrl_seg((struct mlx5_wqe_ctrl_seg *)&ref.s[0], (uint16_t)i, wr.opcode, 0,
				    qpn, GD_MLX5_CTRL_CQ_UPDATE, 4, 0, 0);
		memcpy(&ref.s[1], &rs, 16);
		memcpy(&ref.s[2], &as, 16);
		mlx5dv_set_data_seg((struct mlx5_wqe_data_seg *)&ref.s[3], 8, lkey, laddr);
		assert_int_equal(gd_mlx5_wqe_rc(&w, &wr), 4);
		assert_memory_equal(&w, &ref, 64);
	}
}

/* Golden bytes from the PRM tables (doc/notes/ibgda.md section 2.2). */
static void raddr_atomic_golden(void **state)
{
	static const uint8_t raddr[16] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab, 0xcd, 0xef,
					   0xde, 0xad, 0xbe, 0xef, 0, 0, 0, 0 };
	static const uint8_t atomic[16] = { 0, 0, 0, 0, 0, 0, 0, 0x05,
					    0x11, 0x22, 0x33, 0x44, 0x55, 0x66, 0x77, 0x88 };
	static const uint8_t mfa[16] = { 0x00, 0x00, 0x00, 0x07, 0x80, 0x00, 0x00, 0x00,
					 0, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t mcs[16] = { 0xaa, 0xbb, 0xcc, 0xdd, 0x00, 0x00, 0x00, 0x01,
					 0xff, 0xff, 0x00, 0x00, 0x0f, 0x0f, 0x0f, 0x0f };
	static const uint8_t mcs64[32] = { 0, 0, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0, 0, 0, 0, 0x01,
					   0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0,
					   0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff };
	struct gd_mlx5_seg s, two[2];

	s = gd_mlx5_raddr(0x0123456789abcdefull, 0xdeadbeef);
	assert_memory_equal(&s, raddr, 16);
	s = gd_mlx5_atomic(5, 0x1122334455667788ull);
	assert_memory_equal(&s, atomic, 16);
	s = gd_mlx5_masked_fa32(7, 0x80000000u);
	assert_memory_equal(&s, mfa, 16);
	s = gd_mlx5_masked_cs32(0xaabbccdd, 1, 0xffff0000u, 0x0f0f0f0f);
	assert_memory_equal(&s, mcs, 16);
	gd_mlx5_masked_cs64(two, 2, 1, 0xffffffff00000000ull, ~0ull);
	assert_memory_equal(two, mcs64, 32);
}

static void inline_golden(void **state)
{
	static const uint8_t want[32] = { 0x80, 0, 0, 5, 'h', 'e', 'l', 'l', 'o', 0, 0, 0, 0, 0, 0, 0,
					  0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee,
					  0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee, 0xee };
	struct gd_mlx5_seg s[2];

	memset(s, 0xee, sizeof(s));
	gd_mlx5_inline(s, "hello", 5);
	assert_memory_equal(s, want, 32);
	assert_int_equal(gd_mlx5_inline_ds(0), 3);
	assert_int_equal(gd_mlx5_inline_ds(12), 3);
	assert_int_equal(gd_mlx5_inline_ds(13), 4);
	assert_int_equal(gd_mlx5_inline_ds(28), 4);
	assert_int_equal(gd_mlx5_inline_ds(29), 5);
	for (uint32_t len = 0; len <= GD_MLX5_INLINE_MAX; len++) {
		uint32_t ds = gd_mlx5_inline_ds(len);

		assert_true(ds * 16 >= 32 + 4 + len && ds * 16 < 32 + 4 + len + 16);
		assert_int_equal(gd_mlx5_wqebbs(ds), (ds * 16 + 63) / 64);
	}
}

static void roundtrip_one(uint8_t op)
{
	struct gd_mlx5_wqebb w;
	struct gd_mlx5_wqe_view v;
	struct gd_mlx5_wr wr = {
		.opcode = op, .fm_ce_se = (uint8_t)(rnd() & 0xe), .pi = (uint16_t)rnd(),
		.qpn = (uint32_t)rnd() & 0xffffff, .laddr = rnd(), .lkey = (uint32_t)rnd(),
		.len = (uint32_t)rnd() & 0x7fffffff, .raddr = rnd(), .rkey = (uint32_t)rnd(),
		.imm = (uint32_t)rnd(), .op1 = rnd(), .op2 = rnd(),
	};
	uint8_t ds = gd_mlx5_wqe_rc(&w, &wr);

	assert_int_equal(gd_mlx5_wqe_parse((const uint8_t *)&w, &v), 0);
	assert_int_equal(v.opcode, op);
	assert_int_equal(v.ds, ds);
	assert_int_equal(v.pi, wr.pi);
	assert_int_equal(v.qpn, wr.qpn);
	assert_int_equal(v.fm_ce_se, wr.fm_ce_se);
	if (op == GD_MLX5_OP_NOP)
		return;
	assert_int_equal(v.raddr, wr.raddr);
	assert_int_equal(v.rkey, wr.rkey);
	assert_int_equal(v.laddr, wr.laddr);
	assert_int_equal(v.lkey, wr.lkey);
	assert_int_equal(v.len, wr.len);
	if (op == GD_MLX5_OP_RDMA_WRITE_IMM)
		assert_int_equal(v.imm, wr.imm);
	if (op == GD_MLX5_OP_ATOMIC_FA || op == GD_MLX5_OP_ATOMIC_CS)
		assert_int_equal(v.op1, wr.op1);
	if (op == GD_MLX5_OP_ATOMIC_CS)
		assert_int_equal(v.op2, wr.op2);
	if (op == GD_MLX5_OP_ATOMIC_MASKED_FA || op == GD_MLX5_OP_ATOMIC_MASKED_CS) {
		assert_int_equal(v.opmod, GD_MLX5_OPMOD_EXT_ATOMIC_4B);
		assert_int_equal(v.op1, (uint32_t)wr.op1);
		assert_int_equal(v.op2, (uint32_t)wr.op2);
	}
}

static void wqe_roundtrip(void **state)
{
	static const uint8_t ops[] = { GD_MLX5_OP_NOP, GD_MLX5_OP_RDMA_WRITE,
				       GD_MLX5_OP_RDMA_WRITE_IMM, GD_MLX5_OP_RDMA_READ,
				       GD_MLX5_OP_ATOMIC_FA, GD_MLX5_OP_ATOMIC_CS,
				       GD_MLX5_OP_ATOMIC_MASKED_FA, GD_MLX5_OP_ATOMIC_MASKED_CS };

	for (int i = 0; i < 20000; i++)
		roundtrip_one(ops[i % sizeof(ops)]);
}

static void inline_roundtrip(void **state)
{
	uint8_t payload[28];

	for (uint32_t len = 0; len <= 28; len++) {
		struct gd_mlx5_wqebb w;
		struct gd_mlx5_wqe_view v;

		for (uint32_t i = 0; i < len; i++)
			payload[i] = (uint8_t)rnd();
		gd_mlx5_wqe_write_inline(&w, 7, 0x1234, GD_MLX5_CTRL_CQ_UPDATE, 0x1000, 0x55, payload,
					 len);
		assert_int_equal(gd_mlx5_wqe_parse((const uint8_t *)&w, &v), 0);
		assert_true(v.is_inline);
		assert_int_equal(v.len, len);
		assert_int_equal(v.ds, gd_mlx5_inline_ds(len));
		assert_memory_equal(v.inline_data, payload, len);
	}
}

static void parse_rejects(void **state)
{
	struct gd_mlx5_wqebb w;
	struct gd_mlx5_wqe_view v;
	struct gd_mlx5_wr wr = { .opcode = GD_MLX5_OP_RDMA_READ, .len = 8 };

	gd_mlx5_wqe_rc(&w, &wr);
	w.s[0] = gd_mlx5_ctrl(0, GD_MLX5_OP_RDMA_READ, 0, 1, 0, 2, 0, 0);
	assert_int_equal(gd_mlx5_wqe_parse((const uint8_t *)&w, &v), -1);
	w.s[0] = gd_mlx5_ctrl(0, GD_MLX5_OP_ATOMIC_FA, 0, 1, 0, 3, 0, 0);
	assert_int_equal(gd_mlx5_wqe_parse((const uint8_t *)&w, &v), -1);
}

static void doorbells(void **state)
{
	static const uint8_t dbr[4] = { 0x00, 0x00, 0x12, 0x34 };
	static const uint8_t db[8] = { 0x00, 0x12, 0x34, 0x00, 0xab, 0xcd, 0xef, 0x00 };
	uint32_t d = gd_mlx5_dbr_value(0x7771234ull);
	uint64_t b = gd_mlx5_db_value(0xabcdef, 0x51234);
	struct mlx5_wqe_ctrl_seg ref;

	assert_memory_equal(&d, dbr, 4);
	assert_memory_equal(&b, db, 8);
	/* the doorbell equals the first 8 bytes of a control segment */
	for (int i = 0; i < 10000; i++) {
		uint16_t pi = (uint16_t)rnd();
		uint32_t qpn = (uint32_t)rnd() & 0xffffff;

		mlx5dv_set_ctrl_seg(&ref, pi, 0, 0, qpn, 0, 0, 0, 0);
		b = gd_mlx5_db_value(qpn, pi | (rnd() << 16));
		assert_memory_equal(&b, &ref, 8);
	}
	d = gd_mlx5_cq_dbr_value(0x12345678);
	assert_int_equal(gd_mlx5_rd32((const uint8_t *)&d), 0x345678);
}

/* Every reservation on rings of 2..64 entries: room, slots, wrap. */
static void ring_wrap(void **state)
{
	for (uint32_t n = 2; n <= 64; n *= 2)
		for (uint64_t cons = 0; cons < 4 * n; cons++)
			for (uint64_t base = cons; base <= cons + n; base++)
				for (uint32_t k = 1; k <= n + 1; k++) {
					int room = gd_mlx5_sq_room(base, k, cons, n);

					assert_int_equal(room, base + k <= cons + n);
					for (uint32_t j = 0; room && j < k; j++)
						assert_int_equal(gd_mlx5_slot(base + j, n),
								 (base + j) % n);
				}
}

/* Collapsed CQ: done-test and 64-bit rebuild over every 16-bit wrap case. */
static void collapsed_counter(void **state)
{
	for (uint64_t hi = 0; hi < 3; hi++)
		for (uint32_t c = 0; c < 0x10000; c += 1 + (c % 7)) {
			uint64_t done = (hi << 16) + c + 1; /* WQEBBs below done completed */

			for (uint64_t d = 0; d < 2048; d += 17) {
				uint64_t ref = done + d; /* producer index >= consumer */

				assert_int_equal(gd_mlx5_cons_from_counter(ref, (uint16_t)c), done);
				assert_true(gd_mlx5_collapsed_done(done, (uint16_t)c));
				assert_true(gd_mlx5_collapsed_done(done - (d % 1000), (uint16_t)c));
				assert_false(gd_mlx5_collapsed_done(done + 1 + d, (uint16_t)c));
			}
		}
}

/* Normal CQ owner bit: a NIC writing entry ci with owner (ci / n) & 1 is new
 * exactly at ci, and stale one lap later. */
static void cqe_owner(void **state)
{
	uint8_t ring[8][64];
	const uint32_t n = 8;

	memset(ring, 0xff, sizeof(ring)); /* never written: opcode INVALID */
	for (uint32_t ci = 0; ci < n; ci++)
		assert_false(gd_mlx5_cqe_is_new(ring[ci], ci, n));
	for (uint32_t ci = 0; ci < 64 * n; ci++) {
		uint8_t *e = ring[ci % n];

		assert_false(gd_mlx5_cqe_is_new(e, ci, n));
		gd_mlx5_cqe_fill(e, GD_MLX5_CQE_REQ, (ci / n) & 1, (uint16_t)ci, 0x77, 0x08, 64, 0, 0);
		assert_true(gd_mlx5_cqe_is_new(e, ci, n));
		assert_false(gd_mlx5_cqe_is_new(e, ci + n, n));
		assert_int_equal(gd_mlx5_cqe_wqe_counter(e), (uint16_t)ci);
		assert_int_equal(gd_mlx5_cqe_qpn(e), 0x77);
		assert_int_equal(gd_mlx5_cqe_byte_cnt(e), 64);
	}
}

static void cqe_error_names(void **state)
{
	uint8_t e[64];
	struct mlx5_err_cqe *ref = (struct mlx5_err_cqe *)e;

	gd_mlx5_cqe_fill(e, GD_MLX5_CQE_REQ_ERR, 1, 0xbeef, 0x123456, 0x08, 0, 0x13, 0x88);
	assert_int_equal(gd_mlx5_cqe_opcode(e), GD_MLX5_CQE_REQ_ERR);
	/* rdma-core's error CQE view agrees on where things are */
	assert_int_equal(ref->syndrome, 0x13);
	assert_int_equal(ref->vendor_err_synd, 0x88);
	assert_int_equal(be16toh(ref->wqe_counter), 0xbeef);
	assert_int_equal(be32toh(ref->s_wqe_opcode_qpn), 0x08123456);
	assert_int_equal(mlx5dv_get_cqe_opcode((struct mlx5_cqe64 *)e), MLX5_CQE_REQ_ERR);
	assert_int_equal(mlx5dv_get_cqe_owner((struct mlx5_cqe64 *)e), 1);
	assert_string_equal(gd_mlx5_syndrome_name(0x13), "REMOTE_ACCESS_ERR");
	assert_string_equal(gd_mlx5_syndrome_name(0x15), "TRANSPORT_RETRY_CNT_ERR");
	assert_string_equal(gd_mlx5_syndrome_name(0x05), "WR_FLUSH_ERR");
	assert_string_equal(gd_mlx5_syndrome_name(0x99), "UNKNOWN_SYNDROME");
	/* our constants are rdma-core's */
	assert_int_equal(GD_MLX5_SYND_REMOTE_ACCESS, MLX5_CQE_SYNDROME_REMOTE_ACCESS_ERR);
	assert_int_equal(GD_MLX5_SYND_TRANSPORT_RETRY, MLX5_CQE_SYNDROME_TRANSPORT_RETRY_EXC_ERR);
	assert_int_equal(GD_MLX5_SYND_RNR_RETRY, MLX5_CQE_SYNDROME_RNR_RETRY_EXC_ERR);
	assert_int_equal(GD_MLX5_SYND_REMOTE_ABORTED, MLX5_CQE_SYNDROME_REMOTE_ABORTED_ERR);
	assert_int_equal(GD_MLX5_OP_ATOMIC_MASKED_FA, MLX5_OPCODE_ATOMIC_MASKED_FA);
	assert_int_equal(GD_MLX5_OP_RDMA_READ, MLX5_OPCODE_RDMA_READ);
	assert_int_equal(GD_MLX5_CTRL_CQ_UPDATE, MLX5_WQE_CTRL_CQ_UPDATE);
	assert_int_equal(GD_MLX5_CQE_INVALID, MLX5_CQE_INVALID);
}

static void dump_lines(void **state)
{
	struct gd_mlx5_wqebb w[2];
	struct gd_mlx5_wr wr = { .opcode = GD_MLX5_OP_ATOMIC_FA, .fm_ce_se = GD_MLX5_CTRL_CQ_UPDATE,
				 .pi = 0, .qpn = 0xabc, .laddr = 0x1000, .lkey = 7, .len = 8,
				 .raddr = 0x2000, .rkey = 9, .op1 = 5 };
	char line[512], buf[2048];
	uint8_t cqe[64];
	FILE *m;

	gd_mlx5_wqe_rc(&w[0], &wr);
	gd_mlx5_format_wqe(line, sizeof(line), (const uint8_t *)&w[0]);
	assert_non_null(strstr(line, "ATOMIC_FA"));
	assert_non_null(strstr(line, "qpn 0x000abc"));
	assert_non_null(strstr(line, "signalled"));
	assert_non_null(strstr(line, "add=0x5"));
	assert_non_null(strstr(line, "raddr 0x2000 rkey 0x9"));
	gd_mlx5_wqe_write_inline(&w[1], 1, 0xabc, 0, 0x3000, 4, "abcd", 4);
	m = fmemopen(buf, sizeof(buf), "w");
	gd_mlx5_dump_ring(m, (const uint8_t *)w, 2, 2);
	fclose(m);
	assert_non_null(strstr(buf, "wqe     1 RDMA_WRITE"));
	assert_non_null(strstr(buf, "inline 4 bytes"));
	gd_mlx5_cqe_fill(cqe, GD_MLX5_CQE_REQ_ERR, 0, 9, 0xabc, 8, 0, 0x13, 0x88);
	gd_mlx5_format_cqe(line, sizeof(line), cqe);
	assert_non_null(strstr(line, "REMOTE_ACCESS_ERR"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ctrl_vs_rdma_core),  cmocka_unit_test(data_vs_rdma_core),
		cmocka_unit_test(raddr_atomic_golden), cmocka_unit_test(inline_golden),
		cmocka_unit_test(atomic_vs_rdma_core),
		cmocka_unit_test(wqe_roundtrip),      cmocka_unit_test(inline_roundtrip),
		cmocka_unit_test(parse_rejects),      cmocka_unit_test(doorbells),
		cmocka_unit_test(ring_wrap),          cmocka_unit_test(collapsed_counter),
		cmocka_unit_test(cqe_owner),          cmocka_unit_test(cqe_error_names),
		cmocka_unit_test(dump_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
