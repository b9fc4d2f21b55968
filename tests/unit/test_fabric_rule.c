/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for THE fabric rule (fabric_rule.h) and the resolver that asks it
 * (fabric_opts.h): RDMA devices -> verbs; only EFA -> ofi efa; none -> the
 * refusal (no_device), which only the user's --fabric ofi lifts; the one parse
 * of a fabric's name and the one decision every caller asks (gd_fabric_decide). */
#include <errno.h>
#include <limits.h>
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

#include "fabric_opts.h"
#include "fabric_rule.h"
#include "fixture.h"
#include "log.h"

/* A sysfs tree made here: mkdir -p each "dir", ln -s "link=target". */
static char tmproot[PATH_MAX];

static void mkpath(const char *rel)
{
	char p[PATH_MAX + 256];

	snprintf(p, sizeof(p), "%s/%s", tmproot, rel);
	for (char *s = p + strlen(tmproot) + 1; *s; s++)
		if (*s == '/') {
			*s = 0;
			mkdir(p, 0755);
			*s = '/';
		}
	mkdir(p, 0755);
}

static void mklink(const char *rel, const char *target)
{
	char p[PATH_MAX + 256];

	snprintf(p, sizeof(p), "%s/%s", tmproot, rel);
	assert_int_equal(symlink(target, p), 0);
}

static struct gd_machine *tree(void)
{
	static struct gd_machine m;
	char root[PATH_MAX];

	snprintf(root, sizeof(root), "%s/tmp-tree-XXXXXX", P_tmpdir);
	assert_non_null(mkdtemp(root));
	snprintf(tmproot, sizeof(tmproot), "%s", root);
	mkpath("sys/class/infiniband");
	assert_int_equal(gd_machine_init(&m, tmproot), 0);
	return &m;
}

static void rmtree(void)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmproot);
	assert_int_equal(system(cmd), 0);
}

static void choose_box(const char *box, struct gd_fabric_choice *c)
{
	if (gd_fixture_use(box))
		skip();
	gd_fabric_choose(&gd_fixture_m, c);
}

static void devices_mean_verbs(void **state)
{
	static const char *const boxes[] = { "rxe", "ib", "h20", "degraded" };
	struct gd_fabric_choice c;

	(void)state;
	for (size_t i = 0; i < sizeof(boxes) / sizeof(boxes[0]); i++) {
		choose_box(boxes[i], &c);
		assert_int_equal(c.fabric, GD_FABRIC_VERBS);
		assert_false(c.no_device);
		assert_string_equal(c.provider, "");
		assert_non_null(strstr(c.why, "speaks RC"));
	}
}

static void none_is_refused(void **state)
{
	struct gd_fabric_choice c;

	(void)state;
	choose_box("empty", &c);
	assert_true(c.no_device);
	assert_int_equal(c.fabric, GD_FABRIC_OFI); /* what a user may ask for */
	assert_string_equal(c.provider, "tcp");
	assert_non_null(strstr(c.why, "no RDMA device"));
}

static void only_efa_means_ofi_efa(void **state)
{
	struct gd_fabric_choice c;
	struct gd_machine *m;

	(void)state;
	m = tree();
	mkpath("sys/class/infiniband/efa0"); /* by its name */
	mkpath("sys/bus/pci/drivers/efa");
	mkpath("sys/devices/pci0000:00/0000:00:06.0");
	mklink("sys/devices/pci0000:00/0000:00:06.0/driver", "../../../bus/pci/drivers/efa");
	mkpath("sys/class/infiniband/rdmap0s6");
	mklink("sys/class/infiniband/rdmap0s6/device", "../../../devices/pci0000:00/0000:00:06.0");
	assert_int_equal(gd_fabric_dev_is_efa(m, "rdmap0s6"), 1); /* by its driver */
	gd_fabric_choose(m, &c);
	assert_int_equal(c.fabric, GD_FABRIC_OFI);
	assert_string_equal(c.provider, "efa");
	assert_false(c.no_device); /* EFA is the real NIC there: used, and the header says why */
	assert_non_null(strstr(c.why, "EFA"));
	/* an RC device beside the EFA one: verbs */
	mkpath("sys/class/infiniband/mlx5_0");
	gd_fabric_choose(m, &c);
	assert_int_equal(c.fabric, GD_FABRIC_VERBS);
	assert_false(c.no_device);
	rmtree();
}

