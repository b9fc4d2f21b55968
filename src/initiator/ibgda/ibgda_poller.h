/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A host thread that polls beside the IBGDA kernels: the software NIC test
 * double's NIC thread (ibgda_swnic.c) and ibgda-cpudb's doorbell thread
 * (ibgda_cpudb.c). It calls pass() until stopped, yields when a pass found
 * nothing, and ends by itself after max_idle_ns without work, so that a
 * forgotten thread never outlives its test.
 */
#ifndef GD_IBGDA_POLLER_H
#define GD_IBGDA_POLLER_H

#include <pthread.h>
#include <stdbool.h>
#include <stdint.h>

#define GD_POLLER_DEF_MAX_IDLE_NS (30ull * 1000000000ull)

struct gd_poller {
	uint64_t (*pass)(void *arg); /* one pass: the work it did, 0 when idle */
	int (*init)(void *arg);      /* NULL, or first in the thread: nonzero ends it */
	void *arg;
	uint64_t max_idle_ns;        /* set by gd_poller_start */
	pthread_t th;
	int stop;
	bool running;
};

/* Starts the thread (max_idle_ns 0: GD_POLLER_DEF_MAX_IDLE_NS); 0 or -1. */
int gd_poller_start(struct gd_poller *p, uint64_t max_idle_ns);
/* Stops and joins it; nothing when it is not running. */
void gd_poller_stop(struct gd_poller *p);

#endif
