/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Names and value parsers of a gd_check spec (spec_values.c), for the loader, the reports and the
 * unit tests.
 */
#ifndef GD_CHECK_SPEC_VALUES_H
#define GD_CHECK_SPEC_VALUES_H

#include "spec_types.h"

/* Names for reports and JSON. */
const char *gd_ck_metric_name(enum gd_ck_metric m);	/* "min_bw" */
const char *gd_ck_metric_unit(enum gd_ck_metric m);	/* "Gb/s" */
const char *gd_ck_metric_stat(enum gd_ck_metric m);	/* "p50 latency", "average bandwidth" */
const char *gd_ck_pairs_name(enum gd_ck_pairs p);	/* "each-nic-loopback" */
const char *gd_ck_pattern_name(enum gd_ck_pattern p);	/* "pairwise" */
const char *gd_ck_rung_name(int rung);			/* "devices" */
/* A rung by name or number ("devices", "2"): 0 or -EINVAL with why filled. */
int gd_ck_parse_rung(const char *s, int *rung, char *why, size_t len);
/* The rung of a test: its rung key, else its kind's (GPU memory, each-gpu-nearest-nic and
 * nic-gpu-matrix 4; initiators 6; hosts 7; else 5: host memory, loopback or all-nics). */
int gd_ck_test_rung(const struct gd_ck_test *t);
/* The metric is a lower bound (bandwidth, rate) rather than an upper one (latency). */
bool gd_ck_metric_is_min(enum gd_ck_metric m);

/* Value parsers (exposed for unit tests): 0 or -EINVAL with why filled. */
int gd_ck_parse_size(const char *s, uint64_t *bytes, char *why, size_t len);
int gd_ck_parse_seconds(const char *s, uint32_t *sec, char *why, size_t len);
int gd_ck_parse_threshold(enum gd_ck_metric m, const char *s, struct gd_ck_threshold *t,
			  char *why, size_t len);
int gd_ck_parse_rate(const char *s, double *gbps, char *why, size_t len);
/* "N%" (a decimal number, no blanks inside): 0 or -EINVAL. */
int gd_ck_parse_percent(const char *s, double *pct);
/* A plain decimal number ("0.5", no unit): 0 or -EINVAL. */
int gd_ck_parse_factor(const char *s, double *f);
/* A test's fabric key (fabric, provider, domain, endpoint) into f: 0, -EINVAL, 1 not one. */
int gd_ck_parse_fabric_key(const char *key, const char *s, struct gd_fabric_opts *f, char *why,
			   size_t len);

#endif
