/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Which fabric's setup a run takes (bench_fabric.h). */
#include "config.h"

#include "bench_fabric.h"

const struct gd_bench_fabric *gd_bench_fabric(enum gd_fabric_kind kind)
{
#ifdef HAVE_LIBFABRIC
	if (kind == GD_FABRIC_OFI)
		return &gd_bench_fabric_ofi;
#else
	(void)kind; /* the options refused --fabric ofi without libfabric (fabric_opts.c) */
#endif
	return &gd_bench_fabric_verbs;
}
