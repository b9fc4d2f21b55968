/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check's report: a human table, JSON Lines (jsonout.h) and JUnit XML. */
#define _GNU_SOURCE
#include <errno.h>
#include <string.h>
#include <stdio.h>
#include <string.h>

#include "check.h"
#include "check_matrix.h"
#include "gd.h"
#include "jsonout.h"

static void counts(const struct gd_ck_report *r, int n[GD_CK_NSTATUS])
{
	for (int s = 0; s < GD_CK_NSTATUS; s++)
		n[s] = 0;
	for (size_t i = 0; i < r->n; i++)
		n[r->items[i].status]++;
}

void gd_ck_print_header(const struct gd_ck_report *r, FILE *out)
{
	const struct gd_ck_host *h = &r->host;

	fprintf(out, "gd_check %s: spec %s (sha256 %.16s...)\n", h->version, r->spec_path,
		r->spec_sha256);
	fprintf(out, "host %s, kernel %s\n", h->hostname, h->kernel);
	fprintf(out, "drivers: %s\nfirmware: %s\n\n", h->drivers[0] ? h->drivers : "none",
		h->firmware[0] ? h->firmware : "none");
}

void gd_ck_print_table(const struct gd_ck_report *r, FILE *out)
{
	int n[GD_CK_NSTATUS];

	fprintf(out, "%-9s %-44s %-6s %-16s %s\n", "SECTION", "CHECK", "RESULT", "MEASURED",
		"EXPECTED");
	for (size_t i = 0; i < r->n; i++) {
		const struct gd_ck_item *it = &r->items[i];

		fprintf(out, "%-9s %-44s %-6s %-16s %s\n", gd_ck_section_name(it->section),
			it->name, gd_ck_status_str(it->status),
			it->measured[0] ? it->measured : "-", it->expected[0] ? it->expected : "-");
		if (it->message[0] && it->status != GD_CK_PASS)
			fprintf(out, "%-9s   %s: %s\n", "", gd_ck_status_str(it->status),
				it->message);
		else if (it->message[0])
			fprintf(out, "%-9s   %s\n", "", it->message);
	}
	counts(r, n);
	fprintf(out, "\n%zu checks: %d PASS, %d FAIL, %d SKIP, %d ERROR (could not run) in %.1f s\n",
		r->n, n[GD_CK_PASS], n[GD_CK_FAIL], n[GD_CK_SKIP], n[GD_CK_ERROR], r->seconds);
	if (r->interrupted)
		fprintf(out, "INTERRUPTED by SIG%s: the spec stopped, %zu run(s) not started; "
			"exit %d\n", sigabbrev_np(r->interrupted) ? sigabbrev_np(r->interrupted) :
			"?", r->runs_left, gd_ck_exit_code(r));
	for (size_t i = 0; i < r->n; i++) {
		const char *c = r->items[i].command;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = c[0] && !strcmp(c, r->items[j].command);
		if (c[0] && !seen)
			fprintf(out, "reproduce %s: %s\n", r->items[i].name, c);
	}
}

int gd_ck_print_json(const struct gd_ck_report *r, FILE *out)
{
	json_object *rec = gd_json_record("check_run");
	int n[GD_CK_NSTATUS], ret;

	gd_json_add_str(rec, "host", r->host.hostname);
	gd_json_add_str(rec, "kernel", r->host.kernel);
	gd_json_add_str(rec, "drivers", r->host.drivers);
	gd_json_add_str(rec, "firmware", r->host.firmware);
	gd_json_add_str(rec, "gdperf_version", r->host.version);
	gd_json_add_str(rec, "spec", r->spec_path);
	gd_json_add_str(rec, "spec_sha256", r->spec_sha256);
	ret = gd_json_emit(rec, out);
	for (size_t i = 0; i < r->n && !ret; i++) {
		const struct gd_ck_item *it = &r->items[i];

		rec = gd_json_record("check");
		gd_json_add_str(rec, "section", gd_ck_section_name(it->section));
		gd_json_add_str(rec, "check", it->name);
		gd_json_add_str(rec, "status", gd_ck_status_str(it->status));
		gd_json_add_str_or_null(rec, "measured", it->measured);
		gd_json_add_str_or_null(rec, "expected", it->expected);
		gd_json_add_str_or_null(rec, "message", it->message);
		gd_json_add_str_or_null(rec, "command", it->command);
		gd_json_add_str_or_null(rec, "path_class", it->path_class);
		gd_json_add_double(rec, "elapsed_s", it->seconds);
		ret = gd_json_emit(rec, out);
	}
	if (!ret && r->matrix)
		ret = gd_ck_matrix_json(r->matrix, out);
	counts(r, n);
	rec = gd_json_record("check_summary");
	gd_json_add_int(rec, "checks", (int64_t)r->n);
	gd_json_add_int(rec, "pass", n[GD_CK_PASS]);
	gd_json_add_int(rec, "fail", n[GD_CK_FAIL]);
	gd_json_add_int(rec, "skip", n[GD_CK_SKIP]);
	gd_json_add_int(rec, "error", n[GD_CK_ERROR]);
	gd_json_add_double(rec, "elapsed_s", r->seconds);
	gd_json_add_int(rec, "exit_code", gd_ck_exit_code(r));
	gd_json_add_bool(rec, "interrupted", r->interrupted != 0);
	gd_json_add_int(rec, "runs_not_started", (int64_t)r->runs_left);
	return ret ?: gd_json_emit(rec, out);
}

