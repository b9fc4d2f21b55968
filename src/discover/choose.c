/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "choose.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

const struct gd_port *gd_hca_port(const struct gd_hca *hca, int num)
{
	for (size_t i = 0; i < hca->nports; i++)
		if (hca->ports[i].num == num)
			return &hca->ports[i];
	return NULL;
}

static int port_active(const struct gd_hca *hca, int num)
{
	const struct gd_port *p = gd_hca_port(hca, num);

	if (!p)
		return -ENOENT;
	return p->state == GD_PORT_ACTIVE ? 0 : -ENETDOWN;
}

static int named(const struct gd_machine *m, const char *dev, int port, struct gd_hca *hca)
{
	int ret = gd_rdma_read_hca(m, dev, hca);

	if (ret)
		return ret;
	return port_active(hca, port);
}

int gd_dev_choose(const struct gd_machine *m, const char *dev, int port, struct gd_hca *hca)
{
	struct gd_hca *all = NULL;
	size_t n = 0, i;
	int ret;

	memset(hca, 0, sizeof(*hca));
	if (dev && *dev)
		return named(m, dev, port, hca);
	ret = gd_rdma_discover(m, &all, &n);
	if (ret)
		return ret;
	for (i = 0; i < n && port_active(&all[i], port); i++)
		;
	if (i < n) {
		*hca = all[i]; /* taken out of the list: not freed below */
		memset(&all[i], 0, sizeof(all[i]));
	}
	ret = i < n ? 0 : n ? -ENETDOWN : -ENODEV;
	gd_rdma_free(all, n);
	return ret;
}
