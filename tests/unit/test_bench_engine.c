/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests of the engine's pure parts: MR access per test, GID choice,
 * MTU conversion, peak bandwidth, payload pattern, titles. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>
#include <infiniband/verbs.h>

#include <dirent.h>

#include "bench.h"
#include "bench_int.h"
#include "initiator.h"
#include "bench_opts.h"
#include "bench_params.h"
#include "bench_report.h"
#include "conn.h"
#include "fixture.h"
#include "mem.h"
#include "gpu_buf.h"
#include "ops.h"
#include "plan.h"
#include "loop.h"
#include "ibgda_run.h"
#include "ibgda_bench.h"
#include "ibgda_nic.h"
#include "bench_fabric.h"
#ifdef HAVE_LIBFABRIC
#include "fabric_ofi.h"
#endif

static struct gd_bench_params params(enum gd_bench_op op, enum gd_bench_kind kind,
				     enum gd_bench_role role)
{
	struct gd_bench_params p;

	gd_bench_params_defaults(&p, op, kind);
	p.role = role;
	return p;
}

#define LW IBV_ACCESS_LOCAL_WRITE
#define RW IBV_ACCESS_REMOTE_WRITE
#define RR IBV_ACCESS_REMOTE_READ
#define RA IBV_ACCESS_REMOTE_ATOMIC

/* Only a count run's signalled posts before its last moderate (gd_loop_bw_moderates):
 * never where a stop, an adaptive window, -D or the peak's stamps may end on one,
 * which then asks delivery over libfabric (fabric_ofi.c gd_ofi_post_flags) */
static void t_bw_moderates(void **s)
{
	struct gd_loop_bw_post p = { .signal = true };

	(void)s;
	assert_true(gd_loop_bw_moderates(p));
	for (int i = 0; i < 6; i++) {
		struct gd_loop_bw_post q = p;
		bool *f[] = { &q.last, &q.stopping, &q.adaptive, &q.endless, &q.peak, &q.signal };

		*f[i] = !*f[i];
		assert_false(gd_loop_bw_moderates(q));
	}
}

static void t_access(void **s)
{
	struct gd_bench_params p;

	(void)s;
	/* write bw: only the target can be written remotely; the client needs nothing */
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_SERVER);
	assert_int_equal(gd_mem_access(&p), LW | RW);
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	assert_int_equal(gd_mem_access(&p), 0);
	p.bidirectional = true;
	assert_int_equal(gd_mem_access(&p), LW | RW);
	/* write latency: ping-pong, both sides are targets */
	p = params(GD_OP_WRITE, GD_KIND_LAT, GD_ROLE_CLIENT);
	assert_int_equal(gd_mem_access(&p), LW | RW);
	/* read: the server is read remotely, the client's buffer is written locally */
	p = params(GD_OP_READ, GD_KIND_BW, GD_ROLE_SERVER);
	assert_int_equal(gd_mem_access(&p), RR);
	p = params(GD_OP_READ, GD_KIND_LAT, GD_ROLE_CLIENT);
	assert_int_equal(gd_mem_access(&p), LW);
	/* atomic */
	p = params(GD_OP_ATOMIC, GD_KIND_BW, GD_ROLE_SERVER);
	assert_int_equal(gd_mem_access(&p), LW | RA);
	p = params(GD_OP_ATOMIC, GD_KIND_BW, GD_ROLE_CLIENT);
	assert_int_equal(gd_mem_access(&p), LW);
	/* send: never any remote access */
	p = params(GD_OP_SEND, GD_KIND_BW, GD_ROLE_SERVER);
	assert_int_equal(gd_mem_access(&p), LW);
	p = params(GD_OP_SEND, GD_KIND_BW, GD_ROLE_CLIENT);
	assert_int_equal(gd_mem_access(&p), 0);
	p = params(GD_OP_SEND, GD_KIND_LAT, GD_ROLE_CLIENT);
	assert_int_equal(gd_mem_access(&p), LW);
	/* write with immediate: the server also posts receives */
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_SERVER);
	p.write_with_imm = true;
	assert_int_equal(gd_mem_access(&p), LW | RW);
}

