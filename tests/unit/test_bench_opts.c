/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the benchmark command line: perftest spellings, defaults, conflicts. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <json-c/json.h>

#include "bench_opts.h"
#include "bench_params.h"
#include "fixture.h"
#include "gd.h"
#include "log.h"
#include "plan.h"

#define ARGC(a) ((int)(sizeof(a) / sizeof((a)[0])) - 1)

static int parse(enum gd_bench_op op, enum gd_bench_kind kind, struct gd_bench_params *p,
		 int argc, char **argv)
{
	return gd_bench_parse(argc, argv, op, kind, p);
}

static void defaults_per_tool(void **state)
{
	struct gd_bench_params p;
	char *argv[] = { "t", NULL };

	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, 1, argv), 0);
	assert_int_equal(p.size, 65536);
	assert_int_equal(p.iters, 5000);
	assert_int_equal(p.tx_depth, 128);
	assert_int_equal(p.cq_mod, 1); /* > 8 KiB messages: one CQE per message, as perftest */
	assert_int_equal(p.tcp_port, 18515);
	assert_int_equal(p.gid_index, -1);
	assert_int_equal(p.ib_port, 1);
	assert_int_equal(p.qp_timeout, 14); /* perftest's -u default: 67 ms */
	assert_int_equal(p.timeout_ms, 10000);
	assert_int_equal(p.role, GD_ROLE_SERVER);
	assert_int_equal(p.num_qps, 1);
	assert_int_equal(p.inline_size, 0);
	assert_int_equal(p.rx_depth, 1);
	assert_int_equal(p.use_cuda, GD_CUDA_NONE);

	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_LAT, &p, 1, argv), 0);
	assert_int_equal(p.size, 2);
	assert_int_equal(p.iters, 1000);
	assert_int_equal(p.tx_depth, 1);
	assert_int_equal(p.inline_size, -1);

	assert_int_equal(parse(GD_OP_READ, GD_KIND_BW, &p, 1, argv), 0);
	assert_int_equal(p.iters, 1000);
	assert_int_equal(p.out_reads, 0);

	assert_int_equal(parse(GD_OP_ATOMIC, GD_KIND_BW, &p, 1, argv), 0);
	assert_int_equal(p.size, 8);
	assert_int_equal(p.atomic_type, GD_ATOMIC_FETCH_AND_ADD);
	assert_int_equal(p.cq_mod, 100);

	assert_int_equal(parse(GD_OP_SEND, GD_KIND_BW, &p, 1, argv), 0);
	assert_int_equal(p.rx_depth, 512);
	assert_true(gd_bench_uses_recv(&p));
}

static void perftest_spellings(void **state)
{
	struct gd_bench_params p;
	char *argv[] = { "t", "-d", "rxe0", "-i", "2", "-x", "3", "-p", "20000", "-m", "1024",
			 "-s", "4K", "-n", "100", "-q", "4", "-t", "64", "-Q", "8", "-l", "4",
			 "-I", "128", "-b", "-F", "-R", "-N", "--report_gbits", "--use_hugepages",
			 "--bind_source_ip=10.0.0.2", "--pin_cores=0-3,8", "--perform_warm_up",
			 "--timeout", "3", "--validate", "--write_with_imm", "-r", "64",
			 "-w", "1.5", "-y", "0.25", "-u", "20", "10.0.0.1", NULL };

	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(argv), argv), 0);
	assert_string_equal(p.dev, "rxe0");
	assert_int_equal(p.ib_port, 2);
	assert_int_equal(p.gid_index, 3);
	assert_int_equal(p.tcp_port, 20000);
	assert_int_equal(p.mtu, 1024);
	assert_int_equal(p.size, 4096);
	assert_int_equal(p.iters, 100);
	assert_int_equal(p.num_qps, 4);
	assert_int_equal(p.tx_depth, 64);
	assert_int_equal(p.cq_mod, 8);
	assert_int_equal(p.post_list, 4);
	assert_int_equal(p.inline_size, 128);
	assert_true(p.bidirectional && p.cpu_freq_quiet && p.no_peak && p.report_gbits);
	assert_int_equal(p.conn, GD_CONN_RDMA_CM);
	assert_true(p.use_hugepages && p.perform_warm_up && p.validate && p.write_with_imm);
	assert_string_equal(p.source_ip, "10.0.0.2");
	assert_string_equal(p.pin_cores, "0-3,8");
	assert_int_equal(p.timeout_ms, 3000);
	assert_int_equal(p.rx_depth, 64);
	assert_true(p.limit_bw == 1.5 && p.limit_msgrate == 0.25);
	assert_int_equal(p.qp_timeout, 20);
	assert_int_equal(p.role, GD_ROLE_CLIENT);
	assert_string_equal(p.peer, "10.0.0.1");
}

