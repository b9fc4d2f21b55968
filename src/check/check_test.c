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

/* Seconds a run is expected to take: the measurement plus ~2 s of setup per size. */
double gd_ck_estimate(const struct gd_ck_test *t)
{
	uint64_t v[32];
	size_t n = gd_ck_test_sizes(t, v, 32);

	return (double)n * ((t->duration_s ? t->duration_s : 1) + 2.0);
}
