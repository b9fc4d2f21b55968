/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "opts.h"

#include <arpa/inet.h>
#include <errno.h>
#include <getopt.h>
#include <stdlib.h>
#include <string.h>

#include "config.h"
#include "gd.h"
#include "jsonout.h"
#include "log.h"
#include "machine.h"
#include "version.h"

const struct gd_opt gd_common_opts[] = {
	{ "help", 'h', GD_NO_ARG, NULL, "show this help and exit", GD_OPT_HELP },
	{ "version", 'V', GD_NO_ARG, NULL, "show the version and exit", GD_OPT_VERSION },
	{ "verbose", 'v', GD_NO_ARG, NULL, "print debugging detail on stderr", GD_OPT_VERBOSE },
	{ "completion", 0, GD_REQ_ARG, "WHAT",
	  "print words for shell completion: options (gd_devinfo also devices, gd_topo also gpus)",
	  GD_OPT_COMPLETION },
	{ NULL },
};

const struct gd_opt gd_sysfs_opts[] = {
	{ "sysfs-root", 0, GD_REQ_ARG, "DIR",
	  "read sysfs and procfs under DIR, a copy of a machine's (also $" GD_SYSFS_ROOT_ENV ")",
	  GD_OPT_SYSFS_ROOT },
	{ NULL },
};

/* The last --sysfs-root of a parse, NULL if none. */
static const char *sysfs_root_arg;

static size_t count_opts(const struct gd_cmd *cmd)
{
	size_t n = 0;

	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++)
			n++;
	return n;
}

/* getopt returns the index into the flattened table (offset) for long
 * options and the letter for short ones; map both back to the entry. */
#define LONG_BASE 0x10000

static const struct gd_opt *nth_opt(const struct gd_cmd *cmd, size_t n)
{
	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++)
			if (n-- == 0)
				return o;
	return NULL;
}

static const struct gd_opt *find_letter(const struct gd_cmd *cmd, int letter)
{
	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++)
			if (o->letter == letter)
				return o;
	return NULL;
}

static int build_getopt(const struct gd_cmd *cmd, struct option **longopts, char **shortopts)
{
	size_t n = count_opts(cmd), i = 0;
	struct option *lo = calloc(n + 1, sizeof(*lo));
	char *so = calloc(3 * n + 2, 1), *p = so;

	if (!lo || !so) {
		free(lo);
		free(so);
		return -ENOMEM;
	}
	*p++ = ':'; /* report missing arguments as ':' */
	for (const struct gd_opt *const *t = cmd->tables; *t; t++) {
		for (const struct gd_opt *o = *t; o->name; o++, i++) {
			lo[i] = (struct option){ o->name, (int)o->arg, NULL, LONG_BASE + (int)i };
			if (!o->letter)
				continue;
			*p++ = (char)o->letter;
			if (o->arg == GD_REQ_ARG)
				*p++ = ':';
			else if (o->arg == GD_OPT_ARG)
				p += sprintf(p, "::");
		}
	}
	*longopts = lo;
	*shortopts = so;
	return 0;
}

static void print_option_name(const struct gd_opt *o, char *buf, size_t len)
{
	int n = 0;

	if (o->letter)
		n = snprintf(buf, len, "-%c, ", o->letter);
	else
		n = snprintf(buf, len, "    ");
	n += snprintf(buf + n, len - n, "--%s", o->name);
	if (o->arg == GD_REQ_ARG)
		snprintf(buf + n, len - n, "=%s", o->arg_name ? o->arg_name : "ARG");
	else if (o->arg == GD_OPT_ARG)
		snprintf(buf + n, len - n, "[=%s]", o->arg_name ? o->arg_name : "ARG");
}

const char gd_opt_help_listed[] = "";

