/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Command line of the benchmark tools, with perftest's spellings.
 *
 * The option table of a tool is composed from fragments: the options every
 * benchmark takes, the bandwidth-only or latency-only ones, the per-op ones
 * (-o for read/atomic, -A for atomic, --write_with_imm, --send_with_imm),
 * then every other perftest option with help=NULL so that it is refused as
 * "not supported" instead of being silently accepted. Options that belong to
 * a sibling tool (e.g. -b on a latency tool) are refused the same way, with a
 * hint naming the tool that has them.
 */
#ifndef GD_BENCH_OPTS_H
#define GD_BENCH_OPTS_H

#include <stdio.h>

#include "bench_params.h"
#include "opts.h"

/*
 * Parse argv for tool (op, kind) into *p (defaults first), then check every
 * combination. Returns 0 to run, 1 when --help or --version was printed
 * (exit 0), or a negative errno after printing the reason (exit as
 * gd_bench_check_exit says: 2, or 3 for -ENODEV).
 */
int gd_bench_parse(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind,
		   struct gd_bench_params *p);

/*
 * Check the combination of parameters (conflicts, ranges that depend on each
 * other) and fill derived defaults (cq_mod with -l or large messages, margin
 * with -D). Every message names both options. Returns 0, -EINVAL, or
 * -ENODEV when the machine has no RDMA device and no fabric was given.
 * gd_bench_parse() calls it; exposed for tests and for callers that build
 * parameters without a command line.
 */
int gd_bench_check(struct gd_bench_params *p);
/* What the run names that only verbs has (-d, -R, -c RC, an initiator whose
 * table entry says verbs_first), as the reason gd_fabric_decide (fabric_opts.h)
 * takes verbs first for; NULL when nothing does. THE list: the bench tools and
 * gd_check (for the device and initiator of a spec's test) ask it. */
const char *gd_bench_verbs_why(const struct gd_bench_params *p);
/*
 * Parameters p as their tool's command line into buf: the tool's name, then,
 * in the order of the tool's own option tables, each row whose parameter of
 * the list (bench_params.c) differs from the tool's default (or has its given
 * bit set), spelled by that row (its short letter when it has one); without
 * the HOST operand. What gd_check prints to reproduce a run: the line is the
 * tables' spelling, so a renamed option changes it, and a parameter the tool
 * has no row for is refused, never left out. The length, or -ENOENT (*bad:
 * the list's option the tool has no row for), -ENOSPC, -ENOMEM.
 */
int gd_bench_args(const struct gd_bench_params *p, char *buf, size_t len, const char **bad);
/* The exit code of a refusal by gd_bench_parse/gd_bench_check (err < 0): 3 (the
 * environment cannot run it) for -ENODEV, else 2 (usage). */
int gd_bench_check_exit(int err);

/* The tool's command description (synopsis, summary, composed tables). */
const struct gd_cmd *gd_bench_cmd(enum gd_bench_op op, enum gd_bench_kind kind);

#endif
