/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the bond readers: /proc/net/bonding text and the sysfs fixture trees. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "bond.h"
#include "fixture.h"
#include "sysfs.h"

static const char lacp[] =
	"Ethernet Channel Bonding Driver: v6.1.0-27-amd64\n"
	"\n"
	"Bonding Mode: IEEE 802.3ad Dynamic link aggregation\n"
	"Transmit Hash Policy: layer3+4 (1)\n"
	"MII Status: up\n"
	"MII Polling Interval (ms): 100\n"
	"Up Delay (ms): 0\n"
	"Down Delay (ms): 0\n"
	"Peer Notification Delay (ms): 0\n"
	"\n"
	"802.3ad info\n"
	"LACP active: on\n"
	"LACP rate: fast\n"
	"Min links: 0\n"
	"Aggregator selection policy (ad_select): stable\n"
	"System priority: 65535\n"
	"System MAC address: 0c:42:a1:e5:60:10\n"
	"Active Aggregator Info:\n"
	"\tAggregator ID: 1\n"
	"\tNumber of ports: 1\n"
	"\tActor Key: 21\n"
	"\tPartner Key: 1\n"
	"\tPartner Mac Address: 00:00:5e:00:01:01\n"
	"\n"
	"Slave Interface: reth0\n"
	"MII Status: up\n"
	"Speed: 200000 Mbps\n"
	"Duplex: full\n"
	"Link Failure Count: 0\n"
	"Permanent HW addr: 0c:42:a1:e5:60:10\n"
	"Slave queue ID: 0\n"
	"Aggregator ID: 1\n"
	"details actor lacp pdu:\n"
	"    system priority: 65535\n"
	"    port state: 61\n"
	"\n"
	"Slave Interface: reth1\n"
	"MII Status: down\n"
	"Speed: Unknown\n"
	"Duplex: Unknown\n"
	"Link Failure Count: 3\n"
	"Permanent HW addr: 0c:42:a1:e5:60:11\n"
	"Slave queue ID: 0\n"
	"Aggregator ID: 2\n";

static const char ab[] =
	"Ethernet Channel Bonding Driver: v6.1.0\n\n"
	"Bonding Mode: fault-tolerance (active-backup)\n"
	"Primary Slave: None\n"
	"Currently Active Slave: eth1\n"
	"MII Status: up\n"
	"MII Polling Interval (ms): 100\n\n"
	"Slave Interface: eth0\nMII Status: up\nSpeed: 25000 Mbps\nDuplex: full\n"
	"Link Failure Count: 1\nPermanent HW addr: 52:54:00:00:00:01\nSlave queue ID: 0\n\n"
	"Slave Interface: eth1\nMII Status: up\nSpeed: 25000 Mbps\nDuplex: full\n"
	"Link Failure Count: 0\nPermanent HW addr: 52:54:00:00:00:02\nSlave queue ID: 0\n";

static void parses_802_3ad(void **state)
{
	struct gd_bond b;

	memset(&b, 0, sizeof(b));
	b.speed_mbps = b.active_aggregator = b.miimon_ms = -1;
	assert_int_equal(gd_bond_parse_proc(lacp, &b), 0);
	assert_string_equal(b.mode, "802.3ad");
	assert_int_equal(b.mode_num, 4);
	assert_string_equal(b.xmit_hash_policy, "layer3+4");
	assert_string_equal(b.mii_status, "up");
	assert_int_equal(b.miimon_ms, 100);
	assert_string_equal(b.lacp_rate, "fast");
	assert_int_equal(b.active_aggregator, 1);
	assert_int_equal(b.nslaves, 2);
	assert_string_equal(b.slaves[0].name, "reth0");
	assert_int_equal(b.slaves[0].speed_mbps, 200000);
	assert_int_equal(b.slaves[0].aggregator_id, 1);
	assert_int_equal(b.slaves[0].link_failures, 0);
	assert_string_equal(b.slaves[0].perm_hwaddr, "0c:42:a1:e5:60:10");
	assert_string_equal(b.slaves[1].mii_status, "down");
	assert_int_equal(b.slaves[1].speed_mbps, -1);
	assert_int_equal(b.slaves[1].link_failures, 3);
	assert_int_equal(b.slaves[1].aggregator_id, 2);
	/* only the up slave in the active aggregator counts */
	assert_int_equal(b.speed_mbps, 200000);
	gd_bond_free(&b);
}

