/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The machine a tool looks at: this one (live), or a copy of another's sys/
 * and proc/ under a root directory (a fixture). Made once in the tool's
 * prologue (gd_tool_parse, gd_tool_machine) from --sysfs-root, else
 * $GDPERF_SYSFS_ROOT, and passed down to every reader (sysfs.h) and to
 * hwloc (topo.h). Nothing else reads the root.
 */
#ifndef GD_MACHINE_H
#define GD_MACHINE_H

#include <limits.h>
#include <stdbool.h>

#define GD_SYSFS_ROOT_ENV "GDPERF_SYSFS_ROOT"

struct gd_machine {
	char root[PATH_MAX]; /* "" for the live machine, else the fixture root (no trailing '/') */
	bool fixture;	     /* root is not the live machine: verbs, CUDA, routes are not its */
};

/* The live machine. */
void gd_machine_live(struct gd_machine *m);
/*
 * The machine under root; NULL, "" and "/" mean the live machine. The
 * environment is not read here (gd_tool_machine does that). 0, or -errno
 * when root is not a directory (-ENOTDIR for a file), m set either way.
 */
int gd_machine_init(struct gd_machine *m, const char *root);
/* "/ (the live machine)" or the root, for messages. */
const char *gd_machine_name(const struct gd_machine *m);

#endif
