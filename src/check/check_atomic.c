/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A report file written whole or not at all: a temporary file in the target's
 * directory (same filesystem, so rename(2) is atomic), flushed and synced, then
 * renamed over the target. On any error (a full disk included) the temporary
 * file is removed and the target is left as it was.
 */
#include <errno.h>
#include <fcntl.h>
#include <libgen.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "check.h"

static int finish(FILE *f, int ret)
{
	if (fflush(f) && !ret)
		ret = -errno;
	if (ferror(f) && !ret)
		ret = -EIO;
	if (!ret && fsync(fileno(f)))
		ret = -errno;
	if (fclose(f) && !ret)
		ret = -errno;
	return ret;
}

int gd_ck_write_atomic(const char *path, int (*fill)(FILE *f, void *ctx), void *ctx)
{
	char *d = strdup(path), *b = strdup(path), tmp[PATH_MAX];
	FILE *f = NULL;
	int fd = -1, ret = 0;

	if (!d || !b) {
		ret = -ENOMEM;
		goto out;
	}
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dirname(d), basename(b));
	fd = mkstemp(tmp);
	if (fd < 0) {
		ret = -errno;
		goto out;
	}
	/* readable like a file the user wrote (mkstemp makes it 0600) */
	if (fcntl(fd, F_SETFD, FD_CLOEXEC) || fchmod(fd, 0644) || !(f = fdopen(fd, "w"))) {
		ret = -errno;
		close(fd);
		unlink(tmp);
		goto out;
	}
	ret = finish(f, fill(f, ctx));
	if (!ret && rename(tmp, path))
		ret = -errno;
	if (ret)
		unlink(tmp);
out:
	free(b);
	free(d);
	return ret;
}

int gd_ck_outdir_check(const char *path)
{
	char *d = strdup(path);
	const char *dir;
	struct stat st;
	int ret = 0;

	if (!d)
		return -ENOMEM;
	dir = dirname(d); /* d itself, or a static "." when path has no '/' */
	if (stat(dir, &st))
		ret = -errno;
	else if (!S_ISDIR(st.st_mode))
		ret = -ENOTDIR;
	else if (access(dir, W_OK | X_OK))
		ret = -errno;
	free(d);
	return ret;
}