static void latency_spellings(void **state)
{
	struct gd_bench_params p;
	char *argv[] = { "t", "-C", "--report-histogrm", "-U", "--latency_gap=5", "-A", "CMP_AND_SWAP",
			 "-o", "4", "--output=latency", NULL };
	char *argv2[] = { "t", "--report-histogram", "--use_cuda=auto", "--use_cuda_dmabuf",
			  "--gpu_staging", "--ipv6", "-D", "8", "--json", NULL };

	assert_int_equal(parse(GD_OP_ATOMIC, GD_KIND_LAT, &p, ARGC(argv), argv), 0);
	assert_true(p.report_cycles && p.histogram && p.unsorted);
	assert_int_equal(p.latency_gap, 5);
	assert_int_equal(p.atomic_type, GD_ATOMIC_CMP_AND_SWAP);
	assert_int_equal(p.out_reads, 4);
	assert_int_equal(p.output, GD_OUTPUT_LATENCY);

	/* --use_cuda_dmabuf before --use_cuda works too (perftest #336); -H with -D conflicts */
	assert_int_equal(parse(GD_OP_SEND, GD_KIND_LAT, &p, ARGC(argv2), argv2), -EINVAL);
	argv2[1] = "-F";
	assert_int_equal(parse(GD_OP_SEND, GD_KIND_LAT, &p, ARGC(argv2), argv2), 0);
	assert_int_equal(p.use_cuda, GD_CUDA_AUTO);
	assert_true(p.cuda_dmabuf && p.gpu_staging && p.ipv6 && p.json);
	assert_int_equal(p.duration_s, 8);
	assert_int_equal(p.margin_s, 2);
	assert_true(p.no_peak);
}

/* Capture stderr to check that a message names both options. */
static char errbuf[4096];

static int parse_err(enum gd_bench_op op, enum gd_bench_kind kind, int argc, char **argv)
{
	struct gd_bench_params p;
	FILE *tmp = tmpfile();
	int saved = dup(2), ret;
	size_t n;

	assert_non_null(tmp);
	fflush(stderr);
	dup2(fileno(tmp), 2);
	ret = parse(op, kind, &p, argc, argv);
	fflush(stderr);
	dup2(saved, 2);
	close(saved);
	rewind(tmp);
	n = fread(errbuf, 1, sizeof(errbuf) - 1, tmp);
	errbuf[n] = '\0';
	fclose(tmp);
	return ret;
}

#define EXPECT_ERR(op, kind, code, needle1, needle2, ...)                              \
	do {                                                                           \
		char *av[] = { "t", __VA_ARGS__, NULL };                               \
		assert_int_equal(parse_err(op, kind, ARGC(av), av), code);             \
		if (!strstr(errbuf, needle1) || !strstr(errbuf, needle2))              \
			fail_msg("message '%s' lacks '%s'/'%s'", errbuf, needle1, needle2); \
	} while (0)

