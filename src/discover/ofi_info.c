/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* libfabric discovery (ofi_info.h): what fi_info shows, as gdperf's report and JSON. */
#include "ofi_info.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <rdma/fabric.h>
#include <rdma/fi_domain.h>
#include <rdma/fi_errno.h>

#include "jsonout.h"
#include "log.h"
#include "ofi_lib.h"

#define OFI_API FI_VERSION(FI_MAJOR_VERSION, FI_MINOR_VERSION)

/* fi_info's own hints with -p: accept every mode and every mr_mode but the old two */
static struct fi_info *ofi_hints(const char *prov)
{
	struct fi_info *h = gd_fi_allocinfo();

	if (!h)
		return NULL;
	h->mode = ~0ULL;
	h->domain_attr->mode = ~0ULL;
	h->domain_attr->mr_mode = ~(FI_MR_BASIC | FI_MR_SCALABLE);
	if (prov && !(h->fabric_attr->prov_name = strdup(prov))) {
		gd_fi_freeinfo(h);
		return NULL;
	}
	return h;
}

static void version_str(uint32_t v, char *buf, size_t len)
{
	snprintf(buf, len, "%u.%u", FI_MAJOR(v), FI_MINOR(v));
}

/* fi_tostr's result (a thread-local buffer) copied, its trailing ", " or blanks cut */
static const char *tostr(const void *val, enum fi_type type, char *buf, size_t len)
{
	size_t n;

	snprintf(buf, len, "%s", gd_fi_tostr(val, type));
	n = strlen(buf);
	while (n && (buf[n - 1] == ' ' || buf[n - 1] == ',' || buf[n - 1] == '\n'))
		buf[--n] = '\0';
	return buf;
}

const char *gd_ofi_caps_str(uint64_t caps, char *buf, size_t len)
{
	return tostr(&caps, FI_TYPE_CAPS, buf, len);
}

const char *gd_ofi_mr_mode_str(int mr_mode, char *buf, size_t len)
{
	return tostr(&mr_mode, FI_TYPE_MR_MODE, buf, len);
}

int gd_ofi_has_hmem(const struct gd_ofi_entry *e)
{
	return !!(e->caps & FI_HMEM);
}

static void entry_from(struct gd_ofi_entry *e, const struct fi_info *fi)
{
	memset(e, 0, sizeof(*e));
	snprintf(e->prov, sizeof(e->prov), "%s", fi->fabric_attr->prov_name);
	version_str(fi->fabric_attr->prov_version, e->version, sizeof(e->version));
	snprintf(e->fabric, sizeof(e->fabric), "%s", fi->fabric_attr->name ? fi->fabric_attr->name : "");
	snprintf(e->domain, sizeof(e->domain), "%s", fi->domain_attr->name ? fi->domain_attr->name : "");
	tostr(&fi->ep_attr->type, FI_TYPE_EP_TYPE, e->ep_type, sizeof(e->ep_type));
	tostr(&fi->addr_format, FI_TYPE_ADDR_FORMAT, e->addr_format, sizeof(e->addr_format));
	e->caps = fi->caps;
	e->mr_mode = fi->domain_attr->mr_mode;
	e->max_msg_size = fi->ep_attr->max_msg_size;
	e->inject_size = fi->tx_attr->inject_size;
	e->mr_key_size = fi->domain_attr->mr_key_size;
	e->max_order_raw_size = fi->ep_attr->max_order_raw_size;
}

/* The registered providers: fi_info -l (FI_PROV_ATTR_ONLY). */
static int list_providers(struct gd_ofi_list *l)
{
	struct fi_info *all = NULL, *fi;
	int ret = gd_fi_getinfo(OFI_API, NULL, NULL, FI_PROV_ATTR_ONLY, NULL, &all);

	if (ret == -FI_ENODATA)
		return 0;
	if (ret)
		return -EIO;
	for (fi = all; fi; fi = fi->next)
		l->nprovs++;
	l->provs = calloc(l->nprovs ? l->nprovs : 1, sizeof(*l->provs));
	if (!l->provs) {
		gd_fi_freeinfo(all);
		return -ENOMEM;
	}
	l->nprovs = 0;
	for (fi = all; fi; fi = fi->next) {
		struct gd_ofi_prov *p = &l->provs[l->nprovs++];

		snprintf(p->name, sizeof(p->name), "%s", fi->fabric_attr->prov_name);
		version_str(fi->fabric_attr->prov_version, p->version, sizeof(p->version));
	}
	gd_fi_freeinfo(all);
	return 0;
}

