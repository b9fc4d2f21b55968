/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * PCIe/NUMA topology of GPUs and RDMA NICs, from hwloc (the live machine,
 * a fixture sysfs root, or an hwloc XML file), classified like
 * `nvidia-smi topo -m`: X, NV#, PIX, PXB, PHB, NODE, SYS.
 *
 * Link classes come from our own walk up obj->parent (hwloc's
 * hwloc_get_common_ancestor_obj() must not be used on I/O objects).
 */
#ifndef GD_TOPO_H
#define GD_TOPO_H

#include <stdbool.h>
#include <stddef.h>
#include <hwloc.h>

#include "machine.h"
#include "nvlink.h"

enum gd_link {
	GD_LINK_X,    /* the device itself */
	GD_LINK_NV,   /* NVLink (GPU pairs; the count is separate) */
	GD_LINK_PIX,  /* at most one PCIe bridge */
	GD_LINK_PXB,  /* several bridges, below the host bridge */
	GD_LINK_PHB,  /* a PCIe host bridge */
	GD_LINK_NODE, /* host bridges within one NUMA node */
	GD_LINK_SYS,  /* the SMP interconnect between NUMA nodes */
	GD_LINK_NA,   /* unknown: a device without a PCI parent (rxe, siw) */
};

const char *gd_link_str(enum gd_link l); /* "PIX"; "NV" for GD_LINK_NV */

/* A PCIe link as sysfs reports it; known=false when the files are absent. */
struct gd_pcie_link {
	bool known;
	double cur_gts, max_gts; /* GT/s */
	int cur_width, max_width;
};

struct gd_topo_gpu {
	char busid[24];          /* "0000:18:00.0" */
	struct gd_busid id;
	hwloc_obj_t obj;
	char cpus[256];          /* CPU affinity, "0-47,96-143" */
	char nodes[64];          /* NUMA affinity, "0" */
	int gpu_numa_id;         /* GPU memory NUMA node (Grace Hopper), -1: N/A */
	unsigned short device_id;
	struct gd_pcie_link link;
};

struct gd_topo_nic {
	char name[64];           /* RDMA device, "mlx5_bond_0" */
	char busid[24];          /* PCI function placing it (PF0 of a LAG); "" if none */
	hwloc_obj_t obj;         /* that PCI function, NULL when absent */
	char legend_extra[192];  /* "bond0: reth0 reth1", "no PCI device, over veth0" */
	char nodes[64];
	struct gd_pcie_link link;
};

struct gd_topo {
	hwloc_topology_t hw;
	const struct gd_machine *m; /* whose sysfs the links and NICs are read from */
	struct gd_topo_gpu *gpus;
	size_t ngpus;
	struct gd_topo_nic *nics;
	size_t nnics;
	/* (ngpus + nnics)^2 matrices, GPUs first, filled by gd_topo_classify() */
	enum gd_link *cls;
	int *nvlinks;
	bool pci_only;
	/* a --sysfs-root tree without sys/devices/system/cpu: hwloc knows no
	 * CPUs or NUMA nodes there, so affinities are N/A and NODE may be SYS */
	bool no_cpu_topology;
	/* sysfs files of the RDMA devices that could not be read or parsed */
	size_t nic_read_errors;
	/* --topology: NVIDIA display-class PCI objects in the XML text; fewer GPUs
	 * than this after loading means hwloc dropped garbled ones */
	size_t xml_nvidia_objs;
};

struct gd_topo_src {
	const char *xml;       /* hwloc XML instead of the live machine */
	const struct gd_machine *m; /* the machine; hwloc reads its root when no XML */
};

/* Load hwloc: 0 or -errno; err says why. */
int gd_topo_load(struct gd_topo *t, const struct gd_topo_src *src, char *err, size_t errlen);
void gd_topo_free(struct gd_topo *t);
/* Write the loaded hwloc topology as XML. */
int gd_topo_export_xml(struct gd_topo *t, const char *path);

/* GPUs: NVIDIA (0x10de) display/3D controllers, sorted by PCI address. */
int gd_topo_find_gpus(struct gd_topo *t);
/* NICs from hwloc's OpenFabrics OS devices (their names and PCI parents). */
int gd_topo_find_nics_hwloc(struct gd_topo *t);
/* Add a NIC by name and PCI address ("" or NULL: no PCI parent). */
int gd_topo_add_nic(struct gd_topo *t, const char *name, const char *busid, const char *extra);
/* Natural order of NIC names: mlx5_2 < mlx5_10. */
void gd_topo_sort_nics(struct gd_topo *t);

/* Class of two PCI objects (or NULL for "no PCI parent"). */
enum gd_link gd_topo_classify_objs(hwloc_topology_t hw, hwloc_obj_t a, hwloc_obj_t b);
/* Fill the matrices; NVLink counts override GPU pairs unless pci_only. */
int gd_topo_classify(struct gd_topo *t, const struct gd_nvlinks *nv, bool pci_only);
/* Whether id is one of t's GPUs (ctx: the struct gd_topo), for gd_nvlink_count/validate. */
bool gd_topo_busid_is_gpu(const struct gd_busid *id, void *ctx);

/* Matrix cells, i and j index GPUs first then NICs. */
static inline enum gd_link gd_topo_cls(const struct gd_topo *t, size_t i, size_t j)
{
	return t->cls[i * (t->ngpus + t->nnics) + j];
}
static inline int gd_topo_nv(const struct gd_topo *t, size_t i, size_t j)
{
	return t->nvlinks[i * (t->ngpus + t->nnics) + j];
}
/* "NV18", "PIX", "X", "N/A" */
void gd_topo_cell(const struct gd_topo *t, size_t i, size_t j, char *buf, size_t len);

/* Read current/max PCIe link speed and width through sysfs.h. */
void gd_topo_read_links(struct gd_topo *t);
/* "32.0 GT/s PCIe" -> 32.0; -EINVAL if malformed. */
int gd_pcie_parse_speed(const char *s, double *gts);

#endif