static void t_roles(void **s)
{
	struct gd_bench_params p;
	struct gd_mem_roles r;

	(void)s;
	p = params(GD_OP_SEND, GD_KIND_BW, GD_ROLE_SERVER);
	gd_mem_roles(&p, &r);
	assert_false(r.initiator);
	assert_false(r.target);
	assert_true(r.receiver);
	p = params(GD_OP_READ, GD_KIND_LAT, GD_ROLE_SERVER);
	gd_mem_roles(&p, &r);
	assert_false(r.initiator);
	assert_true(r.target);
	assert_false(r.receiver);
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	p.bidirectional = true;
	gd_mem_roles(&p, &r);
	assert_true(r.initiator && r.target);
}

/* The side channel's waits leave the fabric alone while the initiator's own threads
 * run (plan.h own_threads, bench_ofi.c's threaded): the proxy's initiating side, one
 * proxy thread as several (once only several: one thread's send CQ was read by the
 * main thread too, tests/fabric/test_ofi_domains); not the CPU initiator, not the
 * proxy's target. */
static void t_own_threads(void **s)
{
	struct gd_bench_params p;
	struct gd_bench_plan pl;

	(void)s;
	gd_initiator_tool_prologue();
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	gd_plan_from_params(&pl, &p);
	assert_false(pl.own_threads);
	p.init.initiator = GD_INIT_PROXY;
	gd_plan_from_params(&pl, &p);
	assert_true(pl.own_threads);
	p.init.proxy_threads = 4;
	gd_plan_from_params(&pl, &p);
	assert_true(pl.own_threads);
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_SERVER);
	p.init.initiator = GD_INIT_PROXY;
	gd_plan_from_params(&pl, &p);
	assert_false(pl.own_threads);
}

/* A GPU producer's device is the GPU memory's own (gd_bench_take_buffer): a buffer whose
 * backend names CUDA device 3 moves the plan's guess there (--use_cuda's index, and 0
 * for --use_cuda_bus_id: the producer once ran on GPU 0 whatever the bus id named);
 * host memory leaves the guess. */
static int fake_alloc(struct gd_buf *b, size_t length, const struct gd_buf_spec *spec)
{
	(void)spec;
	b->addr = calloc(1, length);
	b->length = length;
	return b->addr ? 0 : -ENOMEM;
}

static void fake_free(struct gd_buf *b)
{
	free(b->addr);
}

static int fake_device(const struct gd_buf *b)
{
	(void)b;
	return 3;
}

static const struct gd_buf_ops fake_gpu = { .name = "fake", .alloc = fake_alloc,
					    .free = fake_free, .cuda_device = fake_device };
static const struct gd_buf_ops fake_host = { .name = "fake", .host_visible = true,
					     .alloc = fake_alloc, .free = fake_free };

static void t_producer_on_buffer_gpu(void **s)
{
	struct gd_bench *b = calloc(1, sizeof(*b));

	(void)s;
	assert_non_null(b);
	b->p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	snprintf(b->p.cuda_bus_id, sizeof(b->p.cuda_bus_id), "0000:18:00.0");
	gd_plan_from_params(&b->plan, &b->p);
	assert_int_equal(b->plan.loop.producer_cuda, 0);
	b->plan.mem = &fake_gpu;
	assert_int_equal(gd_bench_take_buffer(b), 0);
	assert_int_equal(b->plan.loop.producer_cuda, 3);
	gd_buf_free(&b->buf);
	b->p.cuda_bus_id[0] = '\0';
	b->p.use_cuda = 1;
	gd_plan_from_params(&b->plan, &b->p);
	b->plan.mem = &fake_host; /* --use_cuda 1 --gpu_staging: host memory, --use_cuda's GPU */
	assert_int_equal(gd_bench_take_buffer(b), 0);
	assert_int_equal(b->plan.loop.producer_cuda, 1);
	gd_buf_free(&b->buf);
	free(b);
}

