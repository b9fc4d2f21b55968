/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The CUDA producer kernels from the host (see gpu_prod.h). */
#include "config.h"

#include "gpu_prod.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda.h"
#include "log.h"

#ifdef HAVE_CUDA_TOOLKIT
/* producer_gpu_fatbin.c, generated from producer_gpu.cu by nvcc */
extern const unsigned char gd_producer_fatbin[];
#endif

struct gd_gpu_prod {
	const struct gd_cuda_api *cu;
	struct gd_cuda_dev dev;
	gd_cu_context ctx;
	gd_cu_module mod;
	gd_cu_function f[5]; /* thread, warp, block, quiet, lat: one per kernels[] */
	/* the kernels' stream: CU_STREAM_NON_BLOCKING, so that a libfabric
	 * provider's CUDA copies (cudaMemcpy on the legacy default stream, in
	 * this process's primary context) do not wait for a running producer */
	gd_cu_stream stream;
	struct gd_ring_mem mem;
	uint64_t t0; /* the last start */
	char name[GD_CUDA_NAME_LEN + 32];
};

static const char *const kernels[] = {
	"gd_proxy_produce_thread", "gd_proxy_produce_warp", "gd_proxy_produce_block",
	"gd_proxy_quiet", "gd_proxy_lat",
};
_Static_assert(sizeof(kernels) / sizeof(kernels[0]) == 5, "one function slot per kernel");

static void *ring_alloc(void *ctx, size_t bytes, enum gd_ring_where where, void **dev)
{
	struct gd_gpu_prod *g = ctx;
	gd_cu_ptr d = 0;

	*dev = NULL;
	if (where == GD_RING_SHARED)
		return gd_gpu_prod_mapped(g, bytes, dev);
	if (g->cu->MemAlloc(&d, bytes) || g->cu->MemsetD8(d, 0, bytes))
		return NULL;
	*dev = (void *)(uintptr_t)d;
	return NULL; /* the proxy never reads the producers' head */
}

static void ring_free(void *ctx, void *host, void *dev, enum gd_ring_where where)
{
	struct gd_gpu_prod *g = ctx;

	if (where == GD_RING_SHARED)
		gd_gpu_prod_free_mapped(g, host);
	else if (dev)
		g->cu->MemFree((gd_cu_ptr)(uintptr_t)dev);
}

void *gd_gpu_prod_mapped(struct gd_gpu_prod *g, size_t bytes, void **dev)
{
	void *p = NULL;
	gd_cu_ptr d = 0;

	*dev = NULL;
	if (gd_cuda_check(g->cu->MemHostAlloc(&p, bytes, GD_CU_MEMHOSTALLOC_PORTABLE |
					       GD_CU_MEMHOSTALLOC_DEVICEMAP), "cuMemHostAlloc"))
		return NULL;
	memset(p, 0, bytes);
	if (gd_cuda_check(g->cu->MemHostGetDevicePointer(&d, p, 0), "cuMemHostGetDevicePointer")) {
		g->cu->MemFreeHost(p);
		return NULL;
	}
	*dev = (void *)(uintptr_t)d;
	return p;
}

void gd_gpu_prod_free_mapped(struct gd_gpu_prod *g, void *host)
{
	if (host)
		g->cu->MemFreeHost(host);
}

static const struct gd_cuda_fatbin producer_kernels = {
#ifdef HAVE_CUDA_TOOLKIT
	.image = gd_producer_fatbin,
#endif
	.what = "the GPU producer kernels",
	.names = kernels,
	.n = (int)(sizeof(kernels) / sizeof(kernels[0])),
};

int gd_gpu_prod_open(int cuda_index, struct gd_gpu_prod **out)
{
	struct gd_gpu_prod *g = calloc(1, sizeof(*g));
	int ret;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	ret = gd_cuda_kernels_open(&producer_kernels, cuda_index, &g->dev, &g->ctx, &g->mod, g->f,
				   g->name, sizeof(g->name));
	if (ret) {
		gd_gpu_prod_close(g);
		return ret;
	}
	g->cu = gd_cuda(); /* loaded by the open: NULL before it */
	if (!g->cu->StreamCreate || !g->cu->StreamDestroy) {
		gd_error("the CUDA driver lacks cuStreamCreate/cuStreamDestroy: the GPU producers "
			 "need a stream of their own; update the driver, or use --producer host");
		gd_gpu_prod_close(g);
		return -ENOSYS;
	}
	ret = gd_cuda_check(g->cu->StreamCreate(&g->stream, GD_CU_STREAM_NON_BLOCKING),
			    "cuStreamCreate");
	if (ret) {
		gd_gpu_prod_close(g);
		return ret;
	}
	g->mem = (struct gd_ring_mem){ ring_alloc, ring_free, g };
	*out = g;
	return 0;
}

