/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* --initiator=proxy in the benchmark tools (see proxy_bench.h). */
#include "config.h"

#include "proxy_bench.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "loop.h"
#include "gd.h"
#include "hostprod.h"
#include "initiator.h"
#include "log.h"
#include "oob.h"
#include "proxy.h"
#include "transport_verbs.h"
#ifdef HAVE_LIBFABRIC
#include "transport_ofi.h"
#endif

#define PEER_CHECK_NS 100000000ull
#define MAX_BATCH 64

struct run {
	struct gd_loop *l;
	struct gd_tv *tv;
	struct gd_tof *tof;		/* --fabric ofi: the libfabric transport instead */
	struct gd_proxy *px;
	struct gd_ring_fail fail;
	struct gd_prod_args a;
	int cores[GD_RING_MAX];
	uint32_t ncores;
};

static uint32_t desc_op(const struct gd_loop_cfg *c)
{
	switch (c->op->op) {
	case GD_OP_WRITE: return c->alt ? GD_DESC_WRITE_IMM : GD_DESC_WRITE;
	case GD_OP_READ: return GD_DESC_READ;
	case GD_OP_ATOMIC: return c->alt ? GD_DESC_CAS : GD_DESC_FADD;
	default: return c->alt ? GD_DESC_SEND_IMM : GD_DESC_SEND;
	}
}

/* "0-3,8" -> cores (at most max); the list was checked by the option parser. */
static uint32_t parse_cores(const char *list, int *cores, uint32_t max)
{
	uint32_t n = 0;
	const char *s = list;

	while (*s && n < max) {
		char *end;
		long lo = strtol(s, &end, 10), hi = lo;

		if (end == s)
			break;
		if (*end == '-')
			hi = strtol(end + 1, &end, 10);
		for (long c = lo; c <= hi && n < max; c++)
			cores[n++] = (int)c;
		s = *end == ',' ? end + 1 : end;
	}
	return n;
}

static int run_open(struct run *r, struct gd_loop *l, uint64_t size)
{
	const struct gd_loop_cfg *c = &l->cfg;
	struct gd_tv_qp qps[256];
	struct gd_proxy_cfg cfg = { 0 };
	uint32_t batch = GD_MIN((uint32_t)MAX_BATCH, c->tx_depth);

	memset(r, 0, sizeof(*r));
	r->l = l;
	for (uint32_t i = 0; i < c->nqp && i < 256; i++)
		qps[i] = (struct gd_tv_qp){ l->q[i].qp, l->q[i].local_addr, l->q[i].lkey,
					    l->q[i].remote_addr, l->q[i].rkey };
#ifdef HAVE_LIBFABRIC
	if (l->fab == &gd_fabric_ofi) { /* the fabric seam's libfabric side */
		r->tof = gd_tof_create(l->q, c->nqp, l->scq, c->init.proxy_threads, batch,
				       c->max_inline);
		if (!r->tof)
			return -ENOMEM;
		gd_tof_ops(r->tof, &cfg.tp);
	}
#endif
	if (!r->tof) {
		r->tv = gd_tv_create(qps, c->nqp, l->send_cq, c->init.proxy_threads, batch,
				     c->max_inline);
		if (!r->tv)
			return -ENOMEM;
		gd_tv_ops(r->tv, &cfg.tp);
	}
	if (c->pin_cores[0])
		r->ncores = parse_cores(c->pin_cores, r->cores, GD_RING_MAX);
	cfg.nthreads = c->init.proxy_threads;
	cfg.nqps = c->nqp;
	cfg.ring_slots = c->init.ring_slots;
	cfg.batch = batch;
	cfg.sq_depth = c->tx_depth;
	cfg.timeout_ns = (uint64_t)c->timeout_ms * 1000000ull;
	cfg.cores = r->ncores ? r->cores : NULL;
	cfg.ncores = r->ncores;
	r->px = gd_proxy_create(&cfg);
	if (!r->px || gd_proxy_start(r->px))
		return -EINVAL;
	gd_proxy_ring_set(r->px, &r->a.set);
	r->a.op = desc_op(c);
	r->a.group_size = gd_init_group_size(&c->init);
	r->a.ngroups = gd_init_groups(&c->init);
	r->a.nregions = 1;
	r->a.size = size;
	r->a.region_bytes = 0; /* offsets are relative to each QP's own regions */
	r->a.fail = &r->fail;
	return 0;
}

