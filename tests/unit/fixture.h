/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Where the sysfs fixture trees are: $top_srcdir/tests/fixtures/sysfs. */
#ifndef GD_TEST_FIXTURE_H
#define GD_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "sysfs.h"

/* The directory holding h20/, ib/, rxe/...; NULL when it is missing. */
static const char *gd_fixture_dir(void)
{
	static char dir[1024];
	const char *src = getenv("top_srcdir");

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysfs", src ? src : "../..");
	return access(dir, F_OK) == 0 ? dir : NULL;
}

/* The machine of the last gd_fixture_use(). */
static struct gd_machine gd_fixture_m;

/* Read sysfs from the fixture tree box (e.g. "h20"): 0, or -1 when the trees are missing. */
static inline int gd_fixture_use(const char *box)
{
	char root[1100];
	const char *dir = gd_fixture_dir();

	if (!dir)
		return -1;
	snprintf(root, sizeof(root), "%s/%s", dir, box);
	return gd_machine_init(&gd_fixture_m, root) ? -1 : 0;
}

#endif
