/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libfabric, loaded when a tool first needs it (dlopen "libfabric.so.1").
 *
 * Why not linked: Debian's libfabric1 links the PSM providers in, and the
 * constructor of libinfinipath (their dependency) sleeps about 0.2 s at load
 * (627 usleep(125) calls on the build machine), so every gdperf tool, even
 * `--help` or a verbs run, paid that at start. Loaded here, only
 * `--fabric ofi`, `gd_devinfo --fabric ofi` and gd_doctor's provider checks
 * pay it. The headers are still libfabric's (<rdma/fabric.h>): the inline
 * calls (fi_domain, fi_write, fi_cq_read...) go through the provider's
 * operation tables and need no symbol; the seven exported entry points below
 * are the only ones gdperf calls, through gd_fi_* so that a grep finds every
 * use.
 *
 * gd_ofi_lib_load(): 0, or -ELIBACC when the library cannot be loaded
 * (gd_ofi_lib_error() says why and the fix). Every gd_fi_* call loads it
 * first; without it they fail as libfabric does (-FI_ENOSYS, NULL) and
 * gd_fi_strerror says the library is missing. LD_LIBRARY_PATH picks another
 * libfabric (a CUDA-built one for GPU memory) as for a linked library.
 */
#ifndef GD_OFI_LIB_H
#define GD_OFI_LIB_H

#include <stdint.h>

#include <rdma/fabric.h>

#define GD_OFI_SONAME "libfabric.so.1"

int gd_ofi_lib_load(void);
const char *gd_ofi_lib_error(void);
/* gd_ofi_lib_load(), the error said ("--fabric ofi: ...") when it fails */
int gd_ofi_lib_require(void);

int gd_fi_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
		  const struct fi_info *hints, struct fi_info **info);
void gd_fi_freeinfo(struct fi_info *info);
struct fi_info *gd_fi_dupinfo(const struct fi_info *info);
int gd_fi_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context);
const char *gd_fi_strerror(int errnum);
char *gd_fi_tostr(const void *data, enum fi_type datatype);
uint32_t gd_fi_version(void);

static inline struct fi_info *gd_fi_allocinfo(void)
{
	return gd_fi_dupinfo(NULL);
}

#endif
