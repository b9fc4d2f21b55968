/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_topo: GPU/NIC PCIe, NVLink and NUMA topology, like `nvidia-smi topo -m`, with NIC advice. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gd.h"
#include "log.h"
#include "nvlink.h"
#include "opts.h"
#include "readfile.h"
#include "sysfs.h"
#include "topo.h"
#include "topo_advice.h"
#include "topo_report.h"

enum { O_TOPOLOGY = 1, O_NVLINKS, O_FORMAT, O_JSON, O_PCI_ONLY, O_ADVICE, O_EXPORT };

/* in enum gd_topo_format's order */
static const char *const formats[] = { "compact", "nvidia-smi", "json", "table", NULL };

static const struct gd_opt topo_opts[] = {
	{ "topology", 't', GD_REQ_ARG, "FILE", "read an hwloc XML topology instead of this machine", O_TOPOLOGY },
	{ "nvlinks", 'n', GD_REQ_ARG, "FILE", "read NVLink counts from FILE instead of NVML", O_NVLINKS },
	{ "format", 'f', GD_REQ_ARG, "FMT", "table (default: the matrix aligned), compact (one blank between cells, for scripts), nvidia-smi or json", O_FORMAT },
	{ "json", 'j', GD_NO_ARG, NULL, "same as --format=json (JSON Lines)", O_JSON },
	{ "pci-only", 'p', GD_NO_ARG, NULL, "PCIe classes even between NVLink-connected GPUs (topo -mp)", O_PCI_ONLY },
	{ "advice", 'a', GD_NO_ARG, NULL, "also print the nearest NIC per GPU and the warnings", O_ADVICE },
	{ "export", 'e', GD_REQ_ARG, "FILE", "write the topology to FILE (hwloc XML) and FILE.nvlinks", O_EXPORT },
	{ NULL },
};
static const struct gd_opt *const tables[] = { gd_common_opts, topo_opts, gd_sysfs_opts, NULL };
/* --completion=gpus: the values --use_cuda takes on this machine (0..N-1 and auto) */
static int complete(const struct gd_machine *m, const char *what, FILE *out)
{
	struct gd_topo t;
	char err[256];

	if (strcmp(what, "gpus") != 0)
		return -EINVAL;
	memset(&t, 0, sizeof(t));
	if (gd_topo_open_locality(&t, m, NULL, err, sizeof(err)) == 0 && gd_topo_find_gpus(&t) == 0)
		for (size_t i = 0; i < t.ngpus; i++)
			fprintf(out, "%zu\n", i);
	gd_topo_free(&t);
	fprintf(out, "auto\n");
	return 0;
}

static const struct gd_cmd cmd = {
	"[options]",
	"Show the PCIe/NVLink/NUMA topology of GPUs and RDMA NICs, as nvidia-smi topo -m does.",
	tables,
	complete,
	(const struct gd_opt_words *const[]){ (const struct gd_opt_words[]){
		{ "format", formats }, { NULL, NULL } }, NULL },
	NULL, /* every row has its own help */
};


struct args {
	struct gd_machine m; /* --sysfs-root, else $GDPERF_SYSFS_ROOT, else this machine */
	const char *xml, *nvlinks, *export;
	int format;
	bool pci_only, advice, json, format_given;
};

static int handle(void *ctx, int id, const char *arg)
{
	struct args *a = ctx;

	switch (id) {
	case O_TOPOLOGY: a->xml = arg; return 0;
	case O_NVLINKS: a->nvlinks = arg; return 0;
	case O_FORMAT:
		a->format_given = true;
		return gd_opt_choice("--format", arg, formats, &a->format);
	case O_JSON: a->json = true; return 0;
	case O_PCI_ONLY: a->pci_only = true; return 0;
	case O_ADVICE: a->advice = true; return 0;
	case O_EXPORT: a->export = arg; return 0;
	}
	return -EINVAL;
}

/* NVLink counts: the file, else NVML on the live machine, else unknown. */
/* --nvlinks FILE, read and parsed before anything of the machine: a bad file is exit 2 at once */
static int read_nvlinks(const struct args *a, struct gd_nvlinks *nv)
{
	char err[512] = "";
	int ret;

	*nv = (struct gd_nvlinks){ 0 };
	if (!a->nvlinks)
		return 0;
	ret = gd_nvlink_read_file(a->nvlinks, nv, err, sizeof(err));
	if (ret)
		gd_error("%s", err);
	return ret;
}

