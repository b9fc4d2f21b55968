/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * man-options: writes the OPTIONS section of man/gd_bench.1 (roff, on stdout)
 * from the bench tools' option tables and their parameter list: each option's
 * heading from its row (names, aliases, argument), its text from its entry in
 * bench_params.c (gd_param_man). This file only says where each option goes:
 * the page's subsections, in their order, with their own prose.
 *
 *   make man-update          rewrites the section of man/gd_bench.1
 *   tests/man-options.sh     fails when the committed section differs
 *
 * Exit 0, or 1 after naming an option that is in a tool's table and not
 * placed here (or placed here and in no table), or that has no text.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "bench_opts.h"
#include "gd.h"

#define MAX_ROWS 160

struct man_section {
	const char *title;	/* .SS, NULL: the text under .SH OPTIONS */
	const char *intro;	/* roff before the first option, NULL: none */
	const char *const *names; /* long names, in the page's order */
	const char *outro;	/* roff after the last option, NULL: none */
};

#define NAMES(...) (const char *const[]){ __VA_ARGS__, NULL }

static const struct man_section sections[] = {
	{ NULL, "Options not available for a tool (e.g. \\fB\\-b\\fR for a latency test) are\n"
		"refused with the name of the tool that has them.", NULL, NULL },
	{ "Connection", NULL,
	  NAMES("port", "bind", "bind_source_ip", "timeout", "mpi", "rdma_cm", "ib-dev", "ib-port",
		"gid-index", "ipv6", "mtu", "connection", "qp-timeout"), NULL },
	{ "Size and length of the run", NULL,
	  NAMES("size", "all", "precision", "iters", "duration", "margin", "run_infinitely",
		"perform_warm_up"), NULL },
	{ "Queues and posting", NULL,
	  NAMES("qp", "tx-depth", "rx-depth", "cq-mod", "post_list", "inline_size", "outs",
		"atomic_type", "bidirectional", "write_with_imm", "send_with_imm", "latency_gap"),
	  NULL },
	{ "Reporting", NULL,
	  NAMES("noPeak", "report_gbits", "output", "json", "report-cycles", "report-histogram",
		"report-unsorted", "limit_bw", "limit_msgrate", "CPU-freq", "validate"), NULL },
	{ "Memory and placement", NULL,
	  NAMES("use_hugepages", "pin_cores", "use_cuda", "use_cuda_bus_id", "use_cuda_dmabuf",
		"gpu_staging", "sysfs-root"), NULL },
	{ "RoCE bring-up (traffic class, rate, events, CPU)",
	  "Perftest 4.5's options and meaning. \\fB\\-S\\fR, \\fB\\-\\-tclass\\fR and\n"
	  "\\fB\\-T\\fR must be the same on both sides (HELLO carries them; a difference is\n"
	  "exit 2 naming it): a responder in another class sends its ACKs and read\n"
	  "responses there.",
	  NAMES("sl", "tclass", "tos", "events", "cpu_util", "rate_limit", "rate_units",
		"rate_limit_type", "burst_size"), NULL },
	{ "Fabric (what carries the operations)", NULL,
	  NAMES("fabric", "provider", "domain", "fabric-name", "ep"),
	  ".PP\n"
	  "Over libfabric the endpoint names and memory keys travel over the same side\n"
	  "channel, after the same HELLO and parameter check, within the same\n"
	  "deadlines. The provider's \\fBmr_mode\\fR is honoured (FI_MR_LOCAL\n"
	  "descriptors, FI_MR_VIRT_ADDR or offsets, FI_MR_PROV_KEY keys, FI_MR_ALLOCATED).\n"
	  "A failed completion prints the provider's own error text (fi_cq_strerror).\n"
	  "A provider with manual data progress (tcp's ofi_rxm, shm) is driven by the\n"
	  "passive side while it waits. \\fB\\-\\-use_cuda\\fR needs FI_HMEM: Debian's\n"
	  "libfabric is built without CUDA, so it exits 3 naming the fix (a libfabric\n"
	  "built with CUDA); never a silent copy through host memory." },
	{ "Initiator (who issues the operations)", NULL,
	  NAMES("initiator", "ctas", "threads", "scope", "proxy_threads", "ring_slots", "producer",
		"ibgda_fallback", "dump_wqes", "ibgda_nic"), NULL },
	{ "Common", NULL, NAMES("help", "version", "completion", "verbose"), NULL },
};