static void run_close(struct run *r)
{
	gd_proxy_destroy(r->px);
	gd_tv_destroy(r->tv);
#ifdef HAVE_LIBFABRIC
	gd_tof_destroy(r->tof);
#endif
}

/* While producers run: ^C, the peer and the proxy's error word stop them. */
static int watch(struct run *r, struct gd_host_prod *h)
{
	struct gd_loop *l = r->l;
	uint64_t last = gd_now_ns();
	struct timespec ts = { 0, 1000000 };

	while (!gd_host_prod_done(h)) {
		uint64_t now = gd_now_ns();
		int ret;

		if (gd_bench_stop) {
			gd_proxy_stop_producers(r->px);
			gd_error("interrupted");
			gd_oob_send_error(l->oob, GD_EXIT_FAIL, "the peer was interrupted");
			l->exit_code = GD_EXIT_FAIL;
			return -EINTR;
		}
		if (gd_proxy_error(r->px))
			gd_proxy_stop_producers(r->px);
		if (now - last >= PEER_CHECK_NS) {
			last = now;
			ret = gd_oob_check_peer(l->oob);
			if (ret < 0) {
				gd_proxy_stop_producers(r->px);
				l->exit_code = GD_EXIT_FAIL;
				return ret;
			}
		}
		nanosleep(&ts, NULL);
	}
	return 0;
}

/* A fault: print the error word or the producers' failure with the ring
 * indices and outstanding counts; tell the peer. */
static int report_fault(struct run *r, int code)
{
	struct gd_loop *l = r->l;
	uint64_t e = gd_proxy_error(r->px);
	char msg[512];

	if (e)
		gd_proxy_describe(r->px, e, msg, sizeof(msg));
	else if (r->fail.code)
		gd_proxy_describe_fail(&r->fail, msg, sizeof(msg));
	else
		snprintf(msg, sizeof(msg), "the producers stopped (%d)", code);
	gd_error("proxy: %s", msg);
	if (e && gd_err_kind(e) == GD_ERR_COMPLETION)
		gd_info("%s", gd_wc_hint((enum ibv_wc_status)gd_err_status(e)));
	gd_proxy_dump(r->px, stderr);
	gd_oob_send_error(l->oob, GD_EXIT_FAIL, "proxy: %s", msg);
	l->exit_code = GD_EXIT_FAIL;
	return -EIO;
}

static int produce(struct run *r, uint64_t lat_n, uint64_t *lat_ns, uint64_t *ns)
{
	const struct gd_loop_cfg *c = &r->l->cfg;
	struct gd_host_prod *h = NULL;
	int ret, code;

	ret = lat_ns ? gd_host_prod_start_lat(&r->a, lat_n, lat_ns, &h)
		     : gd_host_prod_start(&r->a, c->init.ctas, NULL, 0, &h);
	if (ret && !h)
		return ret;
	ret = watch(r, h);
	code = gd_host_prod_finish(h, ns);
	gd_proxy_join(r->px);
	if (ret)
		return ret;
	if (code || gd_proxy_error(r->px))
		return report_fault(r, code);
	return 0;
}

/* bw: the initiator's measurement through the ring; a receiver only (the
 * send server) runs the CPU loop. */
