/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The CUDA driver API, loaded at run time with dlopen("libcuda.so.1"), so
 * that one binary runs on a machine without a GPU and says so. No cuda.h is
 * needed to build: the few types, constants and prototypes used are declared
 * here (values from the CUDA driver API ABI, stable since CUDA 11.7).
 *
 * gd_cuda_load() reports its failure itself (gd_error) and returns:
 *   -ENOENT  libcuda.so.1 not found ("no CUDA driver")
 *   -ENOSYS  a required entry point is missing (driver too old)
 *   -ENODEV  the driver loaded but there is no usable CUDA device
 *   -EIO     cuInit failed for another reason (printed with its CUDA name)
 * Every caller maps these to exit code 3 (environment).
 */
#ifndef GD_CUDA_H
#define GD_CUDA_H

#include <stdbool.h>
#include <stddef.h>

typedef int gd_cu_result;            /* CUresult; 0 is CUDA_SUCCESS */
typedef int gd_cu_device;            /* CUdevice */
typedef struct gd_cu_ctx *gd_cu_context; /* CUcontext */
typedef unsigned long long gd_cu_ptr; /* CUdeviceptr */
typedef struct gd_cu_mod *gd_cu_module;     /* CUmodule */
typedef struct gd_cu_func *gd_cu_function;  /* CUfunction */
typedef struct gd_cu_stream *gd_cu_stream;  /* CUstream; NULL = the default stream */

enum {
	GD_CU_SUCCESS = 0,
	GD_CU_ERROR_INVALID_VALUE = 1,
	GD_CU_ERROR_OUT_OF_MEMORY = 2,
	GD_CU_ERROR_NOT_INITIALIZED = 3,
	GD_CU_ERROR_STUB_LIBRARY = 34,
	GD_CU_ERROR_INSUFFICIENT_DRIVER = 35,
	GD_CU_ERROR_NO_DEVICE = 100,
	GD_CU_ERROR_INVALID_DEVICE = 101,
	GD_CU_ERROR_NOT_READY = 600,
	GD_CU_ERROR_HOST_MEMORY_ALREADY_REGISTERED = 712,
	GD_CU_ERROR_HOST_MEMORY_NOT_REGISTERED = 713,
	GD_CU_ERROR_NOT_PERMITTED = 800,
	GD_CU_ERROR_NOT_SUPPORTED = 801,
};

/* cuMemHostAlloc flags */
#define GD_CU_MEMHOSTALLOC_PORTABLE 0x01
#define GD_CU_MEMHOSTALLOC_DEVICEMAP 0x02
/* cuMemHostRegister flags */
#define GD_CU_MEMHOSTREGISTER_PORTABLE 0x01
#define GD_CU_MEMHOSTREGISTER_DEVICEMAP 0x02
#define GD_CU_MEMHOSTREGISTER_IOMEMORY 0x04

/* CUdevice_attribute values used by gdperf */
enum {
	GD_CU_ATTR_INTEGRATED = 18,
	GD_CU_ATTR_PCI_BUS_ID = 33,
	GD_CU_ATTR_PCI_DEVICE_ID = 34,
	GD_CU_ATTR_UNIFIED_ADDRESSING = 41,
	GD_CU_ATTR_PCI_DOMAIN_ID = 50,
	GD_CU_ATTR_CC_MAJOR = 75,
	GD_CU_ATTR_CC_MINOR = 76,
	GD_CU_ATTR_GPU_DIRECT_RDMA_SUPPORTED = 116,
	GD_CU_ATTR_DMA_BUF_SUPPORTED = 124,
	GD_CU_ATTR_MPS_ENABLED = 133, /* CUDA 12.3 and later drivers */
};

#define GD_CU_MEM_RANGE_HANDLE_TYPE_DMA_BUF_FD 0x1
#define GD_CU_POINTER_ATTRIBUTE_MEMORY_TYPE 2
#define GD_CU_POINTER_ATTRIBUTE_DEVICE_ORDINAL 9
#define GD_CU_MEMORYTYPE_HOST 1
#define GD_CU_MEMORYTYPE_DEVICE 2

