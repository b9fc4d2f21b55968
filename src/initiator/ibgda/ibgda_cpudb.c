/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The CPU doorbell thread of --initiator=ibgda-cpudb (see ibgda_cpudb.h). */
#include "ibgda_cpudb.h"

#include <sched.h>
#include <time.h>

#include "mlx5_wqe.h"

/* Push a write-combining store out to the device now (F9 of the desk
 * review; libmlx5's mmio_flush_writes after post_send_db): a BlueFlame UAR
 * page is mapped write-combining, and without this the doorbell may wait
 * in the WC buffer until the next pass's fence or an eviction. */
static inline void mmio_flush_writes(void)
{
#if defined(__x86_64__) || defined(__i386__)
	__asm__ volatile("sfence" ::: "memory");
#elif defined(__aarch64__)
	__asm__ volatile("dmb oshst" ::: "memory");
#else
	__atomic_thread_fence(__ATOMIC_SEQ_CST);
#endif
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

uint64_t gd_cpudb_pass(struct gd_cpudb *c)
{
	uint64_t n = 0;

	for (uint32_t i = 0; i < c->nqps; i++) {
		struct gd_cpudb_qp *q = &c->qps[i];
		uint64_t p = __atomic_load_n(q->prod, __ATOMIC_ACQUIRE);

		if (p <= q->last)
			continue;
		__atomic_store_n(q->dbrec, gd_mlx5_dbr_value(p), __ATOMIC_RELEASE);
		__atomic_thread_fence(__ATOMIC_SEQ_CST); /* DBR before the doorbell */
		__atomic_store_n(q->db, gd_mlx5_db_value(q->qpn, p), __ATOMIC_RELEASE);
		mmio_flush_writes();
		q->last = p;
		n++;
	}
	c->rings += n;
	return n;
}

static void *cpudb_thread(void *arg)
{
	struct gd_cpudb *c = arg;
	uint64_t idle_since = now_ns();

	while (!__atomic_load_n(&c->stop, __ATOMIC_ACQUIRE)) {
		if (gd_cpudb_pass(c)) {
			idle_since = now_ns();
			continue;
		}
		if (now_ns() - idle_since > c->max_idle_ns)
			break;
		sched_yield();
	}
	return NULL;
}

int gd_cpudb_start(struct gd_cpudb *c)
{
	if (!c->max_idle_ns)
		c->max_idle_ns = 30ull * 1000000000ull;
	c->stop = 0;
	if (pthread_create(&c->th, NULL, cpudb_thread, c))
		return -1;
	c->running = true;
	return 0;
}

void gd_cpudb_stop(struct gd_cpudb *c)
{
	if (!c->running)
		return;
	__atomic_store_n(&c->stop, 1, __ATOMIC_RELEASE);
	pthread_join(c->th, NULL);
	c->running = false;
}
