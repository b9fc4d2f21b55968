/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for gd_doctor's parsers and the GPU/PCIe helpers that need no hardware. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include "cuda.h"
#include "doctor.h"
#include "doctor_int.h"
#include "gdr_env.h"
#include "gpu_mem.h"
#include "pattern.h"
#include "pcipath.h"
#include "sysfs.h"

static void nvidia_version_open(void **state)
{
	struct gd_nv_driver d = { 0 };

	assert_int_equal(gd_parse_nvidia_version(
		"NVRM version: NVIDIA UNIX Open Kernel Module for x86_64  580.159.04  Release Build  (nixbld@)  \n"
		"GCC version:  gcc version 15.3.0 (GCC)\n", &d), 0);
	assert_string_equal(d.version, "580.159.04");
	assert_int_equal(d.flavour, GD_NV_OPEN);
	assert_true(d.loaded);
}

static void nvidia_version_proprietary(void **state)
{
	struct gd_nv_driver d = { 0 };

	assert_int_equal(gd_parse_nvidia_version(
		"NVRM version: NVIDIA UNIX x86_64 Kernel Module  535.104.05  Sat Aug 19 01:15:15 UTC 2023\n",
		&d), 0);
	assert_string_equal(d.version, "535.104.05");
	assert_int_equal(d.flavour, GD_NV_PROPRIETARY);
	/* x86_64 must not be taken for the version */
	assert_int_equal(gd_parse_nvidia_version("NVRM version: NVIDIA UNIX x86_64 Kernel Module\n", &d),
			 -EINVAL);
	assert_int_equal(gd_parse_nvidia_version("garbage\n", &d), -EINVAL);
}

static void kernel_version(void **state)
{
	struct gd_kver k;

	assert_int_equal(gd_parse_kernel_version("5.10.0-28-amd64\n", &k), 0);
	assert_int_equal(k.major, 5);
	assert_int_equal(k.minor, 10);
	assert_int_equal(k.patch, 0);
	assert_true(gd_kver_cmp(&k, 5, 12, 0) < 0);
	assert_int_equal(gd_parse_kernel_version("6.18.44-fc-v657-gpu", &k), 0);
	assert_true(gd_kver_cmp(&k, 5, 12, 0) > 0);
	assert_int_equal(k.patch, 44);
	assert_int_equal(gd_parse_kernel_version("5.12", &k), 0);
	assert_int_equal(gd_kver_cmp(&k, 5, 12, 0), 0);
	assert_true(gd_kver_cmp(&k, 5, 12, 1) < 0);
	assert_int_equal(gd_parse_kernel_version("linux", &k), -EINVAL);
}

static void registry_dwords(void **state)
{
	struct gd_nv_params p;

	assert_int_equal(gd_registry_dword("PeerMappingOverride=1;", "PeerMappingOverride"), 1);
	assert_int_equal(gd_registry_dword("A=3; PeerMappingOverride=0x1;B=2", "PeerMappingOverride"), 1);
	assert_int_equal(gd_registry_dword("RmFoo=1;PeerMappingOverride=0;", "PeerMappingOverride"), 0);
	assert_int_equal(gd_registry_dword("NotPeerMappingOverride=1", "PeerMappingOverride"), -1);
	assert_int_equal(gd_registry_dword("", "PeerMappingOverride"), -1);
	assert_int_equal(gd_parse_nv_params("EnableStreamMemOPs: 1\nRegistryDwords: \"PeerMappingOverride=1;\"\n"
					    "RegistryDwordsPerDevice: \"\"\n", &p), 0);
	assert_int_equal(p.peer_mapping_override, 1);
	assert_int_equal(p.stream_memops, 1);
	assert_string_equal(p.registry, "PeerMappingOverride=1;");
	assert_int_equal(gd_parse_nv_params("EnableStreamMemOPs: 0\nRegistryDwords: \"\"\n", &p), 0);
	assert_int_equal(p.peer_mapping_override, -1);
}

