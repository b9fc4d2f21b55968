/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A run's port counters (port_counters.h, check_counters.h): sampled through the sysfs root
 * from a copy of the rxe fixture whose counter files this test rewrites between the two
 * samples, the deltas, the one table of error counters, and the judgement (FAIL naming the
 * counter, the port and the change; tolerated bounds; unreadable counters not judged).
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "check_counters.h"
#include "check_int.h"
#include "fixture.h"

#define PORT "sys/devices/virtual/infiniband/rxe0/ports/1"
#define STATS "sys/devices/virtual/net/veth0/statistics"

static char root[256];
static struct gd_machine m;

static void put(const char *rel, const char *val)
{
	char p[1024], cmd[1200];
	FILE *f;

	snprintf(p, sizeof(p), "%s/%s", root, rel);
	snprintf(cmd, sizeof(cmd), "mkdir -p \"$(dirname '%s')\"", p);
	assert_int_equal(system(cmd), 0);
	f = fopen(p, "w");
	assert_non_null(f);
	fprintf(f, "%s\n", val);
	fclose(f);
}

/* A copy of the rxe box with rxe0's hw_counters and veth0's statistics. */
static int setup(void **state)
{
	char cmd[1400];
	const char *dir = gd_fixture_dir();

	(void)state;
	if (!dir)
		return -1;
	snprintf(root, sizeof(root), "/tmp/gd-ctr-XXXXXX");
	if (!mkdtemp(root))
		return -1;
	snprintf(cmd, sizeof(cmd), "cp -a '%s/rxe/.' '%s/'", dir, root);
	if (system(cmd))
		return -1;
	put(PORT "/hw_counters/rcvd_seq_err", "0");
	put(PORT "/hw_counters/duplicate_request", "4");
	put(PORT "/hw_counters/sent_pkts", "10");
	put(PORT "/hw_counters/retry_exceeded_err", "0");
	put(STATS "/rx_dropped", "2");
	put(STATS "/tx_bytes", "1000");
	return gd_machine_init(&m, root) ? -1 : 0;
}

static int teardown(void **state)
{
	char cmd[300];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", root);
	return system(cmd) ? -1 : 0;
}

static void test_init(struct gd_ck_test *t)
{
	memset(t, 0, sizeof(*t));
	snprintf(t->name, sizeof(t->name), "write-bw");
	t->op = GD_OP_WRITE;
	t->kind = GD_KIND_BW;
	t->size = 65536;
}

/* Sample, run the change, sample again, judge. */
static void judge(struct gd_ck_item *it, const struct gd_ck_test *t, void (*change)(void))
{
	struct gd_pc_sample a, b;

	memset(it, 0, sizeof(*it));
	snprintf(it->name, sizeof(it->name), "write-bw rxe0 host: counters");
	assert_int_equal(gd_pc_sample(&m, "rxe0", 1, &a), 0);
	change();
	assert_int_equal(gd_pc_sample(&m, "rxe0", 1, &b), 0);
	gd_ck_counters_judge(it, t, &a, &b);
	gd_pc_free(&a);
	gd_pc_free(&b);
}

static const struct gd_ck_ctr *moved(const struct gd_ck_item *it, const char *name)
{
	for (size_t i = 0; i < it->ctr.nmoved; i++)
		if (!strcmp(it->ctr.moved[i].name, name))
			return &it->ctr.moved[i];
	return NULL;
}

static void traffic_only(void)
{
	put(PORT "/hw_counters/sent_pkts", "5010");
	put(STATS "/tx_bytes", "9000");
}

static void seq_errors(void)
{
	traffic_only();
	put(PORT "/hw_counters/rcvd_seq_err", "37");
}

