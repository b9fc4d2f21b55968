/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CUDA producer kernels of the proxy ring. They compile the same
 * prod.h / ring.h / desc.h as the host producer threads; only the grouping
 * differs (initiator.h's launch convention: grid = CTAs, block = threads):
 *
 *   scope thread  each thread is a group: one reservation (the lanes of a
 *                 warp on one ring share its atomic) and one descriptor per
 *                 request
 *   scope warp    each warp is a group: lane 0 reserves 32 slots (and waits
 *                 for credit), every lane writes one descriptor, coalesced
 *   (with fence_payload, prod.h, one system fence per reservation)
 *   scope block   each CTA is a group: thread 0 reserves blockDim slots
 *
 * GPU waits read GPU-memory mirrors of the ring's host counters, refreshed by
 * one poller thread per ring (ring.h, "GPU waits"): no swarm of PCIe reads.
 * Every wait is bounded by the set's timeout on %globaltimer; a failure is
 * recorded once (a->fail) with the ring indices, and the kernel returns.
 * Built by nvcc into a fatbin that gpu_prod.c loads through the driver API.
 */
#include "prod.h"

extern "C" __global__ void gd_proxy_produce_thread(struct gd_prod_args a)
{
	uint32_t g = blockIdx.x * blockDim.x + threadIdx.x;
	uint64_t cache = 0;

	if (g >= a.ngroups)
		return;
	gd_prod_mark_start(&a);
	for (uint64_t k = 0; k < a.per_group; k++) {
		if (a.trap_after && g == 0 && k == a.trap_after)
			__trap(); /* fault injection (tests) */
		if (gd_prod_issue(&a, g, k, 1, &cache, NULL))
			return;
	}
	gd_prod_mark_issued(&a);
}

extern "C" __global__ void gd_proxy_produce_warp(struct gd_prod_args a)
{
	uint32_t lane = threadIdx.x & 31;
	uint32_t g = (blockIdx.x * blockDim.x + threadIdx.x) / 32;
	uint32_t ring = gd_ring_of_channel(&a.set, g & GD_DESC_CHANNEL_MAX);
	const struct gd_ring_view *r = &a.set.ring[ring];
	uint64_t cache = 0;

	if (lane == 0)
		gd_prod_mark_start(&a);
	for (uint64_t k = 0; k < a.per_group; k += 32) {
		uint32_t n = a.per_group - k < 32 ? (uint32_t)(a.per_group - k) : 32;
		uint64_t idx = 0, code = 0;

		if (lane == 0) {
			struct gd_ring_fail f = {};

			if (a.trap_after && g == 0 && k >= a.trap_after)
				__trap(); /* fault injection (tests) */
			idx = gd_ring_reserve(r, n);
			code = gd_ring_wait_space(&a.set, ring, idx, n, &cache, &f);
			if (code)
				gd_ring_fail_record(a.fail, &f);
		}
		idx = __shfl_sync(0xffffffffu, idx, 0);
		code = __shfl_sync(0xffffffffu, code, 0);
		if (code)
			return;
		gd_prod_fence(&a); /* one warp-wide fence for 32 descriptors */
		uint64_t w[GD_DESC_WORDS] = { 0, 0, 0, 0 };

		if (lane < n) {
			struct gd_req q;

			gd_prod_req(&a, g, k + lane, &q);
			gd_desc_encode(&q, 0, w);
		}
		/* coalesced: each round stores 8 whole slots (gd_ring_warp_word) */
		for (uint32_t j = 0; j < GD_DESC_WORDS; j++) {
			uint32_t s, kw;
			uint64_t v[GD_DESC_WORDS];

			gd_ring_warp_word(j, lane, &s, &kw);
			for (uint32_t x = 0; x < GD_DESC_WORDS; x++)
				v[x] = __shfl_sync(0xffffffffu, w[x], s);
			if (s < n)
				gd_hd_store_rlx(gd_ring_word(r, idx + s, kw),
						(v[kw] & ~1ull) | gd_desc_lap(idx + s, r->log2));
		}
	}
	if (lane == 0)
		gd_prod_mark_issued(&a);
}

extern "C" __global__ void gd_proxy_produce_block(struct gd_prod_args a)
{
	__shared__ uint64_t s_idx, s_code;
	uint32_t g = blockIdx.x, t = threadIdx.x, bs = blockDim.x;
	uint32_t ring = gd_ring_of_channel(&a.set, g & GD_DESC_CHANNEL_MAX);
	const struct gd_ring_view *r = &a.set.ring[ring];
	uint64_t cache = 0;

	if (t == 0)
		gd_prod_mark_start(&a);
	for (uint64_t k = 0; k < a.per_group; k += bs) {
		uint32_t n = a.per_group - k < bs ? (uint32_t)(a.per_group - k) : bs;

		if (t == 0) {
			struct gd_ring_fail f = {};

			if (a.trap_after && g == 0 && k >= a.trap_after)
				__trap(); /* fault injection (tests) */
			s_idx = gd_ring_reserve(r, n);
			s_code = gd_ring_wait_space(&a.set, ring, s_idx, n, &cache, &f);
			if (s_code)
				gd_ring_fail_record(a.fail, &f);
		}
		__syncthreads();
		if (s_code)
			return;
		gd_prod_fence(&a);
		if (t < n) {
			struct gd_req q;
			uint64_t w[GD_DESC_WORDS];

			gd_prod_req(&a, g, k + t, &q);
			gd_desc_encode(&q, 0, w);
			gd_ring_put(r, s_idx + t, w);
		}
		__syncthreads();
	}
	if (t == 0)
		gd_prod_mark_issued(&a);
}

/* After the producers: one thread quiets every ring (the grid's end). */
extern "C" __global__ void gd_proxy_quiet(struct gd_prod_args a)
{
	struct gd_ring_fail f = {};

	if (gd_ring_quiet(&a.set, &f))
		gd_ring_fail_record(a.fail, &f);
	else if (a.clock)
		gd_hd_store_rel(&a.clock->quiet, gd_hd_now_ns());
}

/* Put + quiet round trips from one thread (the quiet waits for this thread's
 * puts: its own ring index); samples in ns (%globaltimer). */
extern "C" __global__ void gd_proxy_lat(struct gd_prod_args a, uint64_t n, uint64_t *samples)
{
	uint32_t ring = gd_ring_of_channel(&a.set, 0);
	uint64_t cache = 0;

	for (uint64_t i = 0; i < n; i++) {
		struct gd_ring_fail f = {};
		uint64_t t0 = gd_hd_now_ns(), code, end = 0;

		code = gd_prod_issue(&a, 0, i, 1, &cache, &end);
		if (!code)
			code = gd_ring_wait_done(&a.set, ring, end, &f);
		if (code) {
			if (f.code)
				gd_ring_fail_record(a.fail, &f);
			return;
		}
		samples[i] = gd_hd_now_ns() - t0;
	}
}
