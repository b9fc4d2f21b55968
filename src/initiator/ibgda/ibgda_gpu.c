/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The IBGDA kernels from the benchmark tools (see ibgda_gpu.h). */
#include "config.h"

#include "ibgda_gpu.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "cuda.h"
#include "gd_hd.h"
#include "ibgda_gpu_host.h"
#include "log.h"

#ifdef HAVE_CUDA_TOOLKIT
/* ibgda_kernels_fatbin.c, generated from ibgda_kernels.cu by nvcc */
extern const unsigned char gd_ibgda_fatbin[];
#endif

enum { K_THREAD, K_WARP, K_CTA, K_QUIET, K_LAT, K_COUNT };

static const char *const kernels[K_COUNT] = {
	"gd_ibgda_k_post_thread", "gd_ibgda_k_post_warp", "gd_ibgda_k_post_cta",
	"gd_ibgda_k_quiet",	  "gd_ibgda_k_latency",
};

/* host: the host stand-in (a test double, ibgda_gpu_host.h), else CUDA;
 * every function below asks it first. */
struct gd_ibgda_gpu {
	struct gd_ibgda_host *host;
	const struct gd_cuda_api *cu;
	struct gd_cuda_dev dev;
	gd_cu_context ctx;
	gd_cu_module mod;
	gd_cu_function f[K_COUNT];
	gd_cu_stream side; /* the helper thread's copies (gd_ibgda_gpu_copy_side) */
	char name[GD_CUDA_NAME_LEN + 32];
};

static const struct gd_cuda_fatbin ibgda_kernels = {
#ifdef HAVE_CUDA_TOOLKIT
	.image = gd_ibgda_fatbin,
#endif
	.what = "the IBGDA kernels",
	.names = kernels,
	.n = K_COUNT,
};

int gd_ibgda_gpu_open(int cuda_index, struct gd_ibgda_gpu **out)
{
	struct gd_ibgda_gpu *g = calloc(1, sizeof(*g));
	int ret;

	*out = NULL;
	if (!g)
		return -ENOMEM;
	if (gd_ibgda_gpu_stand_in() > 0) {
		snprintf(g->name, sizeof(g->name), "%s", GD_IBGDA_GPU_STAND_IN_NAME);
		ret = gd_ibgda_host_open(&g->host);
		if (ret)
			free(g);
		else
			*out = g;
		return ret;
	}
	ret = gd_cuda_kernels_open(&ibgda_kernels, cuda_index, &g->dev, &g->ctx, &g->mod, g->f,
				   g->name, sizeof(g->name));
	if (ret) {
		gd_ibgda_gpu_close(g);
		return ret;
	}
	g->cu = gd_cuda(); /* loaded by the open: NULL before it */
	*out = g;
	return 0;
}

void gd_ibgda_gpu_close(struct gd_ibgda_gpu *g)
{
	if (!g)
		return;
	if (g->host) {
		gd_ibgda_host_close(g->host);
		free(g);
		return;
	}
	if (g->side && g->cu && g->cu->StreamDestroy)
		g->cu->StreamDestroy(g->side);
	gd_cuda_kernels_close(&g->dev, &g->ctx, g->mod);
	free(g);
}

const char *gd_ibgda_gpu_name(const struct gd_ibgda_gpu *g)
{
	return g->name;
}

void *gd_ibgda_gpu_host(struct gd_ibgda_gpu *g, size_t bytes)
{
	gd_cu_ptr d = 0;
	void *p = NULL;

	if (g->host)
		return gd_ibgda_host_alloc(g->host, bytes);
	if (gd_cuda_check(
		    g->cu->MemHostAlloc(&p, bytes,
					GD_CU_MEMHOSTALLOC_PORTABLE | GD_CU_MEMHOSTALLOC_DEVICEMAP),
		    "cuMemHostAlloc"))
		return NULL;
	memset(p, 0, bytes);
	if (g->cu->MemHostGetDevicePointer &&
	    (g->cu->MemHostGetDevicePointer(&d, p, 0) || d != (gd_cu_ptr)(uintptr_t)p)) {
		gd_error("mapped host memory has another address on the GPU (no unified "
			 "addressing): the IBGDA queues need one address for both");
		g->cu->MemFreeHost(p);
		return NULL;
	}
	return p; /* UVA: the GPU sees the same address */
}

