/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The initiator table: one entry per --initiator (init_opts.h), each with its
 * loop, its option checks, what it refuses over libfabric and its preparation
 * before anything opens (struct gd_initiator_ops, loop.h):
 *
 *   cpu          the engine's own loop (gd_loop_cpu)
 *   proxy        proxy/: producers fill rings, CPU proxy threads post
 *   ibgda        ibgda/: GPU threads write WQEs and ring the doorbell, on a
 *                ConnectX (DEVX) or the SOFTWARE NIC TEST DOUBLE
 *   ibgda-cpudb  ibgda/: as ibgda, a CPU thread rings the doorbell
 *
 * The engine (bench/, a floor below) includes none of this: the tool
 * prologue hands the table over (gd_initiator_tool_prologue).
 */
#ifndef GD_INITIATOR_H
#define GD_INITIATOR_H

#include "init_opts.h"

struct gd_initiator_ops;
extern const struct gd_initiator_ops *const gd_initiator_table[GD_INIT_COUNT];

/* The prologue of every program that runs the engine (the benchmark tools,
 * gd_check): hands the table to the engine. */
void gd_initiator_tool_prologue(void);

#endif