static void proc_modules(void **state)
{
	const char *text = "nvidia_peermem_x 1 0 - Live 0x0\nnvidia_uvm 1 0 - Live 0x0\n"
			   "nvidia_peermem 16384 0 - Live 0x0 (O)\n";

	assert_true(gd_proc_modules_has(text, "nvidia_peermem"));
	assert_true(gd_proc_modules_has(text, "nvidia_uvm"));
	assert_false(gd_proc_modules_has(text, "nvidia"));
	assert_false(gd_proc_modules_has(text, "nv_peer_mem"));
}

static void memlock(void **state)
{
	unsigned long long v;

	assert_int_equal(gd_parse_memlock("Max open files  1024 1024 files\n"
					  "Max locked memory         65536                65536                bytes\n",
					  &v), 0);
	assert_int_equal(v, 65536);
	assert_int_equal(gd_parse_memlock("Max locked memory  unlimited  unlimited  bytes\n", &v), 0);
	assert_true(v == ~0ULL);
	assert_int_equal(gd_parse_memlock("Max open files 1 1 files\n", &v), -EINVAL);
}

static void proc_devices(void **state)
{
	const char *t = "Character devices:\n  1 mem\n510 gdrdrv\n511 gdrdrvx\n\nBlock devices:\n259 gdrdrv2\n";

	assert_true(gd_proc_devices_has(t, "gdrdrv"));
	assert_true(gd_proc_devices_has(t, "mem"));
	assert_false(gd_proc_devices_has(t, "gdrdrv2")); /* a block device */
	assert_false(gd_proc_devices_has(t, "gdr"));
}

static void roce_mtu(void **state)
{
	assert_int_equal(gd_rdma_roce_mtu(9000), 4096);
	assert_int_equal(gd_rdma_roce_mtu(4200), 4096);
	assert_int_equal(gd_rdma_roce_mtu(4191), 2048);
	assert_int_equal(gd_rdma_roce_mtu(1500), 1024);
	assert_int_equal(gd_rdma_roce_mtu(1400), 1024);
	assert_int_equal(gd_rdma_roce_mtu(300), 0);
}

/* ---- config space ---- */

static void put32(uint8_t *cfg, size_t off, uint32_t v)
{
	cfg[off] = v & 0xff;
	cfg[off + 1] = (v >> 8) & 0xff;
	cfg[off + 2] = (v >> 16) & 0xff;
	cfg[off + 3] = v >> 24;
}

static void acs_walk(void **state)
{
	static uint8_t cfg[4096];
	uint16_t ctrl = 0;
	char bits[128];

	memset(cfg, 0, sizeof(cfg));
	/* AER at 0x100 -> vendor-specific at 0x140 -> ACS at 0x200 (end) */
	put32(cfg, 0x100, 0x0001 | 1 << 16 | 0x140u << 20);
	put32(cfg, 0x140, 0x000b | 1 << 16 | 0x200u << 20);
	put32(cfg, 0x200, 0x000d | 1 << 16);
	put32(cfg, 0x204, 0x005f | (uint32_t)0x001d << 16);
	assert_int_equal(gd_pci_find_ext_cap(cfg, sizeof(cfg), 0x000d), 0x200);
	assert_int_equal(gd_pci_acs_ctrl(cfg, sizeof(cfg), &ctrl), 0);
	assert_int_equal(ctrl, 0x001d);
	gd_acs_str(ctrl, bits, sizeof(bits));
	assert_string_equal(bits, "SrcValid+ ReqRedir+ CmpltRedir+ UpstreamFwd+");
	gd_acs_str(0, bits, sizeof(bits));
	assert_string_equal(bits, "none");
	/* absent capability */
	assert_int_equal(gd_pci_find_ext_cap(cfg, sizeof(cfg), 0x0010), -ENOENT);
	/* unprivileged read: only 64 bytes */
	assert_int_equal(gd_pci_acs_ctrl(cfg, 64, &ctrl), -EACCES);
	/* a loop in the list */
	put32(cfg, 0x140, 0x000b | 1 << 16 | 0x100u << 20);
	assert_int_equal(gd_pci_find_ext_cap(cfg, sizeof(cfg), 0x000d), -EINVAL);
	/* a pointer below 0x100 is garbage */
	put32(cfg, 0x100, 0x0001 | 1 << 16 | 0x040u << 20);
	assert_int_equal(gd_pci_find_ext_cap(cfg, sizeof(cfg), 0x000d), -EINVAL);
	/* no extended capabilities at all */
	put32(cfg, 0x100, 0);
	assert_int_equal(gd_pci_acs_ctrl(cfg, sizeof(cfg), &ctrl), -ENOENT);
}

