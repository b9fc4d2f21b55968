/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * REAL-CONNECTX-ONLY: DEVX calls on a live mlx5 device (ibgda_devx.c). The
 * probe's facts come from here (gd_ibgda_probe_facts, declared in
 * ibgda_probe.h); gd_devx_cmd sends one command image built by mlx5_cmd.h.
 */
#ifndef GD_IBGDA_DEVX_H
#define GD_IBGDA_DEVX_H

#include <stddef.h>

#include "ibgda_probe.h"

struct ibv_context;

/* mlx5dv_devx_general_cmd; on failure err gets errno, status, syndrome. */
int gd_devx_cmd(struct ibv_context *ctx, const void *in, size_t inlen, void *out, size_t outlen,
		char *err, size_t errlen);

#endif
