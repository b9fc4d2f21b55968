/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check: hardware acceptance from a YAML spec; the NIC x GPU matrix; pairs under mpirun/srun. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "bench.h"
#include "check.h"
#include "baseline.h"
#include "check_mpi.h"
#include "gd.h"
#include "initiator.h"
#include "log.h"
#include "machine.h"
#include "opts.h"
#include "readfile.h"
#include "robust.h"
#include "spec.h"
#include "sysfs.h"

enum { O_JSON = 1, O_JUNIT, O_EXAMPLE, O_MATRIX, O_PLOT, O_DRY_RUN, O_TOPOLOGY, O_PORT,
       O_DURATION, O_SIZE, O_PROM, O_BUNDLE, O_SUITE, O_KEEP_GOING, O_GOLDEN, O_WRITE_GOLDEN,
       O_CONCURRENCY, O_BASELINE, O_ROBUST_K, O_RAILS };

static const struct gd_opt check_opts[] = {
	{ "json", 'j', GD_NO_ARG, NULL, "print JSON Lines instead of the table", O_JSON },
	{ "junit", 0, GD_REQ_ARG, "FILE", "also write a JUnit XML report to FILE", O_JUNIT },
	{ "prom", 0, GD_REQ_ARG, "FILE.prom", "also write Prometheus metrics for node_exporter's textfile collector", O_PROM },
	{ "bundle", 0, GD_REQ_ARG, "FILE.tar.gz", "also write a bug-report bundle: spec, reports, tool JSON, versions, commands", O_BUNDLE },
	{ "suite", 0, GD_REQ_ARG, "NAME", "run a built-in suite instead of a spec: quick, full, gpudirect, gpu-initiated, connectx-selftest", O_SUITE },
	{ "golden", 0, GD_REQ_ARG, "FILE", "judge --suite's counts, bus ids and firmware against a golden manifest (--write-golden writes one); without --suite, judge the JSON reports given against FILE's baseline", O_GOLDEN },
	{ "baseline", 0, GD_REQ_ARG, "FILE", "write the golden file with the baseline (median, MAD) of the JSON reports of 3 or more good nodes given, and exit", O_BASELINE },
	{ "robust-k", 0, GD_REQ_ARG, "K", "robust distances (MAD) a value may lie on the bad side of the baseline's median (1 to 20; default: the baseline's k, 4)", O_ROBUST_K },
	{ "write-golden", 0, GD_REQ_ARG, "FILE", "write this known-good node's golden manifest to FILE and exit", O_WRITE_GOLDEN },
	{ "keep-going", 'k', GD_NO_ARG, NULL, "run every rung of the ladder, also above a failed one", O_KEEP_GOING },
	{ "example", 0, GD_NO_ARG, NULL, "print a commented spec for this machine and exit", O_EXAMPLE },
	{ "matrix", 'm', GD_NO_ARG, NULL, "run the NIC x GPU (and host memory) matrix without a spec", O_MATRIX },
	{ "plot", 0, GD_REQ_ARG, "FILE.png", "plot the matrix (heatmap) and sweeps with gnuplot", O_PLOT },
	{ "dry-run", 'n', GD_NO_ARG, NULL, "list the runs with their path classes, run nothing", O_DRY_RUN },
	{ "topology", 't', GD_REQ_ARG, "FILE", "read an hwloc XML topology instead of this machine", O_TOPOLOGY },
	{ "port", 'p', GD_REQ_ARG, "PORT", "first side-channel TCP port of the runs (default 18600)", O_PORT },
	{ "duration", 'D', GD_REQ_ARG, "SEC", "seconds per run of --matrix (default 2)", O_DURATION },
	{ "size", 's', GD_REQ_ARG, "BYTES", "message size of --matrix (default 1M; K, M suffixes)", O_SIZE },
	{ "concurrency", 0, GD_REQ_ARG, "N", "pairs between ranks run at once in a round (default: every disjoint pair; 1: one pair at a time)", O_CONCURRENCY },
	{ "rails", 0, GD_REQ_ARG, "one|all", "pairs between ranks: all runs each node pair on every NIC at once, NIC i with NIC i (default one: one NIC a node)", O_RAILS },
	{ NULL },
};
static const char *const rails_words[] = { "one", "all", NULL };
static const struct gd_opt *const tables[] = { gd_common_opts, check_opts, gd_sysfs_opts, NULL };
static const struct gd_cmd cmd = {
	.synopsis = "[options] [SPEC]",
	.summary = "Check this machine against an acceptance spec (YAML): topology, devices, "
		   "gd_doctor checks and bandwidth/latency thresholds; PASS/FAIL/SKIP table, JSON "
		   "or JUnit.",
	.tables = tables,
	.words = (const struct gd_opt_words *const[]){ (const struct gd_opt_words[]){
		{ "suite", gd_ck_suites }, { "rails", rails_words }, { NULL, NULL } }, NULL },
};

