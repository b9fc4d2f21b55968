/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* --initiator=proxy in the benchmark tools (see proxy_bench.h). */
#include "config.h"

#include "proxy_bench.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "loop.h"
#include "bench_report.h"
#include "cuda.h"
#include "gd.h"
#include "gpu_prod.h"
#include "hostprod.h"
#include "init_opts.h"
#include "log.h"
#include "oob.h"
#include "proxy.h"

#define PEER_CHECK_NS 100000000ull
#define MAX_BATCH 64

/* What the producers write besides the ring: mapped memory for the GPU. */
struct shared {
	struct gd_ring_fail fail;
	struct gd_prod_clock clock;
};

/* The initiating side's producer, chosen once (attach). */
struct pb_state {
	struct gd_gpu_prod *gp; /* NULL: host producer threads */
	struct gd_report_initiator ini;
	char why[320];
};

struct run {
	struct gd_loop *l;
	struct pb_state *st;
	struct gd_transport *tp;		/* the proxy's transport over the run's fabric */
	struct gd_proxy *px;
	struct shared *sh;      /* the host's view */
	struct gd_host_prod *h; /* host producers while they run */
	struct gd_prod_args a;
	uint64_t max_ns;        /* the GPU producers' deadline */
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

/* A loop run without attach (no initiator state): host producer threads. */
static struct pb_state host_only;

/* The failure record and the clock where the producers reach them. */
static int shared_alloc(struct run *r)
{
	void *dev = NULL;

	r->sh = r->st->gp ? gd_gpu_prod_mapped(r->st->gp, sizeof(*r->sh), &dev)
			  : (dev = calloc(1, sizeof(*r->sh)));
	if (!r->sh)
		return -ENOMEM;
	r->a.fail = &((struct shared *)dev)->fail;
	r->a.clock = &((struct shared *)dev)->clock;
	return 0;
}

static int run_open(struct run *r, struct gd_loop *l, uint64_t size)
{
	const struct gd_loop_cfg *c = &l->cfg;
	struct gd_proxy_cfg cfg = { 0 };
	uint32_t batch = GD_MIN((uint32_t)MAX_BATCH, c->tx_depth);

	memset(r, 0, sizeof(*r));
	r->l = l;
	r->st = l->state ? l->state : &host_only;
	if (c->nqp > GD_PROXY_MAX_QPS) { /* gd_proxy_bench_check refuses it first */
		gd_error("%u QPs: a proxy drives at most %u (lower -q)", c->nqp, GD_PROXY_MAX_QPS);
		return -EINVAL;
	}
	r->tp = gd_transport_create(l->fab, l->q, c->nqp, c->init.proxy_threads, batch,
				 c->max_inline);
	if (!r->tp)
		return -ENOMEM;
	cfg.tp = r->tp;
	if (c->pin_cores[0])
		r->ncores = parse_cores(c->pin_cores, r->cores, GD_RING_MAX);
	cfg.nthreads = c->init.proxy_threads;
	cfg.nqps = c->nqp;
	cfg.ring_slots = c->init.ring_slots;
	cfg.batch = batch;
	cfg.sq_depth = c->tx_depth;
	cfg.sig_every = c->cq_mod; /* -Q, as the CPU loop signals */
	cfg.timeout_ns = (uint64_t)c->timeout_ms * 1000000ull;
	cfg.cores = r->ncores ? r->cores : NULL;
	cfg.ncores = r->ncores;
	cfg.mem = r->st->gp ? gd_gpu_prod_ring_mem(r->st->gp) : NULL;
	r->px = gd_proxy_create(&cfg);
	if (!r->px || shared_alloc(r) || gd_proxy_start(r->px))
		return -EINVAL;
	gd_proxy_ring_set(r->px, &r->a.set);
	r->a.op = desc_op(c);
	r->a.group_size = gd_init_group_size(&c->init);
	r->a.ngroups = gd_init_groups(&c->init);
	r->a.nregions = 1;
	r->a.size = size;
	r->a.region_bytes = 0; /* offsets are relative to each QP's own regions */
	/* FAULT INJECTION for the GPU tier's fault cells: the kernel traps */
	if (r->st->gp && getenv("GDPERF_TEST_GPU_TRAP_AFTER"))
		r->a.trap_after = strtoull(getenv("GDPERF_TEST_GPU_TRAP_AFTER"), NULL, 0);
	/* >= 1 us per request on top of --timeout, as the GPU tier's program */
	r->max_ns = cfg.timeout_ns + c->iters * c->nqp * 1000ull;
	return 0;
}

static void run_close(struct run *r)
{
	if (gd_bench_abandon)
		return; /* a stuck proxy thread may still use all of it (bench_rt.h) */
	gd_proxy_destroy(r->px);
	gd_transport_destroy(r->tp);
	if (r->st->gp)
		gd_gpu_prod_free_mapped(r->st->gp, r->sh);
	else
		free(r->sh);
}

static bool producers_done(const struct run *r)
{
	return r->st->gp ? gd_gpu_prod_done(r->st->gp) : gd_host_prod_done(r->h);
}

/* While producers run: ^C, the peer and the proxy's error word stop them;
 * past the GPU producers' deadline they are asked to stop (the finish then
 * waits 5 s more and says so). */
static int watch(struct run *r)
{
	struct gd_loop *l = r->l;
	uint64_t last = gd_now_ns(), t0 = last;
	struct timespec ts = { 0, r->st->gp ? 20000 : 1000000 };

	while (!producers_done(r)) {
		uint64_t now = gd_now_ns();
		int ret;

		if (r->st->gp && now - t0 > r->max_ns)
			return 0;
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
	const char *hint = e ? gd_proxy_hint(r->px, e) : NULL;
	char msg[512];

	if (e)
		gd_proxy_describe(r->px, e, msg, sizeof(msg));
	else if (r->sh->fail.code)
		gd_proxy_describe_fail(&r->sh->fail, msg, sizeof(msg));
	else
		snprintf(msg, sizeof(msg), "the producers stopped (%d)", code);
	gd_error("proxy: %s", msg);
	if (hint)
		gd_info("%s", hint);
	gd_proxy_dump(r->px, stderr);
	gd_oob_send_error(l->oob, GD_EXIT_FAIL, "proxy: %s", msg);
	l->exit_code = GD_EXIT_FAIL;
	return -EIO;
}

static int start_producers(struct run *r, uint64_t lat_n, uint64_t *lat_ns)
{
	const struct gd_init_opts *o = &r->l->cfg.init;

	if (r->st->gp)
		return lat_ns ? gd_gpu_prod_start_lat(r->st->gp, &r->a, lat_n, lat_ns)
			      : gd_gpu_prod_start(r->st->gp, &r->a, o->scope, o->ctas, o->threads);
	return lat_ns ? gd_host_prod_start_lat(&r->a, lat_n, lat_ns, &r->h)
		      : gd_host_prod_start(&r->a, o->ctas, NULL, 0, &r->h);
}

/* lat_ns: n samples where the producers write them (mapped for the GPU). */
static int produce(struct run *r, uint64_t lat_n, uint64_t *lat_ns, uint64_t *ns)
{
	int ret, code;

	ret = start_producers(r, lat_n, lat_ns);
	if (ret && !r->st->gp && !r->h)
		return ret;
	if (ret) { /* a launch failed: the proxy threads still end cleanly */
		gd_proxy_stop_producers(r->px);
		code = r->st->gp ? ret : gd_host_prod_finish(r->h, ns);
	} else {
		ret = watch(r);
		code = r->st->gp ? gd_gpu_prod_finish(r->st->gp, r->px, r->max_ns, ns)
				 : gd_host_prod_finish(r->h, ns);
	}
	r->h = NULL;
	if (gd_proxy_join(r->px)) { /* said; nothing it may touch is freed (bench_rt.h) */
		gd_bench_abandon = 1;
		return -ETIMEDOUT;
	}
	if (ret && !code)
		return ret;
	if (code || gd_proxy_error(r->px))
		return report_fault(r, code);
	return 0;
}

/* Issue and completion rates on the producers' clock (prod.h). */
static void rates(const struct run *r, uint64_t total, struct gd_bw_result *res)
{
	const struct gd_prod_clock *k = &r->sh->clock;

	if (!k->start || k->issued <= k->start || k->quiet <= k->start)
		return;
	res->issue_rate = (double)total * 1e9 / (double)(k->issued - k->start);
	res->completion_rate = (double)total * 1e9 / (double)(k->quiet - k->start);
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
	rates(&r, total, res);
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

/* The latency samples where the producers write them: mapped for the GPU. */
static uint64_t *samples_alloc(const struct pb_state *st, uint64_t n, uint64_t **dev)
{
	uint64_t *p;

	if (st->gp)
		return gd_gpu_prod_mapped(st->gp, n * sizeof(*p), (void **)dev);
	p = calloc(n, sizeof(*p));
	*dev = p;
	return p;
}

static void samples_free(const struct pb_state *st, uint64_t *p)
{
	if (st->gp)
		gd_gpu_prod_free_mapped(st->gp, p);
	else
		free(p);
}

static int proxy_run_lat(struct gd_loop *l, uint64_t size, double **samples, size_t *n)
{
	const struct gd_loop_cfg *c = &l->cfg;
	uint64_t *ns, *dev = NULL;
	struct run r;
	int ret;

	*samples = NULL;
	*n = 0;
	if (!c->initiator)
		return c->receiver ? drain_receives(l, c->iters) : 0;
	ret = run_open(&r, l, size);
	ns = samples_alloc(r.st, c->iters, &dev);
	*samples = calloc(c->iters, sizeof(**samples));
	if (!ret && (!ns || !*samples))
		ret = -ENOMEM;
	if (!ret) {
		r.a.ngroups = 1;
		r.a.per_group = c->iters;
		ret = produce(&r, c->iters, dev, NULL);
	} else {
		l->exit_code = GD_EXIT_FAIL;
	}
	for (uint64_t i = 0; !ret && i < c->iters; i++)
		(*samples)[i] = (double)ns[i] / 1000.0;
	samples_free(r.st, ns);
	run_close(&r);
	if (ret) {
		free(*samples);
		*samples = NULL;
		return ret;
	}
	*n = c->iters;
	return 0;
}

static void host_producer(struct pb_state *st, const char *why)
{
	if (why != st->why)
		snprintf(st->why, sizeof(st->why), "%s", why);
	st->ini.producer = GD_HOST_PRODUCER_LABEL;
	st->ini.producer_kind = "host";
}

/* --producer auto: does CUDA find a device? No: why not, in *why. */
static bool cuda_finds_device(char *why, size_t len)
{
#ifndef HAVE_CUDA_TOOLKIT
	snprintf(why, len, "default: this gdperf was built without nvcc (no GPU producer kernel)");
	return false;
#else
	int count = 0;

	if (gd_cuda_load(true)) {
		snprintf(why, len, "default: %s", gd_cuda_load_error()); /* "no CUDA driver: ..." */
		return false;
	}
	if (gd_cuda_device_count(&count) || count <= 0) {
		snprintf(why, len, "default: CUDA finds no device");
		return false;
	}
	return true;
#endif
}

/* Host producers are one thread per CTA: at most this many (issue 19, M2:
 * --ctas 65535 failed at thread 32686 after minutes), 4 per CPU, at least 256. */
static uint32_t host_ctas_max(void)
{
	long n = sysconf(_SC_NPROCESSORS_ONLN);

	return n > 64 ? (uint32_t)n * 4 : 256;
}

/* Host producers, and why; refused when the grid asks for more threads than the host runs. */
static int use_host(const struct gd_loop_cfg *c, struct pb_state *st, const char *why)
{
	host_producer(st, why);
	if (c->init.ctas <= host_ctas_max())
		return 0;
	gd_error("--ctas %u with host producers (%s): one host thread per CTA, at most %u here "
		 "(4 per CPU, or 256 on a smaller host); lower --ctas", c->init.ctas, why, host_ctas_max());
	return -EINVAL;
}

/* The smallest write or send the GPU producer drives with GPU memory over a
 * provider that copies it with CUDA: measured on libfabric 1.22 shm, H200,
 * both processes on one GPU (doc/perf-data/2026-11-29-s36-h200): 4 and 8 KiB
 * writes and sends ran at 420 msg/s (one per GPU time slice, 2.38 ms) and an
 * 8 B write stalled; 64 KiB ran at the cpu initiator's rate. Between them
 * nothing was measured: refused. */
#define GPU_PROD_COPY_MIN 65536u

/* The producer's side and the target's as the rule on CUDA copies reads them
 * (fabric_rule.h gd_fabric_ofi_gpu_copies), and its verdict. The producer's
 * GPU is described without making a context: its PCI address, and whether this
 * process's contexts there are MPS clients (CU_DEVICE_ATTRIBUTE_MPS_ENABLED).
 * The target is its HELLO's (c->peer) once known; before, this side stands in
 * for it: its buffer on the producer's GPU when this side's is GPU memory, an
 * MPS client when this side is (both sides alike, as every measured run was). */
static enum gd_gpu_copies copies_verdict(const struct gd_loop_cfg *c, struct gd_gpu_side *prod)
{
	struct gd_gpu_side like_this = { 0 };
	struct gd_cuda_dev info;
	int count = 0;

	memset(prod, 0, sizeof(*prod));
	if (!gd_fabric_ofi_copies_gpu(c->provider)) /* the rule's first clause: no CUDA asked */
		return GD_GPU_COPIES_NONE;
	if (!gd_cuda_load(true) && !gd_cuda_device_count(&count) && c->producer_cuda >= 0 &&
	    c->producer_cuda < count && !gd_cuda_device_info(c->producer_cuda, &info)) {
		snprintf(prod->gpu, sizeof(prod->gpu), "%s", info.pci);
		prod->mps = info.mps == 1;
	}
	if (c->gpu_mem)
		like_this = *prod;
	return gd_fabric_ofi_gpu_copies(c->provider, prod, c->peer_known ? &c->peer : &like_this);
}

/* Why the CUDA producer kernel cannot drive this run, in why, and the way
 * round in fix (false: it can). The rule (copies_verdict) says whether the
 * target's CUDA copies share the producer's GPU and whether MPS lets them run
 * beside the kernel. The producers run on a stream of their own (gpu_prod.c),
 * so this process's copies do not wait for them; what waits is CUDA work in
 * the target's process on the same GPU: two processes' contexts take the GPU
 * in turns, each copy there waiting for the producer kernel's time slice to
 * end (doc/perf-data/2026-11-30-s43-gpu8-h200, H200: an 8 B host-to-device
 * cudaMemcpy 2,379 us beside another process's spinning kernel, 5.3 us alone
 * or under MPS). Without MPS shm runs each atomic there (420 atomics/s, a
 * latency round 2,382 us) and places smaller writes and sends there: refused;
 * reads, send latency and 64 KiB writes and sends run. Under MPS on both sides
 * every op runs validated at the cpu initiator's rate over shm (the GPU tier's
 * gpu-mps cells); a target outside MPS there crawled at one op per slice:
 * refused, whatever the op. */
static bool gpu_producer_refused(const struct gd_loop_cfg *c, char *why, size_t len, char *fix,
				 size_t fix_len)
{
	enum gd_bench_op op = c->op->op;
	struct gd_gpu_side prod;
	/* both roles named: the peer prints this text as its reason too (check_peer) */
	const char *self = c->client ? "client" : "server", *peer = c->client ? "server" : "client";

	switch (copies_verdict(c, &prod)) {
	case GD_GPU_COPIES_NONE:
	case GD_GPU_COPIES_MPS:
		return false;
	case GD_GPU_COPIES_TARGET_OUTSIDE_MPS:
		snprintf(why, len, "the %s is an MPS client on the producer's GPU %s, the %s is not: "
			 "its CUDA copies into its buffer on that GPU wait for the producer kernel's "
			 "time slice, one op per 2.4 ms", self, prod.gpu, peer);
		snprintf(fix, fix_len, "start the %s under the same MPS daemon as the %s (the same "
			 "CUDA_MPS_PIPE_DIRECTORY), or use --producer host", peer, self);
		return true;
	case GD_GPU_COPIES_WAIT:
		break;
	}
	/* the target's buffer is what waits: once its HELLO is in, its --use_cuda */
	snprintf(fix, fix_len, "use --producer host, or host memory (drop %s--use_cuda), %sor a NIC "
		 "with GPUDirect (--fabric verbs, or libfabric's efa)", !c->peer_known ? "" :
		 c->client ? "the server's " : "the client's ",
		 gd_fabric_ofi_mps_validated(c->provider) ? "or run both sides under MPS "
		 "(nvidia-cuda-mps-control -d), " : "");
	if (op == GD_OP_ATOMIC) {
		snprintf(why, len, "the provider runs each atomic in the target's process, whose "
			 "CUDA copies wait for a GPU time slice while the producer kernel runs");
		return true;
	}
	if ((op == GD_OP_WRITE || (op == GD_OP_SEND && c->kind == GD_KIND_BW)) &&
	    c->first_size < GPU_PROD_COPY_MIN) {
		snprintf(why, len, "%s below %u B wait for CUDA copies in the target's process, "
			 "one per GPU time slice while the producer kernel runs; give -s %u or more",
			 op == GD_OP_WRITE ? "writes" : "sends", GPU_PROD_COPY_MIN, GPU_PROD_COPY_MIN);
		return true;
	}
	return false;
}

/* The producer this side runs, decided without opening the GPU (*gpu: the
 * CUDA kernel); a refusal is printed. */
static int decide_producer(const struct gd_loop_cfg *c, struct pb_state *st, bool *gpu)
{
	enum gd_producer want = c->init.producer;
	char no_gpu[256], fix[192];

	*gpu = false;
	if (want == GD_PRODUCER_HOST)
		return use_host(c, st, "--producer host");
	if (gpu_producer_refused(c, no_gpu, sizeof(no_gpu), fix, sizeof(fix))) {
		if (want == GD_PRODUCER_GPU) {
			gd_error("--initiator=proxy --producer gpu with GPU memory over libfabric %s: "
				 "%s; %s", c->dev_name, no_gpu, fix);
			return -ENOTSUP;
		}
		snprintf(st->why, sizeof(st->why), "default: GPU memory over this provider: %s",
			 no_gpu);
		return use_host(c, st, st->why);
	}
	if (want == GD_PRODUCER_AUTO && !cuda_finds_device(st->why, sizeof(st->why)))
		return use_host(c, st, st->why);
	*gpu = true;
	return 0;
}

static int no_gpu_producer(int dev, const char *why)
{
	gd_error("--initiator=proxy: cannot run the CUDA producer kernel on CUDA device %d "
		 "(%s); use --producer host, or fix the GPU (gd_doctor --check cuda.driver)", dev, why);
	return -ENODEV;
}

/* The initiating side picks its producer once: the CUDA kernel on the GPU
 * of --use_cuda (else CUDA device 0), or host threads. */
static int choose_producer(const struct gd_loop_cfg *c, struct pb_state *st)
{
	int dev = c->producer_cuda, ret;
	bool gpu;

	ret = decide_producer(c, st, &gpu);
	if (ret || !gpu)
		return ret;
	ret = gd_gpu_prod_open(dev, &st->gp);
	if (ret)
		return no_gpu_producer(dev, ret == -ENOSYS ? "built without nvcc" : "no usable CUDA GPU");
	snprintf(st->why, sizeof(st->why), "%s, the CUDA producer kernel on %s%s",
		 c->init.producer == GD_PRODUCER_GPU ? "--producer gpu" : "default: CUDA found a device",
		 gd_gpu_prod_name(st->gp), copies_verdict(c, &(struct gd_gpu_side){ 0 }) == GD_GPU_COPIES_MPS ?
		 " (GPU memory over a provider's CUDA copies: the GPU shared through MPS)" : "");
	st->ini.producer = gd_gpu_prod_name(st->gp);
	st->ini.producer_kind = "gpu";
	return 0;
}

/* Before this side waits for its peer (issue 30 item 6, hostile D27): the
 * producer's choice and its refusals, and a GPU producer where CUDA finds no
 * device (a server of a -b or latency run used to wait for a client first). */
static int pb_check_alone(const struct gd_loop_cfg *c)
{
	struct pb_state st = { 0 };
	char why[256];
	bool gpu;
	int ret = decide_producer(c, &st, &gpu);

	if (ret || !gpu || cuda_finds_device(why, sizeof(why)))
		return ret;
	/* cuda_finds_device words it as the default's reason: "default: ..." */
	return no_gpu_producer(c->producer_cuda, strncmp(why, "default: ", 9) ? why : why + 9);
}

static int pb_attach(const struct gd_loop_attach *a, void **state)
{
	struct pb_state *st = calloc(1, sizeof(*st));

	*state = st;
	if (!st)
		return -ENOMEM;
	st->ini.producer_why = st->why;
	return choose_producer(a->cfg, st);
}

static const struct gd_report_initiator *pb_describe(const void *state)
{
	return state ? &((const struct pb_state *)state)->ini : NULL;
}

static void pb_detach(void *state)
{
	struct pb_state *st = state;

	if (!st)
		return;
	gd_gpu_prod_close(st->gp);
	free(st);
}

/* The proxy initiator behind the engine's loop seam (loop.h). */
const struct gd_loop_ops gd_loop_proxy = {
	.name = "proxy",
	.run_bw = proxy_run_bw,
	.run_lat = proxy_run_lat,
	.check_alone = pb_check_alone,
	.check_peer = pb_check_alone, /* again, with the target's buffer from its HELLO */
	.attach = pb_attach,
	/* no connect: the proxy posts on the bench's own QPs, connected as usual */
	.describe = pb_describe,
	.detach = pb_detach,
};
