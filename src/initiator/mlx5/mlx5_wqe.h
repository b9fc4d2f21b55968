/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * mlx5 send-queue encoders shared by the host (C11) and the GPU (nvcc):
 * control, remote-address, data, inline, atomic and masked-atomic segments,
 * whole RC WQEs, doorbell-record and doorbell values, CQE decode, error
 * syndromes and the 16-bit counter arithmetic of the collapsed CQ.
 *
 * Pure functions only: no libc, no globals, no stores to device memory
 * (callers copy the images with whatever store they need), so the same code
 * is unit-tested on the CPU and run in CUDA kernels. Written from the mlx5
 * PRM constants in doc/notes/ibgda.md; every multi-byte field is big-endian.
 *
 * A segment image is four 32-bit words whose in-memory bytes are the wire
 * bytes on a little-endian machine (x86, Arm in LE, every NVIDIA GPU).
 */
#ifndef GD_MLX5_WQE_H
#define GD_MLX5_WQE_H

#include <stdint.h>

/* Same definition as the proxy's gd_hd.h (identical redefinition is legal). */
#ifndef GD_HD
#ifdef __CUDACC__
#define GD_HD static __host__ __device__ __forceinline__
#else
#define GD_HD static inline
#endif
#endif

#if defined(__BYTE_ORDER__) && __BYTE_ORDER__ != __ORDER_LITTLE_ENDIAN__
#error "mlx5_wqe.h assumes a little-endian host (as the GPU is)"
#endif

/* --- PRM constants --------------------------------------------------- */
enum {
	GD_MLX5_WQEBB = 64,          /* send WQE basic block */
	GD_MLX5_WQEBB_SHIFT = 6,
	GD_MLX5_SEG = 16,            /* one "DS" unit */
	GD_MLX5_CQE = 64,
	GD_MLX5_MAX_DS = 63,         /* 6-bit ds field */
};

enum gd_mlx5_opcode {
	GD_MLX5_OP_NOP = 0x00,
	GD_MLX5_OP_RDMA_WRITE = 0x08,
	GD_MLX5_OP_RDMA_WRITE_IMM = 0x09,
	GD_MLX5_OP_SEND = 0x0a,
	GD_MLX5_OP_RDMA_READ = 0x10,
	GD_MLX5_OP_ATOMIC_CS = 0x11,
	GD_MLX5_OP_ATOMIC_FA = 0x12,
	GD_MLX5_OP_ATOMIC_MASKED_CS = 0x14,
	GD_MLX5_OP_ATOMIC_MASKED_FA = 0x15,
	GD_MLX5_OP_DUMP = 0x23,
};

enum {
	GD_MLX5_OPMOD_EXT_ATOMIC_4B = 0x08, /* masked atomics, 4-byte operand */
	GD_MLX5_OPMOD_EXT_ATOMIC_8B = 0x09,
	GD_MLX5_CTRL_SOLICITED = 0x02,
	GD_MLX5_CTRL_CQ_UPDATE = 0x08,     /* "CE" = 2 in bits 3:2 */
	GD_MLX5_FENCE_INITIATOR_SMALL = 0x20,
	GD_MLX5_FENCE = 0x40,
	GD_MLX5_FENCE_STRONG = 0x60,
	GD_MLX5_FENCE_AND_SMALL = 0x80,
	GD_MLX5_INLINE_SEG = (int)0x80000000u,
};

/* CQE opcode = op_own >> 4 */
enum gd_mlx5_cqe_op {
	GD_MLX5_CQE_REQ = 0x0,
	GD_MLX5_CQE_RESP_WR_IMM = 0x1,
	GD_MLX5_CQE_RESP_SEND = 0x2,
	GD_MLX5_CQE_REQ_ERR = 0xd,
	GD_MLX5_CQE_RESP_ERR = 0xe,
	GD_MLX5_CQE_INVALID = 0xf,
};

/* Byte offsets inside a 64-byte CQE. */
enum {
	GD_MLX5_CQE_BYTE_CNT = 44,
	GD_MLX5_CQE_TIMESTAMP = 48,
	GD_MLX5_CQE_VENDOR_SYND = 54,
	GD_MLX5_CQE_SYNDROME = 55,
	GD_MLX5_CQE_SOP_QPN = 56, /* s_wqe_opcode (8) | qpn (24), BE */
	GD_MLX5_CQE_WQE_COUNTER = 60,
	GD_MLX5_CQE_SIGNATURE = 62,
	GD_MLX5_CQE_OP_OWN = 63,
};

