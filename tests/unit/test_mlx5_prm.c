/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Our PRM layouts: every field's set/get round trip touches exactly its own
 * bits (checked bit by bit against the offset in the table), no two fields
 * of a layout overlap, the accessors agree with rdma-core's DEVX_SET/GET
 * arithmetic, and spot checks put well-known fields at the byte and mask the
 * PRM gives (written out by hand, independent of the table).
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>
#include <infiniband/mlx5dv.h>

#include "mlx5_prm.h"

enum { BUFSZ = GD_PRM_BYTES(QUERY_HCA_CAP_OUT) };

static uint64_t rng = 0x1234567887654321ull;

static uint64_t rnd(void)
{
	rng ^= rng << 13;
	rng ^= rng >> 7;
	rng ^= rng << 17;
	return rng;
}

static int bit(const uint8_t *b, unsigned i)
{
	return (b[i / 8] >> (7 - i % 8)) & 1;
}

/* Set one field to a random value in a zeroed and in an all-ones buffer:
 * exactly bits [off, off + w) change, and get returns the value. */
static void every_field_roundtrip(void **state)
{
	static uint8_t zero[BUFSZ], ones[BUFSZ];

	for (size_t i = 0; i < gd_prm_nfields; i++) {
		const struct gd_prm_field *f = &gd_prm_fields[i];
		uint64_t mask = f->width == 64 ? ~0ull : (1ull << f->width) - 1;

		if (!f->width)
			continue;
		for (int rep = 0; rep < 64; rep++) {
			uint64_t v = rnd() & mask;

			memset(zero, 0, sizeof(zero));
			memset(ones, 0xff, sizeof(ones));
			gd_prm_set(zero, f->off, f->width, v);
			gd_prm_set(ones, f->off, f->width, v);
			if (gd_prm_get(zero, f->off, f->width) != v ||
			    gd_prm_get(ones, f->off, f->width) != v)
				fail_msg("%s.%s: get != set", f->layout, f->name);
			for (unsigned b = 0; b < f->layout_bits; b++) {
				int in = b >= f->off && b < f->off + f->width;
				int want = in ? (int)((v >> (f->off + f->width - 1 - b)) & 1) : -1;

				if (in && (bit(zero, b) != want || bit(ones, b) != want))
					fail_msg("%s.%s: bit %u wrong", f->layout, f->name, b);
				if (!in && (bit(zero, b) != 0 || bit(ones, b) != 1))
					fail_msg("%s.%s: touched bit %u outside", f->layout, f->name, b);
			}
		}
	}
}

static void no_overlap(void **state)
{
	for (size_t i = 0; i < gd_prm_nfields; i++)
		for (size_t j = i + 1; j < gd_prm_nfields; j++) {
			const struct gd_prm_field *a = &gd_prm_fields[i], *b = &gd_prm_fields[j];

			if (strcmp(a->layout, b->layout) || !a->width || !b->width)
				continue;
			if (a->off < b->off + b->width && b->off < a->off + a->width)
				fail_msg("%s.%s overlaps %s", a->layout, a->name, b->name);
		}
}

/* The same field through rdma-core's DEVX arithmetic (a bits-struct that
 * only places one field) gives the same bytes. */
struct mlx5_ifc_probe32_bits {
	uint8_t pad[0x68];
	uint8_t fld[0x18];
	uint8_t tail[0x20];
};

static void devx_agrees(void **state)
{
	uint8_t a[16], b[16];

	for (int i = 0; i < 1000; i++) {
		uint32_t v = (uint32_t)rnd() & 0xffffff;

		memset(a, 0, sizeof(a));
		memset(b, 0, sizeof(b));
		DEVX_SET(probe32, a, fld, v);
		gd_prm_set(b, 0x68, 24, v);
		assert_memory_equal(a, b, sizeof(a));
		assert_int_equal(DEVX_GET(probe32, b, fld), v);
	}
}

/* Hand-written positions (byte, mask) from the PRM, for the fields whose
 * misplacement would break a real CREATE_CQ / CREATE_QP / modify. */
struct spot {
	const char *what;
	size_t byte;
	uint8_t mask;
};

static void check_spot(void (*setter)(uint8_t *), const struct spot *s, size_t n)
{
	static uint8_t buf[BUFSZ];

	for (size_t i = 0; i < n; i++) {
		memset(buf, 0, sizeof(buf));
		setter(buf);
		if (buf[s[i].byte] != s[i].mask)
			fail_msg("%s: byte %zu is 0x%02x, PRM says 0x%02x", s[i].what, s[i].byte,
				 buf[s[i].byte], s[i].mask);
	}
}

