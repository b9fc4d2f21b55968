/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The fabric options (fabric_opts.h). */
#include "config.h"

#include "fabric_opts.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "jsonout.h"
#include "log.h"
#include "opts.h"

enum {
	O_FABRIC = GD_FABRIC_O_FABRIC,
	O_PROVIDER = GD_FABRIC_O_PROVIDER,
	O_DOMAIN = GD_FABRIC_O_DOMAIN,
	O_FABRIC_NAME = GD_FABRIC_O_FABRIC_NAME,
	O_EP = GD_FABRIC_O_EP,
};

static const char *const ep_names[] = { "rdm", "msg", NULL };

const struct gd_opt gd_fabric_opt_table[] = {
	{ "fabric", 0, GD_REQ_ARG, "FABRIC", "verbs or ofi (libfabric); default: verbs when an RDMA device speaks RC, ofi+efa when the only devices are EFA; without RDMA devices give --fabric ofi (exit 3 otherwise)", O_FABRIC },
	{ "provider", 0, GD_REQ_ARG, "PROVIDER", "ofi: libfabric provider as fi_info names it (tcp, shm, efa, verbs, cxi)", O_PROVIDER },
	{ "domain", 0, GD_REQ_ARG, "NAME", "ofi: libfabric domain (fi_info -p PROV lists them; default: the provider's first)", O_DOMAIN },
	{ "fabric-name", 0, GD_REQ_ARG, "NAME", "ofi: libfabric fabric name (default: the provider's first)", O_FABRIC_NAME },
	{ "ep", 0, GD_REQ_ARG, "TYPE", "ofi: endpoint type rdm (FI_EP_RDM, default) or msg (FI_EP_MSG, connected)", O_EP },
	{ NULL },
};

const struct gd_opt_words gd_fabric_opt_words[] = {
	{ "fabric", gd_fabric_names },
	{ "ep", ep_names },
	{ NULL, NULL },
};

bool gd_fabric_have_ofi(void)
{
#ifdef HAVE_LIBFABRIC
	return true;
#else
	return false;
#endif
}

const char *gd_ep_type_name(enum gd_ep_type e)
{
	return (unsigned)e < GD_EP_COUNT ? ep_names[e] : "?";
}

void gd_fabric_opts_defaults(struct gd_fabric_opts *o)
{
	memset(o, 0, sizeof(*o));
	o->fabric = GD_FABRIC_AUTO;
	o->ep = GD_EP_RDM;
}

/* What the side channel carries of a name (wire.c: printable ASCII), less the space
 * and, for provider and domain names, '/': refused here, not by the peer's HELLO check. */
static bool name_ok(const char *arg, size_t cap, bool slash)
{
	if (!*arg || strlen(arg) >= cap)
		return false;
	for (const unsigned char *c = (const unsigned char *)arg; *c; c++)
		if (*c <= 0x20 || *c >= 0x7f || (!slash && *c == '/'))
			return false;
	return true;
}

static int name_arg(char *dst, size_t cap, const char *opt, const char *arg)
{
	if (!name_ok(arg, cap, false)) {
		gd_error("invalid value '%s' for %s: expected a name as fi_info prints it (at most "
			 "%zu printable ASCII characters, no spaces or '/'), e.g. tcp",
			 gd_excerpt(arg), opt, cap - 1);
		return -EINVAL;
	}
	snprintf(dst, cap, "%s", arg);
	return 0;
}

int gd_fabric_opts_handle(struct gd_fabric_opts *o, int id, const char *arg)
{
	int v = 0, ret;

	switch (id) {
	case O_FABRIC:
		if (gd_fabric_parse(arg, &o->fabric)) {
			gd_error("invalid value '%s' for --fabric: expected one of " GD_FABRIC_NAMES,
				 gd_excerpt(arg));
			return -EINVAL;
		}
		snprintf(o->why, sizeof(o->why), "--fabric");
		return 0;
	case O_PROVIDER:
		o->given = 1;
		return name_arg(o->provider, sizeof(o->provider), "--provider", arg);
	case O_DOMAIN:
		o->given = 1;
		return name_arg(o->domain, sizeof(o->domain), "--domain", arg);
	case O_FABRIC_NAME:
		o->given = 1;
		if (!name_ok(arg, sizeof(o->fabric_name), true)) {
			gd_error("invalid value '%s' for --fabric-name: expected fi_info's fabric "
				 "name (at most %zu printable ASCII characters, no spaces), e.g. "
				 "127.0.0.0/8", gd_excerpt(arg), sizeof(o->fabric_name) - 1);
			return -EINVAL;
		}
		snprintf(o->fabric_name, sizeof(o->fabric_name), "%s", arg);
		return 0;
	case O_EP:
		o->given = 1;
		ret = gd_opt_choice("--ep", arg, ep_names, &v);
		o->ep = (enum gd_ep_type)v;
		return ret;
	}
	return 1;
}

