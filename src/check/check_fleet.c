/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The fleet view of a test between ranks: distribution, outliers, their verdicts. */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "check_fleet.h"
#include "jsonout.h"
#include "judge.h"

static int cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

int gd_ck_fleet_stats(const struct gd_ck_fleet_pair *p, size_t n, struct gd_ck_fleet_stats *st)
{
	double *v = malloc((n ? n : 1) * sizeof(*v));
	size_t k = 0;

	memset(st, 0, sizeof(*st));
	if (!v)
		return -ENOMEM;
	for (size_t i = 0; i < n; i++)
		if (p[i].ok)
			v[k++] = p[i].value;
	if (k) {
		qsort(v, k, sizeof(*v), cmp_double);
		st->count = k;
		st->min = v[0];
		st->max = v[k - 1];
		st->median = k % 2 ? v[k / 2] : (v[k / 2 - 1] + v[k / 2]) / 2;
	}
	free(v);
	return k ? 0 : -ENODATA;
}

double gd_ck_fleet_worse(bool bw, double v, double median)
{
	if (median <= 0)
		return 0;
	return (bw ? median - v : v - median) / median * 100.0;
}

static const char *unit(bool bw)
{
	return bw ? "Gb/s" : "us";
}

/* "rank3(gd-vm/rxe0/host)" */
static void end_name(const struct gd_ck_fleet_end *e, char *buf, size_t len)
{
	snprintf(buf, len, "rank%d(%s/%s/%s)", e->rank, e->host, e->nic, e->mem);
}

static void pair_name(const struct gd_ck_fleet_pair *p, char *buf, size_t len)
{
	char a[192], b[192];

	end_name(&p->end[0], a, sizeof(a));
	end_name(&p->end[1], b, sizeof(b));
	snprintf(buf, len, "%s->%s", a, b);
}

/* The distribution as one line: "median 1.23, min 0.5, max 1.4 Gb/s, 4 pairs". */
static void dist_text(const struct gd_ck_fleet_test *f, char *buf, size_t len)
{
	snprintf(buf, len, "median %.3g, min %.3g, max %.3g %s, %zu pair%s", f->st.median,
		 f->st.min, f->st.max, unit(f->bw), f->st.count, f->st.count == 1 ? "" : "s");
}

/* The limit an outlier crosses, and its text. */
static double limit_of(const struct gd_ck_fleet_test *f, char *exp, size_t len)
{
	double lim = f->st.median * (f->bw ? 1 - f->pct / 100 : 1 + f->pct / 100);

	snprintf(exp, len, "%s %.3g %s (median %s %g%%)", f->bw ? ">=" : "<=", lim, unit(f->bw),
		 f->bw ? "-" : "+", f->pct);
	return lim;
}

static void judge_outlier(struct gd_ck_report *r, const struct gd_ck_fleet_test *f,
			  const struct gd_ck_fleet_pair *p)
{
	char name[400], ev[512];
	struct gd_ck_item *it;
	struct gd_ck_meas m = { .cmp = f->bw ? GD_CK_GE : GD_CK_LE, .value = p->value };

	pair_name(p, name, sizeof(name));
	it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: fleet outlier %s", f->test, name);
	if (!it)
		return;
	m.expect = limit_of(f, it->expected, sizeof(it->expected));
	snprintf(it->measured, sizeof(it->measured), "%.3g %s", p->value, unit(f->bw));
	gd_ck_item_value(it, p->value, unit(f->bw)); /* JSON's value and unit beside the text */
	snprintf(ev, sizeof(ev), "%.3g %s is %.1f %% %s the fleet median %.3g %s (more than %g %% "
		 "is an outlier; min %.3g, max %.3g over %zu pairs); server rank %d on %s (NIC %s, "
		 "%s%s), client rank %d on %s (NIC %s, %s%s)", p->value, unit(f->bw),
		 p->worse_pct, f->bw ? "below" : "above", f->st.median, unit(f->bw), f->pct,
		 f->st.min, f->st.max, f->st.count, p->end[0].rank, p->end[0].host, p->end[0].nic,
		 p->end[0].mem, strcmp(p->end[0].mem, "host") ? "" : " memory", p->end[1].rank,
		 p->end[1].host, p->end[1].nic, p->end[1].mem,
		 strcmp(p->end[1].mem, "host") ? "" : " memory");
	m.evidence = ev;
	gd_ck_judge(it, &m);
}

/* The test's distribution item: FAIL when it has outliers, SKIP with fewer than 2 pairs. */
static void judge_dist(struct gd_ck_report *r, const struct gd_ck_fleet_test *f)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: fleet", f->test);
	struct gd_ck_meas m = { .cmp = GD_CK_EQ, .value = (double)f->nout, .expect = 0 };
	char ev[256];

	if (!it)
		return;
	dist_text(f, it->measured, sizeof(it->measured));
	if (f->st.count)
		gd_ck_item_value(it, f->st.median, unit(f->bw)); /* the text's first number */
	snprintf(it->expected, sizeof(it->expected), "no pair more than %g %% %s the median",
		 f->pct, f->bw ? "below" : "above");
	snprintf(ev, sizeof(ev), "%zu of %zu pairs more than %g %% %s the fleet median",
		 f->nout, f->st.count, f->pct, f->bw ? "below" : "above");
	m.evidence = ev;
	if (f->st.count < 2)
		m.skip = GD_CK_SKIP_FLEET_ONE;
	gd_ck_judge(it, &m);
}

