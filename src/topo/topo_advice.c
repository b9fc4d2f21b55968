/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "topo_advice.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gd.h"

const char *gd_topo_warn_kind_str(enum gd_topo_warn_kind k)
{
	switch (k) {
	case GD_TOPO_WARN_FAR_NIC: return "far_nic";
	case GD_TOPO_WARN_PCIE_DOWN: return "pcie_downgraded";
	case GD_TOPO_WARN_NUMA: return "numa_mismatch";
	}
	return "?";
}

static int warn(struct gd_topo_advice *a, enum gd_topo_warn_kind kind, const char *dev,
		const char *fmt, ...)
{
	struct gd_topo_warning *v = realloc(a->w, (a->nw + 1) * sizeof(*v));
	va_list ap;

	if (!v)
		return -ENOMEM;
	a->w = v;
	v = &a->w[a->nw++];
	v->kind = kind;
	snprintf(v->device, sizeof(v->device), "%s", dev);
	va_start(ap, fmt);
	vsnprintf(v->msg, sizeof(v->msg), fmt, ap);
	va_end(ap);
	return 0;
}

static const char *const far_what[] = {
	[GD_LOC_PHB] = "PCIe host bridge (the CPU's root complex)",
	[GD_LOC_NODE] = "CPU between host bridges",
	[GD_LOC_SYS] = "socket interconnect",
};

/* The worst link on the device's chain, when it is below what both ends can do. */
static int link_warning(struct gd_topo_advice *a, const char *dev, const char *busid,
			const struct gd_loc_links *links, bool gpu)
{
	const struct gd_loc_hop *h;

	if (links->worst < 0 || links->hop[links->worst].v == GD_LOC_OK)
		return 0;
	h = &links->hop[links->worst];
	if (h->link.bad_file[0])
		return warn(a, GD_TOPO_WARN_PCIE_DOWN, dev, "%s (%s): %s: its link speed is unknown",
			    dev, busid, h->why);
	if (!strcmp(h->child, busid))
		return warn(a, GD_TOPO_WARN_PCIE_DOWN, dev,
			    "%s (%s): PCIe link runs at %.1f GT/s x%d, below its maximum %.1f GT/s x%d: check the slot, riser and BIOS settings, or reseat the card%s",
			    dev, busid, h->link.cur_gts, h->link.cur_width, h->want_gts,
			    h->want_width,
			    gpu && h->v == GD_LOC_WARN
				    ? " (an idle GPU lowers its link speed: check again under load)"
				    : "");
	return warn(a, GD_TOPO_WARN_PCIE_DOWN, dev,
		    "%s (%s): the PCIe link %s -> %s above it runs at %.1f GT/s x%d, below its maximum %.1f GT/s x%d: check the switch's slot, riser and BIOS settings",
		    dev, busid, h->parent, h->child, h->link.cur_gts, h->link.cur_width,
		    h->want_gts, h->want_width);
}

static int gpu_warnings(const struct gd_topo *t, struct gd_topo_advice *a, size_t g)
{
	const struct gd_topo_gpu *gpu = &t->gpus[g];
	int k = a->nic_for_gpu[g], ret = 0;
	char dev[24];

	snprintf(dev, sizeof(dev), "GPU%zu", g);
	if (k >= 0) {
		const struct gd_topo_nic *nic = &t->nics[k];
		const char *gn = t->loc.gpus[g].place.nodes, *nn = t->loc.nics[k].place.nodes;
		enum gd_loc_class c = gd_loc_gpu_nic(&t->loc, g, (size_t)k);

		if (gd_loc_path_verdict(c) != GD_LOC_OK)
			ret = warn(a, GD_TOPO_WARN_FAR_NIC, dev,
				   "%s (%s): its nearest NIC, NIC%d (%s), is %s away: GPUDirect RDMA crosses the %s, and NCCL turns it off beyond PXB by default (NCCL_NET_GDR_LEVEL); put a NIC under the GPU's PCIe switch, or let NCCL route through an NVLink peer (PXN)",
				   dev, gpu->busid, k, nic->name, gd_loc_class_str(c), far_what[c]);
		if (!ret && gd_loc_numa_verdict(gn, nn) != GD_LOC_OK)
			ret = warn(a, GD_TOPO_WARN_NUMA, dev,
				   "%s (NUMA %s) and its nearest NIC, NIC%d (%s, NUMA %s), are on different NUMA nodes: bind the process to NUMA %s and expect lower bandwidth",
				   dev, gn, k, nic->name, nn, gn);
	}
	if (!ret)
		ret = link_warning(a, dev, gpu->busid, &gpu->links, true);
	return ret;
}

int gd_topo_advise(const struct gd_topo *t, struct gd_topo_advice *a)
{
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->nic_for_gpu = malloc((t->ngpus + 1) * sizeof(*a->nic_for_gpu));
	if (!a->nic_for_gpu)
		return -ENOMEM;
	/* the locality module's choice (gd_topo_classify asked it) */
	for (size_t g = 0; g < t->ngpus; g++)
		a->nic_for_gpu[g] = t->loc.nic_for_gpu ? t->loc.nic_for_gpu[g] : -1;
	for (size_t g = 0; g < t->ngpus && !ret; g++)
		ret = gpu_warnings(t, a, g);
	for (size_t k = 0; k < t->nnics && !ret; k++) {
		char dev[24];

		snprintf(dev, sizeof(dev), "NIC%zu", k);
		ret = link_warning(a, dev, t->nics[k].busid, &t->nics[k].links, false);
	}
	if (ret)
		gd_topo_advice_free(a);
	return ret;
}

void gd_topo_advice_free(struct gd_topo_advice *a)
{
	free(a->nic_for_gpu);
	free(a->w);
	memset(a, 0, sizeof(*a));
}
