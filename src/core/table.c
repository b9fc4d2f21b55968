/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Aligned text tables (table.h). */
#include "table.h"

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

struct gd_table {
	size_t ncols, nrows, cap;	/* cells are rows x ncols, row-major */
	size_t col;			/* the next cell's column in the current row */
	char **cells;			/* NULL: an empty cell */
	bool *line;			/* per row: a line (its text in the row's first cell) */
	size_t *width;			/* per column: its widest cell */
	size_t *floor, *pad;		/* per column: gd_table_min_width's */
};

struct gd_table *gd_table_new(size_t ncols)
{
	struct gd_table *t = calloc(1, sizeof(*t));

	if (!t || !ncols || !(t->width = calloc(ncols, sizeof(*t->width))) ||
	    !(t->floor = calloc(ncols, sizeof(*t->floor))) ||
	    !(t->pad = calloc(ncols, sizeof(*t->pad)))) {
		if (t) {
			free(t->width);
			free(t->floor);
		}
		free(t);
		return NULL;
	}
	t->ncols = ncols;
	return t;
}

/* room for one more row, its cells empty */
static int grow(struct gd_table *t)
{
	if (t->nrows == t->cap) {
		size_t cap = t->cap ? t->cap * 2 : 8;
		char **c = realloc(t->cells, cap * t->ncols * sizeof(*c));
		bool *l;

		if (!c)
			return -ENOMEM;
		t->cells = c;
		if (!(l = realloc(t->line, cap * sizeof(*l))))
			return -ENOMEM;
		t->line = l;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
	t->line[t->nrows] = false;
	t->nrows++;
	return 0;
}

int gd_table_add(struct gd_table *t, const char *cell)
{
	size_t len = strlen(cell);
	char *c;

	if (t->col == 0 && grow(t))
		return -ENOMEM;
	if (!(c = strdup(cell)))
		return -ENOMEM;
	t->cells[(t->nrows - 1) * t->ncols + t->col] = c;
	if (len > t->width[t->col])
		t->width[t->col] = len;
	t->col = (t->col + 1) % t->ncols;
	return 0;
}

void gd_table_end_row(struct gd_table *t)
{
	t->col = 0;
}

int gd_table_add_line(struct gd_table *t, const char *line)
{
	char *c;

	t->col = 0;
	if (grow(t))
		return -ENOMEM;
	if (!(c = strdup(line))) {
		t->nrows--;
		return -ENOMEM;
	}
	t->cells[(t->nrows - 1) * t->ncols] = c;
	t->line[t->nrows - 1] = true;
	return 0;
}

void gd_table_min_width(struct gd_table *t, size_t col, size_t width, size_t pad)
{
	if (col < t->ncols) {
		t->floor[col] = width;
		t->pad[col] = pad;
	}
}

/* Column c's width as printed. */
static int col_width(const struct gd_table *t, size_t c)
{
	size_t w = t->width[c] + (t->width[c] ? t->pad[c] : 0);

	return (int)(w > t->floor[c] ? w : t->floor[c]);
}

int gd_table_print(const struct gd_table *t, const char *sep, FILE *out)
{
	for (size_t r = 0; r < t->nrows; r++) {
		char *const *row = &t->cells[r * t->ncols];
		size_t last = t->ncols;

		if (t->line[r]) {
			fprintf(out, "%s\n", row[0]);
			continue;
		}
		while (last && !row[last - 1])
			last--;
		for (size_t c = 0; c < last; c++)
			fprintf(out, "%s%-*s", c ? sep : "", c + 1 < last ? col_width(t, c) : 0,
				row[c] ? row[c] : "");
		fputc('\n', out);
	}
	return ferror(out) ? -EIO : 0;
}

void gd_table_free(struct gd_table *t)
{
	if (!t)
		return;
	for (size_t i = 0; i < t->nrows * t->ncols; i++)
		free(t->cells[i]);
	free(t->cells);
	free(t->line);
	free(t->width);
	free(t->floor);
	free(t->pad);
	free(t);
}

void gd_cols_title(FILE *out, const struct gd_col *c, size_t n, const char *tail)
{
	for (size_t i = 0; i < n; i++)
		fprintf(out, "%*s%s", (int)c[i].gap, "", c[i].label);
	fprintf(out, "%s\n", tail ? tail : "");
}

void gd_cols_row(FILE *out, const struct gd_col *c, size_t n, const char *const *cell)
{
	size_t at = 0, pos = 0;	/* where the label starts; where the row is */

	for (size_t i = 0; i < n; i++) {
		size_t want;

		at += c[i].gap;
		want = at > pos + (i > 0) ? at : pos + (i > 0);
		fprintf(out, "%*s%s", (int)(want - pos), "", cell[i]);
		pos = want + strlen(cell[i]);
		at += strlen(c[i].label);
	}
	fputc('\n', out);
}
