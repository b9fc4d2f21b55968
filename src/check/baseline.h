/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A SKU's baseline of good nodes (doc/check.md, "Baseline of good nodes"):
 *
 *   gd_check --json SPEC > NODE.json        on each known-good node of the SKU
 *   gd_check --baseline golden.yaml A.json B.json C.json ...
 *   gd_check --golden golden.yaml X.json ...          judge nodes' reports (offline)
 *   gd_check SPEC  with 'include: golden.yaml'        judge this node's runs (live)
 *
 * baseline.c reads the reports (json-c) and writes the golden file: the manifest the nodes
 * share and, per check (test, run, size, statistic), the median, the scaled MAD and N.
 * baseline_judge.c holds a value against it: FAIL below an absolute floor (the spec's
 * thresholds, as before) or more than k robust distances on the bad side.
 */
#ifndef GD_CHECK_BASELINE_H
#define GD_CHECK_BASELINE_H

#include <stddef.h>

#include "check.h"
#include "spec.h"

/* One node's report as read back (baseline.c). */
struct gd_ck_bl_value {
	char check[160], status[8], unit[12];
	double value;
	uint64_t size;
};
struct gd_ck_bl_node {
	char path[4096];
	char host[256], spec_sha256[65];
	struct gd_ck_sku sku;
	struct gd_ck_bl_value *v;
	size_t n;
};
/* Read a gd_check --json report: 0, or -EINVAL / -errno with why (naming the file). */
int gd_ck_bl_read(const char *path, struct gd_ck_bl_node *node, char *why, size_t len);
void gd_ck_bl_node_free(struct gd_ck_bl_node *node);
/* The value of a check in a node's report, NULL when it has none. */
const struct gd_ck_bl_value *gd_ck_bl_find(const struct gd_ck_bl_node *nd, const char *check);

/* --baseline OUT REPORT...: refuses (-EINVAL, why) fewer than GD_CK_BL_MIN_NODES nodes, a node
 * twice, mixed SKUs (naming which), reports of different specs or checks, a check that did not
 * PASS and a manifest field on which a node differs (naming it); k: 0 for the default.
 * -errno when OUT cannot be written. */
int gd_ck_baseline_write(const char *out, char *const *paths, size_t n, double k, char *why,
			 size_t len);

/* The baseline row of a measured item (live: after a run's thresholds; offline: a report's
 * check): appended to r, judged. */
void gd_ck_bl_judge(struct gd_ck_report *r, const struct gd_ck_baseline *b, double k,
		    const struct gd_ck_item *measured, uint64_t size);
/* Baseline rows for the items r->items[first..] (a run's, live). */
void gd_ck_bl_items(struct gd_ck_report *r, const struct gd_ck_baseline *b, size_t first);
/* A baseline check no item of r measured: a FAIL row each (live, at the end of a spec). */
void gd_ck_bl_unmeasured(struct gd_ck_report *r, const struct gd_ck_baseline *b);
/* --golden FILE REPORT...: each node's report against the golden file's baseline and
 * manifest (the odd node named with the field that differs); k: 0, the file's. 0, or
 * -EINVAL with why. */
int gd_ck_bl_judge_reports(const struct gd_ck_spec *golden, char *const *paths, size_t n,
			   double k, struct gd_ck_report *r, char *why, size_t len);

#endif
