/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The benchmark lifecycle shared by all eight tools:
 *   parameters -> plan (plan.h: op table entry, roles, memory backend,
 *   loop configuration) -> device -> side channel (HELLO: parameters must
 *   match) -> GID -> the plan's device facts -> buffers, MR, QPs -> CONN
 *   exchange per QP (or rdma_cm with -R, the side channel still carrying
 *   HELLO, CONN for rkeys/addresses, barriers and results) -> barrier ->
 *   each size (bench_size.c: the loop, RESULTS exchange, result model,
 *   report) -> --validate (bench_data.c) -> final barrier -> teardown in
 *   reverse order.
 * The fabric's parts (device or domain, GID, registration, QPs or endpoints,
 * their blobs and connection, close) come through its setup table
 * (bench_fabric.h: bench_verbs.c, bench_ofi.c); the engine's steps they call
 * are bench_setup.c's. Nothing here branches on the fabric.
 */
#include "config.h"

#include "bench.h"

#include <arpa/inet.h>
#include <errno.h>
#include <sched.h>
#include <pthread.h>
#include <time.h>
#include <signal.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "bench_int.h"
#include "bench_opts.h"
#include "bench_fabric.h"
#include "bench_launch.h"
#include "gd.h"
#include "gid.h"
#include "log.h"
#include "oob.h"
#include "opts.h"

static void on_sigint(int sig)
{
	gd_bench_signal = sig; /* no further size starts; the exit code is 128 + sig */
	gd_bench_stop = 1; /* a timed run ends cleanly; side-channel waits give up */
}

/* Map a setup failure to an exit code (gd.h). A peer that did not answer within --timeout
 * during setup (its side-channel messages, its libfabric or rdma_cm connection, its first
 * message: -ETIMEDOUT, the peer named in the message) failed the run: 1, as a peer that dies
 * during the run, not a usage error (hostile D22). Nobody at the side channel's address
 * (a wrong port or host, no server) stays a configuration error: oob.c gives -ECONNREFUSED
 * or -ENOTCONN for it, not -ETIMEDOUT. */
int gd_bench_setup_exit_code(int err)
{
	switch (err) {
	case -ETIMEDOUT:
		return GD_EXIT_FAIL;
	case -ENODEV: /* also a provider refusing its objects on this device: gd_ofi_setup_err */
	case -ENETDOWN:
	case -EPERM:
	case -EACCES:
	case -ENOTSUP:
	case -ENOMEM:
	case -ENOENT:
	case -ELIBACC: /* libfabric.so.1 not loadable */
		return GD_EXIT_ENV;
	default:
		return GD_EXIT_USAGE;
	}
}

int gd_bench_pin_cores(const char *list)
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

/* The header's placement: the CPUs this side may run on, and who chose them. */
static void fill_placement(const struct gd_bench *b, char *buf, size_t len)
{
	cpu_set_t set;
	size_t n = 0;
	int a = -1;

	n += (size_t)snprintf(buf, len, "CPUs ");
	if (sched_getaffinity(0, sizeof(set), &set) < 0) {
		snprintf(buf, len, "unknown (sched_getaffinity: %s)", strerror(errno));
		return;
	}
	for (int c = 0; c <= CPU_SETSIZE && n < len; c++) {
		bool in = c < CPU_SETSIZE && CPU_ISSET(c, &set);

		if (in && a < 0)
			a = c;
		if (!in && a >= 0) {
			n += (size_t)snprintf(buf + n, len - n, "%s%d", n > 5 ? "," : "", a);
			if (c - 1 > a && n < len)
				n += (size_t)snprintf(buf + n, len - n, "-%d", c - 1);
			a = -1;
		}
	}
	if (n >= len)
		return;
	if (b->p.pin_cores[0])
		snprintf(buf + n, len - n, " (--pin_cores)");
	else if (b->numa_pinned)
		snprintf(buf + n, len - n, " (NUMA node %d of %s)", b->numa_node, b->dev.name);
	else
		snprintf(buf + n, len - n, " (not pinned: %s)",
			 b->fs->unpinned);
}

/* What this side can check alone, before it waits for its peer (issue 30 item
 * 6, hostile D27), once its buffer is taken (the fabric's take): the initiator's own
 * checks (loop.h: check_alone) on the plan completed for the device. */