/* An option of the family: its row, the row of its other spelling (same id), and
 * the words of its choices. */
struct row {
	const struct gd_opt *opt, *alias;
	const char *const *words;
	bool placed;
};

struct rows {
	struct row r[MAX_ROWS];
	size_t n;
};

static struct row *find(struct rows *rs, const char *name)
{
	for (size_t i = 0; i < rs->n; i++)
		if (!strcmp(rs->r[i].opt->name, name))
			return &rs->r[i];
	return NULL;
}

static const char *const *words_of(const struct gd_cmd *cmd, const char *name)
{
	for (const struct gd_opt_words *const *t = cmd->words; t && *t; t++)
		for (const struct gd_opt_words *w = *t; w->name; w++)
			if (!strcmp(w->name, name))
				return w->words;
	return NULL;
}

/* The rows of one tool that --help lists (not the refused ones); a row whose id
 * an earlier row of the tool has is that row's other spelling. */
static int collect_tool(struct rows *rs, const struct gd_cmd *cmd)
{
	const struct gd_opt *seen[MAX_ROWS];
	size_t nseen = 0;

	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++) {
			const struct gd_opt *first = NULL;

			if (!o->help || nseen == MAX_ROWS)
				continue;
			for (size_t i = 0; i < nseen && !first; i++)
				if (seen[i]->id == o->id)
					first = seen[i];
			seen[nseen++] = o;
			if (first) {
				find(rs, first->name)->alias = o;
			} else if (!find(rs, o->name)) {
				if (rs->n == MAX_ROWS) {
					fprintf(stderr, "man-options: more than %d options\n", MAX_ROWS);
					return -1;
				}
				rs->r[rs->n++] = (struct row){ o, NULL, words_of(cmd, o->name), false };
			}
		}
	return 0;
}

/* The heading's pieces, bold and roman by turns (".BR"); roman ones meet. */
struct heading {
	char tok[8][256];
	size_t n;
	bool roman; /* the last piece is roman */
};

/* s (n bytes) with "-" as the minus roff wants, after the current piece or as a
 * new one; fmt wraps it ("\\fI%s\\fR") */
static void add(struct heading *h, bool roman, const char *fmt, const char *s, size_t n)
{
	char esc[128] = "", *t;
	size_t e = 0, len;

	for (size_t i = 0; i < n && s[i] && e + 3 < sizeof(esc); i++) {
		if (s[i] == '-')
			esc[e++] = '\\';
		esc[e++] = s[i];
	}
	esc[e] = '\0';
	if (h->n == 0 || roman != h->roman) {
		if (h->n == GD_ARRAY_SIZE(h->tok))
			return;
		h->tok[h->n++][0] = '\0';
		h->roman = roman;
	}
	t = h->tok[h->n - 1];
	len = strlen(t);
	snprintf(t + len, sizeof(h->tok[0]) - len, fmt, esc);
}

static bool has_lower(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] >= 'a' && s[i] <= 'z')
			return true;
	return false;
}

/* "=ARG" after a long name. A placeholder row (--fabric=FABRIC) shows the
 * option's words (verbs|ofi), or an enum's values (-c RC); a row that spells
 * its choices (M|g|p, N|auto) shows words in bold (an enum's, or spelled in
 * lower case) and placeholders in italics; else the placeholder (PORT). */
