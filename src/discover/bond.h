/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Linux bonds: /sys/class/net/BOND/bonding, bonding_slave, /proc/net/bonding/BOND. */
#ifndef GD_BOND_H
#define GD_BOND_H

#include <stdbool.h>
#include <stddef.h>

#include "rdma_dev.h"

/* The kernel's bonding modes (BOND_MODE_* in include/net/bonding.h). */
enum gd_bond_mode {
	GD_BOND_RR, GD_BOND_ACTIVE_BACKUP, GD_BOND_XOR, GD_BOND_BROADCAST, GD_BOND_8023AD,
	GD_BOND_TLB, GD_BOND_ALB,
};

/* "802.3ad" -> 4; -1 unknown. And the long /proc descriptions. */
int gd_bond_mode_num(const char *name);
const char *gd_bond_mode_name(int num);
/* "IEEE 802.3ad Dynamic link aggregation" -> 4; -1 unknown. */
int gd_bond_mode_from_proc(const char *desc);

/*
 * The slave-speed rule, in every mode: 802.3ad cannot aggregate slaves of
 * different speeds (one sits idle), the balancing modes cap every flow hashed
 * to the slow slave, and active-backup loses bandwidth on failover. Slaves of
 * unknown speed (down) are left to the slave-down rule. Returns true with the
 * first slave (ref) and the first that differs from it (other).
 */
bool gd_bond_speed_mismatch(const struct gd_bond *b, size_t *ref, size_t *other);

/* All bonds on the machine (sysfs bonding/, else /proc/net/bonding), sorted. */
int gd_bond_list(const struct gd_machine *m, char ***names, size_t *count);

#endif