enum gd_mlx5_syndrome {
	GD_MLX5_SYND_LOCAL_LENGTH = 0x01,
	GD_MLX5_SYND_LOCAL_QP_OP = 0x02,
	GD_MLX5_SYND_LOCAL_PROT = 0x04,
	GD_MLX5_SYND_WR_FLUSH = 0x05,
	GD_MLX5_SYND_MW_BIND = 0x06,
	GD_MLX5_SYND_BAD_RESP = 0x10,
	GD_MLX5_SYND_LOCAL_ACCESS = 0x11,
	GD_MLX5_SYND_REMOTE_INVAL_REQ = 0x12,
	GD_MLX5_SYND_REMOTE_ACCESS = 0x13,
	GD_MLX5_SYND_REMOTE_OP = 0x14,
	GD_MLX5_SYND_TRANSPORT_RETRY = 0x15,
	GD_MLX5_SYND_RNR_RETRY = 0x16,
	GD_MLX5_SYND_REMOTE_ABORTED = 0x22,
};

/* --- images ------------------------------------------------------------ */
struct gd_mlx5_seg {
	uint32_t w[4];
};

struct gd_mlx5_wqebb {
	struct gd_mlx5_seg s[4];
};

#ifdef __cplusplus
#define GD_MLX5_SASSERT static_assert
#else
#define GD_MLX5_SASSERT _Static_assert
#endif
GD_MLX5_SASSERT(sizeof(struct gd_mlx5_seg) == GD_MLX5_SEG, "segment is 16 bytes");
GD_MLX5_SASSERT(sizeof(struct gd_mlx5_wqebb) == GD_MLX5_WQEBB, "WQEBB is 64 bytes");

GD_HD uint32_t gd_be32(uint32_t x)
{
#ifdef __CUDA_ARCH__
	return __byte_perm(x, 0, 0x0123);
#else
	return __builtin_bswap32(x);
#endif
}

GD_HD uint16_t gd_be16(uint16_t x)
{
	return (uint16_t)((x >> 8) | (x << 8));
}

GD_HD uint64_t gd_be64(uint64_t x)
{
	return ((uint64_t)gd_be32((uint32_t)x) << 32) | gd_be32((uint32_t)(x >> 32));
}

/* --- segment encoders ---------------------------------------------------- */

/* Control segment; same bytes as rdma-core's mlx5dv_set_ctrl_seg (imm is
 * stored as given: pre-swap an immediate). */
GD_HD struct gd_mlx5_seg gd_mlx5_ctrl(uint16_t pi, uint8_t opcode, uint8_t opmod, uint32_t qpn,
				      uint8_t fm_ce_se, uint8_t ds, uint8_t signature, uint32_t imm)
{
	struct gd_mlx5_seg s;

	s.w[0] = gd_be32(((uint32_t)opmod << 24) | ((uint32_t)pi << 8) | opcode);
	s.w[1] = gd_be32((qpn << 8) | ds);
	s.w[2] = (uint32_t)signature | ((uint32_t)fm_ce_se << 24);
	s.w[3] = imm;
	return s;
}

GD_HD struct gd_mlx5_seg gd_mlx5_raddr(uint64_t raddr, uint32_t rkey)
{
	struct gd_mlx5_seg s;

	s.w[0] = gd_be32((uint32_t)(raddr >> 32));
	s.w[1] = gd_be32((uint32_t)raddr);
	s.w[2] = gd_be32(rkey);
	s.w[3] = 0;
	return s;
}

/* Same bytes as mlx5dv_set_data_seg. */
GD_HD struct gd_mlx5_seg gd_mlx5_data(uint32_t len, uint32_t lkey, uint64_t addr)
{
	struct gd_mlx5_seg s;

	s.w[0] = gd_be32(len);
	s.w[1] = gd_be32(lkey);
	s.w[2] = gd_be32((uint32_t)(addr >> 32));
	s.w[3] = gd_be32((uint32_t)addr);
	return s;
}

