/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Printing a classified topology: the compact form of the design documents
 * (nvidia-smi's table with whitespace collapsed), nvidia-smi's own bytes
 * (TABs, the underlined header, the legends), and JSON Lines.
 */
#ifndef GD_TOPO_REPORT_H
#define GD_TOPO_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include "topo.h"
#include "topo_advice.h"

/* TABLE (the default): the matrix with its columns aligned (table.h); COMPACT:
 * one blank between cells, for scripts (byte-stable) */
enum gd_topo_format { GD_TOPO_COMPACT, GD_TOPO_NVSMI, GD_TOPO_JSON, GD_TOPO_TABLE };

/* advice: also print the nearest NIC per GPU and the warnings (text formats). */
/* --json when nothing was found (gd_topo exits 3): one topo_summary record (gpus 0, nics 0,
 * where it looked), so a machine reader gets a record saying so. 0 or -errno. */
int gd_topo_print_empty_json(const char *where, FILE *out);
int gd_topo_print(const struct gd_topo *t, const struct gd_topo_advice *a,
		  enum gd_topo_format fmt, bool advice, FILE *out);

#endif
