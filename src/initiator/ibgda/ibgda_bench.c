/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --initiator=ibgda|ibgda-cpudb on the SOFTWARE NIC TEST DOUBLE (see
 * ibgda_bench.h): the whole test in one process, no RDMA device, no peer.
 * Two regions of pinned host memory mapped into the GPU stand for the local
 * buffer and the peer's; each QP is "connected" to itself through the same
 * records a peer would send; the run goes through the engine's result model
 * and report.
 */
#include "config.h"

#include "ibgda_bench.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_report.h"
#include "gd.h"
#include "ibgda_run.h"
#include "log.h"
#include "plan.h"

#define MIN_REGION 65536
#define ATOMIC_STRIDE 64 /* QP q's counter at remote + 64 q (512 QPs: 32 KiB) */

struct loopback {
	const struct gd_bench_params *p;
	struct gd_bench_plan plan;
	struct gd_ibgda_run run;
	uint8_t *local, *remote;
	uint8_t *scratch[2]; /* host copies of the two regions (fill, --validate) */
	size_t region;
	bool on_gpu;         /* --use_cuda: both regions in GPU memory */
	struct gd_wire_conn *lconn, *rconn;
	struct gd_report rep;
	struct gd_bench_result *res;
	FILE *out, *diag; /* diag: stderr with --json */
};

static uint64_t env_u64(const char *name)
{
	const char *v = getenv(name);

	return v && *v ? strtoull(v, NULL, 0) : UINT64_MAX;
}

static void fill_pattern(uint8_t *b, size_t n, uint64_t seed)
{
	for (size_t i = 0; i < n; i++)
		b[i] = (uint8_t)((i * 131 + seed * 7 + (i >> 9)) & 0xff);
}

/* Before a size: the source holds the pattern, the destination zeros (the
 * atomics' counters start at 0); through the driver for GPU memory. */
static int set_regions(struct loopback *l, uint8_t *src, uint8_t *dst, uint64_t seed)
{
	fill_pattern(l->scratch[0], l->region, seed);
	memset(l->scratch[1], 0, l->region);
	if (gd_ibgda_gpu_copy(l->run.gpu, src, l->scratch[0], l->region) ||
	    gd_ibgda_gpu_copy(l->run.gpu, dst, l->scratch[1], l->region))
		return -EIO;
	return 0;
}

/* After a size: both regions in the scratch copies. */
static int get_regions(struct loopback *l, const uint8_t *src, const uint8_t *dst)
{
	if (gd_ibgda_gpu_copy(l->run.gpu, l->scratch[0], src, l->region) ||
	    gd_ibgda_gpu_copy(l->run.gpu, l->scratch[1], dst, l->region))
		return -EIO;
	return 0;
}

static uint8_t *src_of(const struct loopback *l)
{
	return l->p->op == GD_OP_READ ? l->remote : l->local;
}

static uint8_t *dst_of(const struct loopback *l)
{
	return l->p->op == GD_OP_READ ? l->local : l->remote;
}

/* QP i is connected to itself through the records a peer would send. */
static int connect_loopback(struct loopback *l)
{
	struct gd_ibgda_nic *n = &l->run.nic;
	uint32_t nq = n->cfg.nqps;

	l->lconn = calloc(nq, sizeof(*l->lconn));
	l->rconn = calloc(nq, sizeof(*l->rconn));
	if (!l->lconn || !l->rconn)
		return -ENOMEM;
	for (uint32_t i = 0; i < nq; i++) {
		struct gd_ibgda_peer peer = {.qpn = n->hqps[i].qpn, .mtu = 5 /* 4096 */};

		l->lconn[i] = (struct gd_wire_conn){.qp_index = i,
						    .qp_count = nq,
						    .qpn = n->hqps[i].qpn,
						    .rkey = l->run.data.lkey,
						    .vaddr = (uintptr_t)l->local,
						    .buf_size = l->region,
						    .gid_index = -1,
						    .mtu = 4096};
		l->rconn[i] = l->lconn[i]; /* the "peer" is this process */
		l->rconn[i].rkey = l->run.data.rkey;
		l->rconn[i].vaddr = (uintptr_t)l->remote;
		if (n->ops->connect(n, i, &peer))
			return -EINVAL;
	}
	return 0;
}

static int buffers(struct loopback *l)
{
	struct gd_ibgda_run *r = &l->run;
	struct gd_ibgda_nic *n = &r->nic;

	l->region = l->plan.last_size > MIN_REGION ? l->plan.last_size : MIN_REGION;
	l->local = l->on_gpu ? gd_ibgda_gpu_dev(r->gpu, l->region) : gd_ibgda_gpu_host(r->gpu, l->region);
	l->remote = l->on_gpu ? gd_ibgda_gpu_dev(r->gpu, l->region)
			      : gd_ibgda_gpu_host(r->gpu, l->region);
	l->scratch[0] = malloc(l->region);
	l->scratch[1] = malloc(l->region);
	if (!l->local || !l->remote || !l->scratch[0] || !l->scratch[1])
		return -ENOMEM;
	if (n->ops->add_mr(n, l->local, l->region, &r->data.lkey) ||
	    n->ops->add_mr(n, l->remote, l->region, &r->data.rkey))
		return -ENOSPC;
	r->data.local = (uintptr_t)l->local;
	r->data.remote = (uintptr_t)l->remote;
	r->data.region = l->region;
	r->data.rotate = true; /* every QP over the same two regions */
	if (l->p->op == GD_OP_ATOMIC) /* a counter word (and a fetch word) per QP */
		r->data.qp_stride = ATOMIC_STRIDE;
	return connect_loopback(l);
}

