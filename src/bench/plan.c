/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "plan.h"

#include <stdio.h>
#include <string.h>

#include "conn.h"
#include "fabric.h"
#include "gd.h"
#include "gpu_buf.h"
#include "ops.h"

void gd_mem_roles(const struct gd_bench_params *p, struct gd_mem_roles *r)
{
	bool client = p->role == GD_ROLE_CLIENT;
	bool lat = p->kind == GD_KIND_LAT;
	const struct gd_initiator_ops *ini = gd_init_ops(&p->init);
	/* ping-pong latency tests (write, send) have both sides initiate, but for
	 * an initiator whose latency sample is one put and its quiet (the proxy:
	 * loop.h, put_quiet_lat) the client alone puts */
	bool pingpong = lat && (p->op == GD_OP_WRITE || p->op == GD_OP_SEND) &&
			!(ini && ini->put_quiet_lat);
	bool both = p->bidirectional || pingpong;

	r->initiator = client || both;
	r->target = !client || both;
	r->receiver = r->target && gd_bench_uses_recv(p);
	if (p->op == GD_OP_SEND) /* a send has no remote buffer access, only receives */
		r->target = false;
}

int gd_mem_access(const struct gd_bench_params *p)
{
	const struct gd_op_desc *d = gd_op_desc(p->op);
	struct gd_mem_roles r;
	int a = 0;

	gd_mem_roles(p, &r);
	if (r.target && d->target_access)
		a |= d->target_access;
	/* a remote write or atomic lands in my buffer: the NIC writes it */
	if (r.target && (d->target_access & ~IBV_ACCESS_REMOTE_READ))
		a |= IBV_ACCESS_LOCAL_WRITE;
	if (r.initiator && d->initiator_written)
		a |= IBV_ACCESS_LOCAL_WRITE; /* read data, fetched values */
	if (r.receiver)
		a |= IBV_ACCESS_LOCAL_WRITE; /* receive buffers */
	return a;
}

bool gd_op_alt(const struct gd_bench_params *p)
{
	switch (p->op) {
	case GD_OP_WRITE: return p->write_with_imm;
	case GD_OP_SEND: return p->send_with_imm;
	case GD_OP_ATOMIC: return p->atomic_type == GD_ATOMIC_CMP_AND_SWAP;
	default: return false;
	}
}

const char *gd_op_wr_name(const struct gd_bench_params *p)
{
	const struct gd_op_desc *d = gd_op_desc(p->op);

	return d ? (gd_op_alt(p) ? d->wr_name_alt : d->wr_name) : "?";
}

static const struct gd_buf_ops *backend(const struct gd_bench_params *p)
{
	if (p->use_cuda != GD_CUDA_NONE || p->cuda_bus_id[0])
		return p->gpu_staging ? &gd_buf_cuda_staging : &gd_buf_cuda;
	return p->use_hugepages ? &gd_buf_hugepage : &gd_buf_host;
}

static void plan_memory(struct gd_bench_plan *pl, const struct gd_bench_params *p)
{
	pl->mem = backend(p);
	memset(&pl->mem_spec, 0, sizeof(pl->mem_spec));
	pl->mem_spec.cuda = p->use_cuda;
	snprintf(pl->mem_spec.cuda_bus_id, sizeof(pl->mem_spec.cuda_bus_id), "%s", p->cuda_bus_id);
	pl->mem_spec.dmabuf = p->cuda_dmabuf;
	pl->mem_spec.m = &p->machine;
	pl->access = gd_mem_access(p);
	/* at least the rotation cycle: small messages move through 4 KiB */
	pl->slot = gd_bench_slot_bytes(pl->last_size);
}

static void plan_loop(struct gd_bench_plan *pl, const struct gd_bench_params *p)
{
	struct gd_loop_cfg *c = &pl->loop;

	memset(c, 0, sizeof(*c));
	c->kind = p->kind;
	c->op = pl->op;
	c->alt = pl->alt;
	c->first_size = pl->first_size;
	c->client = p->role == GD_ROLE_CLIENT;
	c->initiator = pl->roles.initiator;
	c->receiver = pl->roles.receiver;
	c->nqp = p->num_qps;
	c->post_list = p->post_list ? p->post_list : 1;
	c->iters = p->iters;
	c->duration_s = p->duration_s;
	c->margin_s = p->margin_s;
	c->run_infinitely = p->run_infinitely;
	c->peak = !p->no_peak;
	c->warm_up = p->perform_warm_up;
	c->precision = pl->adaptive ? p->precision / 100.0 : 0;
	c->precision_by_size = pl->adaptive && !(p->given & GD_GIVEN_PRECISION);
	if (pl->adaptive && !(p->given & (GD_GIVEN_ITERS | GD_GIVEN_DURATION)))
		c->max_size_s = GD_SWEEP_MAX_SIZE_S;
	c->latency_gap_us = p->latency_gap;
	c->timeout_ms = p->timeout_ms;
	c->qp_timeout = p->qp_timeout;
	c->rx_depth = p->rx_depth;
	c->init = p->init;
	snprintf(c->pin_cores, sizeof(c->pin_cores), "%s", p->pin_cores);
	/* until the buffer is taken: GPU memory's own GPU then (gd_bench_take_buffer) */
	c->producer_cuda = p->use_cuda >= 0 ? p->use_cuda : 0;
	c->events = p->roce.events;
	if (p->roce.rate_type == GD_RATE_SW) {
		if (p->roce.rate_units == GD_RATE_PPS)
			c->pace_pps = p->roce.rate_limit;
		else
			c->pace_Bps = gd_rate_bytes_per_s(&p->roce, 1);
		c->pace_burst = p->roce.burst_size ? p->roce.burst_size : 1;
	}
}