static void parses_active_backup(void **state)
{
	struct gd_bond b;

	memset(&b, 0, sizeof(b));
	b.speed_mbps = b.active_aggregator = b.miimon_ms = -1;
	assert_int_equal(gd_bond_parse_proc(ab, &b), 0);
	assert_string_equal(b.mode, "active-backup");
	assert_int_equal(b.mode_num, 1);
	assert_string_equal(b.xmit_hash_policy, "");
	assert_string_equal(b.active_slave, "eth1");
	assert_int_equal(b.nslaves, 2);
	assert_int_equal(b.slaves[0].link_failures, 1);
	assert_int_equal(b.active_aggregator, -1);
	assert_int_equal(b.speed_mbps, 25000); /* the active slave only */
	gd_bond_free(&b);
}

static void rejects_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"garbage\n",
		"Slave Interface: eth0\nMII Status: up\n",              /* no mode */
		"Bonding Mode: teleportation\n",                          /* unknown mode */
		"Bonding Mode: load balancing (xor)\nMII Polling Interval (ms): often\n",
		"Bonding Mode: load balancing (xor)\n\nSlave Interface: eth0\nSpeed: fast\n",
		"Bonding Mode: load balancing (xor)\n\nSlave Interface: eth0\nLink Failure Count: x\n",
		"Bonding Mode: load balancing (xor)\n\nSlave Interface: \n",
		"Bonding Mode: load balancing (xor)\n\nSlave Interface: "
		"a_very_long_interface_name_beyond_ifnamsiz\n",
	};

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		struct gd_bond b;

		memset(&b, 0, sizeof(b));
		assert_int_equal(gd_bond_parse_proc(bad[i], &b), -EINVAL);
		gd_bond_free(&b);
	}
}

static void rejects_overlong_line(void **state)
{
	char text[600];
	struct gd_bond b;

	memset(&b, 0, sizeof(b));
	snprintf(text, sizeof(text), "Bonding Mode: load balancing (xor)\nMII Status: %0500d\n", 0);
	assert_int_equal(gd_bond_parse_proc(text, &b), -EINVAL);
	gd_bond_free(&b);
}

static void modes(void **state)
{
	assert_int_equal(gd_bond_mode_num("802.3ad"), 4);
	assert_int_equal(gd_bond_mode_num("balance-xor"), 2);
	assert_int_equal(gd_bond_mode_num("weird"), -1);
	assert_string_equal(gd_bond_mode_name(1), "active-backup");
	assert_string_equal(gd_bond_mode_name(9), "unknown");
	assert_int_equal(gd_bond_mode_from_proc("load balancing (round-robin)"), 0);
}

/* One slave-speed rule for gd_devinfo and gd_doctor: every mode, unknown speeds left out. */
static void speed_mismatch_in_every_mode(void **state)
{
	struct gd_bond_slave sl[3] = { { .speed_mbps = -1 }, { .speed_mbps = 100000 },
				       { .speed_mbps = 200000 } };
	struct gd_bond b = { .slaves = sl, .nslaves = 3 };
	size_t r = 9, o = 9;

	for (int mode = GD_BOND_RR; mode <= GD_BOND_ALB; mode++) {
		b.mode_num = mode;
		assert_true(gd_bond_speed_mismatch(&b, &r, &o));
		assert_int_equal(r, 1); /* the down slave of unknown speed is not the reference */
		assert_int_equal(o, 2);
	}
	sl[2].speed_mbps = 100000;
	assert_false(gd_bond_speed_mismatch(&b, &r, &o));
	sl[1].speed_mbps = -1;
	assert_false(gd_bond_speed_mismatch(&b, &r, &o));
	b.nslaves = 0;
	assert_false(gd_bond_speed_mismatch(&b, &r, &o));
}

static void set_box(const char *box)
{
	assert_int_equal(gd_fixture_use(box), 0);
}

static void reads_sysfs_lag(void **state)
{
	struct gd_bond b;

	set_box("h20");
	assert_int_equal(gd_bond_read(&gd_fixture_m, "bond2", &b), 0);
	assert_int_equal(b.errors.n, 0);
	assert_string_equal(b.mode, "802.3ad");
	assert_string_equal(b.xmit_hash_policy, "layer3+4");
	assert_int_equal(b.active_aggregator, 1);
	assert_int_equal(b.speed_mbps, 400000);
	assert_int_equal(b.nslaves, 2);
	assert_string_equal(b.slaves[0].name, "reth4");
	assert_string_equal(b.slaves[0].pci_addr, "0000:9b:00.0");
	assert_string_equal(b.slaves[1].pci_addr, "0000:9b:00.1");
	assert_int_equal(b.slaves[1].speed_mbps, 200000);
	assert_string_equal(b.slaves[1].state, "active");
	gd_bond_free(&b);
	assert_int_equal(gd_bond_read(&gd_fixture_m, "reth0", &b), -ENOENT);
	gd_bond_free(&b);
	assert_int_equal(gd_bond_read(&gd_fixture_m, "nosuch", &b), -ENOENT);
	gd_bond_free(&b);
}