static int load_nvlinks(const struct args *a, const struct gd_topo *t, struct gd_nvlinks *nv)
{
	char err[512] = "";

	if (a->nvlinks) { /* read before the topology (read_nvlinks): checked against it here */
		size_t listed = nv->n;

		if (listed && !t->ngpus) { /* never a silent matrix without the listed GPUs */
			gd_error("%s lists NVLinks of GPUs, but %s has no NVIDIA GPU: are its GPU "
				 "PCI objects garbled? export the topology again (gd_topo --export)",
				 a->nvlinks, a->xml ? a->xml : "the topology");
			return -EINVAL;
		}
		if (gd_nvlink_validate(nv, a->nvlinks, gd_topo_busid_is_gpu, (void *)t) == listed &&
		    listed)
			gd_warn("%s: none of its lines apply to this topology; showing PCIe "
				"classes between GPUs", a->nvlinks);
		return 0;
	}
	*nv = (struct gd_nvlinks){ 0 };
	/* --pci-only does not need NVML, unless the counts are exported */
	if (a->xml || a->m.fixture || t->ngpus < 2 || (a->pci_only && !a->export))
		return 0;
	if (gd_nvlink_query_nvml(nv, err, sizeof(err)))
		gd_warn("%s; showing PCIe classes between GPUs", err);
	else
		gd_debug("NVLink counts from NVML: %zu GPU/remote pairs", nv->n);
	return 0;
}

static int export_files(const struct args *a, struct gd_topo *t, const struct gd_nvlinks *nv)
{
	char path[4096];
	FILE *f;
	int ret = gd_topo_export_xml(t, a->export);

	if (ret) {
		gd_error("cannot write %s: %s", a->export, strerror(-ret));
		return ret;
	}
	snprintf(path, sizeof(path), "%s.nvlinks", a->export);
	if (!(f = fopen(path, "we"))) {
		ret = -errno;
		gd_error("cannot write %s: %s", path, strerror(errno));
		return ret;
	}
	ret = gd_nvlink_write(nv, f);
	if (fclose(f) || ret) {
		gd_error("cannot write %s", path);
		return -EIO;
	}
	gd_info("wrote %s and %s; replay with: %s --topology %s --nvlinks %s", a->export, path,
		gd_progname(), a->export, path);
	return 0;
}

/* A failed load: a bad --topology file or an hwloc variable is the user's to fix; the live
 * machine is not. */
static int load_failed(const struct args *a, int ret)
{
	if (!a->xml && ret == -EINVAL && gd_topo_env_override())
		return GD_EXIT_USAGE;
	return a->xml && (ret == -ENOENT || ret == -EACCES || ret == -EINVAL || ret == -EISDIR ||
			  ret == -EFBIG || ret == -GD_ENOTREG) ?
		       GD_EXIT_USAGE : GD_EXIT_ENV;
}

/* The first steps (gd_topo_discover): hwloc, the locality source, GPUs, NICs. */
static int discover_devices(const struct args *a, struct gd_topo *t)
{
	struct gd_topo_want w = {.steps = GD_TOPO_LOAD, .m = &a->m, .xml = a->xml};
	enum gd_topo_step failed;
	char err[512];
	int ret = gd_topo_discover(t, &w, &failed, err, sizeof(err));

	if (ret) {
		gd_error("%s", err);
		return load_failed(a, ret);
	}
	if (t->no_cpu_topology)
		gd_warn("%s has no sys/devices/system/cpu: CPU and NUMA affinity are shown as N/A; "
			"copy sys/devices/system/{cpu,node} into the tree, or replay an hwloc XML "
			"with --topology", a->m.root);
	w.steps = GD_TOPO_LOCALITY | GD_TOPO_GPUS | GD_TOPO_NICS;
	if (gd_topo_discover(t, &w, &failed, err, sizeof(err))) {
		if (failed == GD_TOPO_NICS)
			gd_error("%s (%s)", err, gd_sysfs_errpath());
		else if (failed == GD_TOPO_LOCALITY)
			gd_error("%s", err);
		return failed == GD_TOPO_LOCALITY ? GD_EXIT_USAGE : GD_EXIT_ENV;
	}
	if (t->nic_read_errors)
		gd_warn("%zu sysfs file(s) of the RDMA devices are missing or malformed, so the "
			"NIC legend or placement may be incomplete; 'gd_devinfo%s%s' names them",
			t->nic_read_errors, a->m.fixture ? " --sysfs-root " : "", a->m.root);
	return GD_EXIT_OK;
}

