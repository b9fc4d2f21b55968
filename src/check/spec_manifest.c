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
 * A firmware pattern that does not compile, or whose cost is over the bound of
 * gd_ck_fw_pattern_cost, is FILE:LINE:COLUMN with regerror's or the bound's words (exit 2).
 */
#include <ctype.h>
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "spec_int.h"
#include "spec_manifest.h"
#include "spec_values.h"
#include "log.h"

/*
 * A pattern from a spec is code: its cost is bounded before regcomp sees it. glibc's regcomp
 * copies a repeated atom once per count ('(a{1,99}){1,99}' is 9,801 atoms; a 132-byte spec
 * of such nested counts grew gd_check -n to 23 GB), so the atoms after every copy are
 * counted, each level of nesting multiplying, and more than GD_CK_FW_MAX_ATOMS is refused. An
 * empty group, an operator and an anchor count as one each: glibc builds a node for each, so
 * '((((){1,99}){1,99}){1,99}){1,99}){1,99}' is 99^5 nodes (a 122-byte spec the fuzzer found
 * took libFuzzer's 2 GiB). A ')' without its '(' is refused: the pattern is compiled as
 * "^(PATTERN)$", and 'x)|(.*' would close that group and match every version. Back-references
 * (\1 to \9) are refused: they make matching exponential, and a version needs none. Without
 * them glibc matches in time bounded by the pattern's size times the version's length (sysfs:
 * 64 bytes).
 */
struct fw_frame {
	size_t total, last;	/* atoms so far in this group; of its last atom */
};

/* The count of a bound at *p ("{m}", "{m,}", "{m,n}", "{,n}"): copies, *p at its '}'; 0 when
 * it is not a bound (regcomp then takes the '{' as a character or refuses it). */
static size_t fw_bound(const char **p)
{
	const char *s = *p + 1;
	unsigned long m = 0, n;
	char *e = (char *)s;

	if (isdigit((unsigned char)*s))
		m = strtoul(s, &e, 10);
	else if (*s != ',')
		return 0;
	n = m;
	if (*e == ',') {
		s = e + 1;
		n = m + 1; /* {m,}: m copies and a star */
		e = (char *)s;
		if (isdigit((unsigned char)*s))
			n = strtoul(s, &e, 10);
	}
	if (*e != '}')
		return 0;
	*p = e;
	n = n > m ? n : m;
	return n > RE_DUP_MAX ? RE_DUP_MAX + 1 : n ? n : 1;
}

/* Past a bracket expression at *p ('[' ... ']'), classes such as [:digit:] inside. */
static const char *fw_bracket(const char *p)
{
	p++;
	if (*p == '^')
		p++;
	if (*p == ']')
		p++;
	for (; *p && *p != ']'; p++)
		if (*p == '[' && (p[1] == ':' || p[1] == '.' || p[1] == '=')) {
			const char *e = strchr(p + 2, p[1]);

			while (e && e[1] != ']')
				e = strchr(e + 1, p[1]);
			if (!e)
				return p + strlen(p) - 1;
			p = e + 1;
		}
	return *p ? p : p - 1;
}

