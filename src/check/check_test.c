/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Facts of one spec test that the runner and the MPI pair patterns both need:
 * its sizes and its time estimate. */
#include "check_int.h"

/* Sizes of a run: one, or the sweep's powers of two. */
size_t gd_ck_test_sizes(const struct gd_ck_test *t, uint64_t *v, size_t max)
{
	size_t n = 0;

	if (!t->sweep_min) {
		v[0] = t->size;
		return 1;
	}
	for (uint64_t s = t->sweep_min; s <= t->sweep_max && n < max; s *= 2)
		v[n++] = s;
	return n;
}

/* Seconds of one size's measurement at a rate and a per-message cost: the duration, or the
 * iterations (the engine's default when the spec gives none) moved at that rate. */
static double size_seconds(const struct gd_ck_test *t, uint64_t size, double gbps, double msg_s)
{
	uint64_t iters = t->iters ? t->iters :
			 t->kind == GD_KIND_BW && t->op == GD_OP_WRITE ? 5000 : 1000;

	if (t->duration_s)
		return t->duration_s;
	return (double)iters * ((double)size * 8 / (gbps * 1e9) + msg_s);
}

/* Seconds a run is expected to take: the measurement (at 10 Gb/s, 5 us a message) plus ~2 s of
 * setup per size, times its repeat. */
double gd_ck_estimate(const struct gd_ck_test *t)
{
	uint64_t v[32];
	size_t n = gd_ck_test_sizes(t, v, 32);
	double s = 0;

	for (size_t i = 0; i < n; i++)
		s += size_seconds(t, v[i], 10, 5e-6) + 2.0;
	return t->repeat > 1 ? s * t->repeat : s;
}

/* The longest one size may take before gd_check ends it: the work at a slow 0.1 Gb/s and
 * 100 us a message (Soft-RoCE under emulation runs at 0.2), plus 60 s of setup. */
unsigned gd_ck_deadline_s(const struct gd_ck_test *t, uint64_t size)
{
	double s = size_seconds(t, size, 0.1, 100e-6) + 60;

	return s > 86400 * 7 ? 86400 * 7 : (unsigned)s;
}
