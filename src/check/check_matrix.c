/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The NIC x memory matrix: table, annotated grid, JSON and gnuplot plots. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check_matrix.h"
#include "jsonout.h"
#include "gd.h"
#include "log.h"
#include "table.h"

struct gd_ck_matrix *gd_ck_matrix_new(const struct gd_ck_machine *m)
{
	(void)m;
	return calloc(1, sizeof(struct gd_ck_matrix));
}

void gd_ck_matrix_free(struct gd_ck_matrix *mx)
{
	if (mx)
		free(mx->v);
	free(mx);
}

/* Room for n more cells. */
static int reserve(struct gd_ck_matrix *mx, size_t n)
{
	size_t cap = mx->cap ? mx->cap : 16;
	struct gd_ck_cell *v;

	while (cap < mx->n + n)
		cap *= 2;
	if (cap == mx->cap)
		return 0;
	if (!(v = realloc(mx->v, cap * sizeof(*v))))
		return -ENOMEM;
	mx->v = v;
	mx->cap = cap;
	return 0;
}

int gd_ck_matrix_append(struct gd_ck_matrix **mx, const struct gd_ck_cell *v, size_t n,
			const char *node)
{
	if (!*mx && !(*mx = calloc(1, sizeof(**mx))))
		return -ENOMEM;
	if (reserve(*mx, n))
		return -ENOMEM;
	for (size_t i = 0; i < n; i++) {
		struct gd_ck_cell *c = &(*mx)->v[(*mx)->n++];

		*c = v[i];
		snprintf(c->node, sizeof(c->node), "%s", node);
	}
	return 0;
}

static struct gd_ck_cell *new_cell(struct gd_ck_matrix *mx, const struct gd_ck_run *run)
{
	struct gd_ck_cell *c;
	const char *mem = strchr(run->label, ' ');

	if (reserve(mx, 1))
		return NULL;
	c = &mx->v[mx->n++];
	memset(c, 0, sizeof(*c));
	if (run->dev[0]) { /* "rxe0 host(node0)", "mlx5_0 GPU3" */
		snprintf(c->nic, sizeof(c->nic), "%s", run->dev);
		snprintf(c->mem, sizeof(c->mem), "%s", mem ? mem + 1 : "host");
	} else { /* libfabric's "ofi:tcp loopback": the provider, host memory */
		snprintf(c->nic, sizeof(c->nic), "%.*s", mem ? (int)(mem - run->label) :
			 (int)strlen(run->label), run->label);
		snprintf(c->mem, sizeof(c->mem), "host");
	}
	snprintf(c->cls, sizeof(c->cls), "%s", run->cls);
	snprintf(c->test, sizeof(c->test), "%s", run->t->name);
	return c;
}

void gd_ck_matrix_add_plan(struct gd_ck_matrix *mx, const struct gd_ck_run *run)
{
	static const char *const order[] = { "X", "PIX", "PXB", "PHB", "NODE", "SYS", NULL };
	struct gd_ck_cell *c;

	if (run->t->pairs != GD_CK_NIC_GPU_MATRIX || !(c = new_cell(mx, run)))
		return;
	mx->plan = true;
	c->matrix = true;
	c->nsizes = 1;
	c->avg = 7; /* N/A and unknown classes: the far end of the scale */
	for (int i = 0; order[i]; i++)
		if (!strcmp(order[i], run->cls))
			c->avg = i + 1;
}

