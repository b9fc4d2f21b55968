/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --initiator=ibgda|ibgda-cpudb inside the engine's run (loop.h), over one of
 * two queue backends (ibgda_nic.h), picked by --ibgda_nic:
 *   a ConnectX (DEVX, REAL-CONNECTX-ONLY, NEVER RUN ON THIS WORKPLACE): the
 *     engine's two-sided run. attach: the probe's plan again (quietly), the
 *     GPU and the DEVX queues (ibgda_nic_devx.c), their QPNs into the records
 *     the exchange sends; connect: the DEVX state changes toward the peer's
 *     verbs QPs. The peer is a plain verbs side: a write/read target needs no
 *     IBGDA of its own.
 *   the software NIC test double (--ibgda_nic=software-test-double): the
 *     engine's loopback fabric (bench_fabric.h: no device, no peer, this side
 *     its own target). attach: the GPU and the double's queues, the run's
 *     buffer registered with the double (its local halves and its target
 *     halves under two keys); connect: each QP to itself through the records
 *     the loopback side channel echoes; detach prints --dump_wqes.
 * The loop: the kernels on the bench's buffer (host or --use_cuda). On a
 * ConnectX every message of QP q goes to offset 0 of QP q's region, which
 * the engine's --validate checks on the target; on the test double every
 * QP's messages rotate through the slots of QP 0's halves (swnic_data), and
 * the engine checks the span the last size wrote there (ib_written).
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "bench_report.h"
#include "gd.h"
#include "ibgda_probe.h"
#include "ibgda_run.h"
#include "log.h"
#include "loop.h"
#include "ibgda_bench.h"

static uint32_t mtu_enum(uint32_t bytes)
{
	uint32_t e = 1;

	while (e < 5 && (256u << (e - 1)) < bytes)
		e++;
	return e; /* 1..5 = 256..4096 bytes */
}

/* The run, and this side's half of each QP's path. */
struct ib_state {
	struct gd_ibgda_run run;
	uint8_t port;
	bool roce;
	struct gd_wire_conn *mine;
	/* the test double: its own key for the local halves (the target halves'
	 * goes in the records), and --dump_wqes at detach */
	bool own_keys;
	uint32_t lkey;
	uint32_t dump;
	FILE *diag;
	uint64_t region;		/* each QP's half of the run's buffer */
	uint64_t items, size;		/* the last size's messages (ib_written) */
	void *mapped;			/* the run's host buffer, mapped for the kernels */
};

/* A ConnectX: the probe's plan again, then the DEVX queues on the verbs device. */
static int open_devx(const struct gd_loop_attach *a, struct gd_ibgda_run *r, struct gd_ibgda_spec *s)
{
	const struct gd_loop_cfg *c = a->cfg;
	struct gd_ibgda_facts f;
	struct gd_ibgda_plan plan;
	struct gd_ibgda_nic_cfg extra = {
		.ctx = a->ctx, .pd = a->pd, .plan = &plan, .qp_timeout = c->qp_timeout};
	int ret;

	/* the hook printed the probe; decide again for the queues' memory */
	gd_ibgda_probe_facts(a->machine, c->dev_name, s->cuda_index, &f);
	gd_ibgda_decide(&f,
			gd_init_cpu_doorbell(&c->init) ? GD_IBGDA_WANT_CPU_DB : GD_IBGDA_WANT_GPU_DB,
			c->init.ibgda_fallback, &plan);
	if (plan.rc) {
		gd_error("ibgda: %s", plan.why);
		return -ENODEV;
	}
	if (plan.cpu_doorbell)
		gd_init_set_cpu_doorbell(&s->init); /* --ibgda_fallback, said so */
	ret = gd_ibgda_run_open(r, s, &gd_ibgda_nic_devx, &extra);
	if (ret)
		return ret;
	r->ini.queues = plan.mem == GD_IBGDA_MEM_HOST ? "host memory" : "GPU memory (umem)";
	return 0;
}

static uint64_t env_u64(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : UINT64_MAX;
}

/* The test double: its queues, the run's buffer registered twice (the
 * kernels' lkey and rkey; it checks each address against its key). */
