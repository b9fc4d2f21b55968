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

/*
 * Take n consecutive slots; returns the first index. On the GPU the lanes of
 * a warp that reserve on the same ring at once (scope thread) share ONE
 * atomic on head: the lowest lane adds for all of them and hands each its
 * offset (head is a single word every producer of the ring contends for).
 */
GD_HD uint64_t gd_ring_reserve(const struct gd_ring_view *r, uint32_t n)
{
#if defined(__CUDA_ARCH__)
	unsigned act = __activemask(), lane, grp, leader;
	uint64_t base = 0;

	asm volatile("mov.u32 %0, %%laneid;" : "=r"(lane));
	grp = __match_any_sync(act, (unsigned long long)(uintptr_t)r->head) &
	      __match_any_sync(act, n);
	leader = (unsigned)__ffs((int)grp) - 1;
	if (lane == leader)
		base = gd_hd_fetch_add(r->head, (uint64_t)n * (uint64_t)__popc((int)grp));
	base = __shfl_sync(grp, base, (int)leader);
	return base + (uint64_t)n * (uint64_t)__popc((int)(grp & ((1u << lane) - 1)));
#else
	return gd_hd_fetch_add(r->head, n);
#endif
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

#if defined(__CUDA_ARCH__)
/*
 * GPU waits. Spinning on host memory over PCIe from thousands of threads
 * saturates PCIe reads: that was the collapse at 132 CTAs on the H100 (every
 * waiting thread read credit, done, error and stop from pinned host memory).
 * So GPU threads wait on MIRRORS in GPU memory, kept in the second half of the
 * ring's producer line next to head (that line is the proxy's CACHE_LINE =
 * 128 bytes of GPU memory, zeroed; the proxy never reads it). ONE thread per
 * ring at a time, the poller (it takes the GD_RING_M_LOCK word and keeps it
 * until its own wait ends), reads credit and done from host memory - both
 * loads in flight together, error and stop every 16th poll - and publishes
 * them with release atomics (max: the counters only grow); every other waiter
 * reads the mirrors from L2 and backs off with __nanosleep (32 ns doubling to
 * 1 us). Every wait keeps its %globaltimer deadline (from the last progress).
 */
#define GD_RING_M_CREDIT 8
#define GD_RING_M_DONE 9
#define GD_RING_M_ERROR 10
#define GD_RING_M_STOP 11
#define GD_RING_M_LOCK 12
#define GD_RING_NAP_MAX_NS 1024

struct gd_ring_poll {
	uint64_t credit, done, error, stop;
};

__device__ __forceinline__ uint64_t gd_ring_ld_gpu(const uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.acquire.gpu.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}

__device__ __forceinline__ uint64_t gd_ring_ld_sys_rlx(const uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.relaxed.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}

__device__ __forceinline__ void gd_ring_red_max(uint64_t *p, uint64_t v)
{
	asm volatile("red.release.gpu.global.max.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

/* One poll of host memory into the mirrors (the caller is the poller). */
__device__ __forceinline__ void gd_ring_dev_poll(const struct gd_ring_set *s,
						 const struct gd_ring_view *r, uint32_t k,
						 struct gd_ring_poll *p)
{
	uint64_t *m = r->head;

	p->credit = gd_ring_ld_sys_rlx(r->credit);
	if (k % 16 == 0) {
		p->error = gd_ring_ld_sys_rlx(s->error);
		p->stop = gd_ring_ld_sys_rlx(s->stop);
	}
	p->done = gd_hd_load_acq(r->done); /* acquire: what completed is visible */
	gd_ring_red_max(m + GD_RING_M_CREDIT, p->credit);
	gd_ring_red_max(m + GD_RING_M_DONE, p->done);
	if (p->error)
		gd_ring_red_max(m + GD_RING_M_ERROR, p->error);
	if (p->stop)
		gd_ring_red_max(m + GD_RING_M_STOP, p->stop);
}

/*
 * Wait until mirror word w (GD_RING_M_CREDIT or _DONE) of ring reaches
 * target; *val gets the last value seen. Returns a gd_ring_code (f filled).
 */
__device__ __noinline__ uint64_t gd_ring_dev_wait(const struct gd_ring_set *s, uint32_t ring,
						  uint32_t w, uint64_t target, uint64_t idx,
						  uint64_t tcode, uint64_t *val,
						  struct gd_ring_fail *f)
{
	const struct gd_ring_view *r = &s->ring[ring];
	uint64_t *m = r->head, v = 0, last = 0, code = GD_RING_OK, now;
	uint64_t deadline = gd_hd_now_ns() + s->timeout_ns;
	uint32_t nap = 32, k = 0;
	bool poller = false;
	struct gd_ring_poll p = { 0, 0, 0, 0 };

	for (;;) {
		if (!poller && !gd_ring_ld_gpu(m + GD_RING_M_LOCK) &&
		    atomicCAS((unsigned long long *)(m + GD_RING_M_LOCK), 0ull, 1ull) == 0ull)
			poller = true;
		if (poller) {
			gd_ring_dev_poll(s, r, k++, &p);
			v = w == GD_RING_M_CREDIT ? p.credit : p.done;
		} else {
			v = gd_ring_ld_gpu(m + w);
			p.error = gd_ring_ld_gpu(m + GD_RING_M_ERROR);
			p.stop = gd_ring_ld_gpu(m + GD_RING_M_STOP);
		}
		if (v >= target)
			break;
		now = gd_hd_now_ns();
		if (v != last) { /* the deadline counts from the last progress */
			last = v;
			deadline = now + s->timeout_ns;
		}
		code = p.error ? GD_RING_FAULT : p.stop ? GD_RING_STOPPED :
		       now > deadline ? tcode : GD_RING_OK;
		if (code)
			break;
		if (!poller) {
			__nanosleep(nap);
			nap = nap < GD_RING_NAP_MAX_NS ? nap * 2 : nap;
		}
	}
	if (poller)
		atomicExch((unsigned long long *)(m + GD_RING_M_LOCK), 0ull);
	*val = v;
	if (code)
		gd_ring_fill_fail(s, ring, code, idx, f);
	return code;
}

GD_HD uint64_t gd_ring_wait_space(const struct gd_ring_set *s, uint32_t ring, uint64_t idx,
				  uint32_t n, uint64_t *cache, struct gd_ring_fail *f)
{
	uint64_t slots = 1ull << s->ring[ring].log2, c, code;

	if (idx + n <= *cache + slots)
		return GD_RING_OK;
	code = gd_ring_dev_wait(s, ring, GD_RING_M_CREDIT, idx + n - slots, idx,
				GD_RING_TIMEOUT_SPACE, &c, f);
	if (!code)
		*cache = c;
	return code;
}

/* done never passes a failed request, so reaching target is success; the
 * error mirror (one L2 read) still reports a fault seen meanwhile. Done is
 * waited for by one thread (a quiet, a put + quiet), so it first reads host
 * done directly, GD_RING_DIRECT_POLLS times (a put's round trip is about that
 * many PCIe reads): the mirrors' lock and publish cost about 0.8 us per wait
 * on the H100 (doc/proxy.md). Then the mirrors, with their deadline. */
#define GD_RING_DIRECT_POLLS 64

GD_HD uint64_t gd_ring_wait_done(const struct gd_ring_set *s, uint32_t ring, uint64_t target,
				 struct gd_ring_fail *f)
{
	for (uint32_t k = 0; k < GD_RING_DIRECT_POLLS; k++)
		if (gd_hd_load_acq(s->ring[ring].done) >= target)
			return GD_RING_OK;
	uint64_t d, code = gd_ring_dev_wait(s, ring, GD_RING_M_DONE, target, target,
					    GD_RING_TIMEOUT_DONE, &d, f);

	if (code)
		return code;
	return gd_ring_ld_gpu(s->ring[ring].head + GD_RING_M_ERROR) ? GD_RING_FAULT : GD_RING_OK;
}

#else /* host producers: the counters are in host memory already */

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

#endif

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

#if !defined(__CUDA_ARCH__)
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

#endif

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