static void conflicts_name_both(void **state)
{
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-a/--all", "-s/--size", "-a", "-s", "64");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-D/--duration", "-n/--iters", "-D", "5", "-n", "100");
	/* -a with -D: the adaptive sweep caps each size at -D; refused without it */
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-a/--all", "-D/--duration", "-a", "-D", "5",
		   "--precision", "0");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_LAT, -EINVAL, "-a/--all", "-D/--duration", "-a", "-D", "5");
	/* out of the list's range: -ERANGE, as every listed number (exit 2 all the same) */
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ERANGE, "--precision", "0 (off) to 100", "--precision", "101");
	EXPECT_ERR(GD_OP_ATOMIC, GD_KIND_BW, -EINVAL, "-s/--size", "8 bytes", "-s", "16");
	EXPECT_ERR(GD_OP_ATOMIC, GD_KIND_LAT, -EINVAL, "-a/--all", "8 bytes", "-a");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--run_infinitely", "-n/--iters", "--run_infinitely", "-n", "10");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-f/--margin", "-D", "-f", "1");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-f/--margin", "-D/--duration", "-D", "4", "-f", "2");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-Q/--cq-mod 200", "-t/--tx-depth 64:", "-Q", "200", "-t", "64", "-s", "8");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-Q/--cq-mod 200", "-t/--tx-depth 128 (the default)", "-Q", "200");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-l/--post_list 256", "-t/--tx-depth 128 (the default)", "-l", "256", "-n", "512");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-n/--iters", "-l/--post_list", "-l", "3", "-n", "100");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-r/--rx-depth", "--write_with_imm", "-r", "16");
	EXPECT_ERR(GD_OP_READ, GD_KIND_BW, -EINVAL, "-I/--inline_size", "read", "-I", "64");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--json", "--output", "--json", "--output=bandwidth");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--output=latency", "gd_*_lat", "--output=latency");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_LAT, -EINVAL, "--output=bandwidth", "gd_*_bw", "--output=bandwidth");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--use_cuda", "--use_hugepages", "--use_cuda=0", "--use_hugepages");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--use_cuda", "--use_cuda_bus_id", "--use_cuda_bus_id=0000:1b:00.0", "--use_cuda=1");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--use_cuda_dmabuf", "--use_cuda", "--use_cuda_dmabuf");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--bind", "--bind_source_ip", "--bind=10.0.0.1", "host");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "unexpected argument", "HOST", "h1", "h2");
}

static void bad_values(void **state)
{
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-m/--mtu", "2048", "-m", "1500");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ERANGE, "-n/--iters", "5", "-n", "2");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ERANGE, "-p/--port", "65535", "-p", "0");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ERANGE, "-u/--qp-timeout", "31", "-u", "32");
	EXPECT_ERR(GD_OP_ATOMIC, GD_KIND_BW, -EINVAL, "-A/--atomic_type", "CMP_AND_SWAP", "-A", "SWAP");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--pin_cores", "0-3", "--pin_cores=a");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-w/--limit_bw", "number", "-w", "fast");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--use_cuda", "integer", "--use_cuda=gpu0");
}

/* HOST: a scoped IPv6 address (link-local RoCE GIDs need the zone) is taken as given. */
static void scoped_ipv6_host(void **state)
{
	struct gd_bench_params p;
	char *ok[] = { "t", "fe80::b4dc:63ff:fe1d:64ae%veth0", NULL };
	char *idx[] = { "t", "fe80::1%2", NULL };

	(void)state;
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(ok), ok), 0);
	assert_string_equal(p.peer, "fe80::b4dc:63ff:fe1d:64ae%veth0");
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(idx), idx), 0);
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "for HOST", "IPv6", "fe80::1%");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "for HOST", "IPv6", "fe80::1%a/b");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "for HOST", "IPv6", "fe80::1%0123456789abcdef");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "for HOST", "IPv6", "10.0.0.1%eth0");
}

static void refused_options(void **state)
{
	/* options of a sibling tool: "not supported" plus a hint naming where they live */
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_LAT, -ENOTSUP, "--bidirectional", "bandwidth tools", "-b");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_LAT, -ENOTSUP, "--run_infinitely", "bandwidth tools", "--run_infinitely");
	EXPECT_ERR(GD_OP_SEND, GD_KIND_LAT, -ENOTSUP, "--qp", "bandwidth tools", "-q", "2");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--report-cycles", "latency tools", "-C");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--latency_gap", "latency tools", "--latency_gap=3");
	EXPECT_ERR(GD_OP_READ, GD_KIND_BW, -ENOTSUP, "--write_with_imm", "gd_write_bw", "--write_with_imm");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--send_with_imm", "gd_send_bw", "--send_with_imm");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--atomic_type", "gd_atomic", "-A", "CMP_AND_SWAP");
	EXPECT_ERR(GD_OP_SEND, GD_KIND_BW, -ENOTSUP, "--outs", "gd_read_", "-o", "4");
	EXPECT_ERR(GD_OP_READ, GD_KIND_LAT, -ENOTSUP, "--rx-depth", "gd_send_", "-r", "4");
	/* perftest options gdperf does not implement */
	/* -c: RC is what gdperf runs (accepted, issue 30); the other transports are refused */
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-c/--connection UC", "not supported", "-c", "UC");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "-c/--connection UD", "(RC)", "-c", "UD");
	if (gd_fabric_have_ofi())
		EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "--fabric ofi", "-c RC", "-c", "RC", "--fabric", "ofi");
	else /* a build without libfabric refuses --fabric ofi first, naming the fix */
		EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--fabric ofi", "without libfabric", "-c", "RC",
			   "--fabric", "ofi");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--out_json", "not supported", "--out_json");
	EXPECT_ERR(GD_OP_SEND, GD_KIND_BW, -ENOTSUP, "--use-srq", "not supported", "--use-srq");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--odp", "not supported", "--odp");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -ENOTSUP, "--com_rdma_cm", "not supported", "-z");
	EXPECT_ERR(GD_OP_WRITE, GD_KIND_BW, -EINVAL, "unknown option", "--bogus", "--bogus");
}

