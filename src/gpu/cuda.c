/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "cuda.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "log.h"
#include "readfile.h"

static struct gd_cuda_api api;
static int load_result = 1; /* 1: not tried yet */
static char load_error[512];

struct sym {
	const char *name;
	size_t off;
	bool optional;
};

#define SYM(field, name) { name, offsetof(struct gd_cuda_api, field), false }
#define OPT(field, name) { name, offsetof(struct gd_cuda_api, field), true }

static const struct sym syms[] = {
	SYM(Init, "cuInit"),
	SYM(DriverGetVersion, "cuDriverGetVersion"),
	SYM(GetErrorName, "cuGetErrorName"),
	SYM(GetErrorString, "cuGetErrorString"),
	SYM(DeviceGetCount, "cuDeviceGetCount"),
	SYM(DeviceGet, "cuDeviceGet"),
	SYM(DeviceGetName, "cuDeviceGetName"),
	SYM(DeviceGetAttribute, "cuDeviceGetAttribute"),
	SYM(DeviceGetPCIBusId, "cuDeviceGetPCIBusId"),
	SYM(DeviceGetByPCIBusId, "cuDeviceGetByPCIBusId"),
	SYM(DeviceTotalMem, "cuDeviceTotalMem_v2"),
	SYM(DevicePrimaryCtxRetain, "cuDevicePrimaryCtxRetain"),
	SYM(DevicePrimaryCtxRelease, "cuDevicePrimaryCtxRelease_v2"),
	SYM(CtxSetCurrent, "cuCtxSetCurrent"),
	SYM(CtxSynchronize, "cuCtxSynchronize"),
	SYM(MemAlloc, "cuMemAlloc_v2"),
	SYM(MemFree, "cuMemFree_v2"),
	SYM(MemAllocHost, "cuMemAllocHost_v2"),
	SYM(MemFreeHost, "cuMemFreeHost"),
	SYM(MemcpyHtoD, "cuMemcpyHtoD_v2"),
	SYM(MemcpyDtoH, "cuMemcpyDtoH_v2"),
	SYM(MemsetD8, "cuMemsetD8_v2"),
	SYM(PointerGetAttribute, "cuPointerGetAttribute"),
	OPT(MemGetHandleForAddressRange, "cuMemGetHandleForAddressRange"),
	OPT(ModuleLoadData, "cuModuleLoadData"),
	OPT(ModuleUnload, "cuModuleUnload"),
	OPT(ModuleGetFunction, "cuModuleGetFunction"),
	OPT(LaunchKernel, "cuLaunchKernel"),
	OPT(StreamQuery, "cuStreamQuery"),
	OPT(MemHostAlloc, "cuMemHostAlloc"),
	OPT(MemHostGetDevicePointer, "cuMemHostGetDevicePointer_v2"),
	OPT(MemHostRegister, "cuMemHostRegister_v2"),
	OPT(MemHostUnregister, "cuMemHostUnregister"),
	OPT(Memcpy, "cuMemcpy"),
	OPT(MemcpyAsync, "cuMemcpyAsync"),
	OPT(StreamCreate, "cuStreamCreate"),
	OPT(StreamSynchronize, "cuStreamSynchronize"),
	OPT(StreamDestroy, "cuStreamDestroy_v2"),
};

/* Names for the few errors we may meet before cuGetErrorName is usable. */
static const struct {
	gd_cu_result r;
	const char *name;
	const char *str;
} fallback_names[] = {
	{ GD_CU_ERROR_INVALID_VALUE, "CUDA_ERROR_INVALID_VALUE", "invalid argument" },
	{ GD_CU_ERROR_OUT_OF_MEMORY, "CUDA_ERROR_OUT_OF_MEMORY", "out of memory" },
	{ GD_CU_ERROR_NOT_INITIALIZED, "CUDA_ERROR_NOT_INITIALIZED", "initialization error" },
	{ GD_CU_ERROR_STUB_LIBRARY, "CUDA_ERROR_STUB_LIBRARY",
	  "CUDA driver is a stub library" },
	{ GD_CU_ERROR_INSUFFICIENT_DRIVER, "CUDA_ERROR_INSUFFICIENT_DRIVER",
	  "CUDA driver version is insufficient for CUDA runtime version" },
	{ GD_CU_ERROR_NO_DEVICE, "CUDA_ERROR_NO_DEVICE", "no CUDA-capable device is detected" },
	{ GD_CU_ERROR_INVALID_DEVICE, "CUDA_ERROR_INVALID_DEVICE", "invalid device ordinal" },
	{ GD_CU_ERROR_NOT_SUPPORTED, "CUDA_ERROR_NOT_SUPPORTED", "operation not supported" },
	{ GD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED",
	  "part or all of the requested memory range is already mapped" },
	{ GD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED, "CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED",
	  "pointer does not correspond to a registered memory region" },
	{ GD_CU_ERROR_NOT_PERMITTED, "CUDA_ERROR_NOT_PERMITTED", "operation not permitted" },
};

