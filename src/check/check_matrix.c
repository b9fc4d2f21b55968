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

static struct gd_ck_cell *new_cell(struct gd_ck_matrix *mx, const struct gd_ck_run *run)
{
	struct gd_ck_cell *c;
	const char *mem = strchr(run->label, ' ');

	if (mx->n == mx->cap) {
		size_t cap = mx->cap ? mx->cap * 2 : 16;
		struct gd_ck_cell *v = realloc(mx->v, cap * sizeof(*v));

		if (!v)
			return NULL;
		mx->v = v;
		mx->cap = cap;
	}
	c = &mx->v[mx->n++];
	memset(c, 0, sizeof(*c));
	snprintf(c->nic, sizeof(c->nic), "%s", run->dev);
	snprintf(c->mem, sizeof(c->mem), "%s", mem ? mem + 1 : "host");
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
	c->nsizes = me->nsizes;
	for (size_t i = 0; i < me->nsizes; i++) {
		c->size[i] = me->size[i];
		c->bw[i] = me->bw_avg_gbps[i];
	}
	if (c->ok) {
		c->avg = me->bw_avg_gbps[me->nsizes - 1];
		c->peak = me->bw_peak_gbps[me->nsizes - 1];
	}
}

/* Distinct values of a field in order of appearance. */
static size_t distinct(const struct gd_ck_matrix *mx, bool nic, const char **out, size_t max)
{
	size_t n = 0;

	for (size_t i = 0; i < mx->n; i++) {
		const char *v = nic ? mx->v[i].nic : mx->v[i].mem;
		bool seen = false;

		for (size_t j = 0; j < n && !seen; j++)
			seen = !strcmp(out[j], v);
		if (!seen && n < max)
			out[n++] = v;
	}
	return n;
}

static const struct gd_ck_cell *cell(const struct gd_ck_matrix *mx, const char *nic,
				     const char *mem)
{
	const struct gd_ck_cell *found = NULL;

	for (size_t i = 0; i < mx->n; i++)
		if (!strcmp(mx->v[i].nic, nic) && !strcmp(mx->v[i].mem, mem))
			found = &mx->v[i]; /* the last test wins */
	return found;
}

