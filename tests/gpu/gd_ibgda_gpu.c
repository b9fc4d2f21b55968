/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * GPU tier of IBGDA (run by tests/gpu/ibgda-gpu.sh on the GPU machine, which
 * has no NIC): CUDA kernels drive the IBGDA protocol against the SOFTWARE
 * NIC TEST DOUBLE (a CPU thread, ibgda_swnic.c) through mapped host memory.
 *
 *   encode   [--n N]            the shared encoders in a kernel == on the CPU
 *   protocol [opts] --validate  kernels post RDMA WRITEs the double executes
 *   rate     [opts]             the double only advances the consumer index
 *   latency  [--iters N]        one thread: reserve..doorbell, ..CQE
 * opts: --scope thread|warp|cta --ctas N --threads N --qps N --iters N
 *   --nwqe N --ring_every N --sig_every N --sq host|gpu --normal_cq --cpudb
 *   --bad_rkey_at ITEM --stall_at WQE --timeout_ms N --reps N --dump_wqes N
 *   --budget_ms N (the whole run's deadline on the GPU; default 2 x timeout + 1 s)
 * Exit: 0 pass, 1 failed (error CQE, deadline, bad data), 2 usage, 77 no GPU.
 */
#include <cuda_runtime_api.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "ibgda_cpudb.h"
#include "ibgda_kernels.h"
#include "ibgda_swnic.h"
#include "mlx5_dump.h"

#define LKEY 0x5001
#define RKEY 0x5002

struct opts {
	const char *cmd;
	uint32_t scope, ctas, threads, qps, iters, nwqe, ring_every, sig_every, reps, dump;
	int sq_gpu, normal_cq, cpudb, validate;
	uint64_t bad_at, stall_at, timeout_ms, budget_ms, n;
};

struct setup {
	struct gd_ibgda_qp *hqps, *dqps;
	struct gd_ibgda_ctr *ctr;
	struct gd_ibgda_err *err;
	struct gd_ibgda_ctl *ctl; /* device memory: stop flag, run deadline */
	uint64_t *stamps, *snap;  /* device memory: window stamps, counters per QP */
	uint8_t *sq, *cq;
	uint32_t *dbrec, *cq_dbrec;
	uint64_t *db, *cpudb_words;
	uint64_t *src, *dst, nitems;
	struct gd_swnic nic;
	struct gd_cpudb cpudb;
};

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec;
}

