/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check's one judge (doc/check.md). Sections measure; they never decide. Each check is
 * an item (its name, the measured and expected values as text, the reproducing command)
 * plus a measurement: the comparator and the numbers, or why it cannot be judged, or that
 * the work could not run. gd_ck_judge() alone sets the item's status and writes its message.
 *
 *   section --(item text + struct gd_ck_meas)--> gd_ck_judge() --> PASS FAIL SKIP ERROR
 *
 * PASS   the comparator holds, on a measurement the noise guard trusts
 * FAIL   it does not, or it holds on a doubtful measurement (retried like a missed
 *        threshold): the hardware or the machine misses the spec (exit 1); a device, GPU or
 *        host the spec names and this machine lacks is a FAIL, not a SKIP
 * SKIP   it cannot be judged here, for a reason of enum gd_ck_skip (one list, one text each);
 *        an item whose rung a lower failed rung stopped (it->blocked_by) is SKIP "not run:
 *        rung N (NAME) failed", before anything else, and shows nothing measured
 * ERROR  the work could not run: a port in use, the engine's exit 2 or 3, an interrupt;
 *        never PASS, never a plain FAIL (exit 3)
 */
#ifndef GD_CHECK_JUDGE_H
#define GD_CHECK_JUDGE_H

#include <stdbool.h>

#include "check.h"

/* How the measured value meets the expectation. */
enum gd_ck_cmp {
	GD_CK_GE,	/* value >= expect: bandwidth, message rate, port rate, bond share */
	GD_CK_LE,	/* value <= expect: latency, a path class rank */
	GD_CK_EQ,	/* value == expect: counts */
	GD_CK_SAME,	/* the item's measured text equals its expected text: state, firmware */
	GD_CK_HOLDS,	/* holds: a stated condition (present, ran to the end, doctor's PASS) */
};

/* Why a check cannot be judged here: the only SKIP reasons. */
enum gd_ck_skip {
	GD_CK_SKIP_NONE,
	GD_CK_SKIP_NO_TOPOLOGY,	/* this machine's topology could not be read */
	GD_CK_SKIP_NO_GPU,	/* a GPU-to-NIC check on a machine without GPUs */
	GD_CK_SKIP_NO_LINE,	/* a % of line rate, the port's rate unknown */
	GD_CK_SKIP_NO_PCIE,	/* a % of the PCIe limit, the path's links unknown */
	GD_CK_SKIP_NO_PEAK,	/* min_peak_bw of a timed run (the engine measures no peak) */
	GD_CK_SKIP_NOT_BONDED,	/* bond-balance on a device that is not on a bond */
	GD_CK_SKIP_NO_SLAVES,	/* the run's traffic did not pass the bond's slaves */
	GD_CK_SKIP_DOCTOR,	/* gd_doctor skipped the check */
	GD_CK_SKIP_INITIATOR,	/* an initiator this gd_check does not run */
	GD_CK_SKIP_NO_LAUNCH,	/* a test between hosts outside mpirun/srun */
	GD_CK_SKIP_SELFTEST,	/* --suite connectx-selftest without a ConnectX and a GPU */
	GD_CK_SKIP_FLEET_ONE,	/* a fleet of one measured pair has nothing to compare with */
	GD_CK_SKIP_RUNG,	/* a lower rung of the ladder failed: not run (it->blocked_by) */
	GD_CK_SKIP_NO_GOLDEN,	/* a suite without --golden: no reference for counts, ids, firmware */
	GD_CK_SKIP_NO_COUNTERS,	/* none of the run's port counters could be read */
	GD_CK_NSKIP
};
const char *gd_ck_skip_reason(enum gd_ck_skip s);

/* What a section found for one check. */
struct gd_ck_meas {
	enum gd_ck_cmp cmp;
	double value, expect;	/* GE, LE, EQ */
	bool holds;		/* HOLDS */
	enum gd_ck_skip skip;	/* not NONE: SKIP with this reason */
	bool not_run;		/* the work could not run: ERROR */
	const char *evidence;	/* what explains it, in the message (NULL: none) */
	const char *stat;	/* the statistic compared ("p50 latency"), named in the message */
	/* the noise guard's reasons (trust.h) when the measurement should not be
	 * believed: a comparator that holds is a FAIL (so it is retried), never a PASS */
	const char *doubtful;
};

/* Set it->status and it->message from m; the only place a status is decided. */
void gd_ck_judge(struct gd_ck_item *it, const struct gd_ck_meas *m);

/* Shorthands for the common measurements. */
void gd_ck_judge_skip(struct gd_ck_item *it, enum gd_ck_skip why, const char *evidence);
void gd_ck_judge_not_run(struct gd_ck_item *it, const char *evidence);
void gd_ck_judge_holds(struct gd_ck_item *it, bool holds, const char *evidence);

/* Could the engine's exit code have come from the hardware (1: ran and failed), or did the
 * work not run (2, 3, 128 + a signal)? */
bool gd_ck_engine_not_run(int exit_code);

#endif
