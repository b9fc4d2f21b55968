/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* GID table entries: text parsing and reading a port's table from sysfs. */
#ifndef GD_GID_H
#define GD_GID_H

#include "rdma_dev.h"

/*
 * Parse a GID as sysfs prints it ("fe80:0000:...:0001", eight groups of four
 * hex digits) into gid->gid (normalised to lower case), gid->ip, gid->ipv4
 * and gid->link_local. Returns 0, -ENODATA for the all-zero (unused) GID, or
 * -EINVAL for malformed text.
 */
int gd_gid_parse(const char *text, struct gd_gid *gid);

/*
 * Parse gid_attrs/types/N ("IB/RoCE v1", "RoCE v2"). The kernel prints
 * "IB/RoCE v1" both for InfiniBand and RoCE v1 GIDs: the port's link layer
 * tells them apart. -EINVAL for anything else.
 */
int gd_gid_parse_type(const char *text, const char *link_layer, enum gd_gid_type *type);

/*
 * Read ports/<port>/gids/N with their types and netdevs. Unused (all-zero)
 * entries are skipped; unreadable or malformed ones are recorded in errs.
 */
int gd_gid_read_table(const struct gd_machine *m, const char *dev, struct gd_port *port,
		      struct gd_read_errors *errs);

#endif
