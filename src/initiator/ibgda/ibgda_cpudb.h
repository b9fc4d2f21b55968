/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * --initiator=ibgda-cpudb: the GPU writes the WQEs and bumps a producer word
 * in host memory (atomicMax, system scope); this CPU thread sees the word
 * grow and rings for it: doorbell record (big-endian, 16 bits), a fence,
 * then the 8-byte doorbell to the QP's UAR (mapped for the CPU). Works
 * without the NVIDIA PeerMappingOverride key and isolates the doorbell's
 * cost. Not a test double: the same code rings a real ConnectX.
 */
#ifndef GD_IBGDA_CPUDB_H
#define GD_IBGDA_CPUDB_H

#include <stdbool.h>
#include <stdint.h>

#include "ibgda_poller.h"

#define GD_CPUDB_MAX_QPS 512

struct gd_cpudb_qp {
	const uint64_t *prod;  /* written by the GPU */
	uint32_t *dbrec;
	uint64_t *db;          /* UAR doorbell register */
	uint32_t qpn;
	uint64_t last;         /* the value last rung */
};

struct gd_cpudb {
	struct gd_cpudb_qp qps[GD_CPUDB_MAX_QPS];
	uint32_t nqps;
	uint64_t max_idle_ns;  /* the thread ends after this long without work */
	uint64_t rings;        /* doorbells written */
	struct gd_poller thread; /* gd_cpudb_start's */
};

/* One pass over the QPs: ring each whose word grew. Returns the rings. */
uint64_t gd_cpudb_pass(struct gd_cpudb *c);
int gd_cpudb_start(struct gd_cpudb *c);
void gd_cpudb_stop(struct gd_cpudb *c);

#endif
