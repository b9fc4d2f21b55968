/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "machine.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>

void gd_machine_live(struct gd_machine *m)
{
	memset(m, 0, sizeof(*m));
}

int gd_machine_init(struct gd_machine *m, const char *root)
{
	struct stat st;
	size_t n;

	gd_machine_live(m);
	if (!root)
		return 0;
	snprintf(m->root, sizeof(m->root), "%s", root);
	/* "/" and "" both mean the live machine; drop trailing slashes */
	n = strlen(m->root);
	while (n > 0 && m->root[n - 1] == '/')
		m->root[--n] = '\0';
	m->fixture = n > 0;
	if (!m->fixture)
		return 0;
	if (stat(m->root, &st))
		return -errno;
	return S_ISDIR(st.st_mode) ? 0 : -ENOTDIR;
}

const char *gd_machine_name(const struct gd_machine *m)
{
	return m->fixture ? m->root : "/ (the live machine)";
}