/* XML text with &, <, >, " and control characters escaped. */
static void xml(FILE *f, const char *s)
{
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		if (c == '&')
			fputs("&amp;", f);
		else if (c == '<')
			fputs("&lt;", f);
		else if (c == '>')
			fputs("&gt;", f);
		else if (c == '"')
			fputs("&quot;", f);
		else if (c < 0x20 && c != '\n' && c != '\t')
			fputc('?', f);
		else
			fputc(c, f);
	}
}

static void junit_case(FILE *f, const struct gd_ck_report *r, const struct gd_ck_item *it)
{
	fprintf(f, "    <testcase classname=\"gd_check.%s\" name=\"", gd_ck_section_name(it->section));
	xml(f, it->name);
	fprintf(f, "\" time=\"%.3f\">\n", it->seconds);
	if (it->status == GD_CK_FAIL) {
		fputs("      <failure type=\"threshold\" message=\"", f);
		xml(f, it->message[0] ? it->message : "failed");
		fputs("\">measured: ", f);
		xml(f, it->measured[0] ? it->measured : "-");
		fputs("\nexpected: ", f);
		xml(f, it->expected[0] ? it->expected : "-");
		fputs("</failure>\n", f);
	} else if (it->status == GD_CK_ERROR) {
		fputs("      <error type=\"could-not-run\" message=\"", f);
		xml(f, it->message);
		fputs("\"/>\n", f);
	} else if (it->status == GD_CK_SKIP) {
		fputs("      <skipped message=\"", f);
		xml(f, it->message);
		fputs("\"/>\n", f);
	}
	if (it->command[0] || it->measured[0]) {
		fputs("      <system-out>measured: ", f);
		xml(f, it->measured[0] ? it->measured : "-");
		if (it->command[0]) {
			fputs("\nreproduce: ", f);
			xml(f, it->command);
		}
		fputs("</system-out>\n", f);
	}
	(void)r;
	fputs("    </testcase>\n", f);
}

int gd_ck_write_junit(const struct gd_ck_report *r, const char *path)
{
	FILE *f = fopen(path, "we");
	int ret;

	if (!f)
		return -errno;
	fputs("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"gd_check\">\n", f);
	for (int s = 0; s < GD_CK_NSEC; s++) {
		int n = 0, fail = 0, skip = 0, err = 0;
		double t = 0;

		for (size_t i = 0; i < r->n; i++)
			if ((int)r->items[i].section == s) {
				n++;
				fail += r->items[i].status == GD_CK_FAIL;
				skip += r->items[i].status == GD_CK_SKIP;
				err += r->items[i].status == GD_CK_ERROR;
				t += r->items[i].seconds;
			}
		fprintf(f, "  <testsuite name=\"%s\" tests=\"%d\" failures=\"%d\" errors=\"%d\" "
			"skipped=\"%d\" time=\"%.3f\" hostname=\"", gd_ck_section_name(s), n, fail,
			err, skip, t);
		xml(f, r->host.hostname);
		fputs("\">\n    <properties>\n      <property name=\"spec_sha256\" value=\"", f);
		xml(f, r->spec_sha256);
		fputs("\"/>\n      <property name=\"kernel\" value=\"", f);
		xml(f, r->host.kernel);
		fputs("\"/>\n      <property name=\"gdperf_version\" value=\"", f);
		xml(f, r->host.version);
		fputs("\"/>\n    </properties>\n", f);
		for (size_t i = 0; i < r->n; i++)
			if ((int)r->items[i].section == s)
				junit_case(f, r, &r->items[i]);
		fputs("  </testsuite>\n", f);
	}
	fputs("</testsuites>\n", f);
	ret = ferror(f) ? -EIO : 0;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