void gd_opts_usage(const struct gd_cmd *cmd, FILE *out)
{
	char name[96];
	const char *help;

	fprintf(out, "Usage: %s %s\n%s\n\nOptions:\n", gd_progname(), cmd->synopsis,
		cmd->summary);
	for (const struct gd_opt *const *t = cmd->tables; *t; t++) {
		for (const struct gd_opt *o = *t; o->name; o++) {
			if (!o->help)
				continue; /* perftest options we reject are not advertised */
			print_option_name(o, name, sizeof(name));
			help = o->help == gd_opt_help_listed && cmd->help ? cmd->help(o) : o->help;
			if (strlen(name) < 30)
				fprintf(out, "  %-30s %s\n", name, help);
			else
				fprintf(out, "  %s\n  %-30s %s\n", name, "", help);
		}
	}
	fprintf(out, "\nSee the %s(1) manual page for details.\n", gd_progname());
}

/* "--NAME ARG [VALUE...]": the option, its argument's name, a choice's words */
static void print_completion_line(FILE *out, const char *dash, const char *name, const char *arg,
				  const char *const *values)
{
	fprintf(out, "%s%s %s", dash, name, arg);
	for (; values && *values; values++)
		fprintf(out, " %s", *values);
	fputc('\n', out);
}

static const char *const *option_words(const struct gd_cmd *cmd, const char *name)
{
	for (const struct gd_opt_words *const *t = cmd->words; t && *t; t++)
		for (const struct gd_opt_words *w = *t; w->name; w++)
			if (!strcmp(w->name, name))
				return w->words;
	return NULL;
}

void gd_opts_print_completion(const struct gd_cmd *cmd, FILE *out)
{
	for (const struct gd_opt *const *t = cmd->tables; *t; t++) {
		for (const struct gd_opt *o = *t; o->name; o++) {
			const char *arg = o->arg == GD_NO_ARG ? "-" :
					  o->arg_name ? o->arg_name : "ARG";

			if (!o->help)
				continue;
			const char *const *w = option_words(cmd, o->name);

			print_completion_line(out, "--", o->name, arg, w);
			if (o->letter)
				print_completion_line(out, "-", (char[]){ (char)o->letter, 0 }, arg, w);
		}
	}
}

static int complete(const struct gd_cmd *cmd, const char *what)
{
	if (strcmp(what, "options") == 0) {
		gd_opts_print_completion(cmd, stdout);
		return 0;
	}
	if (cmd->complete) {
		struct gd_machine m;

		if (gd_tool_machine(&m) != GD_TOOL_CONTINUE)
			return -EINVAL;
		if (cmd->complete(&m, what, stdout) == 0)
			return 0;
	}
	gd_error("invalid value '%s' for --completion: %s completes 'options'%s", gd_excerpt(what),
		 gd_progname(), cmd->complete ? " and its own words (see its manual page)" : "");
	return -EINVAL;
}

void gd_opts_print_version(FILE *out)
{
	fprintf(out, "%s (%s) %s\n", gd_progname(), PACKAGE_NAME, gd_version());
	fprintf(out, "features: cuda-driver=dlopen cuda-kernels=%s mpi=%s yaml=%s libfabric=%s\n",
		GD_FEATURE_CUDA_KERNELS ? "yes" : "no", GD_FEATURE_MPI ? "yes" : "no",
		GD_FEATURE_YAML ? "yes" : "no", GD_FEATURE_LIBFABRIC ? "yes" : "no");
}

/* --version under --json: one "version" record with the same facts. */
static void print_version_json(FILE *out)
{
	json_object *rec = gd_json_record("version");
	json_object *f = json_object_new_object();

	gd_json_add_str(rec, "package", PACKAGE_NAME);
	gd_json_add_str(rec, "version", gd_version());
	gd_json_add_str(f, "cuda_driver", "dlopen");
	gd_json_add_bool(f, "cuda_kernels", GD_FEATURE_CUDA_KERNELS);
	gd_json_add_bool(f, "mpi", GD_FEATURE_MPI);
	gd_json_add_bool(f, "yaml", GD_FEATURE_YAML);
	gd_json_add_bool(f, "libfabric", GD_FEATURE_LIBFABRIC);
	json_object_object_add(rec, "features", f);
	gd_json_emit(rec, out);
}

/*
 * Whether the command line asks for JSON: the tool has an option named
 * "json" and argv holds it (--json, or its letter alone as -j), before "--".
 */
