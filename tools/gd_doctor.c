/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_doctor: is GPUDirect RDMA (and IBGDA) ready on this machine? */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "devname.h"
#include "doctor.h"
#include "gd.h"
#include "log.h"
#include "opts.h"
#include "sysfs.h"

enum { OPT_JSON = 1, OPT_DEV, OPT_CHECK, OPT_LIST, OPT_TOPOLOGY };

static const struct gd_opt doctor_opts[] = {
	{ "json", 0, GD_NO_ARG, NULL, "print JSON Lines: one record per check, then a summary",
	  OPT_JSON },
	{ "ib-dev", 'd', GD_REQ_ARG, "DEV", "check only this RDMA device", OPT_DEV },
	{ "check", 0, GD_REQ_ARG, "ID", "run only the checks whose id starts with ID", OPT_CHECK },
	{ "list", 0, GD_NO_ARG, NULL, "list the checks and exit", OPT_LIST },
	{ "topology", 't', GD_REQ_ARG, "FILE",
	  "place GPUs and NICs by an hwloc XML topology (as gd_topo --topology)", OPT_TOPOLOGY },
	{ NULL },
};

static const struct gd_opt *const doctor_tables[] = { gd_common_opts, doctor_opts, gd_sysfs_opts, NULL };

/* --completion=checks: the check ids, for the shell's --check */
static int complete(const struct gd_machine *m, const char *what, FILE *out)
{
	(void)m;
	if (strcmp(what, "checks"))
		return -EINVAL;
	gd_doctor_list_ids(out);
	return 0;
}

static const struct gd_cmd doctor_cmd = {
	.synopsis = "[options]",
	.summary = "GPUDirect RDMA readiness checks: PASS/WARN/FAIL/SKIP with evidence and a fix.",
	.tables = doctor_tables,
	.complete = complete,
};

struct doctor_args {
	struct gd_machine m;
	struct gd_doctor d;
	bool list;
};

static int on_opt(void *ctx, int id, const char *arg)
{
	struct doctor_args *a = ctx;

	switch (id) {
	case OPT_JSON:
		a->d.json = true;
		return 0;
	case OPT_DEV:
		if (gd_dev_name_check(arg, "-d/--ib-dev"))
			return -EINVAL;
		a->d.only_dev = arg;
		return 0;
	case OPT_CHECK:
		a->d.only_check = arg;
		return 0;
	case OPT_LIST:
		a->list = true;
		return 0;
	case OPT_TOPOLOGY:
		a->d.xml = arg;
		return 0;
	}
	return -EINVAL;
}

int main(int argc, char **argv)
{
	struct doctor_args a = { .d = { .out = stdout } };
	int ret = gd_tool_parse(&doctor_cmd, argc, argv, on_opt, &a, &a.m);

	a.d.m = &a.m;
	if (ret != GD_TOOL_CONTINUE)
		return ret;
	/* option values first: nothing of the machine is read for a bad --check */
	if (!gd_doctor_check_exists(a.d.only_check)) {
		gd_error("--check %s matches no check (see --list)", gd_excerpt(a.d.only_check));
		return GD_EXIT_USAGE;
	}
	if (a.list) {
		gd_doctor_list(stdout, a.d.json);
		return gd_tool_flush_stdout();
	}
	ret = gd_doctor_init(&a.d);
	if (ret && a.d.xml && (ret == -ENOENT || ret == -EACCES || ret == -EINVAL)) {
		gd_doctor_fini(&a.d); /* a bad --topology file: the message named it */
		return GD_EXIT_USAGE;
	}
	if (ret == -ENXIO) /* -d names no device: the message lists them */
		return GD_EXIT_USAGE;
	if (ret) {
		gd_error("cannot read the machine's devices: %s", strerror(-ret));
		gd_doctor_fini(&a.d);
		return GD_EXIT_ENV;
	}
	ret = gd_doctor_run(&a.d);
	if (ret == -ENOENT) {
		gd_error("--check %s matches no check (see --list)", gd_excerpt(a.d.only_check));
		gd_doctor_fini(&a.d);
		return GD_EXIT_USAGE;
	}
	gd_doctor_summary(&a.d);
	gd_doctor_fini(&a.d);
	ret = gd_tool_flush_stdout();
	if (ret != GD_EXIT_OK)
		return ret;
	return a.d.counts[GD_CHECK_FAIL] ? GD_EXIT_FAIL : GD_EXIT_OK;
}
