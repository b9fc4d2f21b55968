/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The process's clock (clock.h): the TSC's rate measured once at start. */
#include "config.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "clock.h"

struct gd_clock gd_clock;

const char *gd_clock_init(void)
{
#if defined(__x86_64__) || defined(__i386__)
	const char *env = getenv("GDPERF_CLOCK");
	struct timespec nap = { 0, 20000000 };
	uint64_t n0, n1, t0, t1;
	double tpus;

	if (env && strcmp(env, "tsc"))
		return "CLOCK_MONOTONIC_RAW (GDPERF_CLOCK)";
	n0 = gd_clock_mono_ns();
	t0 = __builtin_ia32_rdtsc();
	nanosleep(&nap, NULL);
	n1 = gd_clock_mono_ns();
	t1 = __builtin_ia32_rdtsc();
	tpus = n1 > n0 ? (double)(t1 - t0) / ((double)(n1 - n0) / 1000.0) : 0;
	if (t1 <= t0 || tpus < 100 || tpus > 20000)
		return "CLOCK_MONOTONIC_RAW (the TSC rate looked wrong)";
	gd_clock.ns_per_tick = 1000.0 / tpus;
	gd_clock.tsc0 = t1;
	gd_clock.ns0 = n1;
	gd_clock.tsc = 1;
	return "TSC calibrated against CLOCK_MONOTONIC_RAW";
#else
	return "CLOCK_MONOTONIC_RAW";
#endif
}