struct args {
	struct gd_ck_opts o;
	const char *junit, *prom, *bundle, *suite, *golden, *write_golden, *baseline;
	double robust_k;	/* --robust-k, 0: the baseline's */
	bool example, matrix;
	int argc;
	char **argv;
	const char *spec;	/* the spec file, NULL: none */
	uint64_t duration, size;
};

/* --robust-k K: a decimal number within the spec key's bounds (robust.h). */
static int robust_k(const char *arg, double *k)
{
	char *end;

	errno = 0;
	*k = strtod(arg, &end);
	if (!arg[0] || *end || errno || strpbrk(arg, "xXpPnN") || !(*k >= GD_CK_BL_K_MIN) ||
	    *k > GD_CK_BL_K_MAX) {
		gd_error("--robust-k %s: give a number of robust distances from %g to %g (default "
			 "%g)", gd_excerpt(arg), GD_CK_BL_K_MIN, GD_CK_BL_K_MAX, GD_CK_BL_K_DEFAULT);
		return -EINVAL;
	}
	return 0;
}

static int handle(void *ctx, int id, const char *arg)
{
	struct args *a = ctx;
	uint64_t v;
	int i = 0;
	int ret;

	switch (id) {
	case O_JSON: a->o.json = true; return 0;
	case O_JUNIT: a->junit = arg; return 0;
	case O_PROM: a->prom = arg; return 0;
	case O_BUNDLE: a->bundle = arg; return 0;
	case O_SUITE: a->suite = arg; return 0;
	case O_GOLDEN: a->golden = arg; return 0;
	case O_WRITE_GOLDEN: a->write_golden = arg; return 0;
	case O_BASELINE: a->baseline = arg; return 0;
	case O_ROBUST_K: return robust_k(arg, &a->robust_k);
	case O_EXAMPLE: a->example = true; return 0;
	case O_MATRIX: a->matrix = true; return 0;
	case O_PLOT: a->o.plot = arg; return 0;
	case O_DRY_RUN: a->o.dry_run = true; return 0;
	case O_KEEP_GOING: a->o.keep_going = true; return 0;
	case O_TOPOLOGY: a->o.xml = arg; return 0;
	case O_DURATION: return gd_opt_u64("--duration", arg, 1, 3600, &a->duration);
	case O_SIZE: return gd_opt_size("--size", arg, 1, 8u << 20, &a->size);
	case O_RAILS:
		ret = gd_opt_choice("--rails", arg, rails_words, &i);
		a->o.rails = i == 1;
		return ret;
	case O_CONCURRENCY:
		ret = gd_opt_u64("--concurrency", arg, 1, 4096, &v);
		a->o.concurrency = (size_t)v;
		return ret;
	case O_PORT:
		ret = gd_opt_u64("--port", arg, 1024, 64000, &v);
		a->o.base_port = (uint16_t)v;
		return ret;
	}
	return -EINVAL;
}