static void link_speed(void **state)
{
	double g = 0;

	assert_int_equal(gd_pcie_parse_speed("16.0 GT/s PCIe", &g), 0);
	assert_true(g == 16.0);
	assert_int_equal(gd_pcie_parse_speed("2.5 GT/s PCIe", &g), 0);
	assert_true(g == 2.5);
	assert_int_equal(gd_pcie_parse_speed("8.0 GT/s", &g), 0);
	assert_true(g == 8.0);
	assert_int_equal(gd_pcie_parse_speed("Unknown", &g), -EINVAL);
	assert_int_equal(gd_pcie_gen(32.0), 5);
	assert_int_equal(gd_pcie_gen(2.5), 1);
	assert_int_equal(gd_pcie_gen(3.0), 0);
}

/* The locality classifier over sysfs chains (the fixture source). */
static enum gd_loc_class chain_cls(const struct gd_pci_chain *a, int na, const struct gd_pci_chain *b,
				   int nb)
{
	struct gd_loc_place pa, pb;

	gd_loc_place_chain(a, na, &pa);
	gd_loc_place_chain(b, nb, &pb);
	return gd_loc_classify(&pa, &pb);
}

static void path_class(void **state)
{
	struct gd_pci_chain gpu, nic, far, other_rp, deep;
	struct gd_loc_place pg, pn;

	assert_int_equal(gd_pci_parse_chain("/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:00.0/0000:18:00.0", &gpu), 0);
	assert_string_equal(gpu.host, "pci0000:15");
	assert_int_equal(gpu.n, 4);
	assert_string_equal(gpu.bdf[3], "0000:18:00.0");
	assert_int_equal(gd_pci_parse_chain("/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:01.0/0000:19:00.0", &nic), 0);
	gd_loc_place_chain(&gpu, 0, &pg);
	gd_loc_place_chain(&nic, 0, &pn);
	assert_int_equal(gd_loc_common_bridges(&pg, &pn), 2);
	assert_int_equal(chain_cls(&gpu, 0, &nic, 0), GD_LOC_PIX);
	assert_int_equal(chain_cls(&gpu, 0, &gpu, 0), GD_LOC_PIX); /* one function */
	/* a second switch below the first on the NIC's leg */
	assert_int_equal(gd_pci_parse_chain("/sys/devices/pci0000:15/0000:15:01.0/0000:16:00.0/0000:17:02.0/0000:1a:00.0/0000:1b:00.0/0000:1c:00.0", &deep), 0);
	assert_int_equal(chain_cls(&gpu, 0, &deep, 0), GD_LOC_PXB);
	/* same host bridge, different root ports */
	assert_int_equal(gd_pci_parse_chain("/sys/devices/pci0000:15/0000:15:03.0/0000:20:00.0", &other_rp), 0);
	assert_int_equal(chain_cls(&gpu, 0, &other_rp, 0), GD_LOC_PHB);
	/* another host bridge: NODE on the same NUMA node, SYS otherwise or unknown */
	assert_int_equal(gd_pci_parse_chain("/sys/devices/pci0000:b0/0000:b0:02.0/0000:b1:00.0", &far), 0);
	assert_int_equal(chain_cls(&gpu, 0, &far, 0), GD_LOC_NODE);
	assert_int_equal(chain_cls(&gpu, 0, &far, 1), GD_LOC_SYS);
	assert_int_equal(chain_cls(&gpu, -1, &far, -1), GD_LOC_SYS);
	assert_int_equal(gd_pci_parse_chain("/sys/devices/virtual/net/bond0", &far), -EINVAL);
	assert_string_equal(gd_loc_class_str(GD_LOC_PXB), "PXB");
	/* the advice thresholds: from PHB on */
	assert_int_equal(gd_loc_path_verdict(GD_LOC_PXB), GD_LOC_OK);
	assert_int_equal(gd_loc_path_verdict(GD_LOC_PHB), GD_LOC_WARN);
	assert_int_equal(gd_loc_path_verdict(GD_LOC_NA), GD_LOC_OK);
}

