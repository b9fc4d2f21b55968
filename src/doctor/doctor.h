/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_doctor's core: a registry of GPUDirect readiness checks. Each check
 * emits one result per subject (the machine, a GPU, a NIC port...) with a
 * status, the evidence it read (file and value) and a one-line fix. Every
 * sysfs/procfs read goes through sysfs.h, so a fixture tree stands in for
 * the machine; checks that need the live driver or device then SKIP with
 * the reason.
 *
 * RDMA devices, ports, GIDs and bonds come from the discovery API
 * (rdma_dev.h); GPUs, the GPU-NIC pairs, their path classes and the advice
 * thresholds from the locality module (locality.h), which the checks wrap
 * with evidence.
 */
#ifndef GD_DOCTOR_H
#define GD_DOCTOR_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "locality.h"
#include "rdma_dev.h"
#include "topo.h"

enum gd_check_status { GD_CHECK_PASS, GD_CHECK_WARN, GD_CHECK_FAIL, GD_CHECK_SKIP };
#define GD_CHECK_NSTATUS 4

const char *gd_check_status_str(enum gd_check_status s);

#define GD_EVIDENCE_MAX 12

struct gd_evidence {
	char source[160]; /* a file as on a live machine, or an API call */
	char value[256];
};

struct gd_check_result {
	const char *check;        /* the check's id */
	char subject[96];         /* "" (the machine), "GPU 0000:18:00.0", "mlx5_0 port 1" */
	enum gd_check_status status;
	char summary[320];
	char fix[256];            /* "" when nothing to do */
	struct gd_evidence ev[GD_EVIDENCE_MAX];
	size_t nev;
};

struct gd_doc_nic {
	char name[64];            /* "mlx5_0" */
	char pci[GD_BDF_LEN];     /* "" when it has no PCI parent (rxe) */
	char driver[32];          /* "mlx5_core" */
	int numa;
};

struct gd_doc_gpu {
	char pci[GD_BDF_LEN];
	int nic;                  /* its nearest NIC in topo.loc.nics, -1 none */
	enum gd_loc_class cls;    /* to that NIC */
};

struct gd_doctor {
	const struct gd_machine *m; /* the machine examined (set by the caller) */
	bool live;                /* not a fixture root: live-only checks run */
	bool json;
	FILE *out;
	const char *only_dev;     /* -d: limit RDMA checks to this device */
	const char *only_check;   /* --check: run checks whose id starts with this */
	const char *xml;          /* --topology: GPUs and NICs placed by an hwloc XML */
	struct gd_topo topo;      /* topo.loc: the locality module's view and decisions */
	struct gd_doc_gpu *gpus;
	size_t ngpus;
	struct gd_doc_nic *nics;  /* one per hca, same order (the RDMA checks) */
	struct gd_hca *hcas;      /* gd_rdma_discover(), -d applied */
	size_t nnics;
	int counts[GD_CHECK_NSTATUS];
};

/* The part of a machine's bring-up a check examines, in the order gd_check's
 * ladder climbs it (check_ladder.c places each check on its rung from it). */
enum gd_doc_stage {
	GD_DOC_STAGE_STACK = 0,   /* the software stack: kernel, drivers, libraries, limits */
	GD_DOC_STAGE_DEVICES,     /* RDMA devices, ports and links */
	GD_DOC_STAGE_TOPOLOGY,    /* where GPUs and NICs sit */
	GD_DOC_STAGE_GPUDIRECT,   /* GPU memory registration and its path */
	GD_DOC_STAGE_GPU_INITIATED, /* what IBGDA needs */
	GD_DOC_STAGE_COUNT
};

struct gd_check {
	const char *id;           /* "nvidia.driver" */
	const char *title;        /* one line for --list and the man page */
	void (*run)(struct gd_doctor *d, const struct gd_check *c);
	bool live_only;           /* SKIP under a fixture root */
	bool needs_loc;           /* reads the GPUs' placement: hwloc is loaded for it */
	enum gd_doc_stage stage;  /* 0 (left out): the software stack */
	unsigned about;           /* enum gd_doc_about bits, 0: the whole machine */
};

/* What a check is about, so that a suite written for a machine without it leaves
 * the check out (gd_check --example suite: check_example.c asks the registry). */
enum gd_doc_about {
	GD_DOC_ABOUT_GPU = 1 << 0,   /* GPUs, their drivers, GPU memory registration */
	GD_DOC_ABOUT_VERBS = 1 << 1, /* RDMA devices through verbs (not used over libfabric) */
};

extern const struct gd_check gd_checks[];
/* The registry's check of that id, NULL when none. */
const struct gd_check *gd_check_find(const char *id);

/* Discover the NICs and, only when a check that will run needs it, the GPUs
 * and each GPU's nearest NIC (locality.h: a whole-machine hwloc load). */
int gd_doctor_init(struct gd_doctor *d);
void gd_doctor_fini(struct gd_doctor *d);
/* Run every registered check (or those matching only_check). Returns the
 * number of results, or -ENOENT if only_check matched no check. */
int gd_doctor_run(struct gd_doctor *d);
/* Print the summary record/line. */
void gd_doctor_summary(struct gd_doctor *d);
/* The checks, as text or JSON Lines (records of type "check_info"). */
void gd_doctor_list(FILE *out, bool json);
/* Every check id, one a line (--completion=checks). */
void gd_doctor_list_ids(FILE *out);
/* Whether a check id starts with prefix (NULL: any), for --check before anything is read. */
bool gd_doctor_check_exists(const char *prefix);

/* Helpers for the checks. */
void gd_res_init(struct gd_check_result *r, const struct gd_check *c, const char *subject_fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gd_res_ev(struct gd_check_result *r, const char *source, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
void gd_res_fix(struct gd_check_result *r, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Set status and summary, and print the result. */
void gd_res_emit(struct gd_doctor *d, struct gd_check_result *r, enum gd_check_status s,
		 const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* One-shot SKIP with a reason. */
void gd_res_skip(struct gd_doctor *d, const struct gd_check *c, const char *subject,
		 const char *reason);

/* The check functions, by group (doctor_*.c). */
void gd_chk_kernel(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_nvidia_driver(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_cuda_driver(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_cuda_dmabuf_attr(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_cuda_dmabuf_export(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_peermem(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_registration(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_regkey(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_bar1(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_memlock(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_gdrcopy(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_dev_infiniband(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_rdma_devices(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_devx(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_ibgda_probe(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_path(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_numa(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_link(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_acs(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_iommu(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_port(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_mtu(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_gid(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_bond(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_roce_trust(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_roce_pfc(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_roce_ecn(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_roce_tclass(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_ofi_providers(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_efa_device(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_efa_provider(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_efa_perftest(struct gd_doctor *d, const struct gd_check *c);
void gd_chk_efa_gdr(struct gd_doctor *d, const struct gd_check *c);

/* Parsers exposed for unit tests. */
/* "Max locked memory  65536  65536  bytes" in /proc/self/limits: soft limit,
 * UINT64_MAX for unlimited. */
int gd_parse_memlock(const char *limits, unsigned long long *soft);
/* Whether /proc/devices text lists a character device by name. */
bool gd_proc_devices_has(const char *text, const char *name);

#endif