/* --matrix without a spec: one nic-gpu-matrix write test. */
static void matrix_spec(struct gd_ck_spec *s, struct gd_ck_test *t, uint32_t duration,
			uint64_t size)
{
	char eq[256];

	memset(s, 0, sizeof(*s));
	memset(t, 0, sizeof(*t));
	size = size ? size : 1 << 20;
	/* what was run, said (newcomer 48: the sha256 of nothing was shown): the header names
	 * it, and the hash is the equivalent spec's, as a suite's is its generated spec's */
	snprintf(s->path, sizeof(s->path), "(--matrix: write bandwidth of every NIC x GPU and "
		 "host memory pair, %llu bytes, %u s each)", (unsigned long long)size, duration);
	snprintf(eq, sizeof(eq), "tests:\n  - {name: matrix, op: write, type: bw, size: %llu, "
		 "duration: %us, pairs: nic-gpu-matrix}\n", (unsigned long long)size, duration);
	gd_ck_sha256_hex((const unsigned char *)eq, strlen(eq), s->sha256);
	s->topo = (struct gd_ck_topology){ -1, -1, -1, -1, false, false };
	snprintf(t->name, sizeof(t->name), "matrix");
	t->initiator = GD_INIT_CPU;
	t->op = GD_OP_WRITE;
	t->kind = GD_KIND_BW;
	t->size = size;
	t->qps = 1;
	t->duration_s = duration;
	t->pairs = GD_CK_NIC_GPU_MATRIX;
	s->tests = t;
	s->ntests = 1;
}

static int write_bundle(const struct args *a, const struct gd_ck_report *r)
{
	struct gd_ck_bundle_in in = { r, a->spec, a->o.m, a->o.xml, a->argc, a->argv, a->golden };
	int ret = gd_ck_write_bundle(a->bundle, &in);

	if (!ret)
		return 0;
	gd_error("cannot write the bundle %s: %s; nothing was left behind: free space in its "
		 "directory or give another path", a->bundle, strerror(-ret));
	return GD_EXIT_USAGE;
}

/* The table or JSON first, whatever happens to the report files: the results are never lost. */
static int report(const struct args *a, const struct gd_ck_report *r)
{
	int ret, files = r->output_failed ? GD_EXIT_ENV : 0;

	if (a->o.dry_run)
		return gd_tool_flush_stdout();
	if (a->o.json)
		gd_ck_print_json(r, stdout);
	else
		gd_ck_print_table(r, stdout);
	fflush(stdout); /* before the files: a failing one must not cost the results */
	if (a->junit && (ret = gd_ck_write_junit(r, a->junit))) {
		gd_error("cannot write the JUnit report %s: %s (the results are above)", a->junit,
			 strerror(-ret));
		files = GD_EXIT_ENV;
	}
	if (a->prom && (ret = gd_ck_write_prom(r, a->prom))) {
		gd_error("cannot write the Prometheus file %s: %s (nothing written; the results are "
			 "above)", a->prom, strerror(-ret));
		files = GD_EXIT_ENV;
	}
	if (a->bundle && (ret = write_bundle(a, r)))
		files = ret;
	ret = gd_tool_flush_stdout();
	return ret ?: files ?: gd_ck_exit_code(r);
}

/* ^C, SIGTERM (a CI cancel, a Slurm time limit): the run in flight ends, no other starts. */
static void on_signal(int sig)
{
	gd_ck_stop = sig;
	gd_bench_stop = 1;
}

