/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "config.h"

#include "topo.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>
#include <hwloc/export.h>

#include "gd.h"
#include "readfile.h"
#include "sysfs.h"

#define PCI_VENDOR_NVIDIA 0x10de
#define PCI_BASE_CLASS_DISPLAY 0x03

static const char *const link_names[] = {
	[GD_LINK_X] = "X",       [GD_LINK_NV] = "NV",     [GD_LINK_PIX] = "PIX",
	[GD_LINK_PXB] = "PXB",   [GD_LINK_PHB] = "PHB",   [GD_LINK_NODE] = "NODE",
	[GD_LINK_SYS] = "SYS",   [GD_LINK_NA] = "N/A",
};

const char *gd_link_str(enum gd_link l)
{
	return (size_t)l < GD_ARRAY_SIZE(link_names) ? link_names[l] : "?";
}

#if HWLOC_API_VERSION >= 0x00020800
#define TOPO_SKIP_FLAGS (HWLOC_TOPOLOGY_FLAG_NO_DISTANCES | HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS | \
			 HWLOC_TOPOLOGY_FLAG_NO_CPUKINDS)
#else
#define TOPO_SKIP_FLAGS 0
#endif

#define MAKE_XML "make one with 'lstopo --of xml' or 'gd_topo --export'"

static const char *const slow_components[] = { "opencl", "cuda", "nvml", "rsmi", "levelzero", "gl" };

/* hwloc's linux backend needs one of these under the root to find CPUs and NUMA nodes. */
static bool has_cpu_topology(const char *fsroot)
{
	static const char *const dirs[] = { "/sys/devices/system/cpu", "/sys/bus/cpu/devices" };
	char path[PATH_MAX];

	for (size_t i = 0; i < GD_ARRAY_SIZE(dirs); i++) {
		snprintf(path, sizeof(path), "%s%s", fsroot, dirs[i]);
		if (access(path, F_OK) == 0)
			return true;
	}
	return false;
}

/* pci_type="03xx [10de:...": the NVIDIA GPUs an hwloc XML text declares. */
static size_t count_xml_gpus(const char *xml)
{
	static const char key[] = "pci_type=\"03";
	size_t n = 0;

	for (const char *p = strstr(xml, key); p; p = strstr(p + 1, key))
		if (strlen(p) > 20 && strncasecmp(p + sizeof(key) + 1, " [10de:", 7) == 0)
			n++;
	return n;
}

/*
 * hwloc_topology_load() under the machine's root. hwloc 2.x has no call that
 * sets the Linux backend's root (hwloc_topology_set_fsroot() went in 2.0):
 * the backend reads $HWLOC_FSROOT when the load instantiates it. So it is set
 * for the load only and the caller's value (or its absence) is put back.
 */
static int load(hwloc_topology_t hw, const struct gd_topo_src *src)
{
	const char *old = getenv("HWLOC_FSROOT");
	char *saved = old ? strdup(old) : NULL;
	int ret, e;

	if (src->xml || !src->m->fixture)
		return hwloc_topology_load(hw);
	if (old && !saved)
		return -1;
	setenv("HWLOC_FSROOT", src->m->root, 1);
	ret = hwloc_topology_load(hw);
	e = errno;
	if (saved)
		setenv("HWLOC_FSROOT", saved, 1);
	else
		unsetenv("HWLOC_FSROOT");
	free(saved);
	errno = e;
	return ret;
}

