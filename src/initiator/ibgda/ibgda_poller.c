/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The IBGDA host polling thread (see ibgda_poller.h). */
#include "ibgda_poller.h"

#include <sched.h>

#include "gd_hd.h"

static void *poller_thread(void *arg)
{
	struct gd_poller *p = arg;
	uint64_t idle_since = gd_hd_now_ns();

	if (p->init && p->init(p->arg))
		return NULL;
	while (!__atomic_load_n(&p->stop, __ATOMIC_ACQUIRE)) {
		if (p->pass(p->arg)) {
			idle_since = gd_hd_now_ns();
			continue;
		}
		if (gd_hd_now_ns() - idle_since > p->max_idle_ns)
			break; /* bounded: a forgotten thread never outlives its test */
		sched_yield();
	}
	return NULL;
}

int gd_poller_start(struct gd_poller *p, uint64_t max_idle_ns)
{
	p->max_idle_ns = max_idle_ns ? max_idle_ns : GD_POLLER_DEF_MAX_IDLE_NS;
	p->stop = 0;
	if (pthread_create(&p->th, NULL, poller_thread, p))
		return -1;
	p->running = true;
	return 0;
}

void gd_poller_stop(struct gd_poller *p)
{
	if (!p->running)
		return;
	__atomic_store_n(&p->stop, 1, __ATOMIC_RELEASE);
	pthread_join(p->th, NULL);
	p->running = false;
}