static void facts(struct loopback *l)
{
	struct gd_bench_facts *f = &l->res->facts;

	memset(f, 0, sizeof(*f));
	snprintf(f->device, sizeof(f->device), "swnic (test double)");
	f->port = 1;
	f->gid_index = -1;
	f->mtu = 4096;
	if (l->on_gpu)
		snprintf(f->memory, sizeof(f->memory), "cuda %d (%s)", l->run.spec.cuda_index,
			 gd_ibgda_gpu_name(l->run.gpu));
	else
		snprintf(f->memory, sizeof(f->memory), "host");
	f->tx_depth = l->run.nwqe;
	f->cq_mod = GD_IBGDA_SIG_EVERY;
	gethostname(f->host, sizeof(f->host) - 1);
	snprintf(f->peer, sizeof(f->peer), "none (loopback in the %s)", GD_IBGDA_NIC_SWNIC_LABEL);
	l->res->facts_valid = true;
	l->run.ini.queues = l->on_gpu ? "pinned host memory (the test double reads them); data "
					"in GPU memory (it copies through the CUDA driver)"
				      : "pinned host memory (the test double reads them)";
	l->rep = (struct gd_report){.out = l->out,
				    .p = l->p,
				    .f = f,
				    .local = l->lconn,
				    .remote = l->rconn,
				    .nqp = l->run.nic.cfg.nqps,
				    .ini = &l->run.ini};
}

static int open_loopback(struct loopback *l)
{
	const struct gd_bench_params *p = l->p;
	struct gd_ibgda_spec s;
	struct gd_ibgda_nic_cfg extra = {.err_at = env_u64(GD_IBGDA_SWNIC_ERR_ENV),
					 .stall_at = env_u64(GD_IBGDA_SWNIC_STALL_ENV),
					 .data_on_gpu = l->on_gpu,
					 .atomic_be = env_u64(GD_IBGDA_SWNIC_ATOMIC_BE_ENV) == 1};
	int ret;

	/* F7: the GPU --use_cuda=N names (the plan's producer_cuda) */
	gd_ibgda_spec_of(&s, &l->plan.loop, l->plan.last_size, l->plan.loop.producer_cuda);
	/* no device step (gd_plan_device) here: the queues take -t as given */
	s.tx_depth = p->tx_depth;
	ret = gd_ibgda_run_open(&l->run, &s, &gd_ibgda_nic_swnic, &extra);
	if (!ret)
		ret = buffers(l);
	if (!ret)
		facts(l);
	return ret;
}

static void close_loopback(struct loopback *l)
{
	if (l->run.gpu && l->on_gpu) {
		gd_ibgda_gpu_free_dev(l->run.gpu, l->local);
		gd_ibgda_gpu_free_dev(l->run.gpu, l->remote);
	} else if (l->run.gpu) {
		gd_ibgda_gpu_free_host(l->run.gpu, l->local);
		gd_ibgda_gpu_free_host(l->run.gpu, l->remote);
	}
	free(l->scratch[0]);
	free(l->scratch[1]);
	gd_ibgda_run_close(&l->run);
	free(l->lconn);
	free(l->rconn);
}

/* --validate of atomics: every QP's counter word holds the operations its
 * WQEs made (FETCH_ADD adds 1, CMP_SWAP k -> k + 1), so the words sum to
 * the operations posted (the CPU path's rule, bench_data.c). */
static int validate_counters(struct loopback *l, uint64_t ops)
{
	uint64_t sum = 0;

	for (uint32_t q = 0; q < l->run.nic.cfg.nqps; q++) {
		uint64_t v;

		memcpy(&v, l->scratch[1] + (size_t)q * ATOMIC_STRIDE, 8);
		sum += v;
	}
	if (sum != ops) {
		gd_error("validation failed: the atomic counters hold %llu but %llu %s operations "
			 "were posted (one word per QP, every %d bytes of the remote region)",
			 (unsigned long long)sum, (unsigned long long)ops,
			 gd_atomic_type_name(l->p->atomic_type), ATOMIC_STRIDE);
		return -EBADMSG;
	}
	gd_info("validate: %s: the %u counters hold %llu, the operations posted (the %s "
		"executed the WQEs)",
		gd_atomic_type_name(l->p->atomic_type), l->run.nic.cfg.nqps,
		(unsigned long long)sum, l->run.nic.ops->label);
	return 0;
}

