/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The counters of one RDMA port and of its netdev, sampled before and after a run
 * (through sysfs.h, so a fixture tree stands in for the machine):
 *
 *   /sys/class/infiniband/DEV/ports/N/counters/FILE     the IBTA port counters
 *   /sys/class/infiniband/DEV/ports/N/hw_counters/FILE   the driver's (mlx5, rxe, ...)
 *   /sys/class/net/NETDEV/statistics/FILE               the port's netdev (RoCE), or rxe's
 *   ethtool -S NETDEV (and of each slave of a bond)      the driver's statistics: mlx5's PFC
 *                                                        pause, discards, pause storms, ...
 *
 * The ethtool statistics are read with the SIOCETHTOOL ioctl (ethtool_stats.c, no privilege
 * needed); on a fixture machine from ROOT/ethtool/NETDEV/NAME, one file a statistic holding
 * its value (what `ethtool -S NETDEV` prints), so a test can move one as it moves sysfs's.
 * Per-queue statistics (rx3_packets, tx_queue_0_bytes, ch7_events, ...) are left out: the
 * port's totals say the same, and a 64-channel mlx5 has thousands. A statistic the netdev's
 * statistics/ directory has too (rx_dropped, ...) is read there only.
 *
 * and the one table that says which of them are errors (gd_pc_class): a counter of the
 * error class that moved during a run means packets were lost, retried or corrupted (a PFC
 * pause storm's error event, a lossless priority's discards among them); a congestion one
 * (pause frames, ECN, CNP) and an informational one (data, packets) are reported, never
 * judged. A name that is not in the table is informational.
 */
#ifndef GD_PORT_COUNTERS_H
#define GD_PORT_COUNTERS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

enum gd_pc_source { GD_PC_PORT, GD_PC_HW, GD_PC_NETDEV, GD_PC_ETHTOOL, GD_PC_NSRC };
/* INFO: traffic or state, reported; CONGESTION: flow control and congestion notification
 * (PFC and pause frames, ECN marks, CNPs), reported ahead of traffic, never judged: on a
 * lossless RoCE fabric they are congestion handled, not loss; ERROR: judged. */
enum gd_pc_class { GD_PC_INFO, GD_PC_ERROR, GD_PC_CONGESTION };

#define GD_PC_NAME 48

/* One counter file: its value, or why it could not be read (err, a negative errno). */
struct gd_pc_value {
	char name[GD_PC_NAME];
	enum gd_pc_source src;
	char ifname[IF_NAMESIZE];	/* netdev and ethtool: the interface (a bond's slave) */
	uint64_t v;
	int err;		/* 0: v is the value */
};

struct gd_pc_sample {
	char dev[64];
	int port;
	char netdev[IF_NAMESIZE];	/* "" when the port has none */
	struct gd_pc_value *v;
	size_t n;
	bool has[GD_PC_NSRC];		/* the directory of that source exists */
	bool soft;			/* a software device (rxe, siw: no PCI parent) */
};

/* What changed between two samples of one port. */
struct gd_pc_delta {
	char name[GD_PC_NAME];
	enum gd_pc_source src;
	enum gd_pc_class cls;
	char ifname[IF_NAMESIZE];	/* netdev and ethtool: the interface, else "" */
	const char *why;	/* the table's reason for cls */
	uint64_t delta;		/* after - before */
	int err;		/* not readable in one of the samples: not judged (a negative errno) */
	bool went_back;		/* after < before: reset or wrapped during the run, not judged */
};

/* Sample every counter of port (1..) of device dev and of its netdev: 0, -ENODEV when the
 * device or port is not there (s is then empty). Free with gd_pc_free. */
int gd_pc_sample(const struct gd_machine *m, const char *dev, int port, struct gd_pc_sample *s);
void gd_pc_free(struct gd_pc_sample *s);
/* The counters of after with their change since before (a counter in one sample only is
 * unreadable, -ENOENT): *d malloc'ed, n entries. 0 or -ENOMEM. */
int gd_pc_deltas(const struct gd_pc_sample *before, const struct gd_pc_sample *after,
		 struct gd_pc_delta **d, size_t *n);
/* The class of a counter by its file name, with the reason (never NULL). On a software
 * device (soft: rxe, siw) the counters of retransmissions an ACK timer started
 * (local_ack_timeout_err, completer_retry_err, duplicate_request, ...) are informational:
 * its timer runs on the host's CPU and fires on a slow host without any loss (measured:
 * rxe0 loopback under QEMU TCG, duplicate_request +1598 in 4 s, no qdisc, no drop). */
enum gd_pc_class gd_pc_class(const char *name, bool soft, const char **why);
/* The error counters of the table, space-separated, for messages. */
void gd_pc_error_names(char *buf, size_t len);
/* "counters", "hw_counters", "netdev", "ethtool" */
const char *gd_pc_source_name(enum gd_pc_source s);

/* The ethtool statistics of one interface, live (SIOCETHTOOL: ETHTOOL_GSSET_INFO,
 * ETHTOOL_GSTRINGS, ETHTOOL_GSTATS on an AF_INET socket): *names (ETH_GSTRING_LEN bytes
 * each, NUL-terminated, trailing blanks cut) and *vals malloc'ed, n entries. 0; -ENODEV no
 * such interface; -EOPNOTSUPP the driver has none (lo); another negative errno. */
#define GD_ETHTOOL_NAME 32
int gd_ethtool_stats(const char *ifname, char (**names)[GD_ETHTOOL_NAME], uint64_t **vals,
		     size_t *n);
/* A per-queue statistic (rx3_packets, tx_queue_0_bytes, ch7_events): not sampled. */
bool gd_ethtool_per_queue(const char *name);

#endif
