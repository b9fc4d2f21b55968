/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The spec loader's walkers (spec_int.h), shared by spec.c and the section files. */
#include "config.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"
#include "spec_keys.h"
#include "log.h"

#define ld gd_ck_ld

/* FILE:LINE:COL: message; -EINVAL. A NULL mark is the file's start. */
__attribute__((format(printf, 3, 0))) static int vfail(struct ld *l, const yaml_mark_t *m,
						       const char *fmt, va_list ap)
{
	char msg[768];

	vsnprintf(msg, sizeof(msg), fmt, ap);
	for (char *c = msg; *c; c++) /* input is quoted by gd_excerpt; no control byte gets out */
		if ((unsigned char)*c < 0x20 || *c == 0x7f)
			*c = '?';
	snprintf(l->err, l->errlen, "%s:%lu:%lu: %s", l->name, m ? (unsigned long)m->line + 1 : 1UL,
		 m ? (unsigned long)m->column + 1 : 1UL, msg);
	return -EINVAL;
}

__attribute__((format(printf, 3, 4))) int gd_ck_ld_fail_at(struct ld *l, const yaml_mark_t *m,
							 const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vfail(l, m, fmt, ap);
	va_end(ap);
	return ret;
}

int gd_ck_ld_fail(struct gd_ck_ld *l, const yaml_node_t *n, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vfail(l, n ? &n->start_mark : NULL, fmt, ap);
	va_end(ap);
	return ret;
}

yaml_node_t *gd_ck_ld_node(struct ld *l, int i)
{
	return yaml_document_get_node(&l->doc, i);
}

const char *gd_ck_ld_kind_name(const yaml_node_t *n)
{
	return n->type == YAML_MAPPING_NODE ? "a mapping" :
	       n->type == YAML_SEQUENCE_NODE ? "a list" :
	       !n->data.scalar.length ? "an empty value (write [] for none, or leave the key out)" :
					"a scalar";
}

/* A scalar's text; NUL bytes inside are refused. */
int gd_ck_ld_scalar(struct ld *l, yaml_node_t *n, const char *what, const char **out)
{
	if (n->type != YAML_SCALAR_NODE)
		return gd_ck_ld_fail(l, n, "%s must be a scalar, not %s", what, gd_ck_ld_kind_name(n));
	if (strlen((const char *)n->data.scalar.value) != n->data.scalar.length)
		return gd_ck_ld_fail(l, n, "%s contains a NUL character", what);
	*out = (const char *)n->data.scalar.value;
	return 0;
}

int gd_ck_ld_str(struct ld *l, yaml_node_t *n, const char *what, char *buf, size_t len)
{
	const char *v;
	int ret = gd_ck_ld_scalar(l, n, what, &v);

	if (ret)
		return ret;
	if (strlen(v) >= len || !*v)
		return gd_ck_ld_fail(l, n, "%s must be 1 to %zu characters", what, len - 1);
	snprintf(buf, len, "%s", v);
	return 0;
}

int gd_ck_ld_int(struct ld *l, yaml_node_t *n, const char *what, long min, long max, long *out)
{
	const char *v;
	char *end;
	int ret = gd_ck_ld_scalar(l, n, what, &v);

	if (ret)
		return ret;
	errno = 0;
	*out = strtol(v, &end, 10);
	if (!*v || *end || errno || *out < min || *out > max)
		return gd_ck_ld_fail(l, n, "%s must be a whole number from %ld to %ld, not '%s'", what, min,
			    max, gd_excerpt(v));
	return 0;
}

/* A value of a numeric key against the limits of the key table (spec_keys.c): 0, or
 * FILE:LINE:COL with the limits and whose they are. text is the value as written. */
int gd_ck_ld_in_range(struct ld *l, yaml_node_t *n, const char *section, const char *key,
		      uint64_t v, const char *text, const char *unit)
{
	const struct gd_ck_key *k = gd_ck_key_find(section, key);
	uint64_t min, max;
	char who[96];

	if (!k) /* every key the loader reads is in the table: tests/unit/test_check_spec.c */
		return gd_ck_ld_fail(l, n, "%s: not in the spec's key table", key);
	if (gd_ck_key_valid(k, v))
		return 0;
	gd_ck_key_limits(k, &min, &max, who, sizeof(who));
	return gd_ck_ld_fail(l, n, "%s must be %sfrom %llu to %llu%s, not '%s' (the limit of %s)",
			     key, *unit ? "" : "a whole number ", (unsigned long long)min,
			     (unsigned long long)max, unit, gd_excerpt(text), who);
}

/* A whole number (decimal digits only) for a key of the key table, within its limits. */
int gd_ck_ld_key_int(struct ld *l, yaml_node_t *n, const char *section, const char *key,
		     long *out)
{
	const char *v;
	char *end;
	unsigned long long x;
	int ret = gd_ck_ld_scalar(l, n, key, &v);

	if (ret)
		return ret;
	errno = 0;
	x = strtoull(v, &end, 10);
	if (!isdigit((unsigned char)v[0]) || *end || errno || x > LONG_MAX)
		x = ULLONG_MAX; /* out of every range: the message gives the range */
	*out = (long)(x > LONG_MAX ? 0 : x);
	return gd_ck_ld_in_range(l, n, section, key, x, v, "");
}

/* Walk a mapping: every key must be a scalar among the section's keys (spec_keys.c). */
int gd_ck_ld_each_key(struct ld *l, yaml_node_t *map, const char *what, const char *section,
		      gd_ck_key_fn fn, void *ctx)
{
	char known[512];

	gd_ck_key_list(section, known, sizeof(known));
	if (map->type != YAML_MAPPING_NODE)
		return gd_ck_ld_fail(l, map, "%s must be a mapping (key: value), not %s", what,
			    gd_ck_ld_kind_name(map));
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = gd_ck_ld_node(l, p->key), *v = gd_ck_ld_node(l, p->value);
		const char *key;
		int ret;

		if (!k || !v)
			return gd_ck_ld_fail(l, map, "%s: broken document", what);
		ret = gd_ck_ld_scalar(l, k, "a key", &key);
		if (ret)
			return ret;
		if (strlen(key) > 40 || !gd_ck_key_find(section, key))
			return gd_ck_ld_fail(l, k, "unknown key '%s' in %s; known keys:%s",
					     gd_excerpt(key), what, known);
		for (yaml_node_pair_t *q = map->data.mapping.pairs.start; q < p; q++) {
			yaml_node_t *qk = gd_ck_ld_node(l, q->key);

			if (qk && qk->type == YAML_SCALAR_NODE &&
			    !strcmp((const char *)qk->data.scalar.value, key))
				return gd_ck_ld_fail(l, k, "key '%s' appears twice in %s",
						     gd_excerpt(key), what);
		}
		ret = fn(l, key, v, ctx);
		if (ret)
			return ret;
	}
	return 0;
}

yaml_node_t *gd_ck_ld_find(struct ld *l, yaml_node_t *map, const char *key)
{
	for (yaml_node_pair_t *p = map->data.mapping.pairs.start; p < map->data.mapping.pairs.top;
	     p++) {
		yaml_node_t *k = gd_ck_ld_node(l, p->key);

		if (k && k->type == YAML_SCALAR_NODE && !strcmp((char *)k->data.scalar.value, key))
			return gd_ck_ld_node(l, p->value);
	}
	return NULL;
}
