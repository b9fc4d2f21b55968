/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The host stand-in for the GPU side of IBGDA, a test double (see
 * ibgda_gpu_host.h). */
#include "config.h"

#include "ibgda_gpu_host.h"

#include <errno.h>
#include <pthread.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibgda_work.h"
#include "log.h"

#define GRACE_NS 2000000000ull /* after the stop flag, before threads are left behind */

struct worker {
	struct gd_ibgda_host *h;
	uint32_t index;
};

struct gd_ibgda_host {
	/* the launch in flight, as a kernel's arguments (by value) */
	struct gd_ibgda_kargs a;
	uint32_t group, ngroups, nth, by_cta;
	uint64_t T;
	uint64_t *snap, *t_db, *t_cqe;
	pthread_t th[GD_IBGDA_HOST_WORKERS];
	struct worker w[GD_IBGDA_HOST_WORKERS];
	pthread_mutex_t mu;
	pthread_cond_t cv;
	uint32_t running;
	bool abandoned; /* threads left behind: nothing is freed */
	/* what a GPU could reach: allocations and mapped ranges */
	struct range {
		uintptr_t at;
		size_t len;
	} reach[GD_IBGDA_HOST_RANGES];
	uint32_t nreach;
};

int gd_ibgda_host_open(struct gd_ibgda_host **out)
{
	struct gd_ibgda_host *h = calloc(1, sizeof(*h));
	pthread_condattr_t ca;

	*out = NULL;
	if (!h)
		return -ENOMEM;
	pthread_condattr_init(&ca);
	pthread_condattr_setclock(&ca, CLOCK_MONOTONIC);
	pthread_mutex_init(&h->mu, NULL);
	pthread_cond_init(&h->cv, &ca);
	pthread_condattr_destroy(&ca);
	gd_warn("GDPERF_TEST_IBGDA_GPU=host: the GPU side of IBGDA is a %s: host threads run "
		"the kernels' code (ibgda_work.h) on host memory; no GPU, no CUDA. For tests "
		"only: figures measure this host, not a GPU.",
		GD_IBGDA_GPU_STAND_IN_NAME);
	*out = h;
	return 0;
}

void gd_ibgda_host_close(struct gd_ibgda_host *h)
{
	if (!h || h->abandoned) /* its threads may still read it */
		return;
	pthread_cond_destroy(&h->cv);
	pthread_mutex_destroy(&h->mu);
	free(h);
}

int gd_ibgda_host_map(struct gd_ibgda_host *h, void *p, size_t bytes)
{
	if (h->nreach == GD_IBGDA_HOST_RANGES) {
		gd_error("%s: more than %u ranges a GPU could reach at once (raise "
			 "GD_IBGDA_HOST_RANGES)",
			 GD_IBGDA_GPU_STAND_IN_NAME, GD_IBGDA_HOST_RANGES);
		return -ENOSPC;
	}
	h->reach[h->nreach++] = (struct range){(uintptr_t)p, bytes};
	return 0;
}

void gd_ibgda_host_unmap(struct gd_ibgda_host *h, void *p)
{
	for (uint32_t i = 0; i < h->nreach; i++)
		if (h->reach[i].at == (uintptr_t)p) {
			h->reach[i] = h->reach[--h->nreach];
			return;
		}
}

void *gd_ibgda_host_alloc(struct gd_ibgda_host *h, size_t bytes)
{
	void *p = NULL;

	if (posix_memalign(&p, 64, bytes ? bytes : 64)) {
		gd_error("%s: cannot allocate %zu bytes", GD_IBGDA_GPU_STAND_IN_NAME, bytes);
		return NULL;
	}
	memset(p, 0, bytes);
	if (gd_ibgda_host_map(h, p, bytes)) {
		free(p);
		return NULL;
	}
	return p;
}

void gd_ibgda_host_free(struct gd_ibgda_host *h, void *p)
{
	if (!p)
		return;
	gd_ibgda_host_unmap(h, p);
	if (!h->abandoned)
		free(p);
}

/* [at, at + len) inside one reachable range; else the message a GPU's
 * fault would have been, and -EFAULT. q: the QP the word belongs to, or
 * UINT32_MAX. */
static int reach(const struct gd_ibgda_host *h, const void *p, size_t len, uint32_t q,
		 const char *what)
{
	uintptr_t at = (uintptr_t)p;
	char name[64];

	for (uint32_t i = 0; i < h->nreach; i++)
		if (at >= h->reach[i].at && len <= h->reach[i].len &&
		    at - h->reach[i].at <= h->reach[i].len - len)
			return 0;
	if (q == UINT32_MAX)
		snprintf(name, sizeof(name), "%s", what);
	else
		snprintf(name, sizeof(name), "QP %u's %s", q, what);
	gd_error("the GPU could not reach %#llx (%s, %zu bytes): not mapped (the stand-in's "
		 "check, GDPERF_TEST_IBGDA_GPU=host: a GPU's kernel faults there; the memory must "
		 "come from gd_ibgda_gpu_host or gd_ibgda_gpu_dev, or be mapped with gd_ibgda_gpu_map)",
		 (unsigned long long)at, name, len);
	return -EFAULT;
}