static void pci_normalize(void **state)
{
	char out[GD_CUDA_BUSID_LEN];

	assert_int_equal(gd_pci_normalize("00000000:18:00.0", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:18:00.0");
	assert_int_equal(gd_pci_normalize("1A:00.1", out, sizeof(out)), 0);
	assert_string_equal(out, "0000:1a:00.1");
	assert_int_equal(gd_pci_normalize("18:00", out, sizeof(out)), -EINVAL);
	assert_int_equal(gd_pci_normalize("0000:18:00.9", out, sizeof(out)), -EINVAL);
	/* behind Intel VMD the domain is 0x10000 and up: CUDA writes 8 digits, sysfs 5 */
	assert_int_equal(gd_pci_normalize("00010000:01:00.0", out, sizeof(out)), 0);
	assert_string_equal(out, "10000:01:00.0");
	assert_int_equal(gd_pci_normalize("10000:01:00.0", out, sizeof(out)), 0);
	assert_string_equal(out, "10000:01:00.0");
	assert_int_equal(gd_pci_normalize("FFFFFFFF:ff:1f.7", out, sizeof(out)), 0);
	assert_string_equal(out, "ffffffff:ff:1f.7");
	assert_int_equal(gd_pci_normalize("100000000:01:00.0", out, sizeof(out)), -EINVAL);
	assert_int_equal(gd_pci_normalize("000010000:01:00.0", out, sizeof(out)), -EINVAL);
	assert_int_equal(gd_pci_normalize("10000:01:00.0", out, 13), -ENAMETOOLONG);
}

static void pattern(void **state)
{
	uint8_t buf[1003], copy[1003];

	gd_pattern_fill(buf, sizeof(buf), 42);
	assert_int_equal(gd_pattern_check(buf, sizeof(buf), 42), sizeof(buf));
	for (size_t i = 0; i < sizeof(buf); i++)
		assert_int_equal(buf[i], gd_pattern_byte(42 + i));
	/* another start, shifted by a byte or by a power of two: no match */
	assert_true(gd_pattern_check(buf, sizeof(buf), 43) < sizeof(buf));
	assert_true(gd_pattern_check(buf, sizeof(buf), 42 + 65536) < sizeof(buf));
	memcpy(copy, buf, sizeof(buf));
	copy[777] ^= 1;
	assert_int_equal(gd_pattern_check(copy, sizeof(copy), 42), 777);
	copy[777] ^= 1;
	copy[3] ^= 0x80; /* in the unaligned head */
	assert_int_equal(gd_pattern_check(copy, sizeof(copy), 42), 3);
	/* a chunk at offset 80 continues the same stream, at any alignment */
	assert_int_equal(gd_pattern_check(buf + 80, sizeof(buf) - 80, 42 + 80), sizeof(buf) - 80);
	assert_int_equal(gd_pattern_check(buf + 81, 100, 42 + 81), 100);
	assert_true(gd_pattern_check(buf + 80, 100, 42 + 72) < 100);
}

static void select_parse(void **state)
{
	struct gd_gpu_select sel = { 0 };

	assert_int_equal(gd_gpu_select_parse("3", &sel), 0);
	assert_int_equal(sel.by, GD_GPU_BY_INDEX);
	assert_int_equal(sel.index, 3);
	assert_int_equal(gd_gpu_select_parse("auto", &sel), 0);
	assert_int_equal(sel.by, GD_GPU_AUTO);
	assert_int_equal(gd_gpu_select_parse("-1", &sel), -EINVAL);
	assert_int_equal(gd_gpu_select_parse("x", &sel), -EINVAL);
}

static void cuda_errors(void **state)
{
	char buf[128];

	/* before any driver is loaded the names come from our table */
	gd_cuda_strerror(GD_CU_ERROR_NO_DEVICE, buf, sizeof(buf));
	assert_string_equal(buf, "CUDA_ERROR_NO_DEVICE (no CUDA-capable device is detected)");
	gd_cuda_strerror(12345, buf, sizeof(buf));
	assert_string_equal(buf, "CUDA error 12345 (unknown to this driver)");
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_OUT_OF_MEMORY), -ENOMEM);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_NO_DEVICE), -ENODEV);
	assert_int_equal(gd_cuda_errno(GD_CU_ERROR_NOT_SUPPORTED), -EOPNOTSUPP);
}