int gd_ibgda_gpu_map(struct gd_ibgda_gpu *g, void *p, size_t bytes)
{
	gd_cu_ptr d = 0;

	if (g->host) /* what a GPU could reach, for the stand-in's check */
		return gd_ibgda_host_map(g->host, p, bytes);
	if (!g->cu->MemHostRegister || !g->cu->MemHostUnregister) {
		gd_error("the CUDA driver lacks cuMemHostRegister: the IBGDA kernels cannot reach "
			 "the run's host buffer (use --use_cuda)");
		return -EIO;
	}
	if (gd_cuda_check(g->cu->MemHostRegister(p, bytes, GD_CU_MEMHOSTREGISTER_PORTABLE |
							       GD_CU_MEMHOSTREGISTER_DEVICEMAP),
			  "cuMemHostRegister"))
		return -EIO;
	if (g->cu->MemHostGetDevicePointer &&
	    (g->cu->MemHostGetDevicePointer(&d, p, 0) || d != (gd_cu_ptr)(uintptr_t)p)) {
		gd_error("the run's host buffer has another address on the GPU (no unified "
			 "addressing): the IBGDA kernels need one address for both");
		g->cu->MemHostUnregister(p);
		return -EIO;
	}
	return 0;
}

void gd_ibgda_gpu_unmap(struct gd_ibgda_gpu *g, void *p)
{
	if (!g || !p)
		return;
	if (g->host)
		gd_ibgda_host_unmap(g->host, p);
	else if (g->cu->MemHostUnregister)
		g->cu->MemHostUnregister(p);
}

void gd_ibgda_gpu_free_host(struct gd_ibgda_gpu *g, void *p)
{
	if (g->host)
		gd_ibgda_host_free(g->host, p);
	else if (p)
		g->cu->MemFreeHost(p);
}

void *gd_ibgda_gpu_dev(struct gd_ibgda_gpu *g, size_t bytes)
{
	gd_cu_ptr d = 0;

	if (g->host)
		return gd_ibgda_host_alloc(g->host, bytes);
	if (gd_cuda_check(g->cu->MemAlloc(&d, bytes), "cuMemAlloc"))
		return NULL;
	if (gd_cuda_check(g->cu->MemsetD8(d, 0, bytes), "cuMemsetD8")) {
		g->cu->MemFree(d);
		return NULL;
	}
	return (void *)(uintptr_t)d;
}

void gd_ibgda_gpu_free_dev(struct gd_ibgda_gpu *g, void *p)
{
	if (g->host)
		gd_ibgda_host_free(g->host, p);
	else if (p)
		g->cu->MemFree((gd_cu_ptr)(uintptr_t)p);
}

/* The stand-in's copies: one address space. */
static int host_copy(void *dst, const void *src, size_t len)
{
	memcpy(dst, src, len);
	return 0;
}

int gd_ibgda_gpu_put(struct gd_ibgda_gpu *g, void *dev, const void *src, size_t bytes)
{
	if (g->host)
		return host_copy(dev, src, bytes);
	return gd_cuda_check(g->cu->MemcpyHtoD((gd_cu_ptr)(uintptr_t)dev, src, bytes),
			     "cuMemcpyHtoD");
}

int gd_ibgda_gpu_get(struct gd_ibgda_gpu *g, void *dst, const void *dev, size_t bytes)
{
	if (g->host)
		return host_copy(dst, dev, bytes);
	return gd_cuda_check(g->cu->MemcpyDtoH(dst, (gd_cu_ptr)(uintptr_t)dev, bytes),
			     "cuMemcpyDtoH");
}

int gd_ibgda_gpu_copy(struct gd_ibgda_gpu *g, void *dst, const void *src, size_t len)
{
	if (g->host)
		return host_copy(dst, src, len);
	if (!g->cu->Memcpy) {
		gd_error("the CUDA driver lacks cuMemcpy");
		return -ENOSYS;
	}
	return gd_cuda_check(g->cu->Memcpy((gd_cu_ptr)(uintptr_t)dst, (gd_cu_ptr)(uintptr_t)src, len),
			     "cuMemcpy");
}

