/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The benchmark lifecycle shared by all eight tools:
 *   parse -> side channel (HELLO: parameters must match) -> device, GID,
 *   buffers, MR, QPs -> CONN exchange per QP (or rdma_cm with -R, the side
 *   channel still carrying HELLO, CONN for rkeys/addresses, barriers and
 *   results) -> barrier -> run each size -> RESULTS exchange -> report ->
 *   --validate -> final barrier -> teardown in reverse order.
 */
#include "config.h"

#include "bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_int.h"
#include "bench_opts.h"
#include "bench_report.h"
#include "gd.h"
#include "gid.h"
#include "log.h"
#include "oob.h"
#include "opts.h"
#include "sysfs.h"
#include "gpu_mem.h"

volatile sig_atomic_t gd_bench_stop;
struct gd_clock gd_clock;

const char *gd_clock_init(void)
{
#if defined(__x86_64__) || defined(__i386__)
	const char *env = getenv("GDPERF_CLOCK");
	struct timespec nap = { 0, 20000000 };
	uint64_t n0, n1, t0, t1;
	double tpus;

	if (env && strcmp(env, "tsc"))
		return "CLOCK_MONOTONIC_RAW (GDPERF_CLOCK)";
	n0 = gd_clock_mono_ns();
	t0 = __builtin_ia32_rdtsc();
	nanosleep(&nap, NULL);
	n1 = gd_clock_mono_ns();
	t1 = __builtin_ia32_rdtsc();
	tpus = n1 > n0 ? (double)(t1 - t0) / ((double)(n1 - n0) / 1000.0) : 0;
	if (t1 <= t0 || tpus < 100 || tpus > 20000)
		return "CLOCK_MONOTONIC_RAW (the TSC rate looked wrong)";
	gd_clock.ns_per_tick = 1000.0 / tpus;
	gd_clock.tsc0 = t1;
	gd_clock.ns0 = n1;
	gd_clock.tsc = 1;
	return "TSC calibrated against CLOCK_MONOTONIC_RAW";
#else
	return "CLOCK_MONOTONIC_RAW";
#endif
}

static void on_sigint(int sig)
{
	(void)sig;
	gd_bench_stop = 1; /* a timed run ends cleanly; side-channel waits give up */
}

/* Map a setup failure to an exit code (gd.h). */
static int setup_exit_code(int err)
{
	switch (err) {
	case -ENODEV:
	case -ENETDOWN:
	case -EPERM:
	case -EACCES:
	case -ENOTSUP:
	case -ENOMEM:
	case -ENOENT:
		return GD_EXIT_ENV;
	default:
		return GD_EXIT_USAGE;
	}
}

static int pin_cores(const char *list)
{
	cpu_set_t set;
	const char *s = list;

	CPU_ZERO(&set);
	while (*s) {
		char *end;
		long a = strtol(s, &end, 10), z;

		if (end == s || a < 0 || a >= CPU_SETSIZE)
			goto bad;
		z = a;
		if (*end == '-') {
			s = end + 1;
			z = strtol(s, &end, 10);
			if (end == s || z < a || z >= CPU_SETSIZE)
				goto bad;
		}
		for (long c = a; c <= z; c++)
			CPU_SET(c, &set);
		s = end;
		if (*s == ',')
			s++;
		else if (*s)
			goto bad;
	}
	if (sched_setaffinity(0, sizeof(set), &set) < 0) {
		gd_error("cannot pin to cores %s (--pin_cores): %s; check the list against nproc",
			 list, strerror(errno));
		return -EINVAL;
	}
	return 0;
bad:
	gd_error("invalid --pin_cores list '%s': expected e.g. 0,2-3", list);
	return -EINVAL;
}

/* perftest's default placement: the CPUs of the NIC's NUMA node, when it has one. */
static void pin_numa(const struct gd_bench *b)
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
	if (pin_cores(cpus) == 0 && gd_log_verbose())
		gd_info("running on the CPUs of %s's NUMA node %d: %s", b->conn.dev_name, node, cpus);
}

