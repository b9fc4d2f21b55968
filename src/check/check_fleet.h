/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The fleet view of a test between ranks (mpirun/srun): besides the per-pair table, the
 * distribution of the pairs' results (median, min, max, count) and the outliers, the pairs
 * more than the spec's `fleet: outlier` percent worse than the median (below it for
 * bandwidth, above it for latency), each named by host, NIC and GPU (or host memory) of
 * both ends. Each outlier is a FAIL of that pair with the evidence (value, median, %); the
 * table, JSON (record "check_fleet") and JUnit carry them. As ClusterKit's "x % below the
 * average" and nccl-tests' straggler analysis, against the median (one slow pair does not
 * move it).
 */
#ifndef GD_CHECK_FLEET_H
#define GD_CHECK_FLEET_H

#include <stdbool.h>
#include <stdio.h>

#include "check.h"

struct gd_ck_fleet_end {
	int rank;
	char host[64], nic[64], mem[32];	/* "gd-vm" "rxe0" "host" / "GPU3" */
};

/* One pair of a test: server and client, and the judged number (bandwidth, latency). */
struct gd_ck_fleet_pair {
	struct gd_ck_fleet_end end[2];
	bool ok;		/* measured */
	double value;		/* Gb/s (bandwidth) or us (latency) */
	double worse_pct;	/* how much worse than the median, in % (< 0: better) */
};

struct gd_ck_fleet_stats {
	size_t count;		/* measured pairs */
	double median, min, max;
};

/* One test's view, kept for --json. */
struct gd_ck_fleet_test {
	char test[GD_CK_NAME];
	bool bw;		/* bandwidth: higher is better */
	double pct;		/* outlier threshold, 0: off */
	struct gd_ck_fleet_stats st;
	struct gd_ck_fleet_pair *outliers;
	size_t nout;
};

struct gd_ck_fleet {
	struct gd_ck_fleet_test *v;
	size_t n, cap;
};

/* The distribution of the measured pairs: 0, or -ENODATA when none was measured. */
int gd_ck_fleet_stats(const struct gd_ck_fleet_pair *p, size_t n, struct gd_ck_fleet_stats *st);
/* How much worse than median v is, in percent (bw: below it; latency: above it). */
double gd_ck_fleet_worse(bool bw, double v, double median);
/*
 * Judge test t's pairs against their median (rank 0): a "TEST: fleet" item (the distribution;
 * FAIL when a pair is an outlier, SKIP with fewer than two pairs) and one FAIL item per
 * outlier; the view is kept in r->fleet and printed to out (NULL: not).
 */
void gd_ck_fleet_judge(struct gd_ck_report *r, const struct gd_ck_test *t, double pct,
		       struct gd_ck_fleet_pair *p, size_t n, FILE *out);
int gd_ck_fleet_json(const struct gd_ck_fleet *f, FILE *out);
void gd_ck_fleet_free(struct gd_ck_fleet *f);

#endif
