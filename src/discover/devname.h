/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * THE rule for a device argument: a device name is a name (one entry of
 * /sys/class/infiniband), never a path: 1 to GD_DEV_NAME_MAX bytes, no '/',
 * not "." or "..". Every tool's -d/--ib-dev and every reader ask it, so that
 * '-d ..' cannot read the parent of /sys/class/infiniband.
 */
#ifndef GD_DEVNAME_H
#define GD_DEVNAME_H

#include <stdbool.h>

#define GD_DEV_NAME_MAX 63 /* IBV_SYSFS_NAME_MAX less the NUL */

/* The silent form, for readers (a refused name reads as "no such device"). */
bool gd_dev_name_ok(const char *name);

/*
 * For options and specs: 0, or -EINVAL after an error naming opt and the form
 * expected; the tools exit 2.
 */
int gd_dev_name_check(const char *name, const char *opt);

#endif