static void help_lists_only_supported(void **state)
{
	char *argv[] = { "t", "--help", NULL };
	struct gd_bench_params p;
	char buf[16384];
	FILE *tmp = tmpfile();
	int saved = dup(1), ret;
	size_t n;

	fflush(stdout);
	dup2(fileno(tmp), 1);
	ret = parse(GD_OP_WRITE, GD_KIND_LAT, &p, 2, argv);
	fflush(stdout);
	dup2(saved, 1);
	close(saved);
	rewind(tmp);
	n = fread(buf, 1, sizeof(buf) - 1, tmp);
	buf[n] = '\0';
	fclose(tmp);
	assert_int_equal(ret, 1);
	assert_non_null(strstr(buf, "--report-histogram"));
	assert_non_null(strstr(buf, "--write_with_imm"));
	assert_null(strstr(buf, "--bidirectional"));
	assert_non_null(strstr(buf, "--connection")); /* -c RC is accepted (issue 30) */
	assert_null(strstr(buf, "--outs"));
}

/* The buffer a fabric registers as CUDA memory (libfabric FI_HMEM, bench_ofi.c): GPU
 * memory however the GPU is chosen, by index, auto or bus id (once: --use_cuda alone, and
 * a GPU chosen by --use_cuda_bus_id was registered as host memory), never the staging
 * buffer's pinned host memory nor host memory. */
static void hmem_whichever_gpu(void **state)
{
	struct gd_bench_params p;
	struct gd_bench_plan pl;
	char *host[] = { "t", NULL };
	char *index[] = { "t", "--use_cuda", "1", NULL };
	char *automatic[] = { "t", "--use_cuda=auto", NULL };
	char *bus[] = { "t", "--use_cuda_bus_id", "0000:18:00.0", NULL };
	char *vmd[] = { "t", "--use_cuda_bus_id=10000:01:00.0", NULL };
	char *staging[] = { "t", "--use_cuda_bus_id", "18:00.0", "--gpu_staging", NULL };
	struct {
		char **argv;
		bool hmem;
	} cases[] = { { host, false }, { index, true }, { automatic, true },
		      { bus, true }, { vmd, true }, { staging, false } };

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		int argc = 0;

		while (cases[i].argv[argc])
			argc++;
		assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, argc, cases[i].argv), 0);
		gd_plan_from_params(&pl, &p);
		if (gd_plan_hmem(&pl) != cases[i].hmem)
			fail_msg("%s %s: hmem %d, want %d", cases[i].argv[1] ? cases[i].argv[1] : "(host)",
				 cases[i].argv[1] && cases[i].argv[2] ? cases[i].argv[2] : "",
				 gd_plan_hmem(&pl), cases[i].hmem);
	}
}

static void derived_defaults(void **state)
{
	struct gd_bench_params p;
	char *small[] = { "t", "-s", "64", NULL };
	char *plist[] = { "t", "-l", "8", "-s", "64K", NULL };
	char *infinite[] = { "t", "--run_infinitely", NULL };
	char *many[] = { "t", "-n", "30000", NULL };
	char *imm[] = { "t", "--write_with_imm", NULL };

	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, 3, small), 0);
	assert_int_equal(p.cq_mod, 100);
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, 5, plist), 0);
	assert_int_equal(p.cq_mod, 8);
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, 2, infinite), 0);
	assert_int_equal(p.duration_s, 5);
	assert_true(p.no_peak);
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, 3, many), 0);
	assert_true(p.no_peak);
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_LAT, &p, 2, imm), 0);
	assert_int_equal(p.rx_depth, 512);
	assert_true(gd_bench_uses_recv(&p));
}