static void cq_cc(uint8_t *b) { gd_prm_set(GD_PRM_SUB(b, CREATE_CQ_IN, CQC), GD_F(CQC, CC), 1); }
static void cq_oi(uint8_t *b) { gd_prm_set(GD_PRM_SUB(b, CREATE_CQ_IN, CQC), GD_F(CQC, OI), 1); }
static void cq_log(uint8_t *b)
{
	gd_prm_set(GD_PRM_SUB(b, CREATE_CQ_IN, CQC), GD_F(CQC, LOG_CQ_SIZE), 0x1f);
}
static void cq_umem_valid(uint8_t *b) { gd_prm_set(b, GD_F(CREATE_CQ_IN, CQ_UMEM_VALID), 1); }
static void cq_opcode(uint8_t *b) { gd_prm_set(b, GD_F(CREATE_CQ_IN, OPCODE), GD_PRM_OP_CREATE_CQ); }
static void qp_pd(uint8_t *b) { gd_prm_set(GD_PRM_SUB(b, CREATE_QP_IN, QPC), GD_F(QPC, PD), 0xffffff); }
static void qp_sq(uint8_t *b)
{
	gd_prm_set(GD_PRM_SUB(b, CREATE_QP_IN, QPC), GD_F(QPC, LOG_SQ_SIZE), 0xf);
}
static void qp_wq_valid(uint8_t *b) { gd_prm_set(b, GD_F(CREATE_QP_IN, WQ_UMEM_VALID), 1); }
static void qp_dbr_valid(uint8_t *b)
{
	gd_prm_set(GD_PRM_SUB(b, CREATE_QP_IN, QPC), GD_F(QPC, DBR_UMEM_VALID), 1);
}
static void qp_rae(uint8_t *b) { gd_prm_set(GD_PRM_SUB(b, MODIFY_QP_IN, QPC), GD_F(QPC, RAE), 1); }
static void qp_port(uint8_t *b)
{
	uint8_t *ads = GD_PRM_SUB(GD_PRM_SUB(b, MODIFY_QP_IN, QPC), QPC, PRIMARY_ADDRESS_PATH);

	gd_prm_set(ads, GD_F(ADS, VHCA_PORT_NUM), 0xff);
}
static void qp_qpn(uint8_t *b) { gd_prm_set(b, GD_F(MODIFY_QP_IN, QPN), 0x800001); }

static void prm_spots(void **state)
{
	/* create_cq_in: cqc starts at byte 0x10; cc is bit 0x0b, oi bit 0x0e of its
	 * first dword; log_cq_size bits 0x63..0x67; cq_umem_valid at byte 0x5c. */
	const struct spot cc = { "cqc.cc", 0x11, 0x10 }, oi = { "cqc.oi", 0x11, 0x02 },
			  lg = { "cqc.log_cq_size", 0x1c, 0x1f },
			  uv = { "create_cq_in.cq_umem_valid", 0x5c, 0x80 },
			  op = { "create_cq_in.opcode", 0x00, 0x04 },
			  pd = { "qpc.pd", 0x18 + 5, 0xff }, sq = { "qpc.log_sq_size", 0x18 + 10, 0x78 },
			  wq = { "create_qp_in.wq_umem_valid", 0x10c, 0x80 },
			  dv = { "qpc.dbr_umem_valid", 0x18 + 0xd0, 0x10 },
			  ra = { "qpc.rae", 0x18 + 0x92, 0x20 },
			  pt = { "ads.vhca_port_num", 0x18 + 0x18 + 0x25, 0xff },
			  qn = { "modify_qp_in.qpn", 0x09, 0x80 };

	check_spot(cq_cc, &cc, 1);
	check_spot(cq_oi, &oi, 1);
	check_spot(cq_log, &lg, 1);
	check_spot(cq_umem_valid, &uv, 1);
	check_spot(cq_opcode, &op, 1);
	check_spot(qp_pd, &pd, 1);
	check_spot(qp_sq, &sq, 1);
	check_spot(qp_wq_valid, &wq, 1);
	check_spot(qp_dbr_valid, &dv, 1);
	check_spot(qp_rae, &ra, 1);
	check_spot(qp_port, &pt, 1);
	check_spot(qp_qpn, &qn, 1);
}

static void sixty_four(void **state)
{
	uint8_t b[GD_PRM_BYTES(CREATE_QP_IN)];
	static const uint8_t want[8] = { 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08 };

	memset(b, 0, sizeof(b));
	gd_prm_set(GD_PRM_SUB(b, CREATE_QP_IN, QPC), GD_F(QPC, DBR_ADDR), 0x0102030405060708ull);
	assert_memory_equal(b + 0x18 + 0xa0, want, 8);
	assert_int_equal(gd_prm_get(GD_PRM_SUB(b, CREATE_QP_IN, QPC), GD_F(QPC, DBR_ADDR)),
			 0x0102030405060708ull);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_field_roundtrip), cmocka_unit_test(no_overlap),
		cmocka_unit_test(devx_agrees),           cmocka_unit_test(prm_spots),
		cmocka_unit_test(sixty_four),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
