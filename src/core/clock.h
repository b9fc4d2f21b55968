/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The process's clock: TSC ticks calibrated against CLOCK_MONOTONIC_RAW
 * (clock.c), or CLOCK_MONOTONIC_RAW itself. The engine's loops stamp with
 * it, and the fabrics' deadlines (src/fabric) read it.
 */
#ifndef GD_CLOCK_H
#define GD_CLOCK_H

#include <stdint.h>
#include <time.h>

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

/* A spin-wait's pause: the CPU's hint that this thread is waiting (x86 PAUSE,
 * arm64 YIELD), which leaves the core's resources and the memory bus to others. */
static inline void gd_cpu_relax(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__builtin_ia32_pause();
#elif defined(__aarch64__)
	__asm__ __volatile__("yield" ::: "memory");
#else
	__asm__ __volatile__("" ::: "memory");
#endif
}

/* CLOCK_REALTIME ms from now: the absolute deadline pthread_cond_timedwait
 * (default clock) and pthread_timedjoin_np take. */
static inline struct timespec gd_realtime_in_ms(uint64_t ms)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	ts.tv_sec += (time_t)(ms / 1000);
	ts.tv_nsec += (long)(ms % 1000) * 1000000L;
	if (ts.tv_nsec >= 1000000000L) {
		ts.tv_sec++;
		ts.tv_nsec -= 1000000000L;
	}
	return ts;
}

/* Raw timestamps for the hot loops: TSC ticks (or nanoseconds without a
 * TSC), converted after the run with gd_tick_ns(). */
static inline uint64_t gd_ticks(void)
{
#if defined(__x86_64__) || defined(__i386__)
	if (gd_clock.tsc)
		return __builtin_ia32_rdtsc();
#endif
	return gd_clock_mono_ns();
}

/* Nanoseconds per tick of gd_ticks(). */
static inline double gd_tick_ns(void)
{
	return gd_clock.tsc ? gd_clock.ns_per_tick : 1.0;
}

#endif