/* 8-byte FETCH_ADD (swap_add = add, compare unused) and CMP_SWAP. */
GD_HD struct gd_mlx5_seg gd_mlx5_atomic(uint64_t swap_add, uint64_t compare)
{
	struct gd_mlx5_seg s;

	s.w[0] = gd_be32((uint32_t)(swap_add >> 32));
	s.w[1] = gd_be32((uint32_t)swap_add);
	s.w[2] = gd_be32((uint32_t)(compare >> 32));
	s.w[3] = gd_be32((uint32_t)compare);
	return s;
}

/* 4-byte masked fetch-add: {add, field_boundary, reserved}. */
GD_HD struct gd_mlx5_seg gd_mlx5_masked_fa32(uint32_t add, uint32_t field_boundary)
{
	struct gd_mlx5_seg s;

	s.w[0] = gd_be32(add);
	s.w[1] = gd_be32(field_boundary);
	s.w[2] = 0;
	s.w[3] = 0;
	return s;
}

/* 4-byte masked compare-swap: {swap, compare, swap_mask, compare_mask}. */
GD_HD struct gd_mlx5_seg gd_mlx5_masked_cs32(uint32_t swap, uint32_t compare, uint32_t swap_mask,
					     uint32_t compare_mask)
{
	struct gd_mlx5_seg s;

	s.w[0] = gd_be32(swap);
	s.w[1] = gd_be32(compare);
	s.w[2] = gd_be32(swap_mask);
	s.w[3] = gd_be32(compare_mask);
	return s;
}

/* 8-byte masked compare-swap needs two segments: {swap, compare} then
 * {swap_mask, compare_mask}; both have the layout of the atomic segment. */
GD_HD void gd_mlx5_masked_cs64(struct gd_mlx5_seg out[2], uint64_t swap, uint64_t compare,
			       uint64_t swap_mask, uint64_t compare_mask)
{
	out[0] = gd_mlx5_atomic(swap, compare);
	out[1] = gd_mlx5_atomic(swap_mask, compare_mask);
}

/* A fetched atomic result as the requester's NIC wrote it into local
 * memory, decoded: 8-byte results in host order where the device runs
 * atomic_req_8B_endianness_mode 1 (host: what mlx5_core sets where the
 * device offers it), big-endian where it runs 0 (be = 1); 4-byte masked
 * results always big-endian (NVSHMEM swaps them likewise). */
GD_HD uint64_t gd_mlx5_fetched64(uint64_t raw, int be)
{
	return be ? gd_be64(raw) : raw;
}

GD_HD uint32_t gd_mlx5_fetched32(uint32_t raw)
{
	return gd_be32(raw);
}

/* DS units of an inline WRITE carrying len bytes: ctrl + raddr + 4-byte
 * header + payload, rounded up to 16 bytes. */
GD_HD uint32_t gd_mlx5_inline_ds(uint32_t len)
{
	return 2 + (4 + len + 15) / 16;
}

GD_HD uint32_t gd_mlx5_wqebbs(uint32_t ds)
{
	return (ds * GD_MLX5_SEG + GD_MLX5_WQEBB - 1) / GD_MLX5_WQEBB;
}

/* Inline data segment: 4-byte header (byte_count | 0x80000000) then the raw
 * payload (not swapped), zero padded; writes gd_mlx5_inline_ds(len) - 2
 * segments into out. len must be at most GD_MLX5_INLINE_MAX. */
enum { GD_MLX5_INLINE_MAX = 60 };
GD_HD void gd_mlx5_inline(struct gd_mlx5_seg *out, const void *data, uint32_t len)
{
	uint8_t *b = (uint8_t *)out;
	const uint8_t *src = (const uint8_t *)data;
	uint32_t nseg = (4 + len + 15) / 16;

	out[0].w[0] = gd_be32(len | 0x80000000u);
	for (uint32_t i = 0; i < nseg * 16 - 4; i++)
		b[4 + i] = i < len ? src[i] : 0;
}

