/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "readfile.h"

#include <fcntl.h>
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
