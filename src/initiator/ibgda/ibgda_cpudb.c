/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The CPU doorbell thread of --initiator=ibgda-cpudb (see ibgda_cpudb.h). */
#include "ibgda_cpudb.h"

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

static uint64_t cpudb_pass(void *arg)
{
	return gd_cpudb_pass(arg);
}

int gd_cpudb_start(struct gd_cpudb *c)
{
	c->thread = (struct gd_poller){ .pass = cpudb_pass, .arg = c };
	return gd_poller_start(&c->thread, c->max_idle_ns);
}

void gd_cpudb_stop(struct gd_cpudb *c)
{
	gd_poller_stop(&c->thread);
}
