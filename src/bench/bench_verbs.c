/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The verbs fabric's setup (bench_fabric.h) over conn.c and, with -R, cm.c:
 * the device, the GID, the PD, CQs and memory registration, the RC QPs
 * connected over the side channel (CONN) or by rdma_cm.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <stdio.h>
#include <sys/socket.h>

#include "bench_fabric.h"
#include "bench_int.h"
#include "gd.h"
#include "gid.h"
#include "log.h"
#include "oob.h"
#include "sysfs.h"

/* perftest's default placement: the CPUs of the NIC's NUMA node, when it has one. */
static void pin_numa(struct gd_bench *b)
{
	const struct gd_machine *m = &b->p.machine;
	char cpus[GD_BENCH_CORES_MAX];
	int node = -1;

	if (gd_sysfs_read_int(m, &node, "/sys/class/infiniband/%s/device/numa_node",
			      b->conn.dev_name) ||
	    node < 0)
		return; /* rxe and single-node machines: nothing to do */
	if (gd_sysfs_read_str(m, cpus, sizeof(cpus), "/sys/devices/system/node/node%d/cpulist",
			      node))
		return;
	if (gd_bench_pin_cores(cpus))
		return;
	b->numa_pinned = true;
	b->numa_node = node;
	if (gd_log_verbose())
		gd_info("running on the CPUs of %s's NUMA node %d: %s", b->conn.dev_name, node, cpus);
}

/* The device first: a missing device or a port down fails at once (exit 3). */
static int verbs_open(struct gd_bench *b)
{
	struct ibv_context *ctx = NULL;
	int ret;

	if (b->p.conn == GD_CONN_RDMA_CM) {
		ret = gd_cm_init(&b->cm, &b->plan.link, &ctx);
		if (ret)
			return ret;
	}
	ret = gd_conn_open(&b->conn, &b->plan.link, ctx);
	if (ret)
		return ret;
	snprintf(b->dev.name, sizeof(b->dev.name), "%s", b->conn.dev_name);
	if (!b->p.pin_cores[0])
		pin_numa(b);
	return 0;
}

/* The GID toward the side channel's peer. */
static int verbs_joined(struct gd_bench *b)
{
	struct sockaddr_storage peer;
	socklen_t plen = sizeof(peer);
	int ret;

	if (gd_oob_peer_addr(b->oob, &peer, &plen))
		plen = 0;
	ret = gd_conn_choose_gid(&b->conn, &b->plan.link, plen ? (struct sockaddr *)&peer : NULL);
	if (ret)
		gd_oob_send_error(b->oob, gd_bench_setup_exit_code(ret), "cannot choose a GID on %s",
				  b->conn.dev_name);
	return ret;
}

/* The buffer, taken before the side channel (gd_bench_take_buffer), registered. */
static int register_buffer(struct gd_bench *b)
{
	int ret = gd_buf_register(&b->buf, b->conn.pd, b->plan.access);

	return ret ?: gd_bench_fill(b);
}

/* The QPs exist: the engine learns their inline size, then exchanges. */
static int exchange(struct gd_bench *b)
{
	b->dev.max_inline = b->conn.max_inline;
	return gd_bench_exchange_buffers(b);
}

static int connect_oob(struct gd_bench *b)
{
	int ret;

	ret = gd_conn_create_qps(&b->conn, &b->plan.link);
	if (ret)
		return ret;
	ret = exchange(b);
	if (ret)
		return ret;
	/* the initiator's own queues (IBGDA): the verbs QPs stay unused; an
	 * initiator with state but no queues (the proxy's producer) posts on them */
	if (b->ini_state && b->plan.loop_ops->connect)
		return b->plan.loop_ops->connect(b->ini_state, b->remote, b->p.num_qps);
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		ret = gd_conn_connect(&b->conn, &b->plan.link, i, &b->local[i], &b->remote[i]);
		if (ret)
			return ret;
	}
	return 0;
}

static int connect_cm(struct gd_bench *b)
{
	int ret;

	/* rdma_cm moves the QPs to RTS; the side channel still carries the
	 * rkeys and addresses, and the barriers keep the sides in step */
	ret = gd_oob_barrier(b->oob); /* the server listens: the client may connect */
	if (ret)
		return ret;
	if (b->p.role == GD_ROLE_SERVER)
		ret = gd_cm_accept(&b->cm, &b->conn, &b->plan.link);
	else
		ret = gd_cm_connect(&b->cm, &b->conn, &b->plan.link);
	if (ret)
		return ret;
	gd_cm_update_conn(&b->cm, &b->conn);
	return exchange(b);
}

/* PD and CQs, the buffer registered, the QPs connected; then what the device
 * kept of -S, --tclass, -T, and the HW --rate_limit. */