static bool wants_json(const struct gd_cmd *cmd, char **argv)
{
	const struct gd_opt *json = NULL;

	for (const struct gd_opt *const *t = cmd->tables; *t && !json; t++)
		for (const struct gd_opt *o = *t; o->name && !json; o++)
			if (!strcmp(o->name, "json"))
				json = o;
	if (!json)
		return false;
	for (int i = 1; argv[i] && strcmp(argv[i], "--"); i++) {
		if (!strcmp(argv[i], "--json"))
			return true;
		if (json->letter && argv[i][0] == '-' && argv[i][1] == json->letter && !argv[i][2])
			return true;
	}
	return false;
}

/* argv (NULL-ended): the whole command line, for --version to see --json anywhere. */
static int handle_common(const struct gd_cmd *cmd, const struct gd_opt *o, char **argv, bool *help)
{
	switch (o->id) {
	case GD_OPT_HELP:
		gd_opts_usage(cmd, stdout);
		*help = true;
		return 0;
	case GD_OPT_VERSION:
		if (wants_json(cmd, argv))
			print_version_json(stdout);
		else
			gd_opts_print_version(stdout);
		*help = true;
		return 0;
	case GD_OPT_COMPLETION:
		*help = true;
		return complete(cmd, optarg);
	case GD_OPT_VERBOSE:
		gd_log_set_verbose(gd_log_verbose() + 1);
		return 0;
	case GD_OPT_SYSFS_ROOT:
		sysfs_root_arg = optarg;
		return 0;
	}
	return 1; /* not a common option */
}

static int dispatch(const struct gd_cmd *cmd, const struct gd_opt *o, gd_opt_handler handler,
		    void *ctx, char **argv, bool *help)
{
	int ret;

	if (!o->help) {
		gd_error("option --%s (perftest) is not supported by %s", o->name, gd_progname());
		return -ENOTSUP;
	}
	ret = handle_common(cmd, o, argv, help);
	if (ret <= 0)
		return ret;
	return handler(ctx, o->id, optarg);
}

/* getopt's '?' (unknown, or a value given to a flag) and ':' (missing value). */
static void bad_option(const struct gd_cmd *cmd, int c, const char *word)
{
	const struct gd_opt *o = optopt >= LONG_BASE ?
		nth_opt(cmd, (size_t)(optopt - LONG_BASE)) : NULL;

	if (o && c == ':')
		gd_error("option --%s needs a value", o->name);
	else if (o) /* --flag=value */
		gd_error("option --%s takes no value (in '%s')", o->name, gd_excerpt(word));
	else if (optopt)
		gd_error(c == ':' ? "option -%s needs a value" : "unknown option -%s",
			 gd_excerpt((char[]){ (char)optopt, 0 }));
	else
		gd_error(c == ':' ? "option %s needs a value" : "unknown option %s", gd_excerpt(word));
	gd_info("try '%s --help'", gd_progname());
}

int gd_opts_parse(const struct gd_cmd *cmd, int argc, char **argv, gd_opt_handler handler,
		  void *ctx, bool *help)
{
	struct option *longopts;
	char *shortopts;
	int c, ret = 0;

	*help = false;
	sysfs_root_arg = NULL;
	ret = build_getopt(cmd, &longopts, &shortopts);
	if (ret)
		return ret;
	optind = 0; /* 0: glibc re-initialises getopt fully, even after a failed parse */
	opterr = 0;
	while (!*help && (c = getopt_long(argc, argv, shortopts, longopts, NULL)) != -1) {
		const struct gd_opt *o;

		if (c == '?' || c == ':') {
			bad_option(cmd, c, argv[optind - 1]);
			ret = -EINVAL;
			break;
		}
		o = c >= LONG_BASE ? nth_opt(cmd, (size_t)(c - LONG_BASE)) : find_letter(cmd, c);
		ret = o ? dispatch(cmd, o, handler, ctx, argv, help) : -EINVAL;
		if (ret)
			break;
	}
	free(longopts);
	free(shortopts);
	return ret ? ret : optind;
}

