/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check's report: a human table, JSON Lines (jsonout.h) and JUnit XML (libxml2). */
#define _GNU_SOURCE
#include <errno.h>
#include <stdarg.h>
#include <string.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libxml/chvalid.h>
#include <libxml/xmlstring.h>
#include <libxml/xmlwriter.h>

#include "check_counters.h"
#include "check.h"
#include "check_fleet.h"
#include "check_matrix.h"
#include "gd.h"
#include "check_sku.h"
#include "jsonout.h"
#include "table.h"

/* A string for a terminal: control bytes (an escape sequence from a spec or sysfs) as '?'. */
const char *gd_ck_tty(const char *s, char *buf, size_t len)
{
	size_t i = 0;

	for (; s[i] && i + 1 < len; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || s[i] == 0x7f ? '?' : s[i];
	buf[i] = 0;
	return buf;
}

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

/* Every attempt of a retried run: "attempts: 1 FAIL 8.1 Gb/s (2.0 s); 2 PASS ...". */
static void attempts_line(const struct gd_ck_item *it, char *buf, size_t len)
{
	size_t n = (size_t)snprintf(buf, len, "%-9s   attempts:", "");

	for (size_t k = 0; k < it->nattempts && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s %zu %s %s (%.1f s)", k ? ";" : "",
				      k + 1, gd_ck_status_str(it->attempts[k].status),
				      it->attempts[k].measured[0] ? it->attempts[k].measured : "-",
				      it->attempts[k].seconds);
}

static size_t count_blocked(const struct gd_ck_report *r)
{
	size_t n = 0;

	for (size_t i = 0; i < r->n; i++)
		n += r->items[i].blocked_by != 0;
	return n;
}

/* The item's run happened: a reproduce line means something (not for a run a failed rung
 * stopped or a signal kept from starting). */
static bool ran(const struct gd_ck_item *it)
{
	return !it->blocked_by && (it->nattempts || it->measured[0] ||
				   (it->status != GD_CK_SKIP && it->status != GD_CK_ERROR));
}

/* The summary's ladder and retry lines: the lowest failed rung, its first FAIL, the fix. */
static void print_ladder(const struct gd_ck_report *r, FILE *out)
{
	const struct gd_ck_item *f = gd_ck_ladder_first_fail(r);
	char a[sizeof(f->name)];
	size_t blocked = count_blocked(r);

	if (r->retried)
		fprintf(out, "%zu check(s) passed only on a retry (their attempts are above)\n",
			r->retried);
	if (!f)
		return;
	fprintf(out, "ladder: rung %d (%s) failed first: %s\nfix: %s\n", r->failed_rung,
		gd_ck_rung_name(r->failed_rung), gd_ck_tty(f->name, a, sizeof(a)),
		gd_ck_fail_fix(f));
	if (blocked)
		fprintf(out, "%zu check(s) above rung %d not run (--keep-going runs them)\n", blocked,
			r->failed_rung);
	else if (r->keep_going)
		fprintf(out, "--keep-going: the rungs above it ran\n");
}

/* One item's row, and the lines under it (its message, its attempts), which span the
 * columns. 0 or -ENOMEM. */
static int table_item(struct gd_table *t, const struct gd_ck_item *it)
{
	char a[sizeof(it->name)], b[sizeof(it->measured)], c[sizeof(it->expected)];
	char d[sizeof(it->message)], line[sizeof(it->message) + 32];
	int ret = gd_table_add(t, gd_ck_section_name(it->section));

	ret = ret ?: gd_table_add(t, gd_ck_tty(it->name, a, sizeof(a)));
	ret = ret ?: gd_table_add(t, gd_ck_status_str(it->status));
	ret = ret ?: gd_table_add(t, it->measured[0] ? gd_ck_tty(it->measured, b, sizeof(b)) : "-");
	ret = ret ?: gd_table_add(t, it->expected[0] ? gd_ck_tty(it->expected, c, sizeof(c)) : "-");
	if (it->message[0]) {
		bool pass = it->status == GD_CK_PASS;

		snprintf(line, sizeof(line), "%-9s   %s%s%s", "", pass ? "" :
			 gd_ck_status_str(it->status), pass ? "" : ": ",
			 gd_ck_tty(it->message, d, sizeof(d)));
		ret = ret ?: gd_table_add_line(t, line);
	}
	if (it->nattempts > 1) {
		char at[64 + GD_CK_MAX_ATTEMPTS * (sizeof(it->attempts[0].measured) + 40)];

		attempts_line(it, at, sizeof(at));
		ret = ret ?: gd_table_add_line(t, at);
	}
	return ret;
}

/* The checks as one table, each column as wide as its widest cell (src/core/table.c; at
 * least the widths gd_check always printed, which scripts read): the ladder's rung as a
 * heading line over its rows. 0 or -ENOMEM. */
static int table_checks(const struct gd_ck_report *r, FILE *out)
{
	static const char *const head[] = { "SECTION", "CHECK", "RESULT", "MEASURED", "EXPECTED" };
	static const size_t floor_w[] = { 9, 44, 6, 16 }, pad[] = { 0, 1, 0, 1 };
	struct gd_table *t = gd_table_new(5);
	char rung[96];
	int ret = t ? 0 : -ENOMEM;

	for (size_t c = 0; t && c < 4; c++)
		gd_table_min_width(t, c, floor_w[c], pad[c]);
	for (size_t c = 0; !ret && c < 5; c++)
		ret = gd_table_add(t, head[c]);
	for (size_t i = 0; i < r->n && !ret; i++) {
		const struct gd_ck_item *it = &r->items[i];

		if (!i || it->rung != r->items[i - 1].rung) { /* the ladder's order, shown */
			if (it->rung > 0)
				snprintf(rung, sizeof(rung), "-- rung %d (%s) --", it->rung,
					 gd_ck_rung_name(it->rung));
			else
				snprintf(rung, sizeof(rung), "-- outside the ladder --");
			ret = gd_table_add_line(t, rung);
		}
		ret = ret ?: table_item(t, it);
	}
	ret = ret ?: gd_table_print(t, " ", out);
	gd_table_free(t);
	return ret;
}

void gd_ck_print_table(const struct gd_ck_report *r, FILE *out)
{
	int n[GD_CK_NSTATUS];

	if (table_checks(r, out) == -ENOMEM)
		fprintf(out, "gd_check: out of memory for the table of %zu checks\n", r->n);
	counts(r, n);
	fprintf(out, "\n%zu checks: %d PASS, %d FAIL, %d SKIP, %d ERROR (could not run) in %.1f s\n",
		r->n, n[GD_CK_PASS], n[GD_CK_FAIL], n[GD_CK_SKIP], n[GD_CK_ERROR], r->seconds);
	print_ladder(r, out);
	if (r->interrupted)
		fprintf(out, "INTERRUPTED by SIG%s: the spec stopped, %zu run(s) not started; "
			"exit %d\n", sigabbrev_np(r->interrupted) ? sigabbrev_np(r->interrupted) :
			"?", r->runs_left, gd_ck_exit_code(r));
	for (size_t i = 0; i < r->n; i++) {
		const char *c = r->items[i].command;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = c[0] && ran(&r->items[j]) && !strcmp(c, r->items[j].command);
		if (c[0] && !seen && ran(&r->items[i])) {
			char a[sizeof(r->items[i].name)], b[sizeof(r->items[i].command)];

			fprintf(out, "reproduce %s: %s\n", gd_ck_tty(r->items[i].name, a, sizeof(a)),
				gd_ck_tty(c, b, sizeof(b)));
		}
	}
}

/* How a test's run ran ("ran"), as the engine reported it; null where it did not get there. */
static json_object *json_ran(const struct gd_ck_where *w)
{
	json_object *o = json_object_new_object();

	gd_json_add_str_or_null(o, "registration", w->registration);
	gd_json_add_str_or_null(o, "path_class", w->path);
	if (w->staging >= 0)
		gd_json_add_bool(o, "staging", w->staging);
	else
		json_object_object_add(o, "staging", NULL);
	gd_json_add_str(o, "initiator", w->initiator);
	gd_json_add_str_or_null(o, "producer", w->producer);
	gd_json_add_str(o, "fabric", w->fabric);
	gd_json_add_str_or_null(o, "provider", w->provider);
	if (w->size)
		gd_json_add_u64(o, "size_bytes", w->size);
	else
		json_object_object_add(o, "size_bytes", NULL);
	return o;
}

/* A run's counters item: the port, and every counter that moved with its change. */
static json_object *json_counters(const struct gd_ck_ctrs *c)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	gd_json_add_str(o, "device", c->dev);
	gd_json_add_int(o, "port", c->port);
	gd_json_add_str_or_null(o, "netdev", c->netdev);
	gd_json_add_int(o, "sampled", (int64_t)c->sampled);
	for (size_t i = 0; i < c->nmoved; i++) {
		json_object *x = json_object_new_object();

		gd_json_add_str(x, "counter", c->moved[i].name);
		gd_json_add_str(x, "source", c->moved[i].src);
		gd_json_add_str_or_null(x, "netdev", c->moved[i].netdev);
		gd_json_add_int(x, "delta", (int64_t)c->moved[i].delta);
		gd_json_add_str(x, "class", gd_ck_ctr_class(&c->moved[i]));
		gd_json_add_int_or_null(x, "tolerated", c->moved[i].tolerated,
					c->moved[i].tolerated >= 0);
		json_object_array_add(a, x);
	}
	json_object_object_add(o, "moved", a);
	gd_json_add_int(o, "moved_not_listed", (int64_t)c->more);
	gd_json_add_str_or_null(o, "unreadable", c->unreadable);
	return o;
}

