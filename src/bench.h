/*
 * The benchmark engine shared by gd_{write,read,atomic,send}_{bw,lat}: each
 * tool's main is one call to gd_bench_main().
 *
 * Timestamps: clock_gettime(CLOCK_MONOTONIC_RAW) (vDSO, ~20 ns, nanoseconds
 * directly). gdperf does not use rdtsc: it would need a frequency
 * calibration (perftest spends ~0.2 s per report on it and warns about
 * "conflicting CPU frequency"), and MONOTONIC_RAW is immune to NTP slewing
 * and to CPU frequency changes, so -F has nothing to silence.
 */
#ifndef GD_BENCH_H
#define GD_BENCH_H

#include <stdint.h>
#include <time.h>

#include "bench_params.h"

/* Run the tool (parse argv, connect, test, report). Returns the exit code. */
int gd_bench_main(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind);

static inline uint64_t gd_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC_RAW, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
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
