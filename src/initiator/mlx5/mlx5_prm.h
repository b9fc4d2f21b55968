/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Our own bit layouts of the few mlx5 PRM commands IBGDA sends through DEVX
 * (rdma-core installs the DEVX_SET/GET macros but not the layouts they need).
 * Offsets and widths are in bits from the start of the command or context,
 * big-endian dwords, bit 0 = most significant bit of dword 0, as in the PRM.
 *
 * One table (GD_PRM_FIELDS) lists every field we use once; from it come
 * the enum constants GD_F_<LAYOUT>_<FIELD>_{OFF,W}, compile-time checks that
 * each field lies inside its layout and within one dword (or is an aligned
 * 64-bit field), and a run-time table for tests and dumps.
 *
 *   gd_prm_set(buf, GD_F(CQC, CC), 1);  x = gd_prm_get(buf, GD_F(CQC, CC));
 *
 * Nested contexts: a field of CQC inside CREATE_CQ_IN is reached through
 * GD_PRM_SUB(buf, CREATE_CQ_IN, CQC), the context's start in the command.
 */
#ifndef GD_MLX5_PRM_H
#define GD_MLX5_PRM_H

#include <stddef.h>
#include <stdint.h>

/* Command opcodes. */
enum {
	GD_PRM_OP_QUERY_HCA_CAP = 0x100,
	GD_PRM_OP_CREATE_CQ = 0x400,
	GD_PRM_OP_DESTROY_CQ = 0x401,
	GD_PRM_OP_CREATE_QP = 0x500,
	GD_PRM_OP_DESTROY_QP = 0x501,
	GD_PRM_OP_RST2INIT_QP = 0x502,
	GD_PRM_OP_INIT2RTR_QP = 0x503,
	GD_PRM_OP_RTR2RTS_QP = 0x504,
	GD_PRM_OP_2ERR_QP = 0x507,
	GD_PRM_OP_2RST_QP = 0x50a,
};

/* Field values. */
enum {
	GD_PRM_QPC_ST_RC = 0x0,
	GD_PRM_QPC_PM_MIGRATED = 0x3,
	GD_PRM_QPC_RQ_TYPE_SRQ = 0x1,
	GD_PRM_QPC_RQ_TYPE_ZERO = 0x3,
	GD_PRM_QPC_ATOMIC_IB_COMPAT = 0x1,
	GD_PRM_QPC_ATOMIC_UP_TO_64 = 0x3,
	GD_PRM_QPC_TS_FORMAT_DEFAULT = 0x1, /* the device's default clock (UCX's choice) */
	GD_PRM_CQC_CQE_SZ_64 = 0x0,
	GD_PRM_HCA_CAP_GENERAL = 0x0,      /* op_mod = (cap type << 1) | current */
	GD_PRM_HCA_CAP_ATOMIC = 0x3,
	GD_PRM_HCA_CAP_CUR = 0x1,
};

/* Layout sizes in bits (without trailing variable-length arrays). */
#define GD_PRM_BITS_CMD_OUT 0x80
#define GD_PRM_BITS_CQC 0x200
#define GD_PRM_BITS_CREATE_CQ_IN 0x880
#define GD_PRM_BITS_ADS 0x160
#define GD_PRM_BITS_QPC 0x740
#define GD_PRM_BITS_CREATE_QP_IN 0x880
#define GD_PRM_BITS_MODIFY_QP_IN 0x880  /* rst2init, init2rtr, rtr2rts */
#define GD_PRM_BITS_QUERY_HCA_CAP_IN 0x80
#define GD_PRM_BITS_QUERY_HCA_CAP_OUT 0x8080
#define GD_PRM_BITS_HCA_CAP 0x800       /* cmd_hca_cap (general) */
#define GD_PRM_BITS_ATOMIC_CAPS 0x800

#define GD_PRM_BYTES(layout) (GD_PRM_BITS_##layout / 8)

