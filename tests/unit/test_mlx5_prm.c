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

#include "mlx5_cmd.h"
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

#define GET(b, l, f) gd_prm_get((b), GD_F(l, f))

/* The command images: what a real ConnectX will read (doc/notes/ibgda.md 1.2). */
static void cmd_images(void **state)
{
	uint8_t cq[GD_PRM_BYTES(CREATE_CQ_IN)], qp[GD_PRM_BYTES(CREATE_QP_IN)];
	uint8_t m[GD_PRM_BYTES(MODIFY_QP_IN)], h[GD_PRM_BYTES(QUERY_HCA_CAP_IN)];
	const struct gd_cq_attr ca = { .log_size = 0, .uar_page = 0x123, .eqn = 7, .umem_id = 0x55,
				       .dbr_umem_id = 0x66, .umem_offset = 0x10000,
				       .dbr_offset = 0x40, .collapsed = true };
	const struct gd_qp_attr qa = { .pd = 0x9, .uar_page = 0x124, .cqn = 0x400, .log_sq_size = 10,
				       .umem_id = 0x77, .dbr_umem_id = 0x88, .dbr_offset = 8 };
	struct gd_qp_path pa = { .qpn = 0x1234, .remote_qpn = 0x4321, .port = 1, .mtu = 5,
				 .log_rra_max = 4, .log_sra_max = 4, .psn_send = 0x11, .psn_recv = 0x22,
				 .roce = true, .udp_sport = 0xc123, .sl = 3, .tclass = 0x68,
				 .gid_index = 3, .ack_timeout = 17,
				 .rmac = { 0x0c, 0x42, 0xa1, 0x02, 0x03, 0x04 } };
	uint8_t *c, *q, *ads;

	memset(pa.rgid, 0xab, 16);
	gd_cmd_query_hca_cap(h, GD_PRM_HCA_CAP_ATOMIC);
	assert_int_equal(GET(h, QUERY_HCA_CAP_IN, OPCODE), 0x100);
	assert_int_equal(GET(h, QUERY_HCA_CAP_IN, OP_MOD), 0x7);

	gd_cmd_create_cq(cq, &ca);
	c = GD_PRM_SUB(cq, CREATE_CQ_IN, CQC);
	assert_int_equal(GET(cq, CREATE_CQ_IN, OPCODE), 0x400);
	assert_int_equal(GET(cq, CREATE_CQ_IN, CQ_UMEM_VALID), 1);
	assert_int_equal(GET(cq, CREATE_CQ_IN, CQ_UMEM_ID), 0x55);
	assert_int_equal(GET(cq, CREATE_CQ_IN, CQ_UMEM_OFFSET), 0x10000);
	assert_int_equal(GET(c, CQC, CC), 1);
	assert_int_equal(GET(c, CQC, OI), 1);
	assert_int_equal(GET(c, CQC, DBR_UMEM_VALID), 1);
	assert_int_equal(GET(c, CQC, DBR_UMEM_ID), 0x66);
	assert_int_equal(GET(c, CQC, DBR_ADDR), 0x40);
	assert_int_equal(GET(c, CQC, UAR_PAGE), 0x123);
	assert_int_equal(GET(c, CQC, C_EQN), 7);
	assert_int_equal(GET(c, CQC, LOG_PAGE_SIZE), 4);
	assert_int_equal(GET(c, CQC, CQE_SZ), 0);

	gd_cmd_create_qp(qp, &qa);
	q = GD_PRM_SUB(qp, CREATE_QP_IN, QPC);
	assert_int_equal(GET(qp, CREATE_QP_IN, OPCODE), 0x500);
	assert_int_equal(GET(qp, CREATE_QP_IN, WQ_UMEM_VALID), 1);
	assert_int_equal(GET(qp, CREATE_QP_IN, WQ_UMEM_ID), 0x77);
	assert_int_equal(GET(q, QPC, ST), 0);
	assert_int_equal(GET(q, QPC, PM_STATE), 3);
	assert_int_equal(GET(q, QPC, PD), 9);
	assert_int_equal(GET(q, QPC, LOG_SQ_SIZE), 10);
	assert_int_equal(GET(q, QPC, RQ_TYPE), 3);
	assert_int_equal(GET(q, QPC, CQN_SND), 0x400);
	assert_int_equal(GET(q, QPC, DBR_UMEM_VALID), 1);
	assert_int_equal(GET(q, QPC, DBR_UMEM_ID), 0x88);
	assert_int_equal(GET(q, QPC, DBR_ADDR), 8);
	/* F3: the device's default clock, not free-running (refused by real-time-only NICs) */
	assert_int_equal(GET(q, QPC, TS_FORMAT), 1);

	gd_cmd_rst2init(m, &pa);
	q = GD_PRM_SUB(m, MODIFY_QP_IN, QPC);
	assert_int_equal(GET(m, MODIFY_QP_IN, OPCODE), 0x502);
	assert_int_equal(GET(m, MODIFY_QP_IN, QPN), 0x1234);
	/* F4: a requester only: no remote atomics, no atomic_mode */
	assert_true(GET(q, QPC, RWE) && GET(q, QPC, RRE));
	assert_int_equal(GET(q, QPC, RAE), 0);
	assert_int_equal(GET(q, QPC, ATOMIC_MODE), 0);
	pa.atomic_mode = GD_PRM_QPC_ATOMIC_UP_TO_64; /* a QP that is an atomic target */
	gd_cmd_rst2init(m, &pa);
	assert_int_equal(GET(q, QPC, RAE), 1);
	assert_int_equal(GET(q, QPC, ATOMIC_MODE), 3);
	pa.atomic_mode = 0;
	gd_cmd_rst2init(m, &pa);
	assert_int_equal(GET(GD_PRM_SUB(q, QPC, PRIMARY_ADDRESS_PATH), ADS, VHCA_PORT_NUM), 1);

	gd_cmd_init2rtr(m, &pa);
	ads = GD_PRM_SUB(q, QPC, PRIMARY_ADDRESS_PATH);
	assert_int_equal(GET(m, MODIFY_QP_IN, OPCODE), 0x503);
	assert_int_equal(GET(q, QPC, MTU), 5);
	assert_int_equal(GET(q, QPC, LOG_MSG_MAX), 30);
	assert_int_equal(GET(q, QPC, REMOTE_QPN), 0x4321);
	assert_int_equal(GET(q, QPC, MIN_RNR_NAK), 12);
	assert_int_equal(GET(ads, ADS, RMAC_47_32), 0x0c42);
	assert_int_equal(GET(ads, ADS, RMAC_31_0), 0xa1020304);
	assert_int_equal(GET(ads, ADS, UDP_SPORT), 0xc123);
	assert_int_equal(GET(ads, ADS, DSCP), 0x68 >> 2);
	assert_int_equal(GET(ads, ADS, SRC_ADDR_INDEX), 3);
	assert_int_equal(GET(ads, ADS, HOP_LIMIT), 255);
	assert_int_equal(GD_PRM_SUB(ads, ADS, RGID_RIP)[15], 0xab);

	gd_cmd_rtr2rts(m, &pa);
	assert_int_equal(GET(m, MODIFY_QP_IN, OPCODE), 0x504);
	assert_int_equal(GET(q, QPC, NEXT_SEND_PSN), 0x11);
	assert_int_equal(GET(q, QPC, RETRY_COUNT), 7);
	assert_int_equal(GET(q, QPC, RNR_RETRY), 7);
	assert_int_equal(GET(GD_PRM_SUB(q, QPC, PRIMARY_ADDRESS_PATH), ADS, ACK_TIMEOUT), 17);
}