#define CK(x)                                                                                  \
	do {                                                                                   \
		cudaError_t e_ = (x);                                                          \
		if (e_ != cudaSuccess) {                                                       \
			fprintf(stderr, "gd_ibgda_gpu: %s: %s\n", #x, cudaGetErrorString(e_)); \
			exit(1);                                                               \
		}                                                                              \
	} while (0)

static void *hmap(size_t n)
{
	void *p;

	CK(cudaHostAlloc(&p, n, cudaHostAllocMapped | cudaHostAllocPortable));
	memset(p, 0, n);
	return p; /* UVA: the same address on the device */
}

/* Wait for the stream with a deadline: a hung kernel cannot hang the test. */
static int stream_wait(cudaStream_t s, uint64_t limit_ns)
{
	uint64_t t0 = now_ns();
	cudaError_t e;

	while ((e = cudaStreamQuery(s)) == cudaErrorNotReady) {
		if (now_ns() - t0 > limit_ns) {
			fprintf(stderr,
				"gd_ibgda_gpu: kernel still running after %llu ms; giving up\n",
				(unsigned long long)(limit_ns / 1000000));
			return -1;
		}
		struct timespec ts = {0, 200000};
		nanosleep(&ts, NULL);
	}
	if (e != cudaSuccess) {
		fprintf(stderr, "gd_ibgda_gpu: kernel failed: %s\n", cudaGetErrorString(e));
		return -1;
	}
	return 0;
}

static void setup_qps(struct setup *s, const struct opts *o)
{
	uint32_t ncqe = o->normal_cq ? o->nwqe : 1;
	size_t sqb = (size_t)o->nwqe * 64 * o->qps;

	s->hqps = calloc(o->qps, sizeof(*s->hqps));
	CK(cudaMalloc((void **)&s->dqps, o->qps * sizeof(*s->dqps)));
	CK(cudaMalloc((void **)&s->ctr, o->qps * sizeof(*s->ctr)));
	CK(cudaMemset(s->ctr, 0, o->qps * sizeof(*s->ctr)));
	if (o->sq_gpu) {
		CK(cudaMalloc((void **)&s->sq, sqb));
		CK(cudaMemset(s->sq, 0, sqb));
	} else {
		s->sq = hmap(sqb);
	}
	s->cq = hmap((size_t)ncqe * 64 * o->qps);
	memset(s->cq, 0xff, (size_t)ncqe * 64 * o->qps);
	s->dbrec = hmap(o->qps * 64);
	s->cq_dbrec = hmap(o->qps * 64);
	s->db = hmap(o->qps * 64);
	s->cpudb_words = hmap(o->qps * 64);
	s->err = hmap(sizeof(*s->err));
	struct gd_ibgda_ctl ctl = {.budget_ns = o->budget_ms * 1000000ull};
	uint64_t st[2] = {~0ull, 0};

	CK(cudaMalloc((void **)&s->ctl, sizeof(*s->ctl)));
	CK(cudaMemcpy(s->ctl, &ctl, sizeof(ctl), cudaMemcpyHostToDevice));
	CK(cudaMalloc((void **)&s->stamps, sizeof(st)));
	CK(cudaMemcpy(s->stamps, st, sizeof(st), cudaMemcpyHostToDevice));
	CK(cudaMalloc((void **)&s->snap, o->qps * 16));
	CK(cudaMemset(s->snap, 0, o->qps * 16));
	for (uint32_t q = 0; q < o->qps; q++) {
		struct gd_ibgda_qp *qp = &s->hqps[q];
		/* the latency kernel is one thread: the QP's only ringer */
		int shared =
			strcmp(o->cmd, "latency") &&
			(o->scope == GD_IBGDA_SCOPE_THREAD ||
			 (o->scope == GD_IBGDA_SCOPE_WARP && o->ctas * o->threads / 32 > o->qps) ||
			 (o->scope == GD_IBGDA_SCOPE_CTA && o->ctas > o->qps));

		*qp = (struct gd_ibgda_qp){
			.sq = s->sq + (size_t)q * o->nwqe * 64,
			.nwqe = o->nwqe,
			.qpn = 0x100 + q,
			.dbrec = s->dbrec + 16 * q,
			.db = (o->cpudb ? s->cpudb_words : s->db) + 8 * q,
			.cq = s->cq + (size_t)q * ncqe * 64,
			.ncqe = ncqe,
			.flags = (o->normal_cq ? 0 : GD_IBGDA_COLLAPSED) |
				 (o->sq_gpu ? 0 : GD_IBGDA_SYSMEM) |
				 (o->cpudb ? GD_IBGDA_CPUDB : 0) | (shared ? GD_IBGDA_SHARED : 0),
			.cq_dbrec = s->cq_dbrec + 16 * q,
			.ring_every = o->ring_every,
			.ctr = s->ctr + q,
			.err = s->err,
			.timeout_ns = o->timeout_ms * 1000000ull,
			.ctl = s->ctl,
		};
		s->nic.qps[q] = (struct gd_swnic_qp){.sq = qp->sq,
						     .nwqe = o->nwqe,
						     .qpn = qp->qpn,
						     .dbrec = qp->dbrec,
						     .db = s->db + 8 * q,
						     .cq = qp->cq,
						     .ncqe = ncqe,
						     .collapsed = !o->normal_cq};
		s->cpudb.qps[q] = (struct gd_cpudb_qp){.prod = s->cpudb_words + 8 * q,
						       .dbrec = qp->dbrec,
						       .db = s->db + 8 * q,
						       .qpn = qp->qpn};
	}
	CK(cudaMemcpy(s->dqps, s->hqps, o->qps * sizeof(*s->dqps), cudaMemcpyHostToDevice));
}

static void setup(struct setup *s, const struct opts *o, int consume_only)
{
	memset(s, 0, sizeof(*s));
	setup_qps(s, o);
	s->nitems = (uint64_t)o->ctas * o->threads * o->iters;
	s->src = hmap(consume_only ? 64 : s->nitems * 8);
	s->dst = hmap(consume_only ? 64 : s->nitems * 8);
	for (uint64_t i = 0; !consume_only && i < s->nitems; i++)
		s->src[i] = 0x5eed000000000000ull ^ (i * 0x9e3779b97f4a7c15ull);
	s->nic.nqps = o->qps;
	s->nic.mrs[0] = (struct gd_swnic_mr){s->src, consume_only ? 64 : s->nitems * 8, LKEY};
	s->nic.mrs[1] = (struct gd_swnic_mr){s->dst, consume_only ? 64 : s->nitems * 8, RKEY};
	s->nic.nmrs = 2;
	s->nic.consume_only = consume_only;
	s->nic.inject_err_at = GD_SWNIC_NONE;
	s->nic.stall_at = o->stall_at;
	s->nic.max_idle_ns = (o->timeout_ms + 5000) * 1000000ull;
	s->cpudb.nqps = o->qps;
	s->cpudb.max_idle_ns = s->nic.max_idle_ns;
}

static void teardown(struct setup *s, const struct opts *o)
{
	gd_swnic_stop(&s->nic);
	gd_cpudb_stop(&s->cpudb);
	if (o->sq_gpu)
		cudaFree(s->sq);
	else
		cudaFreeHost(s->sq);
	cudaFreeHost(s->cq);
	cudaFreeHost(s->dbrec);
	cudaFreeHost(s->cq_dbrec);
	cudaFreeHost(s->db);
	cudaFreeHost(s->cpudb_words);
	cudaFreeHost(s->err);
	cudaFreeHost(s->src);
	cudaFreeHost(s->dst);
	cudaFree(s->ctr);
	cudaFree(s->ctl);
	cudaFree(s->stamps);
	cudaFree(s->snap);
	cudaFree(s->dqps);
	free(s->hqps);
}

/* Print the failure record; 1 if there was one. */
static int report_err(const struct setup *s)
{
	const struct gd_ibgda_err *e = s->err;
	static const char *where[] = {"?",	   "reserve", "publish",
				      "ring lock", "poll",    "run budget (--budget_ms)"};

	if (s->nic.problem[0])
		printf("%s\n", s->nic.problem);
	if (!e->code)
		return s->nic.problem[0] != 0;
	if (e->code == GD_IBGDA_ERR_CQE)
		printf("ibgda: error CQE on QP 0x%x, WQE %u (%s): %s (syndrome 0x%02x, vendor "
		       "0x%02x)\n",
		       e->qpn, e->wqe_counter, gd_mlx5_opcode_name(e->wqe_opcode),
		       gd_mlx5_syndrome_name(e->syndrome), e->syndrome, e->vendor);
	else
		printf("ibgda: %s on QP 0x%x in %s: resv_head %llu ready_head %llu prod_idx %llu "
		       "cons_idx %llu dbr %u\n",
		       e->code == GD_IBGDA_ERR_TIMEOUT ? "deadline passed" : "stopped", e->qpn,
		       where[e->where < 6 ? e->where : 0], (unsigned long long)e->resv_head,
		       (unsigned long long)e->ready_head, (unsigned long long)e->prod_idx,
		       (unsigned long long)e->cons_idx, e->dbr);
	return 1;
}

static int cmd_encode(const struct opts *o)
{
	uint32_t n = (uint32_t)o->n, bad = 0;
	uint8_t *d, *h = malloc((size_t)n * GD_IBGDA_SAMPLE_BYTES), ref[GD_IBGDA_SAMPLE_BYTES];

	CK(cudaMalloc((void **)&d, (size_t)n * GD_IBGDA_SAMPLE_BYTES));
	CK((cudaError_t)gd_ibgda_launch_sample(d, n, 0x1b9da5eedull, NULL));
	CK(cudaMemcpy(h, d, (size_t)n * GD_IBGDA_SAMPLE_BYTES, cudaMemcpyDeviceToHost));
	for (uint32_t i = 0; i < n; i++) {
		gd_ibgda_sample(0x1b9da5eedull, i, ref);
		if (memcmp(ref, h + (size_t)i * GD_IBGDA_SAMPLE_BYTES, GD_IBGDA_SAMPLE_BYTES) &&
		    bad++ < 3) {
			for (int k = 0; k < GD_IBGDA_SAMPLE_BYTES; k++)
				if (ref[k] != h[(size_t)i * GD_IBGDA_SAMPLE_BYTES + k]) {
					printf("encode: sample %u byte %d: cpu 0x%02x gpu 0x%02x\n",
					       i, k, ref[k],
					       h[(size_t)i * GD_IBGDA_SAMPLE_BYTES + k]);
					break;
				}
		}
	}
	printf("encode: %u samples (WQE, CQE, DBR, doorbell, counters, syndrome names): %u "
	       "differ\n",
	       n, bad);
	cudaFree(d);
	free(h);
	return bad ? 1 : 0;
}

static struct gd_ibgda_kargs kargs(const struct setup *s, const struct opts *o)
{
	return (struct gd_ibgda_kargs){.qps = s->dqps,
				       .nqps = o->qps,
				       .scope = o->scope,
				       .iters = o->iters,
				       .sig_every = o->sig_every,
				       .src = (uintptr_t)s->src,
				       .dst = (uintptr_t)s->dst,
				       .lkey = LKEY,
				       .rkey = RKEY,
				       .bad_at = o->bad_at,
				       .stamps = s->stamps};
}

/* What one run measured: the event window (post + quiet kernels, launch
 * included) and the GPU's own window (first reserve to last post, on
 * %globaltimer) with the WQEs published and rung in it. */
struct meas {
	double ev_sec, gpu_sec;
	uint64_t published, rung;
};

static void read_window(const struct setup *s, const struct opts *o, struct meas *m)
{
	uint64_t st[2], *snap = malloc(o->qps * 16);

	CK(cudaMemcpy(st, s->stamps, sizeof(st), cudaMemcpyDeviceToHost));
	CK(cudaMemcpy(snap, s->snap, o->qps * 16, cudaMemcpyDeviceToHost));
	m->gpu_sec = st[1] > st[0] ? (st[1] - st[0]) / 1e9 : 0;
	m->published = m->rung = 0;
	for (uint32_t q = 0; q < o->qps; q++) {
		m->published += snap[2 * q];
		m->rung += snap[2 * q + 1];
	}
	free(snap);
}

/* One run: post kernel, quiet kernel. Returns 0, or 1 on a recorded error. */
static int one_run(struct setup *s, const struct opts *o, struct meas *m)
{
	struct gd_ibgda_kargs a = kargs(s, o);
	cudaEvent_t e0, e1;
	float ms = 0;
	int rc;

	CK(cudaEventCreate(&e0));
	CK(cudaEventCreate(&e1));
	if (gd_swnic_start(&s->nic) || (o->cpudb && gd_cpudb_start(&s->cpudb))) {
		fprintf(stderr, "gd_ibgda_gpu: cannot start the software NIC thread\n");
		exit(1);
	}
	CK(cudaEventRecord(e0, NULL));
	CK((cudaError_t)gd_ibgda_launch_post(&a, o->ctas, o->threads, NULL));
	CK((cudaError_t)gd_ibgda_launch_quiet(s->dqps, o->qps, s->snap, NULL));
	CK(cudaEventRecord(e1, NULL));
	rc = stream_wait(NULL, (o->timeout_ms + 20000) * 1000000ull);
	gd_swnic_stop(&s->nic);
	gd_cpudb_stop(&s->cpudb);
	if (rc) {
		report_err(s);
		exit(1); /* the kernel may still run: leave, the driver reclaims it */
	}
	CK(cudaEventElapsedTime(&ms, e0, e1));
	m->ev_sec = ms / 1e3;
	read_window(s, o, m);
	cudaEventDestroy(e0);
	cudaEventDestroy(e1);
	return report_err(s);
}

static int cmd_protocol(const struct opts *o)
{
	struct setup s;
	uint64_t bad = 0;
	struct meas m;
	int rc;

	setup(&s, o, 0);
	rc = one_run(&s, o, &m);
	if (o->dump)
		gd_mlx5_dump_ring(stdout, s.hqps[0].sq, o->nwqe, o->dump);
	if (!rc && o->validate) {
		for (uint64_t i = 0; i < s.nitems; i++)
			if (s.dst[i] != s.src[i] && bad++ < 3)
				printf("validate: item %llu: dst 0x%llx want 0x%llx\n",
				       (unsigned long long)i, (unsigned long long)s.dst[i],
				       (unsigned long long)s.src[i]);
		printf("validate: %llu RDMA WRITEs executed by the software NIC (test double), "
		       "%llu wrong\n",
		       (unsigned long long)s.nitems, (unsigned long long)bad);
	}
	if (!rc)
		printf("protocol: scope %u ctas %u threads %u qps %u: %llu WQEs in %.3f ms, "
		       "%s CQ%s\n",
		       o->scope, o->ctas, o->threads, o->qps, (unsigned long long)s.nic.wqes,
		       m.ev_sec * 1e3, o->normal_cq ? "normal" : "collapsed",
		       o->cpudb ? ", CPU doorbell" : "");
	teardown(&s, o);
	return rc || bad ? 1 : 0;
}

static int cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/* One rate run: 0, or 1 (recorded failure, or fewer WQEs published than
 * posted: the count would lie). Fills the two rates (M WQE/s). */
static int rate_once(const struct opts *o, double *gpu_rate, double *ev_rate)
{
	uint64_t n = (uint64_t)o->ctas * o->threads * o->iters;
	struct setup s;
	struct meas m;
	int rc;

	setup(&s, o, 1);
	rc = one_run(&s, o, &m);
	teardown(&s, o);
	if (rc)
		return 1;
	if (m.published != n || m.rung + (uint64_t)o->qps * o->ring_every < n || !m.gpu_sec) {
		printf("rate: %llu WQEs posted but %llu published, %llu rung by the post kernel "
		       "(GPU window %.6f s): not a valid measurement\n",
		       (unsigned long long)n, (unsigned long long)m.published,
		       (unsigned long long)m.rung, m.gpu_sec);
		return 1;
	}
	*gpu_rate = m.published / m.gpu_sec / 1e6;
	*ev_rate = n / m.ev_sec / 1e6;
	return 0;
}

/* Rate: WQEs written and published per second of the GPU's own window
 * (first reserve .. last post, %globaltimer), median of reps runs after a
 * warm-up; the event-timed figure (launches and quiet included) beside it. */
static int cmd_rate(const struct opts *o)
{
	double r[64], e[64];
	uint32_t reps = o->reps < 64 ? o->reps : 64;
	uint64_t n = (uint64_t)o->ctas * o->threads * o->iters;

	for (uint32_t k = 0; k <= reps; k++) /* run 0 warms up */
		if (rate_once(o, &r[k ? k - 1 : 0], &e[k ? k - 1 : 0]))
			return 1;
	qsort(r, reps, sizeof(r[0]), cmp_d);
	qsort(e, reps, sizeof(e[0]), cmp_d);
	printf("rate: scope %-6s ctas %4u threads %4u qps %3u ring_every %4u nwqe %5u sq %s%s: "
	       "median %8.1f M WQE/s (min %.1f max %.1f; events %.1f) %u runs of %llu WQEs\n",
	       o->scope == 0   ? "thread"
	       : o->scope == 1 ? "warp"
			       : "cta",
	       o->ctas, o->threads, o->qps, o->ring_every, o->nwqe, o->sq_gpu ? "gpu" : "host",
	       o->cpudb ? " cpudb" : "", r[reps / 2], r[0], r[reps - 1], e[reps / 2], reps,
	       (unsigned long long)n);
	return 0;
}

static int cmd_latency(const struct opts *o)
{
	struct setup s;
	struct gd_ibgda_kargs a;
	uint64_t *tdb, *tcq;
	double db[4096], cq[4096];
	uint32_t n = o->iters < 4096 ? o->iters : 4096;
	int rc;

	setup(&s, o, 0);
	a = kargs(&s, o);
	a.iters = n;
	tdb = hmap(n * 8);
	tcq = hmap(n * 8);
	if (gd_swnic_start(&s.nic) || (o->cpudb && gd_cpudb_start(&s.cpudb)))
		exit(1);
	CK((cudaError_t)gd_ibgda_launch_latency(&a, tdb, tcq, NULL));
	rc = stream_wait(NULL, (o->timeout_ms + 20000) * 1000000ull);
	gd_swnic_stop(&s.nic);
	gd_cpudb_stop(&s.cpudb);
	if (rc || report_err(&s))
		exit(1);
	for (uint32_t k = 0; k < n; k++) {
		db[k] = (double)tdb[k];
		cq[k] = (double)tcq[k];
	}
	qsort(db, n, sizeof(db[0]), cmp_d);
	qsort(cq, n, sizeof(cq[0]), cmp_d);
	printf("latency: single WQE, %s CQ%s, %u ops: post-to-doorbell median %.0f ns (p10 %.0f "
	       "p90 "
	       "%.0f); to CQE via the software NIC (test double) median %.0f ns\n",
	       o->normal_cq ? "normal" : "collapsed", o->cpudb ? ", CPU doorbell" : "", n,
	       db[n / 2], db[n / 10], db[n * 9 / 10], cq[n / 2]);
	cudaFreeHost(tdb);
	cudaFreeHost(tcq);
	teardown(&s, o);
	return 0;
}

static int parse(int argc, char **argv, struct opts *o)
{
	static const struct option lo[] = {
		{"scope", 1, 0, 's'},	    {"ctas", 1, 0, 'c'},
		{"threads", 1, 0, 't'},	    {"qps", 1, 0, 'q'},
		{"iters", 1, 0, 'i'},	    {"nwqe", 1, 0, 'w'},
		{"ring_every", 1, 0, 'r'},  {"sig_every", 1, 0, 'g'},
		{"sq", 1, 0, 'Q'},	    {"normal_cq", 0, 0, 'N'},
		{"cpudb", 0, 0, 'C'},	    {"validate", 0, 0, 'V'},
		{"bad_rkey_at", 1, 0, 'b'}, {"stall_at", 1, 0, 'S'},
		{"timeout_ms", 1, 0, 'T'},  {"budget_ms", 1, 0, 'B'},
		{"reps", 1, 0, 'R'},	    {"n", 1, 0, 'n'},
		{"dump_wqes", 1, 0, 'D'},   {0, 0, 0, 0},
	};
	int c;

	*o = (struct opts){.scope = 1,
			   .ctas = 4,
			   .threads = 128,
			   .qps = 4,
			   .iters = 64,
			   .nwqe = 1024,
			   .ring_every = 32,
			   .sig_every = 256,
			   .reps = 5,
			   .bad_at = ~0ull,
			   .stall_at = GD_SWNIC_NONE,
			   .timeout_ms = 2000,
			   .n = 1 << 20};
	if (argc < 2)
		return -1;
	o->cmd = argv[1];
	optind = 2;
	while ((c = getopt_long(argc, argv, "", lo, NULL)) != -1) {
		unsigned long long v = optarg ? strtoull(optarg, NULL, 0) : 0;

		switch (c) {
		case 's':
			o->scope = !strcmp(optarg, "thread") ? 0 : !strcmp(optarg, "cta") ? 2 : 1;
			break;
		case 'c':
			o->ctas = (uint32_t)v;
			break;
		case 't':
			o->threads = (uint32_t)v;
			break;
		case 'q':
			o->qps = (uint32_t)v;
			break;
		case 'i':
			o->iters = (uint32_t)v;
			break;
		case 'w':
			o->nwqe = (uint32_t)v;
			break;
		case 'r':
			o->ring_every = (uint32_t)v;
			break;
		case 'g':
			o->sig_every = (uint32_t)v;
			break;
		case 'Q':
			o->sq_gpu = !strcmp(optarg, "gpu");
			break;
		case 'N':
			o->normal_cq = 1;
			break;
		case 'C':
			o->cpudb = 1;
			break;
		case 'V':
			o->validate = 1;
			break;
		case 'b':
			o->bad_at = v;
			break;
		case 'S':
			o->stall_at = v;
			break;
		case 'T':
			o->timeout_ms = v;
			break;
		case 'B':
			o->budget_ms = v;
			break;
		case 'R':
			o->reps = v ? (uint32_t)v : 1;
			break;
		case 'n':
			o->n = v;
			break;
		case 'D':
			o->dump = (uint32_t)v;
			break;
		default:
			return -1;
		}
	}
	if (!o->budget_ms) /* the whole run; the host gives up at timeout + 20 s */
		o->budget_ms = 2 * o->timeout_ms + 1000;
	return 0;
}

/* Sizes the protocol needs: a reserver must find a signalled, rung WQE
 * below its slot (ibgda_dev.h). */
static const char *check(const struct opts *o)
{
	uint32_t group = o->scope == 0 ? 1 : o->scope == 1 ? 32 : o->threads;

	if (!o->qps || o->qps > GD_SWNIC_MAX_QPS || !o->ctas || !o->threads || o->threads % 32 ||
	    o->threads > 1024)
		return "--qps 1..512, --ctas >= 1, --threads a multiple of 32 up to 1024";
	if (o->nwqe & (o->nwqe - 1) || o->ring_every & (o->ring_every - 1) || !o->ring_every ||
	    !o->sig_every || o->sig_every & (o->sig_every - 1))
		return "--nwqe, --ring_every and --sig_every must be powers of two";
	if (o->nwqe < group + o->ring_every + o->sig_every)
		return "--nwqe must be >= WQEs per reservation + --ring_every + --sig_every";
	if (o->sq_gpu && strcmp(o->cmd, "rate"))
		return "--sq gpu only with rate (the software NIC reads the queue from host "
		       "memory)";
	if (o->normal_cq && !strcmp(o->cmd, "rate"))
		return "rate uses the collapsed CQ";
	return NULL;
}

int main(int argc, char **argv)
{
	struct opts o;
	const char *why;
	int ndev = 0;

	setvbuf(stdout, NULL, _IOLBF, 0);
	if (parse(argc, argv, &o)) {
		fprintf(stderr, "usage: gd_ibgda_gpu encode|protocol|rate|latency [options] "
				"(see the comment at the top of tests/gpu/gd_ibgda_gpu.c)\n");
		return 2;
	}
	if ((why = check(&o))) {
		fprintf(stderr, "gd_ibgda_gpu: %s\n", why);
		return 2;
	}
	if (cudaGetDeviceCount(&ndev) != cudaSuccess || ndev == 0) {
		printf("gd_ibgda_gpu: skipped: no CUDA GPU\n");
		return 77;
	}
	if (!strcmp(o.cmd, "encode"))
		return cmd_encode(&o);
	if (!strcmp(o.cmd, "protocol"))
		return cmd_protocol(&o);
	if (!strcmp(o.cmd, "rate"))
		return cmd_rate(&o);
	if (!strcmp(o.cmd, "latency")) {
		o.qps = 1;
		return cmd_latency(&o);
	}
	fprintf(stderr, "gd_ibgda_gpu: unknown command '%s'\n", o.cmd);
	return 2;
}