/* Everything the report needs: hwloc, GPUs, NICs, NVLinks, PCIe links, classes, advice. */
static int discover(const struct args *a, struct gd_topo *t, struct gd_nvlinks *nv,
		    struct gd_topo_advice *adv)
{
	struct gd_topo_want w = {.steps = GD_TOPO_CLASSIFY | GD_TOPO_LINKS | GD_TOPO_ADVICE,
				 .m = &a->m, .xml = a->xml, .nv = nv, .pci_only = a->pci_only,
				 .adv = adv};
	enum gd_topo_step failed;
	char err[512];
	int ret;

	if (read_nvlinks(a, nv))
		return GD_EXIT_USAGE;
	if ((ret = discover_devices(a, t)))
		return ret;
	if (t->ngpus < t->xml_nvidia_objs) { /* GPUs that vanished are never a silent exit 0 */
		gd_error("%s declares %zu NVIDIA GPU(s), but only %zu have a valid PCI address and "
			 "ID: the file is damaged; export it again (gd_topo --export FILE)", a->xml,
			 t->xml_nvidia_objs, t->ngpus);
		return GD_EXIT_USAGE;
	}
	/* the NVLink counts are checked against the GPUs found before they classify */
	if (load_nvlinks(a, t, nv))
		return GD_EXIT_USAGE;
	if (gd_topo_discover(t, &w, &failed, err, sizeof(err))) {
		gd_error("%s", err);
		return GD_EXIT_ENV;
	}
	if (a->export && export_files(a, t, nv))
		return GD_EXIT_ENV;
	return GD_EXIT_OK;
}

/* Where the devices were looked for, for messages. */
static void source_name(const struct args *a, char *buf, size_t len)
{
	if (a->xml)
		snprintf(buf, len, "in %s", a->xml);
	else if (a->m.fixture)
		snprintf(buf, len, "under %s", a->m.root);
	else
		snprintf(buf, len, "on this machine");
}

static int report(const struct args *a, const struct gd_topo *t, const struct gd_topo_advice *adv)
{
	char where[4200];

	if (!t->ngpus && !t->nnics) {
		source_name(a, where, sizeof(where));
		if (a->export) { /* the files are written: a bug report may want them */
			gd_warn("no NVIDIA GPU and no RDMA device %s", where);
			return GD_EXIT_OK;
		}
		if (a->format == GD_TOPO_JSON) /* a machine reader still gets a record */
			gd_topo_print_empty_json(where, stdout);
		gd_error("no NVIDIA GPU and no RDMA device %s: nothing to show", where);
		gd_info("load the GPU and NIC drivers (nvidia, mlx5_ib; or create a Soft-RoCE "
			"device with rdma_rxe), or replay another machine with --topology FILE");
		return GD_EXIT_ENV;
	}
	/* warnings go to stderr unless --advice or JSON carry them */
	if (a->format != GD_TOPO_JSON && !a->advice)
		for (size_t i = 0; i < adv->nw; i++)
			gd_warn("%s", adv->w[i].msg);
	gd_topo_print(t, adv, (enum gd_topo_format)a->format, a->advice, stdout);
	return gd_tool_flush_stdout(); /* gd_topo_print's errors stick to stdout */
}

static int run(const struct args *a)
{
	struct gd_topo_advice adv = { 0 };
	struct gd_nvlinks nv = { 0 };
	struct gd_topo t = { 0 };
	int ret = discover(a, &t, &nv, &adv);

	if (ret == GD_EXIT_OK)
		ret = report(a, &t, &adv);
	gd_topo_advice_free(&adv);
	gd_nvlink_free(&nv);
	gd_topo_free(&t);
	return ret;
}

/* --export FILE and FILE.nvlinks, before anything is read: a FIFO would block the write */
static int check_export(const char *file)
{
	char path[4096];
	int ret;

	for (int i = 0; i < 2; i++) {
		snprintf(path, sizeof(path), i ? "%s.nvlinks" : "%s", file);
		ret = gd_writefile_check(path);
		if (ret) {
			gd_error("cannot write %s: %s; give a regular file to --export", path,
				 ret == -GD_ENOTREG ? "a FIFO or socket (writing would wait for a "
						      "reader)" : gd_strerror(ret));
			return ret;
		}
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct args a = { .format = GD_TOPO_TABLE };
	int ret;

	ret = gd_tool_parse(&cmd, argc, argv, handle, &a, &a.m);
	if (ret != GD_TOOL_CONTINUE)
		return ret;
	if (a.json && a.format_given && a.format != GD_TOPO_JSON) { /* honoured or refused */
		gd_error("--json and --format=%s cannot be used together: choose one output format",
			 formats[a.format]);
		return GD_EXIT_USAGE;
	}
	if (a.json)
		a.format = GD_TOPO_JSON;
	if (a.export && check_export(a.export))
		return GD_EXIT_USAGE;
	return run(&a);
}