/* Every word of QP q the protocol (ibgda_dev.h) reads or writes. */
static int reach_qp(const struct gd_ibgda_host *h, const struct gd_ibgda_qp *qp, uint32_t q)
{
	bool bad = reach(h, qp->sq, (size_t)qp->nwqe * GD_MLX5_WQEBB, q, "send queue") ||
		   reach(h, qp->dbrec, 4, q, "doorbell record") ||
		   reach(h, qp->db, 8, q, qp->flags & GD_IBGDA_CPUDB ? "producer word" : "doorbell") ||
		   reach(h, qp->cq, (size_t)qp->ncqe * GD_MLX5_CQE, q, "completion queue") ||
		   (!(qp->flags & GD_IBGDA_COLLAPSED) && reach(h, qp->cq_dbrec, 4, q, "CQ doorbell record")) ||
		   reach(h, qp->ctr, sizeof(*qp->ctr), q, "counters") ||
		   reach(h, qp->err, sizeof(*qp->err), q, "failure record") ||
		   (qp->ctl && reach(h, qp->ctl, sizeof(*qp->ctl), q, "run control"));

	return bad ? -EFAULT : 0;
}

/* A launch's addresses: the first nq QPs (the array, then each QP's words)
 * and the stamps. */
static int reach_launch(const struct gd_ibgda_host *h, const struct gd_ibgda_kargs *a, uint32_t nq)
{
	if (reach(h, a->qps, (size_t)nq * sizeof(*a->qps), UINT32_MAX, "the QP array"))
		return -EFAULT;
	for (uint32_t q = 0; q < nq; q++)
		if (reach_qp(h, &a->qps[q], q))
			return -EFAULT;
	return a->stamps ? reach(h, a->stamps, 2 * sizeof(uint64_t), UINT32_MAX, "the stamps") : 0;
}

static void worker_done(struct gd_ibgda_host *h)
{
	pthread_mutex_lock(&h->mu);
	h->running--;
	pthread_cond_broadcast(&h->cv);
	pthread_mutex_unlock(&h->mu);
}

/* One group's reservation: its lanes' WQEs in turn, then publish and ring
 * as the group's leader does (the kernels' post loops, one group). */
static int post_group(const struct gd_ibgda_kargs *a, const struct gd_ibgda_qp *qp, uint32_t n,
		      uint64_t item0)
{
	uint64_t base = gd_ibgda_reserve(qp, n);

	if (base == ~0ull)
		return -1;
	for (uint32_t i = 0; i < n; i++) {
		struct gd_mlx5_wqebb w;

		gd_ibgda_build_item(a, qp, base + i, item0 + i, &w);
		gd_ib_store_wqebb(gd_ibgda_wqe_ptr(qp, base + i), &w);
	}
	return gd_ibgda_submit(qp, base, n, 0);
}

/* Groups index, index + nth, ...: round k of each in turn (one reservation
 * held at a time), as the grid's warps or CTAs; group g posts items k * T +
 * g * group + lane on QP g % nqps (the kernels' launch convention). */
static void *post_worker(void *arg)
{
	struct worker *w = arg;
	struct gd_ibgda_host *h = w->h;
	const struct gd_ibgda_kargs *a = &h->a;
	bool failed = false;

	gd_ibgda_begin(a);
	for (uint32_t k = 0; k < a->iters && !failed; k++)
		for (uint32_t g = w->index; g < h->ngroups && !failed; g += h->nth)
			failed = post_group(a, &a->qps[g % a->nqps], h->group,
					    k * h->T + (uint64_t)g * h->group) != 0;
	gd_ibgda_end(a);
	worker_done(h);
	return NULL;
}

static void *quiet_worker(void *arg)
{
	struct worker *w = arg;
	struct gd_ibgda_host *h = w->h;

	for (uint32_t q = w->index; q < h->a.nqps; q += h->nth)
		gd_ibgda_quiet_qp(h->a.qps, q, h->snap);
	worker_done(h);
	return NULL;
}

static void *latency_worker(void *arg)
{
	struct worker *w = arg;

	gd_ibgda_latency(&w->h->a, w->h->t_db, w->h->t_cqe);
	worker_done(w->h);
	return NULL;
}

