/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "mlx5_cmd.h"

#include <stdio.h>
#include <string.h>

#define SET(b, l, f, v) gd_prm_set((b), GD_F(l, f), (v))

void gd_cmd_query_hca_cap(uint8_t in[GD_PRM_BYTES(QUERY_HCA_CAP_IN)], uint32_t cap_type)
{
	memset(in, 0, GD_PRM_BYTES(QUERY_HCA_CAP_IN));
	SET(in, QUERY_HCA_CAP_IN, OPCODE, GD_PRM_OP_QUERY_HCA_CAP);
	SET(in, QUERY_HCA_CAP_IN, OP_MOD, (cap_type << 1) | GD_PRM_HCA_CAP_CUR);
}

void gd_cmd_create_cq(uint8_t in[GD_PRM_BYTES(CREATE_CQ_IN)], const struct gd_cq_attr *a)
{
	uint8_t *cqc = GD_PRM_SUB(in, CREATE_CQ_IN, CQC);

	memset(in, 0, GD_PRM_BYTES(CREATE_CQ_IN));
	SET(in, CREATE_CQ_IN, OPCODE, GD_PRM_OP_CREATE_CQ);
	SET(in, CREATE_CQ_IN, CQ_UMEM_VALID, 1);
	SET(in, CREATE_CQ_IN, CQ_UMEM_ID, a->umem_id);
	SET(in, CREATE_CQ_IN, CQ_UMEM_OFFSET, a->umem_offset);
	SET(cqc, CQC, CQE_SZ, GD_PRM_CQC_CQE_SZ_64);
	SET(cqc, CQC, CC, a->collapsed);
	SET(cqc, CQC, OI, 1); /* overrun ignore: the GPU never updates the CQ DBR */
	SET(cqc, CQC, DBR_UMEM_VALID, 1);
	SET(cqc, CQC, DBR_ADDR, a->dbr_offset);
	SET(cqc, CQC, LOG_CQ_SIZE, a->log_size);
	SET(cqc, CQC, UAR_PAGE, a->uar_page);
	SET(cqc, CQC, C_EQN, a->eqn);
	SET(cqc, CQC, LOG_PAGE_SIZE, 16 - 12); /* 64 KiB pages, 4 KiB units */
	SET(cqc, CQC, DBR_UMEM_ID, a->dbr_umem_id);
}

void gd_cmd_create_qp(uint8_t in[GD_PRM_BYTES(CREATE_QP_IN)], const struct gd_qp_attr *a)
{
	uint8_t *qpc = GD_PRM_SUB(in, CREATE_QP_IN, QPC);

	memset(in, 0, GD_PRM_BYTES(CREATE_QP_IN));
	SET(in, CREATE_QP_IN, OPCODE, GD_PRM_OP_CREATE_QP);
	SET(in, CREATE_QP_IN, WQ_UMEM_VALID, 1);
	SET(in, CREATE_QP_IN, WQ_UMEM_ID, a->umem_id);
	SET(in, CREATE_QP_IN, WQ_UMEM_OFFSET, a->umem_offset);
	SET(qpc, QPC, ST, GD_PRM_QPC_ST_RC);
	SET(qpc, QPC, PM_STATE, GD_PRM_QPC_PM_MIGRATED);
	SET(qpc, QPC, PD, a->pd);
	SET(qpc, QPC, UAR_PAGE, a->uar_page);
	SET(qpc, QPC, RQ_TYPE, GD_PRM_QPC_RQ_TYPE_ZERO); /* no receive queue, no SRQ */
	SET(qpc, QPC, LOG_RQ_SIZE, 0);
	SET(qpc, QPC, LOG_SQ_SIZE, a->log_sq_size);
	/* F3 of the desk review: 0 (free-running) is refused by a NIC whose
	 * clock runs real-time only; DEFAULT is what UCX's DEVX QPs set */
	SET(qpc, QPC, TS_FORMAT, GD_PRM_QPC_TS_FORMAT_DEFAULT);
	SET(qpc, QPC, CQN_SND, a->cqn);
	SET(qpc, QPC, CQN_RCV, a->cqn);
	SET(qpc, QPC, USER_INDEX, a->user_index);
	SET(qpc, QPC, CS_REQ, 0);
	SET(qpc, QPC, CS_RES, 0);
	SET(qpc, QPC, DBR_UMEM_VALID, 1);
	SET(qpc, QPC, DBR_UMEM_ID, a->dbr_umem_id);
	SET(qpc, QPC, DBR_ADDR, a->dbr_offset);
	SET(qpc, QPC, PAGE_OFFSET, 0);
}

static uint8_t *modify_hdr(uint8_t *in, uint32_t op, uint32_t qpn)
{
	memset(in, 0, GD_PRM_BYTES(MODIFY_QP_IN));
	SET(in, MODIFY_QP_IN, OPCODE, op);
	SET(in, MODIFY_QP_IN, QPN, qpn);
	return GD_PRM_SUB(in, MODIFY_QP_IN, QPC);
}