static void t_mtu(void **s)
{
	(void)s;
	assert_int_equal(gd_mtu_bytes(IBV_MTU_1024), 1024);
	assert_int_equal(gd_mtu_bytes(IBV_MTU_4096), 4096);
	assert_int_equal(gd_mtu_enum(256), IBV_MTU_256);
	assert_int_equal(gd_mtu_enum(4096), IBV_MTU_4096);
	assert_int_equal(gd_mtu_enum(1000), 0);
}

static void t_gid_str(void **s)
{
	uint8_t g[16] = { 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 255, 255, 10, 0, 0, 1 };
	char buf[80];

	(void)s;
	gd_gid_perftest_str(g, buf, sizeof(buf));
	assert_string_equal(buf, "00:00:00:00:00:00:00:00:00:00:255:255:10:00:00:01");
}

static void t_peak(void **s)
{
	/* 4 messages posted at ticks 0,10,20,30, completed at 100,110,120,130
	 * (ns per tick 1): with a completion per message the cheapest window is
	 * all four: (130-0)/4 = 32.5 ns */
	uint64_t tp[] = { 0, 10, 20, 30 }, tc[] = { 100, 110, 120, 130 }, tn[] = { 1, 2, 3, 4 };
	uint64_t tc2[] = { 110, 130 }, tn2[] = { 2, 4 };
	double r = gd_bw_peak_rate(tp, 4, 1, tc, tn, 4, 1.0);

	(void)s;
	assert_true(r > 1e9 / 32.5 - 1 && r < 1e9 / 32.5 + 1);
	/* one completion per 2 messages: windows end at messages 2 and 4 */
	r = gd_bw_peak_rate(tp, 4, 1, tc2, tn2, 2, 1.0);
	assert_true(r > 1e9 / 32.5 - 1 && r < 1e9 / 32.5 + 1);
	/* a post list of 2: posts 0 and 1 cover messages 0-1 and 2-3 */
	r = gd_bw_peak_rate(tp, 2, 2, tc2, tn2, 2, 1.0);
	assert_true(r > 1e9 / 32.5 - 1 && r < 1e9 / 32.5 + 1);
	/* one message: its own time; ticks of 2 ns double it */
	r = gd_bw_peak_rate(tp, 1, 1, tc, tn, 1, 1.0);
	assert_true(r > 1e9 / 100.0 - 1 && r < 1e9 / 100.0 + 1);
	r = gd_bw_peak_rate(tp, 1, 1, tc, tn, 1, 2.0);
	assert_true(r > 1e9 / 200.0 - 1 && r < 1e9 / 200.0 + 1);
	assert_true(gd_bw_peak_rate(tp, 0, 1, tc, tn, 0, 1.0) == 0);
}

/* The definition's double loop, as the engine computed it before peak.c. */
static double peak_brute(const uint64_t *tp, uint64_t nposts, uint32_t pl, const uint64_t *tc,
			 const uint64_t *tn, uint64_t ncomp)
{
	double best = 0;

	for (uint64_t g = 0; g < nposts; g++)
		for (uint64_t c = 0; c < ncomp; c++) {
			uint64_t first = g * pl, dt;
			double per;

			if (tn[c] <= first)
				continue;
			dt = tc[c] > tp[g] ? tc[c] - tp[g] : 1;
			per = (double)dt / (double)(tn[c] - first);
			if (best == 0 || per < best)
				best = per;
		}
	return best > 0 ? 1e9 / best : 0;
}

/* peak.c's hull against the double loop on random runs: bursts, stalls,
 * completions of many messages at one tick, post lists, coarse ticks. */
