/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec's fleet section (check_fleet.c uses it under mpirun/srun):
 *
 *   fleet:
 *     outlier: 10%     # a pair more than 10 % worse than its test's fleet median
 *                      # (below it for bandwidth, above it for latency) is a FAIL; off: none
 */
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"

/* "N%" with 0 < N < 100, or off (0). */
static int percent_to(struct gd_ck_ld *l, yaml_node_t *v, const char *what, double *out)
{
	const char *s;
	char *end;
	double pct;
	int ret = gd_ck_ld_scalar(l, v, what, &s);

	if (ret)
		return ret;
	if (!strcmp(s, "off")) {
		*out = 0;
		return 0;
	}
	pct = strtod(s, &end);
	if (end == s || strcmp(end, "%") || !(pct > 0 && pct < 100))
		return gd_ck_ld_fail(l, v, "%s must be a percentage above 0 and below 100, e.g. "
				     "'10%%' (or off), not '%s'", what, s);
	*out = pct;
	return 0;
}

static int fleet_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	(void)key;
	(void)ctx;
	return percent_to(l, v, "fleet: outlier", &l->s->fleet_outlier_pct);
}

int gd_ck_load_fleet(struct gd_ck_ld *l, yaml_node_t *n)
{
	l->s->fleet_given = true;
	return gd_ck_ld_each_key(l, n, "fleet", " outlier ", fleet_key, NULL);
}
