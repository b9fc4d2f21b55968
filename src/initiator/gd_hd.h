/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host/device portability for the headers that the CPU proxy, the host
 * producer threads and the CUDA producer kernel compile from one source
 * (desc.h, ring.h). Compiled as C11 on the host (gcc), as CUDA C++ by nvcc.
 *
 * GD_HD marks a function usable on both sides; the primitives below are the
 * only places where host and device differ:
 *   gd_hd_load_acq   acquire load of a 64-bit word written by the other side
 *   gd_hd_store_rel  release store of a 64-bit word read by the other side
 *   gd_hd_store_rlx  relaxed store (descriptor words: each carries its lap bit)
 *   gd_hd_fetch_add  relaxed atomic add (slot reservation)
 *   gd_hd_cas        compare-and-swap (first error or failure record wins)
 *   gd_hd_fence_sys  order this thread's earlier writes (payload) before later
 *                    ones (descriptor) as seen by the other side of PCIe
 *   gd_hd_pause      back off in a wait (host: sched_yield, then 20 us sleeps; GPU: __nanosleep)
 *   gd_hd_now_ns     a nanosecond clock for deadlines: CLOCK_MONOTONIC on the
 *                    host, %globaltimer on the GPU
 */
#ifndef GD_HD_H
#define GD_HD_H

#include <stdint.h>

#if defined(__CUDACC__)
#define GD_HD static __host__ __device__ __forceinline__
#else
#include <sched.h>
#include <time.h>
#define GD_HD static inline
#endif

#if defined(__CUDA_ARCH__)

GD_HD uint64_t gd_hd_load_acq(const uint64_t *p)
{
	uint64_t v;

	asm volatile("ld.acquire.sys.u64 %0, [%1];" : "=l"(v) : "l"(p) : "memory");
	return v;
}

GD_HD void gd_hd_store_rel(uint64_t *p, uint64_t v)
{
	asm volatile("st.release.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

GD_HD void gd_hd_store_rlx(uint64_t *p, uint64_t v)
{
	asm volatile("st.relaxed.sys.u64 [%0], %1;" ::"l"(p), "l"(v) : "memory");
}

GD_HD uint64_t gd_hd_fetch_add(uint64_t *p, uint64_t n)
{
	return (uint64_t)atomicAdd((unsigned long long *)p, (unsigned long long)n);
}

GD_HD uint64_t gd_hd_cas(uint64_t *p, uint64_t expect, uint64_t v)
{
	return (uint64_t)atomicCAS_system((unsigned long long *)p, (unsigned long long)expect,
					  (unsigned long long)v);
}

/* fence.acq_rel.sys: the release half is all a producer needs (payload, then
 * descriptor words); lighter than __threadfence_system()'s fence.sc.sys */
GD_HD void gd_hd_fence_sys(void)
{
	asm volatile("fence.acq_rel.sys;" ::: "memory");
}

GD_HD uint64_t gd_hd_now_ns(void)
{
	uint64_t t;

	asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
	return t;
}

GD_HD void gd_hd_pause(uint32_t waits)
{
	__nanosleep(32);
}

#else /* host */

GD_HD uint64_t gd_hd_load_acq(const uint64_t *p)
{
	return __atomic_load_n(p, __ATOMIC_ACQUIRE);
}

GD_HD void gd_hd_store_rel(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

/* release on the host: free on x86-64, and it lets ThreadSanitizer see the
 * payload -> descriptor order that gd_hd_fence_sys gives on the GPU */
GD_HD void gd_hd_store_rlx(uint64_t *p, uint64_t v)
{
	__atomic_store_n(p, v, __ATOMIC_RELEASE);
}

GD_HD uint64_t gd_hd_fetch_add(uint64_t *p, uint64_t n)
{
	return __atomic_fetch_add(p, n, __ATOMIC_RELAXED);
}

GD_HD uint64_t gd_hd_cas(uint64_t *p, uint64_t expect, uint64_t v)
{
	__atomic_compare_exchange_n(p, &expect, v, 0, __ATOMIC_ACQ_REL, __ATOMIC_ACQUIRE);
	return expect;
}

GD_HD void gd_hd_fence_sys(void)
{
#if defined(__SANITIZE_THREAD__)
	/* TSan models no fences; the release stores of the words order them */
	__asm__ __volatile__("" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_RELEASE);
#endif
}

GD_HD uint64_t gd_hd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

/* Called every 64 empty polls of a wait (waits = how many times so far):
 * give the CPU away, as host producers and proxy threads may outnumber the
 * cores; after ~4096 calls (a long wait, e.g. a full ring on a slow link)
 * sleep 20 us so that a waiting producer leaves the CPU to the proxy and
 * the NIC's (Soft-RoCE's) own work. */
GD_HD void gd_hd_pause(uint32_t waits)
{
	if (waits < 4096) {
		sched_yield();
	} else {
		struct timespec ts = { 0, 20000 };

		nanosleep(&ts, NULL);
	}
}

#endif

#endif
