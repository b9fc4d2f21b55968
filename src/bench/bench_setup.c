/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The engine's setup steps each fabric's setup (bench_fabric.h) calls: the
 * per-QP arrays, the blobs exchanged over the side channel (with the
 * initiator's own queues attached first), the QPs' run state, the loop's
 * configuration and the initial receives. The fabric's own parts come
 * through its table (local_info, qp_run, cqs).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench_fabric.h"
#include "bench_int.h"
#include "gd.h"
#include "log.h"
#include "oob.h"

static void init_qp_runs(struct gd_bench *b)
{
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		struct gd_qp_run *q = &b->q[i];

		memset(q, 0, sizeof(*q));
		q->index = i;
		q->local_addr = (uintptr_t)gd_bench_local(b, i);
		q->recv_addr = (uintptr_t)gd_bench_target(b, i);
		q->remote_addr = b->remote[i].vaddr;
		q->rkey = b->remote[i].rkey;
		q->desc = b->plan.op;
		q->alt = b->plan.alt;
		q->size = (uint32_t)GD_MIN(b->plan.last_size, b->plan.slot);
		/* the fabric's own fields (verbs: QP, lkey; ofi: endpoint, address,
		 * key), before the requests are built from them */
		if (b->fs->qp_run)
			b->fs->qp_run(b, i, q);
		gd_ops_prepare(q, b->p.post_list, false);
		gd_ops_prepare_recv(q, (uint32_t)b->plan.slot); /* any size of the sweep */
	}
}

/* The loop gets the plan's configuration, the QPs, the CQs and the hooks. */
static void init_loop(struct gd_bench *b)
{
	struct gd_loop *l = &b->loop;
	bool rotate = true;

	for (uint32_t i = 0; i < b->p.num_qps; i++) /* a peer without room (old gdperf) */
		rotate = rotate && b->remote[i].buf_size >= GD_CYCLE_BYTES;
	b->plan.loop.rotate = rotate;
	/* inline sends copy the payload with the CPU: never from GPU memory */
	b->plan.loop.max_inline = b->buf.ops && !b->buf.ops->host_visible ? 0 : b->dev.max_inline;
	memset(l, 0, sizeof(*l));
	l->cfg = b->plan.loop;
	l->q = b->q;
	l->fab = b->fab;
	b->fs->cqs(b, &l->scq, &l->rcq);
	l->oob = b->oob;
	l->lat_target = gd_bench_target(b, 0);
	l->lat_local = gd_bench_local(b, 0);
	l->progress = &b->progress;
	l->owner = b;
	l->measured = gd_bench_measured;
	l->interval = gd_bench_interval;
	l->state = b->ini_state;
}

static int post_initial_recvs(struct gd_bench *b)
{
	if (!b->plan.roles.receiver)
		return 0;
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		int ret = b->fab->post_recv(&b->q[i], b->p.rx_depth);
		if (ret)
			return ret;
	}
	return 0;
}

/* An initiator with its own queues (IBGDA) creates them now, on the device
 * the fabric names: their QP numbers replace the verbs QPs' in what the peer
 * gets (loop.h). */
static int attach_initiator(struct gd_bench *b)
{
	const struct gd_loop_ops *ops = b->plan.loop_ops;
	struct gd_loop_attach a = {.cfg = &b->plan.loop, .machine = &b->p.machine,
				   .max_size = b->plan.last_size, .local = b->local,
				   .diag = b->p.json || !b->out ? stderr : b->out};

	if (!ops->attach || !b->plan.roles.initiator)
		return 0;
	if (b->fs->attach_dev)
		b->fs->attach_dev(b, &a);
	return ops->attach(&a, &b->ini_state);
}

/* Each QP's number, PSN, GID, buffer address, size and rkey go to the peer,
 * and its come back; then the receives are posted. */
int gd_bench_finish_qps(struct gd_bench *b)
{
	init_qp_runs(b);
	init_loop(b);
	return post_initial_recvs(b);
}

static int local_info(struct gd_bench *b, uint32_t i)
{
	uintptr_t target = (uintptr_t)gd_bench_target(b, i);
	int ret = b->fs->local_info(b, i, target);

	b->local[i].buf_size = b->plan.slot; /* the fabric's record leaves it out */
	return ret;
}

/* Each QP's number, PSN, GID (ofi: endpoint name and key), buffer address,
 * size and rkey go to the peer, and its come back. */
int gd_bench_exchange_blobs(struct gd_bench *b)
{
	int ret;

	for (uint32_t i = 0; i < b->p.num_qps; i++)
		if ((ret = local_info(b, i)))
			return ret;
	ret = attach_initiator(b);
	return ret ?: gd_oob_exchange_conn(b->oob, b->local, b->remote, b->p.num_qps);
}

int gd_bench_exchange_buffers(struct gd_bench *b)
{
	int ret = gd_bench_exchange_blobs(b);

	return ret ?: gd_bench_finish_qps(b);
}

int gd_bench_take_buffer(struct gd_bench *b)
{
	const struct gd_bench_plan *pl = &b->plan;
	int ret;

	gd_plan_device(&b->plan, &b->p, &b->dev);
	ret = gd_buf_alloc(&b->buf, pl->mem, pl->slot * 2 * b->p.num_qps, &pl->mem_spec);
	/* a GPU producer drives GPU memory from that memory's GPU, however it was chosen
	 * (--use_cuda=N|auto, --use_cuda_bus_id): the plan knew --use_cuda's index alone */
	if (!ret && gd_plan_hmem(pl))
		b->plan.loop.producer_cuda = pl->mem->cuda_device(&b->buf);
	return ret;
}

int gd_bench_alloc_qps(struct gd_bench *b)
{
	uint32_t n = b->p.num_qps;

	b->q = calloc(n, sizeof(*b->q));
	b->local = calloc(n, sizeof(*b->local));
	b->remote = calloc(n, sizeof(*b->remote));
	return !b->q || !b->local || !b->remote ? -ENOMEM : 0;
}