/* --- whole RC WQEs (one WQEBB each; ds returned) ------------------------- */
struct gd_mlx5_wr {
	uint8_t opcode;    /* enum gd_mlx5_opcode */
	uint8_t fm_ce_se;  /* GD_MLX5_CTRL_CQ_UPDATE for a signalled WQE */
	uint16_t pi;       /* producer index of the first WQEBB */
	uint32_t qpn;
	uint64_t laddr;
	uint32_t lkey;
	uint32_t len;      /* bytes (atomics: 8, or 4 for masked 4-byte) */
	uint64_t raddr;
	uint32_t rkey;
	uint32_t imm;      /* WRITE_IMM: big-endian as sent */
	uint64_t op1;      /* add / swap */
	uint64_t op2;      /* compare / field boundary */
};

/* RDMA WRITE, WRITE_IMM, READ: ctrl + raddr + data (ds 3). Atomics: ctrl +
 * raddr + operands + data (ds 4). NOP: ctrl only. Returns ds. */
GD_HD uint8_t gd_mlx5_wqe_rc(struct gd_mlx5_wqebb *w, const struct gd_mlx5_wr *wr)
{
	uint8_t ds = 3, opmod = 0;
	uint8_t op = wr->opcode;

	w->s[1] = gd_mlx5_raddr(wr->raddr, wr->rkey);
	switch (op) {
	case GD_MLX5_OP_ATOMIC_FA:
	case GD_MLX5_OP_ATOMIC_CS:
		w->s[2] = gd_mlx5_atomic(wr->op1, op == GD_MLX5_OP_ATOMIC_CS ? wr->op2 : 0);
		ds = 4;
		break;
	case GD_MLX5_OP_ATOMIC_MASKED_FA:
		w->s[2] = gd_mlx5_masked_fa32((uint32_t)wr->op1, (uint32_t)wr->op2);
		opmod = GD_MLX5_OPMOD_EXT_ATOMIC_4B;
		ds = 4;
		break;
	case GD_MLX5_OP_ATOMIC_MASKED_CS:
		w->s[2] = gd_mlx5_masked_cs32((uint32_t)wr->op1, (uint32_t)wr->op2, 0xffffffffu,
					      0xffffffffu);
		opmod = GD_MLX5_OPMOD_EXT_ATOMIC_4B;
		ds = 4;
		break;
	case GD_MLX5_OP_NOP:
		ds = 1;
		break;
	default:
		break;
	}
	if (ds > 1)
		w->s[ds - 1] = gd_mlx5_data(wr->len, wr->lkey, wr->laddr);
	for (uint8_t i = ds > 1 ? ds : 1; i < 4; i++)
		w->s[i].w[0] = w->s[i].w[1] = w->s[i].w[2] = w->s[i].w[3] = 0;
	w->s[0] = gd_mlx5_ctrl(wr->pi, op, opmod, wr->qpn, wr->fm_ce_se, ds, 0,
			       op == GD_MLX5_OP_RDMA_WRITE_IMM ? wr->imm : 0);
	return ds;
}

/* Inline RDMA WRITE of len <= 28 bytes in one WQEBB. Returns ds. */
GD_HD uint8_t gd_mlx5_wqe_write_inline(struct gd_mlx5_wqebb *w, uint16_t pi, uint32_t qpn,
				       uint8_t fm_ce_se, uint64_t raddr, uint32_t rkey,
				       const void *data, uint32_t len)
{
	uint8_t ds = (uint8_t)gd_mlx5_inline_ds(len);

	w->s[0] = gd_mlx5_ctrl(pi, GD_MLX5_OP_RDMA_WRITE, 0, qpn, fm_ce_se, ds, 0, 0);
	w->s[1] = gd_mlx5_raddr(raddr, rkey);
	gd_mlx5_inline(&w->s[2], data, len);
	for (uint8_t i = ds; i < 4; i++)
		w->s[i].w[0] = w->s[i].w[1] = w->s[i].w[2] = w->s[i].w[3] = 0;
	return ds;
}

/* --- doorbells ------------------------------------------------------------ */

/* Send doorbell record (DBR[1]): BE32 of the next empty WQEBB, 16 bits. */
GD_HD uint32_t gd_mlx5_dbr_value(uint64_t prod_idx)
{
	return gd_be32((uint32_t)(prod_idx & 0xffff));
}

