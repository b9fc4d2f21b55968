/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_devinfo --peer HOST: the device, port and GID index a test toward HOST
 * would use (without -x), decided by the engine's own rules: gd_dev_choose
 * (choose.h) and gd_gid_choose (gid.h).
 */
#ifndef GD_DEVINFO_PEER_H
#define GD_DEVINFO_PEER_H

#include <stdio.h>

#include "gid.h"

/* The port the tests use without -i. */
#define GD_DEVINFO_PEER_PORT 1

struct gd_devinfo_peer {
	char host[256];             /* as given */
	char addr[GD_IP_LEN];       /* what it resolves to (the first address, as the client tries) */
	int dev_err;                /* 0, or gd_dev_choose's error */
	char dev[GD_NAME_LEN];      /* the device ("" when dev_err); with -d, that one */
	int port;
	char port_state[24];        /* when dev_err is -ENETDOWN for a named device */
	int gid_err;                /* 0, or gd_gid_choose's error (-ENOENT: no RoCE v2 GID) */
	struct gd_gid_choice ch;    /* ch.gid points at gid below, or is NULL */
	struct gd_gid gid;
};

/*
 * Resolve host and apply the rules on machine m (dev: -d, or NULL).
 * 0 with p filled (a rule finding nothing is recorded in p, not an error);
 * -EINVAL after a message when host does not resolve.
 */
int gd_devinfo_peer(const struct gd_machine *m, const char *dev, const char *host,
		    struct gd_devinfo_peer *p);
/* 0 when the rules found a device and (on RoCE) a GID. */
int gd_devinfo_peer_status(const struct gd_devinfo_peer *p);
void gd_devinfo_peer_text(const struct gd_devinfo_peer *p, FILE *out);
/* The "peer" JSON record (a json_object *), for gd_json_emit. */
void *gd_devinfo_peer_json(const struct gd_devinfo_peer *p);

#endif
