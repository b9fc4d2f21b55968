/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CUDA producer kernels (producer_gpu.cu) from the host: load the
 * embedded fatbin through the dlopen'ed driver (src/gpu/cuda.h), give the
 * proxy ring memory the GPU can reach (pinned host memory mapped into the
 * GPU for slots and the proxy's counters, GPU memory for the producers'
 * head counters), launch, and wait with a deadline.
 *
 * gd_gpu_prod_open() fails with -ENOSYS when gdperf was built without nvcc
 * and -ENODEV without a usable GPU (both mean exit 3 / skip), after a message.
 */
#ifndef GD_GPU_PROD_H
#define GD_GPU_PROD_H

#include <stdbool.h>
#include <stdint.h>

#include "init_opts.h"
#include "prod.h"
#include "proxy.h"

struct gd_gpu_prod;

int gd_gpu_prod_open(int cuda_index, struct gd_gpu_prod **out);
void gd_gpu_prod_close(struct gd_gpu_prod *g);
/* "NVIDIA H100 80GB HBM3 (CUDA 0)" */
const char *gd_gpu_prod_name(const struct gd_gpu_prod *g);
/* Ring memory for gd_proxy_cfg.mem. */
const struct gd_ring_mem *gd_gpu_prod_ring_mem(struct gd_gpu_prod *g);
/* Zeroed pinned host memory mapped into the GPU: host address, *dev the GPU's. */
void *gd_gpu_prod_mapped(struct gd_gpu_prod *g, size_t bytes, void **dev);
void gd_gpu_prod_free_mapped(struct gd_gpu_prod *g, void *host);

/*
 * Run the producer kernel for scope (grid ctas x threads), then one quiet.
 * a->fail must be mapped memory (its device address). Waits at most max_ns
 * (then sets *stop_word through the proxy's stop and waits once more);
 * *ns: launch to the end of the quiet. Returns 0, a gd_ring_code, or -errno.
 */
int gd_gpu_prod_run(struct gd_gpu_prod *g, const struct gd_prod_args *a, enum gd_scope scope,
		    uint32_t ctas, uint32_t threads, struct gd_proxy *px, uint64_t max_ns,
		    uint64_t *ns);
/* The same in steps, for a caller that watches a side channel meanwhile
 * (as gd_host_prod_start/done/finish): start launches the producers and the
 * quiet (or the latency kernel), done says whether the stream is idle,
 * finish waits as gd_gpu_prod_run does; *ns (may be NULL) from the start. */
int gd_gpu_prod_start(struct gd_gpu_prod *g, const struct gd_prod_args *a, enum gd_scope scope,
		      uint32_t ctas, uint32_t threads);
int gd_gpu_prod_start_lat(struct gd_gpu_prod *g, const struct gd_prod_args *a, uint64_t n,
			  uint64_t *samples_dev);
bool gd_gpu_prod_done(const struct gd_gpu_prod *g);
int gd_gpu_prod_finish(struct gd_gpu_prod *g, struct gd_proxy *px, uint64_t max_ns, uint64_t *ns);
/* n put + quiet round trips from one GPU thread; samples_dev: n u64 of mapped memory. */
int gd_gpu_prod_lat(struct gd_gpu_prod *g, const struct gd_prod_args *a, uint64_t n,
		    uint64_t *samples_dev, struct gd_proxy *px, uint64_t max_ns);

#endif
