/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check's run: the spec's sections evaluated against this machine, one
 * item (a JUnit testcase) per check, each PASS, FAIL or SKIP with the
 * measured value and the expectation. Bandwidth and latency tests run the
 * benchmark engine through its library entry point (gd_bench_run_side), a
 * loopback test with the server side in a forked child.
 */
#ifndef GD_CHECK_H
#define GD_CHECK_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>

#include "spec.h"

/* Set by the judge alone (judge.h): ERROR is "could not run" (exit 3). */
enum gd_ck_status { GD_CK_PASS, GD_CK_FAIL, GD_CK_SKIP, GD_CK_ERROR, GD_CK_NSTATUS };
const char *gd_ck_status_str(enum gd_ck_status s); /* "PASS" */

enum gd_ck_section { GD_CK_SEC_TOPOLOGY, GD_CK_SEC_DEVICES, GD_CK_SEC_DOCTOR, GD_CK_SEC_TESTS,
		     GD_CK_NSEC };
const char *gd_ck_section_name(enum gd_ck_section s); /* "topology" */

/* One attempt of a test's run (a missed threshold is retried): what it measured. */
#define GD_CK_MAX_ATTEMPTS (GD_CK_RETRIES_MAX + 1)
struct gd_ck_attempt {
	enum gd_ck_status status;	/* the judge's verdict on that attempt */
	char measured[48];
	bool has_value;		/* measured is a number: value in unit (as the item's) */
	double value;
	char unit[12];
	double seconds;
};

/* One check: a JUnit testcase. */
struct gd_ck_item {
	enum gd_ck_section section;
	char name[160];		/* "gpus", "rxe0 port 1 state", "write-bw rxe0 host: min_bw" */
	enum gd_ck_status status;
	char measured[96];	/* "12.3 Gb/s", "ACTIVE", "" */
	bool has_value;		/* measured is a number: value in unit ("" a count) */
	double value;
	char unit[12];
	char expected[96];	/* ">= 10 Gb/s (90% line of 11.1 Gb/s)" */
	char message[640];	/* why it failed or was skipped; bond shares */
	char command[600];	/* the equivalent gd_*_bw command lines, "" when none */
	char path_class[8];	/* NIC-to-memory class, "" when none */
	char node[64];		/* the host it was checked on under mpirun/srun (check_nodes.c),
				 * "" without a launch: the report's host */
	double seconds;		/* time spent on it: a run's (its items share it), else since the
				 * item before it (gd_ck_add) */
	struct timespec added;	/* CLOCK_REALTIME when it was added: "started" is this less seconds */
	int rung;		/* enum gd_ck_rung of the ladder, 0: outside it */
	int blocked_by;		/* a lower rung that failed: not run, SKIP (0: none) */
	bool doubted;		/* FAIL only because the noise guard doubts a measurement that
				 * met its threshold (judge.c) */
	size_t nattempts;	/* runs of a test (more than 1: retried), 0: not a run */
	struct gd_ck_attempt attempts[GD_CK_MAX_ATTEMPTS];
	/* a test's run (check_where.c): where it ran and its numbers at the judged size,
	 * for --prom and the bundle; fabric "": not a test's item */
	struct gd_ck_where {
		char test[64], dev[64], gpu[32], initiator[16];
		char fabric[8], provider[32];	/* "verbs" ""; "ofi" "tcp" */
		/* how it ran, as the engine reports it ("" unknown: it did not set up) */
		char registration[16];	/* "host", "dma-buf", "peer-memory" */
		char path[8];		/* NIC to memory: PIX..SYS, "N/A" */
		int staging;		/* GPU data through host memory: 0, 1; -1 unknown */
		char producer[8];	/* proxy: "gpu", "host"; "" none */
		int port;		/* verbs' port; 0 under libfabric (it has none) */
		uint64_t size;		/* bytes of the judged size, 0: unknown */
		double bw_gbps, lat_us;	/* < 0: not measured */
	} where;
	/* a run's counters item (check_counters.c): the port and what moved; port "": none */
	struct gd_ck_ctrs {
		char dev[64], netdev[16];
		int port;
		size_t sampled;		/* counters read in both samples */
		size_t nmoved, more;	/* moved[] holds nmoved; more did not fit */
		struct gd_ck_ctr {
			char name[48];
			char src[12];		/* "counters", "hw_counters", "netdev", "ethtool" */
			char netdev[16];	/* netdev, ethtool: the interface (a bond's slave) */
			uint64_t delta;
			bool error;		/* of the error class (port_counters.h) */
			bool congestion;	/* of the congestion class (pause, ECN, CNP) */
			int64_t tolerated;	/* the spec's bound, -1: none */
		} moved[16];
		char unreadable[192];	/* counters not read (not judged), "" none */
	} ctr;
};

