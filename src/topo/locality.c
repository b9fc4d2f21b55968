/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "locality.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <limits.h>
#include <string.h>
#include <sys/stat.h>
#include <hwloc.h>

#include "gd.h"
#include "log.h"
#include "sysfs.h"

#define PCI_VENDOR_NVIDIA 0x10de
#define PCI_BASE_CLASS_DISPLAY 0x03

static const char *const class_names[] = {
	[GD_LOC_X] = "X",     [GD_LOC_NV] = "NV",     [GD_LOC_PIX] = "PIX", [GD_LOC_PXB] = "PXB",
	[GD_LOC_PHB] = "PHB", [GD_LOC_NODE] = "NODE", [GD_LOC_SYS] = "SYS", [GD_LOC_NA] = "N/A",
};

const char *gd_loc_class_str(enum gd_loc_class c)
{
	return (size_t)c < GD_ARRAY_SIZE(class_names) ? class_names[c] : "?";
}

bool gd_loc_is_gpu(unsigned vendor, unsigned class16)
{
	return vendor == PCI_VENDOR_NVIDIA && (class16 >> 8) == PCI_BASE_CLASS_DISPLAY;
}

/* ---- the hwloc source ---- */

static bool is_gpu_memory(hwloc_obj_t numa)
{
	return numa->subtype && !strcmp(numa->subtype, "GPUMemory");
}

/*
 * A GPU's own memory node (Grace Hopper) sits in its package's nodeset but is
 * neither "NUMA Affinity" nor a reason to call two devices of one socket SYS.
 */
void gd_loc_hwloc_nodes(struct hwloc_topology *hw, void *obj, char *buf, size_t len)
{
	hwloc_obj_t o = obj, m = NULL;
	hwloc_bitmap_t set;

	buf[0] = '\0';
	if (!o || !o->nodeset || !(set = hwloc_bitmap_alloc()))
		return;
	while ((m = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, m)))
		if (!is_gpu_memory(m) && hwloc_bitmap_isset(o->nodeset, m->os_index))
			hwloc_bitmap_set(set, m->os_index);
	if (!hwloc_bitmap_iszero(set))
		hwloc_bitmap_list_snprintf(buf, len, set);
	hwloc_bitmap_free(set);
}

static void bridge_name(hwloc_obj_t b, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", b->attr->bridge.upstream.pci.domain,
		 b->attr->bridge.upstream.pci.bus, b->attr->bridge.upstream.pci.dev,
		 b->attr->bridge.upstream.pci.func);
}

/* Walk obj->parent (never hwloc's common-ancestor helper on I/O objects). */
static int place_hwloc(hwloc_topology_t hw, const char *busid, struct gd_loc_place *p)
{
	char chain[GD_PCI_CHAIN_MAX][GD_BDF_LEN];
	unsigned dom, bus, dev, fn;
	hwloc_obj_t o;
	int n = 0;

	if (sscanf(busid, "%x:%x:%x.%x", &dom, &bus, &dev, &fn) != 4)
		return -EINVAL;
	o = hwloc_get_pcidev_by_busid(hw, dom, bus, dev, fn);
	if (!o)
		return -ENOENT;
	for (o = o->parent; o && o->type == HWLOC_OBJ_BRIDGE; o = o->parent) {
		if (o->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST) {
			snprintf(p->host, sizeof(p->host), "pci%04x:%02x",
				 o->attr->bridge.downstream.pci.domain,
				 o->attr->bridge.downstream.pci.secondary_bus);
			continue;
		}
		if (n == GD_PCI_CHAIN_MAX)
			return -E2BIG;
		bridge_name(o, chain[n++], GD_BDF_LEN);
	}
	for (int i = 0; i < n; i++) /* root port first */
		memcpy(p->bridge[i], chain[n - 1 - i], GD_BDF_LEN);
	p->nbridges = n;
	gd_loc_hwloc_nodes(hw, o, p->nodes, sizeof(p->nodes));
	return 0;
}

/* ---- the sysfs source ---- */

