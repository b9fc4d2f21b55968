/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * One option table per tool, composed from shared fragments (common,
 * benchmark, CUDA...). The same table drives getopt_long, --help and the
 * "not supported" messages for perftest options gdperf does not implement.
 */
#ifndef GD_OPTS_H
#define GD_OPTS_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "machine.h"

enum gd_opt_arg { GD_NO_ARG = 0, GD_REQ_ARG = 1, GD_OPT_ARG = 2 };

struct gd_opt {
	const char *name;     /* long name without "--"; NULL ends a table */
	int letter;           /* short option, or 0 */
	enum gd_opt_arg arg;
	const char *arg_name; /* shown in --help, e.g. "DEV" */
	const char *help;     /* NULL: accepted by perftest, rejected here as not supported */
	int id;               /* passed to the handler; unique within a tool */
};

/* The words an option of a choice takes (the list gd_opt_choice is given),
 * for --completion=options: a table of them ends with a NULL name. */
struct gd_opt_words {
	const char *name;            /* the option's long name */
	const char *const *words;    /* NULL-terminated */
};

/* Called for each option in command-line order. Return 0, or a negative
 * errno after printing a message with gd_error(). */
typedef int (*gd_opt_handler)(void *ctx, int id, const char *arg);

struct gd_cmd {
	const char *synopsis;              /* "[options] [HOST]" */
	const char *summary;               /* one line */
	const struct gd_opt *const *tables; /* NULL-terminated list of tables */
	/*
	 * Optional: print the words for --completion=WHAT other than "options"
	 * (e.g. "devices", "gpus") found on machine m (--sysfs-root given before
	 * it, else $GDPERF_SYSFS_ROOT, else live), one per line. Returns 0, or
	 * -EINVAL for a WHAT this tool does not complete.
	 */
	int (*complete)(const struct gd_machine *m, const char *what, FILE *out);
	/* Optional: NULL-terminated list of the words tables of its choices */
	const struct gd_opt_words *const *words;
	/* Optional: the --help line of a row whose help is gd_opt_help_listed
	 * (the bench tools keep it in their parameter list, bench_params.h) */
	const char *(*help)(const struct gd_opt *o);
};

/*
 * Parse argv. Returns the index of the first operand (>= 1), or a negative
 * errno after printing the reason. --help prints usage and returns 0 after
 * setting *help; --version likewise.
 */
int gd_opts_parse(const struct gd_cmd *cmd, int argc, char **argv, gd_opt_handler handler,
		  void *ctx, bool *help);
void gd_opts_usage(const struct gd_cmd *cmd, FILE *out);

/*
 * The prologue of a tool that takes no operands: gd_log_init(argv[0]), then
 * gd_opts_parse(), then a stray operand is an error; then the machine m is
 * made by gd_tool_machine(). Returns GD_TOOL_CONTINUE when the tool should go on, else the
 * exit code to return from main(): GD_EXIT_OK after --help or --version,
 * GD_EXIT_USAGE after a bad option, operand or root (the message is printed,
 * naming the cause and the fix).
 */
#define GD_TOOL_CONTINUE (-1)
int gd_tool_parse(const struct gd_cmd *cmd, int argc, char **argv, gd_opt_handler handler,
		  void *ctx, struct gd_machine *m);
/*
 * After gd_opts_parse(): the machine the tool looks at, from the last
 * --sysfs-root (gd_sysfs_opts), else $GDPERF_SYSFS_ROOT, else the live one;
 * the only place either is read. GD_TOOL_CONTINUE, or GD_EXIT_USAGE after a
 * message when the root is not a directory.
 */
int gd_tool_machine(struct gd_machine *m);
/*
 * The epilogue of a tool's report: flush stdout and check that all of it was
 * written (a full disk, a closed descriptor). GD_EXIT_OK, or GD_EXIT_ENV after
 * a message.
 */
int gd_tool_flush_stdout(void);

/* Common ids for the options every tool takes (handled by gd_opts_parse). */
enum { GD_OPT_HELP = -1000, GD_OPT_VERSION, GD_OPT_VERBOSE, GD_OPT_SYSFS_ROOT, GD_OPT_COMPLETION };
/* --completion=options: one line per option, "--name ARG" or "-x ARG" (ARG is "-"
 * for a flag): what the shell completion (contrib/bash-completion) reads. */
void gd_opts_print_completion(const struct gd_cmd *cmd, FILE *out);
/* --version: the version (git describe or the tarball's) and the optional features built. */
void gd_opts_print_version(FILE *out);
/* A row's help that its command's help() gives: not NULL, so the row is
 * advertised and parsed like any other. */
extern const char gd_opt_help_listed[];
extern const struct gd_opt gd_common_opts[];
/* --sysfs-root DIR, for the tools that read sysfs (handled by gd_opts_parse). */
extern const struct gd_opt gd_sysfs_opts[];

/* Value parsers that print "invalid value 'x' for --name: why" on failure. */
int gd_opt_u64(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out);
/* Sizes accept K, M, G suffixes (powers of two), e.g. 64K. */
int gd_opt_size(const char *opt, const char *arg, uint64_t min, uint64_t max, uint64_t *out);
int gd_opt_int(const char *opt, const char *arg, int min, int max, int *out);
/*
 * A peer or local address as the user wrote it: a numeric IPv4/IPv6 address
 * (IPv6 with an optional %zone: an interface name or index),
 * or (names) a host name by RFC 1123. Checked before any lookup, so that
 * garbage never reaches the resolver and is a usage error at once.
 */
bool gd_host_ok(const char *s, bool names);
int gd_opt_choice(const char *opt, const char *arg, const char *const choices[], int *out);
/* s as one word of a POSIX shell's command line, into buf: as it is when every character is
 * one a shell takes literally (letters, digits, _ @ % + = : , . / -), else single-quoted with
 * each ' written '\''. The length written, or -ENOSPC when it does not fit (buf then holds
 * nothing). The one spelling of a value on every command line gdperf prints or writes. */
int gd_shell_word(const char *s, char *buf, size_t len);

#endif
