/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests of the engine's pure parts: MR access per test, GID choice,
 * MTU conversion, peak bandwidth, payload pattern, titles. */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <arpa/inet.h>
#include <cmocka.h>
#include <infiniband/verbs.h>

#include "bench.h"
#include "bench_params.h"
#include "bench_report.h"
#include "conn.h"
#include "mem.h"

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
	/* 4 messages posted at 0,10,20,30 ns, completed at 100,110,120,130:
	 * with cq_mod 1 the cheapest window is all four: (130-0)/4 = 32.5 ns */
	uint64_t tp[] = { 0, 10, 20, 30 }, tc[] = { 100, 110, 120, 130 };
	double r = gd_bw_peak_rate(tp, tc, 4, 1, 1);

	(void)s;
	assert_true(r > 1e9 / 32.5 - 1 && r < 1e9 / 32.5 + 1);
	/* cq_mod 2: windows end at completions 1 and 3 (0-based) */
	r = gd_bw_peak_rate(tp, tc, 4, 1, 2);
	assert_true(r > 1e9 / 32.5 - 1 && r < 1e9 / 32.5 + 1);
	/* one message: its own time */
	r = gd_bw_peak_rate(tp, tc, 1, 1, 1);
	assert_true(r > 1e9 / 100.0 - 1 && r < 1e9 / 100.0 + 1);
	assert_true(gd_bw_peak_rate(tp, tc, 0, 1, 1) == 0);
}

static void t_pattern(void **s)
{
	struct gd_buf b;
	struct gd_bench_params p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_SERVER);
	size_t bad = 0;
	int ret;

	(void)s;
	assert_int_equal(gd_buf_alloc(&b, GD_BUF_HOST, 10000, &p), 0);
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
	ret = gd_buf_alloc(&b, GD_BUF_CUDA, 4096, &p);
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

	p = params(GD_OP_WRITE, GD_KIND_BW, GD_ROLE_CLIENT);
	snprintf(p.peer, sizeof(p.peer), "127.0.0.1");
	snprintf(p.dev, sizeof(p.dev), "gd_no_such_dev0");
	p.timeout_ms = 1000;
	assert_int_equal(gd_bench_run_side(&p, NULL, &r), 2);
	assert_int_equal(r.exit_code, 2);
	assert_false(r.facts_valid);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(t_access), cmocka_unit_test(t_roles),
		cmocka_unit_test(t_mtu),
		cmocka_unit_test(t_gid_str), cmocka_unit_test(t_peak),
		cmocka_unit_test(t_pattern), cmocka_unit_test(t_title),
		cmocka_unit_test(t_run_side),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