void gd_loc_place_chain(const struct gd_pci_chain *c, int numa, struct gd_loc_place *p)
{
	memset(p, 0, sizeof(*p));
	p->known = c->n > 0;
	if (!p->known)
		return;
	snprintf(p->busid, sizeof(p->busid), "%s", c->bdf[c->n - 1]);
	snprintf(p->host, sizeof(p->host), "%s", c->host);
	p->nbridges = c->n - 1;
	for (int i = 0; i < p->nbridges; i++)
		memcpy(p->bridge[i], c->bdf[i], GD_BDF_LEN);
	if (numa >= 0)
		snprintf(p->nodes, sizeof(p->nodes), "%d", numa);
}

static int place_sysfs(const struct gd_machine *m, const char *busid, struct gd_loc_place *p)
{
	struct gd_pci_chain c;
	int ret = gd_pci_chain(m, busid, &c);

	if (!ret)
		gd_loc_place_chain(&c, gd_pci_numa(m, busid), p);
	return ret;
}

int gd_loc_place(const struct gd_loc_src *s, const char *busid, struct gd_loc_place *p)
{
	int ret;

	memset(p, 0, sizeof(*p));
	if (!busid || !*busid)
		return -ENOENT;
	ret = s->hw ? place_hwloc(s->hw, busid, p) : place_sysfs(s->m, busid, p);
	/* the name asked for, as the caller wrote it */
	snprintf(p->busid, sizeof(p->busid), "%s", busid);
	p->known = ret == 0;
	return ret;
}

/* ---- the classifier ---- */

static bool one_node(const char *nodes)
{
	return nodes[0] && !strpbrk(nodes, ",-");
}

/* Bridges both chains share, from the root port down. */
int gd_loc_common_bridges(const struct gd_loc_place *a, const struct gd_loc_place *b)
{
	int k = 0;

	if (strcmp(a->host, b->host))
		return 0;
	while (k < a->nbridges && k < b->nbridges && !strcmp(a->bridge[k], b->bridge[k]))
		k++;
	return k;
}

enum gd_loc_class gd_loc_classify(const struct gd_loc_place *a, const struct gd_loc_place *b)
{
	int k;

	if (!a->known || !b->known)
		return GD_LOC_NA;
	if (!strcmp(a->busid, b->busid))
		return GD_LOC_PIX;		     /* two devices on one PCI function */
	if (!a->host[0] || strcmp(a->host, b->host)) /* CPU side: one NUMA node or several */
		return one_node(a->nodes) && !strcmp(a->nodes, b->nodes) ? GD_LOC_NODE : GD_LOC_SYS;
	k = gd_loc_common_bridges(a, b);
	if (!k)
		return GD_LOC_PHB;
	/* bridges strictly below the deepest common one: one switch is one each */
	if (a->nbridges - k <= 1 && b->nbridges - k <= 1)
		return GD_LOC_PIX;
	return GD_LOC_PXB;
}

/* ---- the GPU listing ---- */

static int list_hwloc(hwloc_topology_t hw, char (*out)[GD_BDF_LEN], size_t max, size_t *n)
{
	hwloc_obj_t o = NULL;

	while ((o = hwloc_get_next_pcidev(hw, o))) {
		if (!gd_loc_is_gpu(o->attr->pcidev.vendor_id, o->attr->pcidev.class_id))
			continue;
		if (*n == max)
			return -E2BIG;
		snprintf(out[(*n)++], GD_BDF_LEN, "%04x:%02x:%02x.%x", o->attr->pcidev.domain,
			 o->attr->pcidev.bus, o->attr->pcidev.dev, o->attr->pcidev.func);
	}
	return 0;
}

static bool sysfs_is_gpu(const struct gd_machine *m, const char *bdf)
{
	uint64_t vendor, cls;

	return !gd_sysfs_read_u64(m, &vendor, "/sys/bus/pci/devices/%s/vendor", bdf) &&
	       !gd_sysfs_read_u64(m, &cls, "/sys/bus/pci/devices/%s/class", bdf) &&
	       gd_loc_is_gpu((unsigned)vendor, (unsigned)(cls >> 8));
}