static void resolver_marks_the_refusal(void **state)
{
	struct gd_fabric_opts o;

	(void)state;
	if (gd_fixture_use("empty"))
		skip();
	gd_fabric_opts_defaults(&o);
	assert_int_equal(gd_fabric_opts_resolve(&o, &gd_fixture_m), 0);
	if (!gd_fabric_have_ofi()) { /* verbs then says what is missing */
		assert_int_equal(o.fabric, GD_FABRIC_VERBS);
		assert_int_equal(o.no_device, 0);
		return;
	}
	assert_int_equal(o.fabric, GD_FABRIC_OFI);
	assert_int_equal(o.no_device, 1);
	/* --provider is the user's word: not refused */
	gd_fabric_opts_defaults(&o);
	assert_int_equal(gd_fabric_opts_handle(&o, GD_FABRIC_OPT_BASE + 1, "shm"), 0);
	assert_int_equal(gd_fabric_opts_resolve(&o, &gd_fixture_m), 0);
	assert_int_equal(o.no_device, 0);
	assert_string_equal(o.provider, "shm");
	/* --fabric ofi: not AUTO, so the rule is not asked */
	gd_fabric_opts_defaults(&o);
	assert_int_equal(gd_fabric_opts_handle(&o, GD_FABRIC_OPT_BASE, "ofi"), 0);
	assert_int_equal(gd_fabric_opts_resolve(&o, &gd_fixture_m), 0);
	assert_int_equal(o.no_device, 0);
	assert_string_equal(o.provider, "tcp");
}

/* THE parse of a fabric name: --fabric, a spec's fabric:, gd_devinfo --fabric,
 * and the JSON's "fabric" read back (check_bundle.c) all go through it. */
static void one_parse_of_the_name(void **state)
{
	static const char *const bad[] = { "", "auto", "OFI", "Verbs", "ofi ", "libfabric", "ucx" };
	enum gd_fabric_kind f = GD_FABRIC_AUTO;
	struct gd_fabric_opts o;

	(void)state;
	assert_int_equal(gd_fabric_parse("verbs", &f), 0);
	assert_int_equal(f, GD_FABRIC_VERBS);
	assert_int_equal(gd_fabric_parse("ofi", &f), 0);
	assert_int_equal(f, GD_FABRIC_OFI);
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		f = GD_FABRIC_COUNT;
		assert_int_equal(gd_fabric_parse(bad[i], &f), -EINVAL);
		assert_int_equal(f, GD_FABRIC_COUNT); /* untouched */
	}
	assert_int_equal(gd_fabric_parse(NULL, &f), -EINVAL);
	/* the printed name reads back as itself */
	for (int k = GD_FABRIC_VERBS; k < GD_FABRIC_COUNT; k++) {
		assert_int_equal(gd_fabric_parse(gd_fabric_kind_name((enum gd_fabric_kind)k), &f), 0);
		assert_int_equal(f, k);
	}
	assert_string_equal(gd_fabric_kind_name(GD_FABRIC_AUTO), "auto");
	/* the option goes through it: a bad name is refused, a good one sets the fabric */
	gd_fabric_opts_defaults(&o);
	assert_int_equal(gd_fabric_opts_handle(&o, GD_FABRIC_OPT_BASE, "rdma"), -EINVAL);
	assert_int_equal(gd_fabric_opts_handle(&o, GD_FABRIC_OPT_BASE, "ofi"), 0);
	assert_int_equal(o.fabric, GD_FABRIC_OFI);
	assert_string_equal(o.why, "--fabric");
}

static void decide_box(const char *box, struct gd_fabric_opts *o, const char *fabric,
		       const char *provider, const char *verbs_why, int want)
{
	gd_fabric_opts_defaults(o);
	if (gd_fixture_use(box))
		skip();
	if (fabric)
		assert_int_equal(gd_fabric_opts_handle(o, GD_FABRIC_OPT_BASE, fabric), 0);
	if (provider)
		assert_int_equal(gd_fabric_opts_handle(o, GD_FABRIC_OPT_BASE + 1, provider), 0);
	assert_int_equal(gd_fabric_decide(o, &gd_fixture_m, verbs_why), want);
}

