/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The machine matrix of GPUs and RDMA NICs for gd_topo: hwloc (the live
 * machine, a fixture sysfs root, or an hwloc XML file) for CPU and NUMA
 * affinity, NVLink counts, and the path classes and nearest NICs that the
 * locality module (locality.h) decides.
 */
#ifndef GD_TOPO_H
#define GD_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <hwloc.h>

#include "locality.h"
#include "nvlink.h"

struct gd_topo_gpu {
	char busid[24];          /* "0000:18:00.0" */
	struct gd_busid id;
	hwloc_obj_t obj;
	char cpus[256];          /* CPU affinity, "0-47,96-143" */
	char nodes[64];          /* NUMA affinity, "0" */
	int gpu_numa_id;         /* GPU memory NUMA node (Grace Hopper), -1: N/A */
	struct gd_pcie_link link; /* its own link; max: what both ends can do */
	struct gd_loc_links links; /* every link up to the root port (advice) */
};

struct gd_topo_nic {
	char name[64];           /* RDMA device, "mlx5_bond_0" */
	char busid[24];          /* PCI function placing it (PF0 of a LAG); "" if none */
	hwloc_obj_t obj;         /* that PCI function, NULL when absent */
	char legend_extra[192];  /* "bond0: reth0 reth1", "no PCI device, over veth0" */
	char nodes[64];
	struct gd_pcie_link link;
	struct gd_loc_links links;
};

/* A NIC as gd_topo recorded it in an XML it exported (topo_record.c). */
struct gd_topo_rec_nic {
	char name[64], busid[24], legend[192];
};
struct gd_topo_records {
	bool declared;       /* the XML carries gdperf's NIC list (gdperf.nics) */
	size_t want, n;      /* the count it declares; the records read */
	struct gd_topo_rec_nic *v;
	char bad[128];       /* why a record is not one gd_topo writes; "" if none */
};

struct gd_topo {
	hwloc_topology_t hw;
	const struct gd_machine *m; /* whose sysfs the links and NICs are read from */
	struct gd_topo_gpu *gpus;
	size_t ngpus;
	struct gd_topo_nic *nics;
	size_t nnics;
	/* where the devices are and what is decided about them (same order) */
	struct gd_locality loc;
	/* (ngpus + nnics)^2 matrices, GPUs first, filled by gd_topo_classify() */
	enum gd_loc_class *cls;
	int *nvlinks;
	bool pci_only;
	/* a --sysfs-root tree without sys/devices/system/cpu: hwloc knows no
	 * CPUs or NUMA nodes there, so affinities are N/A (the classes come
	 * from the sysfs PCI tree and numa_node) */
	bool no_cpu_topology;
	bool links_read; /* PCIe link files were read (not for an XML alone) */
	/* sysfs files of the RDMA devices that could not be read or parsed */
	size_t nic_read_errors;
	/* --topology: NVIDIA display-class PCI objects in the XML text; fewer GPUs
	 * than this after loading means hwloc dropped garbled ones */
	size_t xml_nvidia_objs;
	/* --topology: the NICs gd_topo --export recorded in the XML */
	struct gd_topo_records rec;
};

/* The hwloc variable set in the environment that would make a load read something other than
 * the machine (HWLOC_XMLFILE, HWLOC_SYNTHETIC), unchecked and unnamed; NULL when none is. */
const char *gd_topo_env_override(void);

struct gd_topo_src {
	const char *xml;       /* hwloc XML instead of the live machine */
	const struct gd_machine *m; /* the machine; hwloc reads its root when no XML */
};

/* Load hwloc: 0 or -errno; err says why. Without an XML, an hwloc variable that makes hwloc
 * read something other than the machine (gd_topo_env_override) is refused: -EINVAL. */
int gd_topo_load(struct gd_topo *t, const struct gd_topo_src *src, char *err, size_t errlen);
/*
 * The locality source every tool uses (one rule): an hwloc XML when given;
 * else, under a fixture root, the rooted sysfs PCI tree; else hwloc on this
 * machine, or the sysfs tree when hwloc cannot load. Loads hwloc when it is
 * needed and not loaded yet. 0, or -errno with err set (a bad XML).
 */
int gd_topo_open_locality(struct gd_topo *t, const struct gd_machine *m, const char *xml,
			  char *err, size_t errlen);
