/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* --example's calibration run of its tests on this machine (check_calib.c). */
#ifndef GD_CHECK_CALIB_H
#define GD_CHECK_CALIB_H

#include <stdbool.h>

#include "check_machine.h"

struct gd_ck_calib {
	size_t runs;		/* runs measured (3 per NIC, or of the libfabric loopback) */
	double worst;		/* the lowest bandwidth (Gb/s) or highest mean latency (us) */
	char why[256];		/* why it could not calibrate */
};

/* The example's write-bw (bw) or write-lat test, over libfabric tcp when ofi. */
void gd_ck_example_test(struct gd_ck_test *t, bool bw, bool ofi);
/* Run t 3 times on every run it expands to here: 0 with c filled, or -errno with c->why. */
int gd_ck_calibrate(const struct gd_ck_machine *m, const struct gd_ck_test *t,
		    struct gd_ck_calib *c);

#endif