static int verbs_connect(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;
	int ret = gd_conn_alloc(&b->conn, &b->plan.link);

	ret = ret ?: register_buffer(b);
	if (ret)
		return ret;
	ret = gd_bench_alloc_qps(b);
	if (ret)
		return ret;
	ret = p->conn == GD_CONN_RDMA_CM ? connect_cm(b) : connect_oob(b);
	if (ret == -ETIMEDOUT) /* the peer hears why, as ofi_connect tells it: both exit 1 */
		gd_oob_send_error(b->oob, GD_EXIT_FAIL, "setup failed on its side: %s",
				  gd_log_last_error());
	if (!ret)
		gd_conn_read_av(&b->conn, &b->plan.link, p->conn == GD_CONN_RDMA_CM);
	if (!ret && (ret = gd_conn_rate_limit(&b->conn, &b->plan.link)))
		gd_oob_send_error(b->oob, GD_EXIT_ENV, "%s cannot hold the HW rate limit",
				  b->conn.dev_name);
	return ret;
}

static int verbs_local_info(struct gd_bench *b, uint32_t i, uint64_t target)
{
	gd_conn_local_info(&b->conn, i, b->buf.mr->rkey, target, &b->local[i]);
	return 0;
}

/* QP i and the buffer's lkey; the send CQ the proxy's threads poll (fabric.h
 * post_wrs: every QP's) */
static void verbs_qp_run(struct gd_bench *b, uint32_t i, struct gd_qp_run *q)
{
	q->qp = b->conn.qp ? b->conn.qp[i] : NULL;
	q->lkey = b->buf.mr ? b->buf.mr->lkey : 0;
	q->fab_cq = b->conn.send_cq;
}

static void verbs_cqs(struct gd_bench *b, void **send_cq, void **recv_cq)
{
	*send_cq = b->conn.send_cq;
	*recv_cq = b->conn.recv_cq;
}

/* The QPs before the buffer goes: rdma_cm's first. */
static void fill_gid_facts(const struct gd_bench *b, struct gd_bench_facts *f)
{
	const struct gd_conn *c = &b->conn;

	f->gid_index = c->gid_index;
	f->av_sl = c->av_sl;
	f->av_tclass = c->av_tclass;
	if (c->gid_index < 0)
		return;
	inet_ntop(AF_INET6, c->gid.raw, f->gid, sizeof(f->gid));
	snprintf(f->gid_type, sizeof(f->gid_type), "%s",
		 gd_gid_type_str((enum gd_gid_type)c->gid_type));
	snprintf(f->gid_netdev, sizeof(f->gid_netdev), "%s", c->gid_netdev);
	snprintf(f->gid_choice, sizeof(f->gid_choice), "%s",
		 b->p.conn == GD_CONN_RDMA_CM ? "rdma_cm" : c->gid_auto ? "auto" : "user");
}


/* IBGDA's queues go on this device (loop.h attach). */
static void verbs_attach_dev(const struct gd_bench *b, struct gd_loop_attach *a)
{
	a->ctx = b->conn.ctx;
	a->pd = b->conn.pd;
	a->port = b->conn.port;
	a->roce = b->conn.roce;
}

/* The device's part of the plan facts: port, link, GID, MTU, what the QPs kept. */
static void verbs_facts(const struct gd_bench *b, struct gd_bench_facts *f)
{
	const struct gd_conn *c = &b->conn;

	f->port = c->port;
	f->roce = c->roce;
	f->iwarp = c->ctx && c->ctx->device->transport_type == IBV_TRANSPORT_IWARP;
	fill_gid_facts(b, f);
	f->mtu = b->remote && b->remote[0].mtu ? GD_MIN(c->mtu, b->remote[0].mtu) : c->mtu;
	f->out_reads = c->out_reads;
}

static void verbs_close(struct gd_bench *b)
{
	if (b->p.conn == GD_CONN_RDMA_CM)
		gd_cm_close(&b->cm);
	gd_conn_close_qps(&b->conn);
}

static void verbs_release(struct gd_bench *b)
{
	gd_conn_close(&b->conn);
	if (b->p.conn == GD_CONN_RDMA_CM)
		gd_cm_release(&b->cm);
}

const struct gd_bench_fabric gd_bench_fabric_verbs = {
	.ops = &gd_fabric_verbs,
	.unpinned = "the NIC has no NUMA node",
	.open = verbs_open,
	.take = gd_bench_take_buffer,
	.joined = verbs_joined,
	.connect = verbs_connect,
	.local_info = verbs_local_info,
	.qp_run = verbs_qp_run,
	.cqs = verbs_cqs,
	.attach_dev = verbs_attach_dev,
	.facts = verbs_facts,
	.close = verbs_close,
	.release = verbs_release,
};
