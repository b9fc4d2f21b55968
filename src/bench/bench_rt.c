/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The run-time state the engine's parts share: the stop flags (^C, a stuck
 * thread); the clock is core/clock.c. Kept apart from bench.c (the
 * lifecycle) so that the loops, the payload and the proxy depend on this file
 * and bench.c depends on them, not both ways.
 */
#include "config.h"

#include "bench_rt.h"

volatile sig_atomic_t gd_bench_stop;
volatile sig_atomic_t gd_bench_signal;
volatile sig_atomic_t gd_bench_abandon;
