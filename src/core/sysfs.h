/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Rooted reads of sysfs and procfs. Every read in gdperf goes through here,
 * so that a fixture tree with the kernel's layout can stand in for the live
 * machine: with root "/t", "/sys/class/net" reads "/t/sys/class/net".
 *
 * All functions return 0 or a negative errno. Paths are printf formats of
 * absolute paths as on a live machine. -EINVAL means the file exists but its
 * content is malformed; gd_sysfs_errpath() then names the file (rooted).
 */
#ifndef GD_SYSFS_H
#define GD_SYSFS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define GD_SYSFS_ROOT_ENV "GDPERF_SYSFS_ROOT"

/* NULL or "": the live machine, unless GDPERF_SYSFS_ROOT is set. */
void gd_sysfs_set_root(const char *root);
const char *gd_sysfs_root(void);   /* "" for the live machine */
bool gd_sysfs_is_fixture(void);    /* true when a root other than "/" is in use */
const char *gd_sysfs_errpath(void); /* the file behind the last failure */
/* 0 if the root is the live machine or a directory, else -errno (-ENOTDIR for a file). */
int gd_sysfs_check_root(void);

#define GD_PRINTF(a, b) __attribute__((format(printf, a, b)))

/* The rooted path of a live path. */
int gd_sysfs_path(char *buf, size_t len, const char *fmt, ...) GD_PRINTF(3, 4);
bool gd_sysfs_exists(const char *fmt, ...) GD_PRINTF(1, 2);

/* Whole file, trailing whitespace removed. -ENOSPC if it does not fit. */
int gd_sysfs_read_str(char *buf, size_t len, const char *fmt, ...) GD_PRINTF(3, 4);
/* Decimal, or hex with 0x. Rejects trailing garbage. */
int gd_sysfs_read_u64(uint64_t *val, const char *fmt, ...) GD_PRINTF(2, 3);
int gd_sysfs_read_int(int *val, const char *fmt, ...) GD_PRINTF(2, 3);
/* The last component of a symlink's target (e.g. a driver or PCI address). */
int gd_sysfs_link_name(char *buf, size_t len, const char *fmt, ...) GD_PRINTF(3, 4);
/* The canonical path of a live path, without the root prefix. */
int gd_sysfs_realpath(char *buf, size_t len, const char *fmt, ...) GD_PRINTF(3, 4);

/* Sorted entry names of a directory, without "." and "..". Free with gd_sysfs_free_list. */
int gd_sysfs_list(char ***names, size_t *count, const char *fmt, ...) GD_PRINTF(3, 4);
void gd_sysfs_free_list(char **names, size_t count);

/* Parse helpers used by the readers (exposed for tests). */
int gd_parse_u64(const char *s, uint64_t *val);

#endif