/* The rung, how a run ran, its counters and its attempts. */
static void json_item_extra(const struct gd_ck_item *it, json_object *rec)
{
	json_object *a;

	gd_json_add_int_or_null(rec, "rung", it->rung, it->rung > 0);
	gd_json_add_str_or_null(rec, "rung_name", gd_ck_rung_name(it->rung));
	if (it->node[0]) /* under mpirun/srun: the node it was checked on */
		gd_json_add_str(rec, "node", it->node);
	if (it->where.fabric[0])
		json_object_object_add(rec, "ran", json_ran(&it->where));
	if (it->ctr.dev[0])
		json_object_object_add(rec, "counters", json_counters(&it->ctr));
	if (!it->nattempts)
		return;
	a = json_object_new_array();
	for (size_t k = 0; k < it->nattempts; k++) {
		json_object *o = json_object_new_object();

		gd_json_add_int(o, "attempt", (int64_t)k + 1);
		gd_json_add_str(o, "status", gd_ck_status_str(it->attempts[k].status));
		gd_json_add_str_or_null(o, "measured", it->attempts[k].measured);
		if (it->attempts[k].has_value)
			gd_json_add_double(o, "value", it->attempts[k].value);
		else
			json_object_object_add(o, "value", NULL);
		gd_json_add_str_or_null(o, "unit", it->attempts[k].has_value ?
					it->attempts[k].unit : "");
		gd_json_add_double(o, "elapsed_s", it->attempts[k].seconds);
		json_object_array_add(a, o);
	}
	json_object_object_add(rec, "attempts", a);
}

