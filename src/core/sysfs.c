/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "sysfs.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static __thread char errpath[PATH_MAX];

const char *gd_sysfs_errpath(void)
{
	return errpath;
}

static int fail(const char *path, int err)
{
	snprintf(errpath, sizeof(errpath), "%s", path);
	return err;
}

static int vpath(const struct gd_machine *m, char *buf, size_t len, const char *fmt, va_list ap)
{
	char live[PATH_MAX];
	int n = vsnprintf(live, sizeof(live), fmt, ap);

	if (n < 0 || (size_t)n >= sizeof(live))
		return -ENAMETOOLONG;
	n = snprintf(buf, len, "%s%s", m->root, live);
	if (n < 0 || (size_t)n >= len)
		return -ENAMETOOLONG;
	return 0;
}

/*
 * In a variadic reader of machine m: format its live path (the printf format fmt and the
 * arguments after it) into the rooted char array path. 0 or -ENAMETOOLONG.
 */
#define ROOTED_PATH(path, fmt)                                 \
	({                                                     \
		va_list ap_;                                   \
		int ret_;                                      \
		va_start(ap_, fmt);                            \
		ret_ = vpath(m, path, sizeof(path), fmt, ap_); \
		va_end(ap_);                                   \
		ret_;                                          \
	})

int gd_sysfs_path(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
{
	va_list ap;
	int ret;

	va_start(ap, fmt);
	ret = vpath(m, buf, len, fmt, ap);
	va_end(ap);
	return ret;
}

bool gd_sysfs_exists(const struct gd_machine *m, const char *fmt, ...)
{
	char path[PATH_MAX];

	return ROOTED_PATH(path, fmt) == 0 && access(path, F_OK) == 0;
}

static int read_file(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "re");
	size_t n;

	if (!f)
		return fail(path, -errno);
	n = fread(buf, 1, len, f);
	if (ferror(f)) {
		int err = errno ? -errno : -EIO;
		fclose(f);
		return fail(path, err);
	}
	/* sysfs files of interest are small: a full buffer means truncation */
	if (n == len) {
		fclose(f);
		return fail(path, -ENOSPC);
	}
	fclose(f);
	buf[n] = '\0';
	while (n > 0 && (buf[n - 1] == '\n' || buf[n - 1] == ' ' || buf[n - 1] == '\t'))
		buf[--n] = '\0';
	return 0;
}

int gd_sysfs_read_str(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = ROOTED_PATH(path, fmt);

	return ret ? ret : read_file(path, buf, len);
}

int gd_parse_u64(const char *s, uint64_t *val)
{
	char *end;
	unsigned long long v;

	while (*s == ' ' || *s == '\t')
		s++;
	if (!*s || *s == '-')
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, 0);
	if (errno || end == s)
		return -EINVAL;
	while (*end == ' ' || *end == '\t' || *end == '\n')
		end++;
	if (*end)
		return -EINVAL;
	*val = v;
	return 0;
}

static int read_u64(const char *path, uint64_t *val)
{
	char buf[64];
	int ret = read_file(path, buf, sizeof(buf));

	if (ret)
		return ret;
	if (gd_parse_u64(buf, val))
		return fail(path, -EINVAL);
	return 0;
}

int gd_sysfs_read_u64(const struct gd_machine *m, uint64_t *val, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = ROOTED_PATH(path, fmt);

	return ret ? ret : read_u64(path, val);
}

static int read_int(const char *path, int *val)
{
	char buf[64], *end;
	int ret = read_file(path, buf, sizeof(buf));
	long v;

	if (ret)
		return ret;
	errno = 0;
	v = strtol(buf, &end, 0);
	if (errno || end == buf || *end || v < INT_MIN || v > INT_MAX)
		return fail(path, -EINVAL);
	*val = (int)v;
	return 0;
}

int gd_sysfs_read_int(const struct gd_machine *m, int *val, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = ROOTED_PATH(path, fmt);

	return ret ? ret : read_int(path, val);
}

