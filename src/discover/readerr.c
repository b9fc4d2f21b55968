/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The files a reader could not read or parse, kept so reports name each one. */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "rdma_types.h"
#include "log.h"
#include "sysfs.h"

void gd_read_errors_add(struct gd_read_errors *e, const char *path, int err)
{
	struct gd_read_error *v;

	/* the same file twice (e.g. read by two paths) is reported once */
	for (size_t i = 0; i < e->n; i++)
		if (!strcmp(e->v[i].path, path))
			return;
	v = realloc(e->v, (e->n + 1) * sizeof(*v));
	if (!v)
		return; /* best effort: the report still shows what was read */
	e->v = v;
	snprintf(v[e->n].path, sizeof(v[e->n].path), "%s", path);
	v[e->n].err = err;
	v[e->n].detail[0] = '\0';
	e->n++;
}

void gd_read_errors_bad(const struct gd_machine *m, struct gd_read_errors *e, const char *found,
			const char *expected, const char *fmt, ...)
{
	char live[PATH_MAX], path[PATH_MAX];
	size_t n = e->n;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(live, sizeof(live), fmt, ap);
	va_end(ap);
	if (gd_sysfs_path(m, path, sizeof(path), "%s", live))
		snprintf(path, sizeof(path), "%s", live);
	gd_read_errors_add(e, path, -EINVAL);
	if (e->n == n + 1 && found)
		snprintf(e->v[n].detail, sizeof(e->v[n].detail), "found \"%s\", expected %s",
			 gd_excerpt(found), expected);
	else if (e->n == n + 1)
		snprintf(e->v[n].detail, sizeof(e->v[n].detail), "expected %s", expected);
}

void gd_read_errors_free(struct gd_read_errors *e)
{
	free(e->v);
	e->v = NULL;
	e->n = 0;
}