/* X(layout, field, bit offset, bit width) */
#define GD_PRM_FIELDS(X)                                                    \
	/* every command's output header; obj id = cqn / qpn */                \
	X(CMD_OUT, STATUS, 0x00, 8)                                            \
	X(CMD_OUT, SYNDROME, 0x20, 32)                                         \
	X(CMD_OUT, OBJ_ID, 0x48, 24)                                           \
	/* completion queue context */                                         \
	X(CQC, STATUS, 0x00, 4)                                                \
	X(CQC, DBR_UMEM_VALID, 0x06, 1)                                        \
	X(CQC, CQE_SZ, 0x08, 3)                                                \
	X(CQC, CC, 0x0b, 1)                                                    \
	X(CQC, SCQE_BREAK_MODERATION_EN, 0x0d, 1)                              \
	X(CQC, OI, 0x0e, 1)                                                    \
	X(CQC, CQ_PERIOD_MODE, 0x0f, 2)                                        \
	X(CQC, CQE_COMP_EN, 0x11, 1)                                           \
	X(CQC, DBR_UMEM_ID, 0x20, 32)                                          \
	X(CQC, PAGE_OFFSET, 0x54, 6)                                           \
	X(CQC, LOG_CQ_SIZE, 0x63, 5)                                           \
	X(CQC, UAR_PAGE, 0x68, 24)                                             \
	X(CQC, CQ_PERIOD, 0x84, 12)                                            \
	X(CQC, CQ_MAX_COUNT, 0x90, 16)                                         \
	X(CQC, C_EQN, 0xa0, 32)                                                \
	X(CQC, LOG_PAGE_SIZE, 0xc3, 5)                                         \
	X(CQC, CONSUMER_COUNTER, 0x148, 24)                                    \
	X(CQC, PRODUCER_COUNTER, 0x168, 24)                                    \
	X(CQC, DBR_ADDR, 0x1c0, 64)                                            \
	/* CREATE_CQ */                                                        \
	X(CREATE_CQ_IN, OPCODE, 0x00, 16)                                      \
	X(CREATE_CQ_IN, UID, 0x10, 16)                                         \
	X(CREATE_CQ_IN, OP_MOD, 0x30, 16)                                      \
	X(CREATE_CQ_IN, CQC, 0x80, 0)                                          \
	X(CREATE_CQ_IN, CQ_UMEM_OFFSET, 0x280, 64)                             \
	X(CREATE_CQ_IN, CQ_UMEM_ID, 0x2c0, 32)                                 \
	X(CREATE_CQ_IN, CQ_UMEM_VALID, 0x2e0, 1)                               \
	/* address path (primary_address_path of the QPC) */                   \
	X(ADS, FL, 0x00, 1)                                                    \
	X(ADS, PKEY_INDEX, 0x10, 16)                                           \
	X(ADS, GRH, 0x28, 1)                                                   \
	X(ADS, MLID, 0x29, 7)                                                  \
	X(ADS, RLID, 0x30, 16)                                                 \
	X(ADS, ACK_TIMEOUT, 0x40, 5)                                           \
	X(ADS, SRC_ADDR_INDEX, 0x48, 8)                                        \
	X(ADS, STAT_RATE, 0x54, 4)                                             \
	X(ADS, HOP_LIMIT, 0x58, 8)                                             \
	X(ADS, TCLASS, 0x64, 8)                                                \
	X(ADS, FLOW_LABEL, 0x6c, 20)                                           \
	X(ADS, RGID_RIP, 0x80, 0)                                              \
	X(ADS, DSCP, 0x10a, 6)                                                 \
	X(ADS, UDP_SPORT, 0x110, 16)                                           \
	X(ADS, ETH_PRIO, 0x121, 3)                                             \
	X(ADS, SL, 0x124, 4)                                                   \
	X(ADS, VHCA_PORT_NUM, 0x128, 8)                                        \
	X(ADS, RMAC_47_32, 0x130, 16)                                          \
	X(ADS, RMAC_31_0, 0x140, 32)                                           \
	/* queue pair context */                                               \
	X(QPC, STATE, 0x00, 4)                                                 \
	X(QPC, ST, 0x08, 8)                                                    \
	X(QPC, PM_STATE, 0x13, 2)                                              \
	X(QPC, PD, 0x28, 24)                                                   \
	X(QPC, MTU, 0x40, 3)                                                   \
	X(QPC, LOG_MSG_MAX, 0x43, 5)                                           \
	X(QPC, LOG_RQ_SIZE, 0x49, 4)                                           \
	X(QPC, LOG_RQ_STRIDE, 0x4d, 3)                                         \
	X(QPC, NO_SQ, 0x50, 1)                                                 \
	X(QPC, LOG_SQ_SIZE, 0x51, 4)                                           \
	X(QPC, TS_FORMAT, 0x58, 2)                                             \
	X(QPC, UAR_PAGE, 0x68, 24)                                             \
	X(QPC, USER_INDEX, 0x88, 24)                                           \
	X(QPC, LOG_PAGE_SIZE, 0xa3, 5)                                         \
	X(QPC, REMOTE_QPN, 0xa8, 24)                                           \
	X(QPC, PRIMARY_ADDRESS_PATH, 0xc0, 0)                                  \
	X(QPC, LOG_ACK_REQ_FREQ, 0x380, 4)                                     \
	X(QPC, LOG_SRA_MAX, 0x388, 3)                                          \
	X(QPC, RETRY_COUNT, 0x38d, 3)                                          \
	X(QPC, RNR_RETRY, 0x390, 3)                                            \
	X(QPC, NEXT_SEND_PSN, 0x3c8, 24)                                       \
	X(QPC, CQN_SND, 0x3e8, 24)                                             \
	X(QPC, LOG_RRA_MAX, 0x488, 3)                                          \
	X(QPC, ATOMIC_MODE, 0x48c, 4)                                          \
	X(QPC, RRE, 0x490, 1)                                                  \
	X(QPC, RWE, 0x491, 1)                                                  \
	X(QPC, RAE, 0x492, 1)                                                  \
	X(QPC, PAGE_OFFSET, 0x494, 6)                                          \
	X(QPC, MIN_RNR_NAK, 0x4a3, 5)                                          \
	X(QPC, NEXT_RCV_PSN, 0x4a8, 24)                                        \
	X(QPC, CQN_RCV, 0x4e8, 24)                                             \
	X(QPC, DBR_ADDR, 0x500, 64)                                            \
	X(QPC, RQ_TYPE, 0x565, 3)                                              \
	X(QPC, SRQN_RMPN_XRQN, 0x568, 24)                                      \
	X(QPC, CS_REQ, 0x630, 8)                                               \
	X(QPC, CS_RES, 0x638, 8)                                               \
	X(QPC, DBR_UMEM_VALID, 0x683, 1)                                       \
	X(QPC, DBR_UMEM_ID, 0x720, 32)                                         \
	/* CREATE_QP */                                                        \
	X(CREATE_QP_IN, OPCODE, 0x00, 16)                                      \
	X(CREATE_QP_IN, UID, 0x10, 16)                                         \
	X(CREATE_QP_IN, OP_MOD, 0x30, 16)                                      \
	X(CREATE_QP_IN, OPT_PARAM_MASK, 0x80, 32)                              \
	X(CREATE_QP_IN, QPC, 0xc0, 0)                                          \
	X(CREATE_QP_IN, WQ_UMEM_OFFSET, 0x800, 64)                             \
	X(CREATE_QP_IN, WQ_UMEM_ID, 0x840, 32)                                 \
	X(CREATE_QP_IN, WQ_UMEM_VALID, 0x860, 1)                               \
	/* RST2INIT_QP, INIT2RTR_QP, RTR2RTS_QP (one layout) */                \
	X(MODIFY_QP_IN, OPCODE, 0x00, 16)                                      \
	X(MODIFY_QP_IN, UID, 0x10, 16)                                         \
	X(MODIFY_QP_IN, OP_MOD, 0x30, 16)                                      \
	X(MODIFY_QP_IN, QPN, 0x48, 24)                                         \
	X(MODIFY_QP_IN, OPT_PARAM_MASK, 0x80, 32)                              \
	X(MODIFY_QP_IN, QPC, 0xc0, 0)                                          \
	/* QUERY_HCA_CAP */                                                    \
	X(QUERY_HCA_CAP_IN, OPCODE, 0x00, 16)                                  \
	X(QUERY_HCA_CAP_IN, OP_MOD, 0x30, 16)                                  \
	X(QUERY_HCA_CAP_IN, OTHER_FUNCTION, 0x40, 1)                           \
	X(QUERY_HCA_CAP_IN, FUNCTION_ID, 0x50, 16)                             \
	X(QUERY_HCA_CAP_OUT, STATUS, 0x00, 8)                                  \
	X(QUERY_HCA_CAP_OUT, SYNDROME, 0x20, 32)                               \
	X(QUERY_HCA_CAP_OUT, CAPABILITY, 0x80, 0)                              \
	/* the general capabilities we read */                                 \
	X(HCA_CAP, VHCA_ID, 0x30, 16)                                          \
	X(HCA_CAP, LOG_MAX_QP_SZ, 0x88, 8)                                     \
	X(HCA_CAP, LOG_MAX_QP, 0x9b, 5)                                        \
	X(HCA_CAP, LOG_MAX_CQ_SZ, 0xc8, 8)                                     \
	X(HCA_CAP, LOG_MAX_CQ, 0xdb, 5)                                        \
	X(HCA_CAP, PORT_TYPE, 0x1b6, 2)                                        \
	X(HCA_CAP, CQE_VERSION, 0x1fc, 4)                                      \
	X(HCA_CAP, ROCE, 0x21d, 1)                                             \
	X(HCA_CAP, ATOMIC, 0x21e, 1)                                           \
	X(HCA_CAP, UMEM_UID_0, 0x252, 1)                                       \
	X(HCA_CAP, LOG_BF_REG_SIZE, 0x26b, 5)                                  \
	/* atomic capabilities */                                              \
	X(ATOMIC_CAPS, ATOMIC_REQ_8B_ENDIANNESS_MODE, 0x40, 2)                 \
	X(ATOMIC_CAPS, ATOMIC_OPERATIONS, 0x90, 16)                            \
	X(ATOMIC_CAPS, ATOMIC_SIZE_QP, 0xb0, 16)