void gd_topo_free(struct gd_topo *t);
/* Write the loaded hwloc topology as XML, with t's NICs recorded in it (topo_record.c). */
int gd_topo_export_xml(struct gd_topo *t, const char *path);
/* hwloc_topology_load() of an XML, reading the NIC records into t->rec (topo_record.c). */
int gd_topo_load_recorded(hwloc_topology_t hw, struct gd_topo *t);
/* After gd_topo_load_recorded(): 0, or -EINVAL with err naming xml and the damage. */
int gd_topo_records_check(const struct gd_topo *t, const char *xml, char *err, size_t errlen);

/* GPUs: NVIDIA (0x10de) display/3D controllers, sorted by PCI address. */
int gd_topo_find_gpus(struct gd_topo *t);
/* Whether the NICs come from the XML's OpenFabrics devices (an XML without a
 * fixture RDMA tree beside it) rather than the RDMA device reader. */
bool gd_topo_nics_from_xml(const struct gd_machine *m, const char *xml);
/* NICs of an XML replayed alone: the list gd_topo --export recorded in it (software
 * RDMA devices and bond legends included), else hwloc's OpenFabrics OS devices (their
 * names and PCI parents: an lstopo export). */
int gd_topo_find_nics_hwloc(struct gd_topo *t);
/* Add a NIC by name and PCI address ("" or NULL: no PCI parent). */
int gd_topo_add_nic(struct gd_topo *t, const char *name, const char *busid, const char *extra);
/* Natural order of NIC names: mlx5_2 < mlx5_10. */
void gd_topo_sort_nics(struct gd_topo *t);

/* Fill the matrices and decide the nearest NICs; NVLink counts override GPU
 * pairs unless pci_only. */
int gd_topo_classify(struct gd_topo *t, const struct gd_nvlinks *nv, bool pci_only);
/* The PCIe class of a pair, under any NVLink. */
enum gd_loc_class gd_topo_pcie_cls(const struct gd_topo *t, size_t i, size_t j);
/* Whether id is one of t's GPUs (ctx: the struct gd_topo), for gd_nvlink_count/validate. */
bool gd_topo_busid_is_gpu(const struct gd_busid *id, void *ctx);

/* Matrix cells, i and j index GPUs first then NICs. */
static inline enum gd_loc_class gd_topo_cls(const struct gd_topo *t, size_t i, size_t j)
{
	return t->cls[i * (t->ngpus + t->nnics) + j];
}
static inline int gd_topo_nv(const struct gd_topo *t, size_t i, size_t j)
{
	return t->nvlinks[i * (t->ngpus + t->nnics) + j];
}
/* "NV18", "PIX", "X", "N/A" */
void gd_topo_cell(const struct gd_topo *t, size_t i, size_t j, char *buf, size_t len);

/* Read and judge the PCIe links of every device (after gd_topo_classify). */
void gd_topo_read_links(struct gd_topo *t);

/*
 * The topology pipeline, composed once for gd_topo, gd_check and gd_doctor:
 * each asks for the steps it wants; they run in this order.
 */
enum gd_topo_step {
	GD_TOPO_LOAD = 1 << 0,     /* hwloc: the XML, or the machine's root */
	GD_TOPO_LOCALITY = 1 << 1, /* the locality source (gd_topo_open_locality) */
	GD_TOPO_GPUS = 1 << 2,     /* NVIDIA GPUs (gd_topo_find_gpus) */
	GD_TOPO_NICS = 1 << 3,     /* the RDMA device reader, or the XML's OpenFabrics devices */
	GD_TOPO_CLASSIFY = 1 << 4, /* path classes and nearest NICs (nv, pci_only) */
	GD_TOPO_LINKS = 1 << 5,    /* PCIe link files: the machine or a fixture, not an XML alone */
	GD_TOPO_ADVICE = 1 << 6,   /* the advice (adv) */
};
struct gd_topo_advice;
struct gd_topo_want {
	unsigned steps;			/* enum gd_topo_step, or'ed */
	const struct gd_machine *m;
	const char *xml;		/* --topology, NULL: the machine */
	const struct gd_nvlinks *nv;	/* CLASSIFY: NVLink counts, NULL: none */
	bool pci_only;			/* CLASSIFY: PCIe classes only */
	struct gd_topo_advice *adv;	/* ADVICE: filled */
};
/* Run w's steps on t (steps already run stay done: a caller may stop between
 * two calls, e.g. to check NVLink counts against the GPUs found). 0, or
 * -errno with *failed the step that failed and err saying why. */
int gd_topo_discover(struct gd_topo *t, const struct gd_topo_want *w, enum gd_topo_step *failed,
		     char *err, size_t errlen);

#endif
