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
#define ETH "ethtool/veth0" /* what `ethtool -S veth0` prints, a file a statistic */

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
	put(ETH "/rx_prio3_pause", "7");
	put(ETH "/tx_pause_storm_error_events", "0");
	put(ETH "/tx_pause_storm_warning_events", "0");
	put(ETH "/rx_prio3_buf_discard", "0");
	put(ETH "/rx3_packets", "1");	  /* per queue: left out */
	put(ETH "/rx_dropped", "2");	  /* statistics/ has it: read there only */
	put("ethtool/veth3/rx_discards_phy", "0"); /* a slave of bond0 (rxe_bond0) */
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

/* 20 informational counters aa_info00..19 of the port, each at value v (they sort before
 * the counters the tests judge). */
static void put_infos(const char *v)
{
	char rel[160];

	for (int i = 0; i < 20; i++) {
		snprintf(rel, sizeof(rel), PORT "/hw_counters/aa_info%02d", i);
		put(rel, v);
	}
}

/* put_infos' counters removed */
static void rm_infos(void)
{
	char rel[160];

	for (int i = 0; i < 20; i++) {
		snprintf(rel, sizeof(rel), "rm -f '%s/" PORT "/hw_counters/aa_info%02d'", root, i);
		assert_int_equal(system(rel), 0);
	}
}

static void many_moved(void)
{
	put_infos("9");
	put(PORT "/hw_counters/rcvd_seq_err", "37");
}

/* 20 informational counters moved before the error in file order: the error still has its
 * place in the list (the JSON), the rest are counted. */
static void error_listed_first(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	put_infos("1");
	put(PORT "/hw_counters/rcvd_seq_err", "0");
	judge(&it, &t, many_moved);
	assert_int_equal(it.status, GD_CK_FAIL);
	assert_non_null(moved(&it, "rcvd_seq_err"));
	assert_int_equal(it.ctr.nmoved, 16);
	assert_int_equal(it.ctr.nmoved + it.ctr.more, 21);
	rm_infos();
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
		 "'%s/st' && mv '%s/ethtool' '%s/et'", root, root, root, root, root, root);
	assert_int_equal(system(cmd), 0);
	judge(&it, &t, nothing);
	assert_int_equal(it.status, GD_CK_SKIP);
	assert_non_null(strstr(it.message, "none of the port's counters could be read"));
	snprintf(cmd, sizeof(cmd), "mv '%s/hw' '%s/" PORT "/hw_counters' && mv '%s/st' '%s/" STATS
		 "' && mv '%s/et' '%s/ethtool'", root, root, root, root, root, root);
	assert_int_equal(system(cmd), 0);
}

/* A source that is there but cannot be read (here the fixture's ethtool/veth0 is a file, not
 * a directory: ENOTDIR, as a permission or an I/O error live) is named unreadable, never left
 * out as if the driver had none. */
static void unreadable_source_named(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;
	char cmd[600];

	(void)state;
	test_init(&t);
	snprintf(cmd, sizeof(cmd), "mv '%s/" ETH "' '%s/eth.d' && touch '%s/" ETH "'", root, root,
		 root);
	assert_int_equal(system(cmd), 0);
	judge(&it, &t, nothing);
	snprintf(cmd, sizeof(cmd), "rm '%s/" ETH "' && mv '%s/eth.d' '%s/" ETH "'", root, root,
		 root);
	assert_int_equal(system(cmd), 0);
	assert_int_equal(it.status, GD_CK_PASS);
	assert_non_null(strstr(it.ctr.unreadable, "ethtool/veth0:(all) (Not a directory)"));
	assert_non_null(strstr(it.message, "not read (not judged)"));
}

/* The netdev's ethtool statistics are sampled (a fixture's ROOT/ethtool/IF/), but neither a
 * queue's share nor one statistics/ has; a bond's slaves' are, each named by its interface. */
static void ethtool_sampled(void **state)
{
	struct gd_pc_sample s;
	size_t eth = 0;

	(void)state;
	assert_int_equal(gd_pc_sample(&m, "rxe0", 1, &s), 0);
	assert_true(s.has[GD_PC_ETHTOOL]);
	for (size_t i = 0; i < s.n; i++) {
		if (s.v[i].src != GD_PC_ETHTOOL)
			continue;
		eth++;
		assert_string_equal(s.v[i].ifname, "veth0");
		assert_string_not_equal(s.v[i].name, "rx3_packets");
		assert_string_not_equal(s.v[i].name, "rx_dropped");
	}
	assert_int_equal(eth, 4);
	gd_pc_free(&s);
	assert_int_equal(gd_pc_sample(&m, "rxe_bond0", 1, &s), 0);
	assert_string_equal(s.netdev, "bond0");
	assert_true(s.n >= 1);
	assert_int_equal(s.v[s.n - 1].src, GD_PC_ETHTOOL);
	assert_string_equal(s.v[s.n - 1].ifname, "veth3");
	assert_string_equal(s.v[s.n - 1].name, "rx_discards_phy");
	gd_pc_free(&s);
	assert_true(gd_ethtool_per_queue("rx12_bytes") && gd_ethtool_per_queue("ch0_events"));
	assert_true(gd_ethtool_per_queue("tx_queue_3_xdp_tx") &&
		    gd_ethtool_per_queue("rx-1.packets"));
	assert_false(gd_ethtool_per_queue("rx_prio3_pause") || gd_ethtool_per_queue("rx_bytes") ||
		     gd_ethtool_per_queue("tx_pause_ctrl_phy") || gd_ethtool_per_queue("rx"));
}

