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

#include "gd.h"
#include "log.h"
#include "readfile.h"
#include "sysfs.h"

#if HWLOC_API_VERSION >= 0x00020800
#define TOPO_SKIP_FLAGS (HWLOC_TOPOLOGY_FLAG_NO_DISTANCES | HWLOC_TOPOLOGY_FLAG_NO_MEMATTRS | \
			 HWLOC_TOPOLOGY_FLAG_NO_CPUKINDS)
#else
#define TOPO_SKIP_FLAGS 0
#endif

#define MAKE_XML "make one with 'lstopo --of xml' or 'gd_topo --export'"

/*
 * Components kept out of every load. The GPU runtimes' plugins (OpenCL, CUDA,
 * NVML, ROCm, oneAPI, X11) cost half a second on a GPU machine and add nothing
 * the matrix needs. libpciaccess ("pci") enumerates the same PCI tree the
 * linux backend reads from sysfs, but also parses pci.ids for names nothing
 * here prints: under ASan that took 27 s per load and left 600 KB behind in a
 * plugin hwloc unloads (hostile.sh under make distcheck timed out on it).
 */
static const char *const slow_components[] = { "opencl", "cuda", "nvml", "rsmi", "levelzero", "gl",
					       "pci" };

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
static int load(hwloc_topology_t hw, const struct gd_topo_src *src, struct gd_topo *t)
{
	const char *old = getenv("HWLOC_FSROOT");
	char *saved = old ? strdup(old) : NULL;
	int ret, e;

	if (src->xml || !src->m->fixture) {
		free(saved);
		return src->xml ? gd_topo_load_recorded(hw, t) : hwloc_topology_load(hw);
	}
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

const char *gd_topo_env_override(void)
{
	static const char *const vars[] = { "HWLOC_XMLFILE", "HWLOC_SYNTHETIC" };

	for (size_t i = 0; i < GD_ARRAY_SIZE(vars); i++)
		if (getenv(vars[i]))
			return vars[i];
	return NULL;
}

/*
 * What hwloc will read, checked first: the XML is read by gdperf's bounded
 * reader (hwloc then parses the buffer), and a fixture tree must hold no FIFO,
 * device or huge file, since hwloc's own reads of it would block or run on.
 */
static int check_input(struct gd_topo *t, const struct gd_topo_src *src, char **xml,
		       size_t *xmllen, char *err, size_t errlen)
{
	char bad[PATH_MAX];
	int ret;

	if (src->xml) {
		ret = gd_readfile_alloc(src->xml, GD_READ_CAP_TEXT, xml, xmllen);
		if (ret) {
			snprintf(err, errlen, "cannot read topology file %s: %s", src->xml,
				 gd_strerror(ret));
			return ret;
		}
		t->xml_nvidia_objs = count_xml_gpus(*xml);
		return 0;
	}
	if (gd_topo_env_override()) { /* hwloc would read it unchecked (a FIFO blocked for ever) */
		snprintf(err, errlen, "%s is set in the environment: hwloc would read it instead of "
			 "this machine, unchecked; give the file as --topology FILE, or unset %s",
			 gd_topo_env_override(), gd_topo_env_override());
		return -EINVAL;
	}
	if (!src->m->fixture)
		return 0;
	ret = gd_readfile_check_tree(src->m->root, 1000000, bad, sizeof(bad));
	if (ret)
		snprintf(err, errlen, "cannot read the sysfs tree %s: %s: %s", src->m->root, bad,
			 ret == -E2BIG ? "more than a million entries" : gd_strerror(ret));
	return ret;
}

int gd_topo_load(struct gd_topo *t, const struct gd_topo_src *src, char *err, size_t errlen)
{
	hwloc_topology_t hw;
	char *xml = NULL;
	size_t xmllen = 0;
	int ret;

	memset(t, 0, sizeof(*t));
	ret = check_input(t, src, &xml, &xmllen, err, errlen);
	if (ret)
		return ret;
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
		/* hwloc's linux backend reads the fixture root (load_fsroot); the
		 * component that probes the real machine's CPUs (CPUID) stays out */
		if (!has_cpu_topology(src->m->root)) {
			/* hwloc would print "failed to find sysfs cpu topology directory"
			 * and fall back to this host's CPUs; the caller says it plainly */
			t->no_cpu_topology = true;
			setenv("HWLOC_HIDE_ERRORS", "2", 0);
		}
		hwloc_topology_set_components(hw, HWLOC_TOPOLOGY_COMPONENTS_FLAG_BLACKLIST, "x86");
	}
	errno = 0;
	ret = load(hw, src, t);
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
	return src->xml ? gd_topo_records_check(t, src->xml, err, errlen) : 0;
}

