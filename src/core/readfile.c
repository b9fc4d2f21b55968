/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "config.h"

#include "readfile.h"

#include "log.h"

#include <fcntl.h>
#include <ftw.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

int gd_readfile_open(const char *path, int *fd)
{
	struct stat st;
	int f = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);

	if (f < 0)
		return -errno;
	if (fstat(f, &st)) {
		int err = -errno;
		close(f);
		return err;
	}
	if (!S_ISREG(st.st_mode)) {
		close(f);
		return S_ISDIR(st.st_mode) ? -EISDIR : -GD_ENOTREG;
	}
	*fd = f;
	return 0;
}

/* Read fd into buf until EOF or len bytes: the count, or -errno. */
static ssize_t read_upto(int fd, char *buf, size_t len)
{
	size_t n = 0;

	while (n < len) {
		ssize_t r = read(fd, buf + n, len - n);

		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return errno == EAGAIN ? -GD_ENOTREG : -errno;
		if (r == 0)
			break;
		n += (size_t)r;
	}
	return (ssize_t)n;
}

int gd_readfile_buf(const char *path, char *buf, size_t len, size_t *got)
{
	ssize_t n;
	int fd, ret;

	if (len == 0)
		return -EINVAL;
	ret = gd_readfile_open(path, &fd);
	if (ret)
		return ret;
	/* one byte more than fits tells a full file from a truncated one */
	n = read_upto(fd, buf, len - 1);
	if (n == (ssize_t)(len - 1)) {
		char extra;
		ssize_t m = read_upto(fd, &extra, 1);
		if (m != 0)
			n = m < 0 ? m : -EFBIG;
	}
	close(fd);
	if (n < 0)
		return (int)n;
	buf[n] = '\0';
	if (got)
		*got = (size_t)n;
	return 0;
}

int gd_readfile_alloc(const char *path, size_t cap, char **out, size_t *got)
{
	size_t size = cap < 4096 ? cap + 1 : 4096, n = 0;
	char *buf = NULL;
	int fd, ret = gd_readfile_open(path, &fd);

	if (ret)
		return ret;
	for (;;) {
		char *nb = realloc(buf, size + 1);
		ssize_t r;

		if (!nb) {
			ret = -ENOMEM;
			break;
		}
		buf = nb;
		r = read_upto(fd, buf + n, size - n);
		if (r < 0) {
			ret = (int)r;
			break;
		}
		n += (size_t)r;
		if (n < size)
			break; /* EOF */
		if (size > cap) {
			ret = -EFBIG;
			break;
		}
		size = size * 2 > cap + 1 ? cap + 1 : size * 2;
	}
	close(fd);
	if (ret) {
		free(buf);
		return ret;
	}
	buf[n] = '\0';
	*out = buf;
	if (got)
		*got = n;
	return 0;
}

/* nftw has no context argument: the walk's state (one walk at a time) */
static struct {
	size_t left;
	char *bad;
	size_t badlen;
} walk;

static int check_entry(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	struct stat target;

	(void)ftw;
	if (walk.left-- == 0) {
		snprintf(walk.bad, walk.badlen, "%s", path);
		return -E2BIG;
	}
	if (type == FTW_SL) { /* a link to a device (/dev/zero) is as bad as the device */
		st = stat(path, &target) == 0 ? &target : NULL;
		if (!st && errno == ELOOP) /* what the reader will skip is said, not hidden */
			gd_warn("%s: %s; the reader will ignore it", path, strerror(ELOOP));
	}
	if (st && S_ISREG(st->st_mode) && (size_t)st->st_size > GD_READ_CAP_TEXT) {
		snprintf(walk.bad, walk.badlen, "%s", path);
		return -EFBIG; /* a library reading it whole would not stop */
	}
	if (!st || S_ISREG(st->st_mode) || S_ISDIR(st->st_mode))
		return 0;
	snprintf(walk.bad, walk.badlen, "%s", path);
	return -GD_ENOTREG;
}

int gd_readfile_check_tree(const char *root, size_t max_entries, char *bad, size_t badlen)
{
	int ret;

	walk.left = max_entries;
	walk.bad = bad;
	walk.badlen = badlen;
	if (badlen)
		bad[0] = '\0';
	ret = nftw(root, check_entry, 16, FTW_PHYS);
	if (ret < 0 || ret > 0) /* -1: the walk itself failed */
		return ret == -1 ? -errno : ret;
	return 0;
}

int gd_writefile_check(const char *path)
{
	struct stat st;

	if (stat(path, &st))
		return errno == ENOENT ? 0 : -errno;
	if (S_ISDIR(st.st_mode))
		return -EISDIR;
	return S_ISFIFO(st.st_mode) || S_ISSOCK(st.st_mode) ? -GD_ENOTREG : 0;
}

const char *gd_strerror(int err)
{
	if (err < 0)
		err = -err;
	if (err == GD_ENOTREG)
		return "not a regular file (a FIFO, socket or device); copy its content to a "
		       "file first";
	if (err == EFBIG)
		return "file too large (over gdperf's read limit)";
	return strerror(err);
}
