/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A text table whose columns are as wide as their widest cell (one printer
 * for every aligned table): cells are added row by row, left-aligned, the
 * columns parted by a separator; the last cell of a row is never padded (no
 * trailing blanks). A row may end before the last column (gd_table_end_row).
 */
#ifndef GD_TABLE_H
#define GD_TABLE_H

#include <stddef.h>
#include <stdio.h>

struct gd_table;

/* A table of at most ncols columns; NULL when out of memory. */
struct gd_table *gd_table_new(size_t ncols);
/* The next cell of the current row (copied); a row that is full ends. 0 or -ENOMEM. */
int gd_table_add(struct gd_table *t, const char *cell);
/* End the current row here (the cells left are empty). */
void gd_table_end_row(struct gd_table *t);
/* Print every row, each column padded to its widest cell, columns parted by sep.
 * 0 or -EIO. */
int gd_table_print(const struct gd_table *t, const char *sep, FILE *out);
void gd_table_free(struct gd_table *t);

#endif