void gd_cmd_rst2init(uint8_t in[GD_PRM_BYTES(MODIFY_QP_IN)], const struct gd_qp_path *p)
{
	uint8_t *qpc = modify_hdr(in, GD_PRM_OP_RST2INIT_QP, p->qpn);
	uint8_t *ads = GD_PRM_SUB(qpc, QPC, PRIMARY_ADDRESS_PATH);

	SET(qpc, QPC, RWE, 1); /* as rdma-core's own DEVX RC QP (dr_devx.c) */
	SET(qpc, QPC, RRE, 1);
	if (p->atomic_mode) { /* only a QP that is an atomic target needs these */
		SET(qpc, QPC, RAE, 1);
		SET(qpc, QPC, ATOMIC_MODE, p->atomic_mode);
	}
	SET(qpc, QPC, PM_STATE, GD_PRM_QPC_PM_MIGRATED);
	SET(ads, ADS, VHCA_PORT_NUM, p->port);
	SET(ads, ADS, PKEY_INDEX, 0);
}

void gd_cmd_init2rtr(uint8_t in[GD_PRM_BYTES(MODIFY_QP_IN)], const struct gd_qp_path *p)
{
	uint8_t *qpc = modify_hdr(in, GD_PRM_OP_INIT2RTR_QP, p->qpn);
	uint8_t *ads = GD_PRM_SUB(qpc, QPC, PRIMARY_ADDRESS_PATH);

	SET(qpc, QPC, MTU, p->mtu);
	SET(qpc, QPC, LOG_MSG_MAX, 30);
	SET(qpc, QPC, REMOTE_QPN, p->remote_qpn);
	SET(qpc, QPC, NEXT_RCV_PSN, p->psn_recv);
	SET(qpc, QPC, MIN_RNR_NAK, 12);
	SET(qpc, QPC, LOG_RRA_MAX, p->log_rra_max);
	SET(ads, ADS, VHCA_PORT_NUM, p->port);
	if (!p->roce) {
		SET(ads, ADS, RLID, p->rlid);
		SET(ads, ADS, SL, p->sl);
		SET(ads, ADS, GRH, 0);
		return;
	}
	SET(ads, ADS, RMAC_47_32, ((uint32_t)p->rmac[0] << 8) | p->rmac[1]);
	SET(ads, ADS, RMAC_31_0,
	    ((uint32_t)p->rmac[2] << 24) | ((uint32_t)p->rmac[3] << 16) |
		    ((uint32_t)p->rmac[4] << 8) | p->rmac[5]);
	memcpy(GD_PRM_SUB(ads, ADS, RGID_RIP), p->rgid, 16);
	SET(ads, ADS, SRC_ADDR_INDEX, p->gid_index);
	SET(ads, ADS, HOP_LIMIT, p->hop_limit ? p->hop_limit : 255);
	SET(ads, ADS, ETH_PRIO, p->sl);
	SET(ads, ADS, DSCP, p->tclass >> 2);
	SET(ads, ADS, UDP_SPORT, p->udp_sport);
}

void gd_cmd_rtr2rts(uint8_t in[GD_PRM_BYTES(MODIFY_QP_IN)], const struct gd_qp_path *p)
{
	uint8_t *qpc = modify_hdr(in, GD_PRM_OP_RTR2RTS_QP, p->qpn);
	uint8_t *ads = GD_PRM_SUB(qpc, QPC, PRIMARY_ADDRESS_PATH);

	SET(qpc, QPC, LOG_ACK_REQ_FREQ, 0);
	SET(qpc, QPC, LOG_SRA_MAX, p->log_sra_max);
	SET(qpc, QPC, NEXT_SEND_PSN, p->psn_send);
	SET(qpc, QPC, RETRY_COUNT, 7);
	SET(qpc, QPC, RNR_RETRY, 7);
	SET(ads, ADS, ACK_TIMEOUT, p->ack_timeout);
}

uint32_t gd_cmd_log_sra(uint32_t local_max, uint32_t peer_out_reads, uint32_t opt_o)
{
	uint32_t n = local_max ? local_max : 1, l = 0;

	if (peer_out_reads && peer_out_reads < n)
		n = peer_out_reads;
	if (opt_o && opt_o < n)
		n = opt_o;
	while ((2u << l) <= n && l < 7) /* qpc field: 3 bits */
		l++;
	return l;
}

const char *gd_cmd_status_name(uint8_t status)
{
	switch (status) { /* the PRM's command status (Linux mlx5 cmd.c, rdma-core) */
	case 0x00: return "OK";
	case 0x01: return "INTERNAL_ERR";
	case 0x02: return "BAD_OP";
	case 0x03: return "BAD_PARAM";
	case 0x04: return "BAD_SYS_STATE";
	case 0x05: return "BAD_RESOURCE";
	case 0x06: return "RESOURCE_BUSY";
	case 0x08: return "EXCEED_LIM";
	case 0x09: return "BAD_RES_STATE";
	case 0x0a: return "BAD_INDEX";
	case 0x0f: return "NO_RESOURCES";
	case 0x10: return "BAD_QP_STATE";
	case 0x30: return "BAD_PKT";
	case 0x40: return "BAD_SIZE_OUTS_CQES";
	case 0x50: return "BAD_INPUT_LEN";
	case 0x51: return "BAD_OUTPUT_LEN";
	default: return "UNKNOWN_STATUS";
	}
}

void gd_cmd_status_text(char *buf, size_t len, const uint8_t out[GD_PRM_BYTES(CMD_OUT)])
{
	uint8_t st = (uint8_t)gd_prm_get(out, GD_F(CMD_OUT, STATUS));

	snprintf(buf, len, "status 0x%x %s, syndrome 0x%08x", st, gd_cmd_status_name(st),
		 (unsigned)gd_prm_get(out, GD_F(CMD_OUT, SYNDROME)));
}