/* The registration failure reasons read the machine: use the fixture trees. */
static struct gd_machine tm;

static void use_tree(const char *name)
{
	char root[1024];
	const char *src = getenv("top_srcdir");

	snprintf(root, sizeof(root), "%s/tests/fixtures/doctor/%s", src ? src : ".", name);
	assert_int_equal(gd_machine_init(&tm, root), 0);
}

static void registration_reasons(void **state)
{
	char why[256];

	use_tree("old-kernel-peermem");
	gd_gpu_explain_dmabuf(&tm, -EOPNOTSUPP, why, sizeof(why));
	assert_string_equal(why, "dma-buf: kernel 5.10 < 5.12 (upgrade the kernel)");
	gd_gpu_explain_peermem(&tm, -EINVAL, why, sizeof(why));
	assert_string_equal(why, "peermem: ibv_reg_mr on device memory failed: Invalid argument");

	use_tree("peermem-missing");
	gd_gpu_explain_peermem(&tm, -EFAULT, why, sizeof(why));
	assert_string_equal(why, "peermem: nvidia_peermem not loaded (modprobe nvidia-peermem)");
	gd_gpu_explain_dmabuf(&tm, -EOPNOTSUPP, why, sizeof(why));
	assert_non_null(strstr(why, "dma-buf: not supported by the RDMA driver or the GPU driver"));

	use_tree("peermem-unregistered");
	gd_gpu_explain_peermem(&tm, -EFAULT, why, sizeof(why));
	assert_non_null(strstr(why, "loaded but not registered with ib_core"));
	gd_machine_live(&tm);
}

static void env_probes(void **state)
{
	struct gd_nv_driver nv;
	struct gd_peermem pm;
	struct gd_nv_params np;

	use_tree("peermem-unregistered");
	assert_int_equal(gd_nvidia_driver(&tm, &nv), 0);
	assert_int_equal(nv.flavour, GD_NV_PROPRIETARY);
	assert_string_equal(nv.version, "535.104.05");
	assert_int_equal(gd_peermem_probe(&tm, &pm), 0);
	assert_int_equal(pm.state, GD_PEERMEM_UNREGISTERED);
	assert_true(pm.nvidia_peermem && pm.nv_peer_mem);
	use_tree("good");
	assert_int_equal(gd_nv_params_read(&tm, &np), 0);
	assert_int_equal(np.peer_mapping_override, 1);
	assert_int_equal(gd_kallsyms_has(&tm, GD_PEER_SYM), -ENOENT);
	use_tree("old-kernel-peermem");
	assert_int_equal(gd_kallsyms_has(&tm, GD_PEER_SYM), 1);
	assert_int_equal(gd_kallsyms_has(&tm, "ib_register_peer_memory"),
			 0); /* a prefix is not a match */
	use_tree("peermem-missing");
	assert_int_equal(gd_kallsyms_has(&tm, GD_PEER_SYM), 0);
	use_tree("no-gpu");
	assert_int_equal(gd_nvidia_driver(&tm, &nv), -ENOENT);
	assert_int_equal(gd_nv_params_read(&tm, &np), -ENOENT);
	gd_machine_live(&tm);
}

