/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* pairs: all-nics: every NIC at once (check_allnics.c). */
#ifndef GD_CHECK_ALLNICS_H
#define GD_CHECK_ALLNICS_H

#include "check_int.h"

/*
 * Run the n runs of one all-nics test together (each NIC's loopback in a child, one
 * deadline) and add the items: each NIC's run, then the aggregate against each min_bw
 * (a % line threshold is of the summed line rates). An aggregate that missed while every
 * NIC ran runs again, all NICs together, up to the test's retries in spec s
 * (gd_ck_retries); the items are the last attempt's, the aggregate's with every attempt.
 * Side-channel ports from *port (free ones, in [base, 65000)). Each NIC's port counters on
 * machine m are judged over all the attempts (check_counters.h): one item per NIC. 0, or
 * GD_EXIT_ENV when the runs could not start.
 */
struct gd_machine;
int gd_ck_all_nics(const struct gd_machine *m, const struct gd_ck_spec *s, struct gd_ck_report *r,
		   struct gd_ck_run *runs, size_t n, uint16_t base, uint16_t *port);

#endif
