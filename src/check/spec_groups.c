/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The groups of a test's keys that files of their own load (spec_int.h): spec.c asks each group
 * for a key it does not know itself, and each group's rules once the test is loaded. A new group
 * is a line here, not a change to spec.c.
 */
#include "spec_int.h"

static const struct gd_ck_test_key_group groups[] = {
	{ "all-nics", NULL, gd_ck_all_nics_rules },
	{ "counters", gd_ck_load_counters_key, gd_ck_counters_rules },
	{ "fan", gd_ck_load_fan_key, gd_ck_fan_rules },
};

const struct gd_ck_test_key_group *gd_ck_test_key_groups(size_t *n)
{
	*n = sizeof(groups) / sizeof(groups[0]);
	return groups;
}