static int proxy_run_bw(struct gd_loop *l, uint64_t size, struct gd_bw_result *res, bool *sent)
{
	const struct gd_loop_cfg *c = &l->cfg;
	uint32_t groups = gd_init_groups(&c->init);
	uint64_t total = c->iters * c->nqp, ns = 0;
	struct gd_proxy_stats st;
	struct run r;
	int ret;

	if (!c->initiator)
		return gd_loop_cpu.run_bw(l, size, res, sent);
	memset(res, 0, sizeof(*res));
	res->size = size;
	*sent = false;
	ret = run_open(&r, l, size);
	if (ret) {
		run_close(&r);
		l->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	r.a.per_group = (total + groups - 1) / groups;
	total = r.a.per_group * groups;
	ret = produce(&r, 0, NULL, &ns);
	gd_proxy_get_stats(r.px, &st);
	run_close(&r);
	if (ret)
		return ret;
	res->iters = res->ops = total;
	res->seconds = (double)ns / 1e9;
	res->avg_Bps = res->seconds > 0 ? (double)total * (double)size / res->seconds : 0;
	res->msg_rate = res->seconds > 0 ? (double)total / res->seconds : 0;
	if (gd_log_verbose())
		gd_info("proxy: %" PRIu64 " requests in %" PRIu64 " chains (%.1f per doorbell), "
			"%" PRIu64 " completions polled in %" PRIu64 " polls", st.requests, st.chains,
			st.chains ? (double)st.requests / (double)st.chains : 0, st.completions,
			st.polls);
	ret = l->measured(l->owner, res);
	if (ret)
		return ret;
	*sent = true;
	return 0;
}

/* The receiver of a proxy latency test (send, write with immediate): take n
 * messages, re-posting each receive; deadline, ^C and the peer end it. */
static int drain_receives(struct gd_loop *l, uint64_t n)
{
	uint64_t got = 0, now, last = gd_now_ns(), check = last;
	uint64_t timeout = (uint64_t)l->cfg.timeout_ms * 1000000ull;
	struct gd_fab_cqe wc[16];

	while (got < n) {
		int ne = l->fab->poll(l->rcq, wc, 16);

		for (int k = 0; k < ne; k++) {
			if (wc[k].status)
				return gd_loop_wc_failed(l, &wc[k], true);
			l->q[0].recv_done++;
			if (l->fab->post_recv(&l->q[0], 1)) {
				l->exit_code = GD_EXIT_FAIL;
				return -EIO;
			}
			got++;
		}
		now = gd_now_ns();
		if (ne > 0) {
			last = now;
			continue;
		}
		if (ne < 0 || gd_bench_stop || now - last > timeout) {
			gd_error("%s after %" PRIu64 " of %" PRIu64 " messages", ne < 0 ?
				 "cannot poll the receive queue" : gd_bench_stop ? "interrupted" :
				 "no message within --timeout: the link is down or the peer stopped",
				 got, n);
			l->exit_code = GD_EXIT_FAIL;
			return -EIO;
		}
		if (now - check > PEER_CHECK_NS) {
			int ret = gd_oob_check_peer(l->oob);

			check = now;
			if (ret < 0) {
				l->exit_code = GD_EXIT_FAIL;
				return ret;
			}
		}
	}
	return 0;
}

static int proxy_run_lat(struct gd_loop *l, uint64_t size, double **samples, size_t *n)
{
	const struct gd_loop_cfg *c = &l->cfg;
	uint64_t *ns;
	struct run r;
	int ret;

	*samples = NULL;
	*n = 0;
	if (!c->initiator)
		return c->receiver ? drain_receives(l, c->iters) : 0;
	ns = calloc(c->iters, sizeof(*ns));
	*samples = calloc(c->iters, sizeof(**samples));
	if (!ns || !*samples) {
		free(ns);
		free(*samples);
		*samples = NULL;
		return -ENOMEM;
	}
	ret = run_open(&r, l, size);
	if (!ret) {
		r.a.ngroups = 1;
		r.a.per_group = c->iters;
		ret = produce(&r, c->iters, ns, NULL);
	} else {
		l->exit_code = GD_EXIT_FAIL;
	}
	run_close(&r);
	for (uint64_t i = 0; !ret && i < c->iters; i++)
		(*samples)[i] = (double)ns[i] / 1000.0;
	free(ns);
	if (ret) {
		free(*samples);
		*samples = NULL;
		return ret;
	}
	*n = c->iters;
	return 0;
}

/* The proxy initiator behind the engine's loop seam (loop.h). */
const struct gd_loop_ops gd_loop_proxy = {
	.name = "proxy",
	.run_bw = proxy_run_bw,
	.run_lat = proxy_run_lat,
};
