/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the GID parser, GID types and the default RoCE v2 index rule. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <arpa/inet.h>
#include <cmocka.h>

#include "gid.h"

static void parses_ipv4_mapped(void **state)
{
	struct gd_gid g = { 0 };

	assert_int_equal(gd_gid_parse("0000:0000:0000:0000:0000:ffff:0a00:0001\n", &g), 0);
	assert_true(g.ipv4);
	assert_false(g.link_local);
	assert_string_equal(g.ip, "10.0.0.1");
	assert_string_equal(g.gid, "0000:0000:0000:0000:0000:ffff:0a00:0001");
	assert_int_equal(gd_gid_parse("0000:0000:0000:0000:0000:FFFF:A9FE:0102", &g), 0);
	assert_true(g.ipv4);
	assert_true(g.link_local); /* 169.254/16 */
	assert_string_equal(g.ip, "169.254.1.2");
	assert_string_equal(g.gid, "0000:0000:0000:0000:0000:ffff:a9fe:0102");
}

static void parses_ipv6(void **state)
{
	struct gd_gid g = { 0 };

	assert_int_equal(gd_gid_parse("fe80:0000:0000:0000:0e42:a1ff:fee5:6f10", &g), 0);
	assert_false(g.ipv4);
	assert_true(g.link_local);
	assert_string_equal(g.ip, "fe80::e42:a1ff:fee5:6f10");
	assert_int_equal(gd_gid_parse("fd00:0200:0000:0000:0000:0000:0000:0011", &g), 0);
	assert_false(g.link_local);
	assert_string_equal(g.ip, "fd00:200::11");
	/* an IB GID with a subnet prefix and port GUID */
	assert_int_equal(gd_gid_parse("fe80:0000:0000:0000:a088:c203:0012:3450", &g), 0);
	assert_string_equal(g.ip, "fe80::a088:c203:12:3450");
}

static void zero_gid_is_unused(void **state)
{
	struct gd_gid g = { 0 };

	assert_int_equal(gd_gid_parse("0000:0000:0000:0000:0000:0000:0000:0000", &g), -ENODATA);
}

static void rejects_malformed(void **state)
{
	static const char *const bad[] = {
		"",
		"zzzz:not-a-gid",
		"fe80:0000:0000:0000:0e42:a1ff:fee5",           /* seven groups */
		"fe80:0000:0000:0000:0e42:a1ff:fee5:6f10:0000", /* nine */
		"fe80::0e42:a1ff:fee5:6f10",                    /* compressed, not sysfs form */
		"fe80:0000:0000:0000:0e42:a1ff:fee5:6f1",       /* short group */
		"fe80:0000:0000:0000:0e42:a1ff:fee5:6f10x",     /* trailing garbage */
		"fe80-0000-0000-0000-0e42-a1ff-fee5-6f10",
		"fe80:0000:0000:0000:0e42:a1ff:fee5:6g10",
	};
	struct gd_gid g;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		memset(&g, 0x5a, sizeof(g));
		assert_int_equal(gd_gid_parse(bad[i], &g), -EINVAL);
		assert_int_equal((unsigned char)g.gid[0], 0x5a); /* untouched */
	}
}

static void types(void **state)
{
	enum gd_gid_type t = GD_GID_UNKNOWN;

	assert_int_equal(gd_gid_parse_type("RoCE v2", "Ethernet", &t), 0);
	assert_int_equal(t, GD_GID_ROCE_V2);
	assert_int_equal(gd_gid_parse_type("IB/RoCE v1", "Ethernet", &t), 0);
	assert_int_equal(t, GD_GID_ROCE_V1);
	assert_int_equal(gd_gid_parse_type("IB/RoCE v1", "InfiniBand", &t), 0);
	assert_int_equal(t, GD_GID_IB);
	t = GD_GID_ROCE_V2;
	assert_int_equal(gd_gid_parse_type("RoCE v9", "Ethernet", &t), -EINVAL);
	assert_int_equal(gd_gid_parse_type("", "Ethernet", &t), -EINVAL);
	assert_int_equal(t, GD_GID_ROCE_V2);
	assert_string_equal(gd_gid_type_str(GD_GID_ROCE_V2), "RoCE v2");
	assert_string_equal(gd_gid_type_str(GD_GID_IB), "IB");
}