int gd_ibgda_gpu_bind(struct gd_ibgda_gpu *g)
{
	int ret = g->host ? 0 : gd_cuda_check(g->cu->CtxSetCurrent(g->ctx), "cuCtxSetCurrent");

	if (g->host || ret || g->side)
		return ret;
	if (!g->cu->StreamCreate || !g->cu->MemcpyAsync || !g->cu->StreamSynchronize) {
		gd_error("the CUDA driver lacks cuStreamCreate/cuMemcpyAsync/cuStreamSynchronize");
		return -ENOSYS;
	}
	return gd_cuda_check(g->cu->StreamCreate(&g->side, GD_CU_STREAM_NON_BLOCKING),
			     "cuStreamCreate");
}

int gd_ibgda_gpu_copy_side(struct gd_ibgda_gpu *g, void *dst, const void *src, size_t len)
{
	int ret = g->host ? host_copy(dst, src, len) : gd_cuda_check(g->cu->MemcpyAsync((gd_cu_ptr)(uintptr_t)dst,
						   (gd_cu_ptr)(uintptr_t)src, len, g->side),
				"cuMemcpyAsync");

	return ret || g->host ? ret : gd_cuda_check(g->cu->StreamSynchronize(g->side), "cuStreamSynchronize");
}

int gd_ibgda_gpu_ordinal_of(uint64_t addr)
{
	const struct gd_cuda_api *cu;
	int ord = 0;

	if (!addr || gd_cuda_load(true) || !(cu = gd_cuda()))
		return 0;
	if (cu->PointerGetAttribute(&ord, GD_CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL, addr))
		return 0; /* not CUDA memory */
	return ord;
}

/* Poll the default stream until the kernels end, at most max_ns: the
 * kernels stop themselves at their %globaltimer deadlines well before. */
static int wait_stream(struct gd_ibgda_gpu *g, uint64_t max_ns)
{
	struct timespec ts = {0, 20000};
	uint64_t t0 = gd_hd_now_ns();

	for (;;) {
		gd_cu_result r = g->cu->StreamQuery(NULL);

		if (r == GD_CU_SUCCESS)
			return 0;
		if (r != GD_CU_ERROR_NOT_READY)
			return gd_cuda_check(r, "an IBGDA kernel failed");
		if (gd_hd_now_ns() - t0 > max_ns) {
			gd_error("the IBGDA kernels still run %.1f s after launch, past their own "
				 "deadline: giving up (the process exit ends them)",
				 (double)max_ns / 1e9);
			return -ETIMEDOUT;
		}
		nanosleep(&ts, NULL);
	}
}

static int launch(struct gd_ibgda_gpu *g, int k, uint32_t grid, uint32_t block, void **params)
{
	return gd_cuda_check(
		g->cu->LaunchKernel(g->f[k], grid, 1, 1, block, 1, 1, 0, NULL, params, NULL),
		kernels[k]);
}

int gd_ibgda_gpu_run(struct gd_ibgda_gpu *g, const struct gd_ibgda_kargs *a, uint32_t ctas,
		     uint32_t threads, uint64_t *snap, uint64_t max_ns, uint64_t *ns)
{
	struct gd_ibgda_kargs args = *a;
	struct gd_ibgda_qp *qps = a->qps;
	uint32_t nqps = a->nqps;
	void *post[] = {&args};
	void *quiet[] = {&qps, &nqps, &snap};
	int k = a->scope == GD_IBGDA_SCOPE_WARP	 ? K_WARP
		: a->scope == GD_IBGDA_SCOPE_CTA ? K_CTA
						 : K_THREAD;
	uint64_t t0 = gd_hd_now_ns();
	int ret;

	if (g->host)
		return gd_ibgda_host_run(g->host, a, ctas, threads, snap, max_ns, ns);
	ret = launch(g, k, ctas, threads, post);
	if (!ret)
		ret = launch(g, K_QUIET, (nqps + 31) / 32, 32, quiet);
	if (!ret)
		ret = wait_stream(g, max_ns);
	*ns = gd_hd_now_ns() - t0;
	return ret;
}

int gd_ibgda_gpu_lat(struct gd_ibgda_gpu *g, const struct gd_ibgda_kargs *a, uint64_t *t_db,
		     uint64_t *t_cqe, uint64_t max_ns)
{
	struct gd_ibgda_kargs args = *a;
	void *params[] = {&args, &t_db, &t_cqe};
	int ret;

	if (g->host)
		return gd_ibgda_host_lat(g->host, a, t_db, t_cqe, max_ns);
	ret = launch(g, K_LAT, 1, 1, params);

	return ret ? ret : wait_stream(g, max_ns);
}
