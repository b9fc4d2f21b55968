/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "sysfs.h"

#include "readfile.h"

#include <ctype.h>
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

/*
 * Text attributes and procfs files hold no NUL or control bytes: those of a
 * tree that does (a NUL that would cut the value short, an escape sequence for
 * the terminal) read as '?'. Tabs and newlines stay.
 */
static void scrub(char *buf, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (((unsigned char)buf[i] < 0x20 && buf[i] != '\n' && buf[i] != '\t') ||
		    buf[i] == 0x7f)
			buf[i] = '?';
}

static int read_file(const char *path, char *buf, size_t len)
{
	size_t n;
	/* bounded and non-blocking: a FIFO or device in the tree is refused, not read */
	int ret = gd_readfile_buf(path, buf, len, &n);

	/* sysfs files of interest are small: more than fits means a malformed file */
	if (ret == -EFBIG)
		ret = -ENOSPC;
	if (ret)
		return fail(path, ret);
	scrub(buf, n);
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

/* The base of a sysfs number: 16 after "0x" (skipped), else 10; never octal ("010" is ten). */
static int number_base(const char **s)
{
	if ((*s)[0] == '0' && ((*s)[1] == 'x' || (*s)[1] == 'X')) {
		*s += 2;
		/* strtoul(, 16) would skip a second "0x" */
		return (*s)[0] == '0' && ((*s)[1] == 'x' || (*s)[1] == 'X') ? -1 : 16;
	}
	return 10;
}

int gd_parse_u64(const char *s, uint64_t *val)
{
	char *end;
	unsigned long long v;
	int base;

	while (*s == ' ' || *s == '\t')
		s++;
	base = number_base(&s);
	/* digits only: strtoull would take a sign, spaces, or a second "0x" */
	if (base < 0 || !(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
		return -EINVAL;
	errno = 0;
	v = strtoull(s, &end, base);
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
	const char *s = buf;
	int ret = read_file(path, buf, sizeof(buf)), base;
	bool neg;
	long v;

	if (ret)
		return ret;
	neg = *s == '-';
	s += neg;
	base = number_base(&s);
	if (base < 0 || !(base == 16 ? isxdigit((unsigned char)*s) : isdigit((unsigned char)*s)))
		return fail(path, -EINVAL);
	errno = 0;
	v = strtol(s, &end, base);
	v = neg ? -v : v;
	if (errno || end == s || *end || v < INT_MIN || v > INT_MAX)
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
	size_t n;
	int ret = ROOTED_PATH(path, fmt);

	if (ret)
		return ret;
	/* bounded and non-blocking: a FIFO or an endless file in the tree is refused */
	ret = gd_readfile_alloc(path, GD_READ_CAP_PROC, out, &n);
	if (ret)
		return fail(path, ret);
	scrub(*out, n);
	return 0;
}
