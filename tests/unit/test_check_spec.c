/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check's spec loader and value parsers: good specs, bad ones with their positions, SHA-256. */
#include <errno.h>
#include <setjmp.h>
#include <stdbool.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <cmocka.h>

#include "bench_opts.h"
#include "check_machine.h"
#include "check_mpi.h"
#include "fixture.h"
#include "initiator.h"
#include "spec.h"

static int parse(const char *text, struct gd_ck_spec *s, char *err, size_t len)
{
	return gd_ck_spec_parse("t.yaml", (const unsigned char *)text, strlen(text), s, err, len);
}

static void good_spec(void **state)
{
	const char *y = "version: 1\nname: box\n"
			"topology: {gpus: 8, nics: 4, worst_gpu_nic_class: PIX}\n"
			"devices:\n  - name: mlx5_0\n    state: ACTIVE\n    min_rate: 200 Gb/s\n"
			"    mtu: 4096\n    gid_type: RoCE v2\n    bond_slaves_up: 2\n"
			"doctor:\n  must_pass: [memlock, rdma.port]\n"
			"tests:\n  - name: w\n    op: write\n    size: 1M\n    duration: 3s\n"
			"    qps: 4\n    memory: gpu\n    pairs: each-gpu-nearest-nic\n"
			"    thresholds: {min_bw: 90% line, min_peak_bw: 80% pcie, min_msg_rate: 2 Kpps}\n"
			"  - name: l\n    op: send\n    type: lat\n    iterations: 1000\n"
			"    thresholds: {max_lat: 2500 ns, max_lat_p99: 5 us}\n"
			"  - name: p\n    op: read\n    sweep: [4K, 8M]\n    pairs: ring\n";
	struct gd_ck_spec s;
	char err[1024] = "";

	(void)state;
	assert_int_equal(parse(y, &s, err, sizeof(err)), 0);
	assert_int_equal(s.topo.gpus, 8);
	assert_int_equal(s.topo.worst_class, 2); /* PIX in enum gd_link */
	assert_int_equal(s.ndevices, 1);
	assert_true(s.devices[0].min_rate_gbps == 200);
	assert_int_equal(s.devices[0].bond_slaves_up, 2);
	assert_int_equal(s.ndoctor, 2);
	assert_int_equal(s.ntests, 3);
	assert_int_equal(s.tests[0].size, 1 << 20);
	assert_int_equal(s.tests[0].duration_s, 3);
	assert_int_equal(s.tests[0].nth, 3);
	assert_int_equal(s.tests[0].th[0].kind, GD_CK_LINE);
	assert_true(s.tests[0].th[0].value == 90);
	assert_int_equal(s.tests[0].th[1].kind, GD_CK_PCIE);
	assert_true(s.tests[0].th[2].value == 0.002);
	assert_true(s.tests[1].th[0].value == 2.5);
	assert_int_equal(s.tests[1].size, 2);
	assert_int_equal(s.tests[2].pairs, GD_CK_HOSTS);
	assert_int_equal(s.tests[2].pattern, GD_CK_PAT_RING);
	assert_int_equal(s.tests[2].sweep_max, 8 << 20);
	gd_ck_spec_free(&s);
}