static void t_peak_hull(void **s)
{
	enum { N = 400 };
	static uint64_t tp[N], tc[N * 4], tn[N * 4];
	unsigned seed = 12345;

	(void)s;
	for (int run = 0; run < 300; run++) {
		uint32_t pl = 1 + run % 3, coarse = run % 5 == 0 ? 50 : 1;
		uint64_t nposts = 1 + (uint64_t)rand_r(&seed) % N, nmsg = nposts * pl, t = 1000000;
		uint64_t ncomp = 0, done = 0, posted_t;

		for (uint64_t g = 0; g < nposts; g++) {
			t += (uint64_t)rand_r(&seed) % (rand_r(&seed) % 10 ? 20 : 2000);
			tp[g] = t / coarse * coarse;
		}
		posted_t = tp[0];
		while (done < nmsg) {
			uint64_t step = 1 + (uint64_t)rand_r(&seed) % 7;

			done = done + step > nmsg ? nmsg : done + step;
			/* a completion of message m is after its post */
			posted_t = tp[(done - 1) / pl] > posted_t ? tp[(done - 1) / pl] : posted_t;
			posted_t += (uint64_t)rand_r(&seed) % (rand_r(&seed) % 8 ? 30 : 3000);
			tc[ncomp] = posted_t / coarse * coarse;
			tn[ncomp++] = done;
		}
		double want = peak_brute(tp, nposts, pl, tc, tn, ncomp);
		double got = gd_bw_peak_rate(tp, nposts, pl, tc, tn, ncomp, 1.0);

		if (!(got >= want * (1 - 1e-9) && got <= want * (1 + 1e-9)))
			fail_msg("run %d: hull %.6f, double loop %.6f", run, got, want);
	}
}

/* The per-op table: what differs between the four operations. */
static void t_op_table(void **s)
{
	struct gd_bench_params p = params(GD_OP_ATOMIC, GD_KIND_BW, GD_ROLE_CLIENT);

	(void)s;
	assert_int_equal(gd_op_desc(GD_OP_WRITE)->opcode, IBV_WR_RDMA_WRITE);
	assert_int_equal(gd_op_desc(GD_OP_SEND)->opcode_alt, IBV_WR_SEND_WITH_IMM);
	assert_int_equal(gd_op_desc(GD_OP_ATOMIC)->fixed_size, 8);
	assert_false(gd_op_desc(GD_OP_SEND)->remote);
	assert_null(gd_op_desc(GD_OP_COUNT));
	assert_string_equal(gd_op_wr_name(&p), "ATOMIC_FETCH_AND_ADD");
	p.atomic_type = GD_ATOMIC_CMP_AND_SWAP;
	assert_true(gd_op_alt(&p));
	assert_string_equal(gd_op_wr_name(&p), "ATOMIC_CMP_AND_SWAP");
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	p.write_with_imm = true;
	assert_string_equal(gd_op_wr_name(&p), "RDMA_WRITE_WITH_IMM");
}

/* Small messages rotate 64 B per post through 4 KiB, perftest's cycle;
 * CMP_AND_SWAP compares the count its word has seen. No device: the WRs are
 * only built (gd_ops_prepare) and their addresses read back. */
static void t_rotation(void **s)
{
	struct gd_qp_run *q = calloc(1, sizeof(*q));

	(void)s;
	assert_non_null(q);
	q->desc = gd_op_desc(GD_OP_ATOMIC);
	q->alt = true;
	q->local_addr = 0x10000;
	q->remote_addr = 0x80000;
	q->size = 8;
	gd_ops_prepare(q, 1, true);
	assert_int_equal(q->cycle_step, 64);
	gd_ops_prepare(q, 4, true); /* a post list: no rotation (perftest) */
	assert_int_equal(q->cycle_step, 0);
	q->desc = gd_op_desc(GD_OP_SEND);
	gd_ops_prepare(q, 1, true); /* the receiver validates offset 0 */
	assert_int_equal(q->cycle_step, 0);
	q->desc = gd_op_desc(GD_OP_WRITE);
	q->size = 4096;
	gd_ops_prepare(q, 1, true); /* more than half the cycle */
	assert_int_equal(q->cycle_step, 0);
	q->size = 100;
	gd_ops_prepare(q, 1, false); /* the peer has no room */
	assert_int_equal(q->cycle_step, 0);
	gd_ops_prepare(q, 1, true);
	assert_int_equal(q->cycle_step, 128);
	/* the stamp and a lean post (gd_ops_cycle_next, fabric_ofi.c's
	 * post_lean_write) step one cycle: stamp, stamp, lean, stamp */
	gd_ops_stamp(q, 1, 0);
	assert_int_equal(q->wr[0].wr.rdma.remote_addr, 0x80000);
	gd_ops_stamp(q, 1, 0);
	assert_int_equal(q->wr[0].wr.rdma.remote_addr, 0x80000 + 128);
	assert_int_equal(q->sge[0].addr, 0x10000 + 128);
	assert_int_equal(gd_ops_cycle_next(q), 256);
	gd_ops_stamp(q, 1, 0);
	assert_int_equal(q->wr[0].wr.rdma.remote_addr, 0x80000 + 384);
	/* the cycle wraps before an offset whose message would pass its end */
	for (uint32_t off = 512; off + 128 <= GD_CYCLE_BYTES; off += 128)
		assert_int_equal(gd_ops_cycle_next(q), off);
	assert_int_equal(gd_ops_cycle_next(q), 0);
	free(q);
}

