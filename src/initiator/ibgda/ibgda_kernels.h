/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA CUDA kernels (ibgda_kernels.cu) and their C launchers, plus the
 * sample generator the encoder comparison runs on both sides: item i of a
 * seed gives the same pseudo-random fields on the CPU and the GPU, and the
 * encoders turn them into a 160-byte record (WQE, CQE, doorbell values,
 * counter arithmetic, syndrome-name hash) compared byte for byte.
 */
#ifndef GD_IBGDA_KERNELS_H
#define GD_IBGDA_KERNELS_H

#include <stdint.h>

#include "ibgda_dev.h"

enum gd_ibgda_scope { GD_IBGDA_SCOPE_THREAD = 0, GD_IBGDA_SCOPE_WARP = 1, GD_IBGDA_SCOPE_CTA = 2 };

#define GD_IBGDA_SAMPLE_BYTES 160

GD_HD uint64_t gd_ibgda_mix(uint64_t x)
{
	x ^= x >> 33;
	x *= 0xff51afd7ed558ccdull;
	x ^= x >> 33;
	x *= 0xc4ceb9fe1a85ec53ull;
	x ^= x >> 33;
	return x;
}

/* 0xff: an inline WRITE */
GD_HD uint8_t gd_ibgda_sample_op(uint32_t k)
{
	switch (k) {
	case 0: return GD_MLX5_OP_NOP;
	case 1: return GD_MLX5_OP_RDMA_WRITE;
	case 2: return GD_MLX5_OP_RDMA_WRITE_IMM;
	case 3: return GD_MLX5_OP_RDMA_READ;
	case 4: return GD_MLX5_OP_ATOMIC_FA;
	case 5: return GD_MLX5_OP_ATOMIC_CS;
	case 6: return GD_MLX5_OP_ATOMIC_MASKED_FA;
	case 7: return GD_MLX5_OP_ATOMIC_MASKED_CS;
	default: return 0xff;
	}
}

GD_HD void gd_ibgda_sample(uint64_t seed, uint32_t i, uint8_t *out)
{
	uint64_t r[8];
	struct gd_mlx5_wqebb w;
	struct gd_mlx5_wr wr;
	uint32_t v32, h = 2166136261u;
	uint64_t v64;
	const char *name;

	for (int k = 0; k < 8; k++)
		r[k] = gd_ibgda_mix(seed ^ ((uint64_t)i << 8) ^ (uint64_t)k);
	wr.opcode = gd_ibgda_sample_op((uint32_t)(r[0] % 9));
	wr.fm_ce_se = (uint8_t)r[1];
	wr.pi = (uint16_t)(r[1] >> 8);
	wr.qpn = (uint32_t)(r[1] >> 24) & 0xffffff;
	wr.laddr = r[2];
	wr.lkey = (uint32_t)r[3];
	wr.len = (uint32_t)(r[3] >> 32);
	wr.raddr = r[4];
	wr.rkey = (uint32_t)r[5];
	wr.imm = (uint32_t)(r[5] >> 32);
	wr.op1 = r[6];
	wr.op2 = r[7];
	if (wr.opcode == 0xff) /* inline write of 0..28 bytes taken from r[] */
		gd_mlx5_wqe_write_inline(&w, wr.pi, wr.qpn, wr.fm_ce_se, wr.raddr, wr.rkey, &r[2],
					 (uint32_t)(r[0] >> 8) % 29);
	else
		gd_mlx5_wqe_rc(&w, &wr);
	for (int k = 0; k < 64; k++)
		out[k] = ((const uint8_t *)&w)[k];
	gd_mlx5_cqe_fill(out + 64, (uint8_t)(r[0] >> 16) & 0xf, (uint8_t)(r[0] >> 20), wr.pi, wr.qpn,
			 wr.opcode, wr.len, (uint8_t)(r[0] >> 24), (uint8_t)(r[0] >> 32));
	v32 = gd_mlx5_dbr_value(r[6]);
	for (int k = 0; k < 4; k++)
		out[128 + k] = (uint8_t)(v32 >> (8 * k));
	v32 = gd_mlx5_cq_dbr_value((uint32_t)r[7]);
	for (int k = 0; k < 4; k++)
		out[132 + k] = (uint8_t)(v32 >> (8 * k));
	v64 = gd_mlx5_db_value(wr.qpn, r[6]);
	for (int k = 0; k < 8; k++)
		out[136 + k] = (uint8_t)(v64 >> (8 * k));
	v64 = gd_mlx5_cons_from_counter(r[6] >> 1, (uint16_t)r[7]);
	for (int k = 0; k < 8; k++)
		out[144 + k] = (uint8_t)(v64 >> (8 * k));
	name = gd_mlx5_syndrome_name((uint8_t)(r[0] >> 24));
	for (int k = 0; name[k]; k++)
		h = (h ^ (uint8_t)name[k]) * 16777619u;
	for (int k = 0; k < 4; k++)
		out[152 + k] = (uint8_t)(h >> (8 * k));
	out[156] = (uint8_t)gd_mlx5_collapsed_done(r[6], (uint16_t)r[7]);
	out[157] = (uint8_t)gd_mlx5_cqe_is_new(out + 64, (uint32_t)r[7], 1u << (r[0] % 12));
	out[158] = (uint8_t)gd_mlx5_inline_ds((uint32_t)r[5] % 61);
	out[159] = (uint8_t)gd_mlx5_sq_room(r[6] >> 4, (uint32_t)r[7] % 64, (r[6] >> 4) - r[5] % 80, 64);
}