const char *gd_cuda_strerror(gd_cu_result r, char *buf, size_t len)
{
	const char *name = NULL, *str = NULL;

	if (api.GetErrorName && api.GetErrorName(r, &name) != GD_CU_SUCCESS)
		name = NULL;
	if (api.GetErrorString && api.GetErrorString(r, &str) != GD_CU_SUCCESS)
		str = NULL;
	for (size_t i = 0; (!name || !str) && i < sizeof(fallback_names) / sizeof(fallback_names[0]);
	     i++) {
		if (fallback_names[i].r != r)
			continue;
		if (!name)
			name = fallback_names[i].name;
		if (!str)
			str = fallback_names[i].str;
	}
	if (name)
		snprintf(buf, len, "%s (%s)", name, str ? str : "no description");
	else
		snprintf(buf, len, "CUDA error %d (unknown to this driver)", r);
	return buf;
}

int gd_cuda_errno(gd_cu_result r)
{
	switch (r) {
	case GD_CU_SUCCESS:
		return 0;
	case GD_CU_ERROR_NO_DEVICE:
	case GD_CU_ERROR_INVALID_DEVICE:
	case GD_CU_ERROR_STUB_LIBRARY:
	case GD_CU_ERROR_INSUFFICIENT_DRIVER:
		return -ENODEV;
	case GD_CU_ERROR_OUT_OF_MEMORY:
		return -ENOMEM;
	case GD_CU_ERROR_NOT_SUPPORTED:
		return -EOPNOTSUPP;
	case GD_CU_ERROR_INVALID_VALUE:
		return -EINVAL;
	case GD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED:
		return -EEXIST;
	case GD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED:
		return -ENOENT;
	case GD_CU_ERROR_NOT_PERMITTED:
		return -EPERM;
	default:
		return -EIO;
	}
}

int gd_cuda_check(gd_cu_result r, const char *what)
{
	char buf[256];

	if (r == GD_CU_SUCCESS)
		return 0;
	gd_error("%s: %s", what, gd_cuda_strerror(r, buf, sizeof(buf)));
	return gd_cuda_errno(r);
}

static int resolve(void *lib)
{
	for (size_t i = 0; i < sizeof(syms) / sizeof(syms[0]); i++) {
		void *fn = dlsym(lib, syms[i].name);

		if (!fn && !syms[i].optional) {
			snprintf(load_error, sizeof(load_error),
				 "CUDA driver too old: %s has no %s; install a driver for CUDA >= 11.7",
				 GD_LIBCUDA, syms[i].name);
			return -ENOSYS;
		}
		memcpy((char *)&api + syms[i].off, &fn, sizeof(fn));
	}
	return 0;
}

static int init_driver(void)
{
	gd_cu_result r = api.Init(0);
	int count = 0;
	char buf[200];

	if (r == GD_CU_SUCCESS)
		r = api.DeviceGetCount(&count);
	if (r == GD_CU_SUCCESS && count == 0)
		r = GD_CU_ERROR_NO_DEVICE;
	if (r == GD_CU_SUCCESS)
		return 0;
	gd_cuda_strerror(r, buf, sizeof(buf));
	if (r == GD_CU_ERROR_NO_DEVICE)
		snprintf(load_error, sizeof(load_error), "no CUDA device: cuInit: %s", buf);
	else if (r == GD_CU_ERROR_STUB_LIBRARY)
		snprintf(load_error, sizeof(load_error),
			 "no CUDA driver: cuInit: %s; the toolkit's stub libcuda was found instead of the driver's",
			 buf);
	else
		snprintf(load_error, sizeof(load_error), "CUDA driver unusable: cuInit: %s", buf);
	return gd_cuda_errno(r) == -ENODEV ? -ENODEV : -EIO;
}