static void plan_link(struct gd_link_cfg *k, const struct gd_bench_params *p)
{
	memset(k, 0, sizeof(*k));
	k->machine = p->machine;
	snprintf(k->dev, sizeof(k->dev), "%s", p->dev);
	k->ib_port = p->ib_port;
	k->gid_index = p->gid_index;
	k->ipv6 = p->ipv6;
	k->mtu = p->mtu;
	k->qp_timeout = p->qp_timeout;
	k->op = p->op;
	k->kind = p->kind;
	k->uses_recv = gd_bench_uses_recv(p);
	k->num_qps = p->num_qps;
	k->tx_depth = p->tx_depth;
	k->rx_depth = p->rx_depth;
	k->out_reads = p->out_reads;
	k->inline_size = p->inline_size;
	k->role = p->role;
	snprintf(k->peer, sizeof(k->peer), "%s", p->peer);
	k->sl = (uint8_t)p->roce.sl;
	k->tclass = (uint8_t)p->roce.tclass;
	k->tos_given = p->roce.tos_given;
	k->tos = (uint8_t)p->roce.tos;
	k->events = p->roce.events;
	if (p->roce.rate_type == GD_RATE_HW) { /* kbps: the unit is Gb/s or MiB/s (refused pps) */
		uint64_t size = p->all_sizes ? GD_BENCH_MAX_SIZE_ALL : p->size;

		k->rate_kbps = (uint32_t)GD_MIN(gd_rate_bytes_per_s(&p->roce, size) * 8 / 1000,
						(double)UINT32_MAX);
		k->rate_burst = p->roce.burst_size ?
				(uint32_t)GD_MIN((uint64_t)p->roce.burst_size * size, UINT32_MAX) : 0;
	}
	snprintf(k->bind_addr, sizeof(k->bind_addr), "%s", p->bind_addr);
	snprintf(k->source_ip, sizeof(k->source_ip), "%s", p->source_ip);
	k->tcp_port = p->tcp_port;
	k->timeout_ms = p->timeout_ms;
}

void gd_plan_from_params(struct gd_bench_plan *pl, const struct gd_bench_params *p)
{
	const struct gd_initiator_ops *ini;

	memset(pl, 0, sizeof(*pl));
	pl->op = gd_op_desc(p->op);
	pl->alt = gd_op_alt(p);
	gd_mem_roles(p, &pl->roles);
	pl->first_size = pl->op->fixed_size ? pl->op->fixed_size : p->all_sizes ? 2 : p->size;
	pl->last_size = pl->op->fixed_size ? pl->op->fixed_size :
			p->all_sizes ? GD_BENCH_MAX_SIZE_ALL : p->size;
	pl->adaptive = p->all_sizes && p->precision > 0 && p->kind == GD_KIND_BW;
	plan_memory(pl, p);
	plan_loop(pl, p);
	plan_link(&pl->link, p);
	/* the loop of the initiator's table entry (IBGDA on a ConnectX; the test
	 * double never reaches the plan: its entry's prepare runs the whole test) */
	ini = gd_init_ops(&p->init);
	pl->loop_ops = ini ? ini->loop : &gd_loop_cpu;
	pl->own_threads = pl->roles.initiator && ini && ini->own_threads;
}

void gd_plan_device(struct gd_bench_plan *pl, const struct gd_bench_params *p,
		    const struct gd_plan_dev *d)
{
	struct gd_loop_cfg *l = &pl->loop;
	const struct gd_fabric_traits *tr = gd_fabric_traits_of(p->fab.fabric);
	bool open_ended = p->duration_s || p->run_infinitely || pl->adaptive;

	/* the send window: -t, clamped to -n (perftest), at least one post list */
	l->tx_depth = p->kind == GD_KIND_LAT ? 1 :
		      (uint32_t)GD_MIN((uint64_t)p->tx_depth, open_ended && !(p->given & GD_GIVEN_ITERS) ?
				       UINT64_MAX : p->iters);
	if (l->tx_depth < l->post_list)
		l->tx_depth = l->post_list;
	l->cq_mod = GD_MIN(p->cq_mod, l->tx_depth);
	if (!l->cq_mod)
		l->cq_mod = 1;
	l->max_inline = d->max_inline;
	/* the connection made by the first message stays out of the samples,
	 * as it stays out of fi_pingpong's timing */
	l->warm_exchange = p->kind == GD_KIND_LAT && tr->connects_on_first_op &&
			   tr->connects_on_first_op(&p->fab);
	/* the provider's name where the fabric runs on one (its trait), "" else */
	snprintf(l->provider, sizeof(l->provider), "%s", tr->providers ? p->fab.provider : "");
	l->gpu_mem = p->use_cuda != GD_CUDA_NONE || p->cuda_bus_id[0];
	snprintf(l->dev_name, sizeof(l->dev_name), "%s", d->name);
	snprintf(pl->mem_spec.nic, sizeof(pl->mem_spec.nic), "%s", d->name);
}

uint64_t gd_plan_next_size(const struct gd_bench_plan *pl, uint64_t size)
{
	return size < pl->last_size ? size * 2 : 0;
}
