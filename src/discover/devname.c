/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "devname.h"

#include <errno.h>
#include <string.h>

#include "log.h"

bool gd_dev_name_ok(const char *name)
{
	size_t n = name ? strnlen(name, GD_DEV_NAME_MAX + 1) : 0;

	return n && n <= GD_DEV_NAME_MAX && !strchr(name, '/') && strcmp(name, ".") &&
	       strcmp(name, "..");
}

int gd_dev_name_check(const char *name, const char *opt)
{
	if (gd_dev_name_ok(name))
		return 0;
	gd_error("invalid value '%s' for %s: expected an RDMA device name such as mlx5_0 "
		 "(1 to %d characters, no '/', not '.' or '..'; the list: gd_devinfo)",
		 gd_excerpt(name), opt, GD_DEV_NAME_MAX);
	return -EINVAL;
}
