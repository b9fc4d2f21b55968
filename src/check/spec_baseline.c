/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The golden file's baseline section (doc/check.md, "Baseline of good nodes"), written by
 * 'gd_check --baseline' beside manifest: and loaded here:
 *
 *   baseline:
 *     nodes: 8                # good nodes it was built from (3 or more)
 *     k: 4                    # robust distances a value may lie on the bad side (1..20)
 *     min_spread: 1%          # the spread's floor, % of the median (a MAD of 0)
 *     sku: "gpus=8 gpu_model=... nics=8 nic_model=..."
 *     kernel: "6.8.0-45-generic"   # and nvidia_driver, cuda, rdma_core, libfabric, gdperf
 *     checks:
 *       - check: "bw ofi:tcp loopback: min_bw"
 *         size: 65536
 *         unit: Gb/s
 *         median: 14.0
 *         mad: 0.21           # scaled by 1.4826
 *         n: 8
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "robust.h"
#include "spec_int.h"
#include "spec_values.h"

const char *const gd_ck_bl_fact_keys[GD_CK_BL_FACTS] = { "kernel", "nvidia_driver", "cuda",
							 "rdma_core", "libfabric", "gdperf" };

/* A finite decimal number in [lo, hi]. */
static int real_to(struct gd_ck_ld *l, yaml_node_t *v, const char *what, double lo, double hi,
		   double *out)
{
	const char *s;
	char *end;
	int ret = gd_ck_ld_scalar(l, v, what, &s);

	if (ret)
		return ret;
	errno = 0;
	*out = strtod(s, &end);
	if (!s[0] || *end || errno || !isfinite(*out) || strpbrk(s, "xXpP") || *out < lo ||
	    *out > hi)
		return gd_ck_ld_fail(l, v, "%s must be a decimal number from %g to %g, not '%s'",
				     what, lo, hi, gd_excerpt(s));
	return 0;
}

static int check_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_bl_check *c = ctx;
	double size;
	long n;
	int ret;

	if (!strcmp(key, "n")) {
		ret = gd_ck_ld_key_int(l, v, "baseline check", key, &n);
		c->n = (int)n;
		return ret;
	}
	if (!strcmp(key, "median"))
		return real_to(l, v, "baseline: median", -1e300, 1e300, &c->median);
	if (!strcmp(key, "mad"))
		return real_to(l, v, "baseline: mad", 0, 1e300, &c->mad);
	if (!strcmp(key, "size")) {
		ret = real_to(l, v, "baseline: size", 0, 1e15, &size);
		c->size = (uint64_t)size;
		return ret;
	}
	if (!strcmp(key, "check"))
		return gd_ck_ld_str(l, v, "baseline: check", c->check, sizeof(c->check));
	if (!strcmp(key, "test"))
		return gd_ck_ld_str(l, v, "baseline: test", c->test, sizeof(c->test));
	if (!strcmp(key, "run"))
		return gd_ck_ld_str(l, v, "baseline: run", c->run, sizeof(c->run));
	if (!strcmp(key, "stat"))
		return gd_ck_ld_str(l, v, "baseline: stat", c->stat, sizeof(c->stat));
	ret = gd_ck_ld_str(l, v, "baseline: unit", c->unit, sizeof(c->unit));
	c->higher = strcmp(c->unit, "us") != 0; /* latency is the one lower-is-better unit */
	return ret;
}

static int load_checks(struct gd_ck_ld *l, yaml_node_t *v, struct gd_ck_baseline *b)
{
	size_t cnt;

	if (v->type != YAML_SEQUENCE_NODE)
		return gd_ck_ld_fail(l, v, "baseline: checks must be a list of entries");
	cnt = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	if (!(b->c = calloc(cnt ? cnt : 1, sizeof(*b->c))))
		return -ENOMEM;
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
	     it++) {
		yaml_node_t *e = gd_ck_ld_node(l, *it);
		struct gd_ck_bl_check *c = &b->c[b->n++];
		int ret;

		c->line = (int)e->start_mark.line + 1;
		c->column = (int)e->start_mark.column + 1;
		if ((ret = gd_ck_ld_each_key(l, e, "a baseline check", "baseline check", check_key,
					     c)))
			return ret;
		if (!c->check[0] || !c->unit[0] || !c->n)
			return gd_ck_ld_fail(l, e, "a baseline check needs check, unit, median, "
					     "mad and n ('gd_check --baseline' writes them)");
	}
	return 0;
}

static int baseline_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_baseline *b = ctx;
	const char *s;
	long n;
	int ret;

	if (!strcmp(key, "nodes")) {
		ret = gd_ck_ld_key_int(l, v, "baseline", key, &n);
		b->nodes = (int)n;
		return ret;
	}
	if (!strcmp(key, "k"))
		return real_to(l, v, "baseline: k", GD_CK_BL_K_MIN, GD_CK_BL_K_MAX, &b->k);
	if (!strcmp(key, "min_spread")) {
		if ((ret = gd_ck_ld_scalar(l, v, "baseline: min_spread", &s)))
			return ret;
		if (gd_ck_parse_percent(s, &b->min_spread_pct) || !(b->min_spread_pct > 0) ||
		    b->min_spread_pct > 100)
			return gd_ck_ld_fail(l, v, "baseline: min_spread must be a percentage above "
					     "0 and at most 100, e.g. '1%%', not '%s'", gd_excerpt(s));
		return 0;
	}
	if (!strcmp(key, "checks"))
		return load_checks(l, v, b);
	if (!strcmp(key, "sku"))
		return gd_ck_ld_str(l, v, "baseline: sku", b->sku, sizeof(b->sku));
	if (!strcmp(key, "spec_sha256"))
		return gd_ck_ld_str(l, v, "baseline: spec_sha256", b->spec_sha256,
				    sizeof(b->spec_sha256));
	for (int i = 0; i < GD_CK_BL_FACTS; i++)
		if (!strcmp(key, gd_ck_bl_fact_keys[i]))
			return gd_ck_ld_str(l, v, "a baseline fact", b->fact[i], sizeof(b->fact[i]));
	return -EINVAL;
}

int gd_ck_load_baseline(struct gd_ck_ld *l, yaml_node_t *n)
{
	struct gd_ck_baseline *b = &l->s->baseline;

	b->given = true;
	return gd_ck_ld_each_key(l, n, "baseline", "baseline", baseline_key, b);
}