void gd_ck_matrix_add(struct gd_ck_matrix *mx, const struct gd_ck_run *run,
		      const struct gd_ck_measure *me)
{
	const struct gd_ck_test *t = run->t;
	struct gd_ck_cell *c;

	if (t->kind != GD_KIND_BW || (t->pairs != GD_CK_NIC_GPU_MATRIX && !t->sweep_min) ||
	    !(c = new_cell(mx, run)))
		return;
	c->ok = !me->exit_code && me->nsizes;
	c->matrix = t->pairs == GD_CK_NIC_GPU_MATRIX;
	c->sweep = t->sweep_min != 0;
	c->nsizes = me->nsizes;
	for (size_t i = 0; i < me->nsizes; i++) {
		c->size[i] = me->size[i];
		c->bw[i] = me->bw_avg_gbps[i];
		c->bw_peak[i] = me->bw_peak_gbps[i];
	}
	if (c->ok) {
		c->avg = me->bw_avg_gbps[me->nsizes - 1];
		c->peak = me->bw_peak_gbps[me->nsizes - 1];
	}
}

/* Two cells in one column: the same NIC of the same node. */
static bool same_nic(const struct gd_ck_cell *a, const struct gd_ck_cell *b)
{
	return !strcmp(a->nic, b->nic) && !strcmp(a->node, b->node);
}

/* The first cell of each column (node and NIC) or row (memory), in order of appearance. */
static size_t distinct(const struct gd_ck_matrix *mx, bool nic, const struct gd_ck_cell **out,
		       size_t max)
{
	size_t n = 0;
	bool said = false;

	for (size_t i = 0; i < mx->n; i++) {
		const struct gd_ck_cell *v = &mx->v[i];
		bool seen = false;

		for (size_t j = 0; j < n && !seen; j++)
			seen = nic ? same_nic(out[j], v) : !strcmp(out[j]->mem, v->mem);
		if (seen)
			continue;
		if (n < max)
			out[n++] = v;
		else if (!said && (said = true))
			gd_error("the NIC x memory grid shows the first %zu %s (the table and JSON "
				 "have every cell)", max, nic ? "NICs" : "memories");
	}
	return n;
}

static const struct gd_ck_cell *cell(const struct gd_ck_matrix *mx, const struct gd_ck_cell *nic,
				     const char *mem)
{
	const struct gd_ck_cell *found = NULL;

	for (size_t i = 0; i < mx->n; i++)
		if (same_nic(&mx->v[i], nic) && !strcmp(mx->v[i].mem, mem))
			found = &mx->v[i]; /* the last test wins */
	return found;
}

/* One node's cells (all of them without a launch): the table, then the grid. */
static void print_node(const struct gd_ck_matrix *mx, const char *node, FILE *out)
{
	const struct gd_ck_cell *nics[64], *mems[64];
	size_t nn = distinct(mx, true, nics, 64), nm = distinct(mx, false, mems, 64);

	/* the host (at most 63 bytes), any control or non-ASCII byte as \xNN (gd_excerpt) */
	fprintf(out, "\nNIC x memory bandwidth (loopback, Gb/s)%s%s\n", node[0] ? " of " : "",
		node[0] ? gd_excerpt(node) : "");
	fprintf(out, "%-14s %-14s %-5s %10s %10s\n", "NIC", "MEMORY", "CLASS", "PEAK", "AVG");
	for (size_t i = 0; i < mx->n; i++) {
		const struct gd_ck_cell *c = &mx->v[i];

		if (c->ok && c->peak > 0)
			fprintf(out, "%-14s %-14s %-5s %10.2f %10.2f\n", c->nic, c->mem, c->cls,
				c->peak, c->avg);
		else if (c->ok) /* a timed run measures no peak (as perftest) */
			fprintf(out, "%-14s %-14s %-5s %10s %10.2f\n", c->nic, c->mem, c->cls, "-",
				c->avg);
		else
			fprintf(out, "%-14s %-14s %-5s %10s %10s\n", c->nic, c->mem, c->cls,
				"failed", "failed");
	}
	fprintf(out, "\n%-14s", "avg Gb/s");
	for (size_t j = 0; j < nn; j++)
		fprintf(out, " %16s", nics[j]->nic);
	fputc('\n', out);
	for (size_t i = 0; i < nm; i++) {
		fprintf(out, "%-14s", mems[i]->mem);
		for (size_t j = 0; j < nn; j++) {
			const struct gd_ck_cell *c = cell(mx, nics[j], mems[i]->mem);
			char txt[32];

			if (!c)
				snprintf(txt, sizeof(txt), "-");
			else if (!c->ok)
				snprintf(txt, sizeof(txt), "failed %s", c->cls);
			else
				snprintf(txt, sizeof(txt), "%.2f %s", c->avg, c->cls);
			fprintf(out, " %16s", txt);
		}
		fputc('\n', out);
	}
}

