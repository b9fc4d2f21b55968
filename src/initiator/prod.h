/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What a producer issues, defined once for the host producer threads and the
 * CUDA producer kernel, so both generate the same request stream and one
 * validation checks either.
 *
 * Producers form groups (the --scope: one thread, one warp of 32, or one
 * block); group g issues per_group requests on channel g, in order, each
 * group reserving group_size slots at a time and writing them (a warp stores
 * 32 descriptors coalesced). No fence orders payload before descriptor: the
 * data is written before the launch, which orders it, and each descriptor
 * word carries its lap bit (the proxy takes a slot only when all four agree).
 * fence_payload = 1 adds one system fence per reservation, what a producer
 * that writes its payload in the kernel needs (gd_proxy_gpu --fence measures
 * its cost: about 0.65 us per put+quiet on the H100).
 * Request k of group g targets region g % nregions of both buffers:
 *   write/send   local region -> remote region, size bytes
 *   read         remote region -> local region
 *   FADD         remote region's first word += 1, old value -> local region
 *   CAS          compare k, swap k + 1 (needs nregions >= groups: one
 *                sequence per word), old value -> local region
 */
#ifndef GD_PROD_H
#define GD_PROD_H

#include <stdint.h>

#include "desc.h"
#include "ring.h"

struct gd_prod_args {
	struct gd_ring_set set;
	uint32_t op;            /* enum gd_desc_op */
	uint32_t group_size;    /* slots reserved at once: 1, 32 or the block size */
	uint32_t ngroups;
	uint32_t nregions;
	uint64_t size;          /* bytes per request (atomics 8) */
	uint64_t per_group;     /* requests per group */
	uint64_t region_bytes;  /* distance between regions */
	struct gd_ring_fail *fail; /* first failure (code 0 = none) */
	struct gd_prod_clock *clock; /* issue and completion times, or NULL */
	uint64_t trap_after;    /* FAULT INJECTION (tests): group 0's GPU producer traps
				 * before request k == trap_after (0 = never) */
	uint32_t fence_payload; /* 1: a system fence before each reservation's descriptors */
	uint32_t pad;
};

/* payload -> descriptor order, for producers that write payload in the kernel */
GD_HD void gd_prod_fence(const struct gd_prod_args *a)
{
	if (a->fence_payload)
		gd_hd_fence_sys();
}

/*
 * Issue rate and completion rate apart (a GPU run's message rate mixes the
 * producers' issue with the transport's completion): on the producers' own
 * clock (%globaltimer on the GPU, CLOCK_MONOTONIC on the host), start is the
 * first group's start, issued the last descriptor written, quiet the end of
 * the quiet. Zeroed memory the producers reach (mapped for the GPU).
 */
struct gd_prod_clock {
	uint64_t start;  /* min over groups (0 = unset) */
	uint64_t issued; /* max over groups */
	uint64_t quiet;
};

/* *w = min(*w, t) (a zero *w counts as unset), or max with !min. */
GD_HD void gd_prod_clock_mark(uint64_t *w, uint64_t t, int min)
{
	uint64_t old = gd_hd_load_acq(w);

	while (min ? (!old || t < old) : t > old) {
		uint64_t seen = gd_hd_cas(w, old, t);

		if (seen == old)
			break;
		old = seen;
	}
}

GD_HD void gd_prod_mark_start(const struct gd_prod_args *a)
{
	if (a->clock)
		gd_prod_clock_mark(&a->clock->start, gd_hd_now_ns(), 1);
}

GD_HD void gd_prod_mark_issued(const struct gd_prod_args *a)
{
	if (a->clock)
		gd_prod_clock_mark(&a->clock->issued, gd_hd_now_ns(), 0);
}

GD_HD void gd_prod_req(const struct gd_prod_args *a, uint32_t group, uint64_t k,
		       struct gd_req *r)
{
	uint64_t off = (uint64_t)(group % a->nregions) * a->region_bytes;

	r->op = a->op;
	r->channel = group & GD_DESC_CHANNEL_MAX;
	r->flags = 0;
	r->size = gd_desc_is_atomic(a->op) ? 8 : a->size;
	r->local = off;
	r->remote = off;
	r->compare = k;
	r->operand = a->op == GD_DESC_CAS ? k + 1 : (a->op == GD_DESC_FADD ? 1 : (k & 0xffffffff));
}

/*
 * Issue n (<= group_size) requests k0 .. k0 + n - 1 of group g from one
 * thread: one reservation, n descriptors. *end (if not NULL) gets the ring
 * index after them, what a wait for their completion targets. Returns a
 * gd_ring_code (the failure recorded in a->fail).
 */
GD_HD uint64_t gd_prod_issue(const struct gd_prod_args *a, uint32_t g, uint64_t k0, uint32_t n,
			     uint64_t *credit_cache, uint64_t *end)
{
	struct gd_ring_fail f = { 0 };
	uint32_t ring = gd_ring_of_channel(&a->set, g & GD_DESC_CHANNEL_MAX);
	const struct gd_ring_view *r = &a->set.ring[ring];
	uint64_t idx = gd_ring_reserve(r, n);
	uint64_t code = gd_ring_wait_space(&a->set, ring, idx, n, credit_cache, &f);

	if (code) {
		gd_ring_fail_record(a->fail, &f);
		return code;
	}
	if (end)
		*end = idx + n;
	gd_prod_fence(a);
	for (uint32_t j = 0; j < n; j++) {
		struct gd_req q;
		uint64_t w[GD_DESC_WORDS] = { 0 };

		gd_prod_req(a, g, k0 + j, &q);
		gd_desc_encode(&q, 0, w);
		gd_ring_put(r, idx + j, w);
	}
	return GD_RING_OK;
}

#endif
