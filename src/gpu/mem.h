/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Benchmark buffers: where the bytes live and their memory region. One
 * struct gd_buf per side; the engine carves it into per-QP regions.
 *
 * Each kind of memory is a backend, a table of operations (struct
 * gd_buf_ops): host and hugepage memory here, GPU device memory and pinned
 * host staging in src/gpu/gpu_buf.h. The engine picks the backend once (its
 * plan) and every buffer operation goes through the table: no caller asks
 * which kind of memory it holds.
 */
#ifndef GD_MEM_H
#define GD_MEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <infiniband/verbs.h>

#include "machine.h"
#include "pattern.h"

#define GD_BENCH_DEV_MAX 64    /* an RDMA device name: IBV_SYSFS_NAME_MAX */
#define GD_BENCH_BDF_MAX 32    /* a PCI address (--use_cuda_bus_id), e.g. 0000:1b:00.0 */

/* --use_cuda values besides a device index */
#define GD_CUDA_NONE (-1)
#define GD_CUDA_AUTO (-2) /* pick the GPU nearest to the NIC (topology feature) */

/* What a backend needs to allocate (nothing else of the run's parameters). */
struct gd_buf_spec {
	int cuda;			/* GPU: a CUDA index, or GD_CUDA_AUTO (nearest the NIC) */
	char cuda_bus_id[GD_BENCH_BDF_MAX]; /* GPU: by PCI address instead, "" = by index */
	bool dmabuf;			/* GPU: register through dma-buf only */
	char nic[GD_BENCH_DEV_MAX];	/* the RDMA device the run uses (GPU choice, path class) */
	const struct gd_machine *m;	/* whose sysfs places the GPU and the NIC (NULL: live) */
};

struct gd_buf;

struct gd_buf_ops {
	const char *name;		/* "host", "hugepage", "cuda", "cuda_staging" */
	bool host_visible;		/* the CPU may read and write addr directly */
	/* length bytes (rounded up as the backend needs), zeroed; sets addr/length */
	int (*alloc)(struct gd_buf *b, size_t length, const struct gd_buf_spec *spec);
	/* sets b->mr; NULL: ibv_reg_mr on addr */
	int (*reg)(struct gd_buf *b, struct ibv_pd *pd, int access);
	void (*free)(struct gd_buf *b);	/* deregisters too */
	/* copies for memory the CPU cannot touch (NULL when host_visible) */
	int (*write)(struct gd_buf *b, size_t off, const void *src, size_t len);
	int (*read)(const struct gd_buf *b, size_t off, void *dst, size_t len);
	/* header text and JSON "gpu" object (NULL: the name says it all) */
	int (*describe)(const struct gd_buf *b, char *out, size_t len);
	void (*json)(const struct gd_buf *b, void *json_record);
	/* "PIX".."SYS" between the memory's device and the NIC, "" unknown (NULL: none) */
	const char *(*path_class)(const struct gd_buf *b);
	/* how it was registered ("dma-buf", "peer-memory", "host"; NULL: host memory) and
	 * whether it is a staging buffer */
	const char *(*registration)(const struct gd_buf *b, bool *staging);
	/* device memory: the PCI address of its GPU into pci, and whether this
	 * process's contexts there are MPS clients; 0 (NULL: host memory, the
	 * staging buffer's pinned host memory included) */
	int (*gpu)(const struct gd_buf *b, char *pci, size_t len, bool *mps);
	/* device memory a fabric registers as CUDA memory (libfabric's FI_HMEM_CUDA): the
	 * CUDA ordinal of its GPU, whichever way it was chosen (--use_cuda=N|auto,
	 * --use_cuda_bus_id). NULL: host memory, the staging buffer's pinned host memory
	 * included (the one rule of "hmem": gd_plan_hmem) */
	int (*cuda_device)(const struct gd_buf *b);
};

extern const struct gd_buf_ops gd_buf_host;
extern const struct gd_buf_ops gd_buf_hugepage;

struct gd_buf {
	const struct gd_buf_ops *ops;
	void *addr;
	size_t length;
	struct ibv_mr *mr;
	int access;		/* what mr was registered with */
	int shmid;		/* hugepage segment, -1 otherwise */
	void *priv;		/* backend data (GPU context...) */
};

/* Allocate length bytes with backend ops (zeroed). spec may be NULL for host memory. */
int gd_buf_alloc(struct gd_buf *b, const struct gd_buf_ops *ops, size_t length,
		 const struct gd_buf_spec *spec);
/* Register with exactly `access`. Returns 0 or -errno (message printed). */
int gd_buf_register(struct gd_buf *b, struct ibv_pd *pd, int access);
void gd_buf_free(struct gd_buf *b);
/* The backend's name ("host", "cuda"...), for headers and JSON. */
const char *gd_buf_name(const struct gd_buf *b);

/* Write the payload pattern (pattern.h) at [off, off+len) of b, counting
 * offsets from `off0`. */
int gd_buf_fill(struct gd_buf *b, size_t off, size_t len, uint64_t off0);
/* Check it; on mismatch return -EBADMSG and set *bad to the first bad byte
 * (relative to off). */
int gd_buf_verify(const struct gd_buf *b, size_t off, size_t len, uint64_t off0, size_t *bad);
/* Copy bytes out of the buffer (host or GPU memory). */
int gd_buf_read(const struct gd_buf *b, size_t off, void *dst, size_t len);
/* Set / read a u64 in the buffer (atomic counters). */
int gd_buf_set_u64(struct gd_buf *b, size_t off, uint64_t v);
int gd_buf_get_u64(const struct gd_buf *b, size_t off, uint64_t *v);

/* "LOCAL_WRITE|REMOTE_WRITE" for headers and JSON. */
const char *gd_mem_access_str(int access, char *buf, size_t len);

#endif