static bool same_place(const struct gd_ofi_entry *e, const struct fi_info *fi)
{
	char ep[sizeof(e->ep_type)];

	tostr(&fi->ep_attr->type, FI_TYPE_EP_TYPE, ep, sizeof(ep));
	return !strcmp(e->prov, fi->fabric_attr->prov_name) && !strcmp(e->ep_type, ep) &&
	       !strcmp(e->fabric, fi->fabric_attr->name ? fi->fabric_attr->name : "") &&
	       !strcmp(e->domain, fi->domain_attr->name ? fi->domain_attr->name : "");
}

/* Atomics a provider offers only when asked for (rxm over tcp: fi_getinfo
 * without FI_ATOMIC in the hints' caps leaves it out, yet gd_atomic_bw runs):
 * each entry without FI_ATOMIC whose place has it when asked is marked. */
static void mark_atomic_asked(struct gd_ofi_list *l, const char *prov)
{
	struct fi_info *hints = ofi_hints(prov), *all = NULL;

	if (!hints)
		return;
	hints->caps = FI_ATOMIC;
	if (gd_fi_getinfo(OFI_API, NULL, NULL, 0, hints, &all))
		all = NULL; /* none offers atomics: nothing to mark */
	gd_fi_freeinfo(hints);
	for (size_t i = 0; i < l->n; i++)
		for (struct fi_info *fi = all; fi && !(l->v[i].caps & FI_ATOMIC); fi = fi->next)
			if ((fi->caps & FI_ATOMIC) && same_place(&l->v[i], fi)) {
				l->v[i].atomic_asked = 1;
				break;
			}
	gd_fi_freeinfo(all);
}

int gd_ofi_discover(const char *prov, struct gd_ofi_list *l)
{
	/* plain fi_info passes no hints; fi_info -p PROV passes its own (ofi_hints) */
	struct fi_info *hints = prov ? ofi_hints(prov) : NULL, *all = NULL, *fi;
	int ret;

	memset(l, 0, sizeof(*l));
	l->filter = prov;
	if (gd_ofi_lib_load())
		return -ELIBACC;
	version_str(gd_fi_version(), l->version, sizeof(l->version));
	if (prov && !hints)
		return -ENOMEM;
	ret = list_providers(l);
	if (!ret)
		ret = gd_fi_getinfo(OFI_API, NULL, NULL, 0, hints, &all);
	if (hints)
		gd_fi_freeinfo(hints);
	if (ret == -FI_ENODATA)
		return -ENODATA;
	if (ret)
		return ret < 0 && ret > -4096 ? ret : -EIO;
	for (fi = all; fi; fi = fi->next)
		l->n++;
	l->v = calloc(l->n, sizeof(*l->v));
	if (!l->v) {
		gd_fi_freeinfo(all);
		return -ENOMEM;
	}
	l->n = 0;
	for (fi = all; fi; fi = fi->next)
		entry_from(&l->v[l->n++], fi);
	gd_fi_freeinfo(all);
	mark_atomic_asked(l, prov);
	return 0;
}

void gd_ofi_list_free(struct gd_ofi_list *l)
{
	free(l->provs);
	free(l->v);
	memset(l, 0, sizeof(*l));
}

/* "FI_EP_RDM" -> "rdm" for the table */
static const char *ep_short(const char *ep)
{
	static char buf[16];
	size_t i = 0;

	if (!strncmp(ep, "FI_EP_", 6))
		ep += 6;
	for (; ep[i] && i < sizeof(buf) - 1; i++)
		buf[i] = (char)(ep[i] >= 'A' && ep[i] <= 'Z' ? ep[i] - 'A' + 'a' : ep[i]);
	buf[i] = '\0';
	return buf;
}

