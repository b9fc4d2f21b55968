/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec's manifest: what every node of a SKU must be (check_manifest.c judges it).
 *
 *   manifest:
 *     gpus: 8                       # counts, judged as topology's gpus and nics
 *     nics: 4
 *     nic:
 *       - name: mlx5_0
 *         port: 1                   # default 1
 *         firmware: '28\.39\..*'    # a POSIX extended regular expression, matched whole
 *         rate: 400 Gb/s            # the port's link rate, exactly
 *         numa: 0                   # the NUMA node the NIC is on
 *         state: ACTIVE             # the port's state
 *         busid: "0000:29:00.0"     # the NIC's PCI address
 *         pcie: x16 32 GT/s         # the PCIe link, at least this wide and fast
 *         bond_slaves_up: 2         # slaves up on the NIC's bond
 *     gpu:
 *       - busid: "0000:18:00.0"     # present at this address
 *         numa: 0
 *         pcie: x16 32 GT/s
 *
 * gd_check --write-golden FILE writes this section (and only it, with version and name) from a
 * known-good node: the golden reference `--golden FILE` or `include: FILE` judges a node by.
 *
 * A firmware pattern that does not compile is FILE:LINE:COLUMN with regerror's words (exit 2).
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"

/* The whole version must match: "^(PATTERN)$". 0 or -EINVAL with why. */
int gd_ck_fw_regex(const char *pattern, regex_t *re, char *why, size_t len)
{
	size_t n = strlen(pattern) + 5;
	char *whole = malloc(n);
	int ret;

	if (!whole)
		return -ENOMEM;
	snprintf(whole, n, "^(%s)$", pattern);
	ret = regcomp(re, whole, REG_EXTENDED | REG_NOSUB);
	free(whole);
	if (ret) {
		regerror(ret, re, why, len);
		return -EINVAL;
	}
	return 0;
}

static int numa_to(struct gd_ck_ld *l, yaml_node_t *v, char *buf, size_t len)
{
	long n;
	int ret = gd_ck_ld_int(l, v, "numa", 0, 4095, &n);

	if (!ret)
		snprintf(buf, len, "%ld", n);
	return ret;
}

int gd_ck_parse_pcie(const char *s, struct gd_ck_mf_pcie *p, char *why, size_t len)
{
	char unit[8] = "";
	int n = 0, got;

	memset(p, 0, sizeof(*p));
	while (*s == ' ')
		s++;
	if (*s == 'x' && (sscanf(s, "x%d%n", &p->width, &n) != 1 || p->width < 1 ||
			  p->width > 32))
		goto bad;
	s += n;
	got = sscanf(s, " %lf %7s %n", &p->gts, unit, &n);
	if (got == EOF && p->width)
		return 0;
	if (got != 2 || strcmp(unit, "GT/s") || s[n] || !(p->gts > 0 && p->gts <= 128))
		goto bad;
	return 0;
bad:
	snprintf(why, len, "expected the PCIe link as lanes and speed, e.g. 'x16 32 GT/s' "
		 "(x1..x32, up to 128 GT/s; either may be left out)");
	return -EINVAL;
}

static int pcie_to(struct gd_ck_ld *l, yaml_node_t *v, struct gd_ck_mf_pcie *p)
{
	char why[160];
	const char *s;
	int ret;

	if ((ret = gd_ck_ld_scalar(l, v, "pcie", &s)))
		return ret;
	if (gd_ck_parse_pcie(s, p, why, sizeof(why)))
		return gd_ck_ld_fail(l, v, "pcie: %s", why);
	return 0;
}

/* The NIC keys that are not its firmware and rate: 1 when key is none of them. */
static int nic_more(struct gd_ck_ld *l, const char *key, yaml_node_t *v, struct gd_ck_mf_nic *d)
{
	long n;
	int ret;

	if (!strcmp(key, "state"))
		return gd_ck_ld_str(l, v, "state", d->state, sizeof(d->state));
	if (!strcmp(key, "busid"))
		return gd_ck_ld_str(l, v, "busid", d->busid, sizeof(d->busid));
	if (!strcmp(key, "pcie"))
		return pcie_to(l, v, &d->pcie);
	if (!strcmp(key, "bond_slaves_up")) {
		ret = gd_ck_ld_int(l, v, "bond_slaves_up", 0, 64, &n);
		d->bond_slaves_up = (int)n;
		d->bond_given = true;
		return ret;
	}
	return 1;
}

