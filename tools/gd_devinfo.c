/* gd_devinfo: RDMA devices, ports, GIDs, netdevs and bonds in one report. */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "devinfo_report.h"
#include "gd.h"
#include "log.h"
#include "opts.h"
#include "sysfs.h"

enum { O_DEV = 1, O_JSON, O_ROOT };

static const struct gd_opt devinfo_opts[] = {
	{ "ib-dev", 'd', GD_REQ_ARG, "DEV", "report only this RDMA device (e.g. mlx5_bond_0)", O_DEV },
	{ "json", 0, GD_NO_ARG, NULL, "print JSON Lines (one record per device and bond, then a summary)", O_JSON },
	{ "sysfs-root", 0, GD_REQ_ARG, "DIR", "read sysfs and procfs under DIR (also $GDPERF_SYSFS_ROOT)", O_ROOT },
	{ NULL },
};
static const struct gd_opt *const tables[] = { gd_common_opts, devinfo_opts, NULL };
static const struct gd_cmd cmd = {
	"[options]",
	"Report RDMA devices, ports, GID tables, the netdev map and bonds.",
	tables,
};

struct args {
	const char *dev;
	const char *root;
	bool json;
};

static int handle(void *ctx, int id, const char *arg)
{
	struct args *a = ctx;

	switch (id) {
	case O_DEV:
		a->dev = arg;
		return 0;
	case O_JSON:
		a->json = true;
		return 0;
	case O_ROOT:
		a->root = arg;
		return 0;
	}
	return -EINVAL;
}

static void no_devices(void)
{
	if (gd_sysfs_is_fixture()) {
		gd_error("no RDMA devices under %s/sys/class/infiniband", gd_sysfs_root());
		return;
	}
	gd_error("no RDMA devices found (/sys/class/infiniband is empty or absent)");
	gd_info("load the driver of your NIC (modprobe mlx5_ib), or create a Soft-RoCE device: "
		"modprobe rdma_rxe && rdma link add rxe0 type rxe netdev eth0");
}

static void unknown_device(const char *dev)
{
	struct gd_devinfo all;
	char list[512] = "";
	size_t n = 0;

	gd_error("no RDMA device named '%s'", dev);
	if (gd_devinfo_collect(NULL, false, &all))
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

int main(int argc, char **argv)
{
	struct args a = { 0 };
	struct gd_devinfo di;
	bool help;
	int ret;

	gd_log_init(argv[0]);
	ret = gd_opts_parse(&cmd, argc, argv, handle, &a, &help);
	if (ret < 0)
		return GD_EXIT_USAGE;
	if (help)
		return GD_EXIT_OK;
	if (ret < argc) {
		gd_error("unexpected argument '%s'; try '%s --help'", argv[ret], gd_progname());
		return GD_EXIT_USAGE;
	}
	gd_sysfs_set_root(a.root);
	ret = gd_devinfo_collect(a.dev, true, &di);
	if (ret == -ENODEV && a.dev) {
		unknown_device(a.dev);
		return GD_EXIT_USAGE;
	}
	if (ret) {
		gd_error("cannot read %s: %s", gd_sysfs_errpath()[0] ? gd_sysfs_errpath() :
			 "/sys/class/infiniband", strerror(-ret));
		return GD_EXIT_ENV;
	}
	if (!di.nhcas) {
		if (a.json) /* machine readers still get a summary saying "devices": 0 */
			gd_devinfo_print_json(&di, stdout);
		no_devices();
		gd_devinfo_free(&di);
		return GD_EXIT_ENV;
	}
	if (a.json)
		ret = gd_devinfo_print_json(&di, stdout);
	else
		gd_devinfo_print_text(&di, stdout);
	fflush(stdout);
	gd_devinfo_log_warnings(&di);
	if (gd_devinfo_nerrors(&di)) {
		gd_devinfo_log_errors(&di);
		gd_info("the report above shows what could be read; the files named here are "
			"missing or malformed in this sysfs tree");
		ret = -EIO;
	}
	gd_devinfo_free(&di);
	return ret ? GD_EXIT_ENV : GD_EXIT_OK;
}