static int do_load(void)
{
	const char *name = getenv(GD_LIBCUDA_ENV);
	void *lib;
	int ret;

	if (!name || !*name)
		name = GD_LIBCUDA;
	if (strchr(name, '/')) { /* a path: dlopen of a FIFO or device would block or run on */
		int fd;

		ret = gd_readfile_open(name, &fd);
		if (ret && ret != -ENOENT) {
			snprintf(load_error, sizeof(load_error), "no CUDA driver: %s=%s: %s",
				 GD_LIBCUDA_ENV, name, gd_strerror(ret));
			return ret == -GD_ENOTREG ? -ENOENT : ret;
		}
		if (!ret)
			close(fd);
	}
	lib = dlopen(name, RTLD_NOW | RTLD_LOCAL);
	if (!lib) {
		const char *why = dlerror();

		gd_debug("dlopen(%s): %s", name, why ? why : "?");
		snprintf(load_error, sizeof(load_error),
			 "no CUDA driver: %s not found (install the NVIDIA driver)",
			 name);
		return -ENOENT;
	}
	ret = resolve(lib);
	if (ret == 0)
		ret = init_driver();
	if (ret)
		memset(&api, 0, sizeof(api)); /* keep the library loaded: harmless */
	return ret;
}

int gd_cuda_load(bool quiet)
{
	if (load_result == 1)
		load_result = do_load();
	if (load_result && !quiet)
		gd_error("%s", load_error);
	return load_result;
}

const char *gd_cuda_load_error(void)
{
	return load_result ? load_error : "";
}

const struct gd_cuda_api *gd_cuda(void)
{
	return load_result == 0 ? &api : NULL;
}

int gd_cuda_driver_version(int *version, char *str, size_t len)
{
	int v = 0, ret;

	if (!gd_cuda())
		return -ENODEV;
	ret = gd_cuda_check(api.DriverGetVersion(&v), "cuDriverGetVersion");
	if (ret)
		return ret;
	if (version)
		*version = v;
	if (str)
		snprintf(str, len, "%d.%d", v / 1000, (v % 1000) / 10);
	return 0;
}

int gd_cuda_device_count(int *count)
{
	if (!gd_cuda())
		return -ENODEV;
	return gd_cuda_check(api.DeviceGetCount(count), "cuDeviceGetCount");
}

int gd_pci_normalize(const char *in, char *out, size_t len)
{
	unsigned long dom = 0;
	unsigned bus, dev, fn;
	char tail;
	int n;

	/* the domain has 32 bits, as the kernel's: behind Intel VMD it is 0x10000 and up
	 * (sysfs: 10000:01:00.0; CUDA: 00010000:01:00.0), so at most 8 hex digits */
	if (sscanf(in, "%lx:%x:%x.%x%c", &dom, &bus, &dev, &fn, &tail) == 4) {
		if (strcspn(in, ":") > 8)
			return -EINVAL;
	} else if (sscanf(in, "%x:%x.%x%c", &bus, &dev, &fn, &tail) == 3) {
		dom = 0;
	} else {
		return -EINVAL;
	}
	if (dom > 0xffffffffUL || bus > 0xff || dev > 0x1f || fn > 7)
		return -EINVAL;
	n = snprintf(out, len, "%04lx:%02x:%02x.%x", dom, bus, dev, fn);
	return n < 0 || (size_t)n >= len ? -ENAMETOOLONG : 0;
}

static int attr(gd_cu_device dev, int which, int fallback)
{
	int v;

	if (api.DeviceGetAttribute(&v, which, dev) != GD_CU_SUCCESS)
		return fallback;
	return v;
}

int gd_cuda_device_info(int index, struct gd_cuda_dev *info)
{
	char bus[32];
	int ret;

	if (!gd_cuda())
		return -ENODEV;
	memset(info, 0, sizeof(*info));
	info->index = index;
	ret = gd_cuda_check(api.DeviceGet(&info->dev, index), "cuDeviceGet");
	if (ret)
		return ret;
	ret = gd_cuda_check(api.DeviceGetName(info->name, sizeof(info->name), info->dev),
			    "cuDeviceGetName");
	if (!ret)
		ret = gd_cuda_check(api.DeviceGetPCIBusId(bus, sizeof(bus), info->dev),
				    "cuDeviceGetPCIBusId");
	if (!ret)
		ret = gd_cuda_check(api.DeviceTotalMem(&info->total_mem, info->dev),
				    "cuDeviceTotalMem");
	if (ret)
		return ret;
	if (gd_pci_normalize(bus, info->pci, sizeof(info->pci)))
		snprintf(info->pci, sizeof(info->pci), "%.*s", (int)sizeof(info->pci) - 1, bus);
	info->cc_major = attr(info->dev, GD_CU_ATTR_CC_MAJOR, 0);
	info->cc_minor = attr(info->dev, GD_CU_ATTR_CC_MINOR, 0);
	info->integrated = attr(info->dev, GD_CU_ATTR_INTEGRATED, 0);
	info->dmabuf_supported = attr(info->dev, GD_CU_ATTR_DMA_BUF_SUPPORTED, -1);
	info->gdr_supported = attr(info->dev, GD_CU_ATTR_GPU_DIRECT_RDMA_SUPPORTED, -1);
	info->mps = attr(info->dev, GD_CU_ATTR_MPS_ENABLED, -1);
	return 0;
}