void gd_ck_matrix_print(const struct gd_ck_matrix *mx, FILE *out)
{
	const char *nics[64], *mems[64];
	size_t nn = distinct(mx, true, nics, 64), nm = distinct(mx, false, mems, 64);

	fprintf(out, "\nNIC x memory bandwidth (loopback, Gb/s)\n");
	fprintf(out, "%-14s %-14s %-5s %10s %10s\n", "NIC", "MEMORY", "CLASS", "PEAK", "AVG");
	for (size_t i = 0; i < mx->n; i++) {
		const struct gd_ck_cell *c = &mx->v[i];

		if (c->ok)
			fprintf(out, "%-14s %-14s %-5s %10.2f %10.2f\n", c->nic, c->mem, c->cls,
				c->peak, c->avg);
		else
			fprintf(out, "%-14s %-14s %-5s %10s %10s\n", c->nic, c->mem, c->cls,
				"failed", "failed");
	}
	fprintf(out, "\n%-14s", "avg Gb/s");
	for (size_t j = 0; j < nn; j++)
		fprintf(out, " %16s", nics[j]);
	fputc('\n', out);
	for (size_t i = 0; i < nm; i++) {
		fprintf(out, "%-14s", mems[i]);
		for (size_t j = 0; j < nn; j++) {
			const struct gd_ck_cell *c = cell(mx, nics[j], mems[i]);
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

int gd_ck_matrix_json(const struct gd_ck_matrix *mx, FILE *out)
{
	int ret = 0;

	for (size_t i = 0; i < mx->n && !ret; i++) {
		const struct gd_ck_cell *c = &mx->v[i];
		json_object *rec = gd_json_record("matrix_cell");

		gd_json_add_str(rec, "test", c->test);
		gd_json_add_str(rec, "nic", c->nic);
		gd_json_add_str(rec, "memory", c->mem);
		gd_json_add_str(rec, "path_class", c->cls);
		gd_json_add_bool(rec, "ok", c->ok);
		if (c->ok) {
			gd_json_add_double(rec, "bw_peak_gbps", c->peak);
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

static void heatmap(const struct gd_ck_matrix *mx, FILE *f, const char *path)
{
	const char *nics[64], *mems[64];
	size_t nn = distinct(mx, true, nics, 64), nm = distinct(mx, false, mems, 64);

	fprintf(f, "set terminal pngcairo noenhanced size %zu,%zu\nset output '%s'\n",
		GD_MAX((size_t)640, 240 + 120 * nn), 200 + 40 * nm, path);
	if (mx->plan)
		fprintf(f, "set title 'gd_check --dry-run: path class, NIC x memory'\n"
			"set palette defined (1 '#1a9850', 3 '#fee08b', 7 '#d73027')\nset cbrange [1:7]\n"
			"set cbtics ('X' 1, 'PIX' 2, 'PXB' 3, 'PHB' 4, 'NODE' 5, 'SYS' 6, 'N/A' 7)\n"
			"unset key\nset yrange [] reverse\n");
	else
		fprintf(f, "set title 'gd_check: loopback bandwidth, NIC x memory (Gb/s, path class)'\n"
			"set palette rgb 33,13,10\nset cblabel 'Gb/s'\nunset key\nset yrange [] reverse\n");
	fprintf(f, "set xtics (");
	for (size_t j = 0; j < nn; j++)
		fprintf(f, "%s'%s' %zu", j ? ", " : "", nics[j], j);
	fprintf(f, ")\nset ytics (");
	for (size_t i = 0; i < nm; i++)
		fprintf(f, "%s'%s' %zu", i ? ", " : "", mems[i], i);
	fprintf(f, ")\n");
	for (size_t i = 0; i < nm; i++)
		for (size_t j = 0; j < nn; j++) {
			const struct gd_ck_cell *c = cell(mx, nics[j], mems[i]);

			if (c && mx->plan)
				fprintf(f, "set label '%s' at %zu,%zu center front\n", c->cls, j, i);
			else if (c)
				fprintf(f, "set label '%.2f %s' at %zu,%zu center front\n", c->avg,
					c->cls, j, i);
		}
	fprintf(f, "$M << EOD\n");
	for (size_t i = 0; i < nm; i++) {
		for (size_t j = 0; j < nn; j++) {
			const struct gd_ck_cell *c = cell(mx, nics[j], mems[i]);

			fprintf(f, "%s%.4f", j ? " " : "", c && (c->ok || mx->plan) ? c->avg : 0.0);
		}
		fputc('\n', f);
	}
	/* boxes, not 'with image' (which needs a 2x2 grid at least) */
	fprintf(f, "EOD\nset xrange [-0.5:%zu.5]\nset yrange [-0.5:%zu.5] reverse\n", nn - 1, nm - 1);
	if (!mx->plan)
		fprintf(f, "stats $M matrix using 3 nooutput\n"
			"if (STATS_max <= STATS_min) set cbrange [0:STATS_max > 0 ? STATS_max * 1.2 : 1]\n");
	fprintf(f, "plot $M matrix using 1:2:(0.5):(0.5):3 with boxxyerror fs solid 1.0 "
		"fc palette\n");
}

static void sweeps(const struct gd_ck_matrix *mx, FILE *f, const char *path)
{
	bool first = true;

	fprintf(f, "set terminal pngcairo noenhanced size 900,600\nset output '%s'\n"
		"set title 'gd_check: bandwidth against message size'\nset logscale x 2\n"
		"set xlabel 'message size (bytes)'\nset ylabel 'Gb/s'\nset key left top\n", path);
	for (size_t i = 0; i < mx->n; i++) {
		if (mx->v[i].nsizes < 2)
			continue;
		fprintf(f, "$S%zu << EOD\n", i);
		for (size_t k = 0; k < mx->v[i].nsizes; k++)
			fprintf(f, "%llu %.4f\n", (unsigned long long)mx->v[i].size[k], mx->v[i].bw[k]);
		fprintf(f, "EOD\n");
	}
	fprintf(f, "plot ");
	for (size_t i = 0; i < mx->n; i++) {
		if (mx->v[i].nsizes < 2)
			continue;
		fprintf(f, "%s$S%zu with linespoints title '%s %s %s'", first ? "" : ", ", i,
			mx->v[i].test, mx->v[i].nic, mx->v[i].mem);
		first = false;
	}
	fputc('\n', f);
}

static int plot_one(const struct gd_ck_matrix *mx, const char *path, bool sweep)
{
	char script[] = "/tmp/gd_check_plot_XXXXXX";
	int fd = mkstemp(script), ret;
	FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;

	if (!f) {
		if (fd >= 0)
			close(fd);
		return -errno;
	}
	if (sweep)
		sweeps(mx, f, path);
	else
		heatmap(mx, f, path);
	ret = fclose(f) ? -errno : gnuplot(script);
	unlink(script);
	return ret;
}

int gd_ck_matrix_plot(const struct gd_ck_matrix *mx, const char *path)
{
	char sp[4096];
	const char *dot = strrchr(path, '.');
	bool any_sweep = false, any_grid = false;
	int ret = 0;

	if (strchr(path, '\'')) {
		gd_error("--plot: the file name must not contain a quote");
		return -EINVAL;
	}
	for (size_t i = 0; i < mx->n; i++) {
		any_sweep |= mx->v[i].nsizes > 1;
		any_grid |= mx->v[i].nsizes == 1;
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