/* Until every worker ended or the clock passed until_ns: 0 or -ETIMEDOUT. */
static int wait_until(struct gd_ibgda_host *h, uint64_t until_ns)
{
	struct timespec ts = {(time_t)(until_ns / 1000000000ull), (long)(until_ns % 1000000000ull)};
	int ret = 0;

	pthread_mutex_lock(&h->mu);
	while (h->running && !ret)
		ret = pthread_cond_timedwait(&h->cv, &h->mu, &ts) == ETIMEDOUT ? -ETIMEDOUT : 0;
	if (!h->running)
		ret = 0;
	pthread_mutex_unlock(&h->mu);
	return ret;
}

/* Start nth workers on fn and wait for them until until_ns (CLOCK_MONOTONIC,
 * gd_ib_now's clock); past it, raise the stop flag and give them GRACE_NS. */
static int launch(struct gd_ibgda_host *h, void *(*fn)(void *), uint32_t nth, uint64_t until_ns)
{
	uint32_t started = 0;
	int ret = 0;

	h->nth = nth;
	h->running = nth;
	for (; started < nth; started++) {
		h->w[started] = (struct worker){h, started};
		if (pthread_create(&h->th[started], NULL, fn, &h->w[started]))
			break;
	}
	if (started < nth) {
		gd_error("%s: cannot start a thread", GD_IBGDA_GPU_STAND_IN_NAME);
		pthread_mutex_lock(&h->mu);
		h->running -= nth - started;
		pthread_mutex_unlock(&h->mu);
		ret = -EAGAIN;
	}
	if (wait_until(h, until_ns)) {
		gd_error("the threads of the %s still run past their deadline: stopping them",
			 GD_IBGDA_GPU_STAND_IN_NAME);
		if (h->a.qps[0].ctl)
			gd_ib_st32(&h->a.qps[0].ctl->stop, 1);
		ret = -ETIMEDOUT;
		if (wait_until(h, gd_ib_now() + GRACE_NS)) {
			gd_error("the threads of the %s did not stop: left behind (the process must exit)",
				 GD_IBGDA_GPU_STAND_IN_NAME);
			h->abandoned = true;
			return ret;
		}
	}
	for (uint32_t i = 0; i < started; i++)
		pthread_join(h->th[i], NULL);
	return ret;
}

static uint32_t at_most(uint32_t n, uint32_t cap)
{
	return n < cap ? n : cap;
}

int gd_ibgda_host_run(struct gd_ibgda_host *h, const struct gd_ibgda_kargs *a, uint32_t ctas,
		      uint32_t threads, uint64_t *snap, uint64_t max_ns, uint64_t *ns)
{
	uint64_t t0 = gd_ib_now(), until = t0 + max_ns;
	int ret;

	if (h->abandoned)
		return -EBUSY;
	if (reach_launch(h, a, a->nqps) ||
	    (snap && reach(h, snap, (size_t)a->nqps * 16, UINT32_MAX, "the quiet's snapshot")))
		return -EFAULT;
	h->a = *a;
	h->snap = snap;
	h->by_cta = a->scope == GD_IBGDA_SCOPE_CTA;
	h->group = h->by_cta ? threads : 32;
	h->ngroups = h->by_cta ? ctas : ctas * threads / 32;
	h->T = (uint64_t)ctas * threads;
	ret = launch(h, post_worker, at_most(h->ngroups, GD_IBGDA_HOST_WORKERS), until);
	if (!ret) /* stream order: the quiet after the posts */
		ret = launch(h, quiet_worker, at_most(a->nqps, GD_IBGDA_HOST_WORKERS), until);
	*ns = gd_ib_now() - t0;
	return ret;
}

int gd_ibgda_host_lat(struct gd_ibgda_host *h, const struct gd_ibgda_kargs *a, uint64_t *t_db,
		      uint64_t *t_cqe, uint64_t max_ns)
{
	size_t n = (size_t)a->iters * sizeof(uint64_t);

	if (h->abandoned)
		return -EBUSY;
	/* the latency loop: QP 0, its samples, and each fetched atomic result */
	if (reach_launch(h, a, 1) || reach(h, t_db, n, UINT32_MAX, "the doorbell samples") ||
	    reach(h, t_cqe, n, UINT32_MAX, "the completion samples") ||
	    (gd_ibgda_is_atomic(a->opcode) && a->iters &&
	     reach(h, (const void *)(uintptr_t)gd_ibgda_fetch_word(a, &a->qps[0]), 8, 0, "fetch word")))
		return -EFAULT;
	h->a = *a;
	h->t_db = t_db;
	h->t_cqe = t_cqe;
	return launch(h, latency_worker, 1, gd_ib_now() + max_ns);
}
