/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * RDMA device discovery from sysfs (through sysfs.h, so fixture trees work):
 * HCAs, ports, GID tables, netdevs and bonds. Facts that only verbs can give
 * (max MTU, some IB attributes) are filled by gd_rdma_query_verbs() when a
 * live device is open; readers set the *_known flags so reports can say
 * what was left out.
 *
 * Owner: the devinfo feature (mk/discover.am). Other features consume it.
 */
#ifndef GD_RDMA_DEV_H
#define GD_RDMA_DEV_H

#include <net/if.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"
#include "rdma_types.h"

/* All RDMA devices, sorted by name. An empty list is not an error. */
int gd_rdma_discover(const struct gd_machine *m, struct gd_hca **hcas, size_t *count);
/* The same list without the ports (nports 0: no state, counters or GID table; an rxe
 * port's GID table is 1024 files): names, node type, firmware, GUIDs, PCI and driver,
 * for a caller that needs no more (gd_check's host facts). Freed by gd_rdma_free(). */
int gd_rdma_discover_brief(const struct gd_machine *m, struct gd_hca **hcas, size_t *count);
void gd_rdma_free(struct gd_hca *hcas, size_t count);
/* One device by name: -ENODEV if absent. */
int gd_rdma_read_hca(const struct gd_machine *m, const char *name, struct gd_hca *hca);
void gd_rdma_free_hca(struct gd_hca *hca);

/* Live only: open the device with libibverbs and fill MTUs etc. */
int gd_rdma_query_verbs(struct gd_hca *hca);

/* The bond a netdev is; -ENOENT when it is not a bond. Free with gd_bond_free() either way. */
int gd_bond_read(const struct gd_machine *m, const char *netdev, struct gd_bond *bond);
void gd_bond_free(struct gd_bond *bond);
/* Parsers exposed for unit tests: /proc/net/bonding/<bond> text. */
int gd_bond_parse_proc(const char *text, struct gd_bond *bond);

/* The IB MTU (256..4096 bytes) RoCE can use over a netdev MTU; 0 if none. */
int gd_rdma_roce_mtu(int netdev_mtu);
/*
 * The MTU advice, one value everywhere: jumbo frames (9000), what switches
 * and peers are usually set to; any netdev MTU from GD_ROCE_4096_MIN_MTU on
 * gives RoCE its 4096-byte path MTU. "ip link set DEV mtu 9000 (...)".
 */
#define GD_NETDEV_MTU_ADVICE 9000
#define GD_ROCE_4096_MIN_MTU (4096 + 96)
void gd_mtu_advice(const char *netdev, char *buf, size_t len);

/* The bond behind a port's netdev, or -ENOENT. */
int gd_port_bond(const struct gd_machine *m, const struct gd_port *port, struct gd_bond *bond);

/*
 * Parsers exposed for unit tests. Each returns 0 or -EINVAL on malformed
 * text and leaves its outputs alone on failure.
 */
/* "4: ACTIVE" -> 4, "ACTIVE" */
int gd_parse_numbered(const char *text, int *num, char *name, size_t len);
/* "200 Gb/sec (4X HDR)" -> 200.0, 4, "HDR"; "2.5 Gb/sec (1X SDR)" -> 2.5 */
int gd_parse_rate(const char *text, double *gbps, int *width, char *speed, size_t len);

#endif