/* The atoms glibc would build from pattern, counted up to the bound: 0, or -E2BIG/-EINVAL. */
int gd_ck_fw_pattern_cost(const char *pattern, char *why, size_t len)
{
	struct fw_frame f[GD_CK_FW_MAX_GROUPS + 1] = { { 0, 0 } };
	size_t d = 0, k;

	for (const char *p = pattern; *p; p++) {
		if (*p == '\\' && p[1] >= '1' && p[1] <= '9') {
			snprintf(why, len, "a back-reference (\\%c) makes matching exponential: "
				 "write the version's text instead", p[1]);
			return -EINVAL;
		}
		if (*p == '(' && d == GD_CK_FW_MAX_GROUPS) {
			snprintf(why, len, "more than %d groups inside each other",
				 GD_CK_FW_MAX_GROUPS);
			return -E2BIG;
		}
		if (*p == ')' && !d) {
			snprintf(why, len, "a ')' without its '(': the pattern must match the whole "
				 "version (write '\\)' for the character)");
			return -EINVAL;
		}
		k = *p == '{' ? fw_bound(&p) : *p == '+' ? 2 : 0;
		if (*p == '(') {
			f[++d] = (struct fw_frame){ 0, 0 };
		} else if (*p == ')') {
			/* an empty group is a node too: '(){99}' copies it 99 times */
			k = f[d].total ? f[d].total : 1;
			f[d - 1].total += k;
			f[d - 1].last = k;
			d--;
		} else if (k) {
			f[d].total += f[d].last * (k - 1);
			f[d].last *= k;
		} else if (strchr("|*?^$", *p)) {
			f[d].total++; /* an operator or anchor is a node too */
			f[d].last += *p == '*' || *p == '?';
		} else {
			p = *p == '[' ? fw_bracket(p) : *p == '\\' && p[1] ? p + 1 : p;
			f[d].total++;
			f[d].last = 1;
		}
		for (size_t i = 0; i <= d; i++)
			if (f[i].total > GD_CK_FW_MAX_ATOMS) {
				snprintf(why, len, "its repetitions make more than %d atoms, what "
					 "regcomp would build: a version pattern needs few (write "
					 "'[0-9]+' rather than nested counts)", GD_CK_FW_MAX_ATOMS);
				return -E2BIG;
			}
	}
	return 0;
}

/* The whole version must match: "^(PATTERN)$". 0 or -EINVAL with why. */
int gd_ck_fw_regex(const char *pattern, regex_t *re, char *why, size_t len)
{
	size_t n = strlen(pattern) + 5;
	char *whole;
	int ret;

	if (gd_ck_fw_pattern_cost(pattern, why, len))
		return -EINVAL;
	whole = malloc(n);
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

static int numa_to(struct gd_ck_ld *l, yaml_node_t *v, const char *section, char *buf,
		   size_t len)
{
	long n;
	int ret = gd_ck_ld_key_int(l, v, section, "numa", &n);

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
		ret = gd_ck_ld_key_int(l, v, "manifest nic", "bond_slaves_up", &n);
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
		return numa_to(l, v, "manifest nic", d->numa, sizeof(d->numa));
	if (!strcmp(key, "port")) {
		ret = gd_ck_ld_key_int(l, v, "manifest nic", "port", &n);
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
	if (gd_ck_fw_pattern_cost(s, why, sizeof(why)))
		return gd_ck_ld_fail(l, v, "firmware pattern '%s' is refused: %s",
				     gd_excerpt(s), why);
	if (gd_ck_fw_regex(s, &re, why, sizeof(why)))
		return gd_ck_ld_fail(l, v, "firmware pattern '%s' does not parse: %s (a POSIX "
				     "extended regular expression matched against the whole "
				     "version, e.g. '28\\.39\\..*')", gd_excerpt(s), why);
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
	return numa_to(l, v, "manifest gpu", g->numa, sizeof(g->numa));
}

/* A list of entries, each a mapping of known keys; *n entries of size sz in *out. */
static int entries(struct gd_ck_ld *l, yaml_node_t *v, const char *what, const char *section,
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
		if ((ret = gd_ck_ld_each_key(l, e, what, section, fn, ent)))
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
		ret = entries(l, v, "a manifest nic", "manifest nic", nic_key,
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
		ret = entries(l, v, "a manifest gpu", "manifest gpu", gpu_key, (void **)&mf->gpu,
			      &mf->ngpu, sizeof(*mf->gpu));
		for (size_t i = 0; !ret && i < mf->ngpu; i++)
			if (!mf->gpu[i].busid[0])
				ret = gd_ck_ld_fail(l, v, "a manifest gpu entry needs a busid");
		return ret;
	}
	ret = gd_ck_ld_key_int(l, v, "manifest", key, &n);
	if (!strcmp(key, "gpus"))
		mf->gpus = (int)n;
	else
		mf->nics = (int)n;
	return ret;
}

int gd_ck_load_manifest(struct gd_ck_ld *l, yaml_node_t *n)
{
	l->s->manifest.given = true;
	return gd_ck_ld_each_key(l, n, "manifest", "manifest", manifest_key,
				 &l->s->manifest);
}