int gd_topo_load(struct gd_topo *t, const struct gd_topo_src *src, char *err, size_t errlen)
{
	hwloc_topology_t hw;
	char *xml = NULL;
	size_t xmllen = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	/* read by gdperf's bounded reader, so that hwloc never reads a FIFO or /dev/zero */
	if (src->xml) {
		ret = gd_readfile_alloc(src->xml, GD_READ_CAP_TEXT, &xml, &xmllen);
		if (ret) {
			snprintf(err, errlen, "cannot read topology file %s: %s", src->xml,
				 gd_strerror(ret));
			return ret;
		}
		t->xml_nvidia_objs = count_xml_gpus(xml);
	}
	if (hwloc_topology_init(&hw)) {
		free(xml);
		return -ENOMEM;
	}
	/* keep every PCI function and bridge: NVSwitches (class 0x0680) would vanish otherwise */
	hwloc_topology_set_io_types_filter(hw, HWLOC_TYPE_FILTER_KEEP_ALL);
	/* caches are not needed and cost time on a live machine */
	hwloc_topology_set_cache_types_filter(hw, HWLOC_TYPE_FILTER_KEEP_NONE);
	hwloc_topology_set_icache_types_filter(hw, HWLOC_TYPE_FILTER_KEEP_NONE);
	/* a container's cpuset must not shrink "CPU Affinity"; distances, memory
	 * attributes and CPU kinds are not needed */
	hwloc_topology_set_flags(hw, HWLOC_TOPOLOGY_FLAG_INCLUDE_DISALLOWED | TOPO_SKIP_FLAGS);
	/* plugins that open GPU runtimes (OpenCL, CUDA, NVML, ROCm, oneAPI, X11) cost
	 * half a second on a GPU machine and add nothing the matrix needs */
	for (size_t i = 0; i < GD_ARRAY_SIZE(slow_components); i++)
		hwloc_topology_set_components(hw, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST,
					      slow_components[i]);
	if (src->xml) {
		if (hwloc_topology_set_xmlbuffer(hw, xml, (int)xmllen + 1)) {
			snprintf(err, errlen, "%s is not an hwloc XML topology (%s)", src->xml,
				 MAKE_XML);
			hwloc_topology_destroy(hw);
			free(xml);
			return -EINVAL;
		}
	} else if (src->m->fixture) {
		char bad[PATH_MAX];

		/* hwloc reads the tree with blocking reads of its own: refuse FIFOs first */
		ret = gd_readfile_check_tree(src->m->root, 1000000, bad, sizeof(bad));
		if (ret) {
			snprintf(err, errlen, "cannot read the sysfs tree %s: %s: %s",
				 src->m->root, bad, ret == -E2BIG ?
				 "more than a million entries" : gd_strerror(ret));
			hwloc_topology_destroy(hw);
			return ret;
		}
		/* hwloc's linux backend reads the fixture root (load_fsroot); the
		 * components that probe the real machine (libpciaccess, CPUID) stay out */
		if (!has_cpu_topology(src->m->root)) {
			/* hwloc would print "failed to find sysfs cpu topology directory"
			 * and fall back to this host's CPUs; the caller says it plainly */
			t->no_cpu_topology = true;
			setenv("HWLOC_HIDE_ERRORS", "2", 0);
		}
		hwloc_topology_set_components(hw, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "pci");
		hwloc_topology_set_components(hw, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
	}
	errno = 0;
	ret = load(hw, src);
	free(xml);
	if (ret) {
		int e = errno ? errno : EINVAL;

		if (src->xml) /* well-formed XML, but not a topology hwloc accepts */
			snprintf(err, errlen, "hwloc cannot load %s: %s; is it an hwloc XML "
				 "topology? (%s)", src->xml, strerror(e), MAKE_XML);
		else
			snprintf(err, errlen, "hwloc could not load the topology: %s", strerror(e));
		hwloc_topology_destroy(hw);
		return -e;
	}
	t->hw = hw;
	t->m = src->m;
	return 0;
}

void gd_topo_free(struct gd_topo *t)
{
	if (t->hw)
		hwloc_topology_destroy(t->hw);
	free(t->gpus);
	free(t->nics);
	free(t->cls);
	free(t->nvlinks);
	memset(t, 0, sizeof(*t));
}

int gd_topo_export_xml(struct gd_topo *t, const char *path)
{
	return hwloc_topology_export_xml(t->hw, path, 0) ? (errno ? -errno : -EIO) : 0;
}

static void obj_busid(hwloc_obj_t o, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", o->attr->pcidev.domain, o->attr->pcidev.bus,
		 o->attr->pcidev.dev, o->attr->pcidev.func);
}

static bool is_gpu_memory(hwloc_obj_t numa)
{
	return numa->subtype && !strcmp(numa->subtype, "GPUMemory");
}

/*
 * The CPU NUMA nodes of an object: a GPU's own memory node (Grace Hopper)
 * sits in its package's nodeset but is neither "NUMA Affinity" nor a reason
 * to call two devices of one socket SYS. Returns the node count.
 */
