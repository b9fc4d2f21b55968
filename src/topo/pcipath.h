/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * PCIe facts from sysfs (through sysfs.h): the bridge chain above a device
 * (from its canonical path, /sys/devices/pci0000:17/A/B/C), link speed and
 * width, config space (ACS), BAR sizes, NUMA node. Path classes and the
 * rules built on these facts live in locality.h.
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

/* Split a canonical sysfs device path into its chain (exposed for tests). */
int gd_pci_parse_chain(const char *devpath, struct gd_pci_chain *c);
int gd_pci_chain(const struct gd_machine *m, const char *bdf, struct gd_pci_chain *c);
int gd_pci_numa(const struct gd_machine *m, const char *bdf); /* -1 unknown */

/* A PCIe link as sysfs reports it (current_link_*, max_link_*). */
struct gd_pcie_link {
	bool known;              /* the current speed and width were read */
	double cur_gts, max_gts; /* GT/s; max 0 unknown */
	int cur_width, max_width; /* lanes; max 0 unknown */
	/* a speed file that is neither a rate nor "Unknown" ("nan GT/s"): its name and text */
	char bad_file[24], bad_text[48];
};

/* "32.0 GT/s PCIe" -> 32.0; -EINVAL if malformed ("Unknown"). */
int gd_pcie_parse_speed(const char *s, double *gts);
/* 0, or -errno when the current speed or width cannot be read (bad_* then
 * name a malformed speed file, also a malformed max_link_speed). */
int gd_pci_read_link(const struct gd_machine *m, const char *bdf, struct gd_pcie_link *l);
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


#endif