static void params_json(void **state)
{
	struct gd_bench_params p;
	char *argv[] = { "t", "-s", "4K", "--use_cuda=auto", "-A", "CMP_AND_SWAP", "host", NULL };
	json_object *obj = json_object_new_object(), *prm, *v;

	assert_int_equal(parse(GD_OP_ATOMIC, GD_KIND_BW, &p, 3, (char *[]){ "t", "-Q", "4", NULL }), 0);
	assert_int_equal(parse(GD_OP_ATOMIC, GD_KIND_BW, &p, ARGC(argv), argv), -EINVAL); /* -s 4K */
	argv[2] = "8";
	assert_int_equal(parse(GD_OP_ATOMIC, GD_KIND_BW, &p, ARGC(argv), argv), 0);
	assert_int_equal(gd_bench_params_to_json(&p, obj), 0);
	assert_true(json_object_object_get_ex(obj, "params", &prm));
	assert_true(json_object_object_get_ex(prm, "size_bytes", &v));
	assert_int_equal(json_object_get_int64(v), 8);
	assert_true(json_object_object_get_ex(prm, "atomic_type", &v));
	assert_string_equal(json_object_get_string(v), "CMP_AND_SWAP");
	assert_true(json_object_object_get_ex(prm, "use_cuda", &v));
	assert_string_equal(json_object_get_string(v), "auto");
	assert_true(json_object_object_get_ex(prm, "role", &v));
	assert_string_equal(json_object_get_string(v), "client");
	assert_true(json_object_object_get_ex(prm, "peer", &v));
	assert_string_equal(json_object_get_string(v), "host");
	assert_false(json_object_object_get_ex(prm, "device", &v)); /* unset strings are left out */
	json_object_put(obj);
}

/* No two entries of a tool's composed table share a letter or a long name. */
static void tables_have_no_duplicates(void **state)
{
	for (int op = 0; op < GD_OP_COUNT; op++) {
		for (int kind = 0; kind < GD_KIND_COUNT; kind++) {
			const struct gd_cmd *cmd = gd_bench_cmd(op, kind);
			const struct gd_opt *all[256];
			size_t n = 0;

			for (const struct gd_opt *const *t = cmd->tables; *t; t++)
				for (const struct gd_opt *o = *t; o->name; o++) {
					assert_true(n < 256);
					all[n++] = o;
				}
			assert_true(n > 100); /* perftest's options are all there */
			for (size_t i = 0; i < n; i++)
				for (size_t j = i + 1; j < n; j++) {
					if (!strcmp(all[i]->name, all[j]->name))
						fail_msg("%s: --%s twice", gd_bench_tool_name(op, kind), all[i]->name);
					if (all[i]->letter && all[i]->letter == all[j]->letter)
						fail_msg("%s: -%c for --%s and --%s", gd_bench_tool_name(op, kind),
							 all[i]->letter, all[i]->name, all[j]->name);
				}
		}
	}
}

/* Nothing silent (issue 30): without RDMA devices and without --fabric the tools refuse
 * (exit 3, the fix); --fabric ofi or --provider is the user's word. A build without
 * libfabric has no fallback to refuse: it plans verbs, saying why, and the device's
 * open names what is missing (exit 3; fabric_opts.c), and refuses --fabric ofi. */