static const char *yes_no(int b)
{
	return b ? "yes" : "no";
}

/* a size, or "any" for no limit (2^53 bytes or more: gd_json_no_limit, as the JSON) */
static const char *size_str(size_t v, char *buf, size_t len)
{
	if (gd_json_no_limit(v))
		return "any";
	snprintf(buf, len, "%zu", v);
	return buf;
}

static void print_entry(const struct gd_ofi_entry *e, FILE *out)
{
	char caps[512], mr[256], msg[24], raw[24];

	fprintf(out, "%-14s %-7s %-5s %-24s %-12s %-4s %-6s %-4s %12s %6zu\n", e->prov, e->version,
		ep_short(e->ep_type), e->fabric, e->domain, yes_no(!!(e->caps & FI_RMA)),
		e->atomic_asked ? "ask" : yes_no(!!(e->caps & FI_ATOMIC)), yes_no(!!(e->caps & FI_HMEM)),
		size_str(e->max_msg_size, msg, sizeof(msg)), e->inject_size);
	fprintf(out, "    caps: %s\n", gd_ofi_caps_str(e->caps, caps, sizeof(caps)));
	fprintf(out, "    mr_mode: %s; addr_format %s; mr_key_size %zu; max_order_raw_size %s\n",
		e->mr_mode ? gd_ofi_mr_mode_str(e->mr_mode, mr, sizeof(mr)) : "0 (none)",
		e->addr_format, e->mr_key_size, size_str(e->max_order_raw_size, raw, sizeof(raw)));
}

void gd_ofi_print_text(const struct gd_ofi_list *l, FILE *out)
{
	fprintf(out, "libfabric %s: %zu providers registered (fi_info -l)\n", l->version, l->nprovs);
	for (size_t i = 0; i < l->nprovs; i++)
		fprintf(out, "%s%s %s", i % 6 ? ", " : i ? ",\n  " : "  ", l->provs[i].name,
			l->provs[i].version);
	fprintf(out, "\n\n%zu entries%s%s%s (fi_info%s%s)\n", l->n, l->filter ? " of provider '" : "",
		l->filter ? l->filter : "", l->filter ? "'" : "", l->filter ? " -p " : "",
		l->filter ? l->filter : "");
	fprintf(out, "%-14s %-7s %-5s %-24s %-12s %-4s %-6s %-4s %12s %6s\n", "PROVIDER", "VERSION",
		"EP", "FABRIC", "DOMAIN", "RMA", "ATOMIC", "HMEM", "MAX_MSG", "INJECT");
	for (size_t i = 0; i < l->n; i++)
		print_entry(&l->v[i], out);
	for (size_t i = 0; i < l->n; i++)
		if (l->v[i].atomic_asked) {
			fprintf(out, "\nATOMIC ask: the provider offers FI_ATOMIC only when asked for "
				"(fi_info -c FI_ATOMIC), as gd_atomic_bw and gd_atomic_lat ask\n");
			break;
		}
}

/* "FI_MSG, FI_RMA" (or "FI_MSG | FI_RMA") as ["FI_MSG", "FI_RMA"] */
static json_object *flag_array(const char *s)
{
	json_object *a = json_object_new_array();
	char buf[512], *save = NULL;

	snprintf(buf, sizeof(buf), "%s", s);
	for (char *t = strtok_r(buf, " |,", &save); t; t = strtok_r(NULL, " |,", &save))
		json_object_array_add(a, json_object_new_string(t));
	return a;
}