void gd_topo_free(struct gd_topo *t)
{
	if (t->hw)
		hwloc_topology_destroy(t->hw);
	gd_loc_free(&t->loc);
	free(t->gpus);
	free(t->nics);
	free(t->cls);
	free(t->nvlinks);
	free(t->rec.v);
	memset(t, 0, sizeof(*t));
}

int gd_topo_open_locality(struct gd_topo *t, const struct gd_machine *m, const char *xml,
			  char *err, size_t errlen)
{
	struct gd_topo_src src = { xml, m };
	int ret;

	t->m = m;
	t->loc.src.m = m;
	if (!xml && m->fixture) {
		t->loc.src.hw = NULL; /* a fixture tree: its PCI tree and numa_node files */
		return 0;
	}
	if (!t->hw) {
		ret = gd_topo_load(t, &src, err, errlen);
		if (ret && xml)
			return ret;
		if (ret) /* this machine without hwloc: the sysfs tree still answers */
			gd_debug("%s; locality from the sysfs PCI tree", err);
	}
	t->loc.src.hw = t->hw;
	return 0;
}

static void obj_busid(hwloc_obj_t o, char *buf, size_t len)
{
	snprintf(buf, len, "%04x:%02x:%02x.%x", o->attr->pcidev.domain, o->attr->pcidev.bus,
		 o->attr->pcidev.dev, o->attr->pcidev.func);
}

static void obj_affinity(const struct gd_topo *t, hwloc_obj_t o, char *cpus, size_t clen,
			 char *nodes, size_t nlen)
{
	hwloc_obj_t anc = o ? hwloc_get_non_io_ancestor_obj(t->hw, o) : NULL;

	if (t->no_cpu_topology || !anc || !anc->cpuset || !anc->nodeset) {
		snprintf(cpus, clen, "N/A");
		snprintf(nodes, nlen, "N/A");
		return;
	}
	hwloc_bitmap_list_snprintf(cpus, clen, anc->cpuset);
	gd_loc_hwloc_nodes(t->hw, anc, nodes, nlen);
	if (!nodes[0])
		snprintf(nodes, nlen, "N/A");
}

/* A NUMA node of GPU memory (Grace Hopper) names its GPU in PCIBusID. */
static int gpu_numa_id(hwloc_topology_t hw, const struct gd_busid *id)
{
	hwloc_obj_t n = NULL;

	while (hw && (n = hwloc_get_next_obj_by_type(hw, HWLOC_OBJ_NUMANODE, n))) {
		const char *bus = hwloc_obj_get_info_by_name(n, "PCIBusID");
		struct gd_busid nid;

		if (n->subtype && !strcmp(n->subtype, "GPUMemory") && bus &&
		    !gd_busid_parse(bus, &nid) && gd_busid_eq(&nid, id))
			return (int)n->os_index;
	}
	return -1;
}

static hwloc_obj_t pci_obj(hwloc_topology_t hw, const struct gd_busid *id)
{
	return hw ? hwloc_get_pcidev_by_busid(hw, id->domain, id->bus, id->dev, id->fn) : NULL;
}

/* The GPUs of the locality source (one listing), with hwloc's affinity. */
int gd_topo_find_gpus(struct gd_topo *t)
{
	char (*bdfs)[GD_BDF_LEN];
	size_t n;
	int ret = gd_loc_list_gpus(&t->loc.src, &bdfs, &n);

	if (ret)
		return ret;
	t->gpus = calloc(n + 1, sizeof(*t->gpus));
	if (!t->gpus) {
		free(bdfs);
		return -ENOMEM;
	}
	for (size_t i = 0; i < n; i++) {
		struct gd_topo_gpu *g = &t->gpus[t->ngpus++];

		snprintf(g->busid, sizeof(g->busid), "%s", bdfs[i]);
		gd_busid_parse(g->busid, &g->id);
		g->obj = pci_obj(t->hw, &g->id);
		obj_affinity(t, g->obj, g->cpus, sizeof(g->cpus), g->nodes, sizeof(g->nodes));
		g->gpu_numa_id = gpu_numa_id(t->hw, &g->id);
	}
	free(bdfs);
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
		n->obj = pci_obj(t->hw, &id);
		gd_busid_format(&id, n->busid, sizeof(n->busid));
	}
	obj_affinity(t, n->obj, (char[256]){ 0 }, 256, n->nodes, sizeof(n->nodes));
	return 0;
}