static int open_swnic(const struct gd_loop_attach *a, struct ib_state *st, const struct gd_ibgda_spec *s)
{
	const struct gd_loop_cfg *c = a->cfg;
	struct gd_ibgda_run *r = &st->run;
	struct gd_ibgda_nic_cfg extra = {.err_at = env_u64(GD_IBGDA_SWNIC_ERR_ENV),
					 .stall_at = env_u64(GD_IBGDA_SWNIC_STALL_ENV),
					 .data_on_gpu = c->gpu_mem,
					 .atomic_be = env_u64(GD_IBGDA_SWNIC_ATOMIC_BE_ENV) == 1};
	struct gd_ibgda_nic *n = &r->nic;
	uint32_t rkey;
	int ret = gd_ibgda_run_open(r, s, &gd_ibgda_nic_swnic, &extra);

	if (ret)
		return ret;
	if (!a->buf || n->ops->add_mr(n, a->buf, a->buf_len, &st->lkey) ||
	    n->ops->add_mr(n, a->buf, a->buf_len, &rkey)) {
		gd_error("ibgda: the %s cannot register the run's buffer (%zu bytes)",
			 GD_IBGDA_NIC_SWNIC_LABEL, a->buf_len);
		return -ENOMEM;
	}
	for (uint32_t i = 0; i < c->nqp; i++)
		a->local[i].rkey = rkey;
	r->ini.queues = c->gpu_mem ? "pinned host memory (the test double reads them); data "
				     "in GPU memory (it copies through the CUDA driver)"
				   : "pinned host memory (the test double reads them)";
	st->own_keys = true;
	st->region = a->buf_len / (2 * c->nqp);
	st->dump = c->init.dump_wqes;
	st->diag = a->diag;
	return 0;
}

static int ib_attach(const struct gd_loop_attach *a, void **state)
{
	const struct gd_loop_cfg *c = a->cfg;
	struct ib_state *st = calloc(1, sizeof(*st));
	struct gd_ibgda_run *r = st ? &st->run : NULL;
	struct gd_ibgda_spec s;
	int ret;

	/* F7: the GPU that holds the bench's buffers (--use_cuda=N) */
	gd_ibgda_spec_of(&s, c, a->max_size, gd_ibgda_gpu_ordinal_of(a->local[0].vaddr));
	*state = st;
	if (!st || !(st->mine = calloc(c->nqp, sizeof(*st->mine))))
		return -ENOMEM;
	ret = c->init.ibgda_nic == GD_IBGDA_NIC_SWNIC ? open_swnic(a, st, &s) : open_devx(a, r, &s);
	if (ret)
		return ret;
	/* host memory: the kernels read fetched atomic results there (either
	 * backend; GPU memory is theirs already) */
	if (!c->gpu_mem && a->buf) {
		if (gd_ibgda_gpu_map(r->gpu, a->buf, a->buf_len))
			return -EIO;
		st->mapped = a->buf;
	}
	for (uint32_t i = 0; i < c->nqp; i++) {
		a->local[i].qpn = r->nic.hqps[i].qpn;
		st->mine[i] = a->local[i];
	}
	st->port = a->port;
	st->roce = a->roce;
	return 0;
}

static int ib_connect(void *state, const struct gd_wire_conn *remote, uint32_t n)
{
	struct ib_state *st = state;
	struct gd_ibgda_run *r = &st->run;

	for (uint32_t i = 0; i < n; i++) {
		const struct gd_wire_conn *w = &remote[i], *m = &st->mine[i];
		struct gd_ibgda_peer p = {.qpn = w->qpn,
					  .psn = w->psn,
					  .lid = w->lid,
					  .mtu = mtu_enum(w->mtu < m->mtu ? w->mtu : m->mtu),
					  .my_psn = m->psn,
					  /* F5: the responder's limit (its -o or device) */
					  .out_reads = w->out_reads < m->out_reads ? w->out_reads
										   : m->out_reads,
					  .roce = st->roce,
					  .gid_index =
						  (uint8_t)(m->gid_index < 0 ? 0 : m->gid_index),
					  .port = st->port};

		memcpy(p.gid, w->gid, 16);
		if (r->nic.ops->connect(&r->nic, i, &p))
			return -EIO;
	}
	return 0;
}

static const struct gd_report_initiator *ib_describe(const void *state)
{
	return state ? &((const struct ib_state *)state)->run.ini : NULL;
}

static void ib_detach(void *state)
{
	struct ib_state *st = state;

	if (!st)
		return;
	if (st->dump && st->diag) /* also after a failure: the WQEs are the evidence */
		gd_ibgda_run_dump(&st->run, st->dump, st->diag);
	if (st->mapped)
		gd_ibgda_gpu_unmap(st->run.gpu, st->mapped);
	gd_ibgda_run_close(&st->run);
	free(st->mine);
	free(st);
}

