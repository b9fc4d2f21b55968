/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The machine gd_check judges, and the runs each test expands to on it. */
#ifndef GD_CHECK_MACHINE_H
#define GD_CHECK_MACHINE_H

#include <stdbool.h>
#include <stddef.h>

#include "check_int.h"
#include "gd.h"
#include "rdma_dev.h"
#include "topo.h"
#include "topo_advice.h"

struct gd_ck_machine {
	const struct gd_machine *mach;	/* the machine's sysfs (live or a fixture) */
	struct gd_hca *hcas;		/* RDMA devices (sysfs) */
	size_t nhcas;
	struct gd_topo t;		/* GPUs and NICs with their classes (hwloc) */
	struct gd_topo_advice adv;	/* the nearest NIC of each GPU */
	int numa_nodes;
	bool topo_ok;			/* t and adv are filled */
	bool nics_from_xml;		/* the NICs are a --topology XML's, none in sysfs: the plan
					 * of another box (its runs are verbs, their addresses
					 * unknown) */
};

/* Discover this machine (or the --topology XML / --sysfs-root tree). 0; this machine's
 * topology that cannot be read leaves topo_ok false (with a warning); a --topology file
 * that cannot be read or parsed is -EINVAL (message printed: exit 2). */
int gd_ck_machine_load(struct gd_ck_machine *m, const struct gd_machine *mach, const char *xml);
void gd_ck_machine_free(struct gd_ck_machine *m);
const struct gd_hca *gd_ck_hca(const struct gd_ck_machine *m, const char *name);

struct gd_ck_runs {
	struct gd_ck_run *v;
	size_t n, cap;
};
/* Append the runs of test t on this machine (pairs, memory, device filter). */
int gd_ck_expand(const struct gd_ck_machine *m, const struct gd_ck_test *t, struct gd_ck_runs *rs);
/* The fabric of test t's runs on this machine into *f (gd_fabric_decide with what the test
 * names that only verbs has). 0, or -errno (printed) as gd_fabric_decide; -ENOTSUP without
 * libfabric for fabric ofi (not printed: gd_ck_ofi_missing). */
int gd_ck_test_fabric(const struct gd_ck_machine *m, const struct gd_ck_test *t,
		      struct gd_fabric_opts *f);
/* The RDMA device a rank's run of test t names (check_mpi.c) into dev: the test's; none when
 * its fabric is libfabric (the spec's, or the rule's efa on an EFA-only node); else the first
 * ACTIVE one, the device rule every tool asks. 0, or -1 when there is none (no RDMA device:
 * the rule's libfabric tcp is a plan, never taken here). */
int gd_ck_run_device(const struct gd_ck_machine *m, const struct gd_ck_test *t, char *dev,
		     size_t len);
/* Test t asks for fabric ofi and this build has no libfabric (it expands to no run). */
bool gd_ck_ofi_missing(const struct gd_ck_machine *m, const struct gd_ck_test *t);

#endif
