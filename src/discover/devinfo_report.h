/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_devinfo's report: the devices, their ports and GID tables, the netdev
 * map (ibdev2netdev form) and the bonds, as text or JSON Lines.
 */
#ifndef GD_DEVINFO_REPORT_H
#define GD_DEVINFO_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "devinfo_peer.h"
#include "rdma_dev.h"

enum gd_verbs_status {
	GD_VERBS_QUERIED,  /* every device answered */
	GD_VERBS_FIXTURE,  /* a sysfs tree was read: verbs facts left out */
	GD_VERBS_FAILED,   /* live, but at least one device could not be opened */
};

struct gd_devinfo {
	const struct gd_machine *m; /* the machine read */
	struct gd_hca *hcas;
	size_t nhcas;
	struct gd_bond *bonds;       /* the bonds behind the devices (all bonds without -d) */
	char (*bond_users)[256];     /* per bond: the RDMA devices over it, "" if none */
	size_t nbonds;
	enum gd_verbs_status verbs;
	char verbs_error[128];       /* the first failure, for GD_VERBS_FAILED */
	const struct gd_devinfo_peer *peer; /* --peer: reported too (set by the caller) */
};

/*
 * Discover everything (or one device with only_dev). -ENODEV when only_dev
 * does not exist; an empty device list is not an error. With query_verbs,
 * live devices are opened for verbs-only facts.
 */
int gd_devinfo_collect(const struct gd_machine *m, const char *only_dev, bool query_verbs,
		       struct gd_devinfo *di);
void gd_devinfo_free(struct gd_devinfo *di);

/* The number of files that could not be read or parsed, over all devices and bonds. */
size_t gd_devinfo_nerrors(const struct gd_devinfo *di);
/* One line per unreadable file on stderr, through gd_error(). */
void gd_devinfo_log_errors(const struct gd_devinfo *di);
/* Warnings about what was read: bond slaves down, ports not active. */
void gd_devinfo_log_warnings(const struct gd_devinfo *di);

void gd_devinfo_print_text(const struct gd_devinfo *di, FILE *out);
int gd_devinfo_print_json(const struct gd_devinfo *di, FILE *out);

#endif
