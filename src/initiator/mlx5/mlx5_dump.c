/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "mlx5_dump.h"

#include <string.h>

#include "ibgda_dev.h"
#include "mlx5_wqe.h"

static int fmt_operands(char *b, size_t len, const struct gd_mlx5_wqe_view *v)
{
	switch (v->opcode) {
	case GD_MLX5_OP_ATOMIC_FA:
		return snprintf(b, len, " add=0x%llx", (unsigned long long)v->op1);
	case GD_MLX5_OP_ATOMIC_CS:
		return snprintf(b, len, " swap=0x%llx cmp=0x%llx", (unsigned long long)v->op1,
				(unsigned long long)v->op2);
	case GD_MLX5_OP_ATOMIC_MASKED_FA:
		return snprintf(b, len, " add=0x%llx boundary=0x%llx", (unsigned long long)v->op1,
				(unsigned long long)v->op2);
	case GD_MLX5_OP_ATOMIC_MASKED_CS:
		return snprintf(b, len, " swap=0x%llx cmp=0x%llx swap_mask=0x%llx cmp_mask=0x%llx",
				(unsigned long long)v->op1, (unsigned long long)v->op2,
				(unsigned long long)v->mask1, (unsigned long long)v->mask2);
	default:
		return 0;
	}
}

unsigned gd_mlx5_format_wqe(char *buf, size_t len, const uint8_t *wqe)
{
	struct gd_mlx5_wqe_view v;
	int bad = gd_mlx5_wqe_parse(wqe, &v);
	size_t n;

	n = (size_t)snprintf(buf, len, "wqe %5u %-16s qpn 0x%06x ds %2u opmod 0x%02x%s%s%s", v.pi,
			     gd_mlx5_opcode_name(v.opcode), v.qpn, v.ds, v.opmod,
			     v.fm_ce_se & GD_MLX5_CTRL_CQ_UPDATE ? " signalled" : "",
			     v.fm_ce_se & 0xe0 ? " fenced" : "", bad ? " MALFORMED" : "");
	if (!bad && v.opcode != GD_MLX5_OP_NOP && n < len)
		n += (size_t)snprintf(buf + n, len - n, " raddr 0x%llx rkey 0x%x",
				      (unsigned long long)v.raddr, v.rkey);
	if (!bad && n < len)
		n += (size_t)fmt_operands(buf + n, len - n, &v);
	if (!bad && v.has_data && n < len) {
		if (v.is_inline)
			snprintf(buf + n, len - n, " inline %u bytes", v.len);
		else
			snprintf(buf + n, len - n, " laddr 0x%llx lkey 0x%x len %u",
				 (unsigned long long)v.laddr, v.lkey, v.len);
	}
	return v.ds ? gd_mlx5_wqebbs(v.ds) : 1;
}

void gd_mlx5_dump_ring(FILE *out, const uint8_t *sq, uint32_t nwqe, uint32_t n)
{
	uint8_t copy[GD_MLX5_WQEBB * 4];
	char line[512];
	uint64_t idx = 0;

	for (uint32_t k = 0; k < n && k < nwqe; k++) {
		unsigned bbs;

		for (unsigned j = 0; j < 4; j++)
			memcpy(copy + j * GD_MLX5_WQEBB,
			       sq + (size_t)((idx + j) & (nwqe - 1)) * GD_MLX5_WQEBB,
			       GD_MLX5_WQEBB);
		bbs = gd_mlx5_format_wqe(line, sizeof(line), copy);
		fprintf(out, "%s\n", line);
		idx += bbs > 4 ? 4 : bbs;
	}
}

void gd_mlx5_format_cqe(char *buf, size_t len, const uint8_t *cqe)
{
	uint8_t op = gd_mlx5_cqe_opcode(cqe);

	if (op == GD_MLX5_CQE_REQ_ERR || op == GD_MLX5_CQE_RESP_ERR)
		snprintf(buf, len,
			 "cqe %s qpn 0x%06x wqe_counter %u syndrome 0x%02x %s vendor 0x%02x",
			 op == GD_MLX5_CQE_REQ_ERR ? "REQ_ERR" : "RESP_ERR", gd_mlx5_cqe_qpn(cqe),
			 gd_mlx5_cqe_wqe_counter(cqe), cqe[GD_MLX5_CQE_SYNDROME],
			 gd_mlx5_syndrome_name(cqe[GD_MLX5_CQE_SYNDROME]),
			 cqe[GD_MLX5_CQE_VENDOR_SYND]);
	else
		snprintf(buf, len, "cqe opcode %u owner %u qpn 0x%06x wqe_counter %u byte_cnt %u",
			 op, gd_mlx5_cqe_owner(cqe), gd_mlx5_cqe_qpn(cqe),
			 gd_mlx5_cqe_wqe_counter(cqe), gd_mlx5_cqe_byte_cnt(cqe));
}

void gd_ibgda_err_text(char *buf, size_t len, const struct gd_ibgda_err *e, int collapsed)
{
	static const char *const where[] = {"?",	"reserve",	"publish",	"ring lock",
					    "poll",	"run deadline", "fetch check"};

	if (e->code == GD_IBGDA_ERR_CQE)
		snprintf(buf, len,
			 "error CQE on QP 0x%x, WQE %u (%s): %s (syndrome 0x%02x, vendor 0x%02x)%s",
			 e->qpn, e->wqe_counter, gd_mlx5_opcode_name(e->wqe_opcode),
			 gd_mlx5_syndrome_name(e->syndrome), e->syndrome, e->vendor,
			 e->syndrome == GD_MLX5_SYND_WR_FLUSH && collapsed
				 ? "; a flush: an earlier WQE failed first and the QP went to the "
				   "error state, and a collapsed CQ keeps only the latest CQE, so "
				   "the cause may be masked"
				 : "");
	else if (e->code == GD_IBGDA_ERR_FETCH)
		snprintf(buf, len,
			 "a fetched atomic result on QP 0x%x decodes to %llu, %llu was due: the "
			 "byte order of 8-byte fetched results (the device's "
			 "atomic_req_8B_endianness_mode) is not the one the kernels decode with, or "
			 "the target word was changed by someone else",
			 e->qpn, (unsigned long long)e->fetched, (unsigned long long)e->expected);
	else
		snprintf(buf, len,
			 "%s on QP 0x%x in %s: resv_head %llu ready_head %llu prod_idx %llu "
			 "cons_idx %llu dbr %u",
			 e->code == GD_IBGDA_ERR_TIMEOUT ? "deadline passed (--timeout)" : "stopped",
			 e->qpn, where[e->where < 7 ? e->where : 0],
			 (unsigned long long)e->resv_head, (unsigned long long)e->ready_head,
			 (unsigned long long)e->prod_idx, (unsigned long long)e->cons_idx, e->dbr);
}