/* "value" (a number) and "unit" beside the measured text; null when it is not a number. */
/* When the check began (UTC) and the seconds it took. */
static void json_item_time(json_object *rec, const struct gd_ck_item *it)
{
	struct timespec ts = it->added;
	int64_t ns = (int64_t)(it->seconds * 1e9);
	char when[40];

	ts.tv_sec -= ns / 1000000000;
	ts.tv_nsec -= ns % 1000000000;
	if (ts.tv_nsec < 0) {
		ts.tv_sec--;
		ts.tv_nsec += 1000000000;
	}
	gd_json_add_str(rec, "started", gd_json_utc(when, sizeof(when), &ts));
	gd_json_add_double(rec, "elapsed_s", it->seconds);
}

static void json_value(json_object *rec, const struct gd_ck_item *it)
{
	bool v = it->has_value && it->measured[0]; /* the judge empties a run not run */

	if (v)
		gd_json_add_double(rec, "value", it->value);
	else
		json_object_object_add(rec, "value", NULL);
	gd_json_add_str_or_null(rec, "unit", v ? it->unit : "");
}

/* The summary's ladder: the lowest failed rung, its first FAIL and the fix; null: none. */
static json_object *json_ladder(const struct gd_ck_report *r)
{
	const struct gd_ck_item *f = gd_ck_ladder_first_fail(r);
	json_object *o;

	if (!f)
		return NULL;
	o = json_object_new_object();
	gd_json_add_int(o, "failed_rung", r->failed_rung);
	gd_json_add_str(o, "failed_rung_name", gd_ck_rung_name(r->failed_rung));
	gd_json_add_str(o, "first_failure", f->name);
	gd_json_add_str(o, "fix", gd_ck_fail_fix(f));
	gd_json_add_int(o, "not_run", (int64_t)count_blocked(r));
	gd_json_add_bool(o, "keep_going", r->keep_going);
	return o;
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
	if (r->sku.known) /* the node's SKU and manifest facts, for gd_check --baseline */
		json_object_object_add(rec, "manifest", gd_ck_sku_json(&r->sku));
	ret = gd_json_emit(rec, out);
	for (size_t i = 0; i < r->n && !ret; i++) {
		const struct gd_ck_item *it = &r->items[i];

		rec = gd_json_record("check");
		gd_json_add_str(rec, "section", gd_ck_section_name(it->section));
		gd_json_add_str(rec, "check", it->name);
		gd_json_add_str(rec, "status", gd_ck_status_str(it->status));
		gd_json_add_str_or_null(rec, "measured", it->measured);
		json_value(rec, it);
		gd_json_add_str_or_null(rec, "expected", it->expected);
		gd_json_add_str_or_null(rec, "message", it->message);
		gd_json_add_str_or_null(rec, "command", it->command);
		gd_json_add_str_or_null(rec, "path_class", it->path_class);
		gd_json_add_str_or_null(rec, "fabric", it->where.fabric);
		gd_json_add_str_or_null(rec, "provider", it->where.provider);
		json_item_time(rec, it);
		json_item_extra(it, rec);
		ret = gd_json_emit(rec, out);
	}
	if (!ret && r->matrix)
		ret = gd_ck_matrix_json(r->matrix, out);
	if (!ret && r->fleet)
		ret = gd_ck_fleet_json(r->fleet, out);
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
	gd_json_add_int(rec, "retried", (int64_t)r->retried);
	json_object_object_add(rec, "ladder", json_ladder(r));
	return ret ?: gd_json_emit(rec, out);
}