int gd_tool_machine(struct gd_machine *m)
{
	const char *root = sysfs_root_arg;
	bool from_env = !root || !*root;
	int ret;

	if (from_env)
		root = getenv(GD_SYSFS_ROOT_ENV);
	ret = gd_machine_init(m, root);
	if (!ret)
		return GD_TOOL_CONTINUE;
	if (from_env)
		gd_error("%s=%s: %s; point it at a directory holding a copy of a machine's sys/ "
			 "(and proc/), or unset it to read this machine",
			 GD_SYSFS_ROOT_ENV, m->root, strerror(-ret));
	else
		gd_error("--sysfs-root %s: %s; give a directory holding a copy of a machine's sys/ "
			 "(and proc/), or leave the option out to read this machine",
			 m->root, strerror(-ret));
	return GD_EXIT_USAGE;
}

int gd_tool_parse(const struct gd_cmd *cmd, int argc, char **argv, gd_opt_handler handler,
		  void *ctx, struct gd_machine *m)
{
	bool help;
	int idx;

	gd_log_init(argc > 0 ? argv[0] : NULL);
	idx = gd_opts_parse(cmd, argc, argv, handler, ctx, &help);
	if (idx < 0)
		return GD_EXIT_USAGE;
	if (help) /* --help to a full disk fails like any other write */
		return gd_tool_flush_stdout();
	if (idx < argc) {
		gd_error("unexpected argument '%s'; try '%s --help'", gd_excerpt(argv[idx]),
			 gd_progname());
		return GD_EXIT_USAGE;
	}
	return gd_tool_machine(m);
}

int gd_tool_flush_stdout(void)
{
	errno = 0;
	if (fflush(stdout) == 0 && !ferror(stdout))
		return GD_EXIT_OK;
	if (errno)
		gd_error("cannot write the report to standard output: %s; make room where it "
			 "goes, or send it elsewhere", strerror(errno));
	else /* an earlier write failed; its errno is gone */
		gd_error("cannot write the report to standard output (a full disk, or a closed "
			 "descriptor?); make room where it goes, or send it elsewhere");
	return GD_EXIT_ENV;
}

/*
 * The zone of a scoped IPv6 address ("fe80::1%eth0", "fe80::1%2"): an
 * interface name (1 to 15 of letters, digits, '.', '-', '_', ':', '@') or index.
 */
static bool ipv6_zone(const char *z)
{
	size_t n = strlen(z);

	if (!n || n >= 16)
		return false;
	for (; *z; z++)
		if (!((*z >= 'a' && *z <= 'z') || (*z >= 'A' && *z <= 'Z') ||
		      (*z >= '0' && *z <= '9') || strchr(".-_:@", *z)))
			return false;
	return true;
}

/* A numeric IPv4 or IPv6 address; an IPv6 one may carry a zone after '%'. */
static bool numeric_ip(const char *s)
{
	unsigned char buf[sizeof(struct in6_addr)];
	char addr[INET6_ADDRSTRLEN];
	const char *pct = strchr(s, '%');

	if (inet_pton(AF_INET, s, buf) == 1 || inet_pton(AF_INET6, s, buf) == 1)
		return true;
	if (!pct || (size_t)(pct - s) >= sizeof(addr) || !ipv6_zone(pct + 1))
		return false;
	memcpy(addr, s, (size_t)(pct - s));
	addr[pct - s] = 0;
	return inet_pton(AF_INET6, addr, buf) == 1;
}