static int nic_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_mf_nic *d = ctx;
	char why[256];
	const char *s;
	long n;
	int ret;

	if (!strcmp(key, "name"))
		return gd_ck_ld_str(l, v, "name", d->name, sizeof(d->name));
	if (!strcmp(key, "numa"))
		return numa_to(l, v, d->numa, sizeof(d->numa));
	if (!strcmp(key, "port")) {
		ret = gd_ck_ld_int(l, v, "port", 1, 255, &n);
		d->port = (int)n;
		return ret;
	}
	if ((ret = nic_more(l, key, v, d)) <= 0)
		return ret;
	if ((ret = gd_ck_ld_scalar(l, v, key, &s)))
		return ret;
	if (!strcmp(key, "rate")) {
		if (gd_ck_parse_rate(s, &d->rate_gbps, why, sizeof(why)))
			return gd_ck_ld_fail(l, v, "rate: %s", why);
		return 0;
	}
	regex_t re;

	if (gd_ck_ld_str(l, v, "firmware", d->firmware, sizeof(d->firmware)))
		return -EINVAL;
	if (gd_ck_fw_regex(s, &re, why, sizeof(why)))
		return gd_ck_ld_fail(l, v, "firmware pattern '%s' does not parse: %s (a POSIX "
				     "extended regular expression matched against the whole "
				     "version, e.g. '28\\.39\\..*')", s, why);
	regfree(&re);
	return 0;
}

static int gpu_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_mf_gpu *g = ctx;

	if (!strcmp(key, "busid"))
		return gd_ck_ld_str(l, v, "busid", g->busid, sizeof(g->busid));
	if (!strcmp(key, "pcie"))
		return pcie_to(l, v, &g->pcie);
	return numa_to(l, v, g->numa, sizeof(g->numa));
}

/* A list of entries, each a mapping of known keys; *n entries of size sz in *out. */
static int entries(struct gd_ck_ld *l, yaml_node_t *v, const char *what, const char *known,
		   gd_ck_key_fn fn, void **out, size_t *n, size_t sz)
{
	size_t cnt;
	char *base;

	if (v->type != YAML_SEQUENCE_NODE)
		return gd_ck_ld_fail(l, v, "manifest: %s must be a list of entries", what);
	cnt = (size_t)(v->data.sequence.items.top - v->data.sequence.items.start);
	base = calloc(cnt ? cnt : 1, sz);
	if (!base)
		return -ENOMEM;
	*out = base;
	for (yaml_node_item_t *it = v->data.sequence.items.start; it < v->data.sequence.items.top;
	     it++) {
		yaml_node_t *e = gd_ck_ld_node(l, *it);
		char *ent = base + sz * (*n)++;
		int *at = (int *)ent; /* line, column lead each entry */
		int ret;

		at[0] = (int)e->start_mark.line + 1;
		at[1] = (int)e->start_mark.column + 1;
		if ((ret = gd_ck_ld_each_key(l, e, what, known, fn, ent)))
			return ret;
	}
	return 0;
}

static int manifest_key(struct gd_ck_ld *l, const char *key, yaml_node_t *v, void *ctx)
{
	struct gd_ck_manifest *mf = ctx;
	long n;
	int ret;

	if (!strcmp(key, "nic")) {
		ret = entries(l, v, "a manifest nic", " name port firmware rate numa state busid pcie "
			      "bond_slaves_up ", nic_key,
			      (void **)&mf->nic, &mf->nnic, sizeof(*mf->nic));
		for (size_t i = 0; !ret && i < mf->nnic; i++) {
			if (!mf->nic[i].port)
				mf->nic[i].port = 1;
			if (!mf->nic[i].name[0])
				ret = gd_ck_ld_fail(l, v, "a manifest nic entry needs a name");
		}
		return ret;
	}
	if (!strcmp(key, "gpu")) {
		ret = entries(l, v, "a manifest gpu", " busid numa pcie ", gpu_key, (void **)&mf->gpu,
			      &mf->ngpu, sizeof(*mf->gpu));
		for (size_t i = 0; !ret && i < mf->ngpu; i++)
			if (!mf->gpu[i].busid[0])
				ret = gd_ck_ld_fail(l, v, "a manifest gpu entry needs a busid");
		return ret;
	}
	ret = gd_ck_ld_int(l, v, key, 0, 4096, &n);
	if (!strcmp(key, "gpus"))
		mf->gpus = (int)n;
	else
		mf->nics = (int)n;
	return ret;
}

int gd_ck_load_manifest(struct gd_ck_ld *l, yaml_node_t *n)
{
	l->s->manifest.given = true;
	return gd_ck_ld_each_key(l, n, "manifest", " gpus nics nic gpu ", manifest_key,
				 &l->s->manifest);
}
