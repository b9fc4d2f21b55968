/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The operations a fabric moves, named once for every layer: the per-op
 * table (ops.h), the fabrics, the tools' parameters (bench_params.h) and
 * gd_check's specs all say GD_OP_*.
 */
#ifndef GD_FABRIC_OP_H
#define GD_FABRIC_OP_H

enum gd_bench_op { GD_OP_WRITE = 0, GD_OP_READ, GD_OP_ATOMIC, GD_OP_SEND, GD_OP_COUNT };

#define GD_CYCLE_BYTES 4096	/* small messages rotate through this much of a QP's region */

#endif