/* The driver entry points gdperf uses (the _v2 ABI where there is one). */
struct gd_cuda_api {
	gd_cu_result (*Init)(unsigned int flags);
	gd_cu_result (*DriverGetVersion)(int *version);
	gd_cu_result (*GetErrorName)(gd_cu_result err, const char **str);
	gd_cu_result (*GetErrorString)(gd_cu_result err, const char **str);
	gd_cu_result (*DeviceGetCount)(int *count);
	gd_cu_result (*DeviceGet)(gd_cu_device *dev, int ordinal);
	gd_cu_result (*DeviceGetName)(char *name, int len, gd_cu_device dev);
	gd_cu_result (*DeviceGetAttribute)(int *val, int attr, gd_cu_device dev);
	gd_cu_result (*DeviceGetPCIBusId)(char *bus_id, int len, gd_cu_device dev);
	gd_cu_result (*DeviceGetByPCIBusId)(gd_cu_device *dev, const char *bus_id);
	gd_cu_result (*DeviceTotalMem)(size_t *bytes, gd_cu_device dev);          /* _v2 */
	gd_cu_result (*DevicePrimaryCtxRetain)(gd_cu_context *ctx, gd_cu_device dev);
	gd_cu_result (*DevicePrimaryCtxRelease)(gd_cu_device dev);               /* _v2 */
	gd_cu_result (*CtxSetCurrent)(gd_cu_context ctx);
	gd_cu_result (*CtxSynchronize)(void);
	gd_cu_result (*MemAlloc)(gd_cu_ptr *dptr, size_t bytes);                 /* _v2 */
	gd_cu_result (*MemFree)(gd_cu_ptr dptr);                                 /* _v2 */
	gd_cu_result (*MemAllocHost)(void **pp, size_t bytes);                   /* _v2 */
	gd_cu_result (*MemFreeHost)(void *p);
	gd_cu_result (*MemcpyHtoD)(gd_cu_ptr dst, const void *src, size_t bytes); /* _v2 */
	gd_cu_result (*MemcpyDtoH)(void *dst, gd_cu_ptr src, size_t bytes);       /* _v2 */
	gd_cu_result (*MemsetD8)(gd_cu_ptr dst, unsigned char val, size_t n);     /* _v2 */
	gd_cu_result (*PointerGetAttribute)(void *data, int attr, gd_cu_ptr ptr);
	/* CUDA >= 11.7; NULL when the driver is older (dma-buf unavailable) */
	gd_cu_result (*MemGetHandleForAddressRange)(void *handle, gd_cu_ptr ptr, size_t size,
						    int handle_type, unsigned long long flags);
	/* kernels (GPU producers); NULL when the driver lacks them */
	gd_cu_result (*ModuleLoadData)(gd_cu_module *mod, const void *image);
	gd_cu_result (*ModuleUnload)(gd_cu_module mod);
	gd_cu_result (*ModuleGetFunction)(gd_cu_function *f, gd_cu_module mod, const char *name);
	gd_cu_result (*LaunchKernel)(gd_cu_function f, unsigned gx, unsigned gy, unsigned gz,
				     unsigned bx, unsigned by, unsigned bz, unsigned shared_bytes,
				     gd_cu_stream stream, void **params, void **extra);
	gd_cu_result (*StreamQuery)(gd_cu_stream stream);
	gd_cu_result (*MemHostAlloc)(void **pp, size_t bytes, unsigned int flags);
	gd_cu_result (*MemHostGetDevicePointer)(gd_cu_ptr *dptr, void *p, unsigned int flags); /* _v2 */
	/* host memory (and I/O memory: a NIC's doorbell page) mapped into the GPU */
	gd_cu_result (*MemHostRegister)(void *p, size_t bytes, unsigned int flags); /* _v2 */
	gd_cu_result (*MemHostUnregister)(void *p);
	gd_cu_result (*Memcpy)(gd_cu_ptr dst, gd_cu_ptr src, size_t bytes); /* UVA, any direction */
	/* a stream of its own (CU_STREAM_NON_BLOCKING: not ordered after the
	 * legacy default stream's kernels) */
	gd_cu_result (*MemcpyAsync)(gd_cu_ptr dst, gd_cu_ptr src, size_t bytes, gd_cu_stream s);
	gd_cu_result (*StreamCreate)(gd_cu_stream *s, unsigned int flags);
	gd_cu_result (*StreamSynchronize)(gd_cu_stream s);
	gd_cu_result (*StreamDestroy)(gd_cu_stream s); /* _v2 */
};
#define GD_CU_STREAM_NON_BLOCKING 0x1

/* The library name tried by default; env GDPERF_LIBCUDA overrides it (tests). */
#define GD_LIBCUDA "libcuda.so.1"
#define GD_LIBCUDA_ENV "GDPERF_LIBCUDA"

/* Load libcuda and call cuInit(0) once; later calls return the first result.
 * quiet: do not print the reason (doctor reports it as a check). */
int gd_cuda_load(bool quiet);
/* The reason for the last load failure, e.g. "no CUDA driver: libcuda.so.1 not found". */
const char *gd_cuda_load_error(void);
/* The loaded API; NULL before a successful gd_cuda_load(). */
const struct gd_cuda_api *gd_cuda(void);