static int run(struct args *a, const char *path)
{
	struct gd_ck_spec spec;
	struct gd_ck_test mt;
	struct gd_ck_report r = { 0 };
	char err[1024] = "", same[65];
	int ret = 0;
	uint64_t t0 = gd_clock_mono_ns(); /* a suite's load runs gd_doctor's checks too */

	a->spec = path;
	if (a->matrix && !path)
		matrix_spec(&spec, &mt, a->duration ? (uint32_t)a->duration : 2, a->size);
	else if ((ret = a->golden ? gd_ck_suite_load_golden(a->suite, a->golden, a->o.m, a->o.xml,
							    &spec, err, sizeof(err)) :
			a->suite ? gd_ck_suite_load(a->suite, a->o.m, a->o.xml, &spec, err,
						    sizeof(err))
				: gd_ck_spec_load_all(path, a->o.m, a->o.xml, &spec, err, sizeof(err))))
		gd_error("%s", err);
	/* every rank loaded the same spec, or all stop here with one cause (rank 0's word); a
	 * suite is written from each node's own discovery (its name, its devices): the ranks
	 * agree on the suite's name */
	if (a->suite) { /* the suite's name and the golden file's bytes */
		char both[128];

		snprintf(both, sizeof(both), "%s %s", a->suite, a->golden && !ret ? spec.sha256 : "");
		gd_ck_sha256_hex((const unsigned char *)both, strlen(both), same);
	}
	if (gd_launch()->size > 1 &&
	    gd_ck_mpi_agree_spec(!ret, a->suite ? same : spec.sha256, err)) {
		if (!ret && spec.tests != &mt)
			gd_ck_spec_free(&spec);
		return GD_EXIT_USAGE;
	}
	if (!ret && a->robust_k > 0 && !spec.baseline.given) {
		gd_error("--robust-k: the spec has no baseline to judge against ('include:' a "
			 "golden file that 'gd_check --baseline' wrote)");
		if (spec.tests != &mt)
			gd_ck_spec_free(&spec);
		return GD_EXIT_USAGE;
	}
	if (!ret && a->robust_k > 0)
		spec.baseline.k = a->robust_k;
	if (ret) /* the spec named on the command line is the user's to fix */
		return ret == -EINVAL || ret == -ENOENT || ret == -EISDIR || ret == -EFBIG ||
			       ret == -GD_ENOTREG ? GD_EXIT_USAGE : GD_EXIT_ENV;
	a->o.out = a->o.json ? NULL : stdout;
	a->o.progress = isatty(STDERR_FILENO);
	a->o.progress_lines = !a->o.progress && gd_launch()->rank == 0;
	if (gd_launch()->rank > 0)
		a->o.out = NULL;
	if (!a->o.dry_run) {
		gd_ck_host_facts(a->o.m, &r.host);
		snprintf(r.spec_path, sizeof(r.spec_path), "%s", spec.path);
		snprintf(r.spec_sha256, sizeof(r.spec_sha256), "%s", spec.sha256);
	}
	if (a->o.out && !a->o.dry_run) {
		gd_ck_print_header(&r, stdout);
		if (gd_launch()->size > 1)
			printf("%d ranks (%s, MPI)\n\n", gd_launch()->size, gd_launch()->source);
	}
	gd_ck_suite_preflight(&spec, a->o.m, a->o.xml, &r);
	ret = gd_ck_run_spec(&spec, &a->o, &r);
	r.seconds = (double)(gd_clock_mono_ns() - t0) / 1e9; /* the whole run's, as it says */
	if (!ret && gd_launch()->rank == 0)
		ret = report(a, &r);
	else if (!ret)
		ret = gd_ck_exit_code(&r);
	gd_ck_report_free(&r);
	if (spec.tests != &mt)
		gd_ck_spec_free(&spec);
	return ret;
}

/* --prom: a FILE.prom (the textfile collector reads no other name). */
static int check_prom_name(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	if (path && (n < 6 || strcmp(path + n - 5, ".prom"))) {
		gd_error("--prom %s: node_exporter's textfile collector reads only files named "
			 "*.prom: give FILE.prom", gd_excerpt(path));
		return -EINVAL;
	}
	return 0;
}

/* --bundle: FILE.tar.gz (or .tgz). */
static int check_bundle_name(const char *path)
{
	size_t n = path ? strlen(path) : 0;

	if (path && (n < 8 || strcmp(path + n - 7, ".tar.gz")) &&
	    (n < 5 || strcmp(path + n - 4, ".tgz"))) {
		gd_error("--bundle %s: the bundle is a gzip'ed tar: give FILE.tar.gz",
			 gd_excerpt(path));
		return -EINVAL;
	}
	return 0;
}