static struct gd_gid mk(int index, enum gd_gid_type type, const char *text, const char *ndev)
{
	struct gd_gid g = { .index = index, .type = type };

	assert_int_equal(gd_gid_parse(text, &g), 0);
	snprintf(g.netdev, sizeof(g.netdev), "%s", ndev);
	return g;
}

#define LL "fe80:0000:0000:0000:0e42:a1ff:fee5:6f10"
#define V4 "0000:0000:0000:0000:0000:ffff:0a00:0001"
#define V4VLAN "0000:0000:0000:0000:0000:ffff:0a64:0001"
#define V6 "fd00:0200:0000:0000:0000:0000:0000:0011"
#define LOOP "0000:0000:0000:0000:0000:ffff:7f00:0001" /* 127.0.0.1 */

/* What a test without a peer uses: gd_gid_choose's default half. */
static int dflt(const struct gd_port *p, int af)
{
	struct gd_gid_choice ch;
	int ret = gd_gid_choose(p, NULL, af, &ch);

	assert_false(ch.routed);
	return ret ? ret : ch.index;
}

static void default_index_is_the_ipv4_roce_v2(void **state)
{
	struct gd_gid gids[] = {
		mk(0, GD_GID_ROCE_V1, LL, "bond0"), mk(1, GD_GID_ROCE_V2, LL, "bond0"),
		mk(2, GD_GID_ROCE_V1, V4, "bond0"), mk(3, GD_GID_ROCE_V2, V4, "bond0"),
		mk(4, GD_GID_ROCE_V1, V6, "bond0"), mk(5, GD_GID_ROCE_V2, V6, "bond0"),
	};
	struct gd_port p = { .num = 1, .link_layer = "Ethernet", .netdev = "bond0", .gids = gids, .ngids = 6 };

	assert_int_equal(dflt(&p, AF_INET), 3);
	assert_int_equal(dflt(&p, AF_INET6), 5); /* global before fe80 */
}

static void default_index_prefers_the_ports_netdev(void **state)
{
	/* a VLAN's GID listed first must not win over the port's own netdev */
	struct gd_gid gids[] = {
		mk(2, GD_GID_ROCE_V2, V4VLAN, "bond0.100"),
		mk(7, GD_GID_ROCE_V2, V4, "bond0"),
	};
	struct gd_port p = { .num = 1, .link_layer = "Ethernet", .netdev = "bond0", .gids = gids, .ngids = 2 };

	assert_int_equal(dflt(&p, AF_INET), 7);
}

static void default_skips_other_namespaces(void **state)
{
	/* the GID of another pod's macvlan comes first in a shared table */
	struct gd_gid gids[] = {
		mk(2, GD_GID_ROCE_V2, V4VLAN, "macvlan7"),
		mk(5, GD_GID_ROCE_V2, V4, "eth0"),
	};
	struct gd_port p = { .num = 1, .link_layer = "Ethernet", .gids = gids, .ngids = 2 };

	gids[0].foreign = true;
	assert_int_equal(dflt(&p, AF_INET), 5);
	gids[1].foreign = true;
	assert_int_equal(dflt(&p, AF_INET), -ENOENT);
}

static void no_default_without_ipv4_roce_v2(void **state)
{
	struct gd_gid gids[] = {
		mk(0, GD_GID_ROCE_V1, LL, "eth0"), mk(1, GD_GID_ROCE_V2, LL, "eth0"),
		mk(2, GD_GID_ROCE_V1, V4, "eth0"),
	};
	struct gd_port p = { .num = 1, .link_layer = "Ethernet", .netdev = "eth0", .gids = gids, .ngids = 3 };

	assert_int_equal(dflt(&p, AF_INET), -ENOENT);
	p.ngids = 0;
	assert_int_equal(dflt(&p, AF_INET), -ENOENT);
}