static void t_pattern(void **s)
{
	struct gd_buf b;
	struct gd_buf_spec spec = { .cuda = 0 };
	size_t bad = 0;
	int ret;

	(void)s;
	assert_int_equal(gd_buf_alloc(&b, &gd_buf_host, 10000, NULL), 0);
	assert_int_equal(gd_buf_fill(&b, 100, 5000, 0), 0);
	assert_int_equal(gd_buf_verify(&b, 100, 5000, 0, &bad), 0);
	((uint8_t *)b.addr)[100 + 4321] ^= 1;
	assert_int_equal(gd_buf_verify(&b, 100, 5000, 0, &bad), -EBADMSG);
	assert_int_equal(bad, 4321);
	assert_int_equal(gd_buf_verify(&b, 100, 1 << 20, 0, &bad), -ERANGE);
	/* the pattern is not constant: a zeroed buffer fails */
	assert_int_equal(gd_buf_verify(&b, 6000, 100, 0, &bad), -EBADMSG);
	gd_buf_free(&b);
	/* GPU buffers without the GPU feature (-ENOTSUP), or without a CUDA
	 * driver/device (-ENOENT, -ENODEV, -ENOSYS): a clear refusal */
	ret = gd_buf_alloc(&b, &gd_buf_cuda, 4096, &spec);
	if (ret == 0)
		gd_buf_free(&b); /* a machine with a GPU */
	else
		assert_true(ret == -ENOTSUP || ret == -ENOENT || ret == -ENODEV || ret == -ENOSYS);
}

static void t_title(void **s)
{
	struct gd_bench_params p = params(GD_OP_ATOMIC, GD_KIND_BW, GD_ROLE_CLIENT);
	char t[96];

	(void)s;
	gd_bench_title(&p, t, sizeof(t));
	assert_string_equal(t, "Atomic FETCH_AND_ADD BW Test");
	p = params(GD_OP_WRITE, GD_KIND_LAT, GD_ROLE_CLIENT);
	gd_bench_title(&p, t, sizeof(t));
	assert_string_equal(t, "RDMA_Write Latency Test");
	p = params(GD_OP_SEND, GD_KIND_BW, GD_ROLE_CLIENT);
	p.bidirectional = true;
	gd_bench_title(&p, t, sizeof(t));
	assert_string_equal(t, "Send Bidirectional BW Test");
}

/* Whether this machine lists an RDMA device (as verbs will see it). */
static bool live_has_rdma(void)
{
	DIR *d = opendir("/sys/class/infiniband");
	struct dirent *e;
	bool any = false;

	while (d && (e = readdir(d)))
		any |= e->d_name[0] != '.';
	if (d)
		closedir(d);
	return any;
}

/* The library entry point: a conflict is a usage error (2), a device that does
 * not exist an environment error (3); nothing is printed with out == NULL and
 * the result model says so. */
static void t_run_side(void **s)
{
	struct gd_bench_params p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	struct gd_bench_result r;

	(void)s;
	snprintf(p.peer, sizeof(p.peer), "127.0.0.1");
	p.all_sizes = true;
	p.given |= GD_GIVEN_SIZE; /* -a with -s */
	assert_int_equal(gd_bench_run_side(&p, NULL, &r), 2);
	assert_int_equal(r.exit_code, 2);
	assert_false(r.facts_valid);
	assert_int_equal(r.nsizes, 0);

	/* -d naming no device: usage (2) among devices; with no RDMA device at all the
	 * machine's to fix, exit 3 with gd_devinfo's fix (issue 30) */
	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	snprintf(p.peer, sizeof(p.peer), "127.0.0.1");
	snprintf(p.dev, sizeof(p.dev), "gd_no_such_dev0");
	p.timeout_ms = 1000;
	assert_int_equal(gd_bench_run_side(&p, NULL, &r), live_has_rdma() ? 2 : 3);
	assert_int_equal(r.exit_code, live_has_rdma() ? 2 : 3);
	assert_false(r.facts_valid);
}

