/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check's spec as data: the types of a loaded spec, its tests and sections, and gd_check's own
 * limits on their values. Below every file of the loader (spec.c walks the document; spec_*.c load
 * one section or one group of a test's keys each) and every file that reads a spec: it declares
 * no function, so it depends on nothing of gdperf's but the engine's parameters.
 */
#ifndef GD_CHECK_SPEC_TYPES_H
#define GD_CHECK_SPEC_TYPES_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "bench_params.h"

#define GD_CK_NAME 64
#define GD_CK_MAX_THRESH 8
#define GD_CK_MAX_HOSTS 2
/* tolerate: error counters a test tolerates, and the largest change it may tolerate */
#define GD_CK_MAX_TOLERATE 8
#define GD_CK_MAX_TOLERATED 1000000000
/* Mappings and lists inside each other: a spec uses 5 at most (the spec, tests, a test,
 * pairs, hosts); deeper is refused before the document is built. */
#define GD_CK_SPEC_MAX_DEPTH 16
/* Values, lists and mappings (aliases counted): refused above this before the document, which
 * takes ~100 bytes a node, is built. */
#define GD_CK_SPEC_MAX_NODES 65536

/* What a threshold compares. */
enum gd_ck_metric {
	GD_CK_BW_AVG,	/* min_bw: average bandwidth */
	GD_CK_BW_PEAK,	/* min_peak_bw */
	GD_CK_MSG_RATE,	/* min_msg_rate */
	GD_CK_LAT,	/* max_lat: the median, as perftest users quote latency */
	GD_CK_LAT_AVG,	/* max_lat_avg: the mean */
	GD_CK_LAT_P50,	/* max_lat_p50: the median, named */
	GD_CK_LAT_P99,	/* max_lat_p99 */
	GD_CK_LAT_P999,	/* max_lat_p999 */
	GD_CK_LAT_MAX,	/* max_lat_max: the largest sample */
	GD_CK_NMETRIC
};
/* How its value is given. */
enum gd_ck_tkind {
	GD_CK_ABS,	/* Gb/s, us or Mpps */
	GD_CK_LINE,	/* % of the port's line rate */
	GD_CK_PCIE,	/* % of the PCIe limit of the pair's path */
};

struct gd_ck_threshold {
	enum gd_ck_metric metric;
	enum gd_ck_tkind kind;
	double value;		/* Gb/s, us, Mpps, or percent */
	char text[48];		/* as written, for reports */
};

/* Which devices a test runs on. */
enum gd_ck_pairs {
	GD_CK_EACH_NIC_LOOPBACK,	/* every RDMA device (or `device`) talking to itself */
	GD_CK_EACH_GPU_NEAREST_NIC,	/* every GPU with its nearest NIC, loopback */
	GD_CK_NIC_GPU_MATRIX,		/* every NIC x every GPU and host memory per NUMA node */
	GD_CK_HOSTS,			/* two hosts, or MPI ranks (pattern) */
	GD_CK_ALL_NICS,			/* every NIC at once (check_allnics.c) */
};
/* one-to-many, many-to-one (fans, check_sched.h): a root rank and every other rank, each pair
 * alone, then all at once; their congestion factor (check_fan.c) */
enum gd_ck_pattern { GD_CK_PAT_PAIRWISE, GD_CK_PAT_RING, GD_CK_PAT_ALL_PAIRS,
		     GD_CK_PAT_ONE_TO_MANY, GD_CK_PAT_MANY_TO_ONE };
#define GD_CK_PAT_FAN(p) ((p) == GD_CK_PAT_ONE_TO_MANY || (p) == GD_CK_PAT_MANY_TO_ONE)

/* The bring-up ladder (doc/check.md): a failing rung stops the rungs above it. */
enum gd_ck_rung {
	GD_CK_RUNG_NONE,	/* outside the ladder */
	GD_CK_RUNG_STACK,	/* 1 the software stack: kernel, drivers, libraries, limits */
	GD_CK_RUNG_DEVICES,	/* 2 devices and links: present, ports ACTIVE at their rate */
	GD_CK_RUNG_TOPOLOGY,	/* 3 GPUs and NICs where the spec wants them */
	GD_CK_RUNG_GPUDIRECT,	/* 4 GPUDirect engaged: GPU memory registered, on its path */
	GD_CK_RUNG_P2P,		/* 5 point-to-point bandwidth and latency */
	GD_CK_RUNG_GPU_INITIATED, /* 6 the proxy and IBGDA initiators */
	GD_CK_RUNG_NODES,	/* 7 many nodes: tests between hosts */
	GD_CK_NRUNG
};
/* Retries of a missed performance threshold: the spec's default and range. */
#define GD_CK_RETRIES_DEFAULT 2
#define GD_CK_RETRIES_MAX 5
#define GD_CK_REPEAT_MAX 25		/* repeat: runs whose median is judged */

/* How a test must have run (expect:): "" / -1 = not required. A run that differs (a
 * silent fallback) is a FAIL with what was expected and what ran. */
struct gd_ck_expect {
	char registration[16];	/* "dma-buf", "peer-memory", "host" */
	int path;		/* enum gd_loc_class: this class or nearer */
	int staging;		/* 0 or 1 */
	char initiator[16];	/* one of gd_initiator_names (init_opts.h) */
	char producer[8];	/* proxy: "gpu" or "host" */
	char fabric[8];		/* "verbs", "ofi" */
	char provider[32];	/* a libfabric provider */
	bool given;
};
enum gd_ck_memory { GD_CK_MEM_HOST, GD_CK_MEM_GPU };

struct gd_ck_test {
	char name[GD_CK_NAME];
	int line, column;		/* where the test starts in the spec */
	bool bond_balance;		/* check: bond-balance */
	enum gd_bench_op op;
	enum gd_bench_kind kind;
	uint64_t size;			/* bytes */
	uint64_t sweep_min, sweep_max;	/* 0: no sweep */
	uint32_t duration_s;		/* 0: iterations */
	uint64_t iters;			/* 0: the tool's default */
	uint32_t qps;
	/* the run's traffic class and rate (keys sl, tclass, rate_limit in Gb/s,
	 * rate_limit_type): the tools' -S, --tclass, --rate_limit (roce_opts.h) */
	struct gd_roce_opts roce;
	enum gd_ck_memory memory;
	enum gd_initiator initiator;	/* GD_INIT_CPU (default); the names: gd_initiator_names */
	char device[GD_CK_NAME];	/* "" = every device */
	enum gd_ck_pairs pairs;
	enum gd_ck_pattern pattern;	/* GD_CK_HOSTS under MPI */
	char hosts[GD_CK_MAX_HOSTS][256];
	size_t nhosts;
	int root;			/* a fan's root rank (default 0) */
	double min_congestion;		/* a fan's min_congestion_factor; 0: none */
	struct gd_ck_threshold th[GD_CK_MAX_THRESH];
	size_t nth;
	double min_slave_share;		/* bond-balance: percent each slave must carry */
	/* fabric, provider, domain, endpoint: AUTO = the rule of fabric_rule.h on this machine */
	struct gd_fabric_opts fab;
	int rung;			/* enum gd_ck_rung; NONE: its kind's (gd_ck_test_rung) */
	int retries;			/* of a missed threshold; -1: the spec's */
	int repeat;			/* runs judged on their median (check_repeat.c); 0: one */
	struct gd_ck_expect expect;
	/* port counters (check_counters.c): the RDMA port whose counters judge a run where its
	 * fabric names none (counters_port: DEV[:PORT]; "" none), and the error counters the
	 * test tolerates up to a bound each (tolerate: {NAME: N}) */
	char ctr_dev[GD_CK_NAME];
	int ctr_port;
	struct gd_ck_tolerate {
		char name[48];
		uint64_t max;
	} tolerate[GD_CK_MAX_TOLERATE];
	size_t ntolerate;
};

/* Expectations of the devices: one entry per name (or "*" for all). */
struct gd_ck_device {
	char name[GD_CK_NAME];		/* "*": every RDMA device */
	int line, column;
	int port;			/* default 1 */
	char state[24];			/* "ACTIVE", "" unchecked */
	double min_rate_gbps;		/* 0 unchecked */
	int mtu;			/* active MTU in bytes, 0 unchecked */
	char firmware[32];		/* "" unchecked */
	char gid_type[16];		/* "RoCE v2", "IB", "" unchecked */
	char bond_mode[32];		/* "802.3ad", "" unchecked */
	int bond_slaves_up;		/* -1 unchecked */
};

struct gd_ck_topology {
	int gpus, nics, numa_nodes;	/* -1 unchecked */
	int worst_class;		/* enum gd_loc_class: the worst allowed GPU-to-nearest-NIC class; -1 */
	bool same_numa;			/* every GPU's nearest NIC on its NUMA node */
	bool given;
};

/* The manifest of a SKU (spec_manifest.c, check_manifest.c). */
struct gd_ck_mf_nic {
	int line, column;		/* first: spec_manifest.c fills them for every entry */
	char name[GD_CK_NAME];
	int port;			/* default 1 */
	char firmware[128];		/* POSIX ERE matched whole, "" unchecked */
	double rate_gbps;		/* exactly, 0 unchecked */
	char numa[8];			/* "0", "" unchecked */
	char state[24];			/* the port's state ("ACTIVE"), "" unchecked */
	char busid[24];			/* the NIC's PCI address, "" unchecked */
	struct gd_ck_mf_pcie {
		int width;		/* lanes at least, 0 unchecked */
		double gts;		/* GT/s at least, 0 unchecked */
	} pcie;
	int bond_slaves_up;		/* slaves up on the NIC's bond, when bond_given */
	bool bond_given;
};
struct gd_ck_mf_gpu {
	int line, column;
	char busid[24];			/* "0000:18:00.0" */
	char numa[8];
	struct gd_ck_mf_pcie pcie;
};
struct gd_ck_manifest {
	bool given;
	int gpus, nics;			/* -1 unchecked */
	struct gd_ck_mf_nic *nic;
	size_t nnic;
	struct gd_ck_mf_gpu *gpu;
	size_t ngpu;
};

/* A baseline of measured figures from good nodes of a SKU (gd_check --baseline writes it beside
 * the manifest: spec_baseline.c loads it, baseline.c writes it, baseline_judge.c judges). */
struct gd_ck_bl_check {
	int line, column;		/* first: where the entry starts in the file */
	char check[160];		/* the report's check name, "TEST RUN: METRIC" */
	char test[GD_CK_NAME], run[128], stat[24];	/* its parts, for people */
	uint64_t size;			/* bytes the figure was measured at, 0: unknown */
	char unit[12];			/* "Gb/s", "us", "Mpps" */
	bool higher;			/* higher is better (bandwidth, rate); else latency */
	double median, mad;		/* mad: scaled by 1.4826 (robust.h) */
	int n;				/* nodes */
};
/* The node facts a baseline records and a report carries (struct gd_ck_sku's, as text). */
#define GD_CK_BL_FACTS 6
extern const char *const gd_ck_bl_fact_keys[GD_CK_BL_FACTS];
struct gd_ck_baseline {
	bool given;
	int nodes;			/* good nodes it was built from */
	double k;			/* robust distances allowed on the bad side */
	double min_spread_pct;		/* the spread's floor, % of the median */
	char sku[256];			/* "gpus=8 gpu_model=H100 nics=8 nic_model=MT4129" */
	char spec_sha256[65];		/* of the reports' spec */
	char fact[GD_CK_BL_FACTS][128];	/* kernel, nvidia_driver, cuda, rdma_core, libfabric, gdperf */
	struct gd_ck_bl_check *c;
	size_t n;
};

/* fleet: outlier (a pair this % worse than its test's fleet median is a FAIL) */
#define GD_CK_FLEET_OUTLIER_PCT 10.0

struct gd_ck_spec {
	char path[4096];
	char sha256[65];		/* of the file's bytes, as sha256sum prints it */
	char name[128];
	char include[256];		/* a built-in suite or a spec file, "" none */
	int include_line, include_column;
	char suite[32];			/* the built-in suite it is or includes, "" none */
	int retries;			/* of a missed threshold, -1: not given (GD_CK_RETRIES_DEFAULT) */
	struct gd_ck_topology topo;
	struct gd_ck_device *devices;
	size_t ndevices;
	char (*doctor)[GD_CK_NAME];	/* check ids that must PASS */
	int (*doctor_at)[2];		/* the line and column of each */
	size_t ndoctor;
	struct gd_ck_test *tests;
	size_t ntests;
	double fleet_outlier_pct;	/* fleet: outlier; 0: off (spec_fleet.c) */
	bool fleet_given;		/* the spec has a fleet section (include: keeps it) */
	struct gd_ck_manifest manifest;
	struct gd_ck_baseline baseline;	/* baseline: (spec_baseline.c), given: false when none */
};

/* gd_check's own limits, for the values only gd_check uses. */
#define GD_CK_MAX_COUNT 4096		/* GPUs, NICs, NUMA nodes a spec may expect */
#define GD_CK_MAX_NUMA 4095		/* a NUMA node's number */
#define GD_CK_MAX_BOND_SLAVES 255
#define GD_CK_MAX_FAN_FACTOR 4096	/* a fan's aggregate: at most its pairs' count (< ranks) */
#define GD_CK_MAX_DURATION_S 86400	/* a timed test: below gd_ck_deadline_s's cap of a week */

#endif
