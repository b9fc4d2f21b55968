/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check under mpirun/srun: every node checked once. The lowest rank on each host runs
 * the spec's node checks there (the ladder's rungs 1 to 6: gd_doctor, devices, manifest,
 * topology, the tests on one node); rank 0 gathers them into its report, each item
 * carrying its node (named "HOST: ..." when the launch spans several hosts); every rank
 * agrees on the lowest failed rung, so the tests between ranks (rung 7) run on all ranks or
 * on none.
 */
#ifndef GD_CHECK_NODES_H
#define GD_CHECK_NODES_H

#include <stdbool.h>

#include "check.h"

struct gd_ck_nodes {
	bool leader;		/* this rank checks its node */
	int nhosts;		/* hosts of the launch */
	int host_index;		/* this rank's host among them (0: rank 0's) */
	int deadline_ms;	/* the gather's: the slowest node's estimate, and slack */
	bool failed;		/* a rank's node checks ended with an error (its code) */
};

/* A collective: which rank checks which host; est_s is this node's estimated seconds.
 * 0, or -ETIMEDOUT / -ENOMEM (the launch is broken). */
int gd_ck_nodes_start(struct gd_ck_nodes *nd, const char *host, double est_s);
/* A collective after the node checks (ret: this rank's result): rank 0 appends every other
 * node's items and NIC x memory matrix cells (r->matrix, each cell marked with its node) to r; every rank's r->failed_rung becomes the fleet's lowest; nd->failed
 * says whether a rank's node checks ended with an error. 0, or -ETIMEDOUT / -ENOMEM. */
int gd_ck_nodes_gather(struct gd_ck_nodes *nd, struct gd_ck_report *r, int ret);

#endif
