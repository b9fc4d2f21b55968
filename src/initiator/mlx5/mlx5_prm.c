/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The run-time copy of the PRM field table (tests and dumps). */
#include "mlx5_prm.h"

#define GD_PRM_ROW_(l, f, off, w) { #l, #f, (off), (w), GD_PRM_BITS_##l },
const struct gd_prm_field gd_prm_fields[] = { GD_PRM_FIELDS(GD_PRM_ROW_) };
#undef GD_PRM_ROW_
const size_t gd_prm_nfields = sizeof(gd_prm_fields) / sizeof(gd_prm_fields[0]);
