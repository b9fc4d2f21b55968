/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Host memory the IBGDA kernels reach: a NIC's doorbell (UAR) page and host
 * control buffers, registered with CUDA once per range and shared by every
 * QP that lives in it, with the GPU's own address for it.
 *
 * Why (F1/F2 of the desk review, doc/ibgda.md): libmlx5 hands out two
 * BlueFlame registers of ONE UAR page to consecutive QPs (0x800, 0xa00),
 * so a second cuMemHostRegister of that page fails with
 * CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED (712); and CUDA promises a GPU
 * address equal to the host one only where the device says so. As DOCA
 * GPUNetIO and UCX GDAKI: register per range with a count of users (712
 * from an earlier registration elsewhere is accepted, and then that range is
 * not ours to unregister), the GPU address from cuMemHostGetDevicePointer,
 * unregister with the last user. Pure logic over a driver table, so unit
 * tests run it with a fake one.
 */
#ifndef GD_IBGDA_HOSTMAP_H
#define GD_IBGDA_HOSTMAP_H

#include <stddef.h>
#include <stdint.h>

#include "cuda.h"

#define GD_HOSTMAP_MAX 1040 /* 512 QPs: a control buffer each, and their UAR pages */

struct gd_hostmap_ent {
	uintptr_t start;
	size_t len;
	uint32_t refs;
	int owned;      /* we registered it (else it was registered already: 712) */
	gd_cu_ptr dev;  /* the GPU's address of start */
};

struct gd_hostmap {
	struct gd_hostmap_ent e[GD_HOSTMAP_MAX];
	uint32_t n;
};

/* Map [start, start + len) (flags: GD_CU_MEMHOSTREGISTER_*) and give the
 * GPU address of addr inside it. 0, or -errno with err naming the CUDA
 * error ("cuMemHostRegister: CUDA_ERROR_... (...)"). */
int gd_hostmap_get(struct gd_hostmap *m, const struct gd_cuda_api *cu, void *start, size_t len,
		   unsigned int flags, const void *addr, uint64_t *dev, char *err, size_t errlen);
/* One user of the range at start is done; the last one unregisters it (when
 * ours). 0, or -ENOENT when start is not mapped here. */
int gd_hostmap_put(struct gd_hostmap *m, const struct gd_cuda_api *cu, void *start);
/* The users of the range at start (tests), 0 when not mapped. */
uint32_t gd_hostmap_refs(const struct gd_hostmap *m, const void *start);

#endif
