/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The request descriptor of the proxy ring: 32 bytes, four 64-bit words.
 * Shared by the CPU proxy, the host producers and the CUDA producer kernel.
 *
 * Bit 0 of EVERY word is the lap bit: (ring index / slots) & 1, inverted, so
 * a zeroed ring reads "empty" on the first lap. The proxy takes a slot when
 * all four words carry the lap bit it expects; it never reads a producer
 * index and never clears a slot. Each word is one aligned 8-byte store, so a
 * word and its lap bit arrive together however the stores reach memory.
 *
 *   w0: lap | op << 1 (4 bits) | flags << 5 (3 bits) | channel << 8 (16 bits)
 *       | size << 24 (40 bits; atomics: the local result offset)
 *   w1: lap | local offset << 1      (atomics: CAS compare value)
 *   w2: lap | remote offset << 1
 *   w3: lap | operand << 1           (FADD add, CAS swap, immediate data)
 *
 * Offsets and operands are therefore 63-bit values, sizes and atomic result
 * offsets 40-bit; gd_desc_encode() refuses anything larger. Offsets are
 * relative to the buffers the transport registered (the local and the
 * peer's), as NVSHMEM's symmetric-heap offsets are.
 */
#ifndef GD_DESC_H
#define GD_DESC_H

#include <stdint.h>

#include "gd_hd.h"

enum gd_desc_op {
	GD_DESC_NOP = 0, /* never produced: an invalid descriptor */
	GD_DESC_WRITE = 1,
	GD_DESC_WRITE_IMM = 2,
	GD_DESC_READ = 3,
	GD_DESC_FADD = 4,
	GD_DESC_CAS = 5,
	GD_DESC_SEND = 6,
	GD_DESC_SEND_IMM = 7,
	GD_DESC_OP_COUNT
};

#define GD_DESC_WORDS 4
#define GD_DESC_BYTES 32
#define GD_DESC_SIZE_MAX ((1ull << 40) - 1)
#define GD_DESC_VAL_MAX ((1ull << 63) - 1)
#define GD_DESC_CHANNEL_MAX 0xffffu

/* One request, decoded. */
struct gd_req {
	uint32_t op;       /* enum gd_desc_op */
	uint32_t channel;  /* picks the QP (channel % QPs) and so the proxy thread */
	uint32_t flags;    /* 3 bits, reserved (0) */
	uint64_t size;     /* bytes (atomics: 8) */
	uint64_t local;    /* local offset; atomics: where the old value lands */
	uint64_t remote;   /* offset in the peer's buffer */
	uint64_t compare;  /* CAS */
	uint64_t operand;  /* FADD add, CAS swap, _IMM immediate (32 bits) */
};

/* The lap bit that ring index idx carries in a ring of 2^log2 slots. */
GD_HD uint64_t gd_desc_lap(uint64_t idx, uint32_t log2)
{
	return ((idx >> log2) & 1) ^ 1;
}

GD_HD int gd_desc_is_atomic(uint32_t op)
{
	return op == GD_DESC_FADD || op == GD_DESC_CAS;
}

/* Fill w[4] for req with lap bit lap. Returns 0, or -1 when a field does not
 * fit (op, channel, size, offset or operand out of range). */
GD_HD int gd_desc_encode(const struct gd_req *r, uint64_t lap, uint64_t w[GD_DESC_WORDS])
{
	int atomic = gd_desc_is_atomic(r->op);
	uint64_t f0 = atomic ? r->local : r->size;
	uint64_t f1 = r->op == GD_DESC_CAS ? r->compare : (atomic ? 0 : r->local);

	if (r->op == GD_DESC_NOP || r->op >= GD_DESC_OP_COUNT || r->channel > GD_DESC_CHANNEL_MAX ||
	    r->flags > 7 || f0 > GD_DESC_SIZE_MAX || f1 > GD_DESC_VAL_MAX ||
	    r->remote > GD_DESC_VAL_MAX || r->operand > GD_DESC_VAL_MAX)
		return -1;
	lap &= 1;
	w[0] = lap | (uint64_t)r->op << 1 | (uint64_t)r->flags << 5 | (uint64_t)r->channel << 8 |
	       f0 << 24;
	w[1] = lap | f1 << 1;
	w[2] = lap | r->remote << 1;
	w[3] = lap | r->operand << 1;
	return 0;
}

/* True when all four words carry lap bit lap (the slot is ready). */
GD_HD int gd_desc_ready(const uint64_t w[GD_DESC_WORDS], uint64_t lap)
{
	return ((w[0] & w[1] & w[2] & w[3] & 1) == lap) && (((w[0] | w[1] | w[2] | w[3]) & 1) == lap);
}

/* Decode w[4] (already known ready). Returns 0, or -1 for an invalid op. */
GD_HD int gd_desc_decode(const uint64_t w[GD_DESC_WORDS], struct gd_req *r)
{
	uint64_t f0 = w[0] >> 24, f1 = w[1] >> 1;

	r->op = (uint32_t)(w[0] >> 1) & 0xf;
	r->flags = (uint32_t)(w[0] >> 5) & 7;
	r->channel = (uint32_t)(w[0] >> 8) & 0xffff;
	r->remote = w[2] >> 1;
	r->operand = w[3] >> 1;
	r->compare = 0;
	if (gd_desc_is_atomic(r->op)) {
		r->size = 8;
		r->local = f0;
		r->compare = r->op == GD_DESC_CAS ? f1 : 0;
	} else {
		r->size = f0;
		r->local = f1;
	}
	return r->op == GD_DESC_NOP || r->op >= GD_DESC_OP_COUNT ? -1 : 0;
}

#endif
