/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The spec's topology, devices and doctor sections (check_sections.c). */
#ifndef GD_CHECK_SECTIONS_H
#define GD_CHECK_SECTIONS_H

#include "check_machine.h"

void gd_ck_topology(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    struct gd_ck_report *r);
void gd_ck_devices(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		   struct gd_ck_report *r);
/* Every doctor id of the spec names a gd_doctor check: 0, or GD_EXIT_USAGE with FILE:LINE:COL
 * (before anything runs, --dry-run too). */
int gd_ck_doctor_ids(const struct gd_ck_spec *s);
/* gd_doctor's registry, run in-process, for the spec's checks on rung (0: all of them);
 * not run when the ladder stopped below it. 0, or GD_EXIT_ENV when it cannot start. */
int gd_ck_doctor(const struct gd_ck_spec *s, const struct gd_machine *mach, struct gd_ck_report *r,
		 int rung);

#endif
