/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The benchmark engine shared by gd_{write,read,atomic,send}_{bw,lat}: each
 * tool's main is one call to gd_bench_main().
 *
 * Timestamps: on x86-64 the TSC (rdtsc, ~15 ns even in a TCG guest), converted
 * to nanoseconds with a rate measured against clock_gettime(CLOCK_MONOTONIC_RAW)
 * over 20 ms of sleep at start-up (no busy calibration per report, no
 * /proc/cpuinfo MHz guess, so no "conflicting CPU frequency" warning and -F
 * has nothing to silence). Elsewhere, or with GDPERF_CLOCK=monotonic, or when
 * the measured rate is implausible: clock_gettime(CLOCK_MONOTONIC_RAW)
 * directly (vDSO, ~20 ns on real hardware, but ~1.8 us in a guest whose
 * clocksource is the HPET, which would slow small-message loops).
 */
#ifndef GD_BENCH_H
#define GD_BENCH_H

#include <signal.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "bench_params.h"
#include "bench_result.h"
#include "bench_rt.h"

/* Run the tool (parse argv, then gd_bench_run_side). Returns the exit code. */
int gd_bench_main(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind);

/*
 * Run ONE side (p->role: server or client) of one test from filled
 * parameters, without argv: the library entry point of the benchmark engine
 * (gd_bench_main, gd_check and the proxy mode call it).
 *
 * p: as gd_bench_parse() leaves it, or gd_bench_params_defaults() plus the
 *    fields the caller sets; gd_bench_check() is applied to a copy (a
 *    conflict prints its reason and gives exit code 2). Not modified.
 * out: where the perftest-style text or --json records go; NULL prints
 *    nothing (diagnostics still go to stderr through log.h).
 * res: filled (zeroed first) with the plan facts and one entry per size run;
 *    res->exit_code is the return value.
 *
 * Returns the exit code: 0 ok, 1 the test ran and failed (completion error,
 * --limit_bw, --validate, the peer failed), 2 usage/configuration/peer
 * protocol error, 3 the environment cannot run it (no device, no GPU...).
 *
 * ^C: the caller may install a SIGINT handler that sets gd_bench_stop (as
 * gd_bench_main does) to end a timed run cleanly and abort side-channel waits.
 * One run at a time per process (the engine keeps a process-wide stop flag
 * and clock).
 */
int gd_bench_run_side(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res);

#endif