/* The 8-byte doorbell: the first 8 bytes of a control segment naming the
 * producer index and the QP, as one little-endian 64-bit store. */
GD_HD uint64_t gd_mlx5_db_value(uint32_t qpn, uint64_t prod_idx)
{
	uint32_t lo = gd_be32((uint32_t)(prod_idx & 0xffff) << 8);
	uint32_t hi = gd_be32(qpn << 8);

	return ((uint64_t)hi << 32) | lo;
}

/* CQ consumer doorbell record (DBR[0] of the CQ): BE32 of ci & 0xffffff. */
GD_HD uint32_t gd_mlx5_cq_dbr_value(uint32_t ci)
{
	return gd_be32(ci & 0xffffff);
}

/* --- ring arithmetic ------------------------------------------------------- */

/* Slot of WQEBB idx in a ring of n (power of two) entries. */
GD_HD uint32_t gd_mlx5_slot(uint64_t idx, uint32_t n)
{
	return (uint32_t)(idx & (n - 1));
}

/* A reservation of k WQEBBs at base fits when the oldest of them no longer
 * holds an uncompleted WQE: base + k - cons <= n. */
GD_HD int gd_mlx5_sq_room(uint64_t base, uint32_t k, uint64_t cons, uint32_t n)
{
	return base + k - cons <= n;
}

/* --- CQE decode -------------------------------------------------------------- */
GD_HD uint8_t gd_mlx5_cqe_opcode(const uint8_t *cqe)
{
	return cqe[GD_MLX5_CQE_OP_OWN] >> 4;
}

GD_HD uint8_t gd_mlx5_cqe_owner(const uint8_t *cqe)
{
	return cqe[GD_MLX5_CQE_OP_OWN] & 1;
}

GD_HD uint16_t gd_mlx5_cqe_wqe_counter(const uint8_t *cqe)
{
	return (uint16_t)((cqe[GD_MLX5_CQE_WQE_COUNTER] << 8) | cqe[GD_MLX5_CQE_WQE_COUNTER + 1]);
}

GD_HD uint32_t gd_mlx5_cqe_qpn(const uint8_t *cqe)
{
	return ((uint32_t)cqe[57] << 16) | ((uint32_t)cqe[58] << 8) | cqe[59];
}

GD_HD uint32_t gd_mlx5_cqe_byte_cnt(const uint8_t *cqe)
{
	const uint8_t *b = cqe + GD_MLX5_CQE_BYTE_CNT;

	return ((uint32_t)b[0] << 24) | ((uint32_t)b[1] << 16) | ((uint32_t)b[2] << 8) | b[3];
}

/* Normal (not collapsed) CQ: entry ci of a ring of n is new when it is not
 * INVALID and its owner bit equals the lap parity of ci. */
GD_HD int gd_mlx5_cqe_is_new(const uint8_t *cqe, uint32_t ci, uint32_t n)
{
	return gd_mlx5_cqe_opcode(cqe) != GD_MLX5_CQE_INVALID &&
	       gd_mlx5_cqe_owner(cqe) == ((ci / n) & 1);
}

/* Collapsed CQ: the CQE names the first WQEBB of the newest completed WQE.
 * Has the WQE starting at WQEBB target - 1 completed (i.e. all below
 * target)? counter is that 16-bit wqe_counter; valid while fewer than 2^15
 * WQEBBs are outstanding. */
GD_HD int gd_mlx5_collapsed_done(uint64_t target, uint16_t counter)
{
	return (int16_t)(uint16_t)(counter + 1 - (uint16_t)target) >= 0;
}

/* The 64-bit consumer index (one past the completed WQEBB) rebuilt from a
 * 16-bit wqe_counter and a nearby 64-bit reference (the producer index). */
GD_HD uint64_t gd_mlx5_cons_from_counter(uint64_t ref, uint16_t counter)
{
	uint16_t next = (uint16_t)(counter + 1);
	uint64_t c = (ref & ~(uint64_t)0xffff) | next;

	if (c > ref)
		c -= 0x10000;
	return c;
}

/* Fill a CQE as a NIC would (used by the software NIC test double and by
 * tests): opcode REQ or REQ_ERR, owner bit, counter, QPN, byte count,
 * syndromes. */
