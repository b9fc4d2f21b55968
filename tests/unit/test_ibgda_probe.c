/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The IBGDA probe chain's decisions over every branch of the facts. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "ibgda_entry.h"
#include "ibgda_probe.h"
#include "machine.h"

/* A ConnectX on which everything works. */
static struct gd_ibgda_facts good(void)
{
	struct gd_ibgda_facts f = {
		.dev = "mlx5_0",
		.driver = "mlx5_core",
		.mlx5 = 1,
		.devx_err = 0,
		.cqe_version = 1,
		.atomics = 1,
		.cuda = 1,
		.dmabuf_attr = 1,
		.dmabuf_umem_err = 0,
		.peermem = 0,
		.legacy_umem_err = -1,
		.host_umem_err = 0,
		.uar_err = 0,
		.uar_gpu_map_err = 0,
		.regkey = 1,
	};
	return f;
}

static const char *printed(const struct gd_ibgda_plan *p, const char *dev)
{
	static char buf[4096];
	FILE *m = fmemopen(buf, sizeof(buf), "w");

	gd_ibgda_plan_print(p, dev, m);
	fclose(m);
	return buf;
}

static void rxe_refused(void **s)
{
	struct gd_ibgda_facts f = good();
	struct gd_ibgda_plan p;

	snprintf(f.dev, sizeof(f.dev), "rxe0");
	f.driver[0] = 0;
	f.mlx5 = 0;
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, true, &p);
	assert_int_equal(p.rc, 3);
	assert_string_equal(p.check, "ibgda.devx");
	assert_non_null(strstr(p.fix, "--initiator=proxy"));
	assert_non_null(strstr(p.why, "ConnectX (mlx5)"));
	assert_non_null(strstr(printed(&p, "rxe0"), "cannot run on rxe0"));
	/* ibgda-cpudb is refused the same way: it writes mlx5 WQEs too */
	gd_ibgda_decide(&f, GD_IBGDA_WANT_CPU_DB, false, &p);
	assert_int_equal(p.rc, 3);
}

static void all_good(void **s)
{
	struct gd_ibgda_facts f = good();
	struct gd_ibgda_plan p;

	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, false, &p);
	assert_int_equal(p.rc, 0);
	assert_false(p.cpu_doorbell);
	assert_int_equal(p.mem, GD_IBGDA_MEM_DMABUF);
	assert_non_null(strstr(printed(&p, "mlx5_0"), "would run: ibgda (the GPU rings"));
}

static void buffer_fallbacks(void **s)
{
	struct gd_ibgda_facts f = good();
	struct gd_ibgda_plan p;

	f.dmabuf_umem_err = 14; /* EFAULT: old kernel */
	f.legacy_umem_err = 0;
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, false, &p);
	assert_int_equal(p.rc, 0);
	assert_int_equal(p.mem, GD_IBGDA_MEM_LEGACY);
	f.legacy_umem_err = 14;
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, false, &p);
	assert_int_equal(p.mem, GD_IBGDA_MEM_HOST);
	assert_non_null(strstr(printed(&p, "mlx5_0"), "nvidia-peermem not loaded"));
	f.host_umem_err = 12;
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, false, &p);
	assert_int_equal(p.rc, 3);
	assert_string_equal(p.check, "gdr.registration");
}

static void doorbell_choices(void **s)
{
	struct gd_ibgda_facts f = good();
	struct gd_ibgda_plan p;

	f.uar_gpu_map_err = 800;
	f.regkey = 0;
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, false, &p);
	assert_int_equal(p.rc, 3);
	assert_string_equal(p.check, "ibgda.regkey");
	assert_non_null(strstr(p.fix, "PeerMappingOverride=1"));
	assert_non_null(strstr(p.fix, "ibgda-cpudb"));
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, true, &p);
	assert_int_equal(p.rc, 0);
	assert_true(p.cpu_doorbell && p.fell_back);
	assert_non_null(strstr(printed(&p, "mlx5_0"), "FALLING BACK to ibgda-cpudb"));
	gd_ibgda_decide(&f, GD_IBGDA_WANT_CPU_DB, false, &p);
	assert_int_equal(p.rc, 0);
	assert_true(p.cpu_doorbell && !p.fell_back);
	f.uar_err = 12;
	gd_ibgda_decide(&f, GD_IBGDA_WANT_CPU_DB, false, &p);
	assert_int_equal(p.rc, 3);
}

static void device_failures(void **s)
{
	struct gd_ibgda_facts f = good();
	struct gd_ibgda_plan p;

	f.devx_err = 1; /* EPERM */
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, true, &p);
	assert_int_equal(p.rc, 3);
	assert_non_null(strstr(p.fix, "CAP_NET_RAW"));
	f = good();
	f.cqe_version = 0;
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, true, &p);
	assert_int_equal(p.rc, 3);
	assert_non_null(strstr(p.why, "cqe_version 0"));
	f = good();
	f.cuda = 0;
	snprintf(f.cuda_err, sizeof(f.cuda_err), "libcuda.so.1 not found");
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, true, &p);
	assert_int_equal(p.rc, 3);
	assert_string_equal(p.check, "cuda.driver");
	f = good();
	f.atomics = 0; /* a warning line, not a refusal */
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, true, &p);
	assert_int_equal(p.rc, 0);
	assert_non_null(strstr(printed(&p, "mlx5_0"), "PCI_ATOMIC_MODE"));
}

/* The live fact gathering on whatever this machine has: no mlx5 here, so it
 * must say not-mlx5 for a device that does not exist. */
static void live_missing_device(void **s)
{
	struct gd_ibgda_facts f;
	struct gd_ibgda_plan p;
	struct gd_machine m;

	gd_machine_live(&m);
	gd_ibgda_probe_facts(&m, "no_such_dev9", 0, &f);
	assert_int_equal(f.mlx5, 0);
	gd_ibgda_decide(&f, GD_IBGDA_WANT_GPU_DB, false, &p);
	assert_int_equal(p.rc, 3);
}

/* The tool entry on a device that is not mlx5: exit 3, message on err. */
static void entry_refuses(void **s)
{
	char ob[4096], eb[1024];
	FILE *o = fmemopen(ob, sizeof(ob), "w"), *e = fmemopen(eb, sizeof(eb), "w");
	struct gd_ibgda_plan p;
	struct gd_machine m;

	gd_machine_live(&m);
	assert_int_equal(gd_ibgda_prepare(&m, "no_such_dev9", false, true, 0, o, e, &p), 3);
	fclose(o);
	fclose(e);
	assert_non_null(strstr(
		eb, "error: --initiator=ibgda: IBGDA (ibgda, ibgda-cpudb) needs a ConnectX"));
	assert_non_null(strstr(eb, "--initiator=proxy"));
	assert_non_null(strstr(eb, "gd_doctor --check ibgda.devx"));
	assert_non_null(strstr(ob, "IBGDA probe: device no_such_dev9: not mlx5"));
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rxe_refused),	    cmocka_unit_test(all_good),
		cmocka_unit_test(buffer_fallbacks), cmocka_unit_test(doorbell_choices),
		cmocka_unit_test(device_failures),  cmocka_unit_test(live_missing_device),
		cmocka_unit_test(entry_refuses),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
