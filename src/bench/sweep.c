/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "sweep.h"

#include <errno.h>
#include <math.h>

/* t(0.975, dof) for dof 1..30 */
static const double t95_small[30] = {
	12.706205, 4.302653, 3.182446, 2.776445, 2.570582, 2.446912, 2.364624, 2.306004,
	2.262157,  2.228139, 2.200985, 2.178813, 2.160369, 2.144787, 2.131450, 2.119905,
	2.109816,  2.100922, 2.093024, 2.085963, 2.079614, 2.073873, 2.068658, 2.063899,
	2.059539,  2.055529, 2.051831, 2.048407, 2.045230, 2.042272,
};

/* beyond 30: knots interpolated linearly in 1/dof; the last is the normal limit */
static const struct {
	double dof, t;
} t95_knots[] = {
	{30, 2.042272}, {40, 2.021075}, {60, 2.000298}, {120, 1.979930}, {INFINITY, 1.959964},
};

/*
 * perftest's run-to-run spread per size band: sample standard deviation /
 * mean of ib_write_bw's message rate (perftest 4.5+0.17, Debian) over
 * repeated alternating runs against gd_write_bw, in the Soft-RoCE QEMU guest
 * (TCG, rxe0 over veth0, server and client on one device) on the project's
 * 2-core development machine, quiet host, both tools with -u 20 (no
 * retransmit timeout in any run), 2026-11-24 00:04 UTC: the 9 perftest runs
 * per size of doc/perf-data/history.md's goal table (session E1,
 * doc/perf-data/2026-11-23-speed3/bw-write-read.runs.csv). Each band holds
 * the sizes up to `upto` bytes and takes the measured size it names. (The
 * first table, 39/40/30/25 %, came from runs with 67 ms retransmit timeouts
 * on a loaded host.)
 */
static const struct {
	uint64_t upto;
	double cv;
} perftest_cv[] = {
	{ 2048, 0.26 },	      /* 8 B, -n 1000, 9 runs */
	{ 32768, 0.23 },      /* 4 KiB, -n 500, 9 runs */
	{ 524288, 0.18 },     /* 64 KiB, -n 200, 9 runs */
	{ UINT64_MAX, 0.17 }, /* 1 MiB, -n 20, 9 runs */
};

double gd_sweep_perftest_cv(uint64_t size)
{
	size_t i = 0;

	while (size > perftest_cv[i].upto)
		i++;
	return perftest_cv[i].cv;
}

double gd_sweep_default_epsilon(uint64_t size)
{
	return 1.96 * gd_sweep_perftest_cv(size);
}

double gd_sweep_t95(size_t dof)
{
	double x;
	size_t i;

	if (dof == 0)
		return INFINITY;
	if (dof <= 30)
		return t95_small[dof - 1];
	x = 1.0 / (double)dof;
	for (i = 1; i < sizeof(t95_knots) / sizeof(t95_knots[0]); i++) {
		double x0 = 1.0 / t95_knots[i - 1].dof, x1 = 1.0 / t95_knots[i].dof;

		if (x >= x1)
			return t95_knots[i].t +
			       (t95_knots[i - 1].t - t95_knots[i].t) * (x - x1) / (x0 - x1);
	}
	return t95_knots[i - 1].t;
}

void gd_sweep_init(struct gd_sweep *sw, double epsilon, size_t min_windows, double min_seconds)
{
	sw->epsilon = isfinite(epsilon) && epsilon > 0 ? epsilon : GD_SWEEP_EPSILON;
	sw->min_windows = min_windows < 2 ? 2 : min_windows;
	sw->min_seconds = isfinite(min_seconds) && min_seconds > 0 ? min_seconds : 0;
	sw->fed = 0;
	sw->n = 0;
	sw->seconds = 0;
	sw->mean = 0;
	sw->m2 = 0;
}

int gd_sweep_add(struct gd_sweep *sw, double rate, double seconds)
{
	double d;

	if (!isfinite(rate) || !(rate > 0) || !isfinite(seconds) || !(seconds >= 0))
		return -EINVAL;
	sw->seconds += seconds;
	if (sw->fed++ == 0)
		return 0; /* the first window is the ramp-up: dropped */
	sw->n++;
	d = rate - sw->mean;
	sw->mean += d / (double)sw->n;
	sw->m2 += d * (rate - sw->mean);
	return 0;
}

void gd_sweep_get(const struct gd_sweep *sw, struct gd_sweep_result *res)
{
	res->n = sw->n;
	res->mean = sw->n ? sw->mean : 0;
	res->seconds = sw->seconds;
	res->half = INFINITY;
	res->rel = INFINITY;
	if (sw->n < 2)
		return;
	res->half =
		gd_sweep_t95(sw->n - 1) * sqrt(sw->m2 / (double)(sw->n - 1)) / sqrt((double)sw->n);
	if (sw->mean > 0)
		res->rel = res->half / sw->mean;
}

bool gd_sweep_done(const struct gd_sweep *sw)
{
	struct gd_sweep_result r;

	if (sw->n < sw->min_windows || sw->seconds < sw->min_seconds)
		return false;
	gd_sweep_get(sw, &r);
	return r.rel <= sw->epsilon;
}