/* The sample reads every file of hw_counters and the netdev's statistics, via the root. */
static void sample_reads_fixture(void **state)
{
	struct gd_pc_sample s;
	size_t hw = 0, nd = 0;

	(void)state;
	assert_int_equal(gd_pc_sample(&m, "rxe0", 1, &s), 0);
	assert_string_equal(s.netdev, "veth0");
	assert_false(s.has[GD_PC_PORT]); /* rxe has no IBTA counters/ */
	assert_true(s.has[GD_PC_HW] && s.has[GD_PC_NETDEV]);
	for (size_t i = 0; i < s.n; i++) {
		hw += s.v[i].src == GD_PC_HW;
		nd += s.v[i].src == GD_PC_NETDEV;
		if (!strcmp(s.v[i].name, "duplicate_request"))
			assert_int_equal(s.v[i].v, 4);
	}
	assert_int_equal(hw, 4);
	assert_true(nd >= 2);
	gd_pc_free(&s);
	assert_int_equal(gd_pc_sample(&m, "rxe9", 1, &s), -ENODEV);
	assert_int_equal(gd_pc_sample(&m, "rxe0", 2, &s), -ENODEV);
}

/* Traffic counters moved, no error counter: PASS, the traffic reported. */
static void traffic_passes(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	judge(&it, &t, traffic_only);
	assert_int_equal(it.status, GD_CK_PASS);
	assert_non_null(moved(&it, "sent_pkts"));
	assert_int_equal(moved(&it, "sent_pkts")->delta, 5000);
	assert_false(moved(&it, "sent_pkts")->error);
	assert_null(moved(&it, "rcvd_seq_err"));
	assert_non_null(strstr(it.message, "sent_pkts +5000"));
	assert_string_equal(it.ctr.dev, "rxe0");
}

/* An error counter moved: FAIL naming the counter, the port, the change and the run, even
 * where nothing else failed. */
static void error_fails(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	judge(&it, &t, seq_errors);
	assert_int_equal(it.status, GD_CK_FAIL);
	assert_non_null(strstr(it.message, "rxe0 port 1 rcvd_seq_err +37 during write-bw "
				 "(write bw, 65536 bytes)"));
	assert_non_null(moved(&it, "rcvd_seq_err"));
	assert_true(moved(&it, "rcvd_seq_err")->error);
	assert_string_equal(it.measured, "1 error counter(s) moved");
	assert_true(it.has_value && it.value == 1);
}

static void retransmits(void)
{
	put(PORT "/hw_counters/duplicate_request", "1604");
}

/* rxe (no PCI parent) retransmitted after its ACK timer without a lost packet: reported,
 * PASS. */
static void soft_timer_passes(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	judge(&it, &t, retransmits);
	assert_int_equal(it.status, GD_CK_PASS);
	assert_false(moved(&it, "duplicate_request")->error);
	assert_non_null(strstr(it.message, "duplicate_request +1600"));
	put(PORT "/hw_counters/duplicate_request", "4");
}

static void many_moved(void)
{
	char rel[160];

	for (int i = 0; i < 20; i++) {
		snprintf(rel, sizeof(rel), PORT "/hw_counters/aa_info%02d", i);
		put(rel, "9");
	}
	put(PORT "/hw_counters/rcvd_seq_err", "37");
}

/* 20 informational counters moved before the error in file order: the error still has its
 * place in the list (the JSON), the rest are counted. */
static void error_listed_first(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;
	char rel[160];

	(void)state;
	test_init(&t);
	for (int i = 0; i < 20; i++) {
		snprintf(rel, sizeof(rel), PORT "/hw_counters/aa_info%02d", i);
		put(rel, "1");
	}
	put(PORT "/hw_counters/rcvd_seq_err", "0");
	judge(&it, &t, many_moved);
	assert_int_equal(it.status, GD_CK_FAIL);
	assert_non_null(moved(&it, "rcvd_seq_err"));
	assert_int_equal(it.ctr.nmoved, 16);
	assert_int_equal(it.ctr.nmoved + it.ctr.more, 21);
	for (int i = 0; i < 20; i++) {
		snprintf(rel, sizeof(rel), "rm -f '%s/" PORT "/hw_counters/aa_info%02d'", root, i);
		assert_int_equal(system(rel), 0);
	}
	put(PORT "/hw_counters/rcvd_seq_err", "0");
}

static void netdev_drops(void)
{
	put(STATS "/rx_dropped", "5");
}

/* A netdev error counter: FAIL naming the netdev. */
static void netdev_fails(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	judge(&it, &t, netdev_drops);
	assert_int_equal(it.status, GD_CK_FAIL);
	assert_non_null(strstr(it.message, "rxe0 port 1 veth0 rx_dropped +3 during"));
	put(STATS "/rx_dropped", "2");
}

