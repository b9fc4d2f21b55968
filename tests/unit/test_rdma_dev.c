/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the device/port readers: parsers and the sysfs fixture trees. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "choose.h"
#include "netdev.h"
#include "rdma_dev.h"
#include "fixture.h"
#include "sysfs.h"

static void numbered(void **state)
{
	char name[24] = "keep";
	int n = -7;

	assert_int_equal(gd_parse_numbered("4: ACTIVE", &n, name, sizeof(name)), 0);
	assert_int_equal(n, 4);
	assert_string_equal(name, "ACTIVE");
	assert_int_equal(gd_parse_numbered("5: LinkUp", &n, name, sizeof(name)), 0);
	assert_string_equal(name, "LinkUp");
	n = -7;
	strcpy(name, "keep");
	assert_int_equal(gd_parse_numbered("ACTIVE", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(gd_parse_numbered("4 ACTIVE", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(gd_parse_numbered("4:", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(gd_parse_numbered("-1: X", &n, name, sizeof(name)), -EINVAL);
	assert_int_equal(gd_parse_numbered("4: A_VERY_LONG_STATE_NAME_THAT_DOES_NOT_FIT", &n, name,
					   sizeof(name)), -EINVAL);
	assert_int_equal(n, -7);
	assert_string_equal(name, "keep");
}

static void rate(void **state)
{
	char speed[16] = "keep";
	double g = -1;
	int w = -1;

	assert_int_equal(gd_parse_rate("200 Gb/sec (4X HDR)", &g, &w, speed, sizeof(speed)), 0);
	assert_true(g == 200.0);
	assert_int_equal(w, 4);
	assert_string_equal(speed, "HDR");
	assert_int_equal(gd_parse_rate("2.5 Gb/sec (1X SDR)", &g, &w, speed, sizeof(speed)), 0);
	assert_true(g == 2.5);
	assert_int_equal(gd_parse_rate("400 Gb/sec (4X NDR)", &g, &w, speed, sizeof(speed)), 0);
	assert_string_equal(speed, "NDR");
	assert_int_equal(gd_parse_rate("100 Gb/sec", &g, &w, speed, sizeof(speed)), 0);
	assert_true(g == 100.0);
	assert_int_equal(w, 0);
	assert_string_equal(speed, "");
	g = -1;
	strcpy(speed, "keep");
	assert_int_equal(gd_parse_rate("fast", &g, &w, speed, sizeof(speed)), -EINVAL);
	assert_int_equal(gd_parse_rate("200 Mb/sec (4X HDR)", &g, &w, speed, sizeof(speed)), -EINVAL);
	assert_int_equal(gd_parse_rate("200 Gb/sec (4X HDR", &g, &w, speed, sizeof(speed)), -EINVAL);
	assert_int_equal(gd_parse_rate("200 Gb/sec (4X HDR) extra", &g, &w, speed, sizeof(speed)),
			 -EINVAL);
	assert_int_equal(gd_parse_rate("-5 Gb/sec", &g, &w, speed, sizeof(speed)), -EINVAL);
	assert_true(g == -1);
	assert_string_equal(speed, "keep");
}

static void pci_addr_shape(void **state)
{
	assert_true(gd_is_pci_addr("0000:29:00.0"));
	assert_true(gd_is_pci_addr("0000:bc:00.1"));
	assert_false(gd_is_pci_addr("pci0000:26"));
	assert_false(gd_is_pci_addr("virtio0"));
	assert_false(gd_is_pci_addr("0000:29:00.00"));
}

static void roce_mtu(void **state)
{
	assert_int_equal(gd_rdma_roce_mtu(1500), 1024);
	assert_int_equal(gd_rdma_roce_mtu(4200), 4096);
	assert_int_equal(gd_rdma_roce_mtu(4191), 2048);
	assert_int_equal(gd_rdma_roce_mtu(4192), 4096);
	assert_int_equal(gd_rdma_roce_mtu(9000), 4096);
	assert_int_equal(gd_rdma_roce_mtu(300), 0);
}

static void set_box(const char *box)
{
	assert_int_equal(gd_fixture_use(box), 0);
}

static void h20_box(void **state)
{
	struct gd_hca *h;
	size_t n;

	set_box("h20");
	assert_int_equal(gd_rdma_discover(&gd_fixture_m, &h, &n), 0);
	assert_int_equal(n, 4);
	for (size_t i = 0; i < n; i++) {
		char name[32], bond[32];

		snprintf(name, sizeof(name), "mlx5_bond_%zu", i);
		snprintf(bond, sizeof(bond), "bond%zu", i);
		assert_string_equal(h[i].name, name);
		assert_int_equal(h[i].errors.n, 0);
		assert_int_equal(h[i].nports, 1);
		assert_string_equal(h[i].ports[0].netdev, bond);
		assert_true(h[i].ports[0].netdev_up);
		assert_int_equal(h[i].ports[0].default_gid, 3);
		assert_int_equal(h[i].numa_node, i < 2 ? 0 : 1);
		assert_true(h[i].ports[0].rate_gbps == 200.0);
		assert_false(h[i].verbs_known);
		assert_int_equal(h[i].ports[0].active_mtu, 0);
	}
	assert_string_equal(h[0].pci_addr, "0000:29:00.0");
	assert_string_equal(h[3].pci_addr, "0000:bc:00.0");
	assert_string_equal(h[0].driver, "mlx5_core");
	assert_string_equal(h[0].transport, "InfiniBand");
	assert_string_equal(h[0].node_type, "CA");
	/* GIDs 10 and 11 of the VLAN come after 3 (numeric order) */
	assert_int_equal(h[3].ports[0].ngids, 6);
	assert_int_equal(h[3].ports[0].gids[5].index, 11);
	assert_string_equal(h[3].ports[0].gids[5].netdev, "bond3.100");
	gd_rdma_free(h, n);
}

/* The brief list (gd_check's host facts): the devices and what names them, no ports */
static void brief_list(void **state)
{
	struct gd_hca *h, *b;
	size_t n, nb;

	set_box("h20");
	assert_int_equal(gd_rdma_discover(&gd_fixture_m, &h, &n), 0);
	assert_int_equal(gd_rdma_discover_brief(&gd_fixture_m, &b, &nb), 0);
	assert_int_equal(nb, n);
	for (size_t i = 0; i < n; i++) {
		assert_string_equal(b[i].name, h[i].name);
		assert_string_equal(b[i].driver, h[i].driver);
		assert_string_equal(b[i].fw_ver, h[i].fw_ver);
		assert_string_equal(b[i].pci_addr, h[i].pci_addr);
		assert_string_equal(b[i].node_guid, h[i].node_guid);
		assert_int_equal(b[i].nports, 0);
		assert_null(b[i].ports);
		assert_true(h[i].nports > 0);
	}
	gd_rdma_free(b, nb);
	gd_rdma_free(h, n);
}

static void ib_box(void **state)
{
	struct gd_hca hca;

	set_box("ib");
	assert_int_equal(gd_rdma_read_hca(&gd_fixture_m, "mlx5_1", &hca), 0);
	assert_int_equal(hca.errors.n, 0);
	assert_string_equal(hca.ports[0].link_layer, "InfiniBand");
	assert_int_equal(hca.ports[0].lid, 0x1b);
	assert_int_equal(hca.ports[0].sm_lid, 1);
	assert_int_equal(hca.ports[0].lmc, 0);
	assert_string_equal(hca.ports[0].speed, "NDR");
	assert_string_equal(hca.ports[0].netdev, "ib1");
	assert_int_equal(hca.ports[0].default_gid, -1);
	assert_int_equal(hca.ports[0].ngids, 1);
	assert_int_equal(hca.ports[0].gids[0].type, GD_GID_IB);
	assert_int_equal(hca.ports[0].counters[GD_CNT_SYMBOL_ERROR], 12);
	assert_int_equal(hca.ports[0].counters[GD_CNT_LINK_DOWNED], 1);
	assert_int_equal(hca.ports[0].counters[GD_CNT_OUT_OF_SEQUENCE], -1); /* RoCE only */
	assert_int_equal(hca.ports[0].roce_mtu, 0);
	assert_int_equal(hca.ports[0].netdev_mtu, 4092);
	gd_rdma_free_hca(&hca);
	assert_int_equal(gd_rdma_read_hca(&gd_fixture_m, "mlx5_7", &hca), -ENODEV);
	assert_int_equal(gd_rdma_read_hca(&gd_fixture_m, "../net", &hca), -ENODEV);
}

static void rxe_box(void **state)
{
	struct gd_hca hca;

	set_box("rxe");
	assert_int_equal(gd_rdma_read_hca(&gd_fixture_m, "rxe_bond0", &hca), 0);
	assert_string_equal(hca.pci_addr, "");
	assert_string_equal(hca.parent_netdev, "bond0");
	assert_string_equal(hca.ports[0].netdev, "bond0");
	assert_int_equal(hca.numa_node, -1);
	assert_int_equal(hca.ports[0].netdev_mtu, 1500);
	assert_int_equal(hca.ports[0].roce_mtu, 1024);
	gd_rdma_free_hca(&hca);
}

static void virtio_netdev_finds_its_pci_function(void **state)
{
	struct gd_netdev nd;

	set_box("rxe");
	assert_int_equal(gd_netdev_read(&gd_fixture_m, "eth0", &nd), 0);
	assert_string_equal(nd.pci_addr, "0000:00:02.0");
	assert_int_equal(nd.speed_mbps, -1);
	assert_int_equal(gd_netdev_read(&gd_fixture_m, "veth0", &nd), 0);
	assert_string_equal(nd.pci_addr, "");
	assert_int_equal(nd.speed_mbps, 10000);
	assert_int_equal(gd_netdev_read(&gd_fixture_m, "nosuch", &nd), -ENODEV);
}

static void broken_box_names_each_file(void **state)
{
	struct gd_hca hca;
	static const char *const expect[] = {
		"mlx5_bond_0/node_type", "mlx5_bond_0/fw_ver", "ports/1/state", "ports/1/rate",
		"ports/1/counters/link_downed", "ports/1/gids/2", "gid_attrs/types/3",
	};

	set_box("broken");
	assert_int_equal(gd_rdma_read_hca(&gd_fixture_m, "mlx5_bond_0", &hca), 0);
	assert_int_equal(hca.errors.n, 7);
	for (size_t i = 0; i < 7; i++)
		assert_non_null(strstr(hca.errors.v[i].path, expect[i]));
	assert_int_equal(hca.errors.v[1].err, -ENOSPC);
	assert_int_equal(hca.errors.v[2].err, -ENOENT);
	assert_int_equal(hca.errors.v[3].err, -EINVAL);
	assert_non_null(strstr(hca.errors.v[3].detail, "\"fast\""));
	/* what could be read is still there */
	assert_string_equal(hca.fw_ver, "");
	assert_string_equal(hca.node_guid, "0c42:a103:00e5:6010");
	assert_string_equal(hca.ports[0].phys_state_str, "LinkUp");
	assert_string_equal(hca.ports[0].netdev, "bond0");
	gd_rdma_free_hca(&hca);
}

static void empty_box(void **state)
{
	struct gd_hca *h = (void *)1;
	size_t n = 9;

	set_box("empty");
	assert_int_equal(gd_rdma_discover(&gd_fixture_m, &h, &n), 0);
	assert_int_equal(n, 0);
	gd_rdma_free(h, n);
}

/* The device rule on the fixture trees: -d, else the first with the port ACTIVE. */
static void device_rule(void **state)
{
	struct gd_hca h;

	set_box("degraded"); /* mlx5_2 port 1 DOWN, mlx5_bond_0 ACTIVE */
	assert_int_equal(gd_dev_choose(&gd_fixture_m, NULL, 1, &h), 0);
	assert_string_equal(h.name, "mlx5_bond_0");
	gd_rdma_free_hca(&h);
	assert_int_equal(gd_dev_choose(&gd_fixture_m, "mlx5_2", 1, &h), -ENETDOWN);
	assert_string_equal(h.name, "mlx5_2");
	assert_string_equal(gd_hca_port(&h, 1)->state_str, "DOWN");
	gd_rdma_free_hca(&h);
	assert_int_equal(gd_dev_choose(&gd_fixture_m, "mlx5_bond_0", 2, &h), -ENOENT);
	gd_rdma_free_hca(&h);
	assert_int_equal(gd_dev_choose(&gd_fixture_m, NULL, 2, &h), -ENETDOWN);
	gd_rdma_free_hca(&h);
	assert_int_equal(gd_dev_choose(&gd_fixture_m, "mlx5_9", 1, &h), -ENODEV);
	gd_rdma_free_hca(&h);
	set_box("ib"); /* mlx5_0, mlx5_1 ACTIVE; mlx5_2 INIT */
	assert_int_equal(gd_dev_choose(&gd_fixture_m, NULL, 1, &h), 0);
	assert_string_equal(h.name, "mlx5_0");
	gd_rdma_free_hca(&h);
	set_box("empty");
	assert_int_equal(gd_dev_choose(&gd_fixture_m, NULL, 1, &h), -ENODEV);
	gd_rdma_free_hca(&h);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(numbered),
		cmocka_unit_test(rate),
		cmocka_unit_test(roce_mtu),
		cmocka_unit_test(pci_addr_shape),
		cmocka_unit_test(h20_box),
		cmocka_unit_test(brief_list),
		cmocka_unit_test(ib_box),
		cmocka_unit_test(rxe_box),
		cmocka_unit_test(virtio_netdev_finds_its_pci_function),
		cmocka_unit_test(broken_box_names_each_file),
		cmocka_unit_test(empty_box),
		cmocka_unit_test(device_rule),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
