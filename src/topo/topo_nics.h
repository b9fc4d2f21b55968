/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * NICs for the topology from the core's device reader (rdma_dev.h): each RDMA
 * device placed by its PCI function (a RoCE LAG device by its first PF, which
 * its sysfs device link names), a bond named in the legend with its slaves,
 * and software devices (rxe, siw) listed without a PCI parent.
 */
#ifndef GD_TOPO_NICS_H
#define GD_TOPO_NICS_H

#include "topo.h"

/* 0 or -errno; no RDMA device at all is not an error. */
int gd_topo_find_nics_rdma(struct gd_topo *t);

#endif
