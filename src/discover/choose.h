/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * THE rule for the RDMA device a test uses, asked by the benchmark engine,
 * --use_cuda=auto and gd_devinfo --peer (the GID rule is gd_gid_choose in
 * gid.h). Decided from the machine's sysfs; verbs only opens the chosen
 * device and confirms it.
 */
#ifndef GD_CHOOSE_H
#define GD_CHOOSE_H

#include "rdma_dev.h"

/*
 * The device: dev (-d) when given, else the first device in
 * gd_rdma_discover()'s order (natural name order) whose port `port` is
 * ACTIVE. On success hca holds it (free with gd_rdma_free_hca). Errors:
 * -ENODEV: dev does not exist, or there is no RDMA device at all;
 * -ENOENT: dev has no port `port`;
 * -ENETDOWN: dev's port is not ACTIVE, or no device has port `port` ACTIVE
 *   (with dev, hca still holds it, to name the state; free it).
 */
int gd_dev_choose(const struct gd_machine *m, const char *dev, int port, struct gd_hca *hca);

/* Port num of a device, or NULL. */
const struct gd_port *gd_hca_port(const struct gd_hca *hca, int num);

#endif