/* FILE.yaml or FILE.yml: a spec, not a report. */
static bool yaml_name(const char *p)
{
	size_t n = strlen(p);

	return (n > 5 && !strcmp(p + n - 5, ".yaml")) || (n > 4 && !strcmp(p + n - 4, ".yml"));
}

/* Options that would be ignored together are refused (the --json rule): nothing silently. */
static int refuse_mixes(const struct args *a, bool spec, bool spec_yaml)
{
	const char *why = NULL;

	if (a->o.json && a->example)
		why = "--json and --example cannot be used together: the example is a YAML spec";
	else if (a->example && (spec || a->matrix || a->o.dry_run || a->junit || a->o.plot ||
				a->prom || a->bundle))
		why = "--example prints a spec and exits: give it alone (no SPEC, --matrix, "
		      "--dry-run, --junit, --plot, --prom or --bundle)";
	else if (a->write_golden && (spec || a->example || a->matrix || a->suite || a->golden ||
				     a->o.json || a->o.dry_run || a->junit || a->o.plot ||
				     a->prom || a->bundle))
		why = "--write-golden writes this node's golden manifest and exits: give it alone "
		      "(with --sysfs-root or --topology at most)";
	else if (a->baseline && (a->example || a->matrix || a->suite || a->golden || a->o.json ||
				 a->o.dry_run || a->junit || a->o.plot || a->prom || a->bundle))
		why = "--baseline writes a golden file from the JSON reports given and exits: give "
		      "it with the reports alone (and --robust-k at most)";
	else if (a->golden && !a->suite && spec_yaml)
		why = "--golden goes with --suite, or with nodes' JSON reports; a spec takes its "
		      "golden file with 'include: FILE'";
	else if (a->golden && !a->suite && (a->matrix || a->o.dry_run || a->junit ||
					    a->o.plot || a->prom || a->bundle))
		why = "--golden FILE REPORT... judges JSON reports: give --json at most";
	else if (a->matrix && spec)
		why = "--matrix runs without a spec: give SPEC or --matrix, not both (a spec "
		      "runs a matrix with 'pairs: nic-gpu-matrix')";
	else if (!a->matrix && (a->duration || a->size))
		why = "--duration and --size are --matrix's; a spec gives each test's duration "
		      "and size";
	else if (a->o.dry_run && (a->junit || a->prom || a->bundle))
		why = "--dry-run runs nothing, so --junit, --prom and --bundle would have nothing "
		      "to write: leave them out";
	if (why)
		gd_error("%s", why);
	return why ? -EINVAL : 0;
}

/* The sweep plot's file beside --plot's: m.png -> m-sweep.png. */
static void sweep_path(const char *plot, char *buf, size_t len)
{
	const char *dot = strrchr(plot, '.');

	snprintf(buf, len, "%.*s-sweep.png", dot ? (int)(dot - plot) : (int)strlen(plot), plot);
}

/* The report files of a run: each option's file and the bytes its temporary name adds. */
enum { F_JUNIT, F_PLOT, F_SWEEP, F_PROM, F_BUNDLE, F_GOLDEN, F_N };
static const char *const out_opt[F_N] = { "junit", "plot", "plot", "prom", "bundle",
					  "write-golden" };
static const size_t out_tmp[F_N] = { 0, 0, 0, GD_CK_TMP_ATOMIC, GD_CK_TMP_BUNDLE,
				     GD_CK_TMP_ATOMIC };

/* Two report options naming one file (the same name, or one existing file): -EINVAL. */
static int outputs_apart(const char *const files[F_N])
{
	struct stat x, y;

	for (int i = 0; i < F_N; i++)
		for (int j = i + 1; j < F_N; j++) {
			if (!files[i] || !files[j] || (i == F_PLOT && j == F_SWEEP))
				continue;
			if (strcmp(files[i], files[j]) &&
			    (stat(files[i], &x) || stat(files[j], &y) || x.st_dev != y.st_dev ||
			     x.st_ino != y.st_ino))
				continue;
			gd_error("--%s and --%s name the same file %s: each report needs its own",
				 out_opt[i], out_opt[j], gd_excerpt(files[i]));
			return -EINVAL;
		}
	return 0;
}