/* tolerate: a bound at or above the change PASSes (reported as tolerated); below, FAIL. */
static void tolerated_bound(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	snprintf(t.tolerate[0].name, sizeof(t.tolerate[0].name), "rcvd_seq_err");
	t.tolerate[0].max = 37;
	t.ntolerate = 1;
	put(PORT "/hw_counters/rcvd_seq_err", "0");
	judge(&it, &t, seq_errors);
	assert_int_equal(it.status, GD_CK_PASS);
	assert_int_equal(moved(&it, "rcvd_seq_err")->tolerated, 37);
	assert_non_null(strstr(it.message, "rcvd_seq_err +37 (tolerated)"));
	assert_non_null(strstr(it.expected, "rcvd_seq_err <= 37"));
	t.tolerate[0].max = 36;
	put(PORT "/hw_counters/rcvd_seq_err", "0");
	judge(&it, &t, seq_errors);
	assert_int_equal(it.status, GD_CK_FAIL);
}

static void garbage_and_reset(void)
{
	put(PORT "/hw_counters/retry_exceeded_err", "many");
	put(PORT "/hw_counters/duplicate_request", "1");
}

/* A counter unreadable in a sample, or one that went back (reset during the run): not
 * judged, named; the others still are. */
static void unreadable_not_judged(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	judge(&it, &t, garbage_and_reset);
	assert_int_equal(it.status, GD_CK_PASS);
	assert_non_null(strstr(it.ctr.unreadable, "hw_counters/retry_exceeded_err"));
	assert_non_null(strstr(it.ctr.unreadable, "hw_counters/duplicate_request (went back"));
	assert_non_null(strstr(it.message, "not read (not judged)"));
	put(PORT "/hw_counters/retry_exceeded_err", "0");
	put(PORT "/hw_counters/duplicate_request", "4");
}

static void nothing(void)
{
}

/* No counter at all: SKIP, never PASS. */
static void no_counters_skip(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;
	char cmd[600];

	(void)state;
	test_init(&t);
	snprintf(cmd, sizeof(cmd), "mv '%s/" PORT "/hw_counters' '%s/hw' && mv '%s/" STATS "' "
		 "'%s/st'", root, root, root, root);
	assert_int_equal(system(cmd), 0);
	judge(&it, &t, nothing);
	assert_int_equal(it.status, GD_CK_SKIP);
	assert_non_null(strstr(it.message, "none of the port's counters could be read"));
	snprintf(cmd, sizeof(cmd), "mv '%s/hw' '%s/" PORT "/hw_counters' && mv '%s/st' '%s/" STATS
		 "'", root, root, root, root);
	assert_int_equal(system(cmd), 0);
}

/* The one table: errors and informational counters, with a reason each. */
static void class_table(void **state)
{
	static const char *const err[] = { "symbol_error", "link_downed", "port_rcv_errors",
					   "port_xmit_discards", "local_link_integrity_errors",
					   "excessive_buffer_overrun_errors", "out_of_sequence",
					   "local_ack_timeout_err", "packet_seq_err",
					   "rnr_nak_retry_err", "duplicate_request", "rcvd_seq_err",
					   "send_rnr_err", "retry_exceeded_err", "rx_dropped",
					   "rx_missed_errors", "rx_crc_errors" };
	static const char *const info[] = { "port_xmit_data", "sent_pkts", "np_cnp_sent",
					    "rp_cnp_handled", "rx_prio3_pause", "tx_bytes",
					    "no_such_counter" };
	const char *why;
	char names[2048];

	(void)state;
	for (size_t i = 0; i < sizeof(err) / sizeof(err[0]); i++) {
		assert_int_equal(gd_pc_class(err[i], false, &why), GD_PC_ERROR);
		assert_true(why && *why);
	}
	for (size_t i = 0; i < sizeof(info) / sizeof(info[0]); i++) {
		assert_int_equal(gd_pc_class(info[i], false, &why), GD_PC_INFO);
		assert_true(why && *why);
	}
	/* a software device's ACK-timer retransmissions: reported, not judged; its sequence
	 * errors (lost packets) still are */
	assert_int_equal(gd_pc_class("duplicate_request", true, &why), GD_PC_INFO);
	assert_non_null(strstr(why, "ACK timer"));
	assert_int_equal(gd_pc_class("completer_retry_err", true, &why), GD_PC_INFO);
	assert_int_equal(gd_pc_class("local_ack_timeout_err", false, &why), GD_PC_ERROR);
	assert_int_equal(gd_pc_class("rcvd_seq_err", true, &why), GD_PC_ERROR);
	gd_pc_error_names(names, sizeof(names));
	assert_non_null(strstr(names, "symbol_error"));
	assert_null(strstr(names, "sent_pkts"));
}