static int check_alone(struct gd_bench *b)
{
	const struct gd_loop_ops *ops = b->plan.loop_ops;

	if (!ops->check_alone || !b->plan.roles.initiator)
		return 0;
	return ops->check_alone(&b->plan.loop);
}

/* The initiator's checks again with the peer's HELLO in (loop.h: check_peer):
 * a refusal reaches the peer as an ERROR with its exit code, so that it does
 * not wait for the exchange. */
static int check_peer(struct gd_bench *b)
{
	const struct gd_loop_ops *ops = b->plan.loop_ops;
	int ret;

	if (!ops->check_peer || !b->plan.roles.initiator)
		return 0;
	ret = ops->check_peer(&b->plan.loop);
	if (ret)
		gd_oob_send_error(b->oob, gd_bench_setup_exit_code(ret), "%s", gd_log_last_error());
	return ret;
}

/* A run left open for the exit (a stuck thread, bench_rt.h; a fabric's keep_open):
 * on a list, reachable until the process exits (a leak checker sees it held, not lost). */
static void keep_for_exit(struct gd_bench *b)
{
	static struct gd_bench *left_open;
	static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER; /* gd_check runs sides in threads */

	pthread_mutex_lock(&lock);
	b->left_next = left_open;
	left_open = b;
	pthread_mutex_unlock(&lock);
}

static void teardown(struct gd_bench *b)
{
	if (b->ini_state && b->plan.loop_ops->detach) /* before the PD goes */
		b->plan.loop_ops->detach(b->ini_state);
	b->fs->close(b); /* the queues and the registration before the buffer */
	if (b->buf.addr)
		gd_buf_free(&b->buf);
	b->fs->release(b);
	if (b->oob)
		gd_oob_close(b->oob);
	free(b->q);
	free(b->local);
	free(b->remote);
}

/* Where the two sides run, for the noise guard (trust.h): the CPU each is
 * pinned to, and whether the side channel's two ends have one address. */
static void note_placement(struct gd_bench *b, const struct gd_wire_hello *remote)
{
	struct sockaddr_storage l, r;
	socklen_t ll = sizeof(l), rl = sizeof(r);

	b->my_cpu = gd_trust_single_cpu(b->p.run_cpus);
	b->peer_cpu = gd_trust_single_cpu(remote->params.run_cpus);
	b->same_host = false;
	if (gd_oob_local_addr(b->oob, &l, &ll) || gd_oob_peer_addr(b->oob, &r, &rl) ||
	    l.ss_family != r.ss_family)
		return;
	if (l.ss_family == AF_INET)
		b->same_host = ((struct sockaddr_in *)&l)->sin_addr.s_addr ==
			       ((struct sockaddr_in *)&r)->sin_addr.s_addr;
	else if (l.ss_family == AF_INET6)
		b->same_host = !memcmp(&((struct sockaddr_in6 *)&l)->sin6_addr,
				       &((struct sockaddr_in6 *)&r)->sin6_addr, 16);
}

/* Where this side's buffer sits, for its HELLO (wire version 5): host memory,
 * or its GPU and whether this process is an MPS client there. */
static void note_buffer(struct gd_bench *b)
{
	const struct gd_buf_ops *ops = b->buf.ops;
	bool mps = false;

	b->p.buf_mem = GD_BUF_MEM_HOST;
	if (ops && ops->gpu && b->buf.priv && !ops->gpu(&b->buf, b->p.buf_gpu, sizeof(b->p.buf_gpu), &mps))
		b->p.buf_mem = mps ? GD_BUF_MEM_GPU_MPS : GD_BUF_MEM_GPU;
	else
		b->p.buf_gpu[0] = '\0'; /* host memory names no GPU (wire.c checks the two agree) */
}

/* The target's buffer as its HELLO says, for the rule on a GPU producer's
 * CUDA copies (fabric_rule.h): its GPU is this host's only when the side
 * channel's two ends are one address (note_placement). */
static void note_peer_buffer(struct gd_bench *b, const struct gd_wire_hello *remote)
{
	struct gd_gpu_side *t = &b->plan.loop.peer;

	memset(t, 0, sizeof(*t));
	snprintf(t->gpu, sizeof(t->gpu), "%s", remote->params.buf_gpu);
	t->mps = remote->params.buf_mem == GD_BUF_MEM_GPU_MPS;
	t->other_host = !b->same_host;
	b->plan.loop.peer_known = true;
}