static void no_device_refused(void **state)
{
	struct gd_bench_params p;
	char *plain[] = { "t", "--sysfs-root", NULL, "127.0.0.1", NULL };
	char *ofi[] = { "t", "--sysfs-root", NULL, "--fabric", "ofi", "127.0.0.1", NULL };
	char *prov[] = { "t", "--sysfs-root", NULL, "--provider", "shm", "127.0.0.1", NULL };
	char root[1100];

	(void)state;
	if (!gd_fixture_dir())
		skip();
	snprintf(root, sizeof(root), "%s/empty", gd_fixture_dir());
	plain[2] = ofi[2] = prov[2] = root;
	assert_int_equal(gd_bench_check_exit(-ENODEV), GD_EXIT_ENV);
	assert_int_equal(gd_bench_check_exit(-EINVAL), GD_EXIT_USAGE);
	if (!gd_fabric_have_ofi()) {
		assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(plain), plain), 0);
		assert_int_equal(p.fab.fabric, GD_FABRIC_VERBS);
		assert_non_null(strstr(p.fab.why, "built without libfabric"));
		assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(ofi), ofi), -ENOTSUP);
		assert_int_equal(gd_bench_check_exit(-ENOTSUP), GD_EXIT_USAGE); /* as every option this build does not take */
		return;
	}
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(plain), plain), -ENODEV);
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(ofi), ofi), 0);
	assert_int_equal(p.fab.fabric, GD_FABRIC_OFI);
	/* 64 KiB writes over libfabric keep the moderation (a signalled write costs
	 * tcp's target an acknowledgement: the trait moderates_writes); reads do not,
	 * nor do verbs' writes (the first test) */
	assert_int_equal(p.cq_mod, 100);
	assert_int_equal(parse(GD_OP_READ, GD_KIND_BW, &p, ARGC(ofi), ofi), 0);
	assert_int_equal(p.cq_mod, 1);
	assert_int_equal(parse(GD_OP_WRITE, GD_KIND_BW, &p, ARGC(prov), prov), 0);
	assert_string_equal(p.fab.provider, "shm");
}

static void names(void **state)
{
	assert_string_equal(gd_bench_tool_name(GD_OP_ATOMIC, GD_KIND_LAT), "gd_atomic_lat");
	assert_string_equal(gd_bench_op_title(GD_OP_WRITE), "RDMA_Write");
	assert_string_equal(gd_atomic_type_name(GD_ATOMIC_CMP_AND_SWAP), "CMP_AND_SWAP");
	assert_string_equal(gd_bench_op_name((enum gd_bench_op)42), "?");
	assert_string_equal(gd_output_name(GD_OUTPUT_MSG_RATE), "message_rate");
	assert_null(gd_bench_cmd(GD_OP_COUNT, GD_KIND_BW));
}

/*
 * Every option of every tool has its entry in the parameter list (bench_params.h:
 * its range, JSON key and spelling in one place), and every entry's option is some
 * tool's, with the same short letter. Not parameters: what gd_opts_parse does
 * itself for every tool (pure actions and the process's settings).
 */
static const char *const not_params[] = { "help", "version", "verbose", "completion",
					   "sysfs-root", NULL };

static bool is_action(const char *name)
{
	for (size_t i = 0; not_params[i]; i++)
		if (!strcmp(name, not_params[i]))
			return true;
	return false;
}

/* The first row of id in the tool's tables: an alias's canonical spelling. */
static const struct gd_opt *first_row(const struct gd_cmd *cmd, int id)
{
	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++)
			if (o->id == id && o->help)
				return o;
	return NULL;
}

/* A range --help writes out ("0-31") is the list's: the option's floor to its largest. */
static void help_range(const struct gd_opt *c, const struct gd_param *d)
{
	uint64_t scale = d->scale ? d->scale : 1, floor = GD_MAX(d->min, d->umin);
	unsigned long long lo, hi;
	const char *help = c->help == gd_opt_help_listed ? gd_param_help(c) : c->help, *h = help;

	if (d->type != GD_PT_UINT && d->type != GD_PT_SIZE && d->type != GD_PT_INT)
		return;
	if (d->type == GD_PT_INT)
		floor = (uint64_t)GD_MAX((int64_t)d->min, (int64_t)d->umin);
	for (; *h; h++)
		if (*h >= '0' && *h <= '9' && (h == help || h[-1] == ' ') &&
		    sscanf(h, "%llu-%llu", &lo, &hi) == 2) {
			if (lo != (floor + scale - 1) / scale || hi != d->max / scale)
				fail_msg("--%s: --help says %llu-%llu, the list %s", c->name, lo, hi,
					 d->opt);
			return;
		}
}

struct where {
	bool seen;
	enum gd_bench_op op;
	enum gd_bench_kind kind;
};

