/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * PCIe facts from sysfs (through sysfs.h): the bridge chain above a device,
 * the path class between two devices (nvidia-smi topo's PIX/PXB/PHB/NODE/SYS),
 * link speed and width, config space (ACS), BAR sizes, NUMA node.
 *
 * Path class, from the canonical sysfs path (/sys/devices/pci0000:17/A/B/C):
 *  - different host bridges: NODE if both report the same NUMA node, else SYS
 *    (SYS also when a NUMA node is unknown);
 *  - same host bridge, no common bridge: PHB;
 *  - a common bridge: PIX when each leg has one bridge below the common
 *    one (a single switch), PXB when more (several switches).
 * This is the rule nvidia-smi documents, applied to the sysfs tree; the
 * hwloc-based topology core (src/topo.h) supersedes it where it is present.
 *
 * Owner: the doctor feature (mk/doctor.am).
 */
#ifndef GD_PCIPATH_H
#define GD_PCIPATH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

#define GD_PCI_CHAIN_MAX 16
#define GD_BDF_LEN 16

struct gd_pci_chain {
	char host[32];                          /* "pci0000:17" */
	int n;                                  /* bridges + the device */
	char bdf[GD_PCI_CHAIN_MAX][GD_BDF_LEN]; /* root port first, the device last */
};

enum gd_path_class {
	GD_PATH_X, GD_PATH_PIX, GD_PATH_PXB, GD_PATH_PHB, GD_PATH_NODE, GD_PATH_SYS,
	GD_PATH_UNKNOWN,
};

const char *gd_path_class_str(enum gd_path_class c);
/* Split a canonical sysfs device path into its chain (exposed for tests). */
int gd_pci_parse_chain(const char *devpath, struct gd_pci_chain *c);
int gd_pci_chain(const struct gd_machine *m, const char *bdf, struct gd_pci_chain *c);
/* Index of the deepest common bridge in both chains, or -1. */
int gd_pci_common(const struct gd_pci_chain *a, const struct gd_pci_chain *b);
enum gd_path_class gd_pci_classify(const struct gd_pci_chain *a, const struct gd_pci_chain *b,
				   int numa_a, int numa_b);
enum gd_path_class gd_pci_path_class(const struct gd_machine *m, const char *bdf_a,
				     const char *bdf_b);
int gd_pci_numa(const struct gd_machine *m, const char *bdf); /* -1 unknown */

struct gd_pci_link {
	char cur_speed[32], max_speed[32]; /* sysfs text: "16.0 GT/s PCIe" */
	double cur_gts, max_gts;            /* 16.0; 0 unknown */
	int cur_width, max_width;           /* lanes; 0 unknown */
};

/* "16.0 GT/s PCIe" -> 16.0, "2.5 GT/s" -> 2.5, "Unknown" -> 0 */
double gd_parse_link_speed(const char *s);
int gd_pci_read_link(const struct gd_machine *m, const char *bdf, struct gd_pci_link *l);
/* PCIe generation of a transfer rate: 2.5->1 ... 64->6; 0 unknown */
int gd_pcie_gen(double gts);

/* Config space: reads as much as the kernel gives (64 bytes unless root). */
#define GD_PCI_CFG_SIZE 4096
int gd_pci_read_config(const struct gd_machine *m, const char *bdf, uint8_t *buf, size_t len,
		       size_t *got);
/* Offset of an extended capability (0x100 chain), -ENOENT absent, -EINVAL loop/garbage. */
int gd_pci_find_ext_cap(const uint8_t *cfg, size_t len, uint16_t id);
#define GD_PCI_EXT_CAP_ACS 0x000d
#define GD_ACS_SV 0x01 /* source validation */
#define GD_ACS_TB 0x02 /* translation blocking */
#define GD_ACS_RR 0x04 /* P2P request redirect */
#define GD_ACS_CR 0x08 /* P2P completion redirect */
#define GD_ACS_UF 0x10 /* upstream forwarding */
#define GD_ACS_EC 0x20 /* P2P egress control */
#define GD_ACS_DT 0x40 /* direct translated P2P */
/* ACS control register: 0, -ENOENT (no ACS capability), -EACCES (config
 * space truncated: extended space needs root). */
int gd_pci_acs_ctrl(const uint8_t *cfg, size_t len, uint16_t *ctrl);
/* "ReqRedir+ CmpltRedir+ UpstreamFwd+" style text of the bits that are set */
void gd_acs_str(uint16_t ctrl, char *buf, size_t len);

/* Size of the n-th non-empty memory resource (0-based) in .../resource. */
int gd_pci_mem_resource(const struct gd_machine *m, const char *bdf, int nth, uint64_t *size);

/* NVIDIA GPUs (vendor 0x10de, class 0x0300xx/0x0302xx), sorted by address. */
int gd_pci_list_gpus(const struct gd_machine *m, char (**bdfs)[GD_BDF_LEN], size_t *count);

#endif