/* The side channel: accept (server) or connect (client), HELLO, the GID. */
static int open_side_channel(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;
	struct gd_wire_hello *remote = malloc(sizeof(*remote));
	int ret;

	if (!remote)
		return -ENOMEM;
	gd_trust_affinity(b->p.run_cpus, sizeof(b->p.run_cpus)); /* after any pinning */
	note_buffer(b);

	if (b->fs->side_channel) {
		ret = b->fs->side_channel(b);
	} else if (p->role == GD_ROLE_SERVER) {
		ret = gd_oob_listen(p, &b->oob);
		if (ret)
			return ret;
		if (p->output == GD_OUTPUT_FULL && !p->json)
			gd_report_waiting(&b->rep);
		ret = gd_oob_accept(b->oob, -1);
	} else {
		ret = gd_oob_open(p, -1, &b->oob);
	}
	ret = ret ?: gd_oob_hello(b->oob, p, remote);
	if (!ret) {
		note_placement(b, remote);
		note_peer_buffer(b, remote);
	}
	free(remote);
	if (ret)
		return ret;
	snprintf(b->peer, sizeof(b->peer), "%s", gd_oob_peer_name(b->oob));
	return 0;
}

/* The fabric's setup (bench_fabric.h) around the engine's steps: the device or
 * domain, what this side can check alone, the side channel, the plan's device
 * facts, the QPs or endpoints connected, the setup barrier. */
static int setup(struct gd_bench *b)
{
	const struct gd_bench_fabric *f = b->fs;
	int ret = f->open(b);

	ret = ret ?: f->take(b);
	ret = ret ?: check_alone(b);
	ret = ret ?: open_side_channel(b);
	ret = ret ?: check_peer(b);
	ret = ret ?: f->joined(b);
	if (ret)
		return ret;
	ret = f->connect(b);
	ret = ret ?: gd_oob_barrier(b->oob);
	if (f->started) {
		int s = f->started(b);

		ret = ret ?: s;
	}
	return ret;
}

static int run_sizes(struct gd_bench *b, uint64_t *ops)
{
	const struct gd_bench_params *p = &b->p;
	bool sweep = p->all_sizes && p->output == GD_OUTPUT_FULL;
	int ret = 0;

	gd_progress_init(&b->progress, b->out && (p->duration_s || p->run_infinitely ||
						   p->all_sizes));
	for (uint64_t size = b->plan.first_size; size; size = gd_plan_next_size(&b->plan, size)) {
		if (sweep)
			gd_progress_update(&b->progress, gd_now_ns(), "%s: size %llu", gd_progname(),
					   (unsigned long long)size);
		ret = p->kind == GD_KIND_BW ? gd_bench_bw_size(b, size, ops) :
					      gd_bench_lat_size(b, size, ops);
		if (ret)
			break;
		if (gd_bench_signal && !p->run_infinitely) {
			/* the size in flight ended cleanly (a timed run, cut short); the rest is
			 * not run. The peer is told, the last size too: a server reporting
			 * this run marks it interrupted (hostile D25) */
			gd_oob_tell_interrupted(b->oob);
			ret = -EINTR;
			break;
		}
		if (size == b->plan.last_size)
			break;
		ret = gd_oob_barrier(b->oob);
		if (ret)
			break;
	}
	gd_progress_done(&b->progress);
	return ret;
}

/* --validate: the check, then what it checked (text and JSON, bench_report.h). */
static int validate(struct gd_bench *b, uint64_t ops)
{
	uint64_t checked = 0;
	bool atomics = false;
	int ret = gd_bench_validate(b, b->plan.last_size, ops, &checked, &atomics);

	if (ret) {
		gd_oob_send_error(b->oob, GD_EXIT_FAIL, "validation failed on its side");
		b->exit_code = GD_EXIT_FAIL;
		return ret;
	}
	gd_report_validation(&b->p, b->out, checked, atomics);
	return 0;
}

