/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* One IBGDA measurement, shared by both backends (see ibgda_run.h). */
#include "ibgda_run.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "log.h"
#include "loop.h"
#include "mlx5_dump.h"

#define MAX_NWQE 32768
#define HOST_GRACE_NS 5000000000ull /* the CPU waits this long past the GPU's deadline */

static uint32_t pow2_at_least(uint32_t v)
{
	uint32_t n = 1;

	while (n < v)
		n <<= 1;
	return n;
}

/* The queue shape: room for one reservation, a doorbell batch and a
 * signalling interval at least (ibgda_dev.h), -t when larger. */
static void shape(struct gd_ibgda_run *r, struct gd_ibgda_nic_cfg *c)
{
	const struct gd_ibgda_spec *s = &r->spec;
	const struct gd_init_opts *o = &s->init;
	uint32_t group = o->scope == GD_SCOPE_BLOCK ? o->threads : 32;
	uint32_t need = group + GD_IBGDA_RING_EVERY + GD_IBGDA_SIG_EVERY;

	r->nwqe = pow2_at_least(s->tx_depth > need ? s->tx_depth : need);
	if (r->nwqe > MAX_NWQE)
		r->nwqe = MAX_NWQE;
	c->nqps = s->kind == GD_KIND_BW ? s->nqps : 1;
	c->nwqe = r->nwqe;
	c->ring_every = GD_IBGDA_RING_EVERY;
	c->flags = gd_init_cpu_doorbell(o) ? GD_IBGDA_CPUDB : 0;
	if (s->kind == GD_KIND_BW &&
	    (o->scope == GD_SCOPE_THREAD ||
	     (o->scope == GD_SCOPE_WARP && o->ctas * o->threads / 32 > c->nqps) ||
	     (o->scope == GD_SCOPE_BLOCK && o->ctas > c->nqps)))
		c->flags |= GD_IBGDA_SHARED; /* several issuers ring one QP */
	c->timeout_ns = (uint64_t)s->timeout_ms * 1000000ull;
	/* the GPU's own deadline for one size: twice --timeout and a second,
	 * plus what the slowest plausible NIC (100 MB/s, 1 us a WQE) needs */
	c->budget_ns = 2 * c->timeout_ns + 1000000000ull +
		       (s->iters * c->nqps + 64) * (s->max_size * 10 + 1000);
}

void gd_ibgda_spec_of(struct gd_ibgda_spec *s, const struct gd_loop_cfg *c, uint64_t max_size,
		      int cuda_index)
{
	*s = (struct gd_ibgda_spec){.op = c->op->op,
				    .cas = c->op->op == GD_OP_ATOMIC && c->alt,
				    .kind = c->kind,
				    .init = c->init,
				    .nqps = c->nqp,
				    .tx_depth = c->tx_depth,
				    .timeout_ms = c->timeout_ms,
				    .iters = c->iters,
				    .max_size = max_size,
				    .cuda_index = cuda_index};
}

int gd_ibgda_run_open(struct gd_ibgda_run *r, const struct gd_ibgda_spec *s,
		      const struct gd_ibgda_nic_ops *ops, const struct gd_ibgda_nic_cfg *extra)
{
	struct gd_ibgda_nic_cfg c = *extra;
	int ret;

	memset(r, 0, sizeof(*r));
	r->spec = *s;
	ret = gd_ibgda_gpu_open(s->cuda_index, &r->gpu);
	if (ret)
		return ret;
	shape(r, &c);
	c.gpu = r->gpu;
	ret = gd_ibgda_nic_create(&r->nic, ops, &c);
	if (ret)
		return ret;
	r->ini = (struct gd_report_initiator){
		.producer = gd_ibgda_gpu_name(r->gpu),
		.nic = ops->label,
		.nic_test_double = ops == &gd_ibgda_nic_swnic,
		.doorbell = c.flags & GD_IBGDA_CPUDB ? "CPU (ibgda-cpudb)" : "GPU",
		.queues = r->nic.hqps[0].flags & GD_IBGDA_SYSMEM ? "pinned host memory"
								 : "GPU memory",
		.nwqe = r->nwqe,
		.ring_every = GD_IBGDA_RING_EVERY,
		.sig_every = GD_IBGDA_SIG_EVERY};
	return 0;
}

void gd_ibgda_run_close(struct gd_ibgda_run *r)
{
	gd_ibgda_nic_destroy(&r->nic);
	gd_ibgda_gpu_close(r->gpu);
	r->gpu = NULL;
}

/* Data flows src -> dst: a WRITE from the local region to the remote one,
 * a READ the other way (ibgda_kernels.h). */
static struct gd_ibgda_kargs kargs(const struct gd_ibgda_run *r, uint64_t size)
{
	const struct gd_ibgda_data *d = &r->data;
	bool rd = r->spec.op == GD_OP_READ, at = r->spec.op == GD_OP_ATOMIC;
	uint32_t op = rd ? GD_MLX5_OP_RDMA_READ : GD_MLX5_OP_RDMA_WRITE;

	if (at) /* one counter word per QP (ibgda_kernels.h) */
		op = r->spec.cas ? GD_MLX5_OP_ATOMIC_CS : GD_MLX5_OP_ATOMIC_FA;

