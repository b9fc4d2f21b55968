/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Network interfaces from /sys/class/net: state, speed, PCI function, master. */
#ifndef GD_NETDEV_H
#define GD_NETDEV_H

#include <stdbool.h>
#include <stddef.h>

#include "rdma_types.h"

struct gd_netdev {
	char name[IF_NAMESIZE];
	char operstate[16];         /* "up", "down", "unknown", "" */
	int carrier;                /* 1, 0; -1 unknown (the link is administratively down) */
	int mtu;                    /* bytes; -1 unknown */
	int speed_mbps;             /* -1 unknown */
	char duplex[16];
	char address[24];
	int dev_port;               /* 0-based port of a multi-port function; -1 unknown */
	char pci_addr[GD_PCI_LEN];  /* "" for virtual interfaces */
	char driver[32];
	char master[IF_NAMESIZE];   /* the bond (or bridge) it is enslaved to, "" */
	bool is_bond;               /* has bonding/ */
};

/* -ENODEV when /sys/class/net/<name> does not exist. */
int gd_netdev_read(const struct gd_machine *m, const char *name, struct gd_netdev *nd);
/* operstate is "up" (what ibdev2netdev prints as "(Up)"). */
bool gd_netdev_is_up(const struct gd_machine *m, const char *name);

/*
 * The PCI address of the device behind a sysfs path such as
 * "/sys/class/net/reth0/device": the last PCI-address component of its
 * canonical path, so that virtio-net (device -> virtio0) still finds its
 * PCI function. -ENOENT when there is none.
 */
int gd_sysfs_pci_addr(const struct gd_machine *m, char *buf, size_t len, const char *live_path);
/* "0000:29:00.0"-shaped. */
bool gd_is_pci_addr(const char *s);

#endif