/* The node of cell i is met for the first time. */
static bool first_of_node(const struct gd_ck_matrix *mx, size_t i)
{
	for (size_t j = 0; j < i; j++)
		if (!strcmp(mx->v[j].node, mx->v[i].node))
			return false;
	return true;
}

/* A message size as a spec writes it: 4K, 1M, 2G, else bytes. */
static void size_label(uint64_t v, char *buf, size_t len)
{
	static const char unit[] = "KMG";
	int u = -1;

	while (u < 2 && v >= 1024 && v % 1024 == 0) {
		v /= 1024;
		u++;
	}
	snprintf(buf, len, "%llu%.*s", (unsigned long long)v, u >= 0 ? 1 : 0,
		 u >= 0 ? &unit[u] : "");
}

/* One sweep run: a row per message size (what --plot draws), the largest judged. */
static void print_sweep(const struct gd_ck_cell *c, FILE *out)
{
	static const char *const head[] = { "SIZE", "BYTES", "PEAK", "AVG" };
	struct gd_table *t = gd_table_new(4);
	char v[4][32];
	int ret = t ? 0 : -ENOMEM;

	fprintf(out, "\n%s", gd_excerpt(c->test));
	fprintf(out, " on %s %s%s%s: bandwidth per message size (loopback, Gb/s)\n", c->nic, c->mem,
		c->node[0] ? " of " : "", c->node[0] ? gd_excerpt(c->node) : "");
	for (size_t i = 0; !ret && i < 4; i++)
		ret = gd_table_add(t, head[i]);
	for (size_t k = 0; k < c->nsizes && !ret; k++) {
		size_label(c->size[k], v[0], sizeof(v[0]));
		snprintf(v[1], sizeof(v[1]), "%llu", (unsigned long long)c->size[k]);
		snprintf(v[2], sizeof(v[2]), c->bw_peak[k] > 0 ? "%.2f" : "-", c->bw_peak[k]);
		snprintf(v[3], sizeof(v[3]), "%.2f", c->bw[k]);
		for (size_t i = 0; !ret && i < 4; i++)
			ret = gd_table_add(t, v[i]);
	}
	if (!ret)
		ret = gd_table_print(t, "  ", out);
	gd_table_free(t);
	if (ret)
		fprintf(out, "out of memory for the table\n");
	if (!c->ok)
		fprintf(out, "the run failed%s\n", c->nsizes ? " after the sizes above" : "");
	fprintf(out, "the thresholds judge the largest size; one size alone: the reproduce line "
		"with -s BYTES\n");
}

/* Node i's cells (its first cell): the matrix's table and grid, each sweep's table. */
static void print_one_node(const struct gd_ck_matrix *mx, size_t i, struct gd_ck_matrix *one,
			   FILE *out)
{
	const char *node = mx->v[i].node;

	one->n = 0;
	for (size_t j = i; j < mx->n; j++)
		if (!strcmp(mx->v[j].node, node) && mx->v[j].matrix)
			one->v[one->n++] = mx->v[j];
	if (one->n)
		print_node(one, node, out);
	for (size_t j = i; j < mx->n; j++)
		if (!strcmp(mx->v[j].node, node) && mx->v[j].sweep)
			print_sweep(&mx->v[j], out);
}

