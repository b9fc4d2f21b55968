/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The one bounded, non-blocking way gdperf reads a file it did not write:
 * sysfs and procfs attributes, hwloc XML topologies, NVLink lists, specs.
 *
 * The file is opened O_RDONLY|O_NONBLOCK|O_CLOEXEC and must be a regular
 * file (fstat): a FIFO, socket or device (/dev/zero, a named pipe nobody
 * writes) is refused with GD_ENOTREG before a byte is read, so no read
 * blocks; at most a cap of bytes is read, so no file (/proc, an endless
 * generator, a huge copy) makes memory grow without limit. Every sysfs and
 * procfs attribute gdperf reads is a regular file, on a live machine and in
 * a fixture tree, so no exception is needed.
 *
 * All functions return 0 or a negative errno:
 *   -GD_ENOTREG  not a regular file (gd_strerror: "not a regular file ...")
 *   -EFBIG       larger than the cap
 *   -EISDIR, -ENOENT, -EACCES ...  as open(2) and read(2) say
 */
#ifndef GD_READFILE_H
#define GD_READFILE_H

#include <errno.h>
#include <stddef.h>

/* "Wrong medium type": never returned by open/read of a path, so it is ours alone. */
#define GD_ENOTREG EMEDIUMTYPE

/* Caps: one sysfs attribute; a whole text file (XML, NVLink list, spec, /proc file). */
#define GD_READ_CAP_ATTR ((size_t)64 * 1024)
#define GD_READ_CAP_TEXT ((size_t)64 * 1024 * 1024)
/* A procfs text file (/proc/modules, /proc/driver/nvidia/params...). */
#define GD_READ_CAP_PROC ((size_t)16 * 1024 * 1024)

/* Open path for reading after the checks above; *fd is then a regular file. */
int gd_readfile_open(const char *path, int *fd);
/*
 * Read path into buf (len bytes, NUL-terminated, so at most len - 1 of
 * content): -EFBIG if more is there. *got (may be NULL) is the content length.
 */
int gd_readfile_buf(const char *path, char *buf, size_t len, size_t *got);
/* Read path into a malloc'd, NUL-terminated buffer of at most cap bytes of content. */
int gd_readfile_alloc(const char *path, size_t cap, char **out, size_t *got);
/*
 * For a library that reads a whole tree itself (hwloc under a fixture root):
 * 0 if every entry under root is a directory, a regular file, or a symlink
 * to one (or dangling), no file over GD_READ_CAP_TEXT; else -GD_ENOTREG,
 * -EFBIG (or -E2BIG past max_entries) with
 * the first offending path in bad. Symlinks are not followed into directories.
 */
int gd_readfile_check_tree(const char *root, size_t max_entries, char *bad, size_t badlen);
/*
 * A file gdperf is asked to write (gd_topo --export): 0 if it does not exist
 * or opening it cannot block, -GD_ENOTREG for a FIFO or socket (opening a FIFO
 * for writing waits for a reader), -EISDIR for a directory.
 */
int gd_writefile_check(const char *path);
/* strerror(-err), with gdperf's own codes spelled out. */
const char *gd_strerror(int err);

#endif
