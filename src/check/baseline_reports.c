/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check --golden FILE REPORT...: nodes' JSON reports judged against a golden file's
 * baseline and manifest, offline (baseline.h). Each node's rows carry its host name: across a
 * fleet the odd node is named with the manifest field that differs and the value off the
 * baseline by how many robust distances.
 */
#include <errno.h>
#include <regex.h>
#include <stdio.h>
#include <string.h>

#include "baseline.h"
#include "check_sku.h"
#include "judge.h"

/* A row "manifest WHAT" of a node: its value against the golden one (same, or matched). */
static void mf_row(struct gd_ck_report *r, const char *host, const char *what, const char *value,
		   const char *golden, bool holds)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TOPOLOGY, "%s manifest %s", host, what);
	char ev[400];

	if (!it)
		return;
	snprintf(it->node, sizeof(it->node), "%s", host);
	snprintf(it->measured, sizeof(it->measured), "%s", value[0] ? value : "(not read)");
	snprintf(it->expected, sizeof(it->expected), "%s", golden);
	snprintf(ev, sizeof(ev), "node %s: %s is '%s', the golden file's '%s'", host, what,
		 value, golden);
	gd_ck_judge_holds(it, holds, holds ? NULL : ev);
}

static void nic_rows(struct gd_ck_report *r, const char *host, const struct gd_ck_sku *s,
		     const struct gd_ck_manifest *mf)
{
	for (size_t i = 0; i < mf->nnic; i++) {
		const struct gd_ck_mf_nic *g = &mf->nic[i];
		char what[128], why[128];
		size_t k = 0;
		regex_t re;

		while (k < s->nnic && strcmp(s->nic[k].name, g->name))
			k++;
		snprintf(what, sizeof(what), "NIC %s", g->name);
		if (k == s->nnic) {
			mf_row(r, host, what, "absent", "present", false);
			continue;
		}
		snprintf(what, sizeof(what), "NIC %s bus id", g->name);
		if (g->busid[0])
			mf_row(r, host, what, s->nic[k].busid, g->busid,
			       !strcmp(s->nic[k].busid, g->busid));
		snprintf(what, sizeof(what), "NIC %s firmware", g->name);
		if (g->firmware[0] && !gd_ck_fw_regex(g->firmware, &re, why, sizeof(why))) {
			mf_row(r, host, what, s->nic[k].firmware, g->firmware,
			       !regexec(&re, s->nic[k].firmware, 0, NULL, 0));
			regfree(&re);
		}
	}
}

/* The node's SKU, versions and parts against the golden file. */
static void manifest_rows(struct gd_ck_report *r, const struct gd_ck_spec *g,
			  const struct gd_ck_bl_node *nd)
{
	const struct gd_ck_baseline *b = &g->baseline;
	char key[256], list[1600] = "", want[1600] = "";

	gd_ck_sku_key(&nd->sku, key, sizeof(key));
	if (b->sku[0])
		mf_row(r, nd->host, "SKU", key, b->sku, !strcmp(key, b->sku));
	for (int i = 0; i < GD_CK_BL_FACTS; i++)
		if (b->fact[i][0])
			mf_row(r, nd->host, gd_ck_bl_fact_keys[i], nd->sku.fact[i], b->fact[i],
			       !strcmp(nd->sku.fact[i], b->fact[i]));
	for (size_t i = 0; i < nd->sku.ngpu; i++)
		snprintf(list + strlen(list), sizeof(list) - strlen(list), "%s%s", i ? "," : "",
			 nd->sku.gpu[i].busid);
	for (size_t i = 0; i < g->manifest.ngpu; i++)
		snprintf(want + strlen(want), sizeof(want) - strlen(want), "%s%s", i ? "," : "",
			 g->manifest.gpu[i].busid);
	if (g->manifest.given)
		mf_row(r, nd->host, "GPU bus ids", list[0] ? list : "none", want[0] ? want : "none",
		       !strcmp(list, want));
	nic_rows(r, nd->host, &nd->sku, &g->manifest);
}

/* The node's measured values against the baseline, and the baseline's checks it lacks. */
static void value_rows(struct gd_ck_report *r, const struct gd_ck_baseline *b, double k,
		       const struct gd_ck_bl_node *nd)
{
	for (size_t c = 0; c < b->n; c++) {
		const struct gd_ck_bl_value *v = gd_ck_bl_find(nd, b->c[c].check);
		struct gd_ck_item m = { 0 }, *it;

		if (!v) {
			if (!(it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s %s: baseline", nd->host,
					     b->c[c].check)))
				continue;
			snprintf(it->node, sizeof(it->node), "%s", nd->host);
			gd_ck_judge_holds(it, false, "this node's report lacks the check: run the "
					  "spec the baseline was built from");
			continue;
		}
		snprintf(m.name, sizeof(m.name), "%s", v->check);
		snprintf(m.node, sizeof(m.node), "%s", nd->host);
		snprintf(m.measured, sizeof(m.measured), "%g %s", v->value, v->unit);
		m.has_value = true;
		m.value = v->value;
		gd_ck_bl_judge(r, b, k, &m, v->size);
	}
}

int gd_ck_bl_judge_reports(const struct gd_ck_spec *golden, char *const *paths, size_t n,
			   double k, struct gd_ck_report *r, char *why, size_t len)
{
	const struct gd_ck_baseline *b = &golden->baseline;

	if (!b->given) {
		snprintf(why, len, "%s has no 'baseline:' section: 'gd_check --baseline FILE "
			 "REPORT...' writes one from good nodes' reports", golden->path);
		return -EINVAL;
	}
	for (size_t i = 0; i < n; i++) {
		struct gd_ck_bl_node nd;
		int ret = gd_ck_bl_read(paths[i], &nd, why, len);

		if (ret)
			return ret;
		manifest_rows(r, golden, &nd);
		value_rows(r, b, k > 0 ? k : b->k, &nd);
		gd_ck_bl_node_free(&nd);
	}
	return 0;
}