/* The bandwidth loop's shape per size: the -a deadline bug (100 x 4 MiB per
 * signal), the adaptive window and in-flight limits. */
/* A timed run whose loop first looked at the clock after the sample window
 * closed (-q 8 on rxe0/rxe_bond0 in the guest) had an empty window and
 * reported 0.00 Gb/s at exit 0: it reports the whole run instead, and a run
 * with no message or no time measured nothing (the engine then fails). */
static void t_bw_timed_span(void **s)
{
	struct gd_bw_span sample = { 4000, 2000000 }, run = { 9000, 5000000 }, got;

	(void)s;
	assert_true(gd_bw_timed_span(&sample, &run, &got)); /* the window, when it holds some */
	assert_int_equal(got.msgs, 4000);
	assert_int_equal(got.ticks, 2000000);
	sample.msgs = 0; /* entered and closed on one visit: no messages, no time */
	sample.ticks = 0;
	assert_true(gd_bw_timed_span(&sample, &run, &got));
	assert_int_equal(got.msgs, 9000);
	assert_int_equal(got.ticks, 5000000);
	sample.ticks = 10; /* time but no message: not a rate of 0 either */
	assert_true(gd_bw_timed_span(&sample, &run, &got));
	assert_int_equal(got.msgs, 9000);
	run.msgs = 0; /* nothing completed at all */
	assert_false(gd_bw_timed_span(&sample, &run, &got));
	run.msgs = 5;
	run.ticks = 0;
	assert_false(gd_bw_timed_span(&sample, &run, &got));
}

static void t_bw_shape(void **s)
{
	struct gd_loop_cfg c;
	struct gd_loop_bw_shape sh;

	(void)s;
	memset(&c, 0, sizeof(c));
	c.post_list = 1;
	c.cq_mod = 100;
	c.tx_depth = 100;
	gd_loop_bw_shape(&c, 8, &sh); /* small: -Q as given */
	assert_int_equal(sh.sig_every, 100);
	assert_int_equal(sh.depth, 100);
	gd_loop_bw_shape(&c, 65536, &sh); /* 16 x 64 KiB = 1 MiB per completion */
	assert_int_equal(sh.sig_every, 16);
	gd_loop_bw_shape(&c, 4u << 20, &sh); /* every message above 1 MiB */
	assert_int_equal(sh.sig_every, 1);
	c.post_list = 4; /* a multiple of the post list, at least one */
	c.cq_mod = 100;
	gd_loop_bw_shape(&c, 200000, &sh);
	assert_int_equal(sh.sig_every, 4);
	gd_loop_bw_shape(&c, 8u << 20, &sh);
	assert_int_equal(sh.sig_every, 4);
	/* adaptive: windows of about tx_depth, at most 1 MiB, whole intervals;
	 * at most 2 MiB in flight (at least 2 messages) */
	c.post_list = 1;
	c.tx_depth = 128;
	c.precision = 0.01;
	gd_loop_bw_shape(&c, 2, &sh);
	assert_int_equal(sh.depth, 128);
	assert_int_equal(sh.window, 100);
	gd_loop_bw_shape(&c, 16384, &sh);
	assert_int_equal(sh.depth, 128);
	gd_loop_bw_shape(&c, 65536, &sh);
	assert_int_equal(sh.depth, 32);
	assert_int_equal(sh.window, 16);
	gd_loop_bw_shape(&c, 8u << 20, &sh);
	assert_int_equal(sh.depth, 2);
	assert_int_equal(sh.window, 1);
	gd_loop_bw_shape(&c, 1u << 20, &sh);
	assert_int_equal(sh.depth, 2);
	assert_int_equal(sh.window, 1);
}