/* THE decision, in each caller's situation: the bench tools (bench_opts.c: -d, -R,
 * -c RC, a verbs-first initiator), gd_check (check_machine.c: a test naming
 * devices or GPUs), and no word at all (the machine's rule). */
static void one_decision_for_every_caller(void **state)
{
	struct gd_fabric_opts o;

	(void)state;
	/* a bench tool, -d on a machine with RDMA devices: verbs, the option says why */
	decide_box("rxe", &o, NULL, NULL, "-d names verbs", 0);
	assert_int_equal(o.fabric, GD_FABRIC_VERBS);
	assert_string_equal(o.why, "-d names verbs");
	/* no word: the machine's rule */
	decide_box("rxe", &o, NULL, NULL, NULL, 0);
	assert_int_equal(o.fabric, GD_FABRIC_VERBS);
	assert_non_null(strstr(o.why, "speaks RC"));
	/* gd_check, a test naming GPUs on a machine without RDMA devices: verbs, never
	 * the rule's libfabric tcp (verbs then says what is missing when it runs) */
	decide_box("empty", &o, NULL, NULL, "the test names RDMA devices or GPUs", 0);
	assert_int_equal(o.fabric, GD_FABRIC_VERBS);
	assert_int_equal(o.no_device, 0);
	assert_string_equal(o.why, "the test names RDMA devices or GPUs");
	/* no word there: the rule's refusal, marked */
	decide_box("empty", &o, NULL, NULL, NULL, 0);
	assert_int_equal(o.fabric, gd_fabric_have_ofi() ? GD_FABRIC_OFI : GD_FABRIC_VERBS);
	assert_int_equal(o.no_device, gd_fabric_have_ofi() ? 1 : 0);
	if (!gd_fabric_have_ofi())
		return;
	/* the user's --fabric ofi wins over what names verbs (the tool then refuses the
	 * pair by name: bench_opts.c's conflicts) */
	decide_box("rxe", &o, "ofi", NULL, "-R names verbs", 0);
	assert_int_equal(o.fabric, GD_FABRIC_OFI);
	assert_string_equal(o.why, "--fabric");
	assert_string_equal(o.provider, "tcp");
	/* --provider chooses libfabric before -d does */
	decide_box("rxe", &o, NULL, "shm", "-d names verbs", 0);
	assert_int_equal(o.fabric, GD_FABRIC_OFI);
	assert_string_equal(o.provider, "shm");
	/* --fabric verbs with --provider: refused, whatever else the run names */
	decide_box("rxe", &o, "verbs", "shm", NULL, -EINVAL);
}

/* gd_doctor's EFA checks ask the rule's test: by driver, or by the efa name. */
static void doctor_asks_the_efa_test(void **state)
{
	struct gd_machine *m;

	(void)state;
	m = tree();
	mkpath("sys/class/infiniband/efa0");
	mkpath("sys/class/infiniband/mlx5_0");
	mkpath("sys/bus/pci/drivers/mlx5_core");
	mkpath("sys/devices/pci0000:00/0000:00:07.0");
	mklink("sys/devices/pci0000:00/0000:00:07.0/driver", "../../../bus/pci/drivers/mlx5_core");
	mklink("sys/class/infiniband/mlx5_0/device", "../../../devices/pci0000:00/0000:00:07.0");
	assert_int_equal(gd_fabric_dev_is_efa(m, "efa0"), 1);
	assert_int_equal(gd_fabric_dev_is_efa(m, "mlx5_0"), 0);
	assert_int_equal(gd_fabric_dev_is_efa(m, "rxe0"), 0); /* absent: not EFA */
	rmtree();
}

/* The software providers copy GPU memory with CUDA; only shm ran validated
 * beside the GPU producer under MPS (the proxy's refusal is lifted there) */
static void gpu_copies_and_mps(void **state)
{
	(void)state;
	assert_true(gd_fabric_ofi_copies_gpu("shm"));
	assert_true(gd_fabric_ofi_copies_gpu("tcp;ofi_rxm"));
	assert_false(gd_fabric_ofi_copies_gpu("efa"));
	assert_true(gd_fabric_ofi_mps_validated("shm"));
	assert_false(gd_fabric_ofi_mps_validated("tcp"));
	assert_false(gd_fabric_ofi_mps_validated("sm2"));
	assert_false(gd_fabric_ofi_mps_validated("shmx"));
	assert_false(gd_fabric_ofi_mps_validated("sh"));
	/* the passive side's progress thread per domain: shm only (its progress
	 * places each write; tcp's kernel moves the bytes) */
	assert_true(gd_fabric_ofi_passive_threads("shm"));
	assert_false(gd_fabric_ofi_passive_threads("tcp"));
	assert_false(gd_fabric_ofi_passive_threads("tcp;ofi_rxm"));
	assert_false(gd_fabric_ofi_passive_threads("efa"));
	assert_false(gd_fabric_ofi_passive_threads("shmx"));
}

