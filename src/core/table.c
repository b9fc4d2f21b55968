/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Aligned text tables (table.h). */
#include "table.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

struct gd_table {
	size_t ncols, nrows, cap;	/* cells are rows x ncols, row-major */
	size_t col;			/* the next cell's column in the current row */
	char **cells;			/* NULL: an empty cell */
	size_t *width;
};

struct gd_table *gd_table_new(size_t ncols)
{
	struct gd_table *t = calloc(1, sizeof(*t));

	if (!t || !ncols || !(t->width = calloc(ncols, sizeof(*t->width)))) {
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

		if (!c)
			return -ENOMEM;
		t->cells = c;
		t->cap = cap;
	}
	memset(&t->cells[t->nrows * t->ncols], 0, t->ncols * sizeof(*t->cells));
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

int gd_table_print(const struct gd_table *t, const char *sep, FILE *out)
{
	for (size_t r = 0; r < t->nrows; r++) {
		char *const *row = &t->cells[r * t->ncols];
		size_t last = t->ncols;

		while (last && !row[last - 1])
			last--;
		for (size_t c = 0; c < last; c++)
			fprintf(out, "%s%-*s", c ? sep : "", c + 1 < last ? (int)t->width[c] : 0,
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
	free(t->width);
	free(t);
}
