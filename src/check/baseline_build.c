/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The refusals of gd_check --baseline and the golden file it writes (baseline.h). A node is
 * never compared with itself, nor a SKU with another, nor a spec's checks with another's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "check_manifest.h"
#include "check_sku.h"
#include "robust.h"
#include "version.h"

const struct gd_ck_bl_value *gd_ck_bl_find(const struct gd_ck_bl_node *nd, const char *check)
{
	for (size_t i = 0; i < nd->n; i++)
		if (!strcmp(nd->v[i].check, check))
			return &nd->v[i];
	return NULL;
}

/* Mixed SKUs: every SKU with its nodes. */
static int mixed_skus(const struct gd_ck_bl_node *nd, size_t n, char *why, size_t len)
{
	char key[256], other[256];
	size_t o = (size_t)snprintf(why, len, "the reports are of more than one SKU:");

	for (size_t i = 0; i < n && o < len; i++) {
		bool first = true;

		gd_ck_sku_key(&nd[i].sku, key, sizeof(key));
		for (size_t j = 0; j < i && first; j++) {
			gd_ck_sku_key(&nd[j].sku, other, sizeof(other));
			first = strcmp(key, other) != 0;
		}
		if (!first)
			continue;
		o += (size_t)snprintf(why + o, len - o, " [%s]:", key);
		for (size_t j = i; j < n && o < len; j++) {
			gd_ck_sku_key(&nd[j].sku, other, sizeof(other));
			if (!strcmp(key, other))
				o += (size_t)snprintf(why + o, len - o, " %s", nd[j].host);
		}
	}
	if (o < len)
		snprintf(why + o, len - o, "; build one baseline per SKU from its own nodes");
	return -EINVAL;
}

/* The same node twice, different specs, different SKUs. */
static int same_kind(const struct gd_ck_bl_node *nd, size_t n, char *why, size_t len)
{
	char a[256], b[256];

	for (size_t i = 0; i < n; i++)
		for (size_t j = 0; j < i; j++)
			if (!strcmp(nd[i].host, nd[j].host)) {
				snprintf(why, len, "%s and %s are both of node %s: a node is never "
					 "compared with itself; give each node's report once",
					 nd[j].path, nd[i].path, nd[i].host);
				return -EINVAL;
			}
	for (size_t i = 1; i < n; i++) {
		if (strcmp(nd[i].spec_sha256, nd[0].spec_sha256)) {
			snprintf(why, len, "%s (%s) and %s (%s) ran different specs (sha256 %.12s, "
				 "%.12s): a baseline compares one spec's checks; run the same spec "
				 "on every node", nd[0].path, nd[0].host, nd[i].path, nd[i].host,
				 nd[0].spec_sha256, nd[i].spec_sha256);
			return -EINVAL;
		}
		gd_ck_sku_key(&nd[0].sku, a, sizeof(a));
		gd_ck_sku_key(&nd[i].sku, b, sizeof(b));
		if (strcmp(a, b))
			return mixed_skus(nd, n, why, len);
	}
	return 0;
}

/* Every node measured the same checks, and every one PASSed. */
static int same_checks(const struct gd_ck_bl_node *nd, size_t n, char *why, size_t len)
{
	for (size_t i = 0; i < n; i++)
		for (size_t c = 0; c < nd[i].n; c++) {
			const struct gd_ck_bl_value *v = &nd[i].v[c];

			for (size_t j = 0; j < n; j++)
				if (!gd_ck_bl_find(&nd[j], v->check)) {
					snprintf(why, len, "node %s measured '%s', node %s did not: "
						 "the reports are of different tests; run the same "
						 "spec on every node", nd[i].host, v->check,
						 nd[j].host);
					return -EINVAL;
				}
			if (strcmp(v->status, "PASS")) {
				snprintf(why, len, "node %s: '%s' is %s (%s): a baseline is built "
					 "from good nodes' passing figures; rerun it on a quiet node "
					 "or leave the node out", nd[i].host, v->check, v->status,
					 nd[i].path);
				return -EINVAL;
			}
		}
	if (!nd[0].n) {
		snprintf(why, len, "%s: no measured check (a test with a threshold or none): "
			 "nothing to build a baseline of", nd[0].path);
		return -EINVAL;
	}
	return 0;
}