/* Each bad spec: the position and a word of the message. */
static void bad_specs(void **state)
{
	static const struct {
		const char *yaml, *where, *word;
	} cases[] = {
		{ "tests:\n  - name: a\n    sise: 4K\n", "t.yaml:3:5:", "unknown key 'sise'" },
		{ "tests:\n  - name: a\n    qps: many\n", "t.yaml:3:10:", "whole number" },
		{ "tests:\n  - name: a\n    size: 4 parsecs\n", "t.yaml:3:11:", "not a size" },
		{ "tests:\n  - name: a\n    thresholds: {min_bw: 10 furlongs}\n", "t.yaml:3:26:",
		  "not a bandwidth" },
		{ "tests:\n  - name: a\n    type: lat\n    thresholds: {max_lat: 5 Gb/s}\n",
		  "t.yaml:4:27:", "not a latency" },
		{ "tests:\n  - name: a\n    thresholds: {min_msg_rate: 5 us}\n", "t.yaml:3:32:",
		  "not a message rate" },
		{ "tests:\n  - name: a\n    thresholds: {min_bw: 150% line}\n", "t.yaml:3:26:",
		  "at most 100" },
		{ "tests:\n  - name: a\n    thresholds: {max_lat: 5 us}\n", "t.yaml:3:27:",
		  "latency test" },
		{ "topology:\n  gpus: [1, 2]\n", "t.yaml:2:9:", "must be a scalar" },
		{ "devices: {name: x}\n", "t.yaml:1:10:", "must be a list" },
		{ "tests:\n  - name: a\n   op: write\n", "t.yaml:3:", "YAML syntax error" },
		{ "tests: [\n", "t.yaml:2:1:", "YAML syntax error" },
		{ "tests:\n  - name: a\n    op: write\n    op: read\n", "t.yaml:4:5:", "twice" },
		{ "tests:\n  - name: a\n  - name: a\n", "t.yaml:3:5:", "unique" },
		{ "tests:\n  - op: write\n", "t.yaml:2:5:", "needs a name" },
		{ "", "t.yaml:1:1:", "empty" },
		{ "devices:\n  - name: m\n    mtu: 1500\n", "t.yaml:3:10:", "IB MTU" },
		{ "tests:\n  - name: a\n    pairs: {hosts: [a]}\n", "t.yaml:3:20:", "two hosts" },
		{ "tests:\n  - name: a\n    op: atomic\n    size: 64\n", "t.yaml:4:11:", "8 bytes" },
		{ "tests:\n  - name: l\n    type: lat\n    qps: 2\n", "t.yaml:4:10:", "qps is for bandwidth" },
		{ "version: 1\n---\nversion: 1\n", "t.yaml:2:1:", "a second YAML document" },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct gd_ck_spec s;
		char err[1024] = "";

		if (parse(cases[i].yaml, &s, err, sizeof(err)) != -EINVAL)
			fail_msg("case %zu loaded", i);
		if (strncmp(err, cases[i].where, strlen(cases[i].where)) ||
		    !strstr(err, cases[i].word))
			fail_msg("case %zu: '%s' (expected %s ... %s)", i, err, cases[i].where,
				 cases[i].word);
	}
}

