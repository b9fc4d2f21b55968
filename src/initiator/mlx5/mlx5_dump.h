/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* --dump_wqes: mlx5 send WQEs and CQEs decoded, one line each. */
#ifndef GD_MLX5_DUMP_H
#define GD_MLX5_DUMP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

/* One WQE (its WQEBBs contiguous at wqe) as a line. Returns its WQEBBs
 * (at least 1), so a caller can walk a ring. */
unsigned gd_mlx5_format_wqe(char *buf, size_t len, const uint8_t *wqe);
/* The first n WQEs of a ring of nwqe WQEBBs (WQEs wrapping the end are
 * copied out first). */
void gd_mlx5_dump_ring(FILE *out, const uint8_t *sq, uint32_t nwqe, uint32_t n);
void gd_mlx5_format_cqe(char *buf, size_t len, const uint8_t *cqe);

struct gd_ibgda_err;
/* The IBGDA failure record as one line (without "error: "): an error CQE
 * with its syndrome named, and for WR_FLUSH_ERR on a collapsed CQ the
 * warning that the cause may be masked (F8 of the desk review); a wrong
 * fetched atomic value; a deadline with the ring indices. */
void gd_ibgda_err_text(char *buf, size_t len, const struct gd_ibgda_err *e, int collapsed);

#endif