/*
 * The JUnit XML, written with libxml2's xmlTextWriter (it escapes &, <, > and
 * quotes). Every string goes through junit_text first: XML 1.0 cannot carry
 * control characters (but tab, newline, CR), U+FFFE/U+FFFF or bytes that are
 * not UTF-8, not even as character references, so each becomes '?'.
 */
struct junit {
	xmlTextWriterPtr w;
	int err;		/* a call failed (libxml2 returns < 0) */
};

static xmlChar *junit_text(const char *s)
{
	size_t n = strlen(s), i = 0, o = 0;
	xmlChar *t = malloc(n + 1);

	if (!t)
		return NULL;
	while (i < n) {
		int len = n - i < 4 ? (int)(n - i) : 4;
		int c = xmlGetUTF8Char((const unsigned char *)s + i, &len);

		if (c < 0 || !xmlIsCharQ(c)) {
			t[o++] = '?';
			i += c < 0 ? 1 : (size_t)len;
			continue;
		}
		memcpy(t + o, s + i, (size_t)len);
		o += (size_t)len;
		i += (size_t)len;
	}
	t[o] = 0;
	return t;
}

static void j_start(struct junit *j, const char *name)
{
	j->err |= xmlTextWriterStartElement(j->w, BAD_CAST name) < 0;
}

static void j_end(struct junit *j)
{
	j->err |= xmlTextWriterEndElement(j->w) < 0;
}

/* An attribute (text true: the element's text) from a printf format, cleaned. The
 * longest string of a report is a path (4096 bytes). */
static void __attribute__((format(printf, 4, 5)))
j_put(struct junit *j, bool text, const char *name, const char *fmt, ...)
{
	char raw[8192];
	xmlChar *t;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(raw, sizeof(raw), fmt, ap);
	va_end(ap);
	t = junit_text(raw);
	if (!t)
		j->err = 1;
	else if (text)
		j->err |= xmlTextWriterWriteString(j->w, t) < 0;
	else
		j->err |= xmlTextWriterWriteAttribute(j->w, BAD_CAST name, t) < 0;
	free(t);
}

static const char *dash(const char *s)
{
	return s[0] ? s : "-";
}

static void junit_property(struct junit *j, const char *name, const char *value);

/* A test run's fabric and provider, as testcase properties (Jenkins' and GitLab's JUnit). */
static void junit_run_props(struct junit *j, const struct gd_ck_where *w)
{
	j_start(j, "properties");
	junit_property(j, "fabric", w->fabric);
	if (w->provider[0])
		junit_property(j, "provider", w->provider);
	if (w->registration[0])
		junit_property(j, "registration", w->registration);
	if (w->path[0])
		junit_property(j, "path_class", w->path);
	if (w->staging >= 0)
		junit_property(j, "staging", w->staging ? "yes" : "no");
	j_end(j);
}