/* A device entry that loops (a hostile tree) is ignored, and says so. */
static void warn_loop(const struct gd_machine *m, const char *bdf)
{
	char path[PATH_MAX];
	struct stat st;

	if (!gd_sysfs_path(m, path, sizeof(path), "/sys/bus/pci/devices/%s", bdf) &&
	    stat(path, &st) && errno == ELOOP)
		gd_warn("%s: %s; this PCI device is ignored", path, strerror(ELOOP));
}

static int count_pcidevs(const struct gd_loc_src *s, char ***names, size_t *n)
{
	hwloc_obj_t o = NULL;
	int ret;

	*names = NULL;
	*n = 0;
	if (s->hw) {
		while ((o = hwloc_get_next_pcidev(s->hw, o)))
			(*n)++;
		return 0;
	}
	ret = gd_sysfs_list(s->m, names, n, "/sys/bus/pci/devices");
	return ret == -ENOENT ? 0 : ret;
}

static int cmp_bdf(const void *a, const void *b)
{
	return strcmp(a, b);
}

int gd_loc_list_gpus(const struct gd_loc_src *s, char (**busids)[GD_BDF_LEN], size_t *count)
{
	char **names;
	size_t n, k = 0;
	int ret = count_pcidevs(s, &names, &n);

	*busids = NULL;
	*count = 0;
	if (ret)
		return ret;
	*busids = calloc(n ? n : 1, GD_BDF_LEN);
	if (!*busids) {
		gd_sysfs_free_list(names, names ? n : 0);
		return -ENOMEM;
	}
	if (s->hw) {
		ret = list_hwloc(s->hw, *busids, n, &k);
	} else {
		for (size_t i = 0; i < n; i++)
			if (sysfs_is_gpu(s->m, names[i]))
				snprintf((*busids)[k++], GD_BDF_LEN, "%s", names[i]);
			else
				warn_loop(s->m, names[i]);
		gd_sysfs_free_list(names, n);
	}
	/* NVML (and nvidia-smi) number GPUs in PCI order; hwloc lists them in tree order */
	if (k > 1)
		qsort(*busids, k, GD_BDF_LEN, cmp_bdf);
	*count = k;
	return ret;
}

/* ---- one machine: GPUs, NICs, decisions ---- */

static int add_dev(struct gd_locality *l, struct gd_loc_dev **devs, size_t *n, const char *name,
		   const char *busid)
{
	struct gd_loc_dev *v = realloc(*devs, (*n + 1) * sizeof(*v));

	if (!v)
		return -ENOMEM;
	*devs = v;
	v = &v[(*n)++];
	memset(v, 0, sizeof(*v));
	snprintf(v->name, sizeof(v->name), "%s", name);
	gd_loc_place(&l->src, busid, &v->place); /* unknown: N/A to everything */
	return 0;
}

int gd_loc_add_gpu(struct gd_locality *l, const char *busid)
{
	char name[24];

	snprintf(name, sizeof(name), "GPU%zu", l->ngpus);
	return add_dev(l, &l->gpus, &l->ngpus, name, busid);
}

int gd_loc_add_nic(struct gd_locality *l, const char *name, const char *busid)
{
	return add_dev(l, &l->nics, &l->nnics, name, busid);
}

int gd_loc_add_gpus(struct gd_locality *l)
{
	char(*bdfs)[GD_BDF_LEN];
	size_t n;
	int ret = gd_loc_list_gpus(&l->src, &bdfs, &n);

	for (size_t i = 0; i < n && !ret; i++)
		ret = gd_loc_add_gpu(l, bdfs[i]);
	free(bdfs);
	return ret;
}

int gd_loc_decide(struct gd_locality *l)
{
	free(l->cls);
	free(l->nic_for_gpu);
	l->cls = calloc(l->ngpus * l->nnics + 1, sizeof(*l->cls));
	l->nic_for_gpu = calloc(l->ngpus + 1, sizeof(*l->nic_for_gpu));
	if (!l->cls || !l->nic_for_gpu)
		return -ENOMEM;
	for (size_t g = 0; g < l->ngpus; g++)
		for (size_t k = 0; k < l->nnics; k++)
			l->cls[g * l->nnics + k] =
				gd_loc_classify(&l->gpus[g].place, &l->nics[k].place);
	gd_loc_assign(l->cls, l->ngpus, l->nnics, l->nic_for_gpu);
	return 0;
}