static void pauses(void)
{
	put(ETH "/rx_prio3_pause", "907");
	put(ETH "/tx_pause_storm_warning_events", "2");
}

/* PFC pause frames and a pause storm's warning: congestion, reported with the interface,
 * PASS. */
static void pause_reported(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;
	const struct gd_ck_ctr *x;

	(void)state;
	test_init(&t);
	judge(&it, &t, pauses);
	assert_int_equal(it.status, GD_CK_PASS);
	x = moved(&it, "rx_prio3_pause");
	assert_non_null(x);
	assert_int_equal(x->delta, 900);
	assert_true(x->congestion && !x->error);
	assert_string_equal(x->src, "ethtool");
	assert_string_equal(x->netdev, "veth0");
	assert_string_equal(gd_ck_ctr_class(x), "congestion");
	assert_non_null(strstr(it.message, "rx_prio3_pause +900"));
	assert_non_null(strstr(it.message, "tx_pause_storm_warning_events +2"));
	put(ETH "/rx_prio3_pause", "7");
	put(ETH "/tx_pause_storm_warning_events", "0");
}

static void storm(void)
{
	put(ETH "/tx_pause_storm_error_events", "1");
	put(ETH "/rx_prio3_buf_discard", "12");
}

/* A pause storm's error event and a lossless priority's discards: FAIL, each named with the
 * netdev. */
static void storm_fails(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	judge(&it, &t, storm);
	assert_int_equal(it.status, GD_CK_FAIL);
	assert_non_null(strstr(it.message, "rxe0 port 1 veth0 tx_pause_storm_error_events +1 "
				 "during write-bw (write bw, 65536 bytes): a PFC pause storm"));
	assert_non_null(strstr(it.message, "rxe0 port 1 veth0 rx_prio3_buf_discard +12 during"));
	assert_string_equal(it.measured, "2 error counter(s) moved");
	put(ETH "/tx_pause_storm_error_events", "0");
	put(ETH "/rx_prio3_buf_discard", "0");
}

static void slave_discards(void)
{
	put("ethtool/veth3/rx_discards_phy", "4");
}

/* A bond's slave's discards FAIL the bond's port, naming the slave. */
static void slave_fails(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;
	struct gd_pc_sample a, b;

	(void)state;
	test_init(&t);
	memset(&it, 0, sizeof(it));
	assert_int_equal(gd_pc_sample(&m, "rxe_bond0", 1, &a), 0);
	slave_discards();
	assert_int_equal(gd_pc_sample(&m, "rxe_bond0", 1, &b), 0);
	gd_ck_counters_judge(&it, &t, &a, &b);
	gd_pc_free(&a);
	gd_pc_free(&b);
	assert_int_equal(it.status, GD_CK_FAIL);
	assert_non_null(strstr(it.message, "rxe_bond0 port 1 veth3 rx_discards_phy +4 during"));
	put("ethtool/veth3/rx_discards_phy", "0");
}

static void many_and_pause(void)
{
	put_infos("9");
	put(ETH "/rx_prio3_pause", "8");
}

/* 20 traffic counters moved before a pause counter in sample order: the pause keeps a place
 * in the list. */
static void congestion_listed(void **state)
{
	struct gd_ck_test t;
	struct gd_ck_item it;

	(void)state;
	test_init(&t);
	put_infos("1");
	judge(&it, &t, many_and_pause);
	assert_int_equal(it.status, GD_CK_PASS);
	assert_non_null(moved(&it, "rx_prio3_pause"));
	assert_int_equal(it.ctr.nmoved + it.ctr.more, 21);
	rm_infos();
	put(ETH "/rx_prio3_pause", "7");
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
					   "rx_missed_errors", "rx_crc_errors",
					   "tx_pause_storm_error_events", "rx_discards_phy",
					   "rx_prio3_buf_discard", "rx_prio12_cong_discard",
					   "rx_prio5_discards",
					   "rx_pcs_symbol_err_phy", "link_down_events_phy" };
	static const char *const info[] = { "port_xmit_data", "sent_pkts", "tx_bytes",
					    "no_such_counter", "rx_corrected_bits_phy",
					    "rx_prio_buf_discard", "rx_prio3x_buf_discard",
					    "rx_prio3_buf_discard_x", "rx_prio3_bytes" };
	static const char *const cong[] = { "np_cnp_sent", "rp_cnp_handled", "rx_prio3_pause",
					    "tx_prio3_pause_duration", "rx_pause_ctrl_phy",
					    "tx_pause_storm_warning_events", "rx_prio3_marked",
					    "np_ecn_marked_roce_packets" };
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
	for (size_t i = 0; i < sizeof(cong) / sizeof(cong[0]); i++) {
		assert_int_equal(gd_pc_class(cong[i], false, &why), GD_PC_CONGESTION);
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
		cmocka_unit_test(error_listed_first),	cmocka_unit_test(ethtool_sampled),
		cmocka_unit_test(pause_reported),	cmocka_unit_test(storm_fails),
		cmocka_unit_test(slave_fails),		cmocka_unit_test(congestion_listed),
		cmocka_unit_test(bond_balance_value),	cmocka_unit_test(unreadable_source_named),
	};

	if (!gd_fixture_dir()) {
		printf("SKIP: the fixture trees are missing\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, setup, teardown);
}
