/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * GPU buffers for the benchmarks: pick a GPU, allocate plain device memory
 * with cuMemAlloc (never managed memory), fill and verify a pattern by
 * copying through the host, export a dma-buf, and register with an RDMA
 * protection domain (dma-buf first, then the peer-memory path). A staging
 * mode allocates pinned host memory (cuMemAllocHost) instead, labelled as such.
 *
 * Two layers: struct gd_gpu / struct gd_gpu_mem (below) work on their own
 * (gd_doctor, tests/gpu); gpu_buf.h makes them the benchmark engine's
 * buffer backends (src/gpu/mem.h) for --use_cuda, --use_cuda_bus_id,
 * --use_cuda_dmabuf and --gpu_staging.
 * auto picks the GPU nearest the NIC by the topology core
 * (src/topo/topo.h, hwloc) on a live machine, else by the sysfs PCI tree
 * (src/topo/pcipath.h).
 * Functions return 0 or a negative errno and print their reason with
 * gd_error(); -ENOENT/-ENODEV/-ENOSYS mean "no CUDA" (exit code 3).
 */
#ifndef GD_GPU_MEM_H
#define GD_GPU_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cuda.h"
#include "locality.h"
#include "machine.h"

struct ibv_pd;
struct ibv_mr;

/* How to choose the GPU. */
struct gd_gpu_select {
	int index;              /* CUDA ordinal, when by == GD_GPU_BY_INDEX */
	enum { GD_GPU_BY_INDEX, GD_GPU_BY_BUS_ID, GD_GPU_AUTO } by;
	char bus_id[32];        /* --use_cuda_bus_id=BDF */
	char nic_pci[32];       /* auto: PCI address of the chosen NIC ("" none) */
	char nic_name[64];      /* auto: its name, for messages */
	bool quiet;             /* no notes on stderr about CUDA's numbering (gd_doctor) */
	const struct gd_machine *m; /* whose sysfs places the GPU (never NULL) */
};

/* Parse --use_cuda's argument: "N" or "auto". -EINVAL with a message otherwise. */
int gd_gpu_select_parse(const char *arg, struct gd_gpu_select *sel);

struct gd_gpu {
	struct gd_cuda_dev info;   /* index, name, PCI address, ... */
	gd_cu_context ctx;         /* the device's primary context, current on this thread */
	int numa_node;             /* from sysfs; -1 unknown */
	char path_class[8];        /* to the NIC given in auto mode ("PIX".."SYS"), "" unknown */
	char why[160];             /* how it was chosen: "CUDA index 0", "nearest to mlx5_0 (PIX)" */
	const struct gd_machine *m; /* the selection's machine */
};

int gd_gpu_open(const struct gd_gpu_select *sel, struct gd_gpu *gpu);
void gd_gpu_close(struct gd_gpu *gpu);
/*
 * --use_cuda=auto's choice (locality.h gd_loc_gpu_for_nic) without CUDA:
 * cuda_pci[i] is CUDA device i's PCI address ("" unknown). index: the chosen
 * device (0 when none); cls: its path class to the NIC. 0, or -ENODEV when
 * no visible GPU can be placed near the NIC, or -errno.
 */
int gd_gpu_auto_pick(const struct gd_machine *m, const char *nic_pci,
		     const char (*cuda_pci)[GD_CUDA_BUSID_LEN], int count, int *index,
		     enum gd_loc_class *cls);
/* Fill gpu->path_class ("PIX".."SYS") relative to a NIC's PCI address. */
void gd_gpu_set_nic(struct gd_gpu *gpu, const char *nic_pci);

enum gd_gpu_mem_kind {
	GD_GPU_MEM_DEVICE,   /* cuMemAlloc: GPU memory, the NIC reads it directly */
	GD_GPU_MEM_STAGING,  /* cuMemAllocHost: pinned host bounce buffer (--gpu_staging) */
};

enum gd_gpu_reg {
	GD_GPU_REG_NONE,
	GD_GPU_REG_AUTO,     /* dma-buf, then peer memory */
	GD_GPU_REG_DMABUF,   /* --use_cuda_dmabuf: dma-buf only */
	GD_GPU_REG_PEERMEM,  /* ibv_reg_mr on the device pointer (nvidia_peermem) */
	GD_GPU_REG_HOST,     /* staging: ordinary host registration */
};

struct gd_gpu_mem {
	struct gd_gpu *gpu;
	enum gd_gpu_mem_kind kind;
	size_t size;            /* as asked */
	size_t alloc_size;      /* rounded up to 64 KiB (GPU page granularity) */
	gd_cu_ptr dptr;         /* device memory (DEVICE) */
	void *host;             /* pinned host memory (STAGING) */
	int dmabuf_fd;          /* -1 until exported */
	uint64_t dmabuf_offset; /* of dptr within the exported range */
	enum gd_gpu_reg reg_used; /* after gd_gpu_mem_register */
};

/* The address verbs sees (device pointer or host pointer). */
void *gd_gpu_mem_addr(const struct gd_gpu_mem *buf);
const char *gd_gpu_mem_kind_str(enum gd_gpu_mem_kind k); /* "GPU device memory", "pinned host staging" */
const char *gd_gpu_reg_str(enum gd_gpu_reg r);           /* "dma-buf", "peer-memory", ... */

int gd_gpu_mem_alloc(struct gd_gpu *gpu, size_t size, enum gd_gpu_mem_kind kind,
		     struct gd_gpu_mem *buf);
void gd_gpu_mem_free(struct gd_gpu_mem *buf);

/* Copies between the buffer (at off) and host memory. */
int gd_gpu_mem_write(struct gd_gpu_mem *buf, size_t off, const void *src, size_t len);
int gd_gpu_mem_read(const struct gd_gpu_mem *buf, size_t off, void *dst, size_t len);
int gd_gpu_mem_memset(struct gd_gpu_mem *buf, unsigned char val);

/* The payload pattern (pattern.h) of offsets [off0, off0 + size) into the buffer. */
int gd_gpu_mem_fill(struct gd_gpu_mem *buf, uint64_t off0);
/* 0 all match; -EILSEQ with *bad_off at the first wrong byte (message printed). */
int gd_gpu_mem_verify(const struct gd_gpu_mem *buf, uint64_t off0, size_t *bad_off);

/* The memory type CUDA reports for the pointer: must be DEVICE for GPUDirect. */
int gd_gpu_mem_check_device(const struct gd_gpu_mem *buf);

/* cuMemGetHandleForAddressRange(DMA_BUF_FD); sets dmabuf_fd/offset. */
int gd_gpu_mem_export_dmabuf(struct gd_gpu_mem *buf);

/*
 * Register with a protection domain. mode AUTO tries dma-buf then peer
 * memory; on failure of every allowed method the message names the reason
 * of each and what to do, e.g.
 *   "dma-buf: kernel 5.10 < 5.12; peermem: nvidia_peermem not loaded".
 * The reasons are also left in why (may be NULL).
 */
int gd_gpu_mem_register(struct gd_gpu_mem *buf, struct ibv_pd *pd, int access,
			enum gd_gpu_reg mode, struct ibv_mr **mr, char *why, size_t why_len);

/* Explanations for a failed method (exposed for tests). */
void gd_gpu_explain_dmabuf(const struct gd_machine *m, int err, char *out, size_t len);
void gd_gpu_explain_peermem(const struct gd_machine *m, int err, char *out, size_t len);

#endif
