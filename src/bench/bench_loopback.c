/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The loopback fabric's setup (bench_fabric.h): a run that is its own target,
 * for an initiator whose NIC is a test double (loop.h gd_initiator_ops
 * loopback: IBGDA's software NIC). No device and no peer: the side channel
 * loops back (gd_oob_loopback), this side is initiator and target of one
 * buffer (QP i's local half to its target half, as a verbs pair moves it from
 * the client's local half to the server's target half), the initiator's own
 * queues (loop.h attach) register that buffer and connect to themselves
 * through the records the side channel echoes. The engine's fill, results,
 * report and --validate run as in a pair.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>

#include "bench_fabric.h"
#include "bench_int.h"
#include "gd.h"
#include "log.h"
#include "oob.h"

#define LOOPBACK_MIN_SLOT 65536

static const struct gd_loopback_nic *nic_of(const struct gd_bench *b)
{
	const struct gd_initiator_ops *ini = gd_init_ops(&b->p.init);

	return ini && ini->loopback ? ini->loopback(&b->p) : NULL;
}

/* The initiator's device; this side is its own target. */
static int loopback_open(struct gd_bench *b)
{
	const struct gd_loopback_nic *nic = nic_of(b);

	if (!nic) {
		gd_error("internal: the loopback fabric without an initiator that brings its NIC");
		return -EINVAL;
	}
	snprintf(b->dev.name, sizeof(b->dev.name), "%s", nic->device);
	b->plan.roles.target = true;
	/* regions of 64 KiB a QP at least: the initiator may give each small
	 * message a slot of its own (loop.h written), so that a lost one shows */
	if (b->plan.slot < LOOPBACK_MIN_SLOT)
		b->plan.slot = LOOPBACK_MIN_SLOT;
	return 0;
}

static int loopback_side_channel(struct gd_bench *b)
{
	char peer[128];

	snprintf(peer, sizeof(peer), "none (loopback in the %s)", nic_of(b)->nic);
	return gd_oob_loopback(&b->p, peer, &b->oob);
}

static int loopback_joined(struct gd_bench *b)
{
	(void)b;
	return 0;
}

/* The pattern, the records echoed, the initiator's queues connected to themselves. */
static int loopback_connect(struct gd_bench *b)
{
	int ret = gd_bench_fill(b);

	ret = ret ?: gd_bench_alloc_qps(b);
	ret = ret ?: gd_bench_exchange_buffers(b);
	if (ret)
		return ret;
	if (!b->ini_state || !b->plan.loop_ops->connect) {
		gd_error("internal: the loopback fabric's initiator brought no queues");
		return -EINVAL;
	}
	return b->plan.loop_ops->connect(b->ini_state, b->remote, b->p.num_qps);
}

/* QP i's record: its target half; the initiator's attach adds its QPN and key. */
static int loopback_local_info(struct gd_bench *b, uint32_t i, uint64_t target)
{
	b->local[i] = (struct gd_wire_conn){
		.qp_index = i, .vaddr = target, .gid_index = -1, .mtu = 4096};
	return 0;
}

static void loopback_cqs(struct gd_bench *b, void **send_cq, void **recv_cq)
{
	(void)b;
	*send_cq = *recv_cq = NULL;
}

/* The initiator's NIC registers the buffer itself. */
static void loopback_attach_dev(const struct gd_bench *b, struct gd_loop_attach *a)
{
	a->port = 1;
	a->buf = b->buf.addr;
	a->buf_len = b->buf.length;
}

static void loopback_facts(const struct gd_bench *b, struct gd_bench_facts *f)
{
	(void)b;
	f->port = 1;
	f->gid_index = -1;
	f->mtu = 4096;
}

static void loopback_nothing(struct gd_bench *b)
{
	(void)b;
}

const struct gd_bench_fabric gd_bench_fabric_loopback = {
	.ops = &gd_fabric_verbs, /* never posted through: the initiator's queues are the data path */
	.unpinned = "no NIC: a test double",
	.open = loopback_open,
	.side_channel = loopback_side_channel,
	.take = gd_bench_take_buffer,
	.joined = loopback_joined,
	.connect = loopback_connect,
	.local_info = loopback_local_info,
	.cqs = loopback_cqs,
	.attach_dev = loopback_attach_dev,
	.facts = loopback_facts,
	.close = loopback_nothing,
	.release = loopback_nothing,
};
