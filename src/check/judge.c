/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check's one judge: a measurement to PASS, FAIL, SKIP or ERROR, and the message. */
#include <stdio.h>
#include <string.h>

#include "gd.h"
#include "judge.h"

static const char *const skip_text[GD_CK_NSKIP] = {
	[GD_CK_SKIP_NONE] = "",
	[GD_CK_SKIP_NO_TOPOLOGY] = "the topology of this machine could not be read",
	[GD_CK_SKIP_NO_GPU] = "no GPU on this machine",
	[GD_CK_SKIP_NO_LINE] = "the port's line rate is not known",
	[GD_CK_SKIP_NO_PCIE] = "the PCIe limit of the path is not known",
	[GD_CK_SKIP_NO_PEAK] = "the engine measures no peak in a timed run (as perftest): give "
			       "iterations instead of duration",
	[GD_CK_SKIP_NOT_BONDED] = "the device is not on a bond",
	[GD_CK_SKIP_NO_SLAVES] = "the run's traffic did not pass the bond's slaves",
	[GD_CK_SKIP_DOCTOR] = "gd_doctor skipped the check",
	[GD_CK_SKIP_INITIATOR] = "only initiator: cpu runs in this build of gd_check",
	[GD_CK_SKIP_NO_LAUNCH] = "a test between hosts runs under mpirun or srun (2 or more ranks)",
	[GD_CK_SKIP_SELFTEST] = "a self-test of hardware this machine lacks",
	[GD_CK_SKIP_FLEET_ONE] = "one measured pair: no fleet median to compare it with (3 or "
				 "more ranks, or pairs: all-pairs)",
	[GD_CK_SKIP_RUNG] = "not run",
	[GD_CK_SKIP_NO_GOLDEN] = "no golden reference: the suite checks this node only against "
				 "itself, so a lost GPU or NIC, a bus id or firmware off the SKU "
				 "is not seen; 'gd_check --write-golden FILE' on a known-good node, "
				 "then '--golden FILE'",
	[GD_CK_SKIP_NO_COUNTERS] = "none of the port's counters could be read",
};

const char *gd_ck_skip_reason(enum gd_ck_skip s)
{
	return s < GD_CK_NSKIP ? skip_text[s] : "?";
}

const char *gd_ck_status_str(enum gd_ck_status s)
{
	static const char *const n[GD_CK_NSTATUS] = { "PASS", "FAIL", "SKIP", "ERROR" };

	return s < GD_CK_NSTATUS ? n[s] : "?";
}

static bool compare(const struct gd_ck_item *it, const struct gd_ck_meas *m)
{
	switch (m->cmp) {
	case GD_CK_GE: return m->value >= m->expect;
	case GD_CK_LE: return m->value <= m->expect;
	case GD_CK_EQ: return m->value == m->expect;
	case GD_CK_SAME: return !strcmp(it->measured, it->expected);
	default: return m->holds;
	}
}

void gd_ck_judge(struct gd_ck_item *it, const struct gd_ck_meas *m)
{
	const char *ev = m->evidence && *m->evidence ? m->evidence : NULL;
	char *msg = it->message, rung[64];
	size_t len = sizeof(it->message);

	it->doubted = false;
	if (it->blocked_by) { /* the ladder stopped below it: nothing of it counts */
		snprintf(rung, sizeof(rung), "rung %d (%s) failed", it->blocked_by,
			 gd_ck_rung_name(it->blocked_by));
		it->measured[0] = 0;
		it->status = GD_CK_SKIP;
		snprintf(msg, len, "%s: %s", gd_ck_skip_reason(GD_CK_SKIP_RUNG), rung);
	} else if (m->not_run) {
		it->status = GD_CK_ERROR;
		snprintf(msg, len, "could not run: %s", ev ? ev : "no result");
	} else if (m->skip != GD_CK_SKIP_NONE) {
		it->status = GD_CK_SKIP;
		snprintf(msg, len, "%s%s%s", gd_ck_skip_reason(m->skip), ev ? ": " : "", ev ? ev : "");
	} else if (compare(it, m) && m->doubtful && *m->doubtful) {
		it->status = GD_CK_FAIL; /* retried like a miss, never a PASS */
		it->doubted = true;
		snprintf(msg, len, "%s: measured %s, but the measurement should not be believed: "
			 "%s", it->name, it->measured[0] ? it->measured : "-", m->doubtful);
	} else if (compare(it, m)) {
		it->status = GD_CK_PASS;
		if (m->stat) /* "p50 latency 1.02 us <= 10.00 us; at 2 bytes ..." */
			snprintf(msg, len, "%s %s %s%s%s", m->stat, it->measured, it->expected,
				 ev ? "; " : "", ev ? ev : "");
		else
			snprintf(msg, len, "%s", ev ? ev : "");
	} else {
		it->status = GD_CK_FAIL;
		if (it->measured[0] || it->expected[0])
			snprintf(msg, len, "%s: %s %s, expected %s%s%s", it->name,
				 m->stat ? m->stat : "measured",
				 it->measured[0] ? it->measured : "nothing",
				 it->expected[0] ? it->expected : "-", ev ? "; " : "", ev ? ev : "");
		else
			snprintf(msg, len, "%s: %s", it->name, ev ? ev : "failed");
	}
}

void gd_ck_judge_skip(struct gd_ck_item *it, enum gd_ck_skip why, const char *evidence)
{
	gd_ck_judge(it, &(struct gd_ck_meas){ .skip = why, .evidence = evidence });
}

void gd_ck_judge_not_run(struct gd_ck_item *it, const char *evidence)
{
	gd_ck_judge(it, &(struct gd_ck_meas){ .not_run = true, .evidence = evidence });
}

void gd_ck_judge_holds(struct gd_ck_item *it, bool holds, const char *evidence)
{
	gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_HOLDS, .holds = holds,
					       .evidence = evidence });
}

bool gd_ck_engine_not_run(int exit_code)
{
	return exit_code != GD_EXIT_OK && exit_code != GD_EXIT_FAIL;
}

/* Interrupted: 128 + the signal; else 1 when a check failed; else 3 when one could not run. */
int gd_ck_exit_code(const struct gd_ck_report *r)
{
	bool fail = false, error = false;

	if (r->interrupted)
		return gd_exit_signal(r->interrupted);
	for (size_t i = 0; i < r->n; i++) {
		fail |= r->items[i].status == GD_CK_FAIL;
		error |= r->items[i].status == GD_CK_ERROR;
	}
	return fail ? GD_EXIT_FAIL : error ? GD_EXIT_ENV : GD_EXIT_OK;
}