static int cpu_nodes(hwloc_topology_t hw, hwloc_obj_t o, hwloc_bitmap_t out)
{
	hwloc_obj_t m = NULL;

	hwloc_bitmap_zero(out);
	if (!o->nodeset)
		return 0;
	while ((m = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, m)))
		if (!is_gpu_memory(m) && hwloc_bitmap_isset(o->nodeset, m->os_index))
			hwloc_bitmap_set(out, m->os_index);
	return hwloc_bitmap_weight(out);
}

static void obj_affinity(const struct gd_topo *t, hwloc_obj_t o, char *cpus, size_t clen,
			 char *nodes, size_t nlen)
{
	hwloc_topology_t hw = t->hw;
	hwloc_obj_t anc = o ? hwloc_get_non_io_ancestor_obj(hw, o) : NULL;
	hwloc_bitmap_t set;

	if (t->no_cpu_topology || !anc || !anc->cpuset || !anc->nodeset ||
	    !(set = hwloc_bitmap_alloc())) {
		snprintf(cpus, clen, "N/A");
		snprintf(nodes, nlen, "N/A");
		return;
	}
	hwloc_bitmap_list_snprintf(cpus, clen, anc->cpuset);
	if (cpu_nodes(hw, anc, set) <= 0)
		snprintf(nodes, nlen, "N/A");
	else
		hwloc_bitmap_list_snprintf(nodes, nlen, set);
	hwloc_bitmap_free(set);
}

/* A NUMA node of GPU memory (Grace Hopper) names its GPU in PCIBusID. */
static int gpu_numa_id(hwloc_topology_t hw, const struct gd_busid *id)
{
	hwloc_obj_t n = NULL;

	while ((n = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, n))) {
		const char *bus = hwloc_obj_get_info_by_name(n, "PCIBusID");
		struct gd_busid nid;

		if (n->subtype && !strcmp(n->subtype, "GPUMemory") && bus &&
		    !gd_busid_parse(bus, &nid) && gd_busid_eq(&nid, id))
			return (int)n->os_index;
	}
	return -1;
}

static int cmp_gpu(const void *a, const void *b)
{
	return gd_busid_cmp(&((const struct gd_topo_gpu *)a)->id,
			    &((const struct gd_topo_gpu *)b)->id);
}

int gd_topo_find_gpus(struct gd_topo *t)
{
	hwloc_obj_t o = NULL;

	while ((o = hwloc_get_next_pcidev(t->hw, o))) {
		struct gd_topo_gpu *g, *v;

		if (o->attr->pcidev.vendor_id != PCI_VENDOR_NVIDIA ||
		    (o->attr->pcidev.class_id >> 8) != PCI_BASE_CLASS_DISPLAY)
			continue;
		v = realloc(t->gpus, (t->ngpus + 1) * sizeof(*v));
		if (!v)
			return -ENOMEM;
		t->gpus = v;
		g = &t->gpus[t->ngpus++];
		memset(g, 0, sizeof(*g));
		g->obj = o;
		g->device_id = o->attr->pcidev.device_id;
		obj_busid(o, g->busid, sizeof(g->busid));
		gd_busid_parse(g->busid, &g->id);
		obj_affinity(t, o, g->cpus, sizeof(g->cpus), g->nodes, sizeof(g->nodes));
		g->gpu_numa_id = gpu_numa_id(t->hw, &g->id);
	}
	/* NVML (and nvidia-smi) number GPUs in PCI order, hwloc lists them in tree order */
	if (t->ngpus > 1) /* qsort(NULL, 0) is undefined */
		qsort(t->gpus, t->ngpus, sizeof(*t->gpus), cmp_gpu);
	return 0;
}

int gd_topo_add_nic(struct gd_topo *t, const char *name, const char *busid, const char *extra)
{
	struct gd_topo_nic *n, *v;
	struct gd_busid id;

	v = realloc(t->nics, (t->nnics + 1) * sizeof(*v));
	if (!v)
		return -ENOMEM;
	t->nics = v;
	n = &t->nics[t->nnics++];
	memset(n, 0, sizeof(*n));
	snprintf(n->name, sizeof(n->name), "%s", name);
	snprintf(n->legend_extra, sizeof(n->legend_extra), "%s", extra ? extra : "");
	if (busid && *busid && !gd_busid_parse(busid, &id)) {
		n->obj = hwloc_get_pcidev_by_busid(t->hw, id.domain, id.bus, id.dev, id.fn);
		gd_busid_format(&id, n->busid, sizeof(n->busid));
	}
	obj_affinity(t, n->obj, (char[256]){ 0 }, 256, n->nodes, sizeof(n->nodes));
	return 0;
}