static void add_arg(struct heading *h, const struct gd_opt *o, const char *const *words)
{
	const char *a = o->arg_name;
	const struct gd_param *d = gd_param_by_option(o->name);
	bool choice = a && strchr(a, '|'), enumerated = d && d->type == GD_PT_ENUM && d->name;

	if (o->arg == GD_NO_ARG || !a)
		return;
	add(h, true, "=", "", 0);
	if (words && !choice) {
		for (size_t i = 0; words[i]; i++)
			add(h, true, i ? "|\\fB%s\\fR" : "\\fB%s\\fR", words[i], strlen(words[i]));
		return;
	}
	if (enumerated && !choice) {
		for (uint64_t v = d->umin; v <= d->max; v++) {
			const char *n = d->name((unsigned)v);

			add(h, true, v > d->umin ? "|\\fB%s\\fR" : "\\fB%s\\fR", n, strlen(n));
		}
		return;
	}
	while (*a) {
		size_t n = strcspn(a, "|");
		bool word = choice && (enumerated || has_lower(a, n));

		add(h, true, word ? "\\fB%s\\fR" : "\\fI%s\\fR", a, n);
		a += n;
		if (*a) {
			a++;
			add(h, true, "|", "", 0);
		}
	}
}

/* the heading: ".BR \-p ", " \-\-port =\fIPORT\fR": names bold, the rest roman */
static void put_heading(const struct row *r, FILE *out)
{
	static struct heading h;
	const struct gd_opt *names[2] = { r->opt, r->alias };

	h.n = 0;
	if (r->opt->letter)
		add(&h, false, "\\-%s", (char[2]){ (char)r->opt->letter, 0 }, 1);
	for (size_t i = 0; i < 2 && names[i]; i++) {
		if (h.n)
			add(&h, true, ", ", "", 0);
		add(&h, false, "\\-\\-%s", names[i]->name, strlen(names[i]->name));
		add_arg(&h, names[i], r->words);
	}
	fputs(h.n > 1 ? ".BR" : ".B", out);
	for (size_t i = 0; i < h.n; i++)
		fprintf(out, strchr(h.tok[i], ' ') ? " \"%s\"" : " %s", h.tok[i]);
	fputs("\n", out);
}

static int put_option(struct rows *rs, const char *name, FILE *out)
{
	struct row *r = find(rs, name);
	char buf[1024];
	const char *man;

	if (!r) {
		fprintf(stderr, "man-options: '%s' is placed in the page but no bench tool has it: "
			"drop it from src/bench/man_options.c\n", name);
		return -1;
	}
	man = gd_param_man(r->opt, buf, sizeof(buf));
	if (!man) {
		fprintf(stderr, "man-options: --%s has no text: give its entry in "
			"src/bench/bench_params.c a .help or a .man\n", name);
		return -1;
	}
	r->placed = true;
	fputs(".TP\n", out);
	put_heading(r, out);
	fprintf(out, "%s\n", man);
	return 0;
}

static int put_sections(struct rows *rs, FILE *out)
{
	int ret = 0;

	for (size_t s = 0; s < GD_ARRAY_SIZE(sections); s++) {
		const struct man_section *m = &sections[s];

		if (m->title)
			fprintf(out, ".SS %s\n", m->title);
		if (m->intro)
			fprintf(out, "%s\n", m->intro);
		for (const char *const *n = m->names; n && *n; n++)
			ret |= put_option(rs, *n, out);
		if (m->outro)
			fprintf(out, "%s\n", m->outro);
	}
	return ret;
}

int main(void)
{
	static struct rows rs;
	int ret = 0;

	for (int op = 0; op < GD_OP_COUNT; op++)
		for (int kind = 0; kind < GD_KIND_COUNT; kind++)
			if (collect_tool(&rs, gd_bench_cmd((enum gd_bench_op)op,
							   (enum gd_bench_kind)kind)))
				return 1;
	fputs(".SH OPTIONS\n.\\\" Written by make man-update from src/bench/bench_params.c "
	      "(each option's .man or .help)\n.\\\" and src/bench/man_options.c (the order):"
	      " edit there, not here.\n", stdout);
	ret = put_sections(&rs, stdout);
	for (size_t i = 0; i < rs.n; i++)
		if (!rs.r[i].placed) {
			fprintf(stderr, "man-options: --%s is not in the page: place it in a section "
				"of src/bench/man_options.c\n", rs.r[i].opt->name);
			ret = -1;
		}
	if (fflush(stdout) || ferror(stdout)) {
		fprintf(stderr, "man-options: cannot write the section\n");
		return 1;
	}
	return ret ? 1 : 0;
}
