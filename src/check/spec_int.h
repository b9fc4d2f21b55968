/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec loader's walkers (spec_walk.c), shared by spec.c and the files that load one section each
 * (spec_fleet.c: fleet; spec_manifest.c: manifest): every problem is
 * "FILE:LINE:COLUMN: what; the fix" and -EINVAL.
 */
#ifndef GD_CHECK_SPEC_INT_H
#define GD_CHECK_SPEC_INT_H

#include <yaml.h>

#include "spec.h"

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

/* Sections in spec_fleet.c. */
int gd_ck_load_fleet(struct gd_ck_ld *l, yaml_node_t *n);
/* pairs: all-nics: a bandwidth test at one size, thresholds min_bw (Gb/s or % line). */
int gd_ck_all_nics_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t);
int gd_ck_load_manifest(struct gd_ck_ld *l, yaml_node_t *n);
/* A test's counters_port and tolerate keys (spec_counters.c): 0, -EINVAL, 1 not one of them;
 * the rules between them and the test's other keys. */
int gd_ck_load_counters_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v,
			    struct gd_ck_test *t);
int gd_ck_counters_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t);
/* A test's root and min_congestion_factor keys (spec_fan.c): 0, -EINVAL, 1 not one of them;
 * the rules between them and the pattern. */
int gd_ck_load_fan_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, struct gd_ck_test *t);
int gd_ck_fan_rules(struct gd_ck_ld *l, yaml_node_t *n, const struct gd_ck_test *t);
int gd_ck_load_baseline(struct gd_ck_ld *l, yaml_node_t *n);

#endif