/* -a without --precision: epsilon by size (perftest's spread); --precision
 * given: that one value for every size; the default -a also caps a size */
static void t_sweep_epsilon(void **state)
{
	struct gd_bench_params p;
	struct gd_bench_plan *pl = calloc(1, sizeof(*pl));
	char *def[] = { "t", "-a", NULL }, *given[] = { "t", "-a", "--precision", "5", NULL };
	char root[1100];

	(void)state;
	assert_non_null(pl);
	if (!gd_fixture_dir()) {
		free(pl);
		skip();
	}
	/* parsed as on a machine with an RDMA device: without one, no --fabric is refused */
	snprintf(root, sizeof(root), "%s/rxe", gd_fixture_dir());
	setenv(GD_SYSFS_ROOT_ENV, root, 1);
	assert_int_equal(gd_bench_parse(2, def, GD_OP_WRITE, GD_KIND_BW, &p), 0);
	gd_plan_from_params(pl, &p);
	assert_true(pl->adaptive && pl->loop.precision_by_size);
	assert_true(pl->loop.max_size_s > 0);
	assert_int_equal(gd_bench_parse(4, given, GD_OP_WRITE, GD_KIND_BW, &p), 0);
	gd_plan_from_params(pl, &p);
	assert_true(pl->adaptive && !pl->loop.precision_by_size);
	assert_true(pl->loop.precision > 0.0499 && pl->loop.precision < 0.0501);
	unsetenv(GD_SYSFS_ROOT_ENV);
	free(pl);
}

/* The IBGDA run's spec comes from the plan's loop configuration, for the
 * software NIC test double and a ConnectX (both ibgda_loop.c's attach)
 * alike: the params' values, CMP_AND_SWAP only for atomics (a write's
 * variant is with_imm), the send depth the plan holds. */
static void t_ibgda_spec(void **state)
{
	struct gd_bench_params p;
	struct gd_bench_plan *pl = calloc(1, sizeof(*pl));
	struct gd_ibgda_spec s;
	char *cas[] = {"t", "-A", "CMP_AND_SWAP", "-q", "3", "-n", "777", "--timeout", "4", NULL};
	char *imm[] = {"t", "--write_with_imm", "-s", "64", NULL};
	char root[1100];

	(void)state;
	assert_non_null(pl);
	if (!gd_fixture_dir()) {
		free(pl);
		skip();
	}
	snprintf(root, sizeof(root), "%s/rxe", gd_fixture_dir());
	setenv(GD_SYSFS_ROOT_ENV, root, 1);
	assert_int_equal(gd_bench_parse(9, cas, GD_OP_ATOMIC, GD_KIND_BW, &p), 0);
	gd_plan_from_params(pl, &p);
	pl->loop.tx_depth = 99;
	gd_ibgda_spec_of(&s, &pl->loop, pl->last_size, 2);
	assert_int_equal(s.op, GD_OP_ATOMIC);
	assert_true(s.cas);
	assert_int_equal(s.kind, GD_KIND_BW);
	assert_int_equal(s.nqps, 3);
	assert_int_equal(s.iters, 777);
	assert_int_equal(s.timeout_ms, p.timeout_ms);
	assert_int_equal(s.tx_depth, 99);
	assert_int_equal(s.max_size, 8);
	assert_int_equal(s.cuda_index, 2);
	assert_int_equal(s.init.initiator, p.init.initiator);
	assert_int_equal(gd_bench_parse(4, imm, GD_OP_WRITE, GD_KIND_LAT, &p), 0);
	gd_plan_from_params(pl, &p);
	gd_ibgda_spec_of(&s, &pl->loop, pl->last_size, pl->loop.producer_cuda);
	assert_int_equal(s.op, GD_OP_WRITE);
	assert_false(s.cas);
	assert_int_equal(s.kind, GD_KIND_LAT);
	assert_int_equal(s.max_size, 64);
	assert_int_equal(s.cuda_index, 0);
	unsetenv(GD_SYSFS_ROOT_ENV);
	free(pl);
}

