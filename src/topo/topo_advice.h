/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_topo's words for the locality module's verdicts (locality.h): the
 * nearest NIC for each GPU, and warnings for a NIC from PHB on, GPU/NIC pairs
 * on different NUMA nodes, and PCIe links on the chain below what both ends
 * can do.
 */
#ifndef GD_TOPO_ADVICE_H
#define GD_TOPO_ADVICE_H

#include "topo.h"

enum gd_topo_warn_kind {
	GD_TOPO_WARN_FAR_NIC,   /* the GPU's best NIC is GD_LOC_FAR (PHB) or farther */
	GD_TOPO_WARN_PCIE_DOWN, /* a link on the chain below what both ends can do */
	GD_TOPO_WARN_NUMA,      /* GPU and its NIC on different NUMA nodes */
};

struct gd_topo_warning {
	enum gd_topo_warn_kind kind;
	char device[24];  /* "GPU0", "NIC1" */
	char msg[384];
};

struct gd_topo_advice {
	int *nic_for_gpu;          /* index into t->nics, -1: none */
	struct gd_topo_warning *w;
	size_t nw;
};

int gd_topo_advise(const struct gd_topo *t, struct gd_topo_advice *a);
void gd_topo_advice_free(struct gd_topo_advice *a);
const char *gd_topo_warn_kind_str(enum gd_topo_warn_kind k); /* "far_nic" */

#endif
