/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check --prom FILE: the report in Prometheus' text exposition format
 * (version 0.0.4) for node_exporter's textfile collector. Bandwidth is in
 * bytes per second and latency in seconds (Prometheus' base units), and a test's
 * series over verbs carry `device` and `port` as node_exporter's infiniband collector
 * names them (node_infiniband_*{device="mlx5_0",port="1"}), so the two join; over
 * libfabric `device` is the domain the provider used and there is no `port`. A counters
 * item's port (check_counters.c) gives one series per counter that moved over its run.
 * Label values are escaped per the format (\\, \", \n); bytes that are not
 * UTF-8 become '?' (the collector rejects a file that is not UTF-8).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <libxml/xmlstring.h>

#include "check_counters.h"
#include "check.h"
#include "check_fan.h"

static void label(FILE *f, const char *name, const char *v, bool first)
{
	size_t n = strlen(v), i = 0;

	fprintf(f, "%s%s=\"", first ? "" : ",", name);
	while (i < n) {
		int len = n - i < 4 ? (int)(n - i) : 4;
		int c = xmlGetUTF8Char((const unsigned char *)v + i, &len);

		if (c < 0) {
			fputc('?', f);
			i++;
			continue;
		}
		if (c == '\\' || c == '"')
			fprintf(f, "\\%c", c);
		else if (c == '\n')
			fputs("\\n", f);
		else
			fwrite(v + i, 1, (size_t)len, f);
		i += (size_t)len;
	}
	fputc('"', f);
}

static void head(FILE *f, const char *name, const char *help)
{
	fprintf(f, "# HELP %s %s\n# TYPE %s gauge\n", name, help, name);
}

/* The labels of a test's run: host, test, device, port (verbs only), gpu, path_class,
 * initiator, fabric, provider. */
static void run_labels(FILE *f, const struct gd_ck_report *r, const struct gd_ck_item *it)
{
	char port[16];

	snprintf(port, sizeof(port), "%d", it->where.port);
	label(f, "host", it->node[0] ? it->node : r->host.hostname, true);
	label(f, "test", it->where.test, false);
	label(f, "device", it->where.dev, false);
	if (it->where.port > 0)
		label(f, "port", port, false);
	label(f, "gpu", it->where.gpu, false);
	label(f, "path_class", it->path_class, false);
	label(f, "initiator", it->where.initiator, false);
	label(f, "fabric", it->where.fabric, false);
	label(f, "provider", it->where.provider, false);
}

/* The first item of each series: items that repeat a check's name, or a run's
 * place, would make the collector reject the whole file as duplicate series. */
/* Two items of one series: the same node, section and check name. */
static bool namesake(const struct gd_ck_item *a, const struct gd_ck_item *b)
{
	return a->section == b->section && !strcmp(a->node, b->node) && !strcmp(a->name, b->name);
}

/* The series' status: the worst of the namesakes (FAIL, ERROR, SKIP, PASS), so that a failing
 * check is never hidden behind a passing one of the same name. */
static int worst_status(const struct gd_ck_report *r, size_t i)
{
	static const int rank[GD_CK_NSTATUS] = { [GD_CK_PASS] = 0, [GD_CK_SKIP] = 1,
						 [GD_CK_ERROR] = 2, [GD_CK_FAIL] = 3 };
	enum gd_ck_status w = r->items[i].status;

	for (size_t j = i + 1; j < r->n; j++)
		if (namesake(&r->items[i], &r->items[j]) && rank[r->items[j].status] > rank[w])
			w = r->items[j].status;
	return (int)w;
}

static bool first_of(const struct gd_ck_report *r, size_t i, bool by_run)
{
	const struct gd_ck_item *a = &r->items[i];

	for (size_t j = 0; j < i; j++) {
		const struct gd_ck_item *b = &r->items[j];

		if (by_run ? b->where.fabric[0] && !strcmp(a->node, b->node) &&
				     !strcmp(a->where.test, b->where.test) &&
				     !strcmp(a->where.dev, b->where.dev) &&
				     a->where.port == b->where.port &&
				     !strcmp(a->where.gpu, b->where.gpu)
			   : namesake(a, b))
			return false;
	}
	return true;
}

static void status_series(FILE *f, const struct gd_ck_report *r)
{
	head(f, "gdperf_check_status", "Result of one gd_check check: 0 PASS, 1 FAIL, 2 SKIP, "
	     "3 ERROR (could not run).");
	for (size_t i = 0; i < r->n; i++) {
		const struct gd_ck_item *it = &r->items[i];

		if (!first_of(r, i, false))
			continue;
		fputs("gdperf_check_status{", f);
		label(f, "host", it->node[0] ? it->node : r->host.hostname, true);
		label(f, "section", gd_ck_section_name(it->section), false);
		label(f, "check", it->name, false);
		label(f, "rung", gd_ck_rung_name(it->rung), false);
		fprintf(f, "} %d\n", worst_status(r, i)); /* enum gd_ck_status: PASS 0 .. ERROR 3 */
	}
}

static void run_series(FILE *f, const struct gd_ck_report *r, bool bw)
{
	const char *name = bw ? "gdperf_check_test_bandwidth_bytes_per_second"
			      : "gdperf_check_test_latency_seconds";

	head(f, name, bw ? "Average bandwidth of a gd_check test's run at its judged size."
			 : "Average latency of a gd_check test's run at its judged size.");
	for (size_t i = 0; i < r->n; i++) {
		const struct gd_ck_item *it = &r->items[i];
		double v = bw ? it->where.bw_gbps : it->where.lat_us;

		if (!it->where.fabric[0] || v < 0 || !first_of(r, i, true))
			continue;
		fprintf(f, "%s{", name);
		run_labels(f, r, it);
		fprintf(f, "} %.9g\n", bw ? v * 1e9 / 8 : v / 1e6);
	}
}

/* The labels of a counters item's port: host, check (the item: one per run, or per side of a
 * pair), test, device, port. */
static void port_labels(FILE *f, const struct gd_ck_report *r, const struct gd_ck_item *it)
{
	char port[16];

	snprintf(port, sizeof(port), "%d", it->ctr.port);
	label(f, "host", it->node[0] ? it->node : r->host.hostname, true);
	label(f, "check", it->name, false);
	label(f, "test", it->where.test, false);
	label(f, "device", it->ctr.dev, false);
	label(f, "port", port, false);
}

/* A counters item that sampled its port (check_counters.c), the first of its namesakes. */
static bool judged_port(const struct gd_ck_report *r, size_t i)
{
	const struct gd_ck_item *it = &r->items[i];

	return it->ctr.dev[0] && it->ctr.sampled && first_of(r, i, false);
}

/* Each counters item: how many counters both samples read, and every counter that moved with
 * its change over the run (after its last attempt minus before its first). */
static void counter_series(FILE *f, const struct gd_ck_report *r)
{
	head(f, "gdperf_check_counters_sampled", "Port counters a gd_check counters item read "
	     "before and after its test's run (a counter absent from gdperf_check_counter_delta "
	     "did not move).");
	for (size_t i = 0; i < r->n; i++) {
		if (!judged_port(r, i))
			continue;
		fputs("gdperf_check_counters_sampled{", f);
		port_labels(f, r, &r->items[i]);
		fprintf(f, "} %zu\n", r->items[i].ctr.sampled);
	}
	head(f, "gdperf_check_counter_delta", "Change of a port counter over a gd_check test's "
	     "run; class error: judged (a change FAILs unless tolerated), congestion (pause, "
	     "ECN, CNP) and info: reported; netdev: the interface of a netdev or ethtool "
	     "statistic.");
	for (size_t i = 0; i < r->n; i++) {
		const struct gd_ck_ctrs *c = &r->items[i].ctr;

		for (size_t k = 0; judged_port(r, i) && k < c->nmoved; k++) {
			fputs("gdperf_check_counter_delta{", f);
			port_labels(f, r, &r->items[i]);
			label(f, "counter", c->moved[k].name, false);
			label(f, "netdev", c->moved[k].netdev, false);
			label(f, "source", c->moved[k].src, false);
			label(f, "class", gd_ck_ctr_class(&c->moved[k]), false);
			fprintf(f, "} %llu\n", (unsigned long long)c->moved[k].delta);
		}
	}
}

/* A fan's congestion factors (check_fan.h): each pair's and the fan's, named by the check. */
static void fan_series(FILE *f, const struct gd_ck_report *r)
{
	head(f, "gdperf_check_congestion_factor", "A fan's congestion factor (gd_check pairs: "
	     "one-to-many, many-to-one): a pair's bandwidth at once over alone, or the fan's sum "
	     "at once over its median pair alone.");
	for (size_t i = 0; i < r->n; i++) {
		const struct gd_ck_item *it = &r->items[i];

		if (!gd_ck_fan_item(it) || !it->measured[0])
			continue;
		fputs("gdperf_check_congestion_factor{", f);
		label(f, "host", it->node[0] ? it->node : r->host.hostname, true);
		label(f, "check", it->name, false);
		fprintf(f, "} %.9g\n", it->value);
	}
}

int gd_ck_prom_stream(const struct gd_ck_report *r, FILE *f)
{
	int n[GD_CK_NSTATUS] = { 0 };
	static const char *const res[GD_CK_NSTATUS] = { "pass", "fail", "skip", "error" };

	for (size_t i = 0; i < r->n; i++)
		n[r->items[i].status]++;
	status_series(f, r);
	run_series(f, r, true);
	run_series(f, r, false);
	counter_series(f, r);
	fan_series(f, r);
	head(f, "gdperf_check_checks", "Number of gd_check checks by result.");
	for (int s = 0; s < GD_CK_NSTATUS; s++) {
		fputs("gdperf_check_checks{", f);
		label(f, "host", r->host.hostname, true);
		label(f, "result", res[s], false);
		fprintf(f, "} %d\n", n[s]);
	}
	head(f, "gdperf_check_exit_code", "gd_check's exit code (0 all passed, 1 a check failed, "
	     "3 a check could not run, 128 + a signal: interrupted).");
	fputs("gdperf_check_exit_code{", f);
	label(f, "host", r->host.hostname, true);
	fprintf(f, "} %d\n", gd_ck_exit_code(r));
	head(f, "gdperf_check_ladder_failed_rung", "The lowest rung of gd_check's ladder with a "
	     "FAIL (1 stack .. 7 nodes), 0: none; the rungs above it were not run.");
	fputs("gdperf_check_ladder_failed_rung{", f);
	label(f, "host", r->host.hostname, true);
	fprintf(f, "} %d\n", r->failed_rung);
	head(f, "gdperf_check_last_run_timestamp_seconds", "When gd_check wrote this file.");
	fputs("gdperf_check_last_run_timestamp_seconds{", f);
	label(f, "host", r->host.hostname, true);
	fprintf(f, "} %lld\n", (long long)time(NULL));
	head(f, "gdperf_check_info", "The spec and gdperf version of the run (value 1).");
	fputs("gdperf_check_info{", f);
	label(f, "host", r->host.hostname, true);
	label(f, "spec", r->spec_path, false);
	label(f, "spec_sha256", r->spec_sha256, false);
	label(f, "version", r->host.version, false);
	fputs("} 1\n", f);
	return ferror(f) ? -EIO : 0;
}

static int fill(FILE *f, void *ctx)
{
	return gd_ck_prom_stream(ctx, f);
}

int gd_ck_write_prom(const struct gd_ck_report *r, const char *path)
{
	return gd_ck_write_atomic(path, fill, (void *)r);
}