void gd_loc_free(struct gd_locality *l)
{
	free(l->gpus);
	free(l->nics);
	free(l->cls);
	free(l->nic_for_gpu);
	l->gpus = l->nics = NULL;
	l->cls = NULL;
	l->nic_for_gpu = NULL;
	l->ngpus = l->nnics = 0;
}

/* ---- the nearest-NIC rule ---- */

static enum gd_loc_class best_class(const enum gd_loc_class *row, size_t nnics, size_t *ncand)
{
	enum gd_loc_class best = GD_LOC_NA;

	*ncand = 0;
	for (size_t k = 0; k < nnics; k++) {
		if (row[k] == GD_LOC_NA)
			continue;
		if (row[k] < best) {
			best = row[k];
			*ncand = 0;
		}
		if (row[k] == best)
			(*ncand)++;
	}
	return best;
}

void gd_loc_assign(const enum gd_loc_class *cls, size_t ngpus, size_t nnics, int *nic_for_gpu)
{
	int *load = calloc(nnics + 1, sizeof(*load));

	for (size_t g = 0; g < ngpus; g++)
		nic_for_gpu[g] = -1;
	/* GPUs with one best NIC first, then those with two, ... */
	for (size_t want = 1; want <= nnics; want++) {
		for (size_t g = 0; g < ngpus; g++) {
			const enum gd_loc_class *row = cls + g * nnics;
			size_t ncand;
			enum gd_loc_class best = best_class(row, nnics, &ncand);
			int pick = -1;

			if (ncand != want || best == GD_LOC_NA)
				continue;
			for (size_t k = 0; k < nnics; k++)
				if (row[k] == best && (pick < 0 || (load && load[k] < load[pick])))
					pick = (int)k;
			nic_for_gpu[g] = pick;
			if (load)
				load[pick]++;
		}
	}
	free(load);
}

/* The visible GPU nearest to NIC k, first on ties; only those whose nearest NIC is k if mine. */
static int nearest_gpu(const struct gd_locality *l, size_t k, const bool *visible, bool mine)
{
	int pick = -1;

	for (size_t g = 0; g < l->ngpus; g++) {
		enum gd_loc_class c = gd_loc_gpu_nic(l, g, k);

		if ((visible && !visible[g]) || c == GD_LOC_NA ||
		    (mine && l->nic_for_gpu[g] != (int)k))
			continue;
		if (pick < 0 || c < gd_loc_gpu_nic(l, (size_t)pick, k))
			pick = (int)g;
	}
	return pick;
}

int gd_loc_gpu_for_nic(const struct gd_locality *l, size_t k, const bool *visible)
{
	int g;

	if (k >= l->nnics || !l->cls)
		return -1;
	g = nearest_gpu(l, k, visible, true);
	return g >= 0 ? g : nearest_gpu(l, k, visible, false);
}

int gd_loc_nic_by_name(const struct gd_locality *l, const char *name)
{
	for (size_t k = 0; k < l->nnics; k++)
		if (!strcmp(l->nics[k].name, name))
			return (int)k;
	return -1;
}

static bool same_busid(const char *a, const char *b)
{
	unsigned x[4], y[4];

	/* CUDA writes "00000000:18:00.0", sysfs and hwloc "0000:18:00.0" */
	return sscanf(a, "%x:%x:%x.%x", &x[0], &x[1], &x[2], &x[3]) == 4 &&
	       sscanf(b, "%x:%x:%x.%x", &y[0], &y[1], &y[2], &y[3]) == 4 &&
	       !memcmp(x, y, sizeof(x));
}

static int by_busid(const struct gd_loc_dev *d, size_t n, const char *busid)
{
	for (size_t i = 0; i < n; i++)
		if (d[i].place.busid[0] && same_busid(d[i].place.busid, busid))
			return (int)i;
	return -1;
}

int gd_loc_nic_by_busid(const struct gd_locality *l, const char *busid)
{
	return by_busid(l->nics, l->nnics, busid);
}

