/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The libfabric fabric's setup (bench_fabric.h, HAVE_LIBFABRIC only) over
 * fabric_ofi.h: the domain, the endpoints and the memory region, the blobs,
 * each endpoint connected; the provider's progress while the side channel
 * waits.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "bench_fabric.h"
#include "bench_int.h"
#include "fabric_ofi.h"
#include "fabric_rule.h"
#include "gd.h"
#include "log.h"
#include "oob.h"
#include "ofi_lib.h"

/* What the report and the plan read of a device; the receive queue the
 * provider takes (the same on both sides). */
static int take_domain(struct gd_bench *b)
{
	const struct gd_ofi *f = b->ofi;

	snprintf(b->p.fab.provider, sizeof(b->p.fab.provider), "%s", f->prov);
	snprintf(b->p.fab.fabric_name, sizeof(b->p.fab.fabric_name), "%s", f->fabric_name);
	snprintf(b->p.fab.domain, sizeof(b->p.fab.domain), "%s", f->domain_name);
	snprintf(b->dev.name, sizeof(b->dev.name), "%s", f->domain_name);
	b->dev.max_inline = (uint32_t)f->inject_size;
	if (f->rx_size && b->p.rx_depth > f->rx_size) {
		if (b->p.given & GD_GIVEN_RX_DEPTH) {
			gd_error("-r %u is more than libfabric provider %s takes (%zu receives): give "
				 "-r %zu or less", b->p.rx_depth, f->prov, f->rx_size, f->rx_size);
			return -EINVAL;
		}
		b->p.rx_depth = b->plan.loop.rx_depth = b->plan.link.rx_depth = (uint32_t)f->rx_size;
	}
	return 0;
}

/* The threads that drive this side's endpoints at once, a domain each
 * (gd_ofi_dom_of): the proxy's on its initiating side, and as many progress
 * threads on the passive side of its bandwidth test (neither initiator nor
 * receiver: it only drives the provider while the peer's N threads write or
 * read, gd_ofi_progress_start) where its provider's progress places each of
 * them (gd_fabric_ofi_passive_threads), which knows N from its own --proxy_threads:
 * the parameter check makes both sides give the same over libfabric
 * (bench_params.c). Every other side has one thread: its loop's (a receiver
 * counts its completions on one CQ), one domain. The one rule of how many. */
static uint32_t threads_of(const struct gd_bench *b)
{
	bool passive_bw = b->p.kind == GD_KIND_BW && !b->plan.roles.initiator &&
			  !b->plan.roles.receiver &&
			  gd_fabric_ofi_passive_threads(b->p.fab.provider);

	return b->plan.roles.initiator || passive_bw ? b->p.init.proxy_threads : 1;
}

/* --fabric ofi: libfabric's domain (fi_getinfo: the provider, domain and endpoint
 * type exist here). Each side opens the domain before it listens or connects: what
 * it can check alone is told at once, not after a peer came (a side that fails
 * there never reaches the peer). A libfabric that cannot be loaded fails first. */
static int ofi_open(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;
	struct gd_ofi_cfg c = { .o = &p->fab, .op = p->op, .alt = b->plan.alt,
				.server = p->role == GD_ROLE_SERVER, .nqp = p->num_qps,
				.tx_depth = p->tx_depth, .rx_depth = p->rx_depth,
				.threads = threads_of(b),
				/* the domains are the proxy's threads' while they run */
				.threaded = b->plan.own_threads,
				/* the GPU's ordinal: once the buffer has it (ofi_take) */
				.hmem = gd_plan_hmem(&b->plan), .cuda_device = -1,
				.timeout_ms = p->timeout_ms, .tclass = p->roce.tclass };
	int ret = gd_ofi_lib_require();

	if (ret)
		return ret;
	b->ofi = calloc(1, sizeof(*b->ofi));
	if (!b->ofi)
		return -ENOMEM;
	ret = gd_ofi_open(b->ofi, &c);
	return ret ?: take_domain(b);
}

/* The side channel joined: its local address for endpoints bound to any address,
 * and while a side waits on it, it drives the provider: every side until the setup
 * barrier (the client's first write waits on the server's progress, gd_ofi_connect),
 * a passive side for the whole run. */
static int ofi_joined(struct gd_bench *b)
{
	socklen_t len = sizeof(b->ofi->self);

	gd_oob_local_addr(b->oob, &b->ofi->self, &len);
	gd_oob_set_idle(b->oob, gd_ofi_progress, b->ofi);
	return 0;
}

/* Before the side channel, the endpoints first: their memory estimate (-q)
 * refuses a run that does not fit before the buffer (2 x slot per endpoint) is
 * taken, registered and filled. */
static int ofi_take(struct gd_bench *b)
{
	int ret = gd_bench_alloc_qps(b);

	ret = ret ?: gd_ofi_create_eps(b->ofi);
	ret = ret ?: gd_bench_take_buffer(b);
	if (!ret && b->ofi->cfg.hmem) /* the GPU the buffer took: by index, bus id or auto */
		b->ofi->cfg.cuda_device = b->buf.ops->cuda_device(&b->buf);
	ret = ret ?: gd_ofi_reg(b->ofi, b->buf.addr, b->buf.length);
	return ret ?: gd_bench_fill(b);
}

