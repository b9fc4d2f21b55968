/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The proxy ring as a producer sees it: one ring per proxy thread, each a
 * power-of-two array of 32-byte descriptors (desc.h) in pinned host memory,
 * plus four counters. Compiled from this one source for the host producer
 * threads (C) and the CUDA producer kernel (nvcc).
 *
 *   head    reservation counter: producers atomically add the number of slots
 *           they take (GPU memory for a GPU producer, host memory otherwise);
 *           only producers touch it - the proxy never reads it
 *   credit  slots the proxy has consumed, written by the proxy in batches;
 *           a producer may fill slot i once i < credit + slots (back-pressure);
 *           each producer caches the last value it read
 *   done    requests completed, in ring order (the proxy's CQ polling); a quiet
 *           waits until done reaches the head it read
 *   error   one word for all rings: 0, or the first fault (GD_ERR_*) with the
 *           completion status, the request's opcode and the QP
 *   stop    the host asks producers to give up (^C, a dead peer, a deadline)
 *
 * A request's channel chooses its QP (channel % QPs) and the QP its proxy
 * thread and so its ring (QP % rings): every QP is driven by one thread.
 *
 * Every wait has a deadline (timeout_ns without progress, on %globaltimer on
 * the GPU) and
 * fills a struct gd_ring_fail with the ring indices and the outstanding
 * counts, which the host prints.
 */
#ifndef GD_RING_H
#define GD_RING_H

#include <stdint.h>

#include "desc.h"
#include "gd_hd.h"

#define GD_RING_MAX 32 /* rings (proxy threads) per set */

struct gd_ring_view {
	uint64_t *slots;  /* 4 words per slot */
	uint64_t *head;
	uint64_t *credit;
	uint64_t *done;
	uint32_t log2;    /* slots = 1 << log2 */
	uint32_t pad;
};

struct gd_ring_set {
	struct gd_ring_view ring[GD_RING_MAX];
	uint64_t *error;
	uint64_t *stop;
	uint32_t nrings;
	uint32_t nqps;
	uint64_t timeout_ns;
};

/* The error word: bit 63 set, what happened, the completion status, the
 * request's descriptor opcode, the QP's index and its number. */
enum gd_err_kind {
	GD_ERR_NONE = 0,
	GD_ERR_COMPLETION = 1, /* a work completion with an error status */
	GD_ERR_POST = 2,       /* posting to the QP failed */
	GD_ERR_DESC = 3,       /* a descriptor with an invalid opcode */
	GD_ERR_TIMEOUT = 4,    /* the proxy saw no completion within the deadline */
};

GD_HD uint64_t gd_err_make(uint32_t kind, uint32_t status, uint32_t op, uint32_t qp_index,
			   uint32_t qp_num)
{
	return 1ull << 63 | (uint64_t)(kind & 0xf) << 48 | (uint64_t)(status & 0xff) << 40 |
	       (uint64_t)(op & 0xff) << 32 | (uint64_t)(qp_index & 0xff) << 24 | (qp_num & 0xffffff);
}
GD_HD uint32_t gd_err_kind(uint64_t e) { return (uint32_t)(e >> 48) & 0xf; }
GD_HD uint32_t gd_err_status(uint64_t e) { return (uint32_t)(e >> 40) & 0xff; }
GD_HD uint32_t gd_err_op(uint64_t e) { return (uint32_t)(e >> 32) & 0xff; }
GD_HD uint32_t gd_err_qp_index(uint64_t e) { return (uint32_t)(e >> 24) & 0xff; }
GD_HD uint32_t gd_err_qp_num(uint64_t e) { return (uint32_t)e & 0xffffff; }

/* Why a producer gave up, and where the ring stood. */
enum gd_ring_code {
	GD_RING_OK = 0,
	GD_RING_TIMEOUT_SPACE = 1, /* no free slot within the deadline (back-pressure) */
	GD_RING_TIMEOUT_DONE = 2,  /* quiet: completions did not reach the target */
	GD_RING_FAULT = 3,         /* the error word is set */
	GD_RING_STOPPED = 4,       /* the host set stop */
};

struct gd_ring_fail {
	uint64_t code;    /* enum gd_ring_code; 0 = no failure recorded */
	uint64_t ring;
	uint64_t idx;     /* the slot waited for, or the quiet target */
	uint64_t head;
	uint64_t credit;
	uint64_t done;
};

GD_HD uint32_t gd_ring_of_channel(const struct gd_ring_set *s, uint32_t channel)
{
	return (channel % s->nqps) % s->nrings;
}

/* Take n consecutive slots; returns the first index. */
GD_HD uint64_t gd_ring_reserve(const struct gd_ring_view *r, uint32_t n)
{
	return gd_hd_fetch_add(r->head, n);
}

GD_HD void gd_ring_fill_fail(const struct gd_ring_set *s, uint32_t ring, uint64_t code,
			     uint64_t idx, struct gd_ring_fail *f)
{
	const struct gd_ring_view *r = &s->ring[ring];

	f->code = code;
	f->ring = ring;
	f->idx = idx;
	f->head = gd_hd_load_acq(r->head);
	f->credit = gd_hd_load_acq(r->credit);
	f->done = gd_hd_load_acq(r->done);
}

/* Checks made every few spins: the error word, stop, the deadline. */
GD_HD uint64_t gd_ring_check(const struct gd_ring_set *s, uint64_t deadline, uint64_t timeout_code)
{
	if (gd_hd_load_acq(s->error))
		return GD_RING_FAULT;
	if (gd_hd_load_acq(s->stop))
		return GD_RING_STOPPED;
	if (gd_hd_now_ns() > deadline)
		return timeout_code;
	return GD_RING_OK;
}

/*
 * Wait until slots [idx, idx + n) are free: idx + n <= credit + slots.
 * *cache is the producer's last credit reading. Returns a gd_ring_code.
 */
GD_HD uint64_t gd_ring_wait_space(const struct gd_ring_set *s, uint32_t ring, uint64_t idx,
				  uint32_t n, uint64_t *cache, struct gd_ring_fail *f)
{
	const struct gd_ring_view *r = &s->ring[ring];
	uint64_t slots = 1ull << r->log2, deadline = 0, code, last = *cache;
	uint32_t spin = 0, waits = 0;

	if (idx + n <= *cache + slots)
		return GD_RING_OK;
	for (;;) {
		uint64_t c = gd_hd_load_acq(r->credit);

		if (idx + n <= c + slots) {
			*cache = c;
			return GD_RING_OK;
		}
		if (++spin % 64)
			continue;
		if (!deadline || c != last) /* the deadline counts from the last progress */
			deadline = gd_hd_now_ns() + s->timeout_ns;
		last = c;
		code = gd_ring_check(s, deadline, GD_RING_TIMEOUT_SPACE);
		if (code) {
			gd_ring_fill_fail(s, ring, code, idx, f);
			return code;
		}
		gd_hd_pause(waits++);
	}
}

/* Write descriptor w (encoded with any lap) into slot idx with idx's lap bit. */
GD_HD void gd_ring_put(const struct gd_ring_view *r, uint64_t idx, const uint64_t w[GD_DESC_WORDS])
{
	uint64_t lap = gd_desc_lap(idx, r->log2);
	uint64_t *slot = r->slots + (idx & ((1ull << r->log2) - 1)) * GD_DESC_WORDS;

	gd_hd_store_rlx(&slot[1], (w[1] & ~1ull) | lap);
	gd_hd_store_rlx(&slot[2], (w[2] & ~1ull) | lap);
	gd_hd_store_rlx(&slot[3], (w[3] & ~1ull) | lap);
	gd_hd_store_rlx(&slot[0], (w[0] & ~1ull) | lap);
}

/* Word k of slot idx. */
GD_HD uint64_t *gd_ring_word(const struct gd_ring_view *r, uint64_t idx, uint32_t k)
{
	return r->slots + (idx & ((1ull << r->log2) - 1)) * GD_DESC_WORDS + k;
}

/*
 * A warp writing 32 descriptors coalesced: in round j (0..3) lane l stores
 * word k of descriptor s, so that one warp-wide store covers 256 contiguous
 * bytes (8 whole slots) instead of 32 scattered words. The lane gets that
 * word from lane s with a shuffle.
 */
GD_HD void gd_ring_warp_word(uint32_t j, uint32_t lane, uint32_t *s, uint32_t *k)
{
	uint32_t wi = j * 32 + lane;

	*s = wi / GD_DESC_WORDS;
	*k = wi % GD_DESC_WORDS;
}

/* Wait until ring's done counter reaches target. Returns a gd_ring_code. */
GD_HD uint64_t gd_ring_wait_done(const struct gd_ring_set *s, uint32_t ring, uint64_t target,
				 struct gd_ring_fail *f)
{
	const struct gd_ring_view *r = &s->ring[ring];
	uint64_t deadline = 0, code, d, last = 0;
	uint32_t spin = 0, waits = 0;

	while ((d = gd_hd_load_acq(r->done)) < target) {
		if (++spin % 64)
			continue;
		if (!deadline || d != last) /* the deadline counts from the last progress */
			deadline = gd_hd_now_ns() + s->timeout_ns;
		last = d;
		code = gd_ring_check(s, deadline, GD_RING_TIMEOUT_DONE);
		if (code) {
			gd_ring_fill_fail(s, ring, code, target, f);
			return code;
		}
		gd_hd_pause(waits++);
	}
	return gd_hd_load_acq(s->error) ? GD_RING_FAULT : GD_RING_OK;
}

/* Quiet: every request reserved so far on every ring has completed. */
GD_HD uint64_t gd_ring_quiet(const struct gd_ring_set *s, struct gd_ring_fail *f)
{
	for (uint32_t i = 0; i < s->nrings; i++) {
		uint64_t code = gd_ring_wait_done(s, i, gd_hd_load_acq(s->ring[i].head), f);
		if (code)
			return code;
	}
	return GD_RING_OK;
}

/* Record f as the run's failure unless one is already recorded. */
GD_HD void gd_ring_fail_record(struct gd_ring_fail *global, const struct gd_ring_fail *f)
{
	if (gd_hd_cas(&global->code, 0, f->code) == 0) {
		gd_hd_store_rel(&global->ring, f->ring);
		gd_hd_store_rel(&global->idx, f->idx);
		gd_hd_store_rel(&global->head, f->head);
		gd_hd_store_rel(&global->credit, f->credit);
		gd_hd_store_rel(&global->done, f->done);
	}
}

#endif