/* The port a run's counters are read on: verbs, its own; ofi, counters_port or a domain
 * over an RDMA device; tcp on lo, none. */
static void which_port(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_run run;
	char dev[64];
	int port;

	(void)state;
	test_init(&t);
	memset(&run, 0, sizeof(run));
	run.t = &t;
	snprintf(run.dev, sizeof(run.dev), "rxe0");
	run.port = 1;
	assert_int_equal(gd_ck_counters_port(&m, &run, dev, sizeof(dev), &port), 0);
	assert_string_equal(dev, "rxe0");
	run.dev[0] = 0;
	run.fab.fabric = GD_FABRIC_OFI;
	snprintf(run.fab.domain, sizeof(run.fab.domain), "lo");
	assert_int_equal(gd_ck_counters_port(&m, &run, dev, sizeof(dev), &port), -ENOENT);
	snprintf(run.fab.domain, sizeof(run.fab.domain), "rxe0-rdm");
	assert_int_equal(gd_ck_counters_port(&m, &run, dev, sizeof(dev), &port), 0);
	assert_string_equal(dev, "rxe0");
	snprintf(t.ctr_dev, sizeof(t.ctr_dev), "rxe_bond0");
	t.ctr_port = 1;
	assert_int_equal(gd_ck_counters_port(&m, &run, dev, sizeof(dev), &port), 0);
	assert_string_equal(dev, "rxe_bond0");
}

/* A bond-balance item (the slaves' shares of a run's traffic, check_bond.c): its text "min N%"
 * carries N as JSON's value in % (issue 30 item 8: it was null); no slave traffic: none. */
static void bond_balance_value(void **state)
{
	struct gd_ck_test t = { .bond_balance = true, .qps = 2, .duration_s = 1,
				.min_slave_share = 10 };
	struct gd_ck_run run = { .t = &t };
	struct gd_ck_measure me = { .nsizes = 1, .bw_avg_gbps = { 8 } }; /* 1e9 bytes in 1 s */
	struct gd_ck_report r = { 0 };

	(void)state;
	snprintf(t.name, sizeof(t.name), "bb");
	snprintf(run.label, sizeof(run.label), "bond0 host");
	gd_ck_bond_verdict(&r, &run, &me, "eth0 40.0%, eth1 60.0%", 40, 1e9, "bond0");
	assert_int_equal(r.n, 1);
	assert_string_equal(r.items[0].measured, "min 40.0%");
	assert_int_equal(r.items[0].status, GD_CK_PASS);
	assert_true(r.items[0].has_value);
	assert_true(r.items[0].value == 40);
	assert_string_equal(r.items[0].unit, "%");
	gd_ck_bond_verdict(&r, &run, &me, "eth0 0.0%, eth1 0.0%", -1, 0, "bond0");
	assert_int_equal(r.n, 2);
	assert_string_equal(r.items[1].measured, "no slave traffic");
	assert_false(r.items[1].has_value);
	gd_ck_report_free(&r);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(sample_reads_fixture), cmocka_unit_test(traffic_passes),
		cmocka_unit_test(error_fails),		cmocka_unit_test(netdev_fails),
		cmocka_unit_test(tolerated_bound),	cmocka_unit_test(unreadable_not_judged),
		cmocka_unit_test(no_counters_skip),	cmocka_unit_test(class_table),
		cmocka_unit_test(which_port),		cmocka_unit_test(soft_timer_passes),
		cmocka_unit_test(error_listed_first),	cmocka_unit_test(bond_balance_value),
	};

	if (!gd_fixture_dir()) {
		printf("SKIP: the fixture trees are missing\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