/* One measured run of a test on one pair: the numbers thresholds compare. */
struct gd_ck_measure {
	int exit_code;		/* the engine's: 0 ok */
	char error[256];
	size_t nsizes;
	uint64_t size[24];
	double bw_avg_gbps[24], bw_peak_gbps[24], msg_rate_mpps[24];
	double lat_avg_us[24], lat_p50_us[24], lat_p99_us[24], lat_p999_us[24], lat_max_us[24];
	/* the noise guard (trust.h): a doubtful size's reasons, "" when trusted;
	 * a doubtful measurement is retried and never a PASS (judge.h) */
	char doubtful[24][200];
	/* how it ran (the engine's plan facts): "" when it did not get that far */
	char registration[16];
	char gpu_path_class[8];
	bool staging;
	char device[64];	/* the engine's device: verbs' RDMA device, libfabric's domain */
	/* the sender's bond, when its device is bonded (pairs between ranks) */
	bool bonded;
	double bond_min, bond_total;	/* smallest share (percent, -1: none); bytes counted */
	char bond_name[32];
	char bond_msg[384];
	/* repeat: K (check_repeat.c): the figures above are the medians of K runs; how many
	 * runs the noise guard doubted at each size (left out of the median) */
	unsigned repeats;
	unsigned repeat_doubted[24];
};

/* The machine the report describes. */
struct gd_ck_host {
	char hostname[256];
	char kernel[128];
	char drivers[256];	/* "mlx5_core 6.1..., rdma_rxe" */
	char firmware[256];	/* "mlx5_0 28.39.1002, ..." */
	char version[32];	/* gdperf's */
};

/* What a node is, for a baseline's SKU and manifest (check_sku.c): counts, models, bus ids,
 * firmware and versions; "" where it was not read. */
#define GD_CK_SKU_PARTS 64
struct gd_ck_sku {
	bool known;			/* filled (a run of a spec, not --dry-run) */
	int gpus, nics;
	char gpu_model[64], nic_model[64];	/* PCI "vendor:device" ids, "," between kinds */
	size_t ngpu, nnic;
	struct { char busid[24]; } gpu[GD_CK_SKU_PARTS];
	struct { char name[64], busid[24], firmware[32]; } nic[GD_CK_SKU_PARTS];
	char fact[GD_CK_BL_FACTS][128];	/* gd_ck_bl_fact_keys' order */
};

struct gd_ck_matrix;
struct gd_ck_fleet;
struct gd_ck_report {
	struct gd_ck_item *items;
	struct gd_ck_matrix *matrix;	/* the matrix runs, for --json (NULL: none) */
	struct gd_ck_fleet *fleet;	/* tests between ranks: distribution, outliers (NULL) */
	size_t n, cap;
	struct gd_ck_host host;
	struct gd_ck_sku sku;		/* the node's SKU and manifest facts (JSON "manifest") */
	char spec_path[4096];
	char spec_sha256[65];
	double seconds;
	int interrupted;	/* the signal that stopped the spec, 0: none */
	size_t runs_left;	/* runs the signal left out */
	bool output_failed;	/* a report file (the plot) could not be written: exit 3 */
	/* the ladder (check_ladder.c) */
	bool keep_going;	/* --keep-going: a failed rung stops nothing */
	int rung_now;		/* the rung being run: stamped on new items */
	int failed_rung;	/* the lowest rung with a FAIL, 0: none */
	size_t retried;		/* test items that passed only on a retry */
	uint64_t last_add_ns;	/* gd_clock_mono_ns of the last item added (or of the start) */
};

/*
 * The signal that stops the spec (0: none). gd_check's handler sets it together with
 * gd_bench_stop. The engine consumes gd_bench_stop to end one run cleanly (so that its
 * results still travel); this one stays set: no further run starts, the run it cut short
 * is not judged, the report says "interrupted" and the exit code is 128 + the signal.
 */
extern volatile sig_atomic_t gd_ck_stop;

