/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * IBGDA device side: producer kernels over the shared protocol
 * (ibgda_dev.h) at thread (coalesced per warp), warp (lane i writes WQE i,
 * lane 0 reserves and rings) and CTA scope; a quiet kernel; a single-WQE
 * latency kernel; and the encoder sample kernel. Every wait inside is bounded by the QP's
 * %globaltimer deadline (the failure record names QPN and indices).
 *
 * Two builds of this file: an object with the runtime launchers below (the
 * GPU-tier program, linked with cudart) and a fatbin in the library that the
 * benchmark tools load through the dlopen'ed driver (ibgda_gpu.c); hence the
 * unmangled kernel names.
 */
#include <cuda_runtime.h>

#include "ibgda_work.h"

/* Kernel start: the run's deadline starts, the window's first stamp. */
__device__ static void k_begin(const struct gd_ibgda_kargs &a)
{
	if (threadIdx.x == 0)
		gd_ibgda_begin(&a);
}

/*
 * Thread scope: each thread posts one WQE per call; the threads of a warp
 * that call together for the same QP are coalesced (the lowest reserves
 * for all with one atomic, each writes its WQE, the lowest publishes and
 * rings once after __syncwarp): one atomic, one fence and at most one
 * doorbell per group instead of per WQE. Returns 0 or -1 (recorded).
 */
__device__ static int post_coalesced(const struct gd_ibgda_kargs &a, uint32_t qi, uint64_t item)
{
	const struct gd_ibgda_qp *qp = &a.qps[qi];
	uint32_t peers = __match_any_sync(__activemask(), qi);
	uint32_t lane = threadIdx.x & 31, leader = __ffs(peers) - 1;
	uint32_t rank = __popc(peers & ((1u << lane) - 1));
	struct gd_mlx5_wqebb w;
	uint64_t base = 0;
	int bad = 0;

	if (lane == leader)
		base = gd_ibgda_reserve(qp, __popc(peers));
	base = __shfl_sync(peers, base, leader);
	if (base == ~0ull)
		return -1;
	gd_ibgda_build_item(&a, qp, base + rank, item, &w);
	gd_ib_store_wqebb(gd_ibgda_wqe_ptr(qp, base + rank), &w);
	__syncwarp(peers); /* the leader's fence in publish covers the group */
	if (lane == leader)
		bad = gd_ibgda_submit(qp, base, __popc(peers), 0);
	return __shfl_sync(peers, bad, leader);
}

extern "C" __global__ void gd_ibgda_k_post_thread(struct gd_ibgda_kargs a)
{
	uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
	uint64_t T = (uint64_t)gridDim.x * blockDim.x;
	uint32_t qi = (uint32_t)((g / 32) % a.nqps);

	k_begin(a);
	for (uint32_t k = 0; k < a.iters; k++)
		if (post_coalesced(a, qi, k * T + g))
			break;
	__syncwarp();
	if ((threadIdx.x & 31) == 0)
		gd_ibgda_end(&a);
}

/* Warp scope: lane 0 reserves 32 WQEBBs with one atomic, lane i writes WQE
 * i, lane 0 publishes (one fence) and rings per the batching rule. */
extern "C" __global__ void gd_ibgda_k_post_warp(struct gd_ibgda_kargs a)
{
	uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
	uint64_t T = (uint64_t)gridDim.x * blockDim.x;
	uint32_t lane = threadIdx.x & 31;
	const struct gd_ibgda_qp *qp = &a.qps[(g / 32) % a.nqps];

	k_begin(a);
	for (uint32_t k = 0; k < a.iters; k++) {
		struct gd_mlx5_wqebb w;
		uint64_t base = 0;
		int bad = 0;

		if (lane == 0)
			base = gd_ibgda_reserve(qp, 32);
		base = __shfl_sync(0xffffffffu, base, 0);
		if (base == ~0ull)
			break;
		gd_ibgda_build_item(&a, qp, base + lane, k * T + g, &w);
		gd_ib_store_wqebb(gd_ibgda_wqe_ptr(qp, base + lane), &w);
		__syncwarp();
		if (lane == 0)
			bad = gd_ibgda_submit(qp, base, 32, 0);
		if (__shfl_sync(0xffffffffu, bad, 0))
			break;
	}
	if (lane == 0)
		gd_ibgda_end(&a);
}