void gd_gpu_prod_close(struct gd_gpu_prod *g)
{
	if (!g)
		return;
	if (g->stream)
		g->cu->StreamDestroy(g->stream);
	gd_cuda_kernels_close(&g->dev, &g->ctx, g->mod);
	free(g);
}

const char *gd_gpu_prod_name(const struct gd_gpu_prod *g)
{
	return g->name;
}

const struct gd_ring_mem *gd_gpu_prod_ring_mem(struct gd_gpu_prod *g)
{
	return &g->mem;
}

/* Poll the producers' stream until the kernels end; past max_ns ask the
 * producers to stop (their next wait returns) and give them 5 s more. */
static int wait_stream(struct gd_gpu_prod *g, struct gd_proxy *px, uint64_t max_ns)
{
	struct timespec ts = { 0, 20000 };
	uint64_t t0 = g->t0; /* the deadline counts from the launch */
	bool stopped = false;

	for (;;) {
		gd_cu_result r = g->cu->StreamQuery(g->stream);
		uint64_t el = gd_hd_now_ns() - t0;

		if (r == GD_CU_SUCCESS)
			return stopped ? -ETIMEDOUT : 0;
		if (r != GD_CU_ERROR_NOT_READY)
			return gd_cuda_check(r, "the producer kernel failed");
		if (!stopped && el > max_ns) {
			gd_error("the GPU producers ran past the deadline (%.1f s): stopping them",
				 (double)max_ns / 1e9);
			gd_proxy_stop_producers(px);
			stopped = true;
		} else if (stopped && el > max_ns + 5000000000ull) {
			gd_error("the GPU producers did not stop within 5 s of the stop flag: giving up "
				 "(the process exit ends the kernel)");
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
	}
}

static int launch(struct gd_gpu_prod *g, int k, uint32_t grid, uint32_t block, void **params)
{
	return gd_cuda_check(g->cu->LaunchKernel(g->f[k], grid, 1, 1, block, 1, 1, 0, g->stream,
						 params, NULL), kernels[k]);
}

int gd_gpu_prod_start(struct gd_gpu_prod *g, const struct gd_prod_args *a, enum gd_scope scope,
		      uint32_t ctas, uint32_t threads)
{
	struct gd_prod_args args = *a;
	void *params[] = { &args };
	int ret;

	g->t0 = gd_hd_now_ns();
	ret = launch(g, (int)scope, ctas, threads, params);
	return ret ? ret : launch(g, 3, 1, 1, params);
}

int gd_gpu_prod_start_lat(struct gd_gpu_prod *g, const struct gd_prod_args *a, uint64_t n,
			  uint64_t *samples_dev)
{
	struct gd_prod_args args = *a;
	void *params[] = { &args, &n, &samples_dev };

	g->t0 = gd_hd_now_ns();
	return launch(g, 4, 1, 1, params);
}

bool gd_gpu_prod_done(const struct gd_gpu_prod *g)
{
	return g->cu->StreamQuery(g->stream) != GD_CU_ERROR_NOT_READY;
}

int gd_gpu_prod_finish(struct gd_gpu_prod *g, struct gd_proxy *px, uint64_t max_ns, uint64_t *ns)
{
	int ret = wait_stream(g, px, max_ns);

	if (ns)
		*ns = gd_hd_now_ns() - g->t0;
	return ret;
}

int gd_gpu_prod_run(struct gd_gpu_prod *g, const struct gd_prod_args *a, enum gd_scope scope,
		    uint32_t ctas, uint32_t threads, struct gd_proxy *px, uint64_t max_ns,
		    uint64_t *ns)
{
	int ret = gd_gpu_prod_start(g, a, scope, ctas, threads);

	if (ret) {
		*ns = 0;
		return ret;
	}
	return gd_gpu_prod_finish(g, px, max_ns, ns);
}

int gd_gpu_prod_lat(struct gd_gpu_prod *g, const struct gd_prod_args *a, uint64_t n,
		    uint64_t *samples_dev, struct gd_proxy *px, uint64_t max_ns)
{
	int ret = gd_gpu_prod_start_lat(g, a, n, samples_dev);

	return ret ? ret : gd_gpu_prod_finish(g, px, max_ns, NULL);
}
