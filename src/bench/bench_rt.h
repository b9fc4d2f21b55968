/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The engine's process-wide run-time state: the stop flags (bench_rt.c), and the clock (core/clock.h). */
#ifndef GD_BENCH_RT_H
#define GD_BENCH_RT_H

#include <signal.h>
#include <stdint.h>

#include "clock.h"

/* Set by the tool's SIGINT/SIGTERM handler; the engine reads and clears it. */
extern volatile sig_atomic_t gd_bench_stop;
/* The signal that interrupted the tool (gd_bench_main's handler), 0 if none.
 * Never cleared: a timed run that ended cleanly on ^C runs no further size. */
extern volatile sig_atomic_t gd_bench_signal;
/* Set when a thread of the run is stuck where no deadline reaches it (a proxy
 * thread inside a transport call): the engine leaves the fabric, transport
 * and buffers that thread may still touch unclosed, and the tool exits. */
extern volatile sig_atomic_t gd_bench_abandon;

#endif
