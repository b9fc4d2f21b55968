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

#include <stdint.h>
#include <time.h>

#include "bench_params.h"

/* Run the tool (parse argv, connect, test, report). Returns the exit code. */
int gd_bench_main(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind);

struct gd_clock {
	int tsc;		/* stamps come from rdtsc */
	double ns_per_tick;
	uint64_t tsc0, ns0;	/* a pair of simultaneous readings */
};
extern struct gd_clock gd_clock;

/* Measure the TSC rate (20 ms); returns the clock's name for -v and the report. */
const char *gd_clock_init(void);

static inline uint64_t gd_clock_mono_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

static inline uint64_t gd_now_ns(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (gd_clock.tsc) {
		int64_t d = (int64_t)(__builtin_ia32_rdtsc() - gd_clock.tsc0);
		return gd_clock.ns0 + (d > 0 ? (uint64_t)((double)d * gd_clock.ns_per_tick) : 0);
	}
#endif
	return gd_clock_mono_ns();
}

/* Results of one bandwidth measurement (one side, one size). */
struct gd_bw_result {
	uint64_t size;
	uint64_t iters;		/* messages counted (all QPs) */
	uint64_t ops;		/* operations completed in the whole run (atomic --validate) */
	double peak_Bps;	/* 0 when not measured */
	double avg_Bps;
	double msg_rate;	/* messages per second */
	double seconds;		/* measured window */
};

/*
 * perftest's peak: the cheapest per-message cost over any window from post i
 * to completion j >= i: min over (tc[j] - tp[i]) / (j - i + 1), with posts
 * stepping by post_list and completions by cq_mod. Returns messages per
 * second, 0 when n == 0. Exposed for unit tests.
 */
double gd_bw_peak_rate(const uint64_t *tp, const uint64_t *tc, uint64_t n, uint32_t post_list,
		       uint32_t cq_mod);

#endif
