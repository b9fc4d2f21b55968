/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A text table whose columns are as wide as their widest cell (one printer
 * for every aligned table): cells are added row by row, left-aligned, the
 * columns parted by a separator; the last cell of a row is never padded (no
 * trailing blanks). A row may end before the last column (gd_table_end_row).
 * A line (gd_table_add_line) sits between rows as it is, spanning the columns:
 * a heading or a note under a row, which does not widen any column.
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
/* A line printed as it is after the rows added so far (the current row ends). 0 or -ENOMEM. */
int gd_table_add_line(struct gd_table *t, const char *line);
/* Column col is at least width wide (a layout scripts know), and at least pad blanks
 * wider than its widest cell (free text that reads on into the next column otherwise). */
void gd_table_min_width(struct gd_table *t, size_t col, size_t width, size_t pad);
/* Print every row, each column padded to its widest cell, columns parted by sep.
 * 0 or -EIO. */
int gd_table_print(const struct gd_table *t, const char *sep, FILE *out);
void gd_table_free(struct gd_table *t);

/*
 * A streamed table (rows printed as they come, as the bench tools' results): a
 * fixed title of labels, each value starting where its label starts. A value
 * longer than its label's room moves only the cells after it on its own row,
 * up to the next label that has room again (never a tab stop's drift).
 */
struct gd_col {
	const char *label;
	unsigned gap;		/* blanks before the label in the title */
};
/* The title: each column's gap and label, then tail; a newline. */
void gd_cols_title(FILE *out, const struct gd_col *c, size_t n, const char *tail);
/* One row: cell[i] at column i's label, at least one blank after the cell before it. */
void gd_cols_row(FILE *out, const struct gd_col *c, size_t n, const char *const *cell);

#endif