/* F5: outstanding READs/atomics never above the peer's responder or -o. */
static void read_limit(void **state)
{
	(void)state;
	assert_int_equal(gd_cmd_log_sra(16, 0, 0), 4);   /* the local device alone */
	assert_int_equal(gd_cmd_log_sra(16, 4, 0), 2);   /* the peer takes 4 */
	assert_int_equal(gd_cmd_log_sra(16, 16, 2), 1);  /* -o 2 */
	assert_int_equal(gd_cmd_log_sra(16, 5, 0), 2);   /* rounded down: 4 */
	assert_int_equal(gd_cmd_log_sra(8, 64, 0), 3);   /* local below the peer */
	assert_int_equal(gd_cmd_log_sra(0, 0, 0), 0);    /* unknown: 1 */
	assert_int_equal(gd_cmd_log_sra(65535, 0, 0), 7); /* the field's 3 bits */
}

/* F11: a refused command prints the firmware's status and syndrome. */
static void status_text(void **state)
{
	uint8_t out[GD_PRM_BYTES(CMD_OUT)] = {0};
	char buf[96];

	(void)state;
	gd_prm_set(out, GD_F(CMD_OUT, STATUS), 0x3);
	gd_prm_set(out, GD_F(CMD_OUT, SYNDROME), 0x1a2b3c4d);
	gd_cmd_status_text(buf, sizeof(buf), out);
	assert_string_equal(buf, "status 0x3 BAD_PARAM, syndrome 0x1a2b3c4d");
	assert_string_equal(gd_cmd_status_name(0x0f), "NO_RESOURCES");
	assert_string_equal(gd_cmd_status_name(0x10), "BAD_QP_STATE");
	assert_string_equal(gd_cmd_status_name(0x77), "UNKNOWN_STATUS");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(every_field_roundtrip), cmocka_unit_test(no_overlap),
		cmocka_unit_test(devx_agrees),           cmocka_unit_test(prm_spots),
		cmocka_unit_test(sixty_four),            cmocka_unit_test(cmd_images),
		cmocka_unit_test(read_limit),            cmocka_unit_test(status_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
