/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The DEVX command images IBGDA sends (pure builders over mlx5_prm.h, so
 * tests check every field a real ConnectX will read): QUERY_HCA_CAP,
 * CREATE_CQ (collapsed, overrun-ignore, buffers in umem), CREATE_QP (RC,
 * zero-size RQ, SQ and doorbell record in umem), RST2INIT, INIT2RTR (IB and
 * RoCE paths), RTR2RTS. Values follow doc/notes/ibgda.md section 1.2.
 */
#ifndef GD_MLX5_CMD_H
#define GD_MLX5_CMD_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "mlx5_prm.h"

struct gd_cq_attr {
	uint32_t log_size, uar_page, eqn, umem_id, dbr_umem_id;
	uint64_t umem_offset, dbr_offset;
	bool collapsed;
};

struct gd_qp_attr {
	uint32_t pd, uar_page, cqn, log_sq_size, umem_id, dbr_umem_id, user_index;
	uint64_t umem_offset, dbr_offset;
};

struct gd_qp_path {
	uint32_t qpn, remote_qpn, port, mtu, log_rra_max, log_sra_max, psn_send, psn_recv;
	bool roce;
	uint16_t rlid, udp_sport;           /* IB lid; RoCE v2 UDP source port */
	uint8_t sl, tclass, gid_index, hop_limit;
	uint8_t ack_timeout;                /* 4.096 us x 2^N (-u), 0 = infinite */
	uint8_t rgid[16], rmac[6];
	/* 0: a requester only (IBGDA's QPs: no remote access, no atomic_mode;
	 * F4 of the desk review); else the atomic_mode of a QP that is also an
	 * atomic target: rae set, GD_PRM_QPC_ATOMIC_UP_TO_64 with extended
	 * atomics, GD_PRM_QPC_ATOMIC_IB_COMPAT without */
	uint8_t atomic_mode;
};

void gd_cmd_query_hca_cap(uint8_t in[GD_PRM_BYTES(QUERY_HCA_CAP_IN)], uint32_t cap_type);
void gd_cmd_create_cq(uint8_t in[GD_PRM_BYTES(CREATE_CQ_IN)], const struct gd_cq_attr *a);
void gd_cmd_create_qp(uint8_t in[GD_PRM_BYTES(CREATE_QP_IN)], const struct gd_qp_attr *a);
void gd_cmd_rst2init(uint8_t in[GD_PRM_BYTES(MODIFY_QP_IN)], const struct gd_qp_path *p);
void gd_cmd_init2rtr(uint8_t in[GD_PRM_BYTES(MODIFY_QP_IN)], const struct gd_qp_path *p);
void gd_cmd_rtr2rts(uint8_t in[GD_PRM_BYTES(MODIFY_QP_IN)], const struct gd_qp_path *p);

/* log2 of the READs/atomics this requester keeps outstanding (qpc
 * log_sra_max): at most what the local device takes (max_qp_rd_atom), what
 * the peer's responder accepts (its max_dest_rd_atomic = the out_reads it
 * sent; 0 = unknown) and -o (0 = not given), rounded down to a power of two
 * (F5 of the desk review; the verbs path takes the same minimum). */
uint32_t gd_cmd_log_sra(uint32_t local_max, uint32_t peer_out_reads, uint32_t opt_o);

/* A failed DEVX command's answer as text: "status 0x3 BAD_PARAM, syndrome
 * 0x1234abcd" from the command's output mailbox (F11 of the desk review). */
const char *gd_cmd_status_name(uint8_t status);
void gd_cmd_status_text(char *buf, size_t len, const uint8_t out[GD_PRM_BYTES(CMD_OUT)]);

#endif