/* "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)" into buf. */
const char *gd_cuda_strerror(gd_cu_result r, char *buf, size_t len);
/* A negative errno for a CUDA error (ENODEV, ENOMEM, EOPNOTSUPP, EINVAL, EEXIST for
 * memory already registered, ENOENT not registered, EPERM, else EIO). */
int gd_cuda_errno(gd_cu_result r);
/* If r is an error: gd_error("<what>: <name> (<string>)") and return gd_cuda_errno(r). */
int gd_cuda_check(gd_cu_result r, const char *what);

/* Driver version as "13.0" from cuDriverGetVersion (13000). */
int gd_cuda_driver_version(int *version, char *str, size_t len);

#define GD_CUDA_NAME_LEN 128
#define GD_CUDA_BUSID_LEN 20 /* "ffffffff:ff:1f.7": a 32-bit PCI domain (Intel VMD: 10000 and up) */

struct gd_cuda_dev {
	int index;                       /* CUDA ordinal */
	gd_cu_device dev;
	char name[GD_CUDA_NAME_LEN];     /* "NVIDIA H100 80GB HBM3" */
	char pci[GD_CUDA_BUSID_LEN];     /* "0000:18:00.0" ("10000:01:00.0" behind VMD), lower case as sysfs */
	int cc_major, cc_minor;
	size_t total_mem;
	int integrated;
	int dmabuf_supported;            /* CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED; -1 unknown */
	int gdr_supported;               /* CU_DEVICE_ATTRIBUTE_GPU_DIRECT_RDMA_SUPPORTED; -1 unknown */
	int mps;                         /* CU_DEVICE_ATTRIBUTE_MPS_ENABLED: this process's contexts
	                                    on it are MPS clients; -1 unknown (older driver) */
};

int gd_cuda_device_count(int *count);
int gd_cuda_device_info(int index, struct gd_cuda_dev *info);
/* The primary context of CUDA device `index`, made current on this thread
 * (the driver loaded and the device described first): 0, or a negative errno
 * with the message printed, and then nothing held. Every user of a GPU opens
 * it here and lets it go with gd_cuda_ctx_release() (NULL-safe). */
/* Load a fatbin (`what` names it in errors) and look up its n kernels by
 * name: 0, or -ENOSYS (driver too old) / -ENODEV with the message printed. */
int gd_cuda_module_load(const void *fatbin, const char *what, const char *const *names, int n,
			gd_cu_module *mod, gd_cu_function *f);

/* A fatbin of named kernels, made by nvcc at build time (image NULL when
 * gdperf was built without nvcc). */
struct gd_cuda_fatbin {
	const void *image;
	const char *what;		/* "the IBGDA kernels", for messages */
	const char *const *names;
	int n;
};
/* A GPU ready for a fatbin's kernels, what the proxy producers and the IBGDA
 * kernels both need: GPU cuda_index's context acquired into *dev / *ctx, the
 * kernels loaded into *mod and f[0..n), name set to "GPU (CUDA i)". 0;
 * -ENOSYS when built without nvcc (said); -ENODEV when the GPU or the module
 * fails (said). The caller releases what was acquired either way. */
int gd_cuda_kernels_open(const struct gd_cuda_fatbin *fb, int cuda_index, struct gd_cuda_dev *dev,
			 gd_cu_context *ctx, gd_cu_module *mod, gd_cu_function *f, char *name,
			 size_t name_len);
/* Undo gd_cuda_kernels_open (what it got to). */
void gd_cuda_kernels_close(struct gd_cuda_dev *dev, gd_cu_context *ctx, gd_cu_module mod);
int gd_cuda_ctx_acquire(int index, struct gd_cuda_dev *info, gd_cu_context *ctx);
void gd_cuda_ctx_release(const struct gd_cuda_dev *info, gd_cu_context *ctx);
/* The CUDA ordinal of the GPU at a PCI address ("0000:18:00.0" or "18:00.0"):
 * -ENODEV (message printed) if no CUDA device has it. */
int gd_cuda_index_by_bus_id(const char *bdf, int *index);
/* Normalise a CUDA bus id ("00000000:18:00.0") to sysfs form ("0000:18:00.0"; a domain
 * above 0xffff keeps its digits: "00010000:01:00.0" is "10000:01:00.0"). -EINVAL if it is
 * not a PCI address, -ENAMETOOLONG if it does not fit in len (GD_CUDA_BUSID_LEN does). */
int gd_pci_normalize(const char *in, char *out, size_t len);

#endif
