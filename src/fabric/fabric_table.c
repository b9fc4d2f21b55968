/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Which fabric's table a decided kind names (fabric.h); its traits are
 * fabric_traits.c's. */
#include "config.h"

#include "fabric.h"

const struct gd_fabric_ops *gd_fabric_table(enum gd_fabric_kind kind)
{
#ifdef HAVE_LIBFABRIC
	if (kind == GD_FABRIC_OFI)
		return &gd_fabric_ofi;
#else
	(void)kind; /* the options refused --fabric ofi without libfabric (fabric_opts.c) */
#endif
	return &gd_fabric_verbs;
}
