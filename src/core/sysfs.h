/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Rooted reads of sysfs and procfs. Every read in gdperf goes through here,
 * so that a fixture tree with the kernel's layout can stand in for the live
 * machine: with root "/t", "/sys/class/net" reads "/t/sys/class/net".
 *
 * Every reader takes the machine (machine.h) first: its root prefixes the
 * path. All functions return 0 or a negative errno. Paths are printf formats of
 * absolute paths as on a live machine. -EINVAL means the file exists but its
 * content is malformed; gd_sysfs_errpath() then names the file (rooted).
 */
#ifndef GD_SYSFS_H
#define GD_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "machine.h"

/* The file behind the last failure of this thread (rooted). */
const char *gd_sysfs_errpath(void);

#define GD_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* The rooted path of a live path. */
int gd_sysfs_path(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
	GD_PRINTF(4, 5);
bool gd_sysfs_exists(const struct gd_machine *m, const char *fmt, ...) GD_PRINTF(2, 3);

/* Whole file, trailing whitespace removed. -ENOSPC if it does not fit. */
/* (NUL and control bytes other than tab and newline read as '?'.) */
int gd_sysfs_read_str(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
	GD_PRINTF(4, 5);
/* Decimal, or hex with 0x. Rejects trailing garbage. */
int gd_sysfs_read_u64(const struct gd_machine *m, uint64_t *val, const char *fmt, ...)
	GD_PRINTF(3, 4);
int gd_sysfs_read_int(const struct gd_machine *m, int *val, const char *fmt, ...) GD_PRINTF(3, 4);
/* The last component of a symlink's target (e.g. a driver or PCI address). */
int gd_sysfs_link_name(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
	GD_PRINTF(4, 5);
/* The canonical path of a live path, without the root prefix. */
int gd_sysfs_realpath(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
	GD_PRINTF(4, 5);

/* A whole (small) file into a malloc'ed string, not trimmed. */
int gd_sysfs_read_text(const struct gd_machine *m, char **out, const char *fmt, ...)
	GD_PRINTF(3, 4);

/* Sorted entry names of a directory, without "." and "..". Free with gd_sysfs_free_list. */
int gd_sysfs_list(const struct gd_machine *m, char ***names, size_t *count, const char *fmt, ...)
	GD_PRINTF(4, 5);
void gd_sysfs_free_list(char **names, size_t count);

/* Parse helpers used by the readers (exposed for tests). */
int gd_parse_u64(const char *s, uint64_t *val);

#endif
