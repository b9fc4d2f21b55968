/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The fabric options of every benchmark tool (plain data, no libfabric):
 *   --fabric verbs|ofi   which implementation of the fabric seam (fabric.h)
 *   --provider NAME      libfabric provider as fi_info names it (tcp, shm, efa, verbs, cxi)
 *   --domain NAME        libfabric domain (fi_info's domain: "lo", "mlx5_0", ...)
 *   --fabric-name NAME   libfabric fabric (fi_info's fabric: "127.0.0.0/8", ...)
 *   --ep rdm|msg         libfabric endpoint type: FI_EP_RDM (default) or FI_EP_MSG
 * Without --fabric the rule of discover/fabric_rule.h decides (the header says why).
 * Both sides must agree on fabric, provider and endpoint type (wire.c's check).
 */
#ifndef GD_FABRIC_OPTS_H
#define GD_FABRIC_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "fabric_rule.h"
#include "opts.h"

enum gd_ep_type { GD_EP_RDM = 0, GD_EP_MSG, GD_EP_COUNT };

#define GD_FABRIC_NAME_MAX 64

struct gd_fabric_opts {
	enum gd_fabric_kind fabric;		/* AUTO until resolved, then VERBS or OFI */
	char provider[GD_FABRIC_PROV_MAX];	/* "" = the rule's (ofi) */
	char domain[GD_FABRIC_NAME_MAX];	/* "" = any */
	char fabric_name[GD_FABRIC_NAME_MAX];	/* "" = any */
	enum gd_ep_type ep;
	char why[GD_FABRIC_WHY_MAX];		/* how the fabric was chosen ("--fabric", the rule's reason) */
	uint32_t given;				/* 1: --provider/--domain/--fabric-name/--ep given */
	uint32_t no_device;			/* 1: AUTO resolved to ofi tcp because the machine has
						 * no RDMA device: a plan, not the user's word (the
						 * engine refuses to run it, exit 3) */
};

#define GD_FABRIC_OPT_BASE 950
/* The options' ids: a tool with rows of its own for some of them (gd_devinfo's
 * help text) hands those ids to gd_fabric_opts_handle, the one parser. */
enum gd_fabric_opt_id {
	GD_FABRIC_O_FABRIC = GD_FABRIC_OPT_BASE,
	GD_FABRIC_O_PROVIDER,
	GD_FABRIC_O_DOMAIN,
	GD_FABRIC_O_FABRIC_NAME,
	GD_FABRIC_O_EP,
};
extern const struct gd_opt gd_fabric_opt_table[];
extern const struct gd_opt_words gd_fabric_opt_words[]; /* --fabric, --ep */

void gd_fabric_opts_defaults(struct gd_fabric_opts *o);
/* 0 handled, -EINVAL bad value (printed), 1 not a fabric option. */
int gd_fabric_opts_handle(struct gd_fabric_opts *o, int id, const char *arg);
/* Resolve AUTO with the rule (m: the machine whose sysfs lists the devices);
 * refuse libfabric options with verbs and --fabric ofi without libfabric.
 * Without RDMA devices AUTO resolves to ofi tcp with no_device set: gd_check
 * plans with it and passes the fabric explicitly; the engine refuses it. */
int gd_fabric_opts_resolve(struct gd_fabric_opts *o, const struct gd_machine *m);
/*
 * THE decision of a run's fabric, asked by the bench tools (bench_opts.c) and
 * gd_check (check_machine.c), in this order: the user's --fabric (or a spec's
 * fabric:); libfabric when --provider/--domain/--fabric-name/--ep were given;
 * verbs when the run names what only verbs has (verbs_why says what, e.g.
 * "-d names verbs"; NULL when nothing does); else the machine's rule
 * (gd_fabric_choose). Then gd_fabric_opts_resolve's checks. 0 or -errno
 * (printed) as gd_fabric_opts_resolve.
 */
int gd_fabric_decide(struct gd_fabric_opts *o, const struct gd_machine *m, const char *verbs_why);
/* The fabric the options themselves name, before anything else is asked: the
 * user's --fabric (or a spec's fabric:); OFI when --provider, --domain,
 * --fabric-name or --ep were given (they name libfabric); else AUTO. The first
 * step of gd_fabric_decide, asked alone by gd_check's spec loader. */
enum gd_fabric_kind gd_fabric_named(const struct gd_fabric_opts *o);
const char *gd_ep_type_name(enum gd_ep_type e); /* "rdm", "msg" */
/* "ofi, provider tcp, endpoint rdm (no RDMA device: libfabric tcp)" */
void gd_fabric_opts_header(const struct gd_fabric_opts *o, char *buf, size_t len);
struct json_object;
void gd_fabric_opts_to_json(const struct gd_fabric_opts *o, struct json_object *obj);
/* Whether this build has libfabric (HAVE_LIBFABRIC). */
bool gd_fabric_have_ofi(void);

#endif