void gd_ck_matrix_print(const struct gd_ck_matrix *mx, FILE *out)
{
	struct gd_ck_matrix one = { .plan = mx->plan };

	if (!mx->n)
		return;
	if (!(one.v = calloc(mx->n, sizeof(*one.v)))) {
		print_node(mx, "", out); /* one table of every cell */
		return;
	}
	for (size_t i = 0; i < mx->n; i++)
		if (first_of_node(mx, i))
			print_one_node(mx, i, &one, out);
	free(one.v);
}

/* A sweep run's sizes, a sweep_point record each. */
static int sweep_json(const struct gd_ck_cell *c, FILE *out)
{
	int ret = 0;

	for (size_t k = 0; k < c->nsizes && !ret; k++) {
		json_object *rec = gd_json_record("sweep_point");

		gd_json_add_str(rec, "test", c->test);
		if (c->node[0])
			gd_json_add_str(rec, "node", c->node);
		gd_json_add_str(rec, "nic", c->nic);
		gd_json_add_str(rec, "memory", c->mem);
		gd_json_add_str(rec, "path_class", c->cls);
		gd_json_add_u64(rec, "size_bytes", c->size[k]);
		if (c->bw_peak[k] > 0)
			gd_json_add_double(rec, "bw_peak_gbps", c->bw_peak[k]);
		else /* a timed run measures no peak */
			json_object_object_add(rec, "bw_peak_gbps", NULL);
		gd_json_add_double(rec, "bw_avg_gbps", c->bw[k]);
		gd_json_add_bool(rec, "judged", k + 1 == c->nsizes);
		gd_json_add_bool(rec, "run_ok", c->ok);
		ret = gd_json_emit(rec, out);
	}
	return ret;
}

int gd_ck_matrix_json(const struct gd_ck_matrix *mx, FILE *out)
{
	int ret = 0;

	for (size_t i = 0; i < mx->n && !ret; i++) {
		const struct gd_ck_cell *c = &mx->v[i];
		json_object *rec;

		if (c->sweep && (ret = sweep_json(c, out)))
			break;
		if (!c->matrix)
			continue;
		rec = gd_json_record("matrix_cell");

		gd_json_add_str(rec, "test", c->test);
		if (c->node[0]) /* under mpirun/srun: whose matrix */
			gd_json_add_str(rec, "node", c->node);
		gd_json_add_str(rec, "nic", c->nic);
		gd_json_add_str(rec, "memory", c->mem);
		gd_json_add_str(rec, "path_class", c->cls);
		gd_json_add_bool(rec, "ok", c->ok);
		if (c->ok) {
			if (c->peak > 0)
				gd_json_add_double(rec, "bw_peak_gbps", c->peak);
			else /* a timed run measures no peak */
				json_object_object_add(rec, "bw_peak_gbps", NULL);
			gd_json_add_double(rec, "bw_avg_gbps", c->avg);
		}
		ret = gd_json_emit(rec, out);
	}
	return ret;
}

/* Run gnuplot on a script file, with a deadline. */
static int gnuplot(const char *script)
{
	pid_t pid = fork();
	int status = 0, waited = 0;

	if (pid < 0)
		return -errno;
	if (pid == 0) {
		execlp("gnuplot", "gnuplot", script, (char *)NULL);
		_exit(127);
	}
	while (waitpid(pid, &status, WNOHANG) == 0) {
		if (waited++ == 600) /* 30 s */
			kill(pid, SIGKILL);
		usleep(50000);
	}
	if (WIFEXITED(status) && WEXITSTATUS(status) == 127) {
		gd_error("--plot needs gnuplot: apt-get install gnuplot-nox");
		return -ENOENT;
	}
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		gd_error("gnuplot failed on %s", script);
		return -EIO;
	}
	return 0;
}

/* A string as one field of a gnuplot data file: in double quotes, with quotes, backslashes and
 * control bytes replaced. Names come from specs and sysfs: they are data, never script text. */
