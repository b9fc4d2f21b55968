/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A fan's congestion factors: each pair's and the fan's, their items and table (check_fan.h). */
#include <stdlib.h>
#include <string.h>

#include "check_fan.h"
#include "judge.h"
#include "robust.h"

#define FAN_UNIT "factor"

static bool ran(const struct gd_ck_measure *m)
{
	return m && !m->exit_code && m->nsizes;
}

static double bw(const struct gd_ck_measure *m)
{
	return ran(m) ? m->bw_avg_gbps[m->nsizes - 1] : 0;
}

bool gd_ck_fan_item(const struct gd_ck_item *it)
{
	return it->has_value && !strcmp(it->unit, FAN_UNIT);
}

/* A pair's factor: at once over alone; < 0 when either did not measure. */
static double factor(const struct gd_ck_fan_pair *p)
{
	return ran(p->alone) && ran(p->once) && bw(p->alone) > 0 ? bw(p->once) / bw(p->alone) : -1;
}

/* The fan's: the sum at once over the median alone (*sum, *median); < 0 when a pair is
 * missing (*missing its index). */
static double fan_factor(const struct gd_ck_fan_pair *fp, size_t n, double *sum, double *median,
			 size_t *missing)
{
	double *v = calloc(n ? n : 1, sizeof(*v));

	*sum = *median = 0;
	*missing = n;
	for (size_t i = 0; i < n; i++) {
		if (factor(&fp[i]) < 0 && *missing == n)
			*missing = i;
		*sum += bw(fp[i].once);
		if (v)
			v[i] = bw(fp[i].alone);
	}
	if (v && n)
		*median = gd_ck_median(v, n);
	free(v);
	return *missing == n && *median > 0 ? *sum / *median : -1;
}

/* A pair without a factor: ERROR when its failed run could not run (the engine's verdict,
 * judge.h), else FAIL. */
static void unmeasured(struct gd_ck_item *it, const struct gd_ck_fan_pair *p, const char *ev)
{
	const struct gd_ck_measure *m = ran(p->alone) ? p->once : p->alone;

	if (m && gd_ck_engine_not_run(m->exit_code))
		gd_ck_judge_not_run(it, ev);
	else
		gd_ck_judge_holds(it, false, ev);
}

static void pair_item(struct gd_ck_report *r, const struct gd_ck_test *t,
		      const struct gd_ck_fan_pair *p, size_t n, double secs)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s rank%d(%s)->rank%d(%s): "
					  "congestion factor", t->name, p->rank[0], p->end[0],
					  p->rank[1], p->end[1]);
	double f = factor(p);
	char ev[320];

	if (!it)
		return;
	it->seconds = secs;
	if (f < 0) {
		snprintf(ev, sizeof(ev), "not measured: the pair %s (see its runs items)",
			 ran(p->alone) ? "failed at once with the others" : "failed alone");
		unmeasured(it, p, ev);
		return;
	}
	snprintf(it->measured, sizeof(it->measured), "%.3g", f);
	gd_ck_item_value(it, f, FAN_UNIT);
	snprintf(ev, sizeof(ev), "%.3g Gb/s at once with %zu pair(s) against %.3g Gb/s alone "
		 "(a fair share of a saturated root is %.3g)", bw(p->once), n, bw(p->alone),
		 1.0 / (double)n);
	gd_ck_judge_holds(it, true, ev);
}

/* The first reason the noise guard gave to doubt a run of the fan (trust.h), NULL: none. A
 * factor of doubted runs meets its threshold as a FAIL, never a PASS (judge.c). */
static const char *doubted(const struct gd_ck_fan_pair *fp, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const struct gd_ck_measure *m[2] = { fp[i].alone, fp[i].once };

		for (int j = 0; j < 2; j++)
			if (ran(m[j]) && m[j]->doubtful[m[j]->nsizes - 1][0])
				return m[j]->doubtful[m[j]->nsizes - 1];
	}
	return NULL;
}