extern "C" __global__ void gd_ibgda_k_post_cta(struct gd_ibgda_kargs a)
{
	__shared__ uint64_t base;
	__shared__ int bad;
	uint64_t g = blockIdx.x * (uint64_t)blockDim.x + threadIdx.x;
	uint64_t T = (uint64_t)gridDim.x * blockDim.x;
	const struct gd_ibgda_qp *qp = &a.qps[blockIdx.x % a.nqps];

	k_begin(a);
	for (uint32_t k = 0; k < a.iters; k++) {
		struct gd_mlx5_wqebb w;

		if (threadIdx.x == 0)
			base = gd_ibgda_reserve(qp, blockDim.x);
		__syncthreads();
		if (base == ~0ull)
			break;
		gd_ibgda_build_item(&a, qp, base + threadIdx.x, k * T + g, &w);
		gd_ib_store_wqebb(gd_ibgda_wqe_ptr(qp, base + threadIdx.x), &w);
		__syncthreads();
		if (threadIdx.x == 0)
			bad = gd_ibgda_submit(qp, base, blockDim.x, 0);
		__syncthreads();
		if (bad)
			break;
	}
	if (threadIdx.x == 0)
		gd_ibgda_end(&a);
}

/* One thread per QP: a signalled NOP behind everything, then wait for it. */
extern "C" __global__ void gd_ibgda_k_quiet(struct gd_ibgda_qp *qps, uint32_t nqps, uint64_t *snap)
{
	uint32_t q = blockIdx.x * blockDim.x + threadIdx.x;

	if (q < nqps)
		gd_ibgda_quiet_qp(qps, q, snap);
}

extern "C" __global__ void gd_ibgda_k_latency(struct gd_ibgda_kargs a, uint64_t *t_db, uint64_t *t_cqe)
{
	gd_ibgda_latency(&a, t_db, t_cqe);
}

extern "C" __global__ void gd_ibgda_k_sample(uint8_t *out, uint32_t n, uint64_t seed)
{
	uint32_t i = blockIdx.x * blockDim.x + threadIdx.x;

	if (i < n)
		gd_ibgda_sample(seed, i, out + (size_t)i * GD_IBGDA_SAMPLE_BYTES);
}

extern "C" int gd_ibgda_launch_sample(uint8_t *out, uint32_t n, uint64_t seed, void *stream)
{
	gd_ibgda_k_sample<<<(n + 127) / 128, 128, 0, (cudaStream_t)stream>>>(out, n, seed);
	return (int)cudaGetLastError();
}

extern "C" int gd_ibgda_launch_post(const struct gd_ibgda_kargs *a, uint32_t ctas,
				    uint32_t threads, void *stream)
{
	cudaStream_t s = (cudaStream_t)stream;

	if (a->scope == GD_IBGDA_SCOPE_WARP)
		gd_ibgda_k_post_warp<<<ctas, threads, 0, s>>>(*a);
	else if (a->scope == GD_IBGDA_SCOPE_CTA)
		gd_ibgda_k_post_cta<<<ctas, threads, 0, s>>>(*a);
	else
		gd_ibgda_k_post_thread<<<ctas, threads, 0, s>>>(*a);
	return (int)cudaGetLastError();
}

extern "C" int gd_ibgda_launch_quiet(struct gd_ibgda_qp *qps, uint32_t nqps, uint64_t *snap,
				     void *stream)
{
	gd_ibgda_k_quiet<<<(nqps + 31) / 32, 32, 0, (cudaStream_t)stream>>>(qps, nqps, snap);
	return (int)cudaGetLastError();
}

extern "C" int gd_ibgda_launch_latency(const struct gd_ibgda_kargs *a, uint64_t *t_db,
				       uint64_t *t_cqe, void *stream)
{
	gd_ibgda_k_latency<<<1, 1, 0, (cudaStream_t)stream>>>(*a, t_db, t_cqe);
	return (int)cudaGetLastError();
}
