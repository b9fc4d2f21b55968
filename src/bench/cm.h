/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * -R: connect the data QPs with rdma_cm (resolve address and route,
 * connect/accept), each step with a deadline (--timeout).
 *
 * The TCP side channel stays in use with -R: it carries HELLO (parameters
 * must match), the buffers' rkeys and addresses (rdma_cm's private data is
 * not used), the barriers and the results. rdma_cm listens on the same port
 * number (-p) in its own (RDMA_PS_TCP) port space.
 */
#ifndef GD_CM_H
#define GD_CM_H

#include <stdint.h>
#include <rdma/rdma_cma.h>

#include "bench_params.h"

struct gd_conn;
struct gd_link_cfg;

struct gd_cm {
	struct rdma_event_channel *ch;
	struct rdma_cm_id *listen_id;	/* server */
	struct rdma_cm_id **ids;	/* one per QP */
	uint32_t n;
	struct ibv_context **devs;	/* rdma_get_devices() */
	struct ibv_context *ctx;	/* the one we use */
	int timeout_ms;
};

/* Event channel, the device context (-d, or the first with port -i ACTIVE),
 * and on the server the listening id. */
int gd_cm_init(struct gd_cm *cm, const struct gd_link_cfg *p, struct ibv_context **ctx);
/* Client: per QP resolve address and route, create the QP on conn's PD/CQs, connect. */
int gd_cm_connect(struct gd_cm *cm, struct gd_conn *conn, const struct gd_link_cfg *p);
/* Server: per QP wait for a connect request, create the QP, accept. */
int gd_cm_accept(struct gd_cm *cm, struct gd_conn *conn, const struct gd_link_cfg *p);
/* Copy what rdma_cm chose (QPs, GID index, path MTU) into conn for the report. */
void gd_cm_update_conn(struct gd_cm *cm, struct gd_conn *conn);
/* Disconnect and destroy the QPs and ids (before the CQs and PD go). */
void gd_cm_close(struct gd_cm *cm);
/* The event channel and device list (after conn is closed). */
void gd_cm_release(struct gd_cm *cm);

#endif
