/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * libfabric discovery: the providers registered, and every entry
 * fi_getinfo offers on this machine (provider, fabric, domain, endpoint
 * type, capabilities, mr_mode, sizes), as fi_info shows them, for
 * gd_devinfo --fabric ofi and gd_doctor's provider checks.
 *
 * ofi_info.c is built only with libfabric (HAVE_LIBFABRIC), which it loads
 * on first use (ofi_lib.h); without it the
 * entry points below are stubs that return -ENOSYS, and callers say
 * GD_OFI_BUILD_FIX.
 */
#ifndef GD_OFI_INFO_H
#define GD_OFI_INFO_H

#include "config.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#define GD_OFI_BUILD_FIX "this build has no libfabric: install libfabric-dev and rebuild with " \
	"./configure --with-libfabric"

struct gd_ofi_prov {
	char name[64];             /* "tcp", as fi_info -l lists it */
	char version[16];          /* "117.0" */
};

struct gd_ofi_entry {
	char prov[64];             /* "tcp;ofi_rxm": the provider stack, as fi_info prints it */
	char version[16];          /* provider version "117.0" */
	char fabric[128];          /* fabric name: "127.0.0.1/32", "shm", "efa" */
	char domain[128];          /* domain name: "lo", "efa_0-rdm" */
	char ep_type[16];          /* "FI_EP_RDM", "FI_EP_MSG", "FI_EP_DGRAM" */
	char addr_format[24];      /* "FI_SOCKADDR_IN", "FI_ADDR_EFA" */
	uint64_t caps;             /* FI_MSG, FI_RMA, FI_ATOMIC, FI_HMEM... */
	int mr_mode;               /* FI_MR_LOCAL, FI_MR_VIRT_ADDR, FI_MR_PROV_KEY... */
	size_t max_msg_size;       /* ep_attr */
	size_t inject_size;        /* tx_attr */
	size_t mr_key_size;        /* domain_attr */
	size_t max_order_raw_size; /* ep_attr: ordered read-after-write bytes */
	int atomic_asked;          /* FI_ATOMIC not in caps, but offered when asked for
				    * (fi_getinfo with FI_ATOMIC in the hints' caps, as
				    * gd_atomic_* ask): rxm's layered entries */
};

struct gd_ofi_list {
	char version[16];          /* fi_version(): "1.17" */
	struct gd_ofi_prov *provs; /* registered providers (fi_info -l) */
	size_t nprovs;
	struct gd_ofi_entry *v;    /* entries (fi_info [-p PROV]) */
	size_t n;
	const char *filter;        /* the provider asked for, or NULL */
};

/* A probe of one provider: open a fabric and a domain of its first RDM entry. */
struct gd_ofi_probe {
	struct gd_ofi_entry e;     /* the first entry fi_getinfo gave */
	size_t nentries;           /* entries of that provider with FI_EP_RDM and FI_RMA|FI_MSG */
	const char *step;          /* the call that failed ("fi_getinfo", "fi_fabric"...), or NULL */
	int err;                   /* its libfabric error (negative), 0 when usable */
	char errstr[384];          /* fi_strerror of it */
};

#ifdef HAVE_LIBFABRIC
#include "ofi_lib.h"

/* Every entry fi_getinfo offers (prov NULL: no hints, as plain fi_info) or
 * those of one provider (fi_info -p's hints); each entry without FI_ATOMIC is
 * marked atomic_asked when an entry of its provider, fabric, domain and
 * endpoint type has it once asked for. 0, -ENODATA when none, -ENOMEM, -ELIBACC when libfabric
 * cannot be loaded (gd_ofi_lib_error() says why). */
int gd_ofi_discover(const char *prov, struct gd_ofi_list *l);
void gd_ofi_list_free(struct gd_ofi_list *l);
void gd_ofi_print_text(const struct gd_ofi_list *l, FILE *out);
int gd_ofi_print_json(const struct gd_ofi_list *l, FILE *out);
/* 0 when PROV opens a fabric and a domain (FI_EP_RDM, FI_MSG|FI_RMA); else -EIO with p->step set
 * (-ELIBACC with step "dlopen" when libfabric cannot be loaded). */
int gd_ofi_probe(const char *prov, struct gd_ofi_probe *p);
/* caps or mr_mode as fi_tostr writes them ("FI_MSG | FI_RMA"), into buf */
const char *gd_ofi_caps_str(uint64_t caps, char *buf, size_t len);
const char *gd_ofi_mr_mode_str(int mr_mode, char *buf, size_t len);
/* whether the entry has the capability bit named ("FI_HMEM") */
int gd_ofi_has_hmem(const struct gd_ofi_entry *e);
#else
static inline const char *gd_ofi_lib_error(void) { return GD_OFI_BUILD_FIX; }
static inline int gd_ofi_discover(const char *prov, struct gd_ofi_list *l)
{
	(void)prov, (void)l;
	return -ENOSYS;
}
static inline void gd_ofi_list_free(struct gd_ofi_list *l) { (void)l; }
static inline void gd_ofi_print_text(const struct gd_ofi_list *l, FILE *out) { (void)l, (void)out; }
static inline int gd_ofi_print_json(const struct gd_ofi_list *l, FILE *out)
{
	(void)l, (void)out;
	return -ENOSYS;
}
static inline int gd_ofi_probe(const char *prov, struct gd_ofi_probe *p)
{
	(void)prov, (void)p;
	return -ENOSYS;
}
static inline int gd_ofi_has_hmem(const struct gd_ofi_entry *e)
{
	(void)e;
	return 0;
}
#endif

#endif