/* Report files before anything runs: writable (room for a temporary name beside them),
 * none an input or another report, --plot's name fit for gnuplot. */
static int check_outputs(const struct args *a, const char *spec)
{
	const char *inputs[4] = { spec, NULL }, *files[F_N] = { a->junit, a->o.plot, NULL,
		a->prom, a->bundle, a->write_golden };
	size_t ni = spec != NULL;
	char sweep[4096], why[512];
	int ret;

	if (a->o.plot) {
		sweep_path(a->o.plot, sweep, sizeof(sweep));
		files[F_SWEEP] = sweep;
		if (gd_ck_plot_path_check(a->o.plot)) {
			gd_error("--plot %s: the file name must not contain a quote, a backslash or a "
				 "control character (it is named in the gnuplot script)",
				 gd_excerpt(a->o.plot));
			return -EINVAL;
		}
	}
	if (a->o.xml)
		inputs[ni++] = a->o.xml;
	if (a->golden)
		inputs[ni++] = a->golden;
	if ((ret = check_prom_name(a->prom) ?: check_bundle_name(a->bundle) ?:
		   outputs_apart(files)))
		return ret;
	for (int i = 0; i < F_N; i++) {
		if (!files[i] || !(ret = gd_ck_output_check_tmp(files[i], inputs, out_tmp[i], why,
								 sizeof(why))))
			continue;
		gd_error("cannot write %s: %s; give --%s a file that can be written",
			 gd_excerpt(files[i]), why, out_opt[i]);
		return ret;
	}
	return 0;
}

/* --write-golden FILE: this node's manifest, whole or not at all. */
static int write_golden(const struct args *a)
{
	int ret = gd_ck_write_golden(a->write_golden, a->o.m, a->o.xml);

	if (!ret) {
		gd_info("wrote the golden manifest of this node to %s: check it, then judge nodes of "
			"its SKU with 'gd_check --suite quick --golden %s'", a->write_golden,
			a->write_golden);
		return GD_EXIT_OK;
	}
	gd_error("cannot write the golden manifest %s: %s; nothing was left behind: free space "
		 "in its directory or give another path", a->write_golden, strerror(-ret));
	return GD_EXIT_ENV;
}

/* --baseline OUT REPORT... (write the golden file) or --golden FILE REPORT... (judge them). */
static int reports(struct args *a, int n, char **paths)
{
	struct gd_ck_report r = { 0 };
	struct gd_ck_spec g;
	char why[2048] = "";
	int ret;

	if (refuse_mixes(a, n > 0, n > 0 && yaml_name(paths[0])))
		return GD_EXIT_USAGE;
	if (a->baseline) {
		const char **in = calloc((size_t)n + 1, sizeof(*in));

		for (int i = 0; in && i < n; i++)
			in[i] = paths[i];
		ret = in ? gd_ck_output_check_tmp(a->baseline, in, GD_CK_TMP_ATOMIC, why,
						  sizeof(why)) : -ENOMEM;
		free(in);
		if (ret) {
			gd_error("cannot write %s: %s; give --baseline a new file that can be "
				 "written", gd_excerpt(a->baseline), why);
			return GD_EXIT_USAGE;
		}
		if (!(ret = gd_ck_baseline_write(a->baseline, paths, (size_t)n, a->robust_k, why,
						  sizeof(why)))) {
			gd_info("wrote the baseline of %d good nodes to %s: judge a node with "
				"'include: %s' in the same spec, or its report with 'gd_check "
				"--golden %s REPORT.json'", n, a->baseline, a->baseline, a->baseline);
			return GD_EXIT_OK;
		}
		gd_error("--baseline %s: %s", a->baseline, why);
		return ret == -EINVAL || ret == -ENOENT ? GD_EXIT_USAGE : GD_EXIT_ENV;
	}
	if (!n) {
		gd_error("--golden %s without --suite judges nodes' JSON reports: give them "
			 "(gd_check --golden FILE A.json B.json ...)", a->golden);
		return GD_EXIT_USAGE;
	}
	if ((ret = gd_ck_spec_load(a->golden, &g, why, sizeof(why)))) {
		gd_error("%s", why);
		return GD_EXIT_USAGE;
	}
	ret = gd_ck_bl_judge_reports(&g, paths, (size_t)n, a->robust_k, &r, why, sizeof(why));
	if (ret)
		gd_error("--golden %s: %s", a->golden, why);
	else
		snprintf(r.spec_path, sizeof(r.spec_path), "%s", g.path);
	if (!ret && a->o.json)
		gd_ck_print_json(&r, stdout);
	else if (!ret)
		gd_ck_print_table(&r, stdout);
	gd_ck_spec_free(&g);
	ret = ret ? GD_EXIT_USAGE : gd_tool_flush_stdout() ?: gd_ck_exit_code(&r);
	gd_ck_report_free(&r);
	return ret;
}