/* A signal stopped the peer (not this side): this side's rows are marked as its are. */
static int peer_stopped(struct gd_bench *b, int ret)
{
	if (ret == -ECONNABORTED && !gd_bench_signal && gd_oob_peer_interrupted(b->oob))
		gd_report_peer_signal(&b->p, b->out, b->exit_code ? b->exit_code : GD_EXIT_FAIL);
	return ret;
}

/* The fabric's own threads end (bench_fabric.h stop) once the sizes are over:
 * ret, or the stop's failure. One stuck for good leaves everything open. */
static int stop_fabric(struct gd_bench *b, int ret)
{
	int s = b->fs->stop ? b->fs->stop(b) : 0;

	if (s == -ETIMEDOUT)
		gd_bench_abandon = 1;
	return ret ?: s;
}

static int run_all(struct gd_bench *b)
{
	const struct gd_bench_params *p = &b->p;
	bool table = p->output == GD_OUTPUT_FULL && !p->json;
	uint64_t ops = 0;
	int ret;

	/* from here on a peer that stops (SIGSTOP, a hang) is told by its silence */
	if ((ret = gd_oob_start_alive(b->oob)))
		return ret;
	if (table)
		gd_report_header(&b->rep);
	ret = run_sizes(b, &ops);
	ret = stop_fabric(b, ret);
	if (ret)
		return peer_stopped(b, ret);
	if (table)
		gd_report_footer(&b->rep);
	gd_report_trust_summary(&b->rep, b->res);
	if (p->validate && (ret = validate(b, ops)))
		return ret;
	ret = gd_oob_barrier(b->oob);
	if (ret == -ECONNABORTED)
		b->exit_code = gd_oob_peer_exit_code(b->oob) ?: GD_EXIT_FAIL;
	return peer_stopped(b, ret);
}

/* The plan facts, once setup has resolved them. */
static void fill_facts(struct gd_bench *b, struct gd_bench_facts *f)
{
	const struct gd_loop_cfg *l = &b->plan.loop;
	/* an initiator with its own queues (IBGDA) posts with their depth and
	 * signalling interval, not the plan's */
	const struct gd_report_initiator *ini = b->ini_state && b->plan.loop_ops->describe ?
							b->plan.loop_ops->describe(b->ini_state) :
							NULL;

	snprintf(f->device, sizeof(f->device), "%s", b->dev.name);
	b->fs->facts(b, f); /* port, GID, MTU, ...: the fabric's */
	snprintf(f->memory, sizeof(f->memory), "%s", gd_buf_name(&b->buf));
	if (b->buf.ops && b->buf.ops->describe && b->buf.priv)
		b->buf.ops->describe(&b->buf, f->gpu, sizeof(f->gpu));
	if (b->buf.ops && b->buf.ops->path_class && b->buf.priv)
		snprintf(f->gpu_path_class, sizeof(f->gpu_path_class), "%s",
			 b->buf.ops->path_class(&b->buf));
	snprintf(f->registration, sizeof(f->registration), "%s",
		 b->buf.ops && b->buf.ops->registration && b->buf.priv ?
		 b->buf.ops->registration(&b->buf, &f->staging) : "host");
	f->tx_depth = ini && ini->nwqe ? ini->nwqe : l->tx_depth;
	f->rx_depth = b->plan.roles.receiver || gd_bench_uses_recv(&b->p) ? b->p.rx_depth : 0;
	f->cq_mod = ini && ini->sig_every ? ini->sig_every : l->cq_mod;
	f->max_inline = b->dev.max_inline;
	snprintf(f->host, sizeof(f->host), "%s", b->host);
	snprintf(f->peer, sizeof(f->peer), "%s", b->peer);
	fill_placement(b, f->placement, sizeof(f->placement));
}

