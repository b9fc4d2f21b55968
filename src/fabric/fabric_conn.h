/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What the peer needs to reach one QP or endpoint: the fabric fills it
 * (conn.c for verbs, gd_ofi_local_info for ofi) and connects from the
 * peer's (gd_ofi_connect); the side channel carries it as the CONN message
 * (wire.h, wire.c encodes and checks every field).
 */
#ifndef GD_FABRIC_CONN_H
#define GD_FABRIC_CONN_H

#include <stdint.h>

#define GD_WIRE_FAB_ADDR_MAX 256 /* a libfabric endpoint name (fi_getname) */

struct gd_wire_conn {
	uint32_t qp_index, qp_count;
	uint16_t lid;
	uint32_t qpn, psn;	/* 24 bits each */
	uint32_t rkey;
	uint64_t vaddr, buf_size;
	uint8_t gid[16];
	int32_t gid_index;	/* -1: no GRH (IB without -x) */
	uint32_t out_reads;
	uint32_t mtu;		/* bytes: 256..4096, a power of two */
	/* ofi only (absent on the wire for verbs): the endpoint's name
	 * (fi_getname; FI_EP_MSG: the server's passive endpoint) and the
	 * memory region's key (64 bits: FI_MR_PROV_KEY) */
	uint16_t fab_addr_len;
	uint8_t fab_addr[GD_WIRE_FAB_ADDR_MAX];
	uint64_t fab_key;
};

#endif
