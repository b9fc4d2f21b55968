/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for the link classifier and the NIC advice, on the fixture machines. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "topo.h"
#include "topo_advice.h"

static void load(struct gd_topo *t, const char *machine)
{
	const char *src = getenv("top_srcdir");
	static struct gd_machine live;
	char path[1024], err[512] = "";
	struct gd_topo_src s = { path, &live };

	snprintf(path, sizeof(path), "%s/tests/fixtures/topo/%s/topology.xml", src ? src : ".",
		 machine);
	gd_machine_live(&live);
	if (gd_topo_load(t, &s, err, sizeof(err)) ||
	    gd_topo_open_locality(t, &live, path, err, sizeof(err)))
		fail_msg("%s", err);
	assert_ptr_equal(t->loc.src.hw, t->hw);
	assert_int_equal(gd_topo_find_gpus(t), 0);
	assert_int_equal(gd_topo_find_nics_hwloc(t), 0);
}

/* The locality module's class of two PCI functions of the loaded XML. */
static enum gd_loc_class cls(struct gd_topo *t, const char *a, const char *b)
{
	struct gd_loc_place pa, pb;

	assert_int_equal(gd_loc_place(&t->loc.src, a, &pa), 0);
	if (!b) /* a device without a PCI place */
		return gd_loc_classify(&pa, &(struct gd_loc_place){ 0 });
	assert_int_equal(gd_loc_place(&t->loc.src, b, &pb), 0);
	return gd_loc_classify(&pa, &pb);
}

#define CLS(t, a, b) cls(t, a, b)

static void classes_of_the_pxb_box(void **state)
{
	struct gd_topo t;

	load(&t, "pxb");
	assert_int_equal(CLS(&t, "0000:15:00.0", "0000:16:00.0"), GD_LOC_PIX); /* one switch */
	assert_int_equal(CLS(&t, "0000:15:00.0", "0000:17:00.0"), GD_LOC_PXB); /* two levels */
	assert_int_equal(CLS(&t, "0000:17:00.0", "0000:16:00.0"), GD_LOC_PXB); /* symmetric */
	assert_int_equal(CLS(&t, "0000:15:00.0", "0000:91:00.0"), GD_LOC_SYS); /* two sockets */
	assert_int_equal(CLS(&t, "0000:15:00.0", "0000:15:00.0"), GD_LOC_PIX);
	assert_int_equal(cls(&t, "0000:15:00.0", NULL), GD_LOC_NA);
	gd_topo_free(&t);
}

static void classes_of_the_pcie_box(void **state)
{
	struct gd_topo t;

	load(&t, "pcie2s");
	assert_int_equal(CLS(&t, "0000:01:00.0", "0000:02:00.0"), GD_LOC_PHB); /* one root bus */
	assert_int_equal(CLS(&t, "0000:01:00.0", "0000:21:00.0"), GD_LOC_NODE);
	assert_int_equal(CLS(&t, "0000:21:00.0", "0000:21:00.1"), GD_LOC_PIX); /* two functions */
	assert_int_equal(CLS(&t, "0000:83:00.0", "0000:84:00.0"), GD_LOC_PIX);
	assert_int_equal(CLS(&t, "0000:83:00.0", "0000:a1:00.0"), GD_LOC_NODE);
	assert_int_equal(CLS(&t, "0000:01:00.0", "0000:84:00.0"), GD_LOC_SYS);
	gd_topo_free(&t);
}

static void gpus_sorted_by_bus_and_nvlink_overrides(void **state)
{
	struct gd_nvlinks nv = { 0 };
	struct gd_busid a, b;
	struct gd_topo t;
	char cell[16];

	load(&t, "pxb");
	assert_int_equal(t.ngpus, 3);
	assert_string_equal(t.gpus[0].busid, "0000:15:00.0");
	assert_string_equal(t.gpus[2].busid, "0000:91:00.0");
	assert_string_equal(t.gpus[2].cpus, "8-15");
	assert_string_equal(t.gpus[2].nodes, "1");
	gd_busid_parse("0000:15:00.0", &a);
	gd_busid_parse("0000:16:00.0", &b);
	assert_int_equal(gd_nvlink_add(&nv, &a, &b, 4), 0);
	assert_int_equal(gd_topo_classify(&t, &nv, false), 0);
	gd_topo_cell(&t, 0, 1, cell, sizeof(cell));
	assert_string_equal(cell, "NV4");
	gd_topo_cell(&t, 1, 0, cell, sizeof(cell));
	assert_string_equal(cell, "NV4");
	gd_topo_cell(&t, 1, 1, cell, sizeof(cell));
	assert_string_equal(cell, "X");
	assert_int_equal(gd_topo_classify(&t, &nv, true), 0); /* --pci-only */
	gd_topo_cell(&t, 0, 1, cell, sizeof(cell));
	assert_string_equal(cell, "PIX");
	gd_nvlink_free(&nv);
	gd_topo_free(&t);
}

static void nics_without_pci_have_no_class(void **state)
{
	struct gd_topo t;
	char cell[16];

	load(&t, "nogpu");
	assert_int_equal(t.ngpus, 0);
	assert_int_equal(t.nnics, 3);
	assert_string_equal(t.nics[2].name, "rxe0");
	assert_string_equal(t.nics[2].busid, "");
	assert_int_equal(gd_topo_classify(&t, NULL, false), 0);
	gd_topo_cell(&t, 0, 2, cell, sizeof(cell));
	assert_string_equal(cell, "N/A");
	gd_topo_cell(&t, 0, 1, cell, sizeof(cell));
	assert_string_equal(cell, "SYS");
	gd_topo_free(&t);
}