/* The blobs, each endpoint connected. */
static int ofi_connect(struct gd_bench *b)
{
	int ret = gd_bench_exchange_blobs(b);

	for (uint32_t i = 0; !ret && i < b->p.num_qps; i++)
		ret = gd_ofi_connect(b->ofi, i, &b->remote[i]);
	ret = ret ?: gd_bench_finish_qps(b);
	if (ret && ret != -ECONNABORTED)
		gd_oob_send_error(b->oob, gd_bench_setup_exit_code(ret),
				  "libfabric setup failed on its side: %s", gd_log_last_error());
	return ret;
}

/* An active side's loops poll; between them it still drives the progress its
 * peer's operations need (-b: the peer writes to it while it waits for the
 * peer's results), without taking the receives its loops count. A passive side
 * with several domains: a progress thread each, and its side-channel waits
 * touch none (they block in poll, as over verbs). */
static int ofi_started(struct gd_bench *b)
{
	int ret;

	if (b->plan.roles.initiator || b->plan.roles.receiver) {
		gd_oob_set_idle(b->oob, gd_ofi_progress_tx, b->ofi);
		return 0;
	}
	if (b->ofi->ndom < 2)
		return 0;
	ret = gd_ofi_progress_start(b->ofi);
	if (!ret)
		gd_oob_set_idle(b->oob, NULL, NULL);
	return ret;
}

/* The progress threads joined: this thread drives the provider again for the
 * last waits (validation's, the final barrier). */
static int ofi_stop(struct gd_bench *b)
{
	int ret = gd_ofi_progress_stop(b->ofi);

	if (!ret && !b->plan.roles.initiator && !b->plan.roles.receiver)
		gd_oob_set_idle(b->oob, gd_ofi_progress, b->ofi);
	return ret;
}

static int ofi_local_info(struct gd_bench *b, uint32_t i, uint64_t target)
{
	return gd_ofi_local_info(b->ofi, i, target, &b->local[i]);
}

static void ofi_qp_run(struct gd_bench *b, uint32_t i, struct gd_qp_run *q)
{
	gd_ofi_qp_run(b->ofi, i, q, &b->remote[i]);
}

/* A domain has no port, GID or path MTU of ours: port 1 and no GID, as the
 * report has always said them for libfabric. */
static void ofi_facts(const struct gd_bench *b, struct gd_bench_facts *f)
{
	(void)b;
	f->port = 1;
	f->roce = false;
	f->iwarp = false;
	f->gid_index = -1;
	f->av_sl = 0;
	f->av_tclass = 0;
	f->mtu = 0;
	f->out_reads = 0;
}

static void ofi_cqs(struct gd_bench *b, void **send_cq, void **recv_cq)
{
	*send_cq = &b->ofi->dom[0].scq; /* the one domain of a side whose loop is the CPU's */
	*recv_cq = &b->ofi->dom[0].rcq;
}

static void ofi_pace(struct gd_bench *b, uint64_t size)
{
	gd_ofi_pace_passive(b->ofi, size);
}

/*
 * A run over libfabric's tcp (rxm) that failed in its data phase keeps its endpoints open:
 * libfabric 1.17's rxm crashes in fi_close of an endpoint whose peer died with operations
 * in flight (hostile D10: SIGSEGV under gd_ofi_close, seen in tests/fabric/ofi-peer-death.sh's
 * send cells), and the run is over anyway. A setup failure closes as always (nothing is in
 * flight), and so does shm (its close unlinks the region).
 */
static bool ofi_keep_open(const struct gd_bench *b, int code)
{
	return b->ofi && b->ran && code == GD_EXIT_FAIL && strncmp(b->p.fab.provider, "shm", 3) &&
	       strncmp(b->ofi->cfg.o ? b->ofi->cfg.o->provider : "", "shm", 3);
}

/* The endpoints and the memory region before the buffer. */
static void ofi_close(struct gd_bench *b)
{
	if (!b->ofi)
		return;
	if (gd_ofi_progress_stop(b->ofi)) { /* left running by a path that skipped ofi_stop */
		gd_bench_abandon = 1; /* stuck in the provider: the buffer stays too */
		return; /* the exit reclaims the domains */
	}
	gd_ofi_close(b->ofi);
	free(b->ofi);
}

static void ofi_release(struct gd_bench *b)
{
	(void)b; /* the domain went with ofi_close */
}

const struct gd_bench_fabric gd_bench_fabric_ofi = {
	.ops = &gd_fabric_ofi,
	.unpinned = "libfabric, no NIC NUMA node to follow",
	.open = ofi_open,
	.take = ofi_take,
	.joined = ofi_joined,
	.connect = ofi_connect,
	.started = ofi_started,
	.stop = ofi_stop,
	.local_info = ofi_local_info,
	.qp_run = ofi_qp_run,
	.cqs = ofi_cqs,
	.facts = ofi_facts,
	.pace = ofi_pace,
	.keep_open = ofi_keep_open,
	.close = ofi_close,
	.release = ofi_release,
};