enum gd_fabric_kind gd_fabric_named(const struct gd_fabric_opts *o)
{
	if (o->fabric != GD_FABRIC_AUTO)
		return o->fabric;
	return o->given ? GD_FABRIC_OFI : GD_FABRIC_AUTO;
}

int gd_fabric_decide(struct gd_fabric_opts *o, const struct gd_machine *m, const char *verbs_why)
{
	if (gd_fabric_named(o) == GD_FABRIC_AUTO && verbs_why) {
		o->fabric = GD_FABRIC_VERBS;
		snprintf(o->why, sizeof(o->why), "%s", verbs_why);
	}
	return gd_fabric_opts_resolve(o, m);
}

int gd_fabric_opts_resolve(struct gd_fabric_opts *o, const struct gd_machine *m)
{
	if (o->fabric == GD_FABRIC_AUTO) {
		struct gd_fabric_choice c;

		gd_fabric_choose(m, &c);
		/* --provider and friends name libfabric: they choose ofi */
		o->fabric = o->given ? gd_fabric_named(o) : c.fabric;
		o->no_device = !o->given && c.no_device;
		snprintf(o->why, sizeof(o->why), "%s", o->given ? "--provider/--ep given" : c.why);
		if (o->fabric == GD_FABRIC_OFI && !o->given && !gd_fabric_have_ofi()) {
			o->fabric = GD_FABRIC_VERBS; /* verbs then says what is missing */
			o->no_device = 0;
			snprintf(o->why, sizeof(o->why), "%s, and built without libfabric", c.why);
		}
		if (!o->provider[0] && o->fabric == GD_FABRIC_OFI)
			snprintf(o->provider, sizeof(o->provider), "%s", c.provider[0] ? c.provider : "tcp");
	}
	if (o->fabric == GD_FABRIC_VERBS && o->given) {
		gd_error("--provider, --domain, --fabric-name and --ep choose a libfabric endpoint; "
			 "add --fabric ofi (or drop them for verbs)");
		return -EINVAL;
	}
	if (o->fabric == GD_FABRIC_OFI && !gd_fabric_have_ofi()) {
		gd_error("--fabric ofi: this gdperf was built without libfabric; install libfabric-dev "
			 "and configure --with-libfabric, or use --fabric verbs");
		return -ENOTSUP;
	}
	if (o->fabric == GD_FABRIC_OFI && !o->provider[0])
		snprintf(o->provider, sizeof(o->provider), "tcp");
	return 0;
}

void gd_fabric_opts_header(const struct gd_fabric_opts *o, char *buf, size_t len)
{
	if (o->fabric != GD_FABRIC_OFI)
		snprintf(buf, len, "verbs (%s)", o->why[0] ? o->why : "default");
	else
		snprintf(buf, len, "ofi, provider %s, fabric %s, domain %s, endpoint %s (%s)",
			 o->provider, o->fabric_name[0] ? o->fabric_name : "-",
			 o->domain[0] ? o->domain : "-", gd_ep_type_name(o->ep), o->why);
}

void gd_fabric_opts_to_json(const struct gd_fabric_opts *o, struct json_object *obj)
{
	bool ofi = o->fabric == GD_FABRIC_OFI;

	gd_json_add_str(obj, "fabric", gd_fabric_decided_name(o->fabric));
	gd_json_add_str(obj, "fabric_reason", o->why);
	gd_json_add_str_or_null(obj, "provider", ofi ? o->provider : NULL);
	gd_json_add_str_or_null(obj, "fabric_name", ofi && o->fabric_name[0] ? o->fabric_name : NULL);
	gd_json_add_str_or_null(obj, "domain", ofi && o->domain[0] ? o->domain : NULL);
	gd_json_add_str_or_null(obj, "ep_type", ofi ? gd_ep_type_name(o->ep) : NULL);
}
