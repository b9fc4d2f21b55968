/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Locality: where GPUs and RDMA NICs sit, and every rule that follows from
 * it. gd_topo prints these verdicts, gd_doctor wraps them with evidence and
 * --use_cuda=auto asks them; nothing else classifies a path.
 *
 *  - one path class (nvidia-smi topo's X, NV#, PIX, PXB, PHB, NODE, SYS);
 *  - one classifier over a "place" (root complex, bridge chain, NUMA nodes)
 *    that either source fills: hwloc (the live machine or an XML file) or
 *    the rooted sysfs PCI tree (fixture roots, or when hwloc cannot load);
 *  - one GPU listing, one nearest-NIC rule (ties shared evenly), one rule for
 *    the GPU --use_cuda=auto takes for a NIC;
 *  - one set of advice thresholds: a path from PHB on, a NUMA mismatch, and
 *    any PCIe link on the bridge chain trained below what both ends can do.
 */
#ifndef GD_LOCALITY_H
#define GD_LOCALITY_H

#include <stdbool.h>
#include <stddef.h>

#include "machine.h"
#include "pcipath.h"

struct hwloc_topology;

/* Nearer first: comparisons rank paths. NA: a device without a PCI place. */
enum gd_loc_class {
	GD_LOC_X,    /* the device itself */
	GD_LOC_NV,   /* NVLink between GPUs (the count is separate) */
	GD_LOC_PIX,  /* at most one PCIe bridge (a single switch) */
	GD_LOC_PXB,  /* several bridges, below the host bridge */
	GD_LOC_PHB,  /* a PCIe host bridge (one root complex) */
	GD_LOC_NODE, /* host bridges within one NUMA node */
	GD_LOC_SYS,  /* the SMP interconnect between NUMA nodes */
	GD_LOC_NA,   /* unknown: no PCI parent (rxe, siw) or not found */
};

const char *gd_loc_class_str(enum gd_loc_class c); /* "PIX"; "NV" for GD_LOC_NV; "N/A" */

/* The first class the advice warns about (see doc/architecture.md). */
#define GD_LOC_FAR GD_LOC_PHB

/* Where a PCI function sits. */
struct gd_loc_place {
	bool known;
	char busid[GD_BDF_LEN]; /* "0000:18:00.0" */
	char host[32];		/* root complex, "pci0000:17" */
	int nbridges;
	char bridge[GD_PCI_CHAIN_MAX][GD_BDF_LEN]; /* root port first */
	char nodes[64];				   /* CPU NUMA node(s), "0"; "" unknown */
};

/* The source: hwloc when hw is set, else the rooted sysfs PCI tree of m.
 * m is also whose sysfs the PCIe link files are read from. */
struct gd_loc_src {
	const struct gd_machine *m;
	struct hwloc_topology *hw;
};

int gd_loc_place(const struct gd_loc_src *s, const char *busid, struct gd_loc_place *p);
/* The sysfs source's place from a parsed chain (numa -1: unknown); for tests too. */
void gd_loc_place_chain(const struct gd_pci_chain *c, int numa, struct gd_loc_place *p);
enum gd_loc_class gd_loc_classify(const struct gd_loc_place *a, const struct gd_loc_place *b);
/* Bridges two places share, counted from the root port (0: none, or other root complexes). */
int gd_loc_common_bridges(const struct gd_loc_place *a, const struct gd_loc_place *b);

/* NVIDIA GPUs (vendor 0x10de, base class 0x03) of the source, in PCI order. */
int gd_loc_list_gpus(const struct gd_loc_src *s, char (**busids)[GD_BDF_LEN], size_t *count);
bool gd_loc_is_gpu(unsigned vendor, unsigned class16);
/* The CPU NUMA nodes near an hwloc object ("" unknown); GPU memory nodes excluded. */
void gd_loc_hwloc_nodes(struct hwloc_topology *hw, void *obj, char *buf, size_t len);

struct gd_loc_dev {
	char name[64]; /* "GPU0", "mlx5_0" */
	struct gd_loc_place place;
};

/* GPUs and NICs of one machine and the decisions about them. */
struct gd_locality {
	struct gd_loc_src src;
	struct gd_loc_dev *gpus, *nics;
	size_t ngpus, nnics;
	enum gd_loc_class *cls; /* ngpus x nnics, filled by gd_loc_decide */
	int *nic_for_gpu;	/* index into nics, -1 none */
};

int gd_loc_add_gpu(struct gd_locality *l, const char *busid);
/* busid "" or NULL: a NIC without a PCI place (never nearest). */
int gd_loc_add_nic(struct gd_locality *l, const char *name, const char *busid);
/* Every GPU of the source. */
int gd_loc_add_gpus(struct gd_locality *l);
/* Classify every GPU/NIC pair and choose each GPU's nearest NIC. */
int gd_loc_decide(struct gd_locality *l);
void gd_loc_free(struct gd_locality *l);

static inline enum gd_loc_class gd_loc_gpu_nic(const struct gd_locality *l, size_t g, size_t k)
{
	return l->cls[g * l->nnics + k];
}

/*
 * Nearest NIC per GPU over a GPU x NIC class matrix: the best class wins;
 * GPUs with a single best NIC take it first, the others the least loaded of
 * their best NICs (lowest index on ties), so equally near NICs are shared.
 */
void gd_loc_assign(const enum gd_loc_class *cls, size_t ngpus, size_t nnics, int *nic_for_gpu);
/*
 * --use_cuda=auto: the GPU for NIC k: of the GPUs whose nearest NIC is k,
 * the nearest (first on ties); else the GPU nearest to k (first on ties). visible: GPUs that may be
 * chosen (NULL: all). -1 when none.
 */
int gd_loc_gpu_for_nic(const struct gd_locality *l, size_t k, const bool *visible);
int gd_loc_nic_by_name(const struct gd_locality *l, const char *name);
int gd_loc_nic_by_busid(const struct gd_locality *l, const char *busid);
int gd_loc_gpu_by_busid(const struct gd_locality *l, const char *busid);

/* ---- advice: one set of thresholds ---- */

enum gd_loc_verdict { GD_LOC_OK, GD_LOC_WARN, GD_LOC_BAD };

/* A GPU's nearest NIC: OK up to PXB, WARN from GD_LOC_FAR on. */
enum gd_loc_verdict gd_loc_path_verdict(enum gd_loc_class c);
/* Two devices' NUMA nodes: WARN when both are known and differ. */
enum gd_loc_verdict gd_loc_numa_verdict(const char *a, const char *b);

/* One PCIe link: the child is the upstream-facing end, the parent the port above it. */
struct gd_loc_hop {
	char child[GD_BDF_LEN], parent[GD_BDF_LEN]; /* parent "" on the root complex */
	struct gd_pcie_link link;		    /* the child's */
	double want_gts;			    /* what both ends can do */
	int want_width;
	enum gd_loc_verdict v;
	char why[200]; /* "" when OK */
};

struct gd_loc_links {
	size_t n;
	struct gd_loc_hop hop[GD_PCI_CHAIN_MAX];
	int worst; /* index of the worst hop, -1 none judged */
};

/*
 * Every link from the device up to its root port (the chain of the place,
 * link files from sysfs): narrower than both ends can do is BAD; slower is
 * BAD, except on a GPU's own link (an idle GPU downshifts): WARN.
 */
void gd_loc_judge_links(const struct gd_machine *m, const struct gd_loc_place *p, bool gpu,
			struct gd_loc_links *out);

#endif