/* A node whose manifest field differs from the other nodes' most common value: named. */
static int same_manifest(const struct gd_ck_bl_node *nd, size_t n, char *why, size_t len)
{
	struct gd_ck_sku_field *f = calloc(n * GD_CK_SKU_FIELDS, sizeof(*f));
	size_t *nf = calloc(n, sizeof(*nf));
	int ret = f && nf ? 0 : -ENOMEM;

	for (size_t i = 0; !ret && i < n; i++)
		nf[i] = gd_ck_sku_fields(&nd[i].sku, f + i * GD_CK_SKU_FIELDS, GD_CK_SKU_FIELDS);
	for (size_t k = 0; !ret && k < nf[0]; k++) {
		size_t best = 0, most = 0;

		for (size_t i = 0; i < n; i++) { /* the most common value: the fleet's */
			size_t c = 0;

			for (size_t j = 0; j < n; j++)
				c += k < nf[j] && !strcmp(f[j * GD_CK_SKU_FIELDS + k].value,
							  f[i * GD_CK_SKU_FIELDS + k].value);
			if (c > most)
				most = c, best = i;
		}
		for (size_t i = 0; !ret && i < n && most < n; i++) {
			const struct gd_ck_sku_field *x = &f[i * GD_CK_SKU_FIELDS + k],
						     *m = &f[best * GD_CK_SKU_FIELDS + k];

			if (strcmp(x->value, m->value)) {
				snprintf(why, len, "node %s differs in its manifest: %s is '%s' where "
					 "%zu of %zu nodes have '%s' (%s); a baseline's nodes share "
					 "one manifest: bring the node to the fleet's or leave its "
					 "report out", nd[i].host, x->name, x->value, most, n,
					 m->value, nd[i].path);
				ret = -EINVAL;
			}
		}
	}
	free(f);
	free(nf);
	return ret;
}

/* A YAML double-quoted string (control bytes as \xNN). */
static void yq(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '"' || c == '\\')
			fprintf(f, "\\%c", c);
		else if (c < 0x20 || c == 0x7f)
			fprintf(f, "\\x%02x", c);
		else
			fputc(c, f);
	}
	fputc('"', f);
}

struct bl_out {
	const struct gd_ck_bl_node *nd;
	size_t n;
	double k;
};

/* The manifest the nodes share: counts, NICs (bus id, firmware), GPUs (bus id). */
static void write_manifest(FILE *f, const struct gd_ck_sku *s)
{
	fprintf(f, "manifest:\n  gpus: %d\n  nics: %d\n", s->gpus, s->nics);
	fputs(s->nnic ? "  nic:\n" : "  nic: []\n", f);
	for (size_t i = 0; i < s->nnic; i++) {
		fputs("    - name: ", f);
		yq(f, s->nic[i].name);
		if (s->nic[i].busid[0]) {
			fputs("\n      busid: ", f);
			yq(f, s->nic[i].busid);
		}
		if (s->nic[i].firmware[0]) {
			fputs("\n      firmware: ", f);
			gd_ck_fw_quote(f, s->nic[i].firmware);
		}
		fputc('\n', f);
	}
	fputs(s->ngpu ? "  gpu:\n" : "  gpu: []\n", f);
	for (size_t i = 0; i < s->ngpu; i++) {
		fputs("    - busid: ", f);
		yq(f, s->gpu[i].busid);
		fputc('\n', f);
	}
}

