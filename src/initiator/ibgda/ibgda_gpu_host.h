/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A HOST STAND-IN FOR THE GPU SIDE OF IBGDA: A TEST DOUBLE, NOT A GPU. The
 * kernels' work (ibgda_work.h, the same code the CUDA kernels run) on host
 * threads and host memory, so that the tools' IBGDA data path over the
 * software NIC test double runs in make check on a machine without a GPU.
 * Chosen only by GDPERF_TEST_IBGDA_GPU=host (read in one place,
 * gd_ibgda_gpu_stand_in, ibgda_check.c) and only with
 * --ibgda_nic=software-test-double (a ConnectX is refused at the option
 * check); never a fallback: without it a run without a GPU is refused as
 * always. Every output names it: the GPU's name (the header's producer,
 * the JSON "producer") is GD_IBGDA_GPU_STAND_IN_NAME, and the open warns.
 *
 * The grid: a producer group (a warp at thread and warp scope, a CTA at
 * block scope) is one reservation whose lanes one host thread writes in
 * turn; up to GD_IBGDA_HOST_WORKERS threads take the groups round-robin,
 * each holding one reservation at a time (as a warp does), then the quiet
 * of every QP. The protocol's own deadlines bound every wait; the caller's
 * max_ns is the backstop (the stop flag is raised, the threads get 2 s
 * more, then they are left behind: -ETIMEDOUT, the process must exit, as
 * after a kernel that outlives its deadline).
 *
 * What a GPU could reach: host threads reach every address, a GPU only
 * memory it was given (a kernel faults on plain host memory: the latency
 * kernel's read of a fetched atomic result in the engine's unmapped buffer
 * was CUDA_ERROR_ILLEGAL_ADDRESS on the H200, a481eab). So the stand-in
 * keeps the ranges a GPU could reach (gd_ibgda_host_alloc's, and those
 * mapped with gd_ibgda_host_map, as gd_ibgda_gpu_map), and each launch
 * first checks every address the kernels dereference: the QP array, each
 * QP's queues, doorbell words, counters, run control and failure record,
 * the stamps, the quiet's snapshot, the latency samples and, for atomics,
 * the fetch word gd_ibgda_check_fetch reads. One outside them ends the
 * launch before any thread runs: -EFAULT after "the GPU could not reach
 * ADDR (what): not mapped (the stand-in's check)". The data the WQEs name
 * is the NIC's to reach (its keys), not the kernels'. Ranges are kept by
 * the run's thread only (allocation, map and launch).
 */
#ifndef GD_IBGDA_GPU_HOST_H
#define GD_IBGDA_GPU_HOST_H

#include <stddef.h>
#include <stdint.h>

#include "ibgda_kernels.h"

#define GD_IBGDA_GPU_STAND_IN_NAME "host stand-in for the GPU (test double)"
#define GD_IBGDA_HOST_WORKERS 4
#define GD_IBGDA_HOST_RANGES 64 /* reachable ranges at once */

struct gd_ibgda_host;

/* 0 or -ENOMEM; warns that the GPU side is a test double. */
int gd_ibgda_host_open(struct gd_ibgda_host **out);
void gd_ibgda_host_close(struct gd_ibgda_host *h);
/* Zeroed, 64-byte aligned host memory ("GPU" and "mapped" alike) a GPU
 * could reach, or NULL after a message; freed unless threads were left
 * behind. */
void *gd_ibgda_host_alloc(struct gd_ibgda_host *h, size_t bytes);
void gd_ibgda_host_free(struct gd_ibgda_host *h, void *p);
/* [p, p + bytes) reachable until unmap (the same p): gd_ibgda_gpu_map's
 * cuMemHostRegister. 0, or -ENOSPC after a message. */
int gd_ibgda_host_map(struct gd_ibgda_host *h, void *p, size_t bytes);
void gd_ibgda_host_unmap(struct gd_ibgda_host *h, void *p);
/* gd_ibgda_gpu_run and gd_ibgda_gpu_lat (ibgda_gpu.h) on host threads;
 * -EFAULT (nothing ran) when an address the kernels read is unreachable. */
int gd_ibgda_host_run(struct gd_ibgda_host *h, const struct gd_ibgda_kargs *a, uint32_t ctas,
		      uint32_t threads, uint64_t *snap, uint64_t max_ns, uint64_t *ns);
int gd_ibgda_host_lat(struct gd_ibgda_host *h, const struct gd_ibgda_kargs *a, uint64_t *t_db,
		      uint64_t *t_cqe, uint64_t max_ns);

#endif