	return (struct gd_ibgda_kargs){
		.qps = r->nic.dqps,
		.nqps = r->nic.cfg.nqps,
		.scope = (uint32_t)r->spec.init.scope, /* thread, warp, block = 0, 1, 2 */
		.sig_every = GD_IBGDA_SIG_EVERY,
		.src = rd ? d->remote : d->local,
		.dst = rd ? d->local : d->remote,
		.lkey = d->lkey,
		.rkey = d->rkey,
		.bad_at = ~0ull,
		.opcode = op,
		.size = (uint32_t)size,
		.slots = d->rotate && !at ? d->region / size : 1,
		.qp_stride = d->qp_stride,
		.atomic_be = r->nic.atomic_be,
	};
}

static int prepare(struct gd_ibgda_run *r)
{
	r->executed = r->nic.ops->executed ? r->nic.ops->executed(&r->nic) : 0;
	if (gd_ibgda_nic_rearm(&r->nic) || gd_ibgda_nic_start(&r->nic))
		return -EIO;
	return 0;
}

/* After a run: the failure record, the backend's protocol checks, and
 * whether it executed every WQE posted. */
static int finish(struct gd_ibgda_run *r, int ret, uint64_t expect)
{
	uint64_t done;

	gd_ibgda_nic_stop(&r->nic);
	done = r->nic.ops->executed ? r->nic.ops->executed(&r->nic) - r->executed : 0;
	if (gd_ibgda_nic_report(&r->nic, stderr))
		return -EIO;
	if (ret)
		return ret;
	if (r->nic.ops->executed && done != expect) {
		gd_error("%s executed %llu WQEs, %llu were posted: the count would lie",
			 r->nic.ops->label, (unsigned long long)done, (unsigned long long)expect);
		return -EIO;
	}
	return 0;
}

int gd_ibgda_run_bw(struct gd_ibgda_run *r, uint64_t size, struct gd_bw_result *res)
{
	const struct gd_init_opts *o = &r->spec.init;
	struct gd_ibgda_kargs a = kargs(r, size);
	uint64_t T = (uint64_t)o->ctas * o->threads, ns = 0;
	uint64_t want = r->spec.iters * r->nic.cfg.nqps, total;
	int ret;

	a.iters = (uint32_t)((want + T - 1) / T); /* whole rounds of the grid */
	total = a.iters * T;
	ret = prepare(r);
	if (!ret)
		ret = gd_ibgda_gpu_run(r->gpu, &a, o->ctas, o->threads, r->nic.snap,
				       r->nic.cfg.budget_ns + HOST_GRACE_NS, &ns);
	r->left_running = ret == -ETIMEDOUT;
	ret = finish(r, ret, total + r->nic.cfg.nqps); /* + the quiet's NOP per QP */
	if (ret)
		return ret;
	memset(res, 0, sizeof(*res));
	res->size = size;
	res->iters = res->ops = total;
	res->seconds = (double)ns / 1e9;
	res->avg_Bps = (double)total * (double)size / res->seconds;
	res->msg_rate = (double)total / res->seconds;
	return 0;
}

int gd_ibgda_run_lat(struct gd_ibgda_run *r, uint64_t size, double **samples, size_t *n)
{
	uint64_t k, cnt = r->spec.iters;
	uint64_t *tdb = gd_ibgda_gpu_host(r->gpu, cnt * 8),
		 *tcq = gd_ibgda_gpu_host(r->gpu, cnt * 8);
	double *v = calloc(cnt, sizeof(*v));
	struct gd_ibgda_kargs a = kargs(r, size);
	int ret = !tdb || !tcq || !v ? -ENOMEM : prepare(r);

	a.iters = (uint32_t)cnt;
	if (!ret)
		ret = gd_ibgda_gpu_lat(r->gpu, &a, tdb, tcq, r->nic.cfg.budget_ns + HOST_GRACE_NS);
	r->left_running = ret == -ETIMEDOUT;
	ret = finish(r, ret, cnt);
	for (k = 0; !ret && k < cnt; k++)
		v[k] = (double)tcq[k] / 1000.0;
	if (!ret && gd_log_verbose())
		gd_info("ibgda: post-to-doorbell of the last WQE %llu ns, to its CQE %llu ns",
			(unsigned long long)tdb[cnt - 1], (unsigned long long)tcq[cnt - 1]);
	if (!r->left_running) { /* else the kernel may still write them */
		gd_ibgda_gpu_free_host(r->gpu, tdb);
		gd_ibgda_gpu_free_host(r->gpu, tcq);
	}
	if (ret) {
		free(v);
		v = NULL;
	}
	*samples = v;
	*n = ret ? 0 : cnt;
	return ret;
}

void gd_ibgda_run_dump(struct gd_ibgda_run *r, uint32_t n, FILE *f)
{
	const struct gd_ibgda_qp *q = &r->nic.hqps[0];
	uint8_t *copy = NULL;
	const uint8_t *sq = q->sq;

	if (n > r->nwqe)
		n = r->nwqe;
	if (!n || !q->sq)
		return;
	if (!(q->flags & GD_IBGDA_SYSMEM)) { /* a ring in GPU memory: copy it out */
		copy = malloc((size_t)r->nwqe * 64);
		if (!copy || gd_ibgda_gpu_get(r->gpu, copy, q->sq, (size_t)r->nwqe * 64)) {
			free(copy);
			return;
		}
		sq = copy;
	}
	fprintf(f,
		"--dump_wqes: QP 0x%x, WQEBB slots 0..%u of %u as the run left them (the "
		"ring wraps: each slot holds its latest WQE)\n",
		q->qpn, n - 1, r->nwqe);
	gd_mlx5_dump_ring(f, sq, r->nwqe, n);
	free(copy);
}
