/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The counters of one RDMA port and of its netdev, sampled before and after a run
 * (through sysfs.h, so a fixture tree stands in for the machine):
 *
 *   /sys/class/infiniband/DEV/ports/N/counters/FILE     the IBTA port counters
 *   /sys/class/infiniband/DEV/ports/N/hw_counters/FILE   the driver's (mlx5, rxe, ...)
 *   /sys/class/net/NETDEV/statistics/FILE               the port's netdev (RoCE), or rxe's
 *
 * and the one table that says which of them are errors (gd_pc_class): a counter of the
 * error class that moved during a run means packets were lost, retried or corrupted; an
 * informational one (data, packets, congestion notifications, pause frames) is reported,
 * never judged. A name that is not in the table is informational.
 */
#ifndef GD_PORT_COUNTERS_H
#define GD_PORT_COUNTERS_H

#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

enum gd_pc_source { GD_PC_PORT, GD_PC_HW, GD_PC_NETDEV, GD_PC_NSRC };
enum gd_pc_class { GD_PC_INFO, GD_PC_ERROR };

#define GD_PC_NAME 48

/* One counter file: its value, or why it could not be read (err, a negative errno). */
struct gd_pc_value {
	char name[GD_PC_NAME];
	enum gd_pc_source src;
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
/* "counters", "hw_counters", "netdev" */
const char *gd_pc_source_name(enum gd_pc_source s);

#endif
