/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "topo_nics.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "rdma_dev.h"

/* "bond0: reth0 reth1" for the first port whose netdev is a bond. */
static void bond_legend(const struct gd_machine *m, const struct gd_hca *h, char *buf, size_t len)
{
	for (size_t p = 0; p < h->nports; p++) {
		struct gd_bond b;
		size_t n;

		if (!h->ports[p].netdev[0] || gd_port_bond(m, &h->ports[p], &b))
			continue;
		n = (size_t)snprintf(buf, len, "%s:", b.name);
		for (size_t s = 0; s < b.nslaves && n < len; s++)
			n += (size_t)snprintf(buf + n, len - n, " %s", b.slaves[s].name);
		if (!b.nslaves && n < len)
			snprintf(buf + n, len - n, " no slaves");
		gd_bond_free(&b);
		return;
	}
}

static void legend(const struct gd_machine *m, const struct gd_hca *h, char *buf, size_t len)
{
	char bond[160] = "";
	const char *over = h->parent_netdev[0] ? h->parent_netdev
			   : h->nports ? h->ports[0].netdev : "";

	buf[0] = '\0';
	bond_legend(m, h, bond, sizeof(bond));
	if (h->pci_addr[0]) {
		snprintf(buf, len, "%s", bond);
		return;
	}
	/* software RDMA: no PCI function, so no link class */
	snprintf(buf, len, "no PCI device%s%s%s%s%s", over[0] ? ", over " : "", over,
		 bond[0] ? " (" : "", bond, bond[0] ? ")" : "");
}

int gd_topo_find_nics_rdma(struct gd_topo *t)
{
	struct gd_hca *hcas = NULL;
	size_t n = 0;
	int ret = gd_rdma_discover(t->m, &hcas, &n);

	if (ret)
		return ret;
	for (size_t i = 0; i < n && !ret; i++) {
		char extra[192];

		t->nic_read_errors += hcas[i].errors.n;
		legend(t->m, &hcas[i], extra, sizeof(extra));
		ret = gd_topo_add_nic(t, hcas[i].name, hcas[i].pci_addr, extra);
	}
	gd_rdma_free(hcas, n);
	if (!ret)
		gd_topo_sort_nics(t);
	return ret;
}
