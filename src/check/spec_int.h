/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec loader's walkers (spec_walk.c), shared by spec.c and the files that load one section each
 * (spec_fleet.c: fleet; spec_manifest.c: manifest; spec_baseline.c: baseline) or one group of a
 * test's keys (spec_counters.c, spec_fan.c: the table gd_ck_test_key_groups, spec_groups.c):
 * every problem is "FILE:LINE:COLUMN: what; the fix" and -EINVAL. It names the spec's types
 * (spec_types.h), never the loader's face (spec.h): the files below spec.c do not reach up to it.
 */
#ifndef GD_CHECK_SPEC_INT_H
#define GD_CHECK_SPEC_INT_H

#include <yaml.h>

#include "spec_types.h"

struct gd_ck_ld {
	yaml_document_t doc;
	const char *name;
	char *err;
	size_t errlen;
	struct gd_ck_spec *s;
};

typedef int (*gd_ck_key_fn)(struct gd_ck_ld *l, const char *key, yaml_node_t *val, void *ctx);

/* At a node's start (NULL: the file's start). */
int gd_ck_ld_fail(struct gd_ck_ld *l, const yaml_node_t *n, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
int gd_ck_ld_scalar(struct gd_ck_ld *l, yaml_node_t *n, const char *what, const char **out);
int gd_ck_ld_str(struct gd_ck_ld *l, yaml_node_t *n, const char *what, char *buf, size_t len);
int gd_ck_ld_int(struct gd_ck_ld *l, yaml_node_t *n, const char *what, long min, long max,
		 long *out);
/* Every key of the mapping must be one of the section's in the key table (spec_keys.c), each
 * once. */
int gd_ck_ld_each_key(struct gd_ck_ld *l, yaml_node_t *map, const char *what, const char *section,
		      gd_ck_key_fn fn, void *ctx);
/* A numeric key's value against the key table's limits; a whole number for a key, so checked. */
int gd_ck_ld_in_range(struct gd_ck_ld *l, yaml_node_t *n, const char *section, const char *key,
		      uint64_t v, const char *text, const char *unit);
int gd_ck_ld_key_int(struct gd_ck_ld *l, yaml_node_t *n, const char *section, const char *key,
		     long *out);
yaml_node_t *gd_ck_ld_node(struct gd_ck_ld *l, int i);
/* At a parser mark (NULL: the file's start). */
int gd_ck_ld_fail_at(struct gd_ck_ld *l, const yaml_mark_t *m, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* "a mapping", "a list", "an empty value ...", "a scalar": for messages. */
const char *gd_ck_ld_kind_name(const yaml_node_t *n);
/* The value of key in a mapping, NULL when absent. */
yaml_node_t *gd_ck_ld_find(struct gd_ck_ld *l, yaml_node_t *map, const char *key);

/* Sections: fleet (spec_fleet.c), manifest (spec_manifest.c), baseline (spec_baseline.c). */
int gd_ck_load_fleet(struct gd_ck_ld *l, yaml_node_t *n);
int gd_ck_load_manifest(struct gd_ck_ld *l, yaml_node_t *n);
int gd_ck_load_baseline(struct gd_ck_ld *l, yaml_node_t *n);

/*
 * A group of a test's keys that a file of its own loads and rules on. load: 0, -EINVAL, or 1
 * when the key is not one of the group's (NULL: the group has no keys of its own); rules: the
 * rules between the group's keys and the test's others, run once the test is loaded. spec.c
 * walks the table and names no group.
 */
struct gd_ck_test_key_group {
	const char *what;	/* "counters", for people */
	int (*load)(struct gd_ck_ld *l, const char *key, yaml_node_t *v, struct gd_ck_test *t);
	int (*rules)(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t);
};
/* The groups (spec_groups.c), in the order they are asked. */
const struct gd_ck_test_key_group *gd_ck_test_key_groups(size_t *n);

/* pairs: all-nics: a bandwidth test at one size, thresholds min_bw (Gb/s or % line)
 * (spec_fleet.c). */
int gd_ck_all_nics_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t);
/* A test's counters_port and tolerate keys (spec_counters.c). */
int gd_ck_load_counters_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v,
			    struct gd_ck_test *t);
int gd_ck_counters_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t);
/* A test's root and min_congestion_factor keys (spec_fan.c). */
int gd_ck_load_fan_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, struct gd_ck_test *t);
int gd_ck_fan_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t);

#endif