static void natural_nic_order(void **state)
{
	struct gd_topo t;

	load(&t, "nonic");
	assert_int_equal(t.nnics, 0);
	gd_topo_add_nic(&t, "mlx5_10", NULL, NULL);
	gd_topo_add_nic(&t, "mlx5_2", NULL, NULL);
	gd_topo_add_nic(&t, "mlx5_bond_0", NULL, NULL);
	gd_topo_add_nic(&t, "mlx5_1", NULL, NULL);
	gd_topo_sort_nics(&t);
	assert_string_equal(t.nics[0].name, "mlx5_1");
	assert_string_equal(t.nics[1].name, "mlx5_2");
	assert_string_equal(t.nics[2].name, "mlx5_10");
	assert_string_equal(t.nics[3].name, "mlx5_bond_0");
	gd_topo_free(&t);
}

static void nearest_nics_are_shared_evenly(void **state)
{
	struct gd_topo_advice a;
	struct gd_topo t;
	size_t far = 0;

	load(&t, "h20");
	assert_int_equal(gd_topo_classify(&t, NULL, false), 0);
	assert_int_equal(gd_topo_advise(&t, &a), 0);
	/* PIX GPUs first, then the NODE ones spread over the tied NICs */
	static const int want[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	for (int g = 0; g < 8; g++)
		assert_int_equal(a.nic_for_gpu[g], want[g]);
	for (size_t i = 0; i < a.nw; i++)
		if (a.w[i].kind == GD_TOPO_WARN_FAR_NIC)
			far++;
	assert_int_equal(far, 4);
	gd_topo_advice_free(&a);
	gd_topo_free(&t);
}

static void gpu_memory_node_is_not_a_cpu_node(void **state)
{
	struct gd_topo t;

	load(&t, "gh200");
	assert_int_equal(t.ngpus, 1);
	assert_int_equal(t.gpus[0].gpu_numa_id, 1);
	assert_string_equal(t.gpus[0].nodes, "0");
	/* one socket: NODE, although the package's nodeset holds the GPU's node too */
	assert_int_equal(CLS(&t, "0009:01:00.0", "0000:01:00.0"), GD_LOC_NODE);
	gd_topo_free(&t);
}

/* The nearest-NIC rule and --use_cuda=auto's inverse on a hand-made matrix. */
static void nearest_nic_rule_and_auto(void **state)
{
	enum gd_loc_class cls[] = {
		/* NIC0      NIC1 */
		GD_LOC_PXB, GD_LOC_PXB,  /* GPU0: a tie */
		GD_LOC_PIX, GD_LOC_SYS,  /* GPU1: only NIC0 is best, it goes first */
		GD_LOC_NODE, GD_LOC_NODE, /* GPU2: a tie */
		GD_LOC_NA, GD_LOC_NA,    /* GPU3: nothing placed */
	};
	struct gd_locality l = { .ngpus = 4, .nnics = 2, .cls = cls };
	int nic[4];
	bool visible[4] = { true, false, true, true };

	gd_loc_assign(cls, 4, 2, nic);
	assert_int_equal(nic[1], 0);
	assert_int_equal(nic[0], 1); /* NIC0 already carries GPU1 */
	assert_int_equal(nic[2], 0); /* loads equal again: the lower index */
	assert_int_equal(nic[3], -1);
	l.nic_for_gpu = nic;
	/* auto with NIC0: the nearest of the GPUs that have it as nearest (GPU1 PIX) */
	assert_int_equal(gd_loc_gpu_for_nic(&l, 0, NULL), 1);
	/* GPU1 not visible to CUDA: GPU2, the other GPU whose nearest is NIC0 */
	assert_int_equal(gd_loc_gpu_for_nic(&l, 0, visible), 2);
	assert_int_equal(gd_loc_gpu_for_nic(&l, 1, NULL), 0);
	visible[0] = false;
	visible[2] = false; /* no GPU of NIC1's is visible: the nearest visible one, or none */
	assert_int_equal(gd_loc_gpu_for_nic(&l, 1, visible), -1);
	assert_int_equal(gd_loc_gpu_for_nic(&l, 5, NULL), -1);
	/* the advice threshold */
	assert_int_equal(gd_loc_path_verdict(GD_LOC_PXB), GD_LOC_OK);
	assert_int_equal(gd_loc_path_verdict(GD_LOC_PHB), GD_LOC_WARN);
	assert_int_equal(gd_loc_numa_verdict("0", "1"), GD_LOC_WARN);
	assert_int_equal(gd_loc_numa_verdict("0", ""), GD_LOC_OK);
}

static void pcie_speed_parser(void **state)
{
	double g = 0;

	assert_int_equal(gd_pcie_parse_speed("32.0 GT/s PCIe", &g), 0);
	assert_true(g > 31.9 && g < 32.1);
	assert_int_equal(gd_pcie_parse_speed("2.5 GT/s", &g), 0);
	assert_int_equal(gd_pcie_parse_speed("Unknown", &g), -EINVAL);
	assert_int_equal(gd_pcie_parse_speed("16", &g), -EINVAL);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classes_of_the_pxb_box),
		cmocka_unit_test(classes_of_the_pcie_box),
		cmocka_unit_test(gpus_sorted_by_bus_and_nvlink_overrides),
		cmocka_unit_test(nics_without_pci_have_no_class),
		cmocka_unit_test(natural_nic_order),
		cmocka_unit_test(nearest_nics_are_shared_evenly),
		cmocka_unit_test(gpu_memory_node_is_not_a_cpu_node),
		cmocka_unit_test(nearest_nic_rule_and_auto),
		cmocka_unit_test(pcie_speed_parser),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