static int link_name(const char *path, char *buf, size_t len)
{
	char target[PATH_MAX];
	const char *base;
	ssize_t n = readlink(path, target, sizeof(target) - 1);

	if (n < 0)
		return fail(path, -errno);
	target[n] = '\0';
	base = strrchr(target, '/');
	base = base ? base + 1 : target;
	if ((size_t)snprintf(buf, len, "%s", base) >= len)
		return fail(path, -ENOSPC);
	return 0;
}

int gd_sysfs_link_name(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = ROOTED_PATH(path, fmt);

	return ret ? ret : link_name(path, buf, len);
}

/* realpath(path) with the fixture root removed; -EXDEV if it leads out of the root. */
static int unrooted_realpath(const struct gd_machine *m, const char *path, char *buf, size_t len)
{
	char real[PATH_MAX];
	const char *r = m->root;
	size_t rlen = strlen(r);

	if (!realpath(path, real))
		return fail(path, -errno);
	if (rlen) {
		char rroot[PATH_MAX];
		if (!realpath(r, rroot))
			return fail(r, -errno);
		rlen = strlen(rroot);
		if (strncmp(real, rroot, rlen) != 0 || (real[rlen] && real[rlen] != '/'))
			return fail(path, -EXDEV); /* link escapes the fixture root */
	}
	if ((size_t)snprintf(buf, len, "%s", real[rlen] ? real + rlen : "/") >= len)
		return fail(path, -ENOSPC);
	return 0;
}

int gd_sysfs_realpath(const struct gd_machine *m, char *buf, size_t len, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = ROOTED_PATH(path, fmt);

	return ret ? ret : unrooted_realpath(m, path, buf, len);
}

static int cmp_names(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

void gd_sysfs_free_list(char **names, size_t count)
{
	for (size_t i = 0; i < count; i++)
		free(names[i]);
	free(names);
}

static int list_dir(const char *path, char ***names, size_t *count)
{
	struct dirent *de;
	char **v = NULL;
	size_t n = 0, cap = 0;
	DIR *d = opendir(path);

	if (!d)
		return fail(path, -errno);
	while ((de = readdir(d))) {
		if (!strcmp(de->d_name, ".") || !strcmp(de->d_name, ".."))
			continue;
		if (n == cap) {
			cap = cap ? 2 * cap : 16;
			char **nv = realloc(v, cap * sizeof(*v));
			if (!nv)
				goto nomem;
			v = nv;
		}
		if (!(v[n] = strdup(de->d_name)))
			goto nomem;
		n++;
	}
	closedir(d);
	if (n > 1) /* qsort(NULL, 0) is undefined */
		qsort(v, n, sizeof(*v), cmp_names);
	*names = v;
	*count = n;
	return 0;
nomem:
	closedir(d);
	gd_sysfs_free_list(v, n);
	return -ENOMEM;
}

int gd_sysfs_list(const struct gd_machine *m, char ***names, size_t *count, const char *fmt, ...)
{
	char path[PATH_MAX];
	int ret = ROOTED_PATH(path, fmt);

	return ret ? ret : list_dir(path, names, count);
}

int gd_sysfs_read_text(const struct gd_machine *m, char **out, const char *fmt, ...)
{
	char path[PATH_MAX];
	size_t len = 0, cap = 4096;
	char *buf;
	FILE *f;
	int ret = ROOTED_PATH(path, fmt);

	if (ret)
		return ret;
	f = fopen(path, "re");
	if (!f)
		return fail(path, -errno);
	buf = malloc(cap);
	while (buf) {
		size_t n = fread(buf + len, 1, cap - len - 1, f);

		len += n;
		if (len < cap - 1)
			break;
		cap *= 2;
		char *nb = realloc(buf, cap);
		if (!nb)
			free(buf);
		buf = nb;
	}
	ret = ferror(f) ? fail(path, -EIO) : 0;
	fclose(f);
	if (!buf)
		return -ENOMEM;
	if (ret) {
		free(buf);
		return ret;
	}
	buf[len] = '\0';
	*out = buf;
	return 0;
}
