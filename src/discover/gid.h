/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * GID table entries: text parsing, reading a port's table from sysfs, and
 * THE rule for the GID a test uses (gd_gid_choose), which the benchmark
 * engine, gd_devinfo and gd_doctor all ask.
 */
#ifndef GD_GID_H
#define GD_GID_H

#include <sys/socket.h>

#include "rdma_types.h"

/* "IB", "RoCE v1", "RoCE v2", "unknown": the one namer of GID types. */
const char *gd_gid_type_str(enum gd_gid_type t);
/* The IPv4-mapped prefix (::ffff:0:0/96): the one such check. */
bool gd_gid_raw_is_v4mapped(const uint8_t raw[16]);

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

struct gd_gid_choice {
	int index;                /* the GID index; -1: none (InfiniBand, LID routing) */
	const struct gd_gid *gid; /* that entry of the port's table; NULL for -1 */
	bool routed;              /* it carries the source address of the route to the peer */
	char src_ip[GD_IP_LEN];   /* that source address; "" without a peer or a route */
	int route_err;            /* 0, or -errno of the route lookup (-ENETUNREACH) */
};

/*
 * The GID a test on this port uses (without -x):
 *  - InfiniBand (link layer not Ethernet): none, index -1 (LID routing);
 *  - with a peer: the RoCE v2 GID, netdev in this network namespace, whose
 *    address is the source address the kernel routes to the peer from
 *    (ch->routed);
 *  - else, or when no GID carries that address: among the RoCE v2 GIDs of
 *    family af (AF_INET: IPv4-mapped; AF_INET6: --ipv6) whose netdev is in
 *    this namespace, one that is not link-local first, then one on the
 *    port's own netdev, then the lowest index.
 * 0 with ch filled, or -ENOENT when a RoCE port has no such GID (ch->index
 * -1). The route lookup asks this machine's kernel (live only).
 */
int gd_gid_choose(const struct gd_port *port, const struct sockaddr *peer, int af,
		  struct gd_gid_choice *ch);
/* The entry of index in a port's table, or NULL (unused or unreadable). */
const struct gd_gid *gd_port_gid(const struct gd_port *port, int index);
/* The RoCE v2 GID (this namespace) whose address is src_ip, or -ENOENT. */
int gd_gid_index_for_source(const struct gd_port *port, const char *src_ip);
/* The source address the kernel would use to reach peer (UDP connect trick),
 * as a socket address or as text ("10.0.0.1"; IPv4-mapped IPv6 as IPv4). */
int gd_route_source_addr(const struct sockaddr *peer, struct sockaddr_storage *src);
int gd_route_source(const struct sockaddr *peer, char *ip, size_t len);

#endif
