/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Each fabric's setup behind one table, as the lifecycle (bench.c) runs it:
 *
 *   open      the device (verbs: -R's rdma_cm context, the NIC's NUMA node) or
 *             the domain (ofi: fi_getinfo, what the provider takes of -r); before
 *             the side channel, so what a side can check alone is told at once
 *   side_channel  the side channel to the peer (NULL: TCP, oob.h; loopback: a
 *             side channel that loops back, gd_oob_loopback)
 *   take      the run's buffer, once and kept, before the side channel: memory
 *             this side cannot have (a GPU, huge pages) is refused before it
 *             waits for a peer (issue 30 item 6, hostile D27). verbs takes it
 *             (gd_bench_take_buffer); ofi first creates its endpoints (their
 *             memory estimate, -q, refuses a run that does not fit), then takes,
 *             registers and fills it
 *   joined    the side channel is up (HELLO agreed): verbs chooses its GID toward
 *             the peer, ofi binds its endpoints' address and drives the provider
 *             while the side channel waits
 *   connect   PD and CQs, the buffer registered (verbs), QPs or endpoints,
 *             the blobs exchanged (bench.c gd_bench_exchange_blobs) and each QP
 *             connected, the receives posted (gd_bench_finish_qps); up to the
 *             setup barrier
 *   started   after the setup barrier (NULL: nothing to do); ofi: a passive side with
 *             several domains starts a progress thread per domain. -errno ends the run
 *   stop      the run's sizes are over (or failed), before validation, the last
 *             barrier and teardown: the fabric's own threads end, each by a deadline
 *             (NULL: none). -ETIMEDOUT: one is stuck where no deadline reaches it
 *             (the engine sets gd_bench_abandon: nothing it may touch is closed)
 *   local_info  QP i's blob (fabric_conn.h) for the peer
 *   qp_run    QP i's fabric fields of its run state (verbs: the QP and the lkey;
 *             ofi: endpoint, address, key), after the engine's and before the
 *             work requests are built from them (NULL: none)
 *   cqs       the completion queues the loops poll through ops (fabric.h)
 *   attach_dev  the device an initiator with its own queues (IBGDA, loop.h
 *             attach) creates them on: verbs' context, PD, port and link
 *             (NULL: the fabric has none to lend; ofi)
 *   facts     the device's part of the plan facts (port, GID, MTU, ...; the
 *             device's name and inline size the engine has from b->dev, which
 *             open (ofi) or open and connect (verbs) fill)
 *   pace      a passive side about to wait out a bandwidth size (NULL: nothing to drive)
 *   keep_open a run that failed in its data phase keeps its queues open until the
 *             process exits (NULL: never)
 *   close     the queues and the memory registration, before the buffer goes
 *   release   the device, after the buffer
 *
 * The data path is the fabric seam's (fabric.h: ops). verbs is bench_verbs.c
 * over conn.c and cm.c; ofi is bench_ofi.c over fabric_ofi.h (HAVE_LIBFABRIC);
 * loopback is bench_loopback.c: no device and no peer, for an initiator that
 * brings its own NIC test double (loop.h gd_initiator_ops loopback).
 * Hooks return 0 or -errno after printing the cause.
 */
#ifndef GD_BENCH_FABRIC_H
#define GD_BENCH_FABRIC_H

#include <stdbool.h>
#include <stdint.h>

#include "fabric.h"

struct gd_bench;
struct gd_bench_facts;
struct gd_loop_attach;
struct gd_bench_params;
struct gd_initiator_ops;

struct gd_bench_fabric {
	const struct gd_fabric_ops *ops;
	/* the header's placement when this side is not pinned */
	const char *unpinned;
	int (*open)(struct gd_bench *b);
	int (*side_channel)(struct gd_bench *b);
	int (*take)(struct gd_bench *b);
	int (*joined)(struct gd_bench *b);
	int (*connect)(struct gd_bench *b);
	int (*started)(struct gd_bench *b);
	int (*stop)(struct gd_bench *b);
	int (*local_info)(struct gd_bench *b, uint32_t i, uint64_t target);
	void (*qp_run)(struct gd_bench *b, uint32_t i, struct gd_qp_run *q);
	void (*cqs)(struct gd_bench *b, void **send_cq, void **recv_cq);
	void (*attach_dev)(const struct gd_bench *b, struct gd_loop_attach *a);
	void (*facts)(const struct gd_bench *b, struct gd_bench_facts *f);
	void (*pace)(struct gd_bench *b, uint64_t size);
	bool (*keep_open)(const struct gd_bench *b, int code);
	void (*close)(struct gd_bench *b);
	void (*release)(struct gd_bench *b);
};

extern const struct gd_bench_fabric gd_bench_fabric_verbs;
extern const struct gd_bench_fabric gd_bench_fabric_loopback;
#ifdef HAVE_LIBFABRIC
extern const struct gd_bench_fabric gd_bench_fabric_ofi;
#endif

/* The setup of the fabric the parameters resolved (fabric_rule.h): the one
 * whose data path is gd_fabric_table(kind) (fabric.h). */
const struct gd_bench_fabric *gd_bench_fabric(enum gd_fabric_kind kind);
/* The setup a run takes: loopback when its initiator brings its own NIC test
 * double (loop.h gd_initiator_ops loopback; then this side is the one that
 * initiates: p->role becomes the client's), else gd_bench_fabric. */
const struct gd_bench_fabric *gd_bench_fabric_for(struct gd_bench_params *p,
						  const struct gd_initiator_ops *ini);

#endif
