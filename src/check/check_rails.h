/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A node's rails (gd_check --rails all): the NICs a test between nodes runs on at once, rail i
 * of one node with rail i of the other (check_sched.h places them in one round). Verbs: every
 * RDMA device, by name (a test's `device`: that one alone); libfabric: every domain the
 * provider offers for the test's endpoint type, by name (tcp: one per network interface, efa:
 * one per EFA device; a test's `domain`: that one alone).
 */
#ifndef GD_CHECK_RAILS_H
#define GD_CHECK_RAILS_H

#include <stddef.h>

#include "check_machine.h"

#define GD_CK_RAIL_NAME 64

/* The rails of this node for test t over the resolved fabric f, sorted by name, at most max:
 * their count (>= 1), or -ENOENT (none: why says so) or another -errno with why. */
int gd_ck_rails(const struct gd_ck_machine *m, const struct gd_ck_test *t,
		const struct gd_fabric_opts *f, char (*names)[GD_CK_RAIL_NAME], size_t max,
		char *why, size_t wlen);

#endif