/* The report reads the parameters' display options and the result model. */
static void init_report(struct gd_bench *b)
{
	struct gd_report *r = &b->rep;

	r->out = b->out;
	r->p = &b->p;
	r->f = &b->res->facts;
	r->buf = b->buf.ops ? &b->buf : NULL;
	r->passive = !b->plan.roles.initiator && !b->plan.roles.receiver;
	r->adaptive = b->plan.adaptive;
	r->local = b->local;
	r->remote = b->remote;
	r->nqp = b->p.num_qps;
	r->ini = b->ini_state && b->plan.loop_ops->describe ?
			 b->plan.loop_ops->describe(b->ini_state) :
			 NULL;
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

	init_report(b); /* the server's banner needs it before setup ends */
	ret = setup(b);
	if (ret) {
		if (ret == -ECONNABORTED)
			return gd_oob_exit_code(b->oob, ret);
		return b->exit_code ?: gd_bench_setup_exit_code(ret);
	}
	fill_facts(b, &b->res->facts);
	b->res->facts_valid = true;
	init_report(b);
	b->ran = true;
	ret = run_all(b);
	return ret ? (b->exit_code ?: GD_EXIT_FAIL) : b->exit_code;
}

int gd_bench_run_side(const struct gd_bench_params *p, FILE *out, struct gd_bench_result *res)
{
	struct gd_bench *b = calloc(1, sizeof(*b));
	const struct gd_initiator_ops *ini;
	int code;

	memset(res, 0, sizeof(*res));
	if (!b)
		return res->exit_code = GD_EXIT_ENV;
	b->p = *p;
	b->res = res;

	b->out = out;
	if ((code = gd_bench_check(&b->p))) {
		free(b);
		return res->exit_code = gd_bench_check_exit(code);
	}
	/* the initiator's table entry may decide the run before anything opens
	 * (gd_bench_check refused an initiator without an entry) */
	ini = gd_init_ops(&b->p.init);
	if (ini && ini->prepare && (code = ini->prepare(&b->p, out, res)) >= 0) {
		free(b);
		return res->exit_code = code;
	}
	b->fs = gd_bench_fabric_for(&b->p, ini);
	b->fab = b->fs->ops;
	gethostname(b->host, sizeof(b->host) - 1);
	gd_plan_from_params(&b->plan, &b->p);
	gd_oob_set_interrupt_flag(&gd_bench_stop);
	init_once();
	if (b->p.pin_cores[0] && gd_bench_pin_cores(b->p.pin_cores)) {
		free(b);
		return res->exit_code = GD_EXIT_USAGE;
	}
	code = run_side(b);
	if (out)
		fflush(out);
	if (gd_bench_abandon) { /* a stuck thread may still use them (bench_rt.h) */
		keep_for_exit(b);
		return res->exit_code = code ?: GD_EXIT_FAIL;
	}
	if (b->fs->keep_open && b->fs->keep_open(b, code)) {
		keep_for_exit(b); /* the process's exit reclaims them */
		return res->exit_code = code;
	}
	teardown(b);
	free(b);
	return res->exit_code = code;
}

/* After a signal: 128 + the signal, and the report says so (bench_report.h).
 * --run_infinitely runs until a signal by design: marked, its exit code kept. */
static int report_signal(const struct gd_bench_params *p, FILE *out, int ret)
{
	int code = p->run_infinitely ? ret : gd_exit_signal(gd_bench_signal);

	gd_report_signal(p, out, gd_bench_signal, code);
	return code;
}

int gd_bench_main(int argc, char **argv, enum gd_bench_op op, enum gd_bench_kind kind)
{
	struct gd_bench_params p;
	struct gd_bench_result *res;
	struct sigaction sa;
	bool prints = true;
	int ret;

	gd_log_init(argv[0]);
	ret = gd_bench_parse(argc, argv, op, kind, &p);
	if (ret) /* --help and --version: a write to a full disk fails like any other */
		return ret > 0 ? gd_tool_flush_stdout() : gd_bench_check_exit(ret);
	if (p.mpi && (ret = gd_bench_launch_start(&p, &prints)))
		return ret;
	res = malloc(sizeof(*res));
	if (!res)
		return p.mpi ? gd_bench_launch_end(GD_EXIT_ENV) : GD_EXIT_ENV;
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_sigint;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	ret = gd_bench_run_side(&p, prints ? stdout : NULL, res); /* --mpi: rank 0 prints */
	if (gd_bench_signal)
		ret = report_signal(&p, prints ? stdout : NULL, ret);
	free(res);
	if (gd_tool_flush_stdout() != GD_EXIT_OK && ret == GD_EXIT_OK)
		ret = GD_EXIT_ENV; /* the report did not reach its file */
	return p.mpi ? gd_bench_launch_end(ret) : ret;
}
