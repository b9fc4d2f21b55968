/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Host producer threads (see hostprod.h). */
#include "config.h"

#include "hostprod.h"

#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"

struct prod_thread {
	const struct gd_prod_args *a;
	uint32_t index, nthreads;
	int core; /* -1 = not pinned */
	uint64_t code;
	pthread_t tid;
};

static void *prod_main(void *arg)
{
	struct prod_thread *t = arg;
	const struct gd_prod_args *a = t->a;
	uint64_t cache[GD_RING_MAX] = { 0 };
	uint32_t gs = a->group_size ? a->group_size : 1;

	if (t->core >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->core, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	/* round-robin over my groups so that every channel advances together */
	for (uint64_t k = 0; k < a->per_group && !t->code; k += gs) {
		uint32_t n = (uint32_t)(a->per_group - k < gs ? a->per_group - k : gs);

		for (uint32_t g = t->index; g < a->ngroups && !t->code; g += t->nthreads) {
			uint32_t ring = gd_ring_of_channel(&a->set, g & GD_DESC_CHANNEL_MAX);

			t->code = gd_prod_issue(a, g, k, n, &cache[ring]);
		}
	}
	return NULL;
}

int gd_host_prod_run(const struct gd_prod_args *a, uint32_t nthreads, const int *cores,
		     uint32_t ncores, uint64_t *ns)
{
	struct prod_thread *t = calloc(nthreads, sizeof(*t));
	struct gd_ring_fail f = { 0 };
	uint64_t t0 = gd_hd_now_ns(), code = 0;
	uint32_t started = 0;
	int err = 0;

	if (!t)
		return -ENOMEM;
	for (; started < nthreads; started++) {
		struct prod_thread *p = &t[started];
		int ret;

		p->a = a;
		p->index = started;
		p->nthreads = nthreads;
		p->core = cores && ncores ? cores[started % ncores] : -1;
		ret = pthread_create(&p->tid, NULL, prod_main, p);
		if (ret) {
			gd_error("cannot start host producer thread %u: %s", started, strerror(ret));
			err = -ret;
			break;
		}
	}
	for (uint32_t i = 0; i < started; i++) {
		pthread_join(t[i].tid, NULL);
		if (t[i].code && !code)
			code = t[i].code;
	}
	free(t);
	if (err)
		return err;
	if (code)
		return (int)code;
	code = gd_ring_quiet(&a->set, &f);
	if (code)
		gd_ring_fail_record(a->fail, &f);
	*ns = gd_hd_now_ns() - t0;
	return (int)code;
}

int gd_host_prod_lat(const struct gd_prod_args *a, uint64_t n, uint64_t *samples_ns)
{
	uint32_t ring = gd_ring_of_channel(&a->set, 0);
	uint64_t cache = 0, code = 0;
	struct gd_ring_fail f = { 0 };

	for (uint64_t i = 0; i < n && !code; i++) {
		uint64_t t0 = gd_hd_now_ns();

		code = gd_prod_issue(a, 0, i, 1, &cache);
		if (!code)
			code = gd_ring_wait_done(&a->set, ring, gd_hd_load_acq(a->set.ring[ring].head), &f);
		if (code == GD_RING_TIMEOUT_DONE || code == GD_RING_STOPPED)
			gd_ring_fail_record(a->fail, &f);
		samples_ns[i] = gd_hd_now_ns() - t0;
	}
	return (int)code;
}