static void data_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (; *s; s++) {
		unsigned char c = (unsigned char)*s;

		fputc(c < 0x20 || c == 0x7f || c == '"' || c == '\\' ? '_' : c, f);
	}
	fputs("\" ", f);
}

/* Heatmap: data one cell a line (x y value "label" "nic" "memory"); the script names no cell. */
static void heatmap(const struct gd_ck_matrix *mx, FILE *f, FILE *d, const char *path,
		    const char *data)
{
	const struct gd_ck_cell *nics[64], *mems[64];
	size_t nn = distinct(mx, true, nics, 64), nm = distinct(mx, false, mems, 64);
	char label[48], column[sizeof(nics[0]->node) + sizeof(nics[0]->nic)];

	for (size_t i = 0; i < nm; i++)
		for (size_t j = 0; j < nn; j++) {
			const struct gd_ck_cell *c = cell(mx, nics[j], mems[i]->mem);

			if (!c)
				continue;
			if (mx->plan)
				snprintf(label, sizeof(label), "%s", c->cls);
			else
				snprintf(label, sizeof(label), "%.2f %s", c->avg, c->cls);
			fprintf(d, "%zu %zu %.4f ", j, i, c->ok || mx->plan ? c->avg : 0.0);
			data_str(d, label);
			/* under a launch each node's NICs are columns of their own */
			snprintf(column, sizeof(column), "%s%s%s", c->node, c->node[0] ? " " : "",
				 c->nic);
			data_str(d, column);
			data_str(d, c->mem);
			fputc('\n', d);
		}
	fprintf(f, "set terminal pngcairo noenhanced size %zu,%zu\nset output '%s'\n",
		GD_MAX((size_t)640, 240 + 120 * nn), 200 + 40 * nm, path);
	if (mx->plan)
		fprintf(f, "set title 'gd_check --dry-run: path class, NIC x memory'\n"
			"set palette defined (1 '#1a9850', 3 '#fee08b', 7 '#d73027')\nset cbrange [1:7]\n"
			"set cbtics ('X' 1, 'PIX' 2, 'PXB' 3, 'PHB' 4, 'NODE' 5, 'SYS' 6, 'N/A' 7)\n");
	else
		fprintf(f, "set title 'gd_check: loopback bandwidth, NIC x memory (Gb/s, path class)'\n"
			"set palette rgb 33,13,10\nset cblabel 'Gb/s'\n"
			"stats '%s' using 3 nooutput\n"
			"if (STATS_max <= STATS_min) set cbrange [0:STATS_max > 0 ? STATS_max * 1.2 : 1]\n",
			data);
	/* boxes, not 'with image' (which needs a 2x2 grid at least) */
	fprintf(f, "unset key\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5] reverse\n"
		"plot '%s' using 1:2:(0.5):(0.5):3:xticlabels(5):yticlabels(6) with boxxyerror "
		"fs solid 1.0 fc palette, '' using 1:2:4 with labels center\n", nn - 1, nm - 1, data);
}

/* The x axis' labels: the sweeps' sizes as a spec writes them (4K..1M), at most 12 of them. */
static void size_tics(const struct gd_ck_matrix *mx, FILE *f)
{
	uint64_t v[64];
	size_t n = 0, step;
	char lab[24];

	for (size_t i = 0; i < mx->n; i++)
		for (size_t k = 0; mx->v[i].nsizes >= 2 && k < mx->v[i].nsizes; k++) {
			size_t j = 0;

			while (j < n && v[j] < mx->v[i].size[k])
				j++;
			if ((j < n && v[j] == mx->v[i].size[k]) || n == 64)
				continue;
			memmove(&v[j + 1], &v[j], (n++ - j) * sizeof(v[0]));
			v[j] = mx->v[i].size[k];
		}
	step = (n + 11) / 12;
	fprintf(f, "set xtics (");
	for (size_t j = 0; j < n; j += step ? step : 1) {
		size_label(v[j], lab, sizeof(lab));
		fprintf(f, "%s'%s' %llu", j ? ", " : "", lab, (unsigned long long)v[j]);
	}
	fprintf(f, ")\n");
}

