/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A node's rails (check_rails.h). */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_rails.h"
#include "fabric.h"
#include "ofi_info.h"

static int by_name(const void *a, const void *b)
{
	return strcmp(a, b);
}

/* Add name unless it is there; the count. */
static size_t add(char (*names)[GD_CK_RAIL_NAME], size_t n, size_t max, const char *name)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(names[i], name))
			return n;
	if (n < max && name[0] && strlen(name) < GD_CK_RAIL_NAME)
		snprintf(names[n++], GD_CK_RAIL_NAME, "%s", name);
	return n;
}

/* libfabric: the provider's domains for the endpoint type the runs use. */
static int ofi_rails(const struct gd_fabric_opts *f, char (*names)[GD_CK_RAIL_NAME], size_t max,
		     char *why, size_t wlen)
{
	const char *ep = f->ep == GD_EP_MSG ? "FI_EP_MSG" : "FI_EP_RDM";
	struct gd_ofi_list l;
	size_t n = 0;
	int ret;

	memset(&l, 0, sizeof(l));
	ret = gd_ofi_discover(f->provider, &l);
	if (ret) {
		snprintf(why, wlen, "libfabric's %s provider lists no domain (%s)", f->provider,
			 ret == -ENOSYS ? GD_OFI_BUILD_FIX : strerror(-ret));
		gd_ofi_list_free(&l);
		return -ENOENT;
	}
	for (size_t i = 0; i < l.n; i++)
		if (!strcmp(l.v[i].ep_type, ep))
			n = add(names, n, max, l.v[i].domain);
	gd_ofi_list_free(&l);
	if (!n)
		snprintf(why, wlen, "libfabric's %s provider has no %s domain ('fi_info -p %s')",
			 f->provider, ep, f->provider);
	return n ? (int)n : -ENOENT;
}

int gd_ck_rails(const struct gd_ck_machine *m, const struct gd_ck_test *t,
		const struct gd_fabric_opts *f, char (*names)[GD_CK_RAIL_NAME], size_t max,
		char *why, size_t wlen)
{
	bool port = gd_fabric_traits_of(f->fabric)->port; /* else: rails are the provider's domains */
	size_t n = 0;
	int ret;

	if (!port && f->domain[0])
		n = add(names, 0, max, f->domain);
	else if (!port) {
		ret = ofi_rails(f, names, max, why, wlen);
		if (ret < 0)
			return ret;
		n = (size_t)ret;
	} else if (t->device[0])
		n = add(names, 0, max, t->device);
	else
		for (size_t i = 0; i < m->nhcas; i++)
			n = add(names, n, max, m->hcas[i].name);
	if (!n) {
		snprintf(why, wlen, "no RDMA device ('gd_devinfo' lists them)");
		return -ENOENT;
	}
	qsort(names, n, sizeof(names[0]), by_name);
	return (int)n;
}
