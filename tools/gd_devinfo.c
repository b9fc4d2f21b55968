/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_devinfo: RDMA devices, ports, GIDs, netdevs and bonds in one report. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "devinfo_report.h"
#include "devname.h"
#include "fabric_opts.h"
#include "fabric_rule.h"
#include "gd.h"
#include "log.h"
#include "ofi_info.h"
#include "opts.h"
#include "rdma_dev.h"
#include "sysfs.h"

enum { O_DEV = 1, O_JSON, O_PEER };


static const struct gd_opt devinfo_opts[] = {
	{ "ib-dev", 'd', GD_REQ_ARG, "DEV", "report only this RDMA device (e.g. mlx5_bond_0)", O_DEV },
	{ "json", 0, GD_NO_ARG, NULL, "print JSON Lines (one record per device and bond, then a summary)", O_JSON },
	{ "peer", 0, GD_REQ_ARG, "HOST", "also mark the device, port and GID a test toward HOST would use", O_PEER },
	{ "fabric", 0, GD_REQ_ARG, "verbs|ofi", "verbs: RDMA devices (default); ofi: libfabric providers, fabrics, domains, endpoint types and capabilities (fi_info)", GD_FABRIC_O_FABRIC },
	{ "provider", 0, GD_REQ_ARG, "PROVIDER", "libfabric: only this provider (tcp, shm, efa...); implies --fabric ofi, as in the bench tools", GD_FABRIC_O_PROVIDER },
	{ NULL },
};
static const struct gd_opt *const tables[] = { gd_common_opts, devinfo_opts, gd_sysfs_opts, NULL };
/* --completion=providers: the providers fi_getinfo offers entries of, each
 * once, as --provider takes them (a layered "tcp;ofi_rxm" by its core "tcp") */
static int complete_providers(FILE *out)
{
	struct gd_ofi_list l;

	if (gd_ofi_discover(NULL, &l) == 0)
		for (size_t i = 0; i < l.n; i++) {
			size_t len = strcspn(l.v[i].prov, ";"), j = 0;

			while (j < i && (strcspn(l.v[j].prov, ";") != len ||
					 strncmp(l.v[j].prov, l.v[i].prov, len)))
				j++;
			if (j == i)
				fprintf(out, "%.*s\n", (int)len, l.v[i].prov);
		}
	gd_ofi_list_free(&l);
	return 0;
}

/* --completion=devices: the names discovery finds, for the shell's -d;
 * --completion=providers: libfabric's, for --provider */
static int complete(const struct gd_machine *m, const char *what, FILE *out)
{
	struct gd_hca *hcas = NULL;
	size_t n = 0;

	if (!strcmp(what, "providers"))
		return complete_providers(out);
	if (strcmp(what, "devices") != 0)
		return -EINVAL;
	if (gd_rdma_discover(m, &hcas, &n) == 0)
		for (size_t i = 0; i < n; i++)
			fprintf(out, "%s\n", hcas[i].name);
	gd_rdma_free(hcas, n);
	return 0;
}

static const struct gd_cmd cmd = {
	"[options]",
	"Report RDMA devices, ports, GID tables, the netdev map and bonds.",
	tables,
	complete,
	(const struct gd_opt_words *const[]){ (const struct gd_opt_words[]){
		{ "fabric", gd_fabric_names }, { NULL, NULL } }, NULL },
	NULL, /* every row has its own help */
};

struct args {
	struct gd_machine m;
	const char *dev;
	const char *peer;
	bool json;
	/* --fabric and --provider, parsed as the bench tools parse them; fabric
	 * AUTO until --fabric or the bench tools' rule */
	struct gd_fabric_opts fab;
};

static int handle(void *ctx, int id, const char *arg)
{
	struct args *a = ctx;

	switch (id) {
	case O_DEV:
		if (gd_dev_name_check(arg, "-d/--ib-dev"))
			return -EINVAL;
		a->dev = arg;
		return 0;
	case O_JSON:
		a->json = true;
		return 0;
	case O_PEER:
		a->peer = arg;
		return 0;
	case GD_FABRIC_O_FABRIC:
	case GD_FABRIC_O_PROVIDER:
		return gd_fabric_opts_handle(&a->fab, id, arg);
	}
	return -EINVAL;
}

static void no_devices(const struct gd_machine *m)
{
	if (m->fixture) {
		gd_error("no RDMA devices under %s/sys/class/infiniband", m->root);
		return;
	}
	gd_error("no RDMA devices found (/sys/class/infiniband is empty or absent)");
	gd_info("%s", GD_RDMA_NODEV_FIX);
	gd_info("without one, libfabric's providers (tcp on any machine, shm on one host) are "
		"what the tools can run over: %s --fabric ofi lists them", gd_progname());
}

static void unknown_device(const struct gd_machine *m, const char *dev)
{
	struct gd_devinfo all;
	char list[512] = "";
	size_t n = 0;

	gd_error("no RDMA device named '%s' (-d/--ib-dev)", gd_excerpt(dev));
	if (gd_devinfo_collect(m, NULL, false, &all))
		return;
	for (size_t i = 0; i < all.nhcas; i++)
		n += snprintf(list + n, n < sizeof(list) ? sizeof(list) - n : 0, "%s%s",
			      i ? ", " : "", all.hcas[i].name);
	if (all.nhcas)
		gd_info("devices here: %s", list);
	else
		gd_info("there are no RDMA devices here");
	gd_devinfo_free(&all);
}