/* The rule on a GPU producer's CUDA copies with the target's own facts (its
 * HELLO, wire version 5): which GPU its buffer sits on, whether it is an MPS
 * client there, whether it shares the host */
static void gpu_copies_with_the_target(void **state)
{
	const struct gd_gpu_side mps = { .gpu = "0000:18:00.0", .mps = true };
	const struct gd_gpu_side plain = { .gpu = "0000:18:00.0" };
	const struct gd_gpu_side other_gpu = { .gpu = "0000:2a:00.0" };
	const struct gd_gpu_side other_gpu_mps = { .gpu = "0000:2a:00.0", .mps = true };
	const struct gd_gpu_side host_mem = { .gpu = "" };
	const struct gd_gpu_side other_host = { .gpu = "0000:18:00.0", .other_host = true };
	const struct gd_gpu_side unknown = { .gpu = "" }; /* the producer's GPU not described */

	(void)state;
	/* the same GPU, both MPS clients, over shm: runs */
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &mps, &mps), GD_GPU_COPIES_MPS);
	/* the target started outside the MPS daemon: refused (it crawled at 420 ops/s) */
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &mps, &plain),
			 GD_GPU_COPIES_TARGET_OUTSIDE_MPS);
	/* no MPS on the producer's side, or a provider not validated under MPS: the copies wait */
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &plain, &plain), GD_GPU_COPIES_WAIT);
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &plain, &mps), GD_GPU_COPIES_WAIT);
	assert_int_equal(gd_fabric_ofi_gpu_copies("tcp;ofi_rxm", &mps, &mps), GD_GPU_COPIES_WAIT);
	/* no slicing: the target's buffer on another GPU, in host memory, on another host */
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &mps, &other_gpu), GD_GPU_COPIES_NONE);
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &plain, &other_gpu_mps), GD_GPU_COPIES_NONE);
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &mps, &host_mem), GD_GPU_COPIES_NONE);
	assert_int_equal(gd_fabric_ofi_gpu_copies("tcp", &plain, &other_host), GD_GPU_COPIES_NONE);
	/* shm reaches only this host: two side-channel addresses of one host (multi-homed,
	 * --bind_source_ip, a container's own network namespace) do not make another one */
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &plain, &other_host), GD_GPU_COPIES_WAIT);
	{
		const struct gd_gpu_side other_host_plain = { .gpu = "0000:18:00.0", .other_host = true };

		assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &mps, &other_host_plain),
				 GD_GPU_COPIES_TARGET_OUTSIDE_MPS);
	}
	/* no CUDA copies at all: a NIC's DMA, or verbs (no provider) */
	assert_int_equal(gd_fabric_ofi_gpu_copies("efa", &mps, &plain), GD_GPU_COPIES_NONE);
	assert_int_equal(gd_fabric_ofi_gpu_copies("", &plain, &plain), GD_GPU_COPIES_NONE);
	/* a producer whose GPU is not known shares it with nobody's buffer */
	assert_int_equal(gd_fabric_ofi_gpu_copies("shm", &unknown, &plain), GD_GPU_COPIES_NONE);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(devices_mean_verbs),
		cmocka_unit_test(none_is_refused),
		cmocka_unit_test(only_efa_means_ofi_efa),
		cmocka_unit_test(resolver_marks_the_refusal),
		cmocka_unit_test(one_parse_of_the_name),
		cmocka_unit_test(one_decision_for_every_caller),
		cmocka_unit_test(doctor_asks_the_efa_test),
		cmocka_unit_test(gpu_copies_and_mps),
		cmocka_unit_test(gpu_copies_with_the_target),
	};

	gd_log_init("test_fabric_rule");
	return cmocka_run_group_tests(tests, NULL, NULL);
}