/* Width 0 marks a nested context or byte array: only its offset is used. */
#define GD_PRM_ENUM_(l, f, off, w) GD_F_##l##_##f##_OFF = (off), GD_F_##l##_##f##_W = (w),
enum { GD_PRM_FIELDS(GD_PRM_ENUM_) GD_PRM_ENUM_END_ };
#undef GD_PRM_ENUM_

/* Every field inside its layout, byte-aligned nests, fields not straddling
 * dwords (64-bit fields qword-aligned). */
#define GD_PRM_CHECK_(l, f, off, w)                                                   \
	_Static_assert((off) + (w) <= GD_PRM_BITS_##l, #l "." #f " outside " #l);     \
	_Static_assert((w) == 0 ? (off) % 32 == 0                                     \
				: (w) == 64 ? (off) % 64 == 0                         \
					    : (off) % 32 + (w) <= 32,                 \
		       #l "." #f " straddles a dword");
GD_PRM_FIELDS(GD_PRM_CHECK_)
#undef GD_PRM_CHECK_

/* Nested contexts must fit their container. */
_Static_assert(GD_F_CREATE_CQ_IN_CQC_OFF + GD_PRM_BITS_CQC <= GD_F_CREATE_CQ_IN_CQ_UMEM_OFFSET_OFF,
	       "cqc overlaps cq_umem_offset");
_Static_assert(GD_F_CREATE_QP_IN_QPC_OFF + GD_PRM_BITS_QPC <= GD_F_CREATE_QP_IN_WQ_UMEM_OFFSET_OFF,
	       "qpc overlaps wq_umem_offset");
_Static_assert(GD_F_MODIFY_QP_IN_QPC_OFF + GD_PRM_BITS_QPC <= GD_PRM_BITS_MODIFY_QP_IN,
	       "qpc outside modify_qp_in");
_Static_assert(GD_F_QPC_PRIMARY_ADDRESS_PATH_OFF + GD_PRM_BITS_ADS <= GD_F_QPC_LOG_ACK_REQ_FREQ_OFF,
	       "ads overlaps log_ack_req_freq");
_Static_assert(GD_F_QUERY_HCA_CAP_OUT_CAPABILITY_OFF + 0x8000 == GD_PRM_BITS_QUERY_HCA_CAP_OUT,
	       "capability union is 0x8000 bits");
_Static_assert(GD_PRM_BYTES(CREATE_CQ_IN) == 272 && GD_PRM_BYTES(CREATE_QP_IN) == 272 &&
		       GD_PRM_BYTES(CQC) == 64 && GD_PRM_BYTES(QPC) == 232 && GD_PRM_BYTES(ADS) == 44 &&
		       GD_PRM_BYTES(CMD_OUT) == 16 && GD_PRM_BYTES(QUERY_HCA_CAP_OUT) == 4112,
	       "PRM layout sizes");

/* GD_F(CQC, CC) expands to the (offset, width) pair the accessors take. */
#define GD_F(l, f) GD_F_##l##_##f##_OFF, GD_F_##l##_##f##_W
/* Start of a nested context (or byte array) inside its container. */
#define GD_PRM_SUB(buf, l, f) ((uint8_t *)(buf) + GD_F_##l##_##f##_OFF / 8)

static inline uint32_t gd_prm_rd_be32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

static inline void gd_prm_wr_be32(uint8_t *p, uint32_t v)
{
	p[0] = (uint8_t)(v >> 24);
	p[1] = (uint8_t)(v >> 16);
	p[2] = (uint8_t)(v >> 8);
	p[3] = (uint8_t)v;
}

/* Set a field of width 1..32 (or an aligned 64-bit one); value truncated. */
static inline void gd_prm_set(void *buf, unsigned off, unsigned w, uint64_t v)
{
	uint8_t *dw = (uint8_t *)buf + (off / 32) * 4;
	unsigned shift;
	uint32_t mask, x;

	if (w == 64) {
		gd_prm_wr_be32(dw, (uint32_t)(v >> 32));
		gd_prm_wr_be32(dw + 4, (uint32_t)v);
		return;
	}
	shift = 32 - w - off % 32;
	mask = (uint32_t)(((1ull << w) - 1) << shift);
	x = gd_prm_rd_be32(dw);
	gd_prm_wr_be32(dw, (x & ~mask) | (((uint32_t)v << shift) & mask));
}

static inline uint64_t gd_prm_get(const void *buf, unsigned off, unsigned w)
{
	const uint8_t *dw = (const uint8_t *)buf + (off / 32) * 4;

	if (w == 64)
		return ((uint64_t)gd_prm_rd_be32(dw) << 32) | gd_prm_rd_be32(dw + 4);
	return (gd_prm_rd_be32(dw) >> (32 - w - off % 32)) & (uint32_t)((1ull << w) - 1);
}

/* Run-time table of every field (tests, debugging dumps). */
struct gd_prm_field {
	const char *layout, *name;
	unsigned off, width, layout_bits;
};
extern const struct gd_prm_field gd_prm_fields[];
extern const size_t gd_prm_nfields;

#endif
