/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The NIC x memory matrix (every NIC with every GPU and host memory per NUMA
 * node): the design documents' table (memory, peak and average Gb/s), a grid
 * annotated with each pair's path class, and gnuplot plots (a heatmap of the
 * grid; bandwidth against message size for sweeps). A sweep's run has a table
 * of its own, one row per message size (and one JSON sweep_point per size).
 */
#ifndef GD_CHECK_MATRIX_H
#define GD_CHECK_MATRIX_H

#include <stdio.h>

#include "check_machine.h"

struct gd_ck_cell {
	char nic[64];
	char mem[32];		/* "GPU3", "host(node0)", "host" */
	char cls[8];
	bool ok;
	double avg, peak;	/* Gb/s at the largest size */
	size_t nsizes;		/* a sweep: bandwidth per size */
	uint64_t size[24];
	double bw[24], bw_peak[24];	/* average and peak Gb/s per size (peak 0: none) */
	bool matrix;		/* a cell of a matrix test (pairs: nic-gpu-matrix): the grid */
	bool sweep;		/* a sweep test's run: its table per size (sweep_point records) */
	char test[GD_CK_NAME];
	char node[64];		/* under mpirun/srun: the host whose matrix it is (check_nodes.c);
				 * "" without a launch */
};

struct gd_ck_matrix {
	struct gd_ck_cell *v;
	size_t n, cap;
	bool plan;		/* a dry run: cells carry path classes, no bandwidth */
};

struct gd_ck_matrix *gd_ck_matrix_new(const struct gd_ck_machine *m);
/* Record a bandwidth run (matrix tests and sweeps; others are ignored). */
void gd_ck_matrix_add(struct gd_ck_matrix *mx, const struct gd_ck_run *run,
		      const struct gd_ck_measure *me);
/* A dry run's cell: the pair and its class only. */
void gd_ck_matrix_add_plan(struct gd_ck_matrix *mx, const struct gd_ck_run *run);
/* Another node's cells, gathered under a launch, each marked with its host. *mx is made when
 * NULL. 0, -ENOMEM. */
int gd_ck_matrix_append(struct gd_ck_matrix **mx, const struct gd_ck_cell *v, size_t n,
			const char *node);
/* The table and the grid (matrix cells), one of each per node when the cells span several;
 * a table per sweep run. */
void gd_ck_matrix_print(const struct gd_ck_matrix *mx, FILE *out);
/* gnuplot: the heatmap to path, sweeps to path with "-sweep" before ".png".
 * 0, -ENOENT when gnuplot is not installed (message printed). */
int gd_ck_matrix_plot(const struct gd_ck_matrix *mx, const char *path);
int gd_ck_matrix_json(const struct gd_ck_matrix *mx, FILE *out);
void gd_ck_matrix_free(struct gd_ck_matrix *mx);

#endif