/* dcb-pfc(8) and dcb-apptrust(8) text: the lossless priorities and DSCP trust */
static void dcb_text(void **state)
{
	unsigned mask;
	bool dscp;

	(void)state;
	assert_int_equal(gd_doc_parse_pfc("pfc-cap 8 macsec-bypass off delay 0\n"
					  "prio-pfc 0:off 1:off 2:off 3:on 4:off 5:on 6:off 7:off\n",
					  &mask), 0);
	assert_int_equal(mask, (1u << 3) | (1u << 5));
	assert_int_equal(gd_doc_parse_pfc("prio-pfc 0:off 1:off 2:off 3:off 4:off 5:off 6:off 7:off",
					  &mask), 0);
	assert_int_equal(mask, 0);
	assert_int_equal(gd_doc_parse_pfc("pfc-cap 8", &mask), -EINVAL);
	assert_int_equal(gd_doc_parse_apptrust("order pcp dscp\n", &dscp), 0);
	assert_true(dscp);
	assert_int_equal(gd_doc_parse_apptrust("order: dscp", &dscp), 0);
	assert_true(dscp);
	assert_int_equal(gd_doc_parse_apptrust("order pcp\nsomething dscp\n", &dscp), 0);
	assert_false(dscp);
	assert_int_equal(gd_doc_parse_apptrust("order pcp ethtype", &dscp), 0);
	assert_false(dscp);
	assert_int_equal(gd_doc_parse_apptrust("", &dscp), -EINVAL);
}

/* A live machine runs `dcb WHAT show dev IF` itself (no shell, no timeout(1)): a fake
 * dcb first on PATH prints its arguments, some noise on stderr, and exits $DCB_RC. */
static void dcb_live(void **state)
{
	char dir[] = "/tmp/gd-dcb-XXXXXX", path[600], buf[256], src[128];
	const char *old = getenv("PATH");
	char *saved = old ? strdup(old) : NULL;
	FILE *f;

	(void)state;
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof(path), "%s/dcb", dir);
	f = fopen(path, "w");
	assert_non_null(f);
	fputs("#!/bin/sh\necho \"$@\"; echo noise >&2; exit ${DCB_RC:-0}\n", f);
	fclose(f);
	assert_int_equal(chmod(path, 0755), 0);
	gd_machine_live(&tm);
	setenv("PATH", dir, 1);
	unsetenv("DCB_RC");
	assert_int_equal(gd_doc_dcb_text(&tm, "eth0", "pfc", buf, sizeof(buf), src, sizeof(src)), 0);
	assert_string_equal(buf, "pfc show dev eth0\n"); /* stdout only */
	assert_string_equal(src, "dcb pfc show dev eth0");
	/* a text longer than the buffer: its head, as fread() under popen gave */
	assert_int_equal(gd_doc_dcb_text(&tm, "eth0", "apptrust", buf, 8, src, sizeof(src)), 0);
	assert_string_equal(buf, "apptrus");
	setenv("DCB_RC", "1", 1); /* dcb failed (no DCB on the device): no text */
	assert_int_equal(gd_doc_dcb_text(&tm, "eth0", "pfc", buf, sizeof(buf), src, sizeof(src)), -ENOENT);
	unsetenv("DCB_RC");
	assert_int_equal(gd_doc_dcb_text(&tm, "eth0;rm", "pfc", buf, sizeof(buf), src, sizeof(src)),
			 -EINVAL);
	unlink(path);
	/* no dcb at all (iproute2 without it) */
	assert_int_equal(gd_doc_dcb_text(&tm, "eth0", "pfc", buf, sizeof(buf), src, sizeof(src)), -ENOENT);
	rmdir(dir);
	if (saved)
		setenv("PATH", saved, 1);
	free(saved);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(nvidia_version_open),
		cmocka_unit_test(nvidia_version_proprietary),
		cmocka_unit_test(kernel_version),
		cmocka_unit_test(registry_dwords),
		cmocka_unit_test(proc_modules),
		cmocka_unit_test(memlock),
		cmocka_unit_test(proc_devices),
		cmocka_unit_test(roce_mtu),
		cmocka_unit_test(acs_walk),
		cmocka_unit_test(link_speed),
		cmocka_unit_test(path_class),
		cmocka_unit_test(pci_normalize),
		cmocka_unit_test(pattern),
		cmocka_unit_test(select_parse),
		cmocka_unit_test(dcb_text),
		cmocka_unit_test(dcb_live),
		cmocka_unit_test(cuda_errors),
		cmocka_unit_test(registration_reasons),
		cmocka_unit_test(env_probes),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