int gd_topo_find_nics_hwloc(struct gd_topo *t)
{
	hwloc_obj_t o = NULL;
	int ret;

	while ((o = hwloc_get_next_osdev(t->hw, o))) {
		char busid[24] = "";

		if (o->attr->osdev.type != HWLOC_OBJ_OSDEV_OPENFABRICS || !o->name)
			continue;
		if (o->parent && o->parent->type == HWLOC_OBJ_PCI_DEVICE)
			obj_busid(o->parent, busid, sizeof(busid));
		ret = gd_topo_add_nic(t, o->name, busid,
				      busid[0] ? NULL : "no PCI device: link classes unknown");
		if (ret)
			return ret;
	}
	gd_topo_sort_nics(t);
	return 0;
}

static int cmp_nic(const void *a, const void *b)
{
	/* natural order, as gd_rdma_discover: mlx5_2 before mlx5_10 */
	return strverscmp(((const struct gd_topo_nic *)a)->name,
			  ((const struct gd_topo_nic *)b)->name);
}

void gd_topo_sort_nics(struct gd_topo *t)
{
	if (t->nnics > 1) /* qsort(NULL, 0) is undefined */
		qsort(t->nics, t->nnics, sizeof(*t->nics), cmp_nic);
}

/* Bridges strictly between an object and its ancestor top. */
static int bridges_below(hwloc_obj_t o, hwloc_obj_t top)
{
	int n = 0;

	for (o = o->parent; o && o != top; o = o->parent)
		if (o->type == HWLOC_OBJ_BRIDGE)
			n++;
	return n;
}

/* The lowest common ancestor, by walking parents (never hwloc's helper on I/O objects). */
static hwloc_obj_t lowest_common(hwloc_obj_t a, hwloc_obj_t b)
{
	for (hwloc_obj_t x = a->parent; x; x = x->parent)
		for (hwloc_obj_t y = b->parent; y; y = y->parent)
			if (x == y)
				return x;
	return NULL;
}

enum gd_link gd_topo_classify_objs(hwloc_topology_t hw, hwloc_obj_t a, hwloc_obj_t b)
{
	hwloc_bitmap_t set;
	hwloc_obj_t l;
	int nodes;

	if (!a || !b)
		return GD_LINK_NA;
	if (a == b)
		return GD_LINK_PIX; /* two devices on one PCI function */
	l = lowest_common(a, b);
	if (!l)
		return GD_LINK_NA;
	if (l->type == HWLOC_OBJ_BRIDGE) {
		if (l->attr->bridge.upstream_type == HWLOC_OBJ_BRIDGE_HOST)
			return GD_LINK_PHB;
		if (bridges_below(a, l) <= 1 && bridges_below(b, l) <= 1)
			return GD_LINK_PIX;
		return GD_LINK_PXB;
	}
	if (l->type == HWLOC_OBJ_PCI_DEVICE)
		return GD_LINK_PIX;
	/* CPU side: one NUMA node or several */
	if (!(set = hwloc_bitmap_alloc()))
		return GD_LINK_NA;
	nodes = cpu_nodes(hw, l, set);
	hwloc_bitmap_free(set);
	return nodes > 1 ? GD_LINK_SYS : GD_LINK_NODE;
}

static hwloc_obj_t dev_obj(const struct gd_topo *t, size_t i)
{
	return i < t->ngpus ? t->gpus[i].obj : t->nics[i - t->ngpus].obj;
}

bool gd_topo_busid_is_gpu(const struct gd_busid *id, void *ctx)
{
	const struct gd_topo *t = ctx;

	for (size_t i = 0; i < t->ngpus; i++)
		if (gd_busid_eq(&t->gpus[i].id, id))
			return true;
	return false;
}