#ifdef HAVE_LIBFABRIC
/* The passive side's progress pace: only shm RMA bandwidth up to inject_size
 * in host memory is paced (gd_ofi_pace_passive's comment says why). */
static uint64_t pace_of(const char *prov, enum gd_bench_op op, bool hmem, uint64_t size)
{
	struct gd_ofi f = { .cfg = { .op = op, .hmem = hmem }, .inject_size = 4096 };

	snprintf(f.prov, sizeof(f.prov), "%s", prov);
	gd_ofi_pace_passive(&f, size);
	return f.pace_ns;
}

static void t_ofi_passive_pace(void **s)
{
	(void)s;
	assert_true(pace_of("shm", GD_OP_WRITE, false, 8) > 0);
	assert_true(pace_of("shm", GD_OP_READ, false, 4096) > 0);
	assert_int_equal(pace_of("shm", GD_OP_WRITE, false, 4097), 0); /* above inject_size */
	assert_int_equal(pace_of("shm", GD_OP_ATOMIC, false, 8), 0);	/* the target serves it */
	assert_int_equal(pace_of("shm", GD_OP_WRITE, true, 8), 0);	/* GPU memory: no CMA */
	assert_int_equal(pace_of("tcp", GD_OP_WRITE, false, 8), 0);	/* the target moves it */
	assert_int_equal(pace_of("tcp", GD_OP_READ, false, 8), 0);
}
#endif

/* The loopback fabric (no device, no peer) is the setup of a run whose
 * initiator brings its own NIC test double, and then this side initiates;
 * every other run keeps its fabric and its role. */
static const struct gd_loopback_nic *dbl_dev(const struct gd_bench_params *p)
{
	static const struct gd_loopback_nic dbl = {.device = "dbl", .nic = "a double"};

	return p->iters == 7 ? &dbl : NULL;
}

static void t_loopback_pick(void **s)
{
	struct gd_initiator_ops dbl = {.loop = &gd_loop_cpu, .loopback = dbl_dev};
	struct gd_bench_params p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_SERVER);

	(void)s;
	assert_ptr_equal(gd_bench_fabric_for(&p, NULL), gd_bench_fabric(p.fab.fabric));
	assert_ptr_equal(gd_bench_fabric_for(&p, &dbl), gd_bench_fabric(p.fab.fabric));
	assert_int_equal(p.role, GD_ROLE_SERVER);
	p.iters = 7;
	assert_ptr_equal(gd_bench_fabric_for(&p, &dbl), &gd_bench_fabric_loopback);
	assert_int_equal(p.role, GD_ROLE_CLIENT);
	assert_non_null(gd_bench_fabric_loopback.side_channel);
	/* IBGDA's entry: the software NIC test double only, never a ConnectX */
	p.init.ibgda_nic = GD_IBGDA_NIC_SWNIC;
	assert_string_equal(gd_ibgda_loopback(&p)->device, "swnic (test double)");
	assert_string_equal(gd_ibgda_loopback(&p)->nic, "software NIC (test double)");
	p.init.ibgda_nic = GD_IBGDA_NIC_DEVX;
	assert_null(gd_ibgda_loopback(&p));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_sweep_epsilon), cmocka_unit_test(t_ibgda_spec),
		cmocka_unit_test(t_loopback_pick),
		cmocka_unit_test(t_access),
		cmocka_unit_test(t_bw_moderates), cmocka_unit_test(t_roles),
		cmocka_unit_test(t_mtu),
		cmocka_unit_test(t_own_threads), cmocka_unit_test(t_producer_on_buffer_gpu),
		cmocka_unit_test(t_gid_str), cmocka_unit_test(t_peak), cmocka_unit_test(t_peak_hull),
		cmocka_unit_test(t_pattern), cmocka_unit_test(t_title),
		cmocka_unit_test(t_run_side), cmocka_unit_test(t_op_table),
		cmocka_unit_test(t_rotation), cmocka_unit_test(t_bw_shape),
		cmocka_unit_test(t_bw_timed_span),
#ifdef HAVE_LIBFABRIC
		cmocka_unit_test(t_ofi_passive_pace),
#endif
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