static void swnic_data(const struct ib_state *st, struct gd_ibgda_data *d);

/* The bench's regions: QP q's local half and the peer's target half. */
static int set_data(struct gd_loop *l, struct ib_state *st)
{
	struct gd_ibgda_run *r = &st->run;
	const struct gd_qp_run *q = l->q;
	uint64_t ls = l->cfg.nqp > 1 ? q[1].local_addr - q[0].local_addr : 0;
	uint64_t rs = l->cfg.nqp > 1 ? q[1].remote_addr - q[0].remote_addr : 0;

	if (ls != rs) {
		gd_error("ibgda: the peer's regions are %llu bytes apart, mine %llu: one stride "
			 "serves both (same -s/-a on both sides?)",
			 (unsigned long long)rs, (unsigned long long)ls);
		return -EPROTO;
	}
	r->data = (struct gd_ibgda_data){.local = q[0].local_addr,
					 .remote = q[0].remote_addr,
					 .region = ls ? ls / 2 : 0,
					 .qp_stride = ls,
					 .lkey = q[0].lkey,
					 .rkey = q[0].rkey,
					 .rotate = false};
	if (st->own_keys)
		swnic_data(st, &r->data);
	return 0;
}

/* The test double's keys (a ConnectX's lkey is the verbs MR's) and layout:
 * every QP's messages rotate through the slots of QP 0's halves (the
 * loopback's regions hold 64 KiB at least), each message in a slot of its
 * own while they fit, so that a write it lost shows in --validate
 * (ib_written); atomics keep a counter word in each QP's target half. */
static void swnic_data(const struct ib_state *st, struct gd_ibgda_data *d)
{
	d->lkey = st->lkey;
	d->region = st->region;
	if (st->run.spec.op == GD_OP_ATOMIC)
		return;
	d->qp_stride = 0;
	d->rotate = true;
}

/* What the last size wrote where --validate looks (loop.h written): the test
 * double's layout only; a ConnectX's is the engine's (each QP's first bytes). */
static bool ib_written(const void *state, uint32_t qp, uint64_t *bytes)
{
	const struct ib_state *st = state;
	uint64_t slots;

	if (!st || !st->own_keys || !st->size)
		return false;
	slots = st->region / st->size;
	*bytes = qp ? 0 : (st->items < slots ? st->items : slots) * st->size;
	return true;
}

static int ib_run_bw(struct gd_loop *l, uint64_t size, struct gd_bw_result *res, bool *sent)
{
	struct gd_ibgda_run *r = l->state ? &((struct ib_state *)l->state)->run : NULL;
	int ret;

	*sent = false;
	if (!l->cfg.initiator || !r) /* the target: the CPU loop waits for the results */
		return gd_loop_cpu.run_bw(l, size, res, sent);
	ret = set_data(l, l->state);
	if (!ret)
		ret = gd_ibgda_run_bw(r, size, res);
	if (ret) {
		l->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	((struct ib_state *)l->state)->items = res->ops;
	((struct ib_state *)l->state)->size = size;
	ret = l->measured(l->owner, res);
	if (!ret)
		*sent = true;
	return ret;
}

static int ib_run_lat(struct gd_loop *l, uint64_t size, double **samples, size_t *n)
{
	struct gd_ibgda_run *r = l->state ? &((struct ib_state *)l->state)->run : NULL;
	int ret;

	*samples = NULL;
	*n = 0;
	if (!l->cfg.initiator || !r)
		return 0; /* one-sided: a side without queues measures nothing */
	ret = set_data(l, l->state);
	if (!ret)
		ret = gd_ibgda_run_lat(r, size, samples, n);
	if (ret)
		l->exit_code = GD_EXIT_FAIL;
	((struct ib_state *)l->state)->items = *n;
	((struct ib_state *)l->state)->size = size;
	return ret;
}

/* The IBGDA initiator behind the engine's loop seam (loop.h). */
const struct gd_loop_ops gd_loop_ibgda = {
	.name = "ibgda",
	.run_bw = ib_run_bw,
	.run_lat = ib_run_lat,
	.attach = ib_attach,
	.connect = ib_connect,
	.describe = ib_describe,
	.written = ib_written,
	.detach = ib_detach,
};