GD_HD void gd_mlx5_cqe_fill(uint8_t *cqe, uint8_t op, uint8_t owner, uint16_t wqe_counter,
			    uint32_t qpn, uint8_t wqe_opcode, uint32_t byte_cnt, uint8_t syndrome,
			    uint8_t vendor)
{
	for (int i = 0; i < GD_MLX5_CQE; i++)
		cqe[i] = 0;
	cqe[GD_MLX5_CQE_BYTE_CNT] = (uint8_t)(byte_cnt >> 24);
	cqe[GD_MLX5_CQE_BYTE_CNT + 1] = (uint8_t)(byte_cnt >> 16);
	cqe[GD_MLX5_CQE_BYTE_CNT + 2] = (uint8_t)(byte_cnt >> 8);
	cqe[GD_MLX5_CQE_BYTE_CNT + 3] = (uint8_t)byte_cnt;
	cqe[GD_MLX5_CQE_VENDOR_SYND] = vendor;
	cqe[GD_MLX5_CQE_SYNDROME] = syndrome;
	cqe[56] = wqe_opcode;
	cqe[57] = (uint8_t)(qpn >> 16);
	cqe[58] = (uint8_t)(qpn >> 8);
	cqe[59] = (uint8_t)qpn;
	cqe[GD_MLX5_CQE_WQE_COUNTER] = (uint8_t)(wqe_counter >> 8);
	cqe[GD_MLX5_CQE_WQE_COUNTER + 1] = (uint8_t)wqe_counter;
	cqe[GD_MLX5_CQE_OP_OWN] = (uint8_t)((op << 4) | (owner & 1));
}

GD_HD const char *gd_mlx5_syndrome_name(uint8_t s)
{
	switch (s) {
	case GD_MLX5_SYND_LOCAL_LENGTH: return "LOCAL_LENGTH_ERR";
	case GD_MLX5_SYND_LOCAL_QP_OP: return "LOCAL_QP_OP_ERR";
	case GD_MLX5_SYND_LOCAL_PROT: return "LOCAL_PROT_ERR";
	case GD_MLX5_SYND_WR_FLUSH: return "WR_FLUSH_ERR";
	case GD_MLX5_SYND_MW_BIND: return "MW_BIND_ERR";
	case GD_MLX5_SYND_BAD_RESP: return "BAD_RESP_ERR";
	case GD_MLX5_SYND_LOCAL_ACCESS: return "LOCAL_ACCESS_ERR";
	case GD_MLX5_SYND_REMOTE_INVAL_REQ: return "REMOTE_INVAL_REQ_ERR";
	case GD_MLX5_SYND_REMOTE_ACCESS: return "REMOTE_ACCESS_ERR";
	case GD_MLX5_SYND_REMOTE_OP: return "REMOTE_OP_ERR";
	case GD_MLX5_SYND_TRANSPORT_RETRY: return "TRANSPORT_RETRY_CNT_ERR";
	case GD_MLX5_SYND_RNR_RETRY: return "RNR_RETRY_CNT_ERR";
	case GD_MLX5_SYND_REMOTE_ABORTED: return "REMOTE_ABORTED_ERR";
	default: return "UNKNOWN_SYNDROME";
	}
}

GD_HD const char *gd_mlx5_opcode_name(uint8_t op)
{
	switch (op) {
	case GD_MLX5_OP_NOP: return "NOP";
	case GD_MLX5_OP_RDMA_WRITE: return "RDMA_WRITE";
	case GD_MLX5_OP_RDMA_WRITE_IMM: return "RDMA_WRITE_IMM";
	case GD_MLX5_OP_SEND: return "SEND";
	case GD_MLX5_OP_RDMA_READ: return "RDMA_READ";
	case GD_MLX5_OP_ATOMIC_CS: return "ATOMIC_CS";
	case GD_MLX5_OP_ATOMIC_FA: return "ATOMIC_FA";
	case GD_MLX5_OP_ATOMIC_MASKED_CS: return "ATOMIC_MASKED_CS";
	case GD_MLX5_OP_ATOMIC_MASKED_FA: return "ATOMIC_MASKED_FA";
	case GD_MLX5_OP_DUMP: return "DUMP";
	default: return "UNKNOWN_OPCODE";
	}
}

