/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The proxy's libfabric transport (HAVE_LIBFABRIC): the verbs transport's
 * chains (transport_verbs.c builds the work requests from the descriptors)
 * posted through the fabric seam's ofi side (fabric_ofi.h gd_ofi_post_wrs),
 * completions from each proxy thread's own send CQ with fi_cq_read. One seam: the same
 * translation the CPU loops use.
 */
#ifndef GD_TRANSPORT_OFI_H
#define GD_TRANSPORT_OFI_H

#include <stdint.h>

#include "ops.h"
#include "transport.h"

struct gd_tof;

/* q: the loop's QPs (their fab_* fields and regions); each proxy thread
 * polls the send CQ of its QPs (q[thread].fab_cq, gd_ofi_ep_scq). */
struct gd_tof *gd_tof_create(const struct gd_qp_run *q, uint32_t nqps, uint32_t nthreads,
			     uint32_t max_chain, uint32_t max_inline);
void gd_tof_destroy(struct gd_tof *t);
void gd_tof_ops(struct gd_tof *t, struct gd_transport *tp);

#endif
