/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Which IBGDA mode can run on an RDMA device, decided step by step, each
 * choice printed with its reason (like gd_doctor's evidence):
 *
 *   1 mlx5 device?            else exit 3: the proxy initiator works there
 *   2 DEVX context            mlx5dv_open_device(DEVX)
 *   3 HCA caps                QUERY_HCA_CAP: cqe_version 1, atomics (warn)
 *   4 CUDA GPU                the driver loads and sees a GPU
 *   5 NIC control buffers     dma-buf umem (GPU) > legacy umem (GPU, needs
 *                             nvidia-peermem) > host memory
 *   6 doorbell                UAR mapped into the GPU (cuMemHostRegister with
 *                             the I/O-memory flag, needs PeerMappingOverride=1)
 *                             > ibgda-cpudb, only when the user allows the
 *                             fallback (never silent) or asked for it
 *
 * The facts come from the live device (ibgda_devx.c, real ConnectX only);
 * the decision is a pure function of them, unit-tested here.
 */
#ifndef GD_IBGDA_PROBE_H
#define GD_IBGDA_PROBE_H

#include <stdbool.h>
#include <stddef.h>

enum gd_ibgda_want { GD_IBGDA_WANT_GPU_DB = 0, GD_IBGDA_WANT_CPU_DB = 1 };
enum gd_ibgda_mem { GD_IBGDA_MEM_NONE = 0, GD_IBGDA_MEM_DMABUF, GD_IBGDA_MEM_LEGACY, GD_IBGDA_MEM_HOST };

/* What the live probe found; -1 = not tried (an earlier step failed). */
struct gd_ibgda_facts {
	char dev[64];
	char driver[64];       /* sysfs driver of the RDMA device ("mlx5_core", "") */
	int mlx5;              /* mlx5dv_is_supported, or the driver when no verbs */
	int devx_err;          /* 0 ok, else errno of mlx5dv_open_device(DEVX) */
	int cqe_version;       /* HCA cap */
	int atomics;           /* 1: CAS, FA, masked 4/8 B on RC QPs */
	int atomic_be;         /* atomic_req_8B_endianness_mode 0: 8-byte fetched
				* results big-endian; 0 = host order (mlx5_core
				* sets host where the device offers it) */
	int cuda;              /* 1 a GPU is usable, 0 not */
	char cuda_err[96];
	int dmabuf_attr;       /* CU_DEVICE_ATTRIBUTE_DMA_BUF_SUPPORTED: 1, 0, -1 */
	int dmabuf_umem_err;   /* 0 ok, errno */
	int peermem;           /* nvidia-peermem loaded: 1, 0 */
	int legacy_umem_err;
	int host_umem_err;
	int uar_err;
	int uar_gpu_map_err;   /* CUresult of cuMemHostRegister(IOMEMORY); 0 ok */
	int regkey;            /* PeerMappingOverride=1 seen: 1, 0, -1 unknown */
};

#define GD_IBGDA_MAX_LINES 12

struct gd_ibgda_plan {
	int rc;                /* 0: mode below runs; 3: the environment cannot */
	bool cpu_doorbell;     /* ibgda-cpudb */
	bool fell_back;        /* ibgda asked, ibgda-cpudb chosen (--ibgda_fallback) */
	enum gd_ibgda_mem mem;
	bool atomic_be;        /* the facts' atomic_be: fetched 8-byte results big-endian */
	char lines[GD_IBGDA_MAX_LINES][200]; /* "step: verdict (reason)" */
	int nlines;
	char why[320];         /* rc 3: the cause */
	char fix[256];         /* rc 3: what to do */
	const char *check;     /* rc 3: the gd_doctor check that shows it */
};

/* Decide from facts. want: the mode the user named; allow_fallback: the user
 * allows ibgda to become ibgda-cpudb. */
void gd_ibgda_decide(const struct gd_ibgda_facts *f, enum gd_ibgda_want want, bool allow_fallback,
		     struct gd_ibgda_plan *p);

/* Gather the facts on a live device (tries every step it can; real ConnectX
 * for the steps past 1); m for the sysfs/procfs reads. Never fails: what it
 * cannot learn stays -1. */
struct gd_machine;
void gd_ibgda_probe_facts(const struct gd_machine *m, const char *dev, int cuda_ordinal,
			  struct gd_ibgda_facts *f);

/* The probe chain as text: one "  IBGDA probe: <line>" per step, then the
 * verdict. */
void gd_ibgda_plan_print(const struct gd_ibgda_plan *p, const char *dev, void *file);

const char *gd_ibgda_mem_name(enum gd_ibgda_mem m);

#endif