static void junit_case(struct junit *j, const struct gd_ck_item *it)
{
	j_start(j, "testcase");
	j_put(j, false, "classname", "gd_check.%s", gd_ck_section_name(it->section));
	j_put(j, false, "name", "%s", it->name);
	j_put(j, false, "time", "%.3f", it->seconds);
	if (it->where.fabric[0])
		junit_run_props(j, &it->where);
	if (it->status == GD_CK_FAIL) {
		j_start(j, "failure");
		j_put(j, false, "type", "threshold");
		j_put(j, false, "message", "%s", it->message[0] ? it->message : "failed");
		j_put(j, true, NULL, "measured: %s\nexpected: %s", dash(it->measured),
		      dash(it->expected));
		j_end(j);
	} else if (it->status == GD_CK_ERROR) { /* could not run */
		j_start(j, "error");
		j_put(j, false, "type", "could-not-run");
		j_put(j, false, "message", "%s", it->message);
		j_end(j);
	} else if (it->status == GD_CK_SKIP) {
		j_start(j, "skipped");
		j_put(j, false, "message", "%s", it->message);
		j_end(j);
	}
	if ((it->command[0] && ran(it)) || it->measured[0] || it->nattempts > 1) {
		j_start(j, "system-out");
		j_put(j, true, NULL, "measured: %s%s%s", dash(it->measured),
		      it->command[0] && ran(it) ? "\nreproduce: " : "", ran(it) ? it->command : "");
		for (size_t k = 0; it->nattempts > 1 && k < it->nattempts; k++)
			j_put(j, true, NULL, "\nattempt %zu: %s %s (%.1f s)", k + 1,
			      gd_ck_status_str(it->attempts[k].status),
			      dash(it->attempts[k].measured), it->attempts[k].seconds);
		j_end(j);
	}
	j_end(j);
}

static void junit_property(struct junit *j, const char *name, const char *value)
{
	j_start(j, "property");
	j_put(j, false, "name", "%s", name);
	j_put(j, false, "value", "%s", value);
	j_end(j);
}

static void junit_suite(struct junit *j, const struct gd_ck_report *r, int s)
{
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
	j_start(j, "testsuite");
	j_put(j, false, "name", "%s", gd_ck_section_name(s));
	j_put(j, false, "tests", "%d", n);
	j_put(j, false, "failures", "%d", fail);
	j_put(j, false, "errors", "%d", err);
	j_put(j, false, "skipped", "%d", skip);
	j_put(j, false, "time", "%.3f", t);
	j_put(j, false, "hostname", "%s", r->host.hostname);
	j_start(j, "properties");
	junit_property(j, "spec_sha256", r->spec_sha256);
	junit_property(j, "kernel", r->host.kernel);
	junit_property(j, "gdperf_version", r->host.version);
	if (r->failed_rung) {
		char rung[64];

		snprintf(rung, sizeof(rung), "%d (%s)", r->failed_rung,
			 gd_ck_rung_name(r->failed_rung));
		junit_property(j, "ladder_failed_rung", rung);
	}
	j_end(j);
	for (size_t i = 0; i < r->n; i++)
		if ((int)r->items[i].section == s)
			junit_case(j, &r->items[i]);
	j_end(j);
}

/* The JUnit report to an open stream; 0 or -EIO. */
int gd_ck_junit_stream(const struct gd_ck_report *r, FILE *f)
{
	xmlOutputBufferPtr buf = xmlOutputBufferCreateFile(f, NULL);
	struct junit j = { NULL, 0 };

	if (!buf || !(j.w = xmlNewTextWriter(buf))) {
		if (buf)
			xmlOutputBufferClose(buf);
		return -ENOMEM;
	}
	xmlTextWriterSetIndent(j.w, 1);
	xmlTextWriterSetIndentString(j.w, BAD_CAST "  ");
	j.err |= xmlTextWriterStartDocument(j.w, "1.0", "UTF-8", NULL) < 0;
	j_start(&j, "testsuites");
	j_put(&j, false, "name", "gd_check");
	for (int s = 0; s < GD_CK_NSEC; s++)
		junit_suite(&j, r, s);
	j_end(&j);
	j.err |= xmlTextWriterEndDocument(j.w) < 0;
	xmlFreeTextWriter(j.w); /* flushes and frees buf; f stays open */
	return j.err || ferror(f) ? -EIO : 0;
}

int gd_ck_write_junit(const struct gd_ck_report *r, const char *path)
{
	FILE *f = fopen(path, "we");
	int ret;

	if (!f)
		return -errno;
	ret = gd_ck_junit_stream(r, f);
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}
