/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * THE rule for the fabric a benchmark uses when --fabric is not given, asked
 * through gd_fabric_decide (fabric_opts.h) by the benchmark engine and
 * gd_check; gd_doctor's EFA checks ask gd_fabric_dev_is_efa (one rule, one place):
 *   verbs          when an RDMA device that speaks RC exists (mlx5, rxe, ...);
 *   ofi + efa      when the only RDMA devices are EFA (SRD, no RC: the verbs
 *                  engine cannot run there);
 *   none           when there is no RDMA device at all: a benchmark does not
 *                  fall back to libfabric tcp on its own (a node whose NIC
 *                  driver failed to load would report a TCP figure as the
 *                  NIC's); the choice names tcp as what a user may ask for
 *                  (--fabric ofi), and no_device says the rule refuses.
 * Decided from the machine's sysfs (/sys/class/infiniband/<dev>/device/driver).
 */
#ifndef GD_FABRIC_RULE_H
#define GD_FABRIC_RULE_H

#include <stdbool.h>
#include <stddef.h>

#include "machine.h"

enum gd_fabric_kind { GD_FABRIC_AUTO = 0, GD_FABRIC_VERBS, GD_FABRIC_OFI, GD_FABRIC_COUNT };

#define GD_FABRIC_PROV_MAX 32
#define GD_FABRIC_WHY_MAX 160

struct gd_fabric_choice {
	enum gd_fabric_kind fabric;		/* VERBS or OFI */
	char provider[GD_FABRIC_PROV_MAX];	/* ofi: "efa", "tcp"; verbs: "" */
	char why[GD_FABRIC_WHY_MAX];		/* "no RDMA device", "rxe0 speaks RC" */
	bool no_device;				/* no RDMA device: only the user's --fabric ofi
						 * runs (fabric OFI, provider tcp: the plan
						 * a user may ask for) */
};

/* What a benchmark without --fabric says when the rule finds no RDMA device:
 * gd_devinfo's fix (GD_RDMA_NODEV_FIX), then the libfabric way. */
#define GD_FABRIC_NODEV_OFI_FIX "or run over libfabric with --fabric ofi [--provider tcp|shm]"


/* The default fabric of machine m. Never fails: without a readable
 * /sys/class/infiniband the machine has no RDMA device (no_device set). */
void gd_fabric_choose(const struct gd_machine *m, struct gd_fabric_choice *c);
/* Whether RDMA device dev is an EFA (driver efa, or a name efa*). */
int gd_fabric_dev_is_efa(const struct gd_machine *m, const char *dev);
const char *gd_fabric_kind_name(enum gd_fabric_kind f); /* "auto", "verbs", "ofi" */
/* A decided fabric's name: "ofi", else "verbs" (AUTO, not decided, reads as verbs,
 * as gd_fabric_traits_of reads it, fabric.h): the reports' "fabric". */
const char *gd_fabric_decided_name(enum gd_fabric_kind f);
/* THE parse of a fabric's name, for --fabric, a spec's fabric: and gd_devinfo:
 * "verbs" or "ofi" (gd_fabric_names, in enum order from GD_FABRIC_VERBS).
 * 0 with *f set, -EINVAL for anything else (nothing printed: the caller says
 * where the name came from, listing GD_FABRIC_NAMES). */
int gd_fabric_parse(const char *name, enum gd_fabric_kind *f);
extern const char *const gd_fabric_names[]; /* "verbs", "ofi", NULL */
#define GD_FABRIC_NAMES "verbs, ofi"
/* Whether libfabric provider prov (its name, or a layered "tcp;ofi_rxm") moves
 * GPU memory with CUDA copies instead of a NIC's DMA: the software providers
 * (shm, sm2, tcp, udp, sockets). In the target's process such a copy waits for
 * the time slice of a kernel another process runs on the same GPU (2.4 ms on
 * an H200 under the proxy's persistent producer kernel), unless both
 * processes are clients of one MPS server. */
bool gd_fabric_ofi_copies_gpu(const char *prov);
/* Of those, the providers whose CUDA copies ran validated beside the proxy's
 * GPU producer kernel with both processes clients of one MPS server (the GPU
 * tier's gpu-mps cells, H200, 2026-11-30): shm. tcp in libfabric 1.22 offers
 * no FI_HMEM; sm2, udp and sockets were not run. */
bool gd_fabric_ofi_mps_validated(const char *prov);

#endif