/* The pair with the lowest factor: the one congestion hurt most. */
static size_t lowest(const struct gd_ck_fan_pair *fp, size_t n)
{
	size_t w = 0;

	for (size_t i = 1; i < n; i++)
		if (factor(&fp[i]) < factor(&fp[w]))
			w = i;
	return w;
}

static void fan_item(struct gd_ck_report *r, const struct gd_ck_test *t,
		     const struct gd_ck_fan_pair *fp, size_t n, double secs)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: congestion factor of %zu "
					  "pairs at once%s", t->name, n, t->min_congestion > 0 ?
					  ": min_congestion_factor" : "");
	struct gd_ck_meas m = { .cmp = GD_CK_GE, .expect = t->min_congestion, .evidence = NULL };
	size_t w = n ? lowest(fp, n) : 0, miss;
	double sum, med, f = fan_factor(fp, n, &sum, &med, &miss);
	char ev[400];

	if (!it)
		return;
	it->seconds = secs;
	if (f < 0) {
		snprintf(ev, sizeof(ev), n ? "rank%d->rank%d was not measured alone and at once: "
			 "no congestion factor" : "no pair ran", n ? fp[miss].rank[0] : 0,
			 n ? fp[miss].rank[1] : 0);
		if (n && miss < n)
			unmeasured(it, &fp[miss], ev);
		else
			gd_ck_judge_holds(it, false, ev);
		return;
	}
	snprintf(it->measured, sizeof(it->measured), "%.3g", f);
	gd_ck_item_value(it, f, FAN_UNIT);
	snprintf(ev, sizeof(ev), "%.3g Gb/s summed at once against %.3g Gb/s for the median pair "
		 "alone; the lowest share kept: rank%d(%s)->rank%d(%s) %.3g", sum, med,
		 fp[w].rank[0], fp[w].end[0], fp[w].rank[1], fp[w].end[1], factor(&fp[w]));
	if (t->min_congestion <= 0) {
		gd_ck_judge_holds(it, true, ev);
		return;
	}
	snprintf(it->expected, sizeof(it->expected), ">= %g", t->min_congestion);
	m.value = f;
	m.evidence = ev;
	m.stat = "congestion factor";
	m.doubtful = doubted(fp, n);
	gd_ck_judge(it, &m);
}

void gd_ck_fan_items(struct gd_ck_report *r, const struct gd_ck_test *t,
		     const struct gd_ck_fan_pair *fp, size_t n, double secs)
{
	for (size_t i = 0; i < n; i++)
		pair_item(r, t, &fp[i], n, secs);
	fan_item(r, t, fp, n, secs);
}

void gd_ck_fan_print(FILE *out, const struct gd_ck_test *t, const struct gd_ck_fan_pair *fp,
		     size_t n)
{
	double sum, med, f = fan_factor(fp, n, &sum, &med, &(size_t){ 0 });

	fprintf(out, "\n%s: %zu pair(s) alone, then at once, pattern %s\n%-6s %-6s %-26s %-26s "
		"%10s %10s %7s\n", t->name, n, gd_ck_pattern_name(t->pattern), "SERVER", "CLIENT",
		"SERVER HOST/DEV", "CLIENT HOST/DEV", "ALONE Gb/s", "ONCE Gb/s", "FACTOR");
	for (size_t i = 0; i < n; i++) {
		char a[16], o[16], x[16];

		snprintf(a, sizeof(a), ran(fp[i].alone) ? "%.2f" : "failed", bw(fp[i].alone));
		snprintf(o, sizeof(o), ran(fp[i].once) ? "%.2f" : "failed", bw(fp[i].once));
		snprintf(x, sizeof(x), factor(&fp[i]) >= 0 ? "%.3f" : "-", factor(&fp[i]));
		fprintf(out, "%-6d %-6d %-26s %-26s %10s %10s %7s\n", fp[i].rank[0], fp[i].rank[1],
			fp[i].end[0], fp[i].end[1], a, o, x);
	}
	if (f >= 0)
		fprintf(out, "congestion factor: %.3f (%.2f Gb/s summed at once / %.2f Gb/s median "
			"pair alone)\n", f, sum, med);
	else
		fprintf(out, "congestion factor: not measured (a pair failed)\n");
}