/* Append an item (zeroed, section and name set); NULL when out of memory. */
struct gd_ck_item *gd_ck_add(struct gd_ck_report *r, enum gd_ck_section sec, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gd_ck_report_free(struct gd_ck_report *r);
/* The measured number of an item beside its text (JSON's value and unit; "" a count). */
void gd_ck_item_value(struct gd_ck_item *it, double value, const char *unit);
/* 128 + the signal when a signal stopped the spec; else GD_EXIT_FAIL when an item failed;
 * else GD_EXIT_ENV when one could not run (ERROR); else GD_EXIT_OK (judge.c). */
int gd_ck_exit_code(const struct gd_ck_report *r);

struct gd_machine;
/* Facts about this machine (sysfs through sysfs.h, uname). */
void gd_ck_host_facts(const struct gd_machine *m, struct gd_ck_host *h);

/* Options of a run. */
struct gd_ck_opts {
	const struct gd_machine *m;	/* the machine (live, or --sysfs-root) */
	bool dry_run;		/* list the runs with their path classes, run nothing */
	bool progress;		/* a progress line on stderr (a terminal) */
	bool progress_lines;	/* not a terminal: one line on stderr per finished run */
	const char *xml;	/* --topology: an hwloc XML instead of this machine */
	const char *plot;	/* --plot FILE.png */
	uint16_t base_port;	/* side-channel port of the first run */
	FILE *out;		/* human text, NULL when --json */
	bool json;
	bool keep_going;	/* --keep-going: run the rungs above a failed one */
	size_t concurrency;	/* --concurrency: pairs of a round at once (0: every disjoint pair) */
	bool rails;		/* --rails all: every NIC of a node pair at once (check_rails.h) */
};

/* Run every section of the spec. Returns 0, or GD_EXIT_ENV / GD_EXIT_USAGE
 * (messages printed) when it could not start. */
int gd_ck_run_spec(const struct gd_ck_spec *spec, const struct gd_ck_opts *o,
		   struct gd_ck_report *r);

/* The ladder (check_ladder.c): rung k starts; rung k is done (a FAIL in it: failed_rung). */
void gd_ck_ladder_enter(struct gd_ck_report *r, int rung);
void gd_ck_ladder_leave(struct gd_ck_report *r, int rung);
/* The failed rung that stops the one being run (not with --keep-going), 0: none. */
int gd_ck_ladder_blocked(const struct gd_ck_report *r);
/* The lowest failed rung's first FAIL item, NULL when none failed. */
const struct gd_ck_item *gd_ck_ladder_first_fail(const struct gd_ck_report *r);
/* What to do about a failed rung: one sentence. */
const char *gd_ck_rung_fix(int rung);
/* What to do about a failed check: the part's own fix, else its rung's. */
const char *gd_ck_fail_fix(const struct gd_ck_item *f);
/* The rung of a gd_doctor check id. */
int gd_ck_doctor_rung(const char *id);

/* Output (check_report.c). gd_ck_tty: s for a terminal, control bytes as '?', in buf. */
const char *gd_ck_tty(const char *s, char *buf, size_t len);
void gd_ck_print_header(const struct gd_ck_report *r, FILE *out);
void gd_ck_print_table(const struct gd_ck_report *r, FILE *out);
int gd_ck_print_json(const struct gd_ck_report *r, FILE *out);
int gd_ck_write_junit(const struct gd_ck_report *r, const char *path);
int gd_ck_junit_stream(const struct gd_ck_report *r, FILE *f); /* 0 or -errno */
/* What --bundle packs (check_bundle.c). */
struct gd_machine;
struct gd_ck_bundle_in {
	const struct gd_ck_report *r;
	const char *spec;		/* the spec file, NULL: none (--matrix, --suite) */
	const struct gd_machine *m;	/* a fixture's root goes to the tools as --sysfs-root */
	const char *xml;		/* --topology, NULL: the machine's */
	int argc;
	char *const *argv;		/* gd_check's command line, for reproduce.sh */
	const char *golden;		/* --golden FILE, NULL: none */
};
/* FILE.tar.gz with the spec, the report in every format, gd_devinfo/gd_topo/gd_doctor
 * JSON, the topology export, versions and the commands; complete or absent: 0 or -errno. */
int gd_ck_write_bundle(const char *path, const struct gd_ck_bundle_in *in);
/* Write path whole or not at all (check_atomic.c): fill writes to a temporary file in
 * path's directory, which is synced and renamed over path; on error it is removed.
 * fill returns 0 or -errno. */
int gd_ck_write_atomic(const char *path, int (*fill)(FILE *f, void *ctx), void *ctx);
/* The directory of an output file exists and is writable: 0 or -errno. */
int gd_ck_outdir_check(const char *path);
/* Prometheus text exposition for node_exporter's textfile collector (check_prom.c),
 * written to a temporary file in path's directory and renamed: 0 or -errno. */
int gd_ck_prom_stream(const struct gd_ck_report *r, FILE *f);
int gd_ck_write_prom(const struct gd_ck_report *r, const char *path);

/*
 * Can path take a report (--junit, --plot)? Before the run: a regular file or a new name in
 * an existing directory, open for writing (a read-only mount, a file without permission),
 * not in /proc or /sys, not one of inputs (NULL-terminated: the spec, --topology). 0, or
 * -errno with the reason in why.
 */
int gd_ck_output_check(const char *path, const char *const *inputs, char *why, size_t len);
/* The same for a file written first under a temporary name beside it (--prom, --bundle,
 * --write-golden): the name plus tmp_extra bytes must fit NAME_MAX, else -ENAMETOOLONG. */
#define GD_CK_TMP_ATOMIC 8	/* ".NAME.XXXXXX" (check_atomic.c) */
#define GD_CK_TMP_BUNDLE 10	/* ".NAME.d.XXXXXX" (check_bundle.c) */
int gd_ck_output_check_tmp(const char *path, const char *const *inputs, size_t tmp_extra,
			   char *why, size_t len);
/* A --plot path the gnuplot script can name: -EINVAL with a quote, backslash or control byte
 * (check_matrix.c; the cells' names go to gnuplot in a data file, never in the script). */
int gd_ck_plot_path_check(const char *path);

/* A commented spec for this machine from discovery (check_example.c). */
int gd_ck_print_example(FILE *out, const struct gd_machine *m, const char *xml);
/* The same, only the sections in which; what names the command in the first line. */
enum { GD_CK_EX_TOPOLOGY = 1, GD_CK_EX_DEVICES = 2, GD_CK_EX_DOCTOR = 4, GD_CK_EX_TESTS = 8,
       GD_CK_EX_ALL = 15, GD_CK_EX_SUITE = 16 /* ports ACTIVE, every doctor check that applies */,
       GD_CK_EX_MANIFEST = 32 /* the SKU's manifest (check_manifest.c) */,
       GD_CK_EX_GOLDEN = 64 /* the header of a golden file (--write-golden) */ };
int gd_ck_print_sections(FILE *out, const struct gd_machine *m, const char *xml, unsigned which,
			 const char *what);

/* Built-in suites (check_suite.c): a spec generated from discovery, like --example. */
extern const char *const gd_ck_suites[];	/* "quick", "full", ..., NULL */
/* The suite's spec; -ENOENT for an unknown name (err names the suites). */
int gd_ck_suite_load(const char *name, const struct gd_machine *m, const char *xml,
		     struct gd_ck_spec *spec, char *err, size_t errlen);
/* The suite with a golden file over it (its manifest: counts, bus ids, firmware; the
 * include: rule, the golden file's values win): errors as gd_ck_spec_load_all, -EINVAL
 * when the file has no manifest or includes a suite. */
int gd_ck_suite_load_golden(const char *name, const char *golden, const struct gd_machine *m,
			    const char *xml, struct gd_ck_spec *spec, char *err, size_t errlen);
/* The golden file of this machine (gd_check --write-golden): version, name and the
 * manifest section, written whole or not at all: 0 or -errno. */
int gd_ck_write_golden(const char *path, const struct gd_machine *m, const char *xml);
/* Checks a suite cannot run here as SKIP items with the reason (connectx-selftest without
 * a ConnectX or a GPU); nothing for other specs. */
void gd_ck_suite_preflight(const struct gd_ck_spec *s, const struct gd_machine *m,
			   const char *xml, struct gd_ck_report *r);
/* A spec file with its include: resolved (a suite or another spec file, recursively;
 * its own values override the included ones). Errors as gd_ck_spec_load, with
 * FILE:LINE:COLUMN for an unknown suite or an include loop. */
int gd_ck_spec_load_all(const char *path, const struct gd_machine *m, const char *xml,
			struct gd_ck_spec *spec, char *err, size_t errlen);

#endif
