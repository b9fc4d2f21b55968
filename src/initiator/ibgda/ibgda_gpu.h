/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA CUDA kernels (ibgda_kernels.cu) from the benchmark tools: the
 * fatbin embedded in the library, loaded through the dlopen'ed driver
 * (src/gpu/cuda.h; no CUDA library is linked), GPU and mapped host memory
 * for the queues and counters, launches, and a CPU deadline on every wait
 * (the kernels have their own on %globaltimer).
 *
 * gd_ibgda_gpu_open() fails with -ENOSYS when gdperf was built without nvcc
 * and -ENODEV without a usable GPU (exit 3), after a message.
 */
#ifndef GD_IBGDA_GPU_H
#define GD_IBGDA_GPU_H

#include <stddef.h>
#include <stdint.h>

#include "ibgda_kernels.h"

struct gd_ibgda_gpu;

/* The test switch GDPERF_TEST_IBGDA_GPU, read here and nowhere else
 * (ibgda_check.c, so that the option check and its fuzzer need none of the
 * run): 1 for "host", the host stand-in for the GPU side (a TEST DOUBLE,
 * ibgda_gpu_host.h; the option check allows it with
 * --ibgda_nic=software-test-double only), 0 unset or empty (a real GPU),
 * -1 any other value (the option check refuses it, exit 2). */
#define GD_IBGDA_GPU_STAND_IN_ENV "GDPERF_TEST_IBGDA_GPU"
int gd_ibgda_gpu_stand_in(void);

/* With the stand-in chosen, a GPU that is host threads and memory (named
 * so: gd_ibgda_gpu_name), every function below included. */
int gd_ibgda_gpu_open(int cuda_index, struct gd_ibgda_gpu **out);
void gd_ibgda_gpu_close(struct gd_ibgda_gpu *g);
/* "NVIDIA H100 80GB HBM3 (CUDA 0)" */
const char *gd_ibgda_gpu_name(const struct gd_ibgda_gpu *g);

/* Zeroed pinned host memory mapped into the GPU (UVA: one address for
 * both), or NULL after a message. */
void *gd_ibgda_gpu_host(struct gd_ibgda_gpu *g, size_t bytes);
void gd_ibgda_gpu_free_host(struct gd_ibgda_gpu *g, void *p);
/* The run's own host buffer [p, p + bytes) made readable by the kernels
 * (cuMemHostRegister, DEVICEMAP; UVA: the same address), as
 * gd_ibgda_gpu_host's memory is: the latency kernel reads each fetched
 * atomic result from the buffer's local half. 0, or -EIO after a message;
 * the stand-in's memory is the host's already (0). unmap: the same p. */
int gd_ibgda_gpu_map(struct gd_ibgda_gpu *g, void *p, size_t bytes);
void gd_ibgda_gpu_unmap(struct gd_ibgda_gpu *g, void *p);
/* Zeroed GPU memory, or NULL after a message. */
void *gd_ibgda_gpu_dev(struct gd_ibgda_gpu *g, size_t bytes);
void gd_ibgda_gpu_free_dev(struct gd_ibgda_gpu *g, void *p);
int gd_ibgda_gpu_put(struct gd_ibgda_gpu *g, void *dev, const void *src, size_t bytes);
int gd_ibgda_gpu_get(struct gd_ibgda_gpu *g, void *dst, const void *dev, size_t bytes);

/* len bytes between any two of host, mapped and GPU memory (cuMemcpy over
 * unified addresses); 0 or -errno after a message. */
int gd_ibgda_gpu_copy(struct gd_ibgda_gpu *g, void *dst, const void *src, size_t len);
/* The same from a helper thread while the kernels run (the software NIC
 * test double's): on a non-blocking stream of its own, since a plain
 * cuMemcpy would wait for the running kernels (the legacy default stream)
 * and the kernels wait for the copy. gd_ibgda_gpu_bind first, in that
 * thread: g's context current, the stream made. */
int gd_ibgda_gpu_copy_side(struct gd_ibgda_gpu *g, void *dst, const void *src, size_t len);
int gd_ibgda_gpu_bind(struct gd_ibgda_gpu *g);
/* The CUDA ordinal of the GPU that holds addr (--use_cuda=N buffers), or 0
 * for host memory or without a driver. */
int gd_ibgda_gpu_ordinal_of(uint64_t addr);

/* The post kernel for a->scope (grid ctas x threads), then the quiet
 * kernel over a->nqps QPs (snap: 2 device words per QP, see
 * gd_ibgda_launch_quiet). Waits at most max_ns for both; *ns: launch to
 * the end of the quiet. 0, -ETIMEDOUT (the kernels still ran: the process
 * must exit, the driver reclaims them) or -errno. */
int gd_ibgda_gpu_run(struct gd_ibgda_gpu *g, const struct gd_ibgda_kargs *a, uint32_t ctas,
		     uint32_t threads, uint64_t *snap, uint64_t max_ns, uint64_t *ns);
/* One thread, a->iters single WQEs each waited for (t_db, t_cqe: a->iters
 * device-visible words each, see gd_ibgda_launch_latency). */
int gd_ibgda_gpu_lat(struct gd_ibgda_gpu *g, const struct gd_ibgda_kargs *a, uint64_t *t_db,
		     uint64_t *t_cqe, uint64_t max_ns);

#endif
