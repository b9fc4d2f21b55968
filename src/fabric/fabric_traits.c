/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* What each fabric takes and reports (fabric.h, struct gd_fabric_traits):
 * plain data and its lookup by the decided kind, with nothing of any
 * fabric's code, so that every build (one without libfabric too) and every
 * program that checks options (the fuzzers among them) knows them. The
 * tables (fabric_table.c) point at these. */
#include "config.h"

#include "fabric.h"

/* a port: -S, the whole --tclass byte, the QP's rate limit, completion events */
const struct gd_fabric_traits gd_fabric_verbs_traits = {
	.port = true, .service_level = true, .tclass_ecn = true, .qp_rate_limit = true,
	.cq_events = true,
};

/* RDM endpoints connect on their first message each way */
static bool ofi_connects_on_first_op(const struct gd_fabric_opts *o)
{
	return o->ep == GD_EP_RDM;
}

/* a domain: no service level, DSCP only (FI_TC_DSCP), no QP rate limit, no -e */
const struct gd_fabric_traits gd_fabric_ofi_traits = {
	.port = false,
	.providers = true,
	.moderates_writes = true,
	.connects_on_first_op = ofi_connects_on_first_op,
};

const struct gd_fabric_traits *gd_fabric_traits_of(enum gd_fabric_kind kind)
{
	return kind == GD_FABRIC_OFI ? &gd_fabric_ofi_traits : &gd_fabric_verbs_traits;
}