static uint64_t max_size(const struct gd_bench_params *p)
{
	return p->all_sizes ? GD_BENCH_MAX_SIZE_ALL : p->size;
}

static int setup_buffers(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;
	enum gd_buf_kind kind = p->use_hugepages ? GD_BUF_HUGEPAGE : GD_BUF_HOST;
	int ret;

	if (p->use_cuda != GD_CUDA_NONE || p->cuda_bus_id[0])
		kind = GD_BUF_CUDA;
	b->slot = (max_size(p) + 63) / 64 * 64;
	if (b->slot < 64)
		b->slot = 64;
	ret = gd_buf_alloc(&b->buf, kind, b->slot * 2 * p->num_qps, p);
	if (ret)
		return ret;
	return gd_buf_register(&b->buf, b->conn.pd, gd_mem_access(p));
}

/* Fill the regions the peer will read or that my sends/writes carry. */
static int fill_pattern(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;

	if (b->buf.kind == GD_BUF_CUDA && !p->validate)
		return 0;
	for (uint32_t i = 0; i < p->num_qps; i++) {
		size_t loc = (size_t)(gd_bench_local(b, i) - (uint8_t *)b->buf.addr);
		int ret = 0;

		if (p->op == GD_OP_READ) {
			if (b->roles.target)
				ret = gd_buf_fill(&b->buf, loc + b->slot, b->slot, 0);
		} else if (p->op != GD_OP_ATOMIC && b->roles.initiator) {
			ret = gd_buf_fill(&b->buf, loc, b->slot, 0);
		}
		if (ret)
			return ret;
	}
	return 0;
}

static void init_qp_runs(struct gd_bench *b)
{
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		struct gd_qp_run *q = &b->q[i];

		memset(q, 0, sizeof(*q));
		q->index = i;
		q->qp = b->conn.qp[i];
		q->local_addr = (uintptr_t)gd_bench_local(b, i);
		q->recv_addr = (uintptr_t)gd_bench_target(b, i);
		q->lkey = b->buf.mr->lkey;
		q->remote_addr = b->remote[i].vaddr;
		q->rkey = b->remote[i].rkey;
		q->op = b->p.op;
		q->atype = b->p.atomic_type;
		q->with_imm = b->p.write_with_imm || b->p.send_with_imm;
		q->size = (uint32_t)GD_MIN(max_size(&b->p), b->slot);
		gd_ops_prepare(q, b->p.post_list);
		/* receives take any size of the sweep */
		q->rsge.length = (uint32_t)b->slot;
	}
}

static int post_initial_recvs(struct gd_bench *b)
{
	if (!b->roles.receiver)
		return 0;
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		int ret = gd_ops_post_recv(&b->q[i], b->p.rx_depth);
		if (ret)
			return ret;
	}
	return 0;
}

/* Each QP's number, PSN, GID, buffer address and rkey go to the peer, and its
 * come back; then the receives are posted. */
static int exchange_buffers(struct gd_bench *b)
{
	int ret;

	for (uint32_t i = 0; i < b->p.num_qps; i++)
		gd_conn_local_info(&b->conn, i, b->buf.mr->rkey,
				   (uintptr_t)gd_bench_target(b, i), &b->local[i]);
	ret = gd_oob_exchange_conn(b->oob, b->local, b->remote, b->p.num_qps);
	if (ret)
		return ret;
	init_qp_runs(b);
	return post_initial_recvs(b);
}

