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

/* The PCIe class from GPU g to NIC k (NVLink never joins a GPU and a NIC). */
static enum gd_link gpu_nic(const struct gd_topo *t, size_t g, size_t k)
{
	return gd_topo_cls(t, g, t->ngpus + k);
}

static enum gd_link best_class(const struct gd_topo *t, size_t g, size_t *ncand)
{
	enum gd_link best = GD_LINK_NA;

	*ncand = 0;
	for (size_t k = 0; k < t->nnics; k++) {
		enum gd_link c = gpu_nic(t, g, k);

		if (c == GD_LINK_NA)
			continue;
		if (c < best) {
			best = c;
			*ncand = 0;
		}
		if (c == best)
			(*ncand)++;
	}
	return best;
}

/*
 * GPUs with a single nearest NIC take it first; the others take the least
 * loaded of their nearest NICs, the lowest index on ties.
 */
static void assign(const struct gd_topo *t, struct gd_topo_advice *a, int *load)
{
	size_t max_cand = t->nnics;

	for (size_t want = 1; want <= max_cand; want++) {
		for (size_t g = 0; g < t->ngpus; g++) {
			size_t ncand;
			enum gd_link best = best_class(t, g, &ncand);
			int pick = -1;

			if (ncand != want || best == GD_LINK_NA)
				continue;
			for (size_t k = 0; k < t->nnics; k++)
				if (gpu_nic(t, g, k) == best && (pick < 0 || load[k] < load[pick]))
					pick = (int)k;
			a->nic_for_gpu[g] = pick;
			load[pick]++;
		}
	}
}

static int link_warning(struct gd_topo_advice *a, const char *dev, const char *busid,
			const struct gd_pcie_link *l, bool gpu)
{
	if (!l->known || (l->cur_gts >= l->max_gts - 0.01 && l->cur_width >= l->max_width))
		return 0;
	return warn(a, GD_TOPO_WARN_PCIE_DOWN, dev,
		    "%s (%s): PCIe link runs at %.1f GT/s x%d, below its maximum %.1f GT/s x%d: check the slot, riser and BIOS settings, or reseat the card%s",
		    dev, busid, l->cur_gts, l->cur_width, l->max_gts, l->max_width,
		    gpu && l->cur_width >= l->max_width
			    ? " (an idle GPU lowers its link speed: check again under load)"
			    : "");
}

static int gpu_warnings(const struct gd_topo *t, struct gd_topo_advice *a, size_t g)
{
	const struct gd_topo_gpu *gpu = &t->gpus[g];
	int k = a->nic_for_gpu[g], ret = 0;
	char dev[24];

	snprintf(dev, sizeof(dev), "GPU%zu", g);
	if (k >= 0) {
		const struct gd_topo_nic *nic = &t->nics[k];
		enum gd_link c = gpu_nic(t, g, (size_t)k);

		if (c == GD_LINK_NODE || c == GD_LINK_SYS)
			ret = warn(a, GD_TOPO_WARN_FAR_NIC, dev,
				   "%s (%s): its nearest NIC, NIC%d (%s), is %s away: GPUDirect RDMA crosses the %s, and NCCL turns it off beyond PXB by default (NCCL_NET_GDR_LEVEL); put a NIC under the GPU's PCIe switch, or let NCCL route through an NVLink peer (PXN)",
				   dev, gpu->busid, k, nic->name, gd_link_str(c),
				   c == GD_LINK_SYS ? "socket interconnect" : "CPU between host bridges");
		if (!ret && strcmp(gpu->nodes, "N/A") && strcmp(nic->nodes, "N/A") &&
		    strcmp(gpu->nodes, nic->nodes))
			ret = warn(a, GD_TOPO_WARN_NUMA, dev,
				   "%s (NUMA %s) and its nearest NIC, NIC%d (%s, NUMA %s), are on different NUMA nodes: bind the process to NUMA %s and expect lower bandwidth",
				   dev, gpu->nodes, k, nic->name, nic->nodes, gpu->nodes);
	}
	if (!ret)
		ret = link_warning(a, dev, gpu->busid, &gpu->link, true);
	return ret;
}

int gd_topo_advise(const struct gd_topo *t, struct gd_topo_advice *a)
{
	int *load = calloc(t->nnics + 1, sizeof(*load));
	int ret = 0;

	memset(a, 0, sizeof(*a));
	a->nic_for_gpu = malloc((t->ngpus + 1) * sizeof(*a->nic_for_gpu));
	if (!load || !a->nic_for_gpu) {
		free(load);
		free(a->nic_for_gpu);
		return -ENOMEM;
	}
	for (size_t g = 0; g < t->ngpus; g++)
		a->nic_for_gpu[g] = -1;
	assign(t, a, load);
	free(load);
	for (size_t g = 0; g < t->ngpus && !ret; g++)
		ret = gpu_warnings(t, a, g);
	for (size_t k = 0; k < t->nnics && !ret; k++) {
		char dev[24];

		snprintf(dev, sizeof(dev), "NIC%zu", k);
		ret = link_warning(a, dev, t->nics[k].busid, &t->nics[k].link, false);
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