static void print_view(FILE *out, const struct gd_ck_fleet_test *f)
{
	char d[128], n[400];

	dist_text(f, d, sizeof(d));
	fprintf(out, "fleet %s: %s\n", f->test, d);
	if (!f->pct)
		return;
	fprintf(out, "outliers (more than %g %% %s the median):%s\n", f->pct,
		f->bw ? "below" : "above", f->nout ? "" : " none");
	for (size_t i = 0; i < f->nout; i++) {
		pair_name(&f->outliers[i], n, sizeof(n));
		fprintf(out, "  %s: %.3g %s, %.1f %% %s the median\n", n, f->outliers[i].value,
			unit(f->bw), f->outliers[i].worse_pct, f->bw ? "below" : "above");
	}
}

/* A new test view in r->fleet (NULL when out of memory). */
static struct gd_ck_fleet_test *fleet_add(struct gd_ck_report *r)
{
	struct gd_ck_fleet *fl = r->fleet ? r->fleet : calloc(1, sizeof(*fl));

	if (!fl)
		return NULL;
	r->fleet = fl;
	if (fl->n == fl->cap) {
		size_t cap = fl->cap ? fl->cap * 2 : 4;
		struct gd_ck_fleet_test *v = realloc(fl->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		fl->v = v;
		fl->cap = cap;
	}
	memset(&fl->v[fl->n], 0, sizeof(fl->v[0]));
	return &fl->v[fl->n++];
}

void gd_ck_fleet_judge(struct gd_ck_report *r, const struct gd_ck_test *t, double pct,
		       struct gd_ck_fleet_pair *p, size_t n, FILE *out)
{
	struct gd_ck_fleet_test *f;

	if (!n || !(f = fleet_add(r)))
		return;
	snprintf(f->test, sizeof(f->test), "%s", t->name);
	f->bw = t->kind == GD_KIND_BW;
	f->pct = pct;
	if (gd_ck_fleet_stats(p, n, &f->st))
		return; /* no pair measured: each pair's own items say why */
	f->outliers = calloc(n, sizeof(*f->outliers));
	for (size_t i = 0; i < n; i++) {
		p[i].worse_pct = p[i].ok ? gd_ck_fleet_worse(f->bw, p[i].value, f->st.median) : 0;
		if (p[i].ok && pct && f->st.count > 1 && p[i].worse_pct > pct && f->outliers)
			f->outliers[f->nout++] = p[i];
	}
	if (pct) {
		judge_dist(r, f);
		for (size_t i = 0; i < f->nout; i++)
			judge_outlier(r, f, &f->outliers[i]);
	}
	if (out)
		print_view(out, f);
}

static json_object *end_json(const struct gd_ck_fleet_end *e)
{
	json_object *o = json_object_new_object();

	gd_json_add_int(o, "rank", e->rank);
	gd_json_add_str(o, "host", e->host);
	gd_json_add_str(o, "nic", e->nic);
	gd_json_add_str(o, "gpu", e->mem);
	return o;
}

static json_object *outliers_json(const struct gd_ck_fleet_test *f)
{
	json_object *a = json_object_new_array();

	for (size_t i = 0; i < f->nout; i++) {
		json_object *o = json_object_new_object();

		json_object_object_add(o, "server", end_json(&f->outliers[i].end[0]));
		json_object_object_add(o, "client", end_json(&f->outliers[i].end[1]));
		gd_json_add_double(o, f->bw ? "bw_avg_gbps" : "lat_avg_us", f->outliers[i].value);
		gd_json_add_double(o, f->bw ? "below_median_pct" : "above_median_pct",
				   f->outliers[i].worse_pct);
		json_object_array_add(a, o);
	}
	return a;
}

int gd_ck_fleet_json(const struct gd_ck_fleet *fl, FILE *out)
{
	int ret = 0;

	for (size_t i = 0; fl && i < fl->n && !ret; i++) {
		const struct gd_ck_fleet_test *f = &fl->v[i];
		json_object *rec = gd_json_record("check_fleet");
		const char *m = f->bw ? "bw_avg_gbps" : "lat_avg_us", *u = f->bw ? "gbps" : "us";
		char k[48];

		gd_json_add_str(rec, "test", f->test);
		gd_json_add_str(rec, "metric", m);
		gd_json_add_int(rec, "pairs", (int64_t)f->st.count);
		snprintf(k, sizeof(k), "median_%s", u);
		gd_json_add_double(rec, k, f->st.median);
		snprintf(k, sizeof(k), "min_%s", u);
		gd_json_add_double(rec, k, f->st.min);
		snprintf(k, sizeof(k), "max_%s", u);
		gd_json_add_double(rec, k, f->st.max);
		gd_json_add_double(rec, "outlier_pct", f->pct);
		json_object_object_add(rec, "outliers", outliers_json(f));
		ret = gd_json_emit(rec, out);
	}
	return ret;
}

void gd_ck_fleet_free(struct gd_ck_fleet *fl)
{
	if (!fl)
		return;
	for (size_t i = 0; i < fl->n; i++)
		free(fl->v[i].outliers);
	free(fl->v);
	free(fl);
}
