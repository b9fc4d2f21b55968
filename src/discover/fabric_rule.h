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
/* Whether the passive side of a proxy bandwidth run with N proxy threads over
 * provider prov opens N domains, each driven by a progress thread of its own
 * (bench_ofi.c threads_of): where its progress call places every write or read
 * of the peer (shm's command queue), one thread cannot keep up with N. On the
 * H200 (2026-11-30, 8 B, 4 threads, libfabric 1.22): shm with
 * FI_SHM_DISABLE_CMA=1 1.646 x the one-thread side (A/A 1.018), shm's CMA
 * path 1.045 (A/A 1.004); tcp, whose target's kernel moves the bytes, 0.763
 * (A/A 0.962): there the passive side keeps one domain and one thread. */
bool gd_fabric_ofi_passive_threads(const char *prov);

/* THE rule for the CUDA copies of a run the proxy's GPU producer kernel drives
 * (issue 32 item 3; the proxy asks it: proxy_bench.c gpu_producer_refused).
 * What waits is CUDA work in another process on the GPU the producer kernel
 * spins on: it runs only in that kernel's time slices (2.4 ms on an H200),
 * unless both processes are clients of one MPS server (doc/perf-data/
 * 2026-11-30-s43-gpu8-h200: an 8 B host-to-device copy 2,379 us beside
 * another process's spinning kernel, 5.3 us alone, 5.6 us under MPS; a
 * device-to-device or device-to-host copy 5.8 / 9.7 us beside it). The
 * provider's copies that land in GPU memory run in the target's process (shm
 * runs each atomic there, places small writes and sends there); so:
 *   NONE   the provider moves no GPU memory with CUDA copies (gd_fabric_ofi_
 *          copies_gpu), or the target's buffer is host memory (its copies
 *          there only read the initiator's GPU memory: device to host), or
 *          GPU memory of another GPU or another host (no slicing there)
 *   MPS    the target's buffer is on the producer's GPU and both processes
 *          are MPS clients there, over a provider validated so
 *          (gd_fabric_ofi_mps_validated): the copies run beside the kernel
 *   TARGET_OUTSIDE_MPS  the same, but the target's process is not an MPS
 *          client: it waits for every slice (420 ops/s); refused, the fix is
 *          to start the target under the same MPS daemon
 *   WAIT   on the producer's GPU without MPS on the producer's side (or a
 *          provider not validated under MPS): the copies wait; the proxy
 *          refuses what is measured to crawl (atomics, writes and sends below
 *          64 KiB) and runs the rest
 * Before the target's HELLO is known the proxy asks with this side's own
 * buffer and MPS state in the target's place (both sides alike, as every
 * measured run was); with it, the target's own (wire version 5). One MPS
 * server per GPU is assumed: two daemons serving one GPU are not told apart,
 * nor two MIG instances of one GPU (one PCI address: the rule is cautious). */
#define GD_FABRIC_GPU_MAX 32		/* a PCI address, "0000:18:00.0" */
struct gd_gpu_side {
	char gpu[GD_FABRIC_GPU_MAX];	/* the producer's GPU; the target's buffer's GPU,
					 * "" host memory ("" for the producer: not known) */
	bool mps;			/* the side's process is an MPS client on that GPU */
	bool other_host;		/* the side channel's two ends are two addresses: another host
					 * (its GPU is not ours), unless the provider reaches only
					 * this host (shm, sm2) */
};
enum gd_gpu_copies {
	GD_GPU_COPIES_NONE,
	GD_GPU_COPIES_MPS,
	GD_GPU_COPIES_TARGET_OUTSIDE_MPS,
	GD_GPU_COPIES_WAIT,
};
enum gd_gpu_copies gd_fabric_ofi_gpu_copies(const char *prov, const struct gd_gpu_side *producer,
					    const struct gd_gpu_side *target);

#endif