/* Arguments of the producer kernels (by value; the tools pass it through
 * cuLaunchKernel, so C and CUDA must agree on its layout: plain 64/32-bit
 * fields). Item i on QP q moves size bytes from src + off to dst + off,
 * off = (i % slots) * size + q * qp_stride: a WRITE reads src locally (lkey) and writes dst remotely
 * (rkey); a READ reads src remotely (rkey) into dst locally (lkey). */
struct gd_ibgda_kargs {
	struct gd_ibgda_qp *qps;   /* device-visible array */
	uint32_t nqps;
	uint32_t scope;            /* enum gd_ibgda_scope */
	uint32_t iters;            /* WQEs per thread */
	uint32_t sig_every;        /* CQ_UPDATE on WQE idx with (idx + 1) % sig_every == 0 */
	uint64_t src, dst;         /* item i: 8 bytes src + 8i -> dst + 8i */
	uint32_t lkey, rkey;
	uint64_t bad_at;           /* item with a wrong rkey, or ~0 */
	uint64_t *stamps;          /* NULL, or device words: [0] min start (init ~0),
				    * [1] max end of the posting (%globaltimer ns) */
	/* the benchmark tools' shape (0: the GPU tier's defaults) */
	uint32_t opcode;           /* GD_MLX5_OP_RDMA_WRITE (0) or GD_MLX5_OP_RDMA_READ */
	uint32_t size;             /* bytes per WQE (0: 8) */
	uint64_t slots;            /* item i uses slot i % slots of size bytes (0: i) */
	uint64_t qp_stride;        /* QP q's items are q * qp_stride further on */
	/* atomics (opcode GD_MLX5_OP_ATOMIC_FA / _CS, size 8, slots 1): QP q's
	 * WQEs hit the word at dst + q * qp_stride and fetch into src + q *
	 * qp_stride; the k-th of a run on a QP (WQE index - ctr->atom_base)
	 * adds 1, or compares k and swaps k + 1, so the words sum to the
	 * operations; the latency kernel checks every fetched value is k */
	uint32_t atomic_be;        /* fetched 8-byte results arrive big-endian */
	uint32_t pad0;
};

#ifdef __cplusplus
extern "C" {
#endif
/* Each returns 0 or the cudaError_t of the launch. */
int gd_ibgda_launch_sample(uint8_t *out, uint32_t n, uint64_t seed, void *stream);
int gd_ibgda_launch_post(const struct gd_ibgda_kargs *a, uint32_t ctas, uint32_t threads,
			 void *stream);
/* snap: NULL, or 2 device words per QP: ready_head and prod_idx as the
 * post kernel left them (before the quiet NOP). */
int gd_ibgda_launch_quiet(struct gd_ibgda_qp *qps, uint32_t nqps, uint64_t *snap, void *stream);
/* One thread, qps[0]: iters signalled WRITEs, each waited for; t_db[k] =
 * ns from reserve to the doorbell store, t_cqe[k] = ns to the completion. */
int gd_ibgda_launch_latency(const struct gd_ibgda_kargs *a, uint64_t *t_db, uint64_t *t_cqe,
			    void *stream);
#ifdef __cplusplus
}
#endif

#endif