/* --validate: the span the run wrote holds the source bytes. */
static int validate(struct loopback *l, uint64_t size, uint64_t msgs)
{
	uint64_t slots = l->region / size, used = msgs < slots ? msgs : slots;
	const uint8_t *s = l->scratch[0], *d = l->scratch[1];

	if (get_regions(l, src_of(l), dst_of(l)))
		return -EIO;
	if (l->p->op == GD_OP_ATOMIC)
		return validate_counters(l, msgs);

	for (size_t k = 0; k < used * size; k++)
		if (s[k] != d[k]) {
			gd_error("validation failed: size %llu, message slot %llu, byte %zu of the "
				 "%s region: got 0x%02x, expected 0x%02x",
				 (unsigned long long)size, (unsigned long long)(k / size), k % size,
				 l->p->op == GD_OP_READ ? "local" : "remote", d[k], s[k]);
			return -EBADMSG;
		}
	gd_info("validate: size %llu: %llu bytes in %llu message slots hold what was sent (the "
		"%s executed the WQEs)",
		(unsigned long long)size, (unsigned long long)(used * size),
		(unsigned long long)used, l->run.nic.ops->label);
	return 0;
}

static int bw_size(struct loopback *l, uint64_t size, struct gd_bench_size_result *s)
{
	int ret = gd_ibgda_run_bw(&l->run, size, &s->local);

	if (!ret && l->p->validate)
		ret = validate(l, size, s->local.iters);
	if (ret)
		return ret;
	s->size = size;
	s->iters = s->local.iters;
	s->bw_avg_Bps = s->local.avg_Bps;
	s->msg_rate = s->local.msg_rate;
	s->has_local = true;
	gd_report_bw(&l->rep, s);
	return 0;
}

static int lat_size(struct loopback *l, uint64_t size, struct gd_bench_size_result *s)
{
	double *v = NULL, *u = NULL;
	size_t n = 0;
	int ret = gd_ibgda_run_lat(&l->run, size, &v, &n);

	if (!ret && l->p->validate)
		ret = validate(l, size, n);
	if (!ret && !(u = malloc(n * sizeof(*u))))
		ret = -ENOMEM;
	if (!ret) {
		memcpy(u, v, n * sizeof(*u));
		s->size = size;
		s->iters = n;
		ret = gd_lat_stats_compute(v, n, &s->lat);
	}
	if (!ret) {
		s->has_lat = true;
		gd_report_lat(&l->rep, s, v, u, n);
	}
	free(v);
	free(u);
	return ret;
}

static int run_sizes(struct loopback *l)
{
	const struct gd_bench_params *p = l->p;
	bool table = p->output == GD_OUTPUT_FULL && !p->json;
	int ret = 0;

	if (table)
		gd_report_header(&l->rep);
	for (uint64_t size = l->plan.first_size; size && !ret;
	     size = gd_plan_next_size(&l->plan, size)) {
		struct gd_bench_size_result *s;

		if (l->res->nsizes >= GD_BENCH_MAX_SIZES)
			break;
		s = &l->res->sizes[l->res->nsizes];
		memset(s, 0, sizeof(*s));
		ret = set_regions(l, src_of(l), dst_of(l), size);
		if (!ret)
			ret = p->kind == GD_KIND_BW ? bw_size(l, size, s) : lat_size(l, size, s);
		if (!ret)
			l->res->nsizes++;
		if (size == l->plan.last_size)
			break;
	}
	if (!ret && table)
		gd_report_footer(&l->rep);
	/* also after a failure: the WQEs are the evidence */
	gd_ibgda_run_dump(&l->run, p->init.dump_wqes, l->diag);
	return ret;
}

int gd_ibgda_bench_swnic(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res)
{
	struct loopback l = {
		.p = p, .res = res, .out = out, .diag = p->json || !out ? stderr : out};
	int ret;

	/* its buffer options were refused by gd_bench_check (ibgda_check.c) */
	l.on_gpu = p->use_cuda != GD_CUDA_NONE;
	gd_warn("--initiator=%s on the %s (--ibgda_nic=%s): no ConnectX, no peer; a CPU thread "
		"executes the GPU's WQEs on local buffers (a loopback). Figures measure the GPU "
		"side and the test double, not a NIC.",
		gd_initiator_name(p->init.initiator), GD_IBGDA_NIC_SWNIC_LABEL,
		gd_ibgda_nic_name(p->init.ibgda_nic));
	gd_plan_from_params(&l.plan, p);
	ret = open_loopback(&l);
	if (!ret)
		ret = run_sizes(&l);
	else
		ret = ret == -EINVAL ? -EINVAL : -ENODEV;
	close_loopback(&l);
	if (out)
		fflush(out);
	if (ret == -EINVAL)
		return res->exit_code = GD_EXIT_USAGE;
	return res->exit_code = ret == -ENODEV ? GD_EXIT_ENV : ret ? GD_EXIT_FAIL : GD_EXIT_OK;
}