static void values(void **state)
{
	struct gd_ck_threshold t;
	char why[256];
	uint64_t b;
	uint32_t sec;
	double g;

	(void)state;
	assert_int_equal(gd_ck_parse_size("64K", &b, why, sizeof(why)), 0);
	assert_int_equal(b, 65536);
	assert_int_equal(gd_ck_parse_size("0", &b, why, sizeof(why)), -EINVAL);
	assert_int_equal(gd_ck_parse_size("1.5K", &b, why, sizeof(why)), 0);
	assert_int_equal(b, 1536);
	assert_int_equal(gd_ck_parse_seconds("2m", &sec, why, sizeof(why)), 0);
	assert_int_equal(sec, 120);
	assert_int_equal(gd_ck_parse_seconds("0.5s", &sec, why, sizeof(why)), -EINVAL);
	assert_int_equal(gd_ck_parse_rate("25 GB/s", &g, why, sizeof(why)), 0);
	assert_true(g == 200);
	assert_int_equal(gd_ck_parse_threshold(GD_CK_BW_AVG, "nan Gb/s", &t, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(gd_ck_parse_threshold(GD_CK_BW_AVG, "-1 Gb/s", &t, why, sizeof(why)),
			 -EINVAL);
	assert_int_equal(gd_ck_parse_threshold(GD_CK_LAT_AVG, "3 µs", &t, why, sizeof(why)), 0);
	assert_int_equal(gd_ck_parse_threshold(GD_CK_LAT_AVG, "50% line", &t, why, sizeof(why)),
			 -EINVAL);
}

/* A firmware pattern is code: its cost is bounded before regcomp takes memory for it. */
static void fw_patterns(void **state)
{
	static const char *const good[] = { "28\\.39\\..*", "[0-9]+\\.[0-9]{2}\\.[0-9]{4}",
					    "(20|22)\\.3[5-9]\\.[[:digit:]]{1,4}", "a{2}{3}",
					    "(a{1,16}){1,16}", "\\(x\\)", "[)(]+",
					    "()" };
	static const char *const bad[] = { "(a{1,30}){1,30}", "((a{1,9}){1,9}){1,9}", "x{,500}",
					   "[]x]{300}", "(1)\\1", "a{99999999999999999999}",
					   "((((((((((((((((((a))))))))))))))))))",
					   /* the fuzzer's 122 bytes: 2 GiB in regcomp before the fix */
					   "(((){1,99}){1,99}){1,99}){1,99}){1,99})",
					   "((((){1,99}){1,99}){1,99}){1,99}){1,99}", "((|){1,99}){1,99}",
					   /* closes the "^(...)$" around it: matched every version */
					   "x)|(.*", ")" };
	const char *y = "manifest:\n  nic:\n    - name: m\n      firmware: "
			"'((((((a{1,99}){1,99}){1,99}){1,99}){1,99}){1,99})'\n";
	struct gd_ck_spec s;
	char why[256], err[1024] = "";
	regex_t re;

	(void)state;
	for (size_t i = 0; i < sizeof(good) / sizeof(good[0]); i++) {
		if (gd_ck_fw_regex(good[i], &re, why, sizeof(why)))
			fail_msg("'%s' refused: %s", good[i], why);
		regfree(&re);
	}
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		if (!gd_ck_fw_regex(bad[i], &re, why, sizeof(why))) {
			regfree(&re);
			fail_msg("'%s' compiled: its cost is not bounded", bad[i]);
		}
	assert_int_equal(parse(y, &s, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "t.yaml:4:17: "));
	assert_non_null(strstr(err, "atoms"));
}

/* Where a key of each section goes in a spec; the test spec at the key's limits. */
static int load_key(const struct gd_ck_key *k, const char *value, char *err, size_t len)
{
	static const struct {
		const char *section, *fmt;
	} ctx[] = {
		{ "spec", "%s: %s\n" },
		{ "topology", "topology: {%s: %s}\n" },
		{ "device", "devices:\n  - {name: d, %s: %s}\n" },
		{ "doctor", "doctor: {%s: %s}\n" },
		{ "test", "tests:\n  - {name: t, op: write, check: bond-balance, %s: %s}\n" },
		{ "thresholds", "tests:\n  - {name: t, op: write, thresholds: {%s: %s}}\n" },
		{ "expect", "tests:\n  - {name: t, op: write, expect: {%s: %s}}\n" },
		/* the key is a counter's name: the table's "counter" stands for any */
		{ "tolerate", "tests:\n  - {name: t, op: write, tolerate: {%.0ssymbol_error: %s}}\n" },
		{ "fleet", "fleet: {%s: %s}\n" },
		{ "manifest", "manifest: {%s: %s}\n" },
		{ "manifest nic", "manifest: {nic: [{name: m, %s: %s}]}\n" },
		{ "manifest gpu", "manifest: {gpu: [{busid: '0000:18:00.0', %s: %s}]}\n" },
		{ "baseline", "baseline: {%s: %s}\n" },
		{ "baseline check", "baseline: {checks: [{check: c, unit: Gb/s, %s: %s}]}\n" },
	};
	const char *lat = "tests:\n  - {name: t, type: lat, thresholds: {%s: %s}}\n";
	/* a fan's keys (spec_fan.c) are refused on any other pattern */
	const char *fan = "tests:\n  - {name: t, op: write, pairs: many-to-one, %s: %s}\n";
	bool is_fan = !strcmp(k->key, "root") || !strcmp(k->key, "min_congestion_factor");
	struct gd_ck_spec s;
	char y[512];
	int ret;

	for (size_t i = 0; i < sizeof(ctx) / sizeof(ctx[0]); i++) {
		if (strcmp(ctx[i].section, k->section))
			continue;
		snprintf(y, sizeof(y), k->kind == GD_CK_KEY_LAT ? lat : is_fan ? fan : ctx[i].fmt,
			 k->key, value);
		err[0] = 0;
		ret = parse(y, &s, err, len);
		if (!ret)
			gd_ck_spec_free(&s);
		return ret;
	}
	fail_msg("section '%s' of the key table has no place in this test: add it", k->section);
	return -1;
}

static void key_accepts(const struct gd_ck_key *k, const char *value, bool ok)
{
	char err[1024];
	int ret = load_key(k, value, err, sizeof(err));

	if (ok && ret)
		fail_msg("%s %s: '%s' refused: %s", k->section, k->key, value, err);
	if (!ok && ret != -EINVAL)
		fail_msg("%s %s: '%s' loaded (%d)", k->section, k->key, value, ret);
	if (!ok && !strstr(err, "t.yaml:"))
		fail_msg("%s %s: '%s': no position in '%s'", k->section, k->key, value, err);
}

/* A whole-number key at its limits: the limit loads, one past it is refused. */
static void key_limits(const struct gd_ck_key *k)
{
	const struct gd_param *p = k->param == (size_t)-1 ? NULL : gd_param_find(k->param);
	uint64_t min, max;
	char who[96], v[64];

	gd_ck_key_limits(k, &min, &max, who, sizeof(who));
	if (k->param != (size_t)-1) { /* the engine's parameter list has it: its limits */
		assert_non_null(p);
		assert_true(min == (p->umin > p->min ? p->umin : p->min) && max == p->max);
	}
	assert_true(min <= max);
	snprintf(v, sizeof(v), k->kind == GD_CK_KEY_SWEEP ? "[1, %llu]" : "%llu",
		 (unsigned long long)max);
	key_accepts(k, v, true);
	snprintf(v, sizeof(v), k->kind == GD_CK_KEY_SWEEP ? "[1, %llu]" : "%llu",
		 (unsigned long long)max + 1);
	key_accepts(k, v, false);
	snprintf(v, sizeof(v), k->kind == GD_CK_KEY_SWEEP ? "[%llu, %llu]" : "%llu",
		 (unsigned long long)min, (unsigned long long)min);
	key_accepts(k, v, true);
	if (min) {
		snprintf(v, sizeof(v), "%llu", (unsigned long long)min - 1);
		key_accepts(k, k->kind == GD_CK_KEY_SWEEP ? "[0, 1]" : v, false);
	}
}

/* Every key of the loader's table (a key added there is walked here): numbers at the limits of
 * the component they feed, reals refused when not finite after their unit or written in hex. */
static void every_key(void **state)
{
	static const struct {
		enum gd_ck_key_kind kind;
		const char *good, *inf, *hex;
	} real[] = {
		{ GD_CK_KEY_PERCENT, "50%", "101%", "0x10%" },
		{ GD_CK_KEY_BW, "1 Gb/s", "1e308 Tb/s", "0x1p3 Gb/s" },
		{ GD_CK_KEY_LAT, "1 us", "1e308 ms", "0x1p3 us" },
		{ GD_CK_KEY_RATE, "1 Mpps", "2e308 Mpps", "0x1p3 Mpps" },
		{ GD_CK_KEY_FACTOR, "0.5", "1e309", "0x1p-1" },
	};
	size_t n, walked = 0;
	const struct gd_ck_key *keys = gd_ck_keys(&n);

	(void)state;
	for (size_t i = 0; i < n; i++) {
		const struct gd_ck_key *k = &keys[i];

		if (k->kind == GD_CK_KEY_TEXT || k->kind == GD_CK_KEY_SECTION) {
			load_key(k, "x", (char[1024]){ 0 }, 1024); /* its section has a place */
			continue;
		}
		walked++;
		if (k->kind <= GD_CK_KEY_SECONDS) {
			key_limits(k);
			continue;
		}
		for (size_t j = 0; j < sizeof(real) / sizeof(real[0]); j++)
			if (real[j].kind == k->kind) {
				key_accepts(k, real[j].good, true);
				key_accepts(k, real[j].inf, false);
				key_accepts(k, real[j].hex, false);
			}
	}
	assert_true(walked >= 20);
}

/* An error quotes at most the token at fault (64 bytes of it), escaped: never a raw control
 * byte, never the rest of a long value. */
static void quoted_tokens(void **state)
{
	static char y[4][6000];
	const char *want[4] = { "'\\x1b[31mRED'", "99999999...'", "unknown key 'kkk", "'a\\x1b[31mb'" };
	char err[1024];

	(void)state;
	snprintf(y[0], sizeof(y[0]), "tests:\n  - {name: t, size: \"\\e[31mRED\"}\n");
	snprintf(y[1], sizeof(y[1]), "tests:\n  - {name: t, size: %05000dx}\n", 9);
	memset(y[1] + 27, '9', 4999);
	snprintf(y[2], sizeof(y[2]), "tests:\n  - name: t\n    %0500d: 1\n", 0);
	memset(y[2] + 23, 'k', 500);
	snprintf(y[3], sizeof(y[3]), "tests:\n  - {name: \"a\\e[31mb\", op: atomic, size: 64}\n");
	for (size_t i = 0; i < 4; i++) {
		struct gd_ck_spec s;

		err[0] = 0;
		if (parse(y[i], &s, err, sizeof(err)) != -EINVAL)
			fail_msg("case %zu loaded", i);
		if (!strstr(err, want[i]))
			fail_msg("case %zu: '%s' lacks %s", i, err, want[i]);
		for (const char *c = err; *c; c++)
			if ((unsigned char)*c < 0x20 || *c == 0x7f)
				fail_msg("case %zu: a raw control byte 0x%02x in '%s'", i, *c, err);
		if (i == 1 || i == 2) { /* 64 bytes of the token and "...", not the whole */
			const char *q = strchr(err + 8, '\'');

			assert_non_null(q);
			if (strcspn(q + 1, "'") > 67)
				fail_msg("case %zu quotes %zu bytes: '%s'", i, strcspn(q + 1, "'"), err);
		}
	}
}

/* More nodes than a spec can use are refused before libyaml builds the document (~100 bytes a
 * node: 7 M scalars took 1.6 GB). */
static void node_bound(void **state)
{
	size_t n = 70000, len = 40 + 2 * n;
	char *y = malloc(len), *p = y, err[1024] = "";
	struct gd_ck_spec s;

	(void)state;
	assert_non_null(y);
	p += sprintf(p, "doctor: {must_pass: [");
	for (size_t i = 0; i < n; i++)
		p += sprintf(p, "a,");
	sprintf(p, "a]}\n");
	assert_int_equal(parse(y, &s, err, sizeof(err)), -EINVAL);
	free(y);
	if (!strstr(err, "more than 65536 values"))
		fail_msg("'%s'", err);
}

static void sha256(void **state)
{
	char h[65];

	(void)state;
	gd_ck_sha256_hex((const unsigned char *)"", 0, h);
	assert_string_equal(h, "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855");
	gd_ck_sha256_hex((const unsigned char *)"abc", 3, h);
	assert_string_equal(h, "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad");
	/* two blocks of padding (56 bytes) */
	gd_ck_sha256_hex((const unsigned char *)"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
			 56, h);
	assert_string_equal(h, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1");
}

static void pairs(void **state)
{
	int p[64][2];

	(void)state;
	assert_int_equal(gd_ck_pairs(GD_CK_PAT_PAIRWISE, 4, p, 64), 2);
	assert_int_equal(p[1][0], 1);
	assert_int_equal(p[1][1], 3);
	assert_int_equal(gd_ck_pairs(GD_CK_PAT_RING, 4, p, 64), 4);
	assert_int_equal(p[3][0], 3);
	assert_int_equal(p[3][1], 0);
	assert_int_equal(gd_ck_pairs(GD_CK_PAT_RING, 2, p, 64), 1);
	assert_int_equal(gd_ck_pairs(GD_CK_PAT_ALL_PAIRS, 4, p, 64), 6);
	assert_int_equal(gd_ck_pairs(GD_CK_PAT_ALL_PAIRS, 1, p, 64), 0);
}

/* The rank and size of mpirun (Open MPI), PMIx, PMI and srun (Slurm), first found wins. */
static void launcher_env(void **state)
{
	static const char *const vars[] = { "OMPI_COMM_WORLD_RANK", "OMPI_COMM_WORLD_SIZE",
					    "PMIX_RANK", "PMIX_SIZE", "PMI_RANK", "PMI_SIZE",
					    "SLURM_PROCID", "SLURM_NTASKS", "SLURM_STEP_ID", "SLURM_STEPID" };
	struct gd_launch l;

	(void)state;
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		unsetenv(vars[i]);
	gd_launch_env(&l);
	assert_int_equal(l.size, 1);
	assert_null(l.source);
	setenv("SLURM_PROCID", "3", 1);
	setenv("SLURM_NTASKS", "4", 1);
	gd_launch_env(&l); /* an sbatch batch script: no step id, not srun */
	assert_null(l.source);
	assert_true(l.slurm_batch);
	assert_int_equal(l.size, 1);
	setenv("SLURM_STEP_ID", "4294967291", 1); /* the batch step's number is no step either */
	gd_launch_env(&l);
	assert_null(l.source);
	setenv("SLURM_STEP_ID", "0", 1);
	gd_launch_env(&l);
	assert_int_equal(l.rank, 3);
	assert_int_equal(l.size, 4);
	assert_string_equal(l.source, "SLURM_PROCID");
	setenv("OMPI_COMM_WORLD_RANK", "1", 1);
	setenv("OMPI_COMM_WORLD_SIZE", "2", 1);
	gd_launch_env(&l);
	assert_int_equal(l.rank, 1);
	assert_string_equal(l.source, "OMPI_COMM_WORLD_RANK");
	setenv("OMPI_COMM_WORLD_RANK", "5", 1); /* rank beyond size: not trusted */
	gd_launch_env(&l);
	assert_int_equal(l.size, 1);
	assert_int_equal(l.rank, 0);
	unsetenv("OMPI_COMM_WORLD_RANK");
	unsetenv("OMPI_COMM_WORLD_SIZE");
	/* srun --mpi=pmix (Slurm 22.05): PMIX_RANK without PMIX_SIZE; the size is srun's */
	setenv("PMIX_RANK", "1", 1);
	setenv("SLURM_PROCID", "1", 1);
	setenv("SLURM_NTASKS", "2", 1);
	gd_launch_env(&l);
	assert_int_equal(l.rank, 1);
	assert_int_equal(l.size, 2);
	assert_string_equal(l.source, "PMIX_RANK");
	unsetenv("PMIX_RANK");
	unsetenv("SLURM_PROCID");
	unsetenv("SLURM_NTASKS");
	unsetenv("SLURM_STEP_ID");
}

/* tolerate: error counters with a bound each; counters_port: a port for fabric ofi. */
static void counters_keys(void **state)
{
	static const struct {
		const char *y, *pos, *msg;
	} bad[] = {
		{ "tests:\n  - {name: t, op: write, tolerate: {sent_pkts: 3}}\n", "t.yaml:2:37:",
		  "'sent_pkts' is not an error counter" },
		{ "tests:\n  - {name: t, op: write, tolerate: {out_of_sequence: -1}}\n",
		  "t.yaml:2:54:", "from 0 to 1000000000" },
		{ "tests:\n  - {name: t, op: write, tolerate: [out_of_sequence]}\n", "t.yaml:2:36:",
		  "tolerate must be a mapping" },
		{ "tests:\n  - {name: t, op: write, counters_port: mlx5_0:1}\n", "t.yaml:2:41:",
		  "counters_port is for fabric ofi" },
		{ "tests:\n  - {name: t, op: write, provider: tcp, counters_port: 'mlx5_0:x'}\n",
		  "t.yaml:2:56:", "DEV:PORT" },
	};
	const char *y = "tests:\n  - name: t\n    op: write\n    provider: tcp\n"
			"    counters_port: rxe0:2\n"
			"    tolerate: {out_of_sequence: 50, rx_dropped: 0}\n";
	struct gd_ck_spec s;
	char err[2048];

	(void)state;
	assert_int_equal(parse(y, &s, err, sizeof(err)), 0);
	assert_string_equal(s.tests[0].ctr_dev, "rxe0");
	assert_int_equal(s.tests[0].ctr_port, 2);
	assert_int_equal(s.tests[0].ntolerate, 2);
	assert_string_equal(s.tests[0].tolerate[0].name, "out_of_sequence");
	assert_int_equal(s.tests[0].tolerate[0].max, 50);
	gd_ck_spec_free(&s);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = 0;
		assert_int_equal(parse(bad[i].y, &s, err, sizeof(err)), -EINVAL);
		if (!strstr(err, bad[i].pos) || !strstr(err, bad[i].msg))
			fail_msg("case %zu: '%s'", i, err);
	}
}

/* One test: "tests:\n  - name: t\n    op: write\n" and keys (fabric: ofi first when ofi). */
static int parse_test(const char *keys, bool ofi, struct gd_ck_spec *s)
{
	char y[512], err[1024] = "";

	snprintf(y, sizeof(y), "version: 1\nname: b\ntests:\n  - name: t\n    op: write\n%s%s",
		 ofi ? "    fabric: ofi\n" : "", keys);
	return parse(y, s, err, sizeof(err));
}

/* gd_check's fabric and its loader agree, and a device or an initiator is the bench tools'
 * reason (issue 32 item 1): on a box whose rule says libfabric (no RDMA device), a test whose
 * key the loader refuses beside 'fabric: ofi' plans verbs, a test the loader takes with
 * 'fabric: ofi' keeps the rule's answer. Before: pairs between ranks planned verbs although
 * the loader takes them with fabric ofi, and a device said "the test names RDMA devices or
 * GPUs" where the tools' -d says "-d names verbs". */
static void one_fabric_decision(void **state)
{
	static const struct {
		const char *keys, *why; /* why: NULL when the rule decides */
	} c[] = {
		{ "", NULL },
		{ "    device: rxe0\n", "-d names verbs" },
		{ "    initiator: proxy\n", "--initiator names verbs" },
		{ "    memory: gpu\n", "the test's memory" },
		{ "    pairs: each-gpu-nearest-nic\n", "the test's pairs" },
		{ "    pairs: pairwise\n", NULL },
	};
	struct gd_ck_machine m = { .mach = &gd_fixture_m };

	(void)state;
	if (gd_fixture_use("empty"))
		skip();
	gd_init_use_table(gd_initiator_table);
	for (size_t i = 0; i < sizeof(c) / sizeof(c[0]); i++) {
		struct gd_ck_spec s;
		struct gd_fabric_opts f;

		/* the loader refuses fabric: ofi exactly where gd_check plans verbs */
		if (parse_test(c[i].keys, true, &s) == 0) {
			gd_ck_spec_free(&s);
			assert_null(c[i].why);
		} else
			assert_non_null(c[i].why);
		assert_int_equal(parse_test(c[i].keys, false, &s), 0);
		assert_int_equal(gd_ck_test_fabric(&m, &s.tests[0], &f), 0);
		if (c[i].why) {
			assert_int_equal(f.fabric, GD_FABRIC_VERBS);
			assert_non_null(strstr(f.why, c[i].why));
		} else {
			assert_int_equal(f.fabric, gd_fabric_have_ofi() ? GD_FABRIC_OFI : GD_FABRIC_VERBS);
			assert_int_equal(f.no_device, gd_fabric_have_ofi());
		}
		gd_ck_spec_free(&s);
	}
	gd_init_use_table(NULL);
}

/* The device a rank's run names between hosts (check_mpi.c) follows the same decision as the
 * single-host plan: on an EFA-only node the rule's libfabric efa names none (before: the first
 * ACTIVE device, efa0, so the ranks planned verbs on EFA, which has no RC); with RDMA devices
 * the first ACTIVE one; with none a refusal, never the rule's libfabric tcp. */
static void rank_device(void **state)
{
	char root[] = "/tmp/gd-rankdev-XXXXXX", path[300], dev[64] = "x";
	static const char *const dirs[] = { "sys", "sys/class", "sys/class/infiniband",
					    "sys/class/infiniband/efa0",
					    "sys/class/infiniband/efa0/ports",
					    "sys/class/infiniband/efa0/ports/1" };
	struct gd_ck_machine m = { 0 };
	struct gd_machine mach;
	struct gd_ck_spec s;
	FILE *f;

	(void)state;
	assert_int_equal(parse_test("", false, &s), 0);
	assert_non_null(mkdtemp(root));
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++) {
		snprintf(path, sizeof(path), "%s/%s", root, dirs[i]);
		assert_int_equal(mkdir(path, 0755), 0);
	}
	snprintf(path, sizeof(path), "%s/sys/class/infiniband/efa0/ports/1/state", root);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("4: ACTIVE\n", f);
	fclose(f);
	assert_int_equal(gd_machine_init(&mach, root), 0);
	m.mach = &mach;
	if (gd_fabric_have_ofi()) {
		assert_int_equal(gd_ck_run_device(&m, &s.tests[0], dev, sizeof(dev)), 0);
		assert_string_equal(dev, "");
	}
	snprintf(path, sizeof(path), "rm -rf '%s'", root);
	assert_int_equal(system(path), 0);
	if (gd_fixture_use("rxe") == 0) {
		m.mach = &gd_fixture_m;
		assert_int_equal(gd_ck_run_device(&m, &s.tests[0], dev, sizeof(dev)), 0);
		assert_string_equal(dev, "rxe0");
	}
	if (gd_fixture_use("empty") == 0) {
		m.mach = &gd_fixture_m;
		assert_int_equal(gd_ck_run_device(&m, &s.tests[0], dev, sizeof(dev)), -1);
	}
	gd_ck_spec_free(&s);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(good_spec), cmocka_unit_test(bad_specs), cmocka_unit_test(values),
		cmocka_unit_test(sha256), cmocka_unit_test(fw_patterns), cmocka_unit_test(every_key),
		cmocka_unit_test(quoted_tokens), cmocka_unit_test(node_bound),
		cmocka_unit_test(pairs), cmocka_unit_test(counters_keys),
		cmocka_unit_test(launcher_env),
		cmocka_unit_test(one_fabric_decision),
		cmocka_unit_test(rank_device),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
