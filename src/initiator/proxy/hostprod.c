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
	uint64_t lat_n;      /* latency mode: round trips */
	uint64_t *lat_ns;
	struct gd_host_prod *owner;
	pthread_t tid;
};

struct gd_host_prod {
	const struct gd_prod_args *a;
	struct prod_thread *t;
	uint32_t n, started;
	uint32_t finished; /* atomic */
	uint64_t t0;
	int err;
};

static void issue_all(struct prod_thread *t)
{
	const struct gd_prod_args *a = t->a;
	uint64_t cache[GD_RING_MAX] = { 0 };
	uint32_t gs = a->group_size ? a->group_size : 1;

	gd_prod_mark_start(a);
	/* round-robin over my groups so that every channel advances together */
	for (uint64_t k = 0; k < a->per_group && !t->code; k += gs) {
		uint32_t n = (uint32_t)(a->per_group - k < gs ? a->per_group - k : gs);

		for (uint32_t g = t->index; g < a->ngroups && !t->code; g += t->nthreads) {
			uint32_t ring = gd_ring_of_channel(&a->set, g & GD_DESC_CHANNEL_MAX);

			t->code = gd_prod_issue(a, g, k, n, &cache[ring], NULL);
		}
	}
	if (!t->code)
		gd_prod_mark_issued(a);
}

static void *prod_main(void *arg)
{
	struct prod_thread *t = arg;

	if (t->core >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(t->core, &set);
		pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
	}
	if (t->lat_ns)
		t->code = (uint64_t)gd_host_prod_lat(t->a, t->lat_n, t->lat_ns);
	else
		issue_all(t);
	__atomic_add_fetch(&t->owner->finished, 1, __ATOMIC_RELEASE);
	return NULL;
}

static int start(const struct gd_prod_args *a, uint32_t nthreads, const int *cores,
		 uint32_t ncores, uint64_t lat_n, uint64_t *lat_ns, struct gd_host_prod **out)
{
	struct gd_host_prod *h = calloc(1, sizeof(*h));
	struct prod_thread *t = calloc(nthreads, sizeof(*t));

	*out = NULL;
	if (!h || !t) {
		free(h);
		free(t);
		return -ENOMEM;
	}
	*out = h;
	h->a = a;
	h->t = t;
	h->n = nthreads;
	h->t0 = gd_hd_now_ns();
	for (; h->started < nthreads; h->started++) {
		struct prod_thread *p = &t[h->started];
		int ret;

		p->a = a;
		p->owner = h;
		p->index = h->started;
		p->nthreads = nthreads;
		p->core = cores && ncores ? cores[h->started % ncores] : -1;
		p->lat_n = lat_n;
		p->lat_ns = lat_ns;
		ret = pthread_create(&p->tid, NULL, prod_main, p);
		if (ret) {
			gd_error("cannot start host producer thread %u of %u: %s (the threads "
				 "this user may run: ulimit -u; lower --ctas)", h->started + 1,
				 nthreads, strerror(ret));
			h->err = -ret;
			return -ret;
		}
	}
	return 0;
}

int gd_host_prod_start(const struct gd_prod_args *a, uint32_t nthreads, const int *cores,
		       uint32_t ncores, struct gd_host_prod **h)
{
	return start(a, nthreads, cores, ncores, 0, NULL, h);
}

int gd_host_prod_start_lat(const struct gd_prod_args *a, uint64_t n, uint64_t *samples_ns,
			   struct gd_host_prod **h)
{
	return start(a, 1, NULL, 0, n, samples_ns, h);
}

bool gd_host_prod_done(const struct gd_host_prod *h)
{
	return __atomic_load_n(&h->finished, __ATOMIC_ACQUIRE) >= h->started;
}

int gd_host_prod_finish(struct gd_host_prod *h, uint64_t *ns)
{
	struct gd_ring_fail f = { 0 };
	uint64_t code = 0;
	int err;

	if (!h)
		return -ENOMEM;
	for (uint32_t i = 0; i < h->started; i++) {
		pthread_join(h->t[i].tid, NULL);
		if (h->t[i].code && !code)
			code = h->t[i].code;
	}
	err = h->err;
	if (!err && !code && !h->t[0].lat_ns) {
		code = gd_ring_quiet(&h->a->set, &f);
		if (code)
			gd_ring_fail_record(h->a->fail, &f);
		else if (h->a->clock)
			gd_hd_store_rel(&h->a->clock->quiet, gd_hd_now_ns());
	}
	if (ns)
		*ns = gd_hd_now_ns() - h->t0;
	free(h->t);
	free(h);
	return err ? err : (int)code;
}

int gd_host_prod_run(const struct gd_prod_args *a, uint32_t nthreads, const int *cores,
		     uint32_t ncores, uint64_t *ns)
{
	struct gd_host_prod *h = NULL;
	int ret = gd_host_prod_start(a, nthreads, cores, ncores, &h);

	if (ret && !h)
		return ret;
	return gd_host_prod_finish(h, ns);
}

int gd_host_prod_lat(const struct gd_prod_args *a, uint64_t n, uint64_t *samples_ns)
{
	uint32_t ring = gd_ring_of_channel(&a->set, 0);
	uint64_t cache = 0, code = 0;
	struct gd_ring_fail f = { 0 };

	for (uint64_t i = 0; i < n && !code; i++) {
		uint64_t t0 = gd_hd_now_ns(), end = 0;

		code = gd_prod_issue(a, 0, i, 1, &cache, &end);
		if (!code)
			code = gd_ring_wait_done(&a->set, ring, end, &f);
		if (code == GD_RING_TIMEOUT_DONE || code == GD_RING_STOPPED)
			gd_ring_fail_record(a->fail, &f);
		samples_ns[i] = gd_hd_now_ns() - t0;
	}
	return (int)code;
}