/* Print the report, then what is wrong with the machine or the tree. */
static int report(const struct args *a, const struct gd_devinfo *di)
{
	int ret;

	if (a->json)
		gd_devinfo_print_json(di, stdout);
	else
		gd_devinfo_print_text(di, stdout);
	ret = gd_tool_flush_stdout();
	gd_devinfo_log_warnings(di);
	if (gd_devinfo_nerrors(di)) {
		gd_devinfo_log_errors(di);
		gd_info("the report above shows what could be read; the files named here are "
			"missing or malformed in this sysfs tree");
		ret = GD_EXIT_ENV;
	}
	return ret;
}

/* --fabric ofi: libfabric's providers and entries instead of the RDMA devices */
static int ofi_report(const struct args *a)
{
	struct gd_ofi_list l;
	const char *env = getenv("FI_PROVIDER"); /* limits libfabric to its list (hostile D12) */
	const char *prov = a->fab.provider[0] ? a->fab.provider : NULL;
	int ret = gd_ofi_discover(prov, &l);

	if (ret == -ENOSYS || ret == -ELIBACC) {
		gd_error("--fabric ofi: %s", ret == -ENOSYS ? GD_OFI_BUILD_FIX : gd_ofi_lib_error());
		return GD_EXIT_ENV;
	}
	if (ret == -ENODATA && prov) {
		gd_error("libfabric offers no entry for provider '%s' here", gd_excerpt(prov));
		if (env)
			gd_info("FI_PROVIDER=%s in the environment limits libfabric to its list: "
				"unset it or add the provider to it", gd_excerpt(env));
		gd_info("the providers: %s --fabric ofi; fi_info -l lists those registered", gd_progname());
		gd_ofi_list_free(&l);
		return GD_EXIT_USAGE;
	}
	if (ret && ret != -ENODATA) {
		gd_error("libfabric's fi_getinfo failed: %s", strerror(-ret));
		gd_ofi_list_free(&l);
		return GD_EXIT_ENV;
	}
	if (a->json)
		gd_ofi_print_json(&l, stdout);
	else
		gd_ofi_print_text(&l, stdout);
	ret = gd_tool_flush_stdout();
	if (!ret && !l.n) {
		gd_error("libfabric offers no provider entry on this machine%s%s%s",
			 env ? " (FI_PROVIDER=" : "", env ? gd_excerpt(env) : "",
			 env ? " in the environment limits libfabric to its list: unset it)" : "");
		ret = GD_EXIT_ENV;
	}
	gd_ofi_list_free(&l);
	return ret;
}

/* --provider names libfabric: the bench tools' rule decides what it means
 * without --fabric (gd_fabric_opts_resolve: it chooses ofi) and with --fabric
 * verbs (refused, naming the fix). Without --provider, --fabric alone decides:
 * the RDMA devices unless --fabric ofi. Returns an exit code (0: go on). */
static int resolve_fabric(struct args *a)
{
	int ret;

	if (!a->fab.given)
		return 0;
	ret = gd_fabric_decide(&a->fab, &a->m, NULL);
	if (ret)
		return ret == -ENOTSUP ? GD_EXIT_ENV : GD_EXIT_USAGE;
	return 0;
}

int main(int argc, char **argv)
{
	struct gd_devinfo_peer peer;
	struct args a = { 0 };
	struct gd_devinfo di;
	int ret;

	gd_fabric_opts_defaults(&a.fab);
	ret = gd_tool_parse(&cmd, argc, argv, handle, &a, &a.m);
	if (ret != GD_TOOL_CONTINUE)
		return ret;
	ret = resolve_fabric(&a);
	if (ret)
		return ret;
	if (a.fab.fabric == GD_FABRIC_OFI && (a.dev || a.peer || a.m.fixture)) {
		gd_error("--fabric ofi reads libfabric on this machine: it takes no %s",
			 a.dev ? "-d/--ib-dev" : a.peer ? "--peer" : "--sysfs-root");
		return GD_EXIT_USAGE;
	}
	if (a.fab.fabric == GD_FABRIC_OFI)
		return ofi_report(&a);
	ret = gd_devinfo_collect(&a.m, a.dev, true, &di);
	if (ret == -ENODEV && a.dev) {
		unknown_device(&a.m, a.dev);
		return GD_EXIT_USAGE;
	}
	if (ret) {
		gd_error("cannot read %s: %s", gd_sysfs_errpath()[0] ? gd_sysfs_errpath() :
			 "/sys/class/infiniband", strerror(-ret));
		return GD_EXIT_ENV;
	}
	if (di.nhcas && a.peer && gd_devinfo_peer(&a.m, a.dev, a.peer, &peer)) {
		gd_devinfo_free(&di);
		return GD_EXIT_USAGE;
	}
	di.peer = a.peer ? &peer : NULL;
	if (di.nhcas) {
		ret = report(&a, &di);
		/* the rules found nothing for the peer: the test could not run here */
		if (ret == GD_EXIT_OK && a.peer && gd_devinfo_peer_status(&peer))
			ret = GD_EXIT_ENV;
	} else {
		if (a.json) /* machine readers still get a summary saying "devices": 0 */
			gd_devinfo_print_json(&di, stdout);
		no_devices(&a.m);
		ret = GD_EXIT_ENV;
	}
	gd_devinfo_free(&di);
	return ret;
}