bool gd_topo_nics_from_xml(const struct gd_machine *m, const char *xml)
{
	return xml && !(m->fixture && gd_sysfs_exists(m, "/sys/class/infiniband"));
}

/* The recorded NICs, in their recorded order (gd_topo sorted them before exporting). */
static int add_recorded_nics(struct gd_topo *t)
{
	int ret = 0;

	for (size_t i = 0; i < t->rec.n && !ret; i++)
		ret = gd_topo_add_nic(t, t->rec.v[i].name, t->rec.v[i].busid, t->rec.v[i].legend);
	return ret;
}

int gd_topo_find_nics_hwloc(struct gd_topo *t)
{
	hwloc_obj_t o = NULL;
	int ret;

	if (t->rec.declared) /* the NICs as gd_topo found them on the machine */
		return add_recorded_nics(t);
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

static const struct gd_loc_place *dev_place(const struct gd_topo *t, size_t i)
{
	return i < t->ngpus ? &t->loc.gpus[i].place : &t->loc.nics[i - t->ngpus].place;
}

enum gd_loc_class gd_topo_pcie_cls(const struct gd_topo *t, size_t i, size_t j)
{
	return i == j ? GD_LOC_X : gd_loc_classify(dev_place(t, i), dev_place(t, j));
}

/* The locality module's view of the listed devices, and its decisions. */
static int decide(struct gd_topo *t)
{
	struct gd_loc_src src = t->loc.src;
	int ret = 0;

	gd_loc_free(&t->loc);
	t->loc.src = src;
	for (size_t i = 0; i < t->ngpus && !ret; i++)
		ret = gd_loc_add_gpu(&t->loc, t->gpus[i].busid);
	for (size_t k = 0; k < t->nnics && !ret; k++)
		ret = gd_loc_add_nic(&t->loc, t->nics[k].name, t->nics[k].busid);
	return ret ? ret : gd_loc_decide(&t->loc);
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
	if (!t->cls || !t->nvlinks || decide(t))
		return -ENOMEM;
	t->pci_only = pci_only;
	for (size_t i = 0; i < n; i++) {
		for (size_t j = 0; j < n; j++) {
			enum gd_loc_class c = gd_topo_pcie_cls(t, i, j);
			int links = 0;

			if (i != j && i < t->ngpus && j < t->ngpus && nv)
				links = gd_nvlink_count(nv, &t->gpus[i].id, &t->gpus[j].id,
							gd_topo_busid_is_gpu, t);
			t->nvlinks[i * n + j] = links;
			if (links > 0 && !pci_only)
				c = GD_LOC_NV;
			t->cls[i * n + j] = c;
		}
	}
	return 0;
}

void gd_topo_cell(const struct gd_topo *t, size_t i, size_t j, char *buf, size_t len)
{
	enum gd_loc_class c = gd_topo_cls(t, i, j);

	if (c == GD_LOC_NV)
		snprintf(buf, len, "NV%d", gd_topo_nv(t, i, j));
	else
		snprintf(buf, len, "%s", gd_loc_class_str(c));
}

/* Judge every link up to the root port; keep the device's own for the report. */
static void read_links(const struct gd_machine *m, const struct gd_loc_place *p, bool gpu,
		       struct gd_pcie_link *l, struct gd_loc_links *links)
{
	gd_loc_judge_links(m, p, gpu, links);
	memset(l, 0, sizeof(*l));
	if (!links->n || strcmp(links->hop[0].child, p->busid))
		return;
	*l = links->hop[0].link;
	/* the link can run no faster than the port above it allows */
	l->max_gts = links->hop[0].want_gts;
	l->max_width = links->hop[0].want_width;
	l->known = l->max_width > 0 && l->max_gts > 0;
}

void gd_topo_read_links(struct gd_topo *t)
{
	for (size_t i = 0; i < t->ngpus; i++)
		read_links(t->m, &t->loc.gpus[i].place, true, &t->gpus[i].link, &t->gpus[i].links);
	for (size_t i = 0; i < t->nnics; i++)
		read_links(t->m, &t->loc.nics[i].place, false, &t->nics[i].link, &t->nics[i].links);
	t->links_read = true;
}
