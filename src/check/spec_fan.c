/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A fan test's keys (pairs: one-to-many or many-to-one; check_fan.c judges them):
 *
 *   root: 0                      # the rank every pair shares (default 0)
 *   min_congestion_factor: 0.8   # the fan's aggregate at once against one pair alone
 *
 * Both are refused on any other pattern (they would do nothing there), and a fan measures
 * bandwidth (type: bw): a congestion factor of latencies is not defined here.
 */
#include <stdio.h>
#include <string.h>

#include "log.h"
#include "spec_int.h"
#include "spec_values.h"

int gd_ck_load_fan_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, struct gd_ck_test *t)
{
	const char *s;
	long n;
	int ret;

	if (!strcmp(key, "root")) {
		ret = gd_ck_ld_key_int(l, v, "test", key, &n);
		t->root = (int)n;
		return ret;
	}
	if (strcmp(key, "min_congestion_factor"))
		return 1;
	ret = gd_ck_ld_scalar(l, v, key, &s);
	if (ret)
		return ret;
	if (gd_ck_parse_factor(s, &t->min_congestion) || !(t->min_congestion > 0) ||
	    t->min_congestion > GD_CK_MAX_FAN_FACTOR)
		return gd_ck_ld_fail(l, v, "min_congestion_factor must be a number above 0 and at "
				     "most %d (the fan's pairs at once against one pair alone; 1 "
				     "is no loss), e.g. 0.8, not '%s'", GD_CK_MAX_FAN_FACTOR,
				     gd_excerpt(s));
	return 0;
}

int gd_ck_fan_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t)
{
	bool fan = t->pairs == GD_CK_HOSTS && !t->nhosts && GD_CK_PAT_FAN(t->pattern);
	static const char *const keys[] = { "root", "min_congestion_factor" };
	yaml_node_t *v;

	for (size_t i = 0; i < 2 && !fan; i++)
		if ((v = gd_ck_ld_find(l, n, keys[i])))
			return gd_ck_ld_fail(l, v, "test '%s': %s is for 'pairs: one-to-many' or "
					     "'pairs: many-to-one'; use one of them or leave it "
					     "out", gd_excerpt(t->name), keys[i]);
	if (fan && t->kind != GD_KIND_BW)
		return gd_ck_ld_fail(l, gd_ck_ld_find(l, n, "type") ?: n, "test '%s': a fan "
				     "(pairs: %s) measures bandwidth and its congestion: write "
				     "type: bw", gd_excerpt(t->name), gd_ck_pattern_name(t->pattern));
	return 0;
}