int main(int argc, char **argv)
{
	struct args a = { .o = { .base_port = 18600 } };
	struct gd_machine mach;
	struct sigaction sa;
	int first = argc, ret;

	bool help = false;

	gd_log_init(argv[0]);
	gd_initiator_tool_prologue(); /* the engine's initiators */
	a.argc = argc;
	a.argv = argv;
	first = gd_opts_parse(&cmd, argc, argv, handle, &a, &help);
	if (first < 0)
		return GD_EXIT_USAGE;
	if (help)
		return gd_tool_flush_stdout();
	if (a.baseline || (a.golden && !a.suite))
		return reports(&a, argc - first, argv + first);
	if (argc - first > 1) {
		gd_error("unexpected argument '%s': give one spec; try '%s --help'",
			 gd_excerpt(argv[first + 1]), gd_progname());
		return GD_EXIT_USAGE;
	}
	if (refuse_mixes(&a, first < argc, first < argc && yaml_name(argv[first])))
		return GD_EXIT_USAGE;
	if (check_outputs(&a, first < argc ? argv[first] : NULL))
		return GD_EXIT_USAGE;
	if (gd_tool_machine(&mach) != GD_TOOL_CONTINUE)
		return GD_EXIT_USAGE;
	a.o.m = &mach;
	if (a.example)
		return gd_ck_print_example(stdout, &mach, a.o.xml) ?: gd_tool_flush_stdout();
	if (a.write_golden)
		return write_golden(&a);
	if (a.suite && (first < argc || a.matrix)) {
		gd_error("--suite %s runs a built-in suite: give no spec and no --matrix (a spec "
			 "can 'include: %s' and override it)", a.suite, a.suite);
		return GD_EXIT_USAGE;
	}
	if (first >= argc && !a.matrix && !a.suite) { /* --golden without --suite: refuse_mixes */
		gd_error("give a spec (gd_check SPEC), or --suite quick, or --matrix, or --example "
			 "to write one");
		return GD_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	memset(&sa, 0, sizeof(sa));
	sa.sa_handler = on_signal;
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGTERM, &sa, NULL);
	if ((ret = gd_launch_init())) /* MPI alone under a launcher's variables: exit 3 */
		return ret;
	/* under a launcher only the tests between ranks run, and they need MPI: without
	 * it, not one all-SKIP report per rank and exit 0 (a CI gate passing on nothing) */
	if (gd_launch()->size > 1 &&
	    (ret = gd_launch_need_mpi("under mpirun/srun gd_check runs the tests between ranks",
				      "or run gd_check without a launcher on each node")))
		return ret;
	ret = run(&a, first < argc ? argv[first] : NULL);
	ret = gd_launch_agree_exit(ret, 120 * 1000);
	gd_launch_fini(ret);
	return ret;
}