static void walk_tool(enum gd_bench_op op, enum gd_bench_kind kind, struct where *w)
{
	const struct gd_cmd *cmd = gd_bench_cmd(op, kind);

	for (const struct gd_opt *const *t = cmd->tables; *t; t++)
		for (const struct gd_opt *o = *t; o->name; o++) {
			const struct gd_opt *c = first_row(cmd, o->id);
			const struct gd_param *d;
			int letter;

			if (!o->help || is_action(o->name)) /* refused rows have no help */
				continue;
			d = gd_param_by_option(c->name);
			if (!d)
				fail_msg("%s --%s has no entry in the parameter list",
					 gd_bench_tool_name(op, kind), c->name);
			letter = d->opt[1] != '-' ? d->opt[1] : 0;
			if (letter != c->letter)
				fail_msg("--%s: the list says %s, the option table -%c", c->name,
					 d->opt, c->letter ? c->letter : '?');
			/* its --help line is the list's, or (the fabric's) the row's alone */
			if (c->help == gd_opt_help_listed ? !d->help || !*d->help : d->help != NULL)
				fail_msg("--%s: the help is not in one place (row %s, list %s)",
					 c->name, c->help == gd_opt_help_listed ? "listed" : "own",
					 d->help ? "has one" : "none");
			help_range(c, d);
			w[d - gd_matched_params] = (struct where){ true, op, kind };
		}
}

/* A number one past the entry's largest is refused by the list's own check. */
static void beyond_max(const struct gd_param *d, const struct where *w)
{
	const char *name = strstr(d->opt, "--");
	char val[64], top[64], needle[128];
	char *av[] = { "t", (char *)name, val, NULL };
	uint64_t scale = d->scale ? d->scale : 1;

	if (d->type == GD_PT_DOUBLE) {
		snprintf(top, sizeof(top), "%.17g", d->dmax);
		snprintf(val, sizeof(val), "%.17g", d->dmax * 10 + 1);
	} else if (d->type == GD_PT_UINT || d->type == GD_PT_SIZE || d->type == GD_PT_INT) {
		snprintf(top, sizeof(top), "%llu", (unsigned long long)(d->max / scale));
		snprintf(val, sizeof(val), "%llu", (unsigned long long)(d->max / scale + 1));
	} else {
		return;
	}
	snprintf(needle, sizeof(needle), "invalid value '%s' for %s", val, d->opt);
	assert_true(parse_err(w->op, w->kind, 3, av) < 0);
	if (!strstr(errbuf, needle))
		fail_msg("%s %s: '%s' lacks '%s'", name, val, errbuf, needle);
	snprintf(needle, sizeof(needle), "invalid value '%s'", top);
	snprintf(val, sizeof(val), "%s", top);
	parse_err(w->op, w->kind, 3, av);
	if (strstr(errbuf, needle))
		fail_msg("%s %s (the list's largest) refused: %s", name, val, errbuf);
}

static void every_option_listed(void **state)
{
	struct where w[256] = { 0 };

	(void)state;
	assert_true(gd_matched_nparams <= GD_ARRAY_SIZE(w));
	for (int op = 0; op < GD_OP_COUNT; op++)
		for (int kind = 0; kind < GD_KIND_COUNT; kind++)
			walk_tool((enum gd_bench_op)op, (enum gd_bench_kind)kind, w);
	for (size_t i = 0; i < gd_matched_nparams; i++) {
		const struct gd_param *d = &gd_matched_params[i];

		if (!d->opt || !strstr(d->opt, "--"))
			continue; /* no option (the HOST operand, run_cpus...) */
		if (!w[i].seen)
			fail_msg("the list's %s is no tool's option", d->opt);
		beyond_max(d, &w[i]);
	}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_per_tool),
		cmocka_unit_test(perftest_spellings),
		cmocka_unit_test(latency_spellings),
		cmocka_unit_test(conflicts_name_both),
		cmocka_unit_test(bad_values),
		cmocka_unit_test(scoped_ipv6_host),
		cmocka_unit_test(refused_options),
		cmocka_unit_test(help_lists_only_supported),
		cmocka_unit_test(derived_defaults),
		cmocka_unit_test(hmem_whichever_gpu),
		cmocka_unit_test(params_json),
		cmocka_unit_test(tables_have_no_duplicates),
		cmocka_unit_test(no_device_refused),
		cmocka_unit_test(names),
		cmocka_unit_test(every_option_listed),
	};
	char root[1100];

	gd_log_init("test_bench_opts");
	/* the option tests parse as on a machine with an RDMA device (the rule says verbs) */
	if (gd_fixture_dir()) {
		snprintf(root, sizeof(root), "%s/rxe", gd_fixture_dir());
		setenv(GD_SYSFS_ROOT_ENV, root, 1);
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