/* A host name by RFC 1123: letters, digits, '-' and '.', labels of 1 to 63. */
static bool host_name(const char *s)
{
	size_t label = 0, n = strlen(s);

	if (!n || n > 253)
		return false;
	for (; *s; s++) {
		if (*s == '.') {
			if (!label)
				return false;
			label = 0;
		} else if ((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z') ||
			   (*s >= '0' && *s <= '9') || *s == '-') {
			if (++label > 63)
				return false;
		} else {
			return false;
		}
	}
	return true;
}

bool gd_host_ok(const char *s, bool names)
{
	return s && (numeric_ip(s) || (names && host_name(s)));
}

static int bad_value(const char *opt, const char *arg, const char *why)
{
	gd_error("invalid value '%s' for %s: %s", gd_excerpt(arg), opt, why);
	return -EINVAL;
}

/* Integers are decimal everywhere: "010" is ten, "0x10" and " 1" are refused. */
static bool decimal(const char *arg, bool sign)
{
	if (sign && *arg == '-')
		arg++;
	if (!*arg)
		return false;
	for (; *arg; arg++)
		if (*arg < '0' || *arg > '9')
			return false;
	return true;
}

static int out_of_range(const char *opt, const char *arg, const char *min, const char *max,
			const char *unit)
{
	gd_error("invalid value '%s' for %s: out of range; must be between %s and %s%s",
		 gd_excerpt(arg), opt, min, max, unit);
	return -ERANGE;
}

static int u64_range(const char *opt, const char *arg, uint64_t min, uint64_t max,
		     const char *unit)
{
	char a[24], b[24];

	snprintf(a, sizeof(a), "%llu", (unsigned long long)min);
	snprintf(b, sizeof(b), "%llu", (unsigned long long)max);
	return out_of_range(opt, arg, a, b, unit);
}

int gd_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	unsigned long long v;

	if (!arg || !decimal(arg, false))
		return bad_value(opt, arg, "expected a non-negative decimal integer");
	errno = 0;
	v = strtoull(arg, NULL, 10);
	if (errno || v < min || v > max)
		return u64_range(opt, arg, min, max, "");
	*out = v;
	return 0;
}

int gd_opt_size(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out)
{
	char *end;
	unsigned long long v;
	unsigned shift = 0;

	if (!arg || *arg < '0' || *arg > '9')
		return bad_value(opt, arg, "expected a size such as 65536 or 64K");
	errno = 0;
	v = strtoull(arg, &end, 10);
	if (errno == ERANGE)
		return u64_range(opt, arg, min, max, " bytes");
	if (errno || end == arg)
		return bad_value(opt, arg, "expected a size such as 65536 or 64K");
	switch (*end) {
	case 'k': case 'K': shift = 10; end++; break;
	case 'm': case 'M': shift = 20; end++; break;
	case 'g': case 'G': shift = 30; end++; break;
	}
	if (*end)
		return bad_value(opt, arg, "expected a size such as 65536 or 64K");
	if ((shift && v > (UINT64_MAX >> shift)) || (v << shift) < min || (v << shift) > max)
		return u64_range(opt, arg, min, max, " bytes");
	v <<= shift;
	*out = v;
	return 0;
}

int gd_opt_int(const char *opt, const char *arg, int min, int max, int *out)
{
	char a[16], b[16];
	long v;

	if (!arg || !decimal(arg, true))
		return bad_value(opt, arg, "expected a decimal integer");
	errno = 0;
	v = strtol(arg, NULL, 10);
	if (errno || v < min || v > max) {
		snprintf(a, sizeof(a), "%d", min);
		snprintf(b, sizeof(b), "%d", max);
		return out_of_range(opt, arg, a, b, "");
	}
	*out = (int)v;
	return 0;
}

int gd_opt_choice(const char *opt, const char *arg, const char *const choices[], int *out)
{
	char list[256] = "";
	size_t n = 0;

	for (int i = 0; choices[i]; i++) {
		if (arg && !strcmp(arg, choices[i])) {
			*out = i;
			return 0;
		}
		n += snprintf(list + n, sizeof(list) - n, "%s%s", i ? ", " : "", choices[i]);
		if (n >= sizeof(list))
			n = sizeof(list) - 1;
	}
	gd_error("invalid value '%s' for %s: expected one of %s", gd_excerpt(arg), opt, list);
	return -EINVAL;
}

int gd_shell_word(const char *s, char *buf, size_t len)
{
	static const char plain[] = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
				    "0123456789_@%+=:,./-";
	bool quote = !*s || s[strspn(s, plain)];
	size_t n = 0;

	if (quote && len)
		buf[n++] = '\'';
	for (; *s && n < len; s++) {
		const char *w = *s == '\'' && quote ? "'\\''" : NULL;
		size_t k = w ? 4 : 1;

		if (n + k >= len)
			break;
		memcpy(buf + n, w ? w : s, k);
		n += k;
	}
	if (*s || n + (quote ? 2 : 1) > len) {
		if (len)
			buf[0] = 0;
		return -ENOSPC;
	}
	if (quote)
		buf[n++] = '\'';
	buf[n] = 0;
	return (int)n;
}