/* Sweeps: one data block per curve, its title the block's first line (columnheader). */
static void sweeps(const struct gd_ck_matrix *mx, FILE *f, FILE *d, const char *path,
		   const char *data)
{
	char title[256];
	size_t n = 0;

	for (size_t i = 0; i < mx->n; i++) {
		if (mx->v[i].nsizes < 2)
			continue;
		snprintf(title, sizeof(title), "%s %s %s", mx->v[i].test, mx->v[i].nic, mx->v[i].mem);
		fputs(n++ ? "\n\n" : "", d);
		data_str(d, title);
		fputc('\n', d);
		for (size_t k = 0; k < mx->v[i].nsizes; k++)
			fprintf(d, "%llu %.4f\n", (unsigned long long)mx->v[i].size[k], mx->v[i].bw[k]);
	}
	fprintf(f, "set terminal pngcairo noenhanced size 900,600\nset output '%s'\n"
		"set title 'gd_check: bandwidth against message size'\nset logscale x 2\n"
		"set xlabel 'message size'\nset ylabel 'Gb/s'\nset key left top\n", path);
	size_tics(mx, f);
	fprintf(f, "plot for [k=0:%zu] '%s' index k using 1:2 with linespoints title "
		"columnheader(1)\n", n ? n - 1 : 0, data);
}

/* The script and its data in a private directory; gnuplot reads both, runs nothing else. */
static int plot_one(const struct gd_ck_matrix *mx, const char *path, bool sweep)
{
	char dir[] = "/tmp/gd_check_plot_XXXXXX", script[64], data[64];
	FILE *f = NULL, *d = NULL;
	int ret = -ENOMEM;

	if (!mkdtemp(dir))
		return -errno;
	snprintf(script, sizeof(script), "%s/plot.gp", dir);
	snprintf(data, sizeof(data), "%s/cells.dat", dir);
	f = fopen(script, "wxe");
	d = fopen(data, "wxe");
	if (f && d) {
		if (sweep)
			sweeps(mx, f, d, path, data);
		else
			heatmap(mx, f, d, path, data);
	}
	ret = !f || !d ? -errno : 0;
	if (f && fclose(f) && !ret)
		ret = -errno;
	if (d && fclose(d) && !ret)
		ret = -errno;
	if (!ret)
		ret = gnuplot(script);
	unlink(script);
	unlink(data);
	rmdir(dir);
	return ret;
}

/* A --plot path goes into the script as a quoted string: no quote, backslash or control byte. */
int gd_ck_plot_path_check(const char *path)
{
	for (const char *p = path; *p; p++)
		if (*p == '\'' || *p == '\\' || (unsigned char)*p < 0x20 || *p == 0x7f)
			return -EINVAL;
	return 0;
}

int gd_ck_matrix_plot(const struct gd_ck_matrix *mx, const char *path)
{
	char sp[4096];
	const char *dot = strrchr(path, '.');
	bool any_sweep = false, any_grid = false;
	int ret = 0;

	if (gd_ck_plot_path_check(path)) {
		gd_error("--plot: the file name must not contain a quote, a backslash or a control "
			 "character");
		return -EINVAL;
	}
	for (size_t i = 0; i < mx->n; i++) {
		any_sweep |= mx->v[i].nsizes > 1;
		any_grid |= mx->v[i].matrix;
	}
	if (any_grid || !any_sweep)
		ret = plot_one(mx, path, false);
	if (!ret && any_sweep) {
		snprintf(sp, sizeof(sp), "%.*s-sweep.png", dot ? (int)(dot - path) : (int)strlen(path),
			 path);
		ret = plot_one(mx, any_grid ? sp : path, true);
	}
	return ret;
}
