/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A measured value against the baseline of good nodes (baseline.h): a FAIL when it lies more
 * than k robust distances (the scaled MAD, at least min_spread % of the median) on the bad
 * side of the median; the row says by how much. The spec's absolute floors stay their own rows.
 */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "judge.h"
#include "robust.h"

static const struct gd_ck_bl_check *bl_find(const struct gd_ck_baseline *b, const char *check)
{
	for (size_t i = 0; i < b->n; i++)
		if (!strcmp(b->c[i].check, check))
			return &b->c[i];
	return NULL;
}

/* "12.1 Gb/s is 5.3 MAD below the baseline median 14.0 Gb/s (N=8)", and the floor's note. */
static void distance_text(const struct gd_ck_bl_check *c, double v, double spread, double d,
			  const struct gd_ck_baseline *b, char *buf, size_t len)
{
	bool floored = spread > c->mad;
	char far[32];

	if (isinf(d))
		snprintf(far, sizeof(far), "infinitely many");
	else
		snprintf(far, sizeof(far), "%.1f", fabs(d));
	snprintf(buf, len, "%.4g %s is %s MAD %s the baseline median %.4g %s (N=%d; MAD %.3g %s%s, "
		 "k %g)", v, c->unit, far, (d > 0) == c->higher ? "below" : "above", c->median,
		 c->unit, c->n, spread, c->unit, floored ? ", the min_spread floor" : "", b->k);
}

void gd_ck_bl_judge(struct gd_ck_report *r, const struct gd_ck_baseline *b, double k,
		    const struct gd_ck_item *measured, uint64_t size)
{
	const struct gd_ck_bl_check *c = bl_find(b, measured->name);
	struct gd_ck_meas me = { .cmp = GD_CK_HOLDS };
	struct gd_ck_item *it;
	double spread, d;
	char ev[400], node[sizeof(measured->node)];

	if (!c || !measured->has_value || !measured->measured[0])
		return;
	snprintf(node, sizeof(node), "%s", measured->node);
	/* offline, a fleet's rows: each named by its node */
	if (!(it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s%s%s: baseline", node, node[0] ? " " : "",
			     c->check)))
		return;
	snprintf(it->node, sizeof(it->node), "%s", node);
	it->rung = measured->rung;
	if (c->size && size && c->size != size) { /* like for like, or not judged */
		snprintf(ev, sizeof(ev), "measured at %llu bytes, the baseline at %llu: not like for "
			 "like; run the baseline's spec", (unsigned long long)size,
			 (unsigned long long)c->size);
		gd_ck_judge_holds(it, false, ev);
		return;
	}
	spread = gd_ck_spread(c->mad, c->median, b->min_spread_pct);
	d = gd_ck_robust_dist(measured->value, c->median, spread, c->higher);
	snprintf(it->measured, sizeof(it->measured), "%.4g %s", measured->value, c->unit);
	gd_ck_item_value(it, measured->value, c->unit);
	snprintf(it->expected, sizeof(it->expected), "%s %.4g %s (median %s %g MAD)",
		 c->higher ? ">=" : "<=", c->median + (c->higher ? -k : k) * spread, c->unit,
		 c->higher ? "-" : "+", k);
	distance_text(c, measured->value, spread, d, b, ev, sizeof(ev));
	me.holds = !(d > k);
	me.evidence = ev;
	/* a measurement the noise guard doubted is never a PASS here either */
	me.doubtful = strstr(measured->message, "should not be believed: ");
	if (me.doubtful)
		me.doubtful += strlen("should not be believed: ");
	gd_ck_judge(it, &me);
}

void gd_ck_bl_items(struct gd_ck_report *r, const struct gd_ck_baseline *b, size_t first)
{
	size_t end = r->n;

	for (size_t i = first; i < end; i++) {
		struct gd_ck_item m = r->items[i]; /* r->items may move as rows are added */

		if (m.status == GD_CK_PASS || m.status == GD_CK_FAIL)
			gd_ck_bl_judge(r, b, b->k, &m, m.where.size);
	}
}

void gd_ck_bl_unmeasured(struct gd_ck_report *r, const struct gd_ck_baseline *b)
{
	for (size_t c = 0; c < b->n; c++) {
		bool seen = false;
		struct gd_ck_item *it;

		for (size_t i = 0; i < r->n && !seen; i++)
			seen = !strcmp(r->items[i].name, b->c[c].check);
		if (seen || !(it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: baseline", b->c[c].check)))
			continue;
		gd_ck_judge_holds(it, false, "the baseline has this check and this node did not "
				  "measure it: run the spec the baseline was built from");
	}
}