static int connect_oob(struct gd_bench *b)
{
	int ret;

	ret = gd_conn_create_qps(&b->conn, &b->p);
	if (ret)
		return ret;
	ret = exchange_buffers(b);
	if (ret)
		return ret;
	for (uint32_t i = 0; i < b->p.num_qps; i++) {
		ret = gd_conn_connect(&b->conn, &b->p, i, &b->local[i], &b->remote[i]);
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
	if (b->p.role == GD_ROLE_SERVER) {
		ret = gd_oob_barrier(b->oob); /* I listen: the client may connect */
		if (ret)
			return ret;
		ret = gd_cm_accept(&b->cm, &b->conn, &b->p);
	} else {
		ret = gd_oob_barrier(b->oob);
		if (ret)
			return ret;
		ret = gd_cm_connect(&b->cm, &b->conn, &b->p);
	}
	if (ret)
		return ret;
	gd_cm_update_conn(&b->cm, &b->conn);
	return exchange_buffers(b);
}

int gd_bench_send_bw_results(struct gd_bench *b, const struct gd_bw_result *res)
{
	struct gd_wire_results r;

	memset(&r, 0, sizeof(r));
	r.status = 0;
	r.kind = GD_KIND_BW;
	r.bw.size = res->size;
	r.bw.iters = res->iters;
	r.bw.ops = res->ops;
	r.bw.bw_peak = res->peak_Bps;
	r.bw.bw_avg = res->avg_Bps;
	r.bw.msgrate = res->msg_rate;
	return gd_oob_send_results(b->oob, &r);
}

static int recv_bw_results(struct gd_bench *b, struct gd_bw_result *peer, int timeout_ms)
{
	struct gd_wire_results r;
	int ret = gd_oob_recv_results(b->oob, &r, timeout_ms);

	if (ret) {
		if (ret == -ECONNABORTED)
			b->exit_code = gd_oob_peer_exit_code(b->oob) ?: GD_EXIT_FAIL;
		else if (!b->exit_code)
			b->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	memset(peer, 0, sizeof(*peer));
	if (r.kind != GD_KIND_BW) {
		gd_error("the peer sent latency results to a bandwidth test");
		b->exit_code = GD_EXIT_USAGE;
		return -EPROTO;
	}
	peer->size = r.bw.size;
	peer->iters = r.bw.iters;
	peer->ops = r.bw.ops;
	peer->peak_Bps = r.bw.bw_peak;
	peer->avg_Bps = r.bw.bw_avg;
	peer->msg_rate = r.bw.msgrate;
	return 0;
}

/* How long a passive side waits for its peer's results. */
static int passive_timeout_ms(const struct gd_bench_params *p)
{
	if (p->run_infinitely)
		return -1;
	if (p->duration_s)
		return (int)(p->duration_s * 1000 + p->timeout_ms);
	return -1; /* an iteration run has no known length: a dead peer ends it (EOF) */
}

static int check_limits(struct gd_bench *b, const struct gd_bw_result *r)
{
	double bw = gd_bench_report_bw_value(b, r->avg_Bps);
	double mr = r->msg_rate / 1e6;
	int fail = 0;

	if (b->p.limit_bw > 0 && bw < b->p.limit_bw) {
		gd_error("average bandwidth %.2f %s is below the limit %.2f (--limit_bw)", bw,
			 b->p.report_gbits ? "Gb/s" : "MiB/s", b->p.limit_bw);
		fail = 1;
	}
	if (b->p.limit_msgrate > 0 && mr < b->p.limit_msgrate) {
		gd_error("message rate %.6f Mpps is below the limit %.6f (--limit_msgrate)", mr,
			 b->p.limit_msgrate);
		fail = 1;
	}
	return fail;
}

/* A new entry of the result model (NULL when full: the sweep has 23 sizes). */
static struct gd_bench_size_result *next_result(struct gd_bench *b, uint64_t size)
{
	struct gd_bench_size_result *r;

	if (b->res->nsizes >= GD_BENCH_MAX_SIZES)
		return NULL;
	r = &b->res->sizes[b->res->nsizes++];
	memset(r, 0, sizeof(*r));
	r->size = size;
	return r;
}

static void record_bw(struct gd_bench *b, uint64_t size, const struct gd_bw_result *mine,
		      const struct gd_bw_result *peer)
{
	bool active = b->roles.initiator || b->roles.receiver;
	struct gd_bench_size_result *r = next_result(b, size);
	const struct gd_bw_result *shown = active ? mine : peer;

	if (!r)
		return;
	r->has_local = active;
	r->local = *mine;
	r->has_peer = true;
	r->peer = *peer;
	r->iters = shown->iters;
	r->bw_avg_Bps = shown->avg_Bps;
	r->bw_peak_Bps = shown->peak_Bps;
	r->msg_rate = shown->msg_rate;
	if (b->p.bidirectional) {
		r->bw_avg_Bps += peer->avg_Bps;
		r->msg_rate += peer->msg_rate;
		r->bw_peak_Bps = mine->peak_Bps > 0 && peer->peak_Bps > 0 ?
				 mine->peak_Bps + peer->peak_Bps : 0;
	}
}

static int one_bw_size(struct gd_bench *b, uint64_t size, uint64_t *ops_total)
{
	struct gd_bw_result mine, peer;
	bool active = b->roles.initiator || b->roles.receiver, sent = false;
	int ret;

	if (active) {
		ret = gd_bench_run_bw(b, size, &mine, &sent);
		if (ret)
			return ret;
		if (!sent) {
			ret = gd_bench_send_bw_results(b, &mine);
			if (ret)
				return ret;
		}
		ret = recv_bw_results(b, &peer, (int)b->p.timeout_ms);
		if (ret)
			return ret;
	} else {
		ret = recv_bw_results(b, &peer, passive_timeout_ms(&b->p));
		if (ret)
			return ret;
		memset(&mine, 0, sizeof(mine));
		mine.size = size;
		ret = gd_bench_send_bw_results(b, &mine);
		if (ret)
			return ret;
	}
	*ops_total += peer.ops;
	record_bw(b, size, &mine, &peer);
	if (b->p.bidirectional)
		gd_bench_report_bw_line(b, &mine, &peer);
	else if (b->roles.initiator || b->roles.receiver)
		gd_bench_report_bw_line(b, &mine, NULL);
	else
		gd_bench_report_bw_line(b, &peer, NULL); /* passive: the client's numbers */
	if (b->p.bidirectional || b->roles.initiator || b->roles.receiver)
		b->exit_code = b->exit_code ?: (check_limits(b, b->roles.initiator ||
							      b->roles.receiver ? &mine : &peer) ?
						GD_EXIT_FAIL : 0);
	return 0;
}

static int one_lat_size(struct gd_bench *b, uint64_t size, uint64_t *ops_total)
{
	const struct gd_bench_params *p = &b->p;
	double *samples = NULL;
	size_t n = 0;
	struct gd_bw_result peer, none;
	int ret;
	bool active = b->roles.initiator || b->p.op == GD_OP_WRITE || b->p.op == GD_OP_SEND;

	if (active) {
		ret = gd_bench_run_lat(b, size, &samples, &n);
		if (ret)
			return ret;
	}
	memset(&none, 0, sizeof(none));
	none.size = size;
	none.ops = n;
	if (active) {
		ret = gd_bench_send_bw_results(b, &none);
		if (!ret)
			ret = recv_bw_results(b, &peer, (int)b->p.timeout_ms);
	} else {
		ret = recv_bw_results(b, &peer, passive_timeout_ms(&b->p));
		if (!ret)
			ret = gd_bench_send_bw_results(b, &none);
	}
	if (!ret)
		*ops_total += peer.ops;
	if (!ret && n) {
		struct gd_bench_size_result *r = next_result(b, size);

		if (r && gd_lat_stats_compute(samples, n, &r->lat) == 0) {
			r->has_lat = true;
			r->iters = p->duration_s ? n : p->iters;
		}
	}
	if (!ret)
		gd_bench_report_lat(b, size, samples, n);
	free(samples);
	return ret;
}

static int validate(struct gd_bench *b, uint64_t last_size, uint64_t peer_ops)
{
	const struct gd_bench_params *p = &b->p;
	bool write_lat = p->op == GD_OP_WRITE && p->kind == GD_KIND_LAT && !p->write_with_imm;

	for (uint32_t i = 0; i < p->num_qps; i++) {
		size_t loc = (size_t)(gd_bench_local(b, i) - (uint8_t *)b->buf.addr);
		size_t off = 0, len = last_size, bad = 0;
		int ret;

		if (p->op == GD_OP_ATOMIC)
			break;
		if (p->op == GD_OP_READ) {
			if (!b->roles.initiator)
				continue;
			off = loc;
		} else {
			if (!(b->roles.target || b->roles.receiver))
				continue;
			if (p->op == GD_OP_WRITE && p->write_with_imm && !b->roles.target)
				continue;
			off = loc + b->slot;
			if (write_lat)
				len = last_size - 1; /* the last byte carries the ping-pong counter */
		}
		ret = gd_buf_verify(&b->buf, off, len, 0, &bad);
		if (ret == -EBADMSG) {
			uint8_t got = 0; /* through gd_buf_read: the buffer may be GPU memory */

			gd_buf_read(&b->buf, off + bad, &got, 1);
			gd_error("validation failed: QP %u, first bad byte at offset %zu of the %s "
				 "buffer: got 0x%02x, expected 0x%02x", i, bad,
				 p->op == GD_OP_READ ? "read" : "received", got, gd_pattern_byte(bad));
			return -EBADMSG;
		}
		if (ret)
			return ret;
	}
	if (p->op == GD_OP_ATOMIC && b->roles.target) {
		uint64_t sum = 0;
		for (uint32_t i = 0; i < p->num_qps; i++) {
			uint64_t v = 0;
			int ret = gd_buf_get_u64(&b->buf, (size_t)(gd_bench_target(b, i) -
						 (uint8_t *)b->buf.addr), &v);
			if (ret)
				return ret;
			sum += v;
		}
		if (sum != peer_ops) {
			gd_error("validation failed: the atomic counters hold %llu but the peer "
				 "completed %llu %s operations (offset 0 of the target buffer)",
				 (unsigned long long)sum, (unsigned long long)peer_ops,
				 gd_atomic_type_name(p->atomic_type));
			return -EBADMSG;
		}
	}
	if (gd_log_verbose())
		gd_info("validation passed");
	return 0;
}

static void teardown(struct gd_bench *b)
{
	if (b->p.conn == GD_CONN_RDMA_CM)
		gd_cm_close(&b->cm);
	gd_conn_close_qps(&b->conn);
	if (b->buf.addr)
		gd_buf_free(&b->buf);
	gd_conn_close(&b->conn);
	if (b->p.conn == GD_CONN_RDMA_CM)
		gd_cm_release(&b->cm);
	if (b->oob)
		gd_oob_close(b->oob);
	free(b->q);
	free(b->local);
	free(b->remote);
}

static int setup(struct gd_bench *b)
{
	struct gd_bench_params *p = &b->p;
	struct sockaddr_storage peer;
	socklen_t plen = sizeof(peer);
	struct ibv_context *ctx = NULL;
	int ret;

	/* the device first: a missing device or a port down fails at once (exit 3) */
	if (p->conn == GD_CONN_RDMA_CM) {
		ret = gd_cm_init(&b->cm, p, &ctx);
		if (ret)
			return ret;
	}
	ret = gd_conn_open(&b->conn, p, ctx);
	if (ret)
		return ret;
	if (!p->pin_cores[0])
		pin_numa(b);
	if (p->role == GD_ROLE_SERVER) {
		ret = gd_oob_listen(p, &b->oob);
		if (ret)
			return ret;
		if (p->output == GD_OUTPUT_FULL && !p->json)
			gd_bench_report_waiting(b);
		ret = gd_oob_accept(b->oob, -1);
	} else {
		ret = gd_oob_open(p, -1, &b->oob);
	}
	if (ret)
		return ret;
	ret = gd_oob_hello(b->oob, p, NULL);
	if (ret)
		return ret;
	snprintf(b->peer, sizeof(b->peer), "%s", gd_oob_peer_name(b->oob));
	if (gd_oob_peer_addr(b->oob, &peer, &plen))
		plen = 0;
	ret = gd_conn_choose_gid(&b->conn, p, plen ? (struct sockaddr *)&peer : NULL);
	if (ret) {
		gd_oob_send_error(b->oob, setup_exit_code(ret), "cannot choose a GID on %s",
				  b->conn.dev_name);
		return ret;
	}
	b->tx_depth = p->kind == GD_KIND_LAT ? 1 : (uint32_t)GD_MIN((uint64_t)p->tx_depth,
			p->duration_s || p->run_infinitely ? UINT64_MAX : p->iters);
	if (b->tx_depth < p->post_list)
		b->tx_depth = p->post_list;
	b->cq_mod = GD_MIN(p->cq_mod, b->tx_depth);
	if (!b->cq_mod)
		b->cq_mod = 1;
	ret = gd_conn_alloc(&b->conn, p);
	if (ret)
		return ret;
	ret = setup_buffers(b);
	if (ret)
		return ret;
	ret = fill_pattern(b);
	if (ret)
		return ret;
	b->q = calloc(p->num_qps, sizeof(*b->q));
	b->local = calloc(p->num_qps, sizeof(*b->local));
	b->remote = calloc(p->num_qps, sizeof(*b->remote));
	if (!b->q || !b->local || !b->remote)
		return -ENOMEM;
	if (p->conn == GD_CONN_RDMA_CM)
		ret = connect_cm(b);
	else
		ret = connect_oob(b);
	if (ret)
		return ret;
	return gd_oob_barrier(b->oob);
}

static int run_all(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;
	uint64_t first = p->all_sizes ? 2 : p->size, last = max_size(p), size, ops = 0;
	int ret = 0;

	if (p->output == GD_OUTPUT_FULL && !p->json)
		gd_bench_report_header(b);
	gd_progress_init(&b->progress, b->out &&
			 (p->duration_s || p->run_infinitely || p->all_sizes));
	for (size = first; size <= last; size *= 2) {
		if (p->op == GD_OP_ATOMIC)
			size = GD_BENCH_ATOMIC_SIZE;
		if (p->all_sizes && p->output == GD_OUTPUT_FULL)
			gd_progress_update(&b->progress, gd_now_ns(), "%s: size %llu", gd_progname(),
					   (unsigned long long)size);
		ret = p->kind == GD_KIND_BW ? one_bw_size(b, size, &ops) : one_lat_size(b, size, &ops);
		if (ret)
			break;
		if (size == last || p->op == GD_OP_ATOMIC)
			break;
		ret = gd_oob_barrier(b->oob);
		if (ret)
			break;
	}
	gd_progress_done(&b->progress);
	if (ret)
		return ret;
	if (p->output == GD_OUTPUT_FULL && !p->json)
		gd_bench_report_footer(b);
	if (p->validate) {
		ret = validate(b, p->op == GD_OP_ATOMIC ? 8 : last, ops);
		if (ret) {
			gd_oob_send_error(b->oob, GD_EXIT_FAIL, "validation failed on its side");
			b->exit_code = GD_EXIT_FAIL;
			return ret;
		}
	}
	ret = gd_oob_barrier(b->oob);
	if (ret == -ECONNABORTED)
		b->exit_code = gd_oob_peer_exit_code(b->oob) ?: GD_EXIT_FAIL;
	return ret;
}

/* The plan facts, once setup has resolved them. */
static void fill_facts(struct gd_bench *b, struct gd_bench_facts *f)
{
	const struct gd_conn *c = &b->conn;

	snprintf(f->device, sizeof(f->device), "%s", c->dev_name);
	f->port = c->port;
	f->roce = c->roce;
	f->gid_index = c->gid_index;
	if (c->gid_index >= 0) {
		inet_ntop(AF_INET6, c->gid.raw, f->gid, sizeof(f->gid));
		snprintf(f->gid_type, sizeof(f->gid_type), "%s", gd_gid_type_str((enum gd_gid_type)c->gid_type));
		snprintf(f->gid_netdev, sizeof(f->gid_netdev), "%s", c->gid_netdev);
		snprintf(f->gid_choice, sizeof(f->gid_choice), "%s",
			 b->p.conn == GD_CONN_RDMA_CM ? "rdma_cm" : c->gid_auto ? "auto" : "user");
	}
	f->mtu = b->remote && b->remote[0].mtu ? GD_MIN(c->mtu, b->remote[0].mtu) : c->mtu;
	snprintf(f->memory, sizeof(f->memory), "%s", gd_buf_kind_name(b->buf.kind));
	if (b->buf.kind == GD_BUF_CUDA && b->buf.priv) {
		gd_gpu_buf_describe(&b->buf, f->gpu, sizeof(f->gpu));
		if (gd_gpu_buf_gpu(&b->buf))
			snprintf(f->gpu_path_class, sizeof(f->gpu_path_class), "%s",
				 gd_gpu_buf_gpu(&b->buf)->path_class);
	}
	f->tx_depth = b->tx_depth;
	f->rx_depth = gd_bench_uses_recv(&b->p) ? b->p.rx_depth : 0;
	f->cq_mod = b->cq_mod;
	f->max_inline = c->max_inline;
	f->out_reads = c->out_reads;
	snprintf(f->host, sizeof(f->host), "%s", b->host);
	snprintf(f->peer, sizeof(f->peer), "%s", b->peer);
}

static void init_once(void)
{
	static bool done;
	const char *clk;

	if (done)
		return;
	done = true;
	clk = gd_clock_init();
	if (gd_log_verbose())
		gd_info("timestamps: %s (%.4f ns per tick)", clk,
			gd_clock.tsc ? gd_clock.ns_per_tick : 1.0);
	srand48(getpid() ^ (long)gd_now_ns());
}

static int run_side(struct gd_bench *b)
{
	int ret;

	ret = setup(b);
	if (ret) {
		if (ret == -ECONNABORTED)
			return gd_oob_exit_code(b->oob, ret);
		return b->exit_code ?: setup_exit_code(ret);
	}
	fill_facts(b, &b->res->facts);
	b->res->facts_valid = true;
	ret = run_all(b);
	return ret ? (b->exit_code ?: GD_EXIT_FAIL) : b->exit_code;
}

int gd_bench_run_side(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res)
{
	struct gd_bench *b = calloc(1, sizeof(*b));
	int code;

	memset(res, 0, sizeof(*res));
	if (!b)
		return res->exit_code = GD_EXIT_ENV;
	b->p = *p;
	b->res = res;
	b->out = out;
	if (gd_bench_check(&b->p)) {
		free(b);
		return res->exit_code = GD_EXIT_USAGE;
	}
	if ((b->p.init.initiator == GD_INIT_IBGDA || b->p.init.initiator == GD_INIT_IBGDA_CPUDB) &&
	    !gd_ibgda_available(b->p.init.initiator)) {
		gd_error("--initiator=%s: not built: this gdperf has no IBGDA mode yet (use cpu or "
			 "proxy)", gd_initiator_name(b->p.init.initiator));
		free(b);
		return res->exit_code = GD_EXIT_ENV;
	}
	gethostname(b->host, sizeof(b->host) - 1);
	gd_mem_roles(&b->p, &b->roles);
	gd_oob_set_interrupt_flag(&gd_bench_stop);
	init_once();
	if (b->p.pin_cores[0] && pin_cores(b->p.pin_cores)) {
		free(b);
		return res->exit_code = GD_EXIT_USAGE;
	}
	code = run_side(b);
	if (out)
		fflush(out);
	teardown(b);
	free(b);
	return res->exit_code = code;
}

int gd_bench_main(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind)
{
	struct gd_bench_params p;
	struct gd_bench_result *res;
	struct sigaction sa;
	int ret;

	gd_log_init(argv[0]);
	ret = gd_bench_parse(argc, argv, op, kind, &p);
	if (ret) /* --help and --version: a write to a full disk fails like any other */
		return ret > 0 ? gd_tool_flush_stdout() : GD_EXIT_USAGE;
	res = malloc(sizeof(*res));
	if (!res)
		return GD_EXIT_ENV;
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = gd_bench_run_side(&p, stdout, res);
	free(res);
	if (gd_tool_flush_stdout() != GD_EXIT_OK && ret == GD_EXIT_OK)
		ret = GD_EXIT_ENV; /* the report did not reach its file */
	return ret;
}