static void index_for_source(void **state)
{
	struct gd_gid gids[] = {
		mk(0, GD_GID_ROCE_V2, LL, "veth0"), mk(1, GD_GID_ROCE_V1, V4, "veth0"),
		mk(3, GD_GID_ROCE_V2, V4, "veth0"), mk(5, GD_GID_ROCE_V2, V6, "veth0"),
	};
	struct gd_port p = { .num = 1, .link_layer = "Ethernet", .netdev = "veth0", .gids = gids, .ngids = 4 };

	assert_int_equal(gd_gid_index_for_source(&p, "10.0.0.1"), 3); /* v2, not the v1 at 1 */
	assert_int_equal(gd_gid_index_for_source(&p, "fd00:200::11"), 5);
	assert_int_equal(gd_gid_index_for_source(&p, "10.0.0.2"), -ENOENT);
}

static void chooses_the_gid_on_the_route(void **state)
{
	struct gd_gid gids[] = {
		mk(1, GD_GID_ROCE_V2, LL, "lo"), mk(3, GD_GID_ROCE_V2, V4, "lo"),
		mk(4, GD_GID_ROCE_V1, LOOP, "lo"), mk(6, GD_GID_ROCE_V2, LOOP, "lo"),
	};
	struct gd_port p = { .num = 1, .link_layer = "Ethernet", .netdev = "lo", .gids = gids,
			     .ngids = 4 };
	struct sockaddr_in peer = { .sin_family = AF_INET };
	struct gd_gid_choice ch;

	/* a real route lookup: this machine reaches 127.0.0.1 from 127.0.0.1 */
	inet_pton(AF_INET, "127.0.0.1", &peer.sin_addr);
	assert_int_equal(gd_gid_choose(&p, (struct sockaddr *)&peer, AF_INET, &ch), 0);
	assert_int_equal(ch.index, 6); /* the v2 GID of the source, not the v1 at 4 */
	assert_true(ch.routed);
	assert_string_equal(ch.src_ip, "127.0.0.1");
	assert_ptr_equal(ch.gid, &gids[3]);
	/* the source's GID in another namespace: the default, not routed */
	gids[3].foreign = true;
	assert_int_equal(gd_gid_choose(&p, (struct sockaddr *)&peer, AF_INET, &ch), 0);
	assert_int_equal(ch.index, 3);
	assert_false(ch.routed);
	assert_string_equal(ch.src_ip, "127.0.0.1");
	/* InfiniBand: no GID, LID routing */
	snprintf(p.link_layer, sizeof(p.link_layer), "InfiniBand");
	assert_int_equal(gd_gid_choose(&p, (struct sockaddr *)&peer, AF_INET, &ch), 0);
	assert_int_equal(ch.index, -1);
	assert_null(ch.gid);
}

static void v4mapped_check(void **state)
{
	uint8_t raw[16] = { [10] = 0xff, [11] = 0xff, [12] = 10, [15] = 1 };

	assert_true(gd_gid_raw_is_v4mapped(raw));
	raw[9] = 1;
	assert_false(gd_gid_raw_is_v4mapped(raw));
}

static void route_source_of_loopback(void **state)
{
	struct sockaddr_in sin = { .sin_family = AF_INET };
	char ip[GD_IP_LEN];

	inet_pton(AF_INET, "127.0.0.1", &sin.sin_addr);
	/* any Linux host routes 127.0.0.1 from 127.0.0.1 */
	assert_int_equal(gd_route_source((struct sockaddr *)&sin, ip, sizeof(ip)), 0);
	assert_string_equal(ip, "127.0.0.1");
	sin.sin_family = AF_UNIX;
	assert_int_equal(gd_route_source((struct sockaddr *)&sin, ip, sizeof(ip)), -EAFNOSUPPORT);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parses_ipv4_mapped),
		cmocka_unit_test(chooses_the_gid_on_the_route),
		cmocka_unit_test(v4mapped_check),
		cmocka_unit_test(parses_ipv6),
		cmocka_unit_test(zero_gid_is_unused),
		cmocka_unit_test(rejects_malformed),
		cmocka_unit_test(types),
		cmocka_unit_test(default_index_is_the_ipv4_roce_v2),
		cmocka_unit_test(default_index_prefers_the_ports_netdev),
		cmocka_unit_test(no_default_without_ipv4_roce_v2),
		cmocka_unit_test(default_skips_other_namespaces),
		cmocka_unit_test(index_for_source),
		cmocka_unit_test(route_source_of_loopback),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