int gd_cuda_index_by_bus_id(const char *bdf, int *index)
{
	char want[GD_CUDA_BUSID_LEN];
	struct gd_cuda_dev info;
	int count, ret;

	if (gd_pci_normalize(bdf, want, sizeof(want))) {
		gd_error("invalid PCI address '%s': expected DDDD:BB:DD.F or BB:DD.F", bdf);
		return -EINVAL;
	}
	ret = gd_cuda_device_count(&count);
	if (ret)
		return ret;
	for (int i = 0; i < count; i++) {
		ret = gd_cuda_device_info(i, &info);
		if (ret)
			return ret;
		if (strcmp(info.pci, want) == 0) {
			*index = i;
			return 0;
		}
	}
	gd_error("no CUDA device at PCI address %s (%d CUDA device(s); is CUDA_VISIBLE_DEVICES hiding it?)",
		 want, count);
	return -ENODEV;
}

int gd_cuda_ctx_acquire(int index, struct gd_cuda_dev *info, gd_cu_context *ctx)
{
	int ret = gd_cuda_load(false);

	*ctx = NULL;
	if (!ret)
		ret = gd_cuda_device_info(index, info);
	if (!ret)
		ret = gd_cuda_check(api.DevicePrimaryCtxRetain(ctx, info->dev),
				    "cuDevicePrimaryCtxRetain");
	if (ret) {
		*ctx = NULL;
		return ret;
	}
	ret = gd_cuda_check(api.CtxSetCurrent(*ctx), "cuCtxSetCurrent");
	if (ret)
		gd_cuda_ctx_release(info, ctx);
	return ret;
}

void gd_cuda_ctx_release(const struct gd_cuda_dev *info, gd_cu_context *ctx)
{
	if (*ctx && gd_cuda())
		api.DevicePrimaryCtxRelease(info->dev);
	*ctx = NULL;
}

int gd_cuda_module_load(const void *fatbin, const char *what, const char *const *names, int n,
			gd_cu_module *mod, gd_cu_function *f)
{
	char msg[128];

	if (!api.ModuleLoadData || !api.ModuleGetFunction || !api.LaunchKernel ||
	    !api.StreamQuery || !api.MemHostAlloc || !api.MemHostGetDevicePointer) {
		gd_error("the CUDA driver lacks the kernel-launch entry points (too old)");
		return -ENOSYS;
	}
	snprintf(msg, sizeof(msg), "cannot load %s (built for sm_90: Hopper)", what);
	if (gd_cuda_check(api.ModuleLoadData(mod, fatbin), msg))
		return -ENODEV;
	for (int i = 0; i < n; i++)
		if (gd_cuda_check(api.ModuleGetFunction(&f[i], *mod, names[i]), names[i]))
			return -ENODEV;
	return 0;
}

int gd_cuda_kernels_open(const struct gd_cuda_fatbin *fb, int cuda_index, struct gd_cuda_dev *dev,
			 gd_cu_context *ctx, gd_cu_module *mod, gd_cu_function *f, char *name,
			 size_t name_len)
{
	int ret;

	if (!fb->image) {
		gd_error("this gdperf was built without nvcc: %s are not in it (configure with "
			 "--with-cuda)", fb->what);
		return -ENOSYS;
	}
	ret = gd_cuda_ctx_acquire(cuda_index, dev, ctx);
	if (!ret)
		ret = gd_cuda_module_load(fb->image, fb->what, fb->names, fb->n, mod, f);
	if (ret)
		return ret == -EIO ? -ENODEV : ret;
	snprintf(name, name_len, "%s (CUDA %d)", dev->name, cuda_index);
	return 0;
}

void gd_cuda_kernels_close(struct gd_cuda_dev *dev, gd_cu_context *ctx, gd_cu_module mod)
{
	if (mod)
		api.ModuleUnload(mod);
	gd_cuda_ctx_release(dev, ctx);
}