int gd_topo_classify(struct gd_topo *t, const struct gd_nvlinks *nv, bool pci_only)
{
	size_t n = t->ngpus + t->nnics;

	free(t->cls);
	free(t->nvlinks);
	t->cls = calloc(n * n + 1, sizeof(*t->cls));
	t->nvlinks = calloc(n * n + 1, sizeof(*t->nvlinks));
	if (!t->cls || !t->nvlinks)
		return -ENOMEM;
	t->pci_only = pci_only;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			enum gd_link c = i == j ? GD_LINK_X : gd_topo_classify_objs(t->hw, dev_obj(t, i), dev_obj(t, j));
			int links = 0;

			if (i != j && i < t->ngpus && j < t->ngpus && nv)
				links = gd_nvlink_count(nv, &t->gpus[i].id, &t->gpus[j].id,
							gd_topo_busid_is_gpu, t);
			t->nvlinks[i * n + j] = links;
			if (links > 0 && !pci_only)
				c = GD_LINK_NV;
			t->cls[i * n + j] = c;
		}
	}
	return 0;
}

void gd_topo_cell(const struct gd_topo *t, size_t i, size_t j, char *buf, size_t len)
{
	enum gd_link c = gd_topo_cls(t, i, j);

	if (c == GD_LINK_NV)
		snprintf(buf, len, "NV%d", gd_topo_nv(t, i, j));
	else
		snprintf(buf, len, "%s", gd_link_str(c));
}

int gd_pcie_parse_speed(const char *s, double *gts)
{
	char *end;
	double v = strtod(s, &end);

	if (end == s || v <= 0 || strncmp(end, " GT/s", 5))
		return -EINVAL;
	*gts = v;
	return 0;
}

static int read_link_max(const struct gd_machine *m, const char *busid, double *gts, int *width)
{
	char buf[64];

	if (gd_sysfs_read_str(m, buf, sizeof(buf), "/sys/bus/pci/devices/%s/max_link_speed",
			      busid) ||
	    gd_pcie_parse_speed(buf, gts) ||
	    gd_sysfs_read_int(m, width, "/sys/bus/pci/devices/%s/max_link_width", busid))
		return -ENOENT;
	return 0;
}

/* The PCI bridge port above a device in the hwloc tree ("" at a host bridge). */
static int parent_port(hwloc_obj_t o, char *port, size_t len)
{
	hwloc_obj_t p = o ? o->parent : NULL;

	if (!p || p->type != HWLOC_OBJ_BRIDGE || p->attr->bridge.upstream_type != HWLOC_OBJ_BRIDGE_PCI)
		return -ENOENT;
	snprintf(port, len, "%04x:%02x:%02x.%x", p->attr->bridge.upstream.pci.domain,
		 p->attr->bridge.upstream.pci.bus, p->attr->bridge.upstream.pci.dev,
		 p->attr->bridge.upstream.pci.func);
	return 0;
}

static void read_link(const struct gd_machine *m, const char *busid, hwloc_obj_t obj,
		      struct gd_pcie_link *l)
{
	char buf[64], port[64];
	double pgts;
	int pwidth;

	memset(l, 0, sizeof(*l));
	if (!busid[0])
		return;
	if (gd_sysfs_read_str(m, buf, sizeof(buf), "/sys/bus/pci/devices/%s/current_link_speed",
			      busid) ||
	    gd_pcie_parse_speed(buf, &l->cur_gts) ||
	    gd_sysfs_read_int(m, &l->cur_width, "/sys/bus/pci/devices/%s/current_link_width",
			      busid) ||
	    read_link_max(m, busid, &l->max_gts, &l->max_width))
		return;
	/* the link can run no faster than the port above it allows */
	if (!parent_port(obj, port, sizeof(port)) && !read_link_max(m, port, &pgts, &pwidth)) {
		l->max_gts = GD_MIN(l->max_gts, pgts);
		l->max_width = GD_MIN(l->max_width, pwidth);
	}
	l->known = l->cur_width > 0 && l->max_width > 0;
}

void gd_topo_read_links(struct gd_topo *t)
{
	for (size_t i = 0; i < t->ngpus; i++)
		read_link(t->m, t->gpus[i].busid, t->gpus[i].obj, &t->gpus[i].link);
	for (size_t i = 0; i < t->nnics; i++)
		read_link(t->m, t->nics[i].busid, t->nics[i].obj, &t->nics[i].link);
}