int gd_loc_gpu_by_busid(const struct gd_locality *l, const char *busid)
{
	return by_busid(l->gpus, l->ngpus, busid);
}

/* ---- advice ---- */

enum gd_loc_verdict gd_loc_path_verdict(enum gd_loc_class c)
{
	return c >= GD_LOC_FAR && c != GD_LOC_NA ? GD_LOC_WARN : GD_LOC_OK;
}

enum gd_loc_verdict gd_loc_numa_verdict(const char *a, const char *b)
{
	return a[0] && b[0] && strcmp(a, b) ? GD_LOC_WARN : GD_LOC_OK;
}

/* One link; parent "" for a device on the root complex (its own maximum only). */
static void judge_hop(const struct gd_machine *m, const char *child, const char *parent,
		      bool gpu_link, struct gd_loc_hop *h)
{
	struct gd_pcie_link p;

	memset(h, 0, sizeof(*h));
	snprintf(h->child, sizeof(h->child), "%s", child);
	snprintf(h->parent, sizeof(h->parent), "%s", parent);
	if (gd_pci_read_link(m, child, &h->link) || h->link.bad_file[0]) {
		/* a malformed speed is unknown, never a PASS */
		if (h->link.bad_file[0]) {
			struct gd_pcie_link bad = h->link;

			h->v = GD_LOC_WARN;
			snprintf(h->why, sizeof(h->why), "%s %s '%s' is not a PCIe rate", child,
				 bad.bad_file, bad.bad_text);
		}
		return;
	}
	h->want_gts = h->link.max_gts;
	h->want_width = h->link.max_width;
	/* the link trains to what both ends can do: a Gen5 card in a Gen4 slot is no fault */
	if (parent[0] && !gd_pci_read_link(m, parent, &p)) {
		if (p.max_gts && (!h->want_gts || p.max_gts < h->want_gts))
			h->want_gts = p.max_gts;
		if (p.max_width && (!h->want_width || p.max_width < h->want_width))
			h->want_width = p.max_width;
	}
	if (h->want_width && h->link.cur_width < h->want_width) {
		h->v = GD_LOC_BAD;
		snprintf(h->why, sizeof(h->why), "x%d, capable x%d", h->link.cur_width,
			 h->want_width);
	} else if (h->want_gts && h->link.cur_gts + 0.1 < h->want_gts) {
		/* an idle GPU lowers its link speed to save power: only a warning */
		h->v = gpu_link ? GD_LOC_WARN : GD_LOC_BAD;
		snprintf(h->why, sizeof(h->why), "%.1f GT/s (Gen%d), capable %.1f GT/s (Gen%d)",
			 h->link.cur_gts, gd_pcie_gen(h->link.cur_gts), h->want_gts,
			 gd_pcie_gen(h->want_gts));
	}
}

void gd_loc_judge_links(const struct gd_machine *m, const struct gd_loc_place *p, bool gpu,
			struct gd_loc_links *out)
{
	/* the device, then the bridges: root port, (switch upstream, downstream) pairs */
	const char *chain[GD_PCI_CHAIN_MAX + 1];
	int n = 0, step;

	memset(out, 0, sizeof(*out));
	out->worst = -1;
	if (!p->known)
		return;
	for (int i = 0; i < p->nbridges; i++)
		chain[n++] = p->bridge[i];
	chain[n++] = p->busid;
	/* a link joins chain[i-1] and chain[i] for every other i from the device up;
	 * an odd chain (unusual virtual bridges) is checked at every hop */
	step = n % 2 == 0 ? 2 : 1;
	for (int i = n - 1; i >= 0 && out->n < GD_PCI_CHAIN_MAX; i -= step) {
		struct gd_loc_hop *h = &out->hop[out->n];

		if (i == 0 && n > 1)
			break; /* the root port's own link is internal to the root complex */
		judge_hop(m, chain[i], i ? chain[i - 1] : "", gpu && i == n - 1, h);
		if (!h->link.known && !h->link.bad_file[0])
			continue;
		if (out->worst < 0 || h->v > out->hop[out->worst].v)
			out->worst = (int)out->n;
		out->n++;
	}
}