/* --- WQE decode (tests, the software NIC, --dump_wqes) --------------------- */
struct gd_mlx5_wqe_view {
	uint8_t opcode, opmod, ds, fm_ce_se, signature;
	uint16_t pi;
	uint32_t qpn, imm;
	uint64_t raddr;
	uint32_t rkey;
	int has_data, is_inline;
	uint32_t len, lkey;        /* data segment, or the inline length */
	uint64_t laddr;
	uint64_t op1, op2;         /* atomic operands (4-byte ones zero-extended) */
	uint64_t mask1, mask2;     /* masked CS masks */
	const uint8_t *inline_data;
};

GD_HD uint32_t gd_mlx5_rd32(const uint8_t *p)
{
	return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

GD_HD uint64_t gd_mlx5_rd64(const uint8_t *p)
{
	return ((uint64_t)gd_mlx5_rd32(p) << 32) | gd_mlx5_rd32(p + 4);
}

/* Decode a WQE whose segments are contiguous at b (a caller with a WQE that
 * wraps the ring copies it out first). Returns 0, or -1 for a ds the opcode
 * cannot have. */
GD_HD int gd_mlx5_wqe_parse(const uint8_t *b, struct gd_mlx5_wqe_view *v)
{
	uint32_t w0 = gd_mlx5_rd32(b), w1 = gd_mlx5_rd32(b + 4);
	const uint8_t *seg;

	*v = (struct gd_mlx5_wqe_view){ 0 };
	v->opcode = (uint8_t)w0;
	v->pi = (uint16_t)(w0 >> 8);
	v->opmod = (uint8_t)(w0 >> 24);
	v->qpn = w1 >> 8;
	v->ds = w1 & 0x3f;
	v->signature = b[8];
	v->fm_ce_se = b[11];
	v->imm = gd_be32(gd_mlx5_rd32(b + 12)); /* as given to gd_mlx5_ctrl */
	if (v->opcode == GD_MLX5_OP_NOP)
		return v->ds >= 1 ? 0 : -1;
	if (v->ds < 3)
		return -1;
	v->raddr = gd_mlx5_rd64(b + 16);
	v->rkey = gd_mlx5_rd32(b + 24);
	seg = b + 32;
	switch (v->opcode) {
	case GD_MLX5_OP_ATOMIC_FA:
	case GD_MLX5_OP_ATOMIC_CS:
		v->op1 = gd_mlx5_rd64(seg);
		v->op2 = gd_mlx5_rd64(seg + 8);
		seg += 16;
		break;
	case GD_MLX5_OP_ATOMIC_MASKED_FA:
	case GD_MLX5_OP_ATOMIC_MASKED_CS:
		if (v->opmod == GD_MLX5_OPMOD_EXT_ATOMIC_8B) {
			v->op1 = gd_mlx5_rd64(seg);
			v->op2 = gd_mlx5_rd64(seg + 8);
			seg += 16;
			if (v->opcode == GD_MLX5_OP_ATOMIC_MASKED_CS) {
				v->mask1 = gd_mlx5_rd64(seg);
				v->mask2 = gd_mlx5_rd64(seg + 8);
				seg += 16;
			}
		} else {
			v->op1 = gd_mlx5_rd32(seg);
			v->op2 = gd_mlx5_rd32(seg + 4);
			v->mask1 = gd_mlx5_rd32(seg + 8);
			v->mask2 = gd_mlx5_rd32(seg + 12);
			seg += 16;
		}
		break;
	default:
		break;
	}
	if ((uint32_t)(seg - b) / 16 >= v->ds)
		return v->opcode == GD_MLX5_OP_RDMA_WRITE ? 0 : -1;
	v->has_data = 1;
	v->len = gd_mlx5_rd32(seg);
	if (v->len & 0x80000000u) {
		v->is_inline = 1;
		v->len &= 0x7fffffffu;
		v->inline_data = seg + 4;
		return (uint32_t)v->ds == gd_mlx5_inline_ds(v->len) ? 0 : -1;
	}
	v->lkey = gd_mlx5_rd32(seg + 4);
	v->laddr = gd_mlx5_rd64(seg + 8);
	return 0;
}

#endif
