/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A test's thresholds against one measurement: absolute, % of line rate, % of the PCIe limit. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_int.h"
#include "check_matrix.h"
#include "gd.h"

const char *gd_ck_status_str(enum gd_ck_status s)
{
	return s == GD_CK_PASS ? "PASS" : s == GD_CK_FAIL ? "FAIL" : "SKIP";
}

const char *gd_ck_section_name(enum gd_ck_section s)
{
	static const char *const n[] = { "topology", "devices", "doctor", "tests" };
	return s < GD_CK_NSEC ? n[s] : "?";
}

struct gd_ck_item *gd_ck_add(struct gd_ck_report *r, enum gd_ck_section sec, const char *fmt, ...)
{
	struct gd_ck_item *it;
	va_list ap;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct gd_ck_item *v = realloc(r->items, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->items = v;
		r->cap = cap;
	}
	it = &r->items[r->n++];
	memset(it, 0, sizeof(*it));
	it->section = sec;
	va_start(ap, fmt);
	vsnprintf(it->name, sizeof(it->name), fmt, ap);
	va_end(ap);
	return it;
}

void gd_ck_report_free(struct gd_ck_report *r)
{
	gd_ck_matrix_free(r->matrix);
	r->matrix = NULL;
	free(r->items);
	r->items = NULL;
	r->n = r->cap = 0;
}

int gd_ck_exit_code(const struct gd_ck_report *r)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->items[i].status == GD_CK_FAIL)
			return GD_EXIT_FAIL;
	return GD_EXIT_OK;
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
	default: return x->lat_p99_us[k];
	}
}

/* The limit in the metric's unit, or a reason in why (SKIP). */
static int limit_of(const struct gd_ck_threshold *th, const struct gd_ck_run *run, double *lim,
		    char *exp, size_t elen, char *why, size_t wlen)
{
	const char *op = gd_ck_metric_is_min(th->metric) ? ">=" : "<=";
	char v[48];

	if (th->kind == GD_CK_ABS) {
		*lim = th->value;
		gd_ck_fmt_value(th->metric, *lim, v, sizeof(v));
		snprintf(exp, elen, "%s %s", op, v);
		return 0;
	}
	if (th->kind == GD_CK_LINE && run->line_gbps <= 0) {
		snprintf(why, wlen, "the line rate of %s port %d is not known", run->dev, run->port);
		return -1;
	}
	if (th->kind == GD_CK_PCIE && run->pcie_gbps <= 0) {
		snprintf(why, wlen, "no PCIe limit for %s: %s", run->label, run->pcie_why);
		return -1;
	}
	*lim = th->value / 100 * (th->kind == GD_CK_LINE ? run->line_gbps : run->pcie_gbps);
	snprintf(exp, elen, "%s %.2f Gb/s (%g%% of %s %.1f Gb/s)", op, *lim, th->value,
		 th->kind == GD_CK_LINE ? "line rate" : "PCIe limit",
		 th->kind == GD_CK_LINE ? run->line_gbps : run->pcie_gbps);
	return 0;
}

static void one(struct gd_ck_report *r, const struct gd_ck_run *run, const struct gd_ck_measure *m,
		const struct gd_ck_threshold *th, double seconds)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s %s: %s", run->t->name, run->label,
					  gd_ck_metric_name(th->metric));
	size_t k = m->nsizes ? m->nsizes - 1 : 0; /* a sweep is judged at its largest size */
	double v, lim;

	if (!it)
		return;
	it->seconds = seconds;
	snprintf(it->path_class, sizeof(it->path_class), "%s", run->cls);
	gd_ck_where_set(it, run, m);
	gd_ck_command(run, m->nsizes ? m->size[k] : run->t->size, it->command, sizeof(it->command));
	if (limit_of(th, run, &lim, it->expected, sizeof(it->expected), it->message,
		     sizeof(it->message))) {
		it->status = GD_CK_SKIP;
		return;
	}
	if (m->exit_code || !m->nsizes) {
		it->status = GD_CK_FAIL;
		snprintf(it->message, sizeof(it->message), "did not run to the end: %s",
			 m->error[0] ? m->error : "no result");
		return;
	}
	v = measured(th->metric, m, k);
	if (th->metric == GD_CK_BW_PEAK && v == 0) {
		it->status = GD_CK_SKIP;
		snprintf(it->message, sizeof(it->message), "the engine measures no peak in a timed "
			 "run (as perftest): give iterations instead of duration");
		return;
	}
	gd_ck_fmt_value(th->metric, v, it->measured, sizeof(it->measured));
	it->status = (gd_ck_metric_is_min(th->metric) ? v >= lim : v <= lim) ? GD_CK_PASS :
										GD_CK_FAIL;
	if (it->status == GD_CK_FAIL)
		snprintf(it->message, sizeof(it->message), "%s: measured %s at %llu bytes, "
			 "expected %s (%s)", gd_ck_metric_name(th->metric), it->measured,
			 (unsigned long long)m->size[k], it->expected, th->text);
}

void gd_ck_evaluate(struct gd_ck_report *r, const struct gd_ck_run *run,
		    const struct gd_ck_measure *m, double seconds)
{
	const struct gd_ck_test *t = run->t;
	struct gd_ck_item *it;

	for (size_t i = 0; i < t->nth; i++)
		one(r, run, m, &t->th[i], seconds);
	if (t->nth)
		return;
	/* no threshold: the test must run; its numbers are recorded */
	it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s %s: runs", t->name, run->label);
	if (!it)
		return;
	it->seconds = seconds;
	snprintf(it->path_class, sizeof(it->path_class), "%s", run->cls);
	gd_ck_where_set(it, run, m);
	gd_ck_command(run, m->nsizes ? m->size[m->nsizes - 1] : t->size, it->command,
		      sizeof(it->command));
	snprintf(it->expected, sizeof(it->expected), "completes");
	if (m->exit_code || !m->nsizes) {
		it->status = GD_CK_FAIL;
		snprintf(it->message, sizeof(it->message), "did not run to the end: %s",
			 m->error[0] ? m->error : "no result");
		return;
	}
	it->status = GD_CK_PASS;
	if (t->kind == GD_KIND_BW && m->bw_avg_gbps[m->nsizes - 1] <= 0) {
		it->status = GD_CK_FAIL;
		snprintf(it->message, sizeof(it->message), "the run completed but measured no "
			 "traffic in its window: lengthen duration or use smaller messages");
	}
	if (t->kind == GD_KIND_BW)
		gd_ck_fmt_value(GD_CK_BW_AVG, m->bw_avg_gbps[m->nsizes - 1], it->measured,
				sizeof(it->measured));
	else
		gd_ck_fmt_value(GD_CK_LAT_AVG, m->lat_avg_us[m->nsizes - 1], it->measured,
				sizeof(it->measured));
}
