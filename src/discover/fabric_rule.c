/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The default fabric (fabric_rule.h). */
#include "fabric_rule.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "sysfs.h"

const char *const gd_fabric_names[] = { "verbs", "ofi", NULL };

const char *gd_fabric_kind_name(enum gd_fabric_kind f)
{
	if (f == GD_FABRIC_AUTO)
		return "auto";
	return (unsigned)f < GD_FABRIC_COUNT ? gd_fabric_names[f - GD_FABRIC_VERBS] : "?";
}

const char *gd_fabric_decided_name(enum gd_fabric_kind f)
{
	return gd_fabric_kind_name(f == GD_FABRIC_OFI ? GD_FABRIC_OFI : GD_FABRIC_VERBS);
}

int gd_fabric_parse(const char *name, enum gd_fabric_kind *f)
{
	for (int i = 0; name && gd_fabric_names[i]; i++)
		if (!strcmp(name, gd_fabric_names[i])) {
			*f = (enum gd_fabric_kind)(GD_FABRIC_VERBS + i);
			return 0;
		}
	return -EINVAL;
}

/* Whether the provider (its first name: "shm" of "shm", "tcp" of "tcp;ofi_rxm")
 * is one of names, a NULL-ended list */
static bool prov_in(const char *prov, const char *const *names)
{
	size_t n = strcspn(prov, ";");

	for (; *names; names++)
		if (strlen(*names) == n && !strncmp(prov, *names, n))
			return true;
	return false;
}

bool gd_fabric_ofi_copies_gpu(const char *prov)
{
	static const char *const soft[] = { "shm", "sm2", "tcp", "udp", "sockets", NULL };

	return prov_in(prov, soft);
}

bool gd_fabric_ofi_mps_validated(const char *prov)
{
	static const char *const validated[] = { "shm", NULL };

	return prov_in(prov, validated);
}

bool gd_fabric_ofi_passive_threads(const char *prov)
{
	static const char *const copies[] = { "shm", NULL };

	return prov_in(prov, copies);
}

/* shm and sm2 reach only processes of this host: their target is ours whatever
 * the side channel's two addresses say (a multi-homed host, --bind_source_ip,
 * containers with their own network namespace) */
static bool one_host(const char *prov)
{
	static const char *const local[] = { "shm", "sm2", NULL };

	return prov_in(prov, local);
}

enum gd_gpu_copies gd_fabric_ofi_gpu_copies(const char *prov, const struct gd_gpu_side *producer,
					    const struct gd_gpu_side *target)
{
	bool other_host = target->other_host && !one_host(prov);

	if (!gd_fabric_ofi_copies_gpu(prov) || !target->gpu[0] || other_host ||
	    strcmp(target->gpu, producer->gpu))
		return GD_GPU_COPIES_NONE;
	if (!producer->mps || !gd_fabric_ofi_mps_validated(prov))
		return GD_GPU_COPIES_WAIT;
	return target->mps ? GD_GPU_COPIES_MPS : GD_GPU_COPIES_TARGET_OUTSIDE_MPS;
}

int gd_fabric_dev_is_efa(const struct gd_machine *m, const char *dev)
{
	char drv[64] = "";

	if (!strncmp(dev, "efa", 3))
		return 1;
	if (gd_sysfs_link_name(m, drv, sizeof(drv), "/sys/class/infiniband/%s/device/driver", dev))
		return 0;
	return !strcmp(drv, "efa");
}

void gd_fabric_choose(const struct gd_machine *m, struct gd_fabric_choice *c)
{
	char **names = NULL;
	size_t n = 0, efa = 0;

	memset(c, 0, sizeof(*c));
	if (gd_sysfs_list(m, &names, &n, "/sys/class/infiniband"))
		n = 0;
	for (size_t i = 0; i < n; i++) {
		if (!gd_fabric_dev_is_efa(m, names[i])) {
			c->fabric = GD_FABRIC_VERBS;
			snprintf(c->why, sizeof(c->why), "RDMA device %s speaks RC", names[i]);
			gd_sysfs_free_list(names, n);
			return;
		}
		efa++;
	}
	c->fabric = GD_FABRIC_OFI;
	if (efa) {
		snprintf(c->provider, sizeof(c->provider), "efa");
		snprintf(c->why, sizeof(c->why), "the only RDMA devices are EFA (no RC): libfabric efa");
	} else {
		c->no_device = true;
		snprintf(c->provider, sizeof(c->provider), "tcp");
		snprintf(c->why, sizeof(c->why), "no RDMA device: libfabric tcp");
	}
	gd_sysfs_free_list(names, n);
}