static void reads_degraded_lag(void **state)
{
	struct gd_bond b;

	set_box("degraded");
	assert_int_equal(gd_bond_read(&gd_fixture_m, "bond0", &b), 0);
	assert_int_equal(b.errors.n, 0);
	assert_string_equal(b.slaves[1].mii_status, "down");
	assert_int_equal(b.slaves[1].speed_mbps, -1);
	assert_int_equal(b.slaves[1].link_failures, 3);
	assert_int_equal(b.slaves[1].aggregator_id, 2);
	gd_bond_free(&b);
}

static void sysfs_and_proc_agree(void **state)
{
	struct gd_bond s, p;
	char text[8192];

	set_box("h20");
	assert_int_equal(gd_bond_read(&gd_fixture_m, "bond1", &s), 0);
	assert_int_equal(
		gd_sysfs_read_str(&gd_fixture_m, text, sizeof(text), "/proc/net/bonding/bond1"), 0);
	memset(&p, 0, sizeof(p));
	assert_int_equal(gd_bond_parse_proc(text, &p), 0);
	assert_string_equal(s.mode, p.mode);
	assert_string_equal(s.xmit_hash_policy, p.xmit_hash_policy);
	assert_int_equal(s.active_aggregator, p.active_aggregator);
	assert_int_equal(s.nslaves, p.nslaves);
	for (size_t i = 0; i < s.nslaves; i++) {
		assert_string_equal(s.slaves[i].name, p.slaves[i].name);
		assert_int_equal(s.slaves[i].speed_mbps, p.slaves[i].speed_mbps);
		assert_int_equal(s.slaves[i].link_failures, p.slaves[i].link_failures);
	}
	gd_bond_free(&s);
	gd_bond_free(&p);
}

static void reports_garbage_in_sysfs(void **state)
{
	struct gd_bond b;

	set_box("broken");
	assert_int_equal(gd_bond_read(&gd_fixture_m, "bond0", &b), 0);
	assert_int_equal(b.mode_num, -1);
	assert_int_equal(b.errors.n, 2);
	assert_non_null(strstr(b.errors.v[0].path, "/sys/class/net/bond0/bonding/mode"));
	assert_int_equal(b.errors.v[0].err, -EINVAL);
	assert_non_null(strstr(b.errors.v[1].path, "reth1/bonding_slave/link_failure_count"));
	gd_bond_free(&b);
}

/* A bond whose sysfs has no bonding/ directory is read from /proc/net/bonding. */
static void falls_back_to_proc(void **state)
{
	char dir[] = "/tmp/gd_bond_XXXXXX", path[256], cmd[300];
	struct gd_bond b;
	FILE *f;

	assert_non_null(mkdtemp(dir));
	snprintf(cmd, sizeof(cmd), "mkdir -p %s/sys/class/net/bond7 %s/proc/net/bonding", dir, dir);
	assert_int_equal(system(cmd), 0);
	snprintf(path, sizeof(path), "%s/proc/net/bonding/bond7", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs(lacp, f);
	fclose(f);
	assert_int_equal(gd_machine_init(&gd_fixture_m, dir), 0);
	assert_int_equal(gd_bond_read(&gd_fixture_m, "bond7", &b), 0);
	assert_string_equal(b.name, "bond7");
	assert_string_equal(b.mode, "802.3ad");
	assert_int_equal(b.nslaves, 2);
	assert_int_equal(b.errors.n, 0);
	gd_bond_free(&b);
	/* garbage there is named */
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("Bonding Mode: teleportation\n", f);
	fclose(f);
	assert_int_equal(gd_bond_read(&gd_fixture_m, "bond7", &b), 0);
	assert_int_equal(b.errors.n, 1);
	assert_non_null(strstr(b.errors.v[0].path, "/proc/net/bonding/bond7"));
	gd_bond_free(&b);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	assert_int_equal(system(cmd), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_802_3ad),
		cmocka_unit_test(parses_active_backup),
		cmocka_unit_test(rejects_malformed),
		cmocka_unit_test(rejects_overlong_line),
		cmocka_unit_test(modes),
		cmocka_unit_test(speed_mismatch_in_every_mode),
		cmocka_unit_test(reads_sysfs_lag),
		cmocka_unit_test(reads_degraded_lag),
		cmocka_unit_test(sysfs_and_proc_agree),
		cmocka_unit_test(reports_garbage_in_sysfs),
		cmocka_unit_test(falls_back_to_proc),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
