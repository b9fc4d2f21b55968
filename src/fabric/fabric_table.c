/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Which fabric's table and traits a decided kind names (fabric.h); ofi's
 * traits, here and not in fabric_ofi.c, so that a build without libfabric
 * knows them too. */
#include "config.h"

#include "fabric.h"

/* RDM endpoints connect on their first message each way */
static bool ofi_connects_on_first_op(const struct gd_fabric_opts *o)
{
	return o->ep == GD_EP_RDM;
}

/* a domain: no service level, DSCP only (FI_TC_DSCP), no QP rate limit */
const struct gd_fabric_traits gd_fabric_ofi_traits = {
	.port = false,
	.providers = true,
	.moderates_writes = true,
	.connects_on_first_op = ofi_connects_on_first_op,
};

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

const struct gd_fabric_traits *gd_fabric_traits_of(enum gd_fabric_kind kind)
{
	return kind == GD_FABRIC_OFI ? &gd_fabric_ofi_traits : &gd_fabric_verbs_traits;
}
