/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A test's thresholds against one measurement: absolute, % of line rate, % of the PCIe limit. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "check_fleet.h"
#include "check_matrix.h"
#include "gd.h"
#include "judge.h"

void gd_ck_report_free(struct gd_ck_report *r)
{
	gd_ck_matrix_free(r->matrix);
	r->matrix = NULL;
	gd_ck_fleet_free(r->fleet);
	r->fleet = NULL;
	free(r->items);
	r->items = NULL;
	r->n = r->cap = 0;
}

void gd_ck_fmt_value(enum gd_ck_metric m, double v, char *buf, size_t len)
{
	/* small values keep 3 significant digits: 0.00123 Mpps, 0.0014 Gb/s */
	snprintf(buf, len, v != 0 && v < 10 ? "%.3g %s" : "%.2f %s", v, gd_ck_metric_unit(m));
}

static double measured(enum gd_ck_metric m, const struct gd_ck_measure *x, size_t k)
{
	switch (m) {
	case GD_CK_BW_AVG: return x->bw_avg_gbps[k];
	case GD_CK_BW_PEAK: return x->bw_peak_gbps[k];
	case GD_CK_MSG_RATE: return x->msg_rate_mpps[k];
	case GD_CK_LAT_AVG: return x->lat_avg_us[k];
	case GD_CK_LAT: /* the plain name is the median */
	case GD_CK_LAT_P50: return x->lat_p50_us[k];
	case GD_CK_LAT_P99: return x->lat_p99_us[k];
	case GD_CK_LAT_P999: return x->lat_p999_us[k];
	default: return x->lat_max_us[k];
	}
}

/* The limit in the metric's unit and its text, or the reason it is unknown (SKIP). */
static enum gd_ck_skip limit_of(const struct gd_ck_threshold *th, const struct gd_ck_run *run,
				double *lim, char *exp, size_t elen, char *why, size_t wlen)
{
	const char *op = gd_ck_metric_is_min(th->metric) ? ">=" : "<=";
	char v[48];

	if (th->kind == GD_CK_ABS) { /* in the spec's unit, as written ("<= 10 ms") */
		*lim = th->value;
		gd_ck_fmt_value(th->metric, *lim, v, sizeof(v));
		snprintf(exp, elen, "%s %s", op, th->text[0] ? th->text : v);
		return GD_CK_SKIP_NONE;
	}
	if (th->kind == GD_CK_LINE && run->line_gbps <= 0) {
		snprintf(why, wlen, "%s port %d", run->dev, run->port);
		return GD_CK_SKIP_NO_LINE;
	}
	if (th->kind == GD_CK_PCIE && run->pcie_gbps <= 0) {
		snprintf(why, wlen, "%s: %s", run->label, run->pcie_why);
		return GD_CK_SKIP_NO_PCIE;
	}
	*lim = th->value / 100 * (th->kind == GD_CK_LINE ? run->line_gbps : run->pcie_gbps);
	snprintf(exp, elen, "%s %.2f Gb/s (%g%% of %s %.1f Gb/s)", op, *lim, th->value,
		 th->kind == GD_CK_LINE ? "line rate" : "PCIe limit",
		 th->kind == GD_CK_LINE ? run->line_gbps : run->pcie_gbps);
	return GD_CK_SKIP_NONE;
}

/* Where a figure was measured: its size, the spec's threshold, and with repeat: K that it is
 * the median of K runs (how many the noise guard left out). */
static void repeat_note(const struct gd_ck_measure *m, size_t k, char *ev, size_t len,
			const char *spec)
{
	int n = snprintf(ev, len, "at %llu bytes (spec: %s)", (unsigned long long)m->size[k],
			 spec);

	if (m->repeats > 1 && n > 0 && (size_t)n < len)
		snprintf(ev + n, len - (size_t)n, "; median of %u runs%s", m->repeats,
			 m->repeat_doubted[k] && !m->doubtful[k][0] ? " (doubted ones left out)" : "");
}

static void one(struct gd_ck_report *r, const struct gd_ck_run *run, const struct gd_ck_measure *m,
		const struct gd_ck_threshold *th, double seconds)
{
	struct gd_ck_item *it = gd_ck_run_item(r, run, m, seconds, gd_ck_metric_name(th->metric));
	size_t k = m->nsizes ? m->nsizes - 1 : 0; /* a sweep is judged at its largest size */
	struct gd_ck_meas me = { .cmp = gd_ck_metric_is_min(th->metric) ? GD_CK_GE : GD_CK_LE };
	char ev[224];

	if (!it)
		return;
	me.skip = limit_of(th, run, &me.expect, it->expected, sizeof(it->expected), ev, sizeof(ev));
	if (me.skip == GD_CK_SKIP_NONE && gd_ck_unfinished(it, m))
		return;
	if (me.skip == GD_CK_SKIP_NONE) {
		me.value = measured(th->metric, m, k);
		if (th->metric == GD_CK_BW_PEAK && me.value == 0)
			me.skip = GD_CK_SKIP_NO_PEAK;
		else {
			gd_ck_fmt_value(th->metric, me.value, it->measured, sizeof(it->measured));
			gd_ck_item_value(it, me.value, gd_ck_metric_unit(th->metric));
		}
		/* the judge names the statistic: "p50 latency 1.02 us <= 10.00 us; at 2 bytes" */
		me.stat = gd_ck_metric_stat(th->metric);
		repeat_note(m, k, ev, sizeof(ev), th->text);
	}
	me.evidence = ev;
	me.doubtful = m->nsizes ? m->doubtful[k] : NULL;
	gd_ck_judge(it, &me);
}

void gd_ck_evaluate(struct gd_ck_report *r, const struct gd_ck_run *run,
		    const struct gd_ck_measure *m, double seconds)
{
	gd_ck_expect_item(r, run, m, seconds);
	gd_ck_thresholds(r, run, m, seconds);
}

void gd_ck_thresholds(struct gd_ck_report *r, const struct gd_ck_run *run,
		      const struct gd_ck_measure *m, double seconds)
{
	const struct gd_ck_test *t = run->t;
	struct gd_ck_item *it;
	double v;

	for (size_t i = 0; i < t->nth; i++)
		one(r, run, m, &t->th[i], seconds);
	if (t->nth)
		return;
	/* no threshold: the test must run; its numbers are recorded */
	if (!(it = gd_ck_run_item(r, run, m, seconds, "runs")))
		return;
	snprintf(it->expected, sizeof(it->expected), "completes");
	if (gd_ck_unfinished(it, m))
		return;
	v = t->kind == GD_KIND_BW ? m->bw_avg_gbps[m->nsizes - 1] : m->lat_avg_us[m->nsizes - 1];
	gd_ck_fmt_value(t->kind == GD_KIND_BW ? GD_CK_BW_AVG : GD_CK_LAT_AVG, v, it->measured,
			sizeof(it->measured));
	gd_ck_item_value(it, v, gd_ck_metric_unit(t->kind == GD_KIND_BW ? GD_CK_BW_AVG :
						 GD_CK_LAT_AVG));
	gd_ck_judge_holds(it, t->kind != GD_KIND_BW || v > 0, t->kind == GD_KIND_BW && v <= 0 ?
			  "the run completed but measured no traffic in its window: lengthen "
			  "duration or use smaller messages" : NULL);
}
