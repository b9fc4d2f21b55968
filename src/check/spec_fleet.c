/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec's fleet section (check_fleet.c uses it under mpirun/srun), and the rules of
 * a test with pairs: all-nics (check_allnics.c runs it):
 *
 *   fleet:
 *     outlier: 10%     # a pair more than 10 % worse than its test's fleet median
 *                      # (below it for bandwidth, above it for latency) is a FAIL; off: none
 */
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"
#include "spec_values.h"
#include "log.h"

/* "N%" with 0 < N < 100, or off (0). */
static int percent_to(struct gd_ck_ld *l, yaml_node_t *v, const char *what, double *out)
{
	const char *s;
	double pct;
	int ret = gd_ck_ld_scalar(l, v, what, &s);

	if (ret)
		return ret;
	if (!strcmp(s, "off")) {
		*out = 0;
		return 0;
	}
	if (gd_ck_parse_percent(s, &pct) || !(pct > 0 && pct < 100))
		return gd_ck_ld_fail(l, v, "%s must be a percentage above 0 and below 100, e.g. "
				     "'10%%' (or off), not '%s'", what, gd_excerpt(s));
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
	return gd_ck_ld_each_key(l, n, "fleet", "fleet", fleet_key, NULL);
}

int gd_ck_all_nics_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t)
{
	yaml_node_t *at;

	if (t->pairs != GD_CK_ALL_NICS)
		return 0;
	if ((at = t->kind != GD_KIND_BW ? gd_ck_ld_find(l, n, "type") :
		  t->sweep_min ? gd_ck_ld_find(l, n, "sweep") :
		  t->bond_balance ? gd_ck_ld_find(l, n, "check") : NULL))
		return gd_ck_ld_fail(l, at, "test '%s': pairs: all-nics is a bandwidth test at one "
				     "size (type: bw, size, no sweep or bond-balance)", gd_excerpt(t->name));
	for (size_t i = 0; i < t->nth; i++)
		if (t->th[i].metric != GD_CK_BW_AVG || t->th[i].kind == GD_CK_PCIE)
			return gd_ck_ld_fail(l, gd_ck_ld_find(l, n, "thresholds"), "test '%s': "
					     "pairs: all-nics judges the "
					     "aggregate with min_bw in Gb/s or '%% line' (of the "
					     "summed line rates); '%s' is not one",
					     gd_excerpt(t->name), gd_excerpt(t->th[i].text));
	return 0;
}