/* One check's median, scaled MAD and N over the nodes. */
static int write_check(FILE *f, const struct bl_out *o, const struct gd_ck_bl_value *v0)
{
	double *x = malloc(o->n * sizeof(*x)), med, mad;
	const char *colon = strrchr(v0->check, ':');

	if (!x)
		return -ENOMEM;
	for (size_t i = 0; i < o->n; i++)
		x[i] = gd_ck_bl_find(&o->nd[i], v0->check)->value;
	med = gd_ck_median(x, o->n);
	mad = gd_ck_mad(x, o->n, med);
	free(x);
	fputs("    - check: ", f);
	yq(f, v0->check);
	if (colon && strchr(v0->check, ' ') < colon) { /* "TEST RUN: STAT" */
		const char *sp = strchr(v0->check, ' ');
		char part[160];

		snprintf(part, sizeof(part), "%.*s", (int)(sp - v0->check), v0->check);
		fputs("\n      test: ", f);
		yq(f, part);
		snprintf(part, sizeof(part), "%.*s", (int)(colon - sp - 1), sp + 1);
		fputs("\n      run: ", f);
		yq(f, part);
	}
	if (colon) {
		fputs("\n      stat: ", f);
		yq(f, colon + 1 + (colon[1] == ' '));
	}
	fprintf(f, "\n      size: %llu\n      unit: ", (unsigned long long)v0->size);
	yq(f, v0->unit);
	fprintf(f, "\n      median: %.6g\n      mad: %.6g\n      n: %zu\n", med, mad, o->n);
	return 0;
}

static int fill(FILE *f, void *ctx)
{
	const struct bl_out *o = ctx;
	const struct gd_ck_sku *s = &o->nd[0].sku;
	char key[256];
	int ret = 0;

	gd_ck_sku_key(s, key, sizeof(key));
	fprintf(f, "# gd_check golden file with a baseline of %zu good nodes, written by 'gd_check "
		"--baseline' (gdperf %s):\n# judge a node with 'include: THIS_FILE' in the same "
		"spec, or its report with\n# 'gd_check --golden THIS_FILE REPORT.json'.\n"
		"version: 1\nname: ", o->n, gd_version());
	yq(f, key);
	fputs("\n\n", f);
	write_manifest(f, s);
	fprintf(f, "\n# per check: the median of the nodes, the MAD scaled by %g, and N; a value "
		"FAILs\n# beyond k robust distances (MAD, at least min_spread of the median) on "
		"the bad side\nbaseline:\n  nodes: %zu\n  k: %g\n  min_spread: %g%%\n  sku: ",
		GD_CK_MAD_SCALE, o->n, o->k, GD_CK_BL_MIN_SPREAD_PCT);
	yq(f, key);
	fputs("\n  spec_sha256: ", f);
	yq(f, o->nd[0].spec_sha256);
	for (int i = 0; i < GD_CK_BL_FACTS; i++)
		if (s->fact[i][0]) {
			fprintf(f, "\n  %s: ", gd_ck_bl_fact_keys[i]);
			yq(f, s->fact[i]);
		}
	fputs("\n  checks:\n", f);
	for (size_t c = 0; c < o->nd[0].n && !ret; c++)
		ret = write_check(f, o, &o->nd[0].v[c]);
	return ret ?: ferror(f) ? -EIO : 0;
}

int gd_ck_baseline_write(const char *out, char *const *paths, size_t n, double k, char *why,
			 size_t len)
{
	struct gd_ck_bl_node *nd = calloc(n ? n : 1, sizeof(*nd));
	struct bl_out o = { nd, n, k > 0 ? k : GD_CK_BL_K_DEFAULT };
	int ret = nd ? 0 : -ENOMEM;

	if (!ret && n < GD_CK_BL_MIN_NODES) {
		snprintf(why, len, "a baseline needs the reports of at least %d good nodes, got %zu: "
			 "fewer tell no noise from a fault", GD_CK_BL_MIN_NODES, n);
		ret = -EINVAL;
	}
	for (size_t i = 0; !ret && i < n; i++)
		ret = gd_ck_bl_read(paths[i], &nd[i], why, len);
	if (!ret)
		ret = same_kind(nd, n, why, len) ?: same_checks(nd, n, why, len) ?:
		      same_manifest(nd, n, why, len);
	if (!ret && (ret = gd_ck_write_atomic(out, fill, &o)))
		snprintf(why, len, "cannot write %s: %s", out, strerror(-ret));
	for (size_t i = 0; nd && i < n; i++)
		gd_ck_bl_node_free(&nd[i]);
	free(nd);
	return ret;
}
