/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Report files (--junit, --plot) checked before anything runs: a target that cannot be
 * written is found in a second, not after an hour of runs whose results it would lose.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/vfs.h>
#include <unistd.h>

#include "check.h"
#include "readfile.h"

#define PROC_MAGIC 0x9fa0
#define SYSFS_MAGIC 0x62656572

static bool same_file(const struct stat *a, const char *path)
{
	struct stat b;

	return path && !stat(path, &b) && a->st_dev == b.st_dev && a->st_ino == b.st_ino;
}

/* An existing target: a regular file that is none of the inputs. */
static int existing(const char *path, const struct stat *st, const char *const *inputs,
		    char *why, size_t len)
{
	if (S_ISDIR(st->st_mode)) {
		snprintf(why, len, "a directory");
		return -EISDIR;
	}
	if (!S_ISREG(st->st_mode)) {
		snprintf(why, len, "not a regular file: a FIFO or socket (writing would wait for "
			 "a reader) or a device (it would lose the report)");
		return -GD_ENOTREG;
	}
	for (size_t i = 0; inputs[i]; i++)
		if (same_file(st, inputs[i])) {
			snprintf(why, len, "it is %s, an input of this run: the report would "
				 "overwrite it", inputs[i]);
			return -EEXIST;
		}
	(void)path;
	return 0;
}

int gd_ck_output_check(const char *path, const char *const *inputs, char *why, size_t len)
{
	struct stat st;
	struct statfs fs;
	bool had = !stat(path, &st);
	int fd, ret;

	if (!*path) {
		snprintf(why, len, "an empty file name");
		return -EINVAL;
	}
	if (had && (ret = existing(path, &st, inputs, why, len)))
		return ret;
	/* no O_TRUNC: an existing report stays as it is until the run writes the new one */
	fd = open(path, O_WRONLY | O_CREAT | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0666);
	if (fd < 0) {
		ret = -errno;
		snprintf(why, len, "%s%s", strerror(errno), ret == -ENOENT ?
			 " (its directory does not exist)" : "");
		return ret;
	}
	ret = fstatfs(fd, &fs) ? -errno : 0;
	if (!ret && (fs.f_type == PROC_MAGIC || fs.f_type == SYSFS_MAGIC)) {
		snprintf(why, len, "a file of /proc or /sys, not a place for a report");
		ret = -EINVAL;
	}
	close(fd);
	if (!had)
		unlink(path); /* written at the end of the run */
	return ret;
}

int gd_ck_output_check_tmp(const char *path, const char *const *inputs, size_t tmp_extra,
			   char *why, size_t len)
{
	char *b = strdup(path);
	size_t n;

	if (!b)
		return -ENOMEM;
	n = strlen(basename(b));
	free(b);
	if (tmp_extra && n + tmp_extra > NAME_MAX) {
		snprintf(why, len, "its name is %zu bytes: the temporary file written beside it "
			 "first (the name and %zu bytes more) would exceed the %d-byte limit of a "
			 "file name; give a name of %zu bytes at most", n, tmp_extra, NAME_MAX,
			 (size_t)NAME_MAX - tmp_extra);
		return -ENAMETOOLONG;
	}
	return gd_ck_output_check(path, inputs, why, len);
}