static json_object *entry_json(const struct gd_ofi_entry *e)
{
	json_object *rec = gd_json_record("ofi_info");
	char buf[512];

	gd_json_add_str(rec, "provider", e->prov);
	gd_json_add_str(rec, "provider_version", e->version);
	gd_json_add_str(rec, "fabric", e->fabric);
	gd_json_add_str(rec, "domain", e->domain);
	gd_json_add_str(rec, "ep_type", e->ep_type);
	gd_json_add_str(rec, "addr_format", e->addr_format);
	json_object_object_add(rec, "caps", flag_array(gd_ofi_caps_str(e->caps, buf, sizeof(buf))));
	json_object_object_add(rec, "mr_mode", e->mr_mode ?
			       flag_array(gd_ofi_mr_mode_str(e->mr_mode, buf, sizeof(buf))) :
			       json_object_new_array());
	gd_json_add_bool(rec, "rma", !!(e->caps & FI_RMA));
	gd_json_add_bool(rec, "atomic", !!(e->caps & FI_ATOMIC));
	gd_json_add_bool(rec, "atomic_asked", e->atomic_asked);
	gd_json_add_bool(rec, "hmem", !!(e->caps & FI_HMEM));
	gd_json_add_limit(rec, "max_msg_size", e->max_msg_size);
	gd_json_add_u64(rec, "inject_size", e->inject_size);
	gd_json_add_u64(rec, "mr_key_size", e->mr_key_size);
	gd_json_add_limit(rec, "max_order_raw_size", e->max_order_raw_size);
	return rec;
}

int gd_ofi_print_json(const struct gd_ofi_list *l, FILE *out)
{
	json_object *rec;
	int ret = 0;

	for (size_t i = 0; i < l->nprovs && !ret; i++) {
		rec = gd_json_record("ofi_provider");
		gd_json_add_str(rec, "provider", l->provs[i].name);
		gd_json_add_str(rec, "provider_version", l->provs[i].version);
		ret = gd_json_emit(rec, out);
	}
	for (size_t i = 0; i < l->n && !ret; i++)
		ret = gd_json_emit(entry_json(&l->v[i]), out);
	if (ret)
		return ret;
	rec = gd_json_record("ofi_summary");
	gd_json_add_str(rec, "libfabric", l->version);
	gd_json_add_str_or_null(rec, "provider_filter", l->filter);
	gd_json_add_int(rec, "providers", (int64_t)l->nprovs);
	gd_json_add_int(rec, "entries", (int64_t)l->n);
	return gd_json_emit(rec, out);
}

/* ---- probe: can this provider be opened here (fabric and domain)? ---- */

static int probe_fail(struct gd_ofi_probe *p, const char *step, int err)
{
	p->step = step;
	p->err = err;
	snprintf(p->errstr, sizeof(p->errstr), "%s", gd_fi_strerror(err < 0 ? -err : err));
	return -EIO;
}

static int probe_open(struct fi_info *fi, struct gd_ofi_probe *p)
{
	struct fid_fabric *fab = NULL;
	struct fid_domain *dom = NULL;
	int ret = gd_fi_fabric(fi->fabric_attr, &fab, NULL);

	if (ret)
		return probe_fail(p, "fi_fabric", ret);
	ret = fi_domain(fab, fi, &dom, NULL);
	if (ret)
		probe_fail(p, "fi_domain", ret);
	else
		fi_close(&dom->fid);
	fi_close(&fab->fid);
	return ret ? -EIO : 0;
}

int gd_ofi_probe(const char *prov, struct gd_ofi_probe *p)
{
	struct fi_info *hints = ofi_hints(prov), *all = NULL;
	int ret;

	memset(p, 0, sizeof(*p));
	if (gd_ofi_lib_load()) {
		gd_fi_freeinfo(hints);
		p->step = "dlopen " GD_OFI_SONAME;
		snprintf(p->errstr, sizeof(p->errstr), "%s", gd_ofi_lib_error());
		return -ELIBACC;
	}
	if (!hints)
		return -ENOMEM;
	hints->ep_attr->type = FI_EP_RDM;
	hints->caps = FI_MSG | FI_RMA;
	ret = gd_fi_getinfo(OFI_API, NULL, NULL, 0, hints, &all);
	gd_fi_freeinfo(hints);
	if (ret)
		return probe_fail(p, "fi_getinfo", ret);
	for (struct fi_info *fi = all; fi; fi = fi->next)
		p->nentries++;
	entry_from(&p->e, all);
	ret = probe_open(all, p);
	gd_fi_freeinfo(all);
	return ret;
}
