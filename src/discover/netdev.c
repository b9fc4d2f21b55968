/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* /sys/class/net/<if>: the facts gd_devinfo and the bond reader need. */
#include "config.h"

#include "netdev.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "sysfs.h"

bool gd_is_pci_addr(const char *s)
{
	/* DDDD:BB:DD.F */
	static const char shape[] = "xxxx:xx:xx.x";

	if (strlen(s) != sizeof(shape) - 1)
		return false;
	for (size_t i = 0; shape[i]; i++) {
		if (shape[i] == 'x' ? !isxdigit((unsigned char)s[i]) : s[i] != shape[i])
			return false;
	}
	return true;
}

int gd_sysfs_pci_addr(const struct gd_machine *m, char *buf, size_t len, const char *live_path)
{
	char real[PATH_MAX];
	char *comp, *save = NULL;
	const char *found = NULL;
	int ret = gd_sysfs_realpath(m, real, sizeof(real), "%s", live_path);

	if (ret)
		return ret;
	for (comp = strtok_r(real, "/", &save); comp; comp = strtok_r(NULL, "/", &save))
		if (gd_is_pci_addr(comp))
			found = comp;
	if (!found)
		return -ENOENT;
	if ((size_t)snprintf(buf, len, "%s", found) >= len)
		return -ENOSPC;
	return 0;
}

bool gd_netdev_is_up(const struct gd_machine *m, const char *name)
{
	char state[16];

	if (!*name || strchr(name, '/'))
		return false;
	return gd_sysfs_read_str(m, state, sizeof(state), "/sys/class/net/%s/operstate", name) ==
		       0 &&
	       !strcmp(state, "up");
}

int gd_netdev_read(const struct gd_machine *m, const char *name, struct gd_netdev *nd)
{
	char path[PATH_MAX];

	memset(nd, 0, sizeof(*nd));
	if (!gd_sysfs_exists(m, "/sys/class/net/%s", name))
		return -ENODEV;
	snprintf(nd->name, sizeof(nd->name), "%s", name);
	nd->carrier = nd->mtu = nd->speed_mbps = nd->dev_port = -1;
	/* each fact is optional: a down link has no speed, a virtual one no device */
	if (gd_sysfs_read_str(m, nd->operstate, sizeof(nd->operstate),
			      "/sys/class/net/%s/operstate", name))
		nd->operstate[0] = '\0';
	/* values the kernel would not write are unknown (-1), never taken on trust */
	if (gd_sysfs_read_int(m, &nd->carrier, "/sys/class/net/%s/carrier", name) ||
	    (nd->carrier != 0 && nd->carrier != 1))
		nd->carrier = -1;
	if (gd_sysfs_read_int(m, &nd->mtu, "/sys/class/net/%s/mtu", name) || nd->mtu < 0 ||
	    nd->mtu > 16 * 1024 * 1024)
		nd->mtu = -1;
	if (gd_sysfs_read_int(m, &nd->speed_mbps, "/sys/class/net/%s/speed", name) ||
	    nd->speed_mbps < 0)
		nd->speed_mbps = -1;
	if (gd_sysfs_read_str(m, nd->duplex, sizeof(nd->duplex), "/sys/class/net/%s/duplex", name))
		nd->duplex[0] = '\0';
	if (gd_sysfs_read_str(m, nd->address, sizeof(nd->address), "/sys/class/net/%s/address",
			      name))
		nd->address[0] = '\0';
	if (gd_sysfs_read_int(m, &nd->dev_port, "/sys/class/net/%s/dev_port", name) ||
	    nd->dev_port < 0)
		nd->dev_port = -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/device", name);
	if (gd_sysfs_pci_addr(m, nd->pci_addr, sizeof(nd->pci_addr), path))
		nd->pci_addr[0] = '\0';
	if (gd_sysfs_link_name(m, nd->driver, sizeof(nd->driver), "/sys/class/net/%s/device/driver",
			       name))
		nd->driver[0] = '\0';
	if (gd_sysfs_link_name(m, nd->master, sizeof(nd->master), "/sys/class/net/%s/master", name))
		nd->master[0] = '\0';
	nd->is_bond = gd_sysfs_exists(m, "/sys/class/net/%s/bonding", name);
	return 0;
}
