/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "topo_report.h"

#include <errno.h>
#include <string.h>

#include "jsonout.h"
#include "table.h"

/* The legend nvidia-smi prints under its matrix, byte for byte. */
static const char nvsmi_legend[] =
	"\n"
	"Legend:\n"
	"\n"
	"  X    = Self\n"
	"  SYS  = Connection traversing PCIe as well as the SMP interconnect between NUMA nodes (e.g., QPI/UPI)\n"
	"  NODE = Connection traversing PCIe as well as the interconnect between PCIe Host Bridges within a NUMA node\n"
	"  PHB  = Connection traversing PCIe as well as a PCIe Host Bridge (typically the CPU)\n"
	"  PXB  = Connection traversing multiple PCIe bridges (without traversing the PCIe Host Bridge)\n"
	"  PIX  = Connection traversing at most a single PCIe bridge\n";
static const char nvsmi_legend_nv[] = "  NV#  = Connection traversing a bonded set of # NVLinks\n";

struct style {
	const char *head_start, *head_end, *sep, *self;
	const char *numa_sep; /* between NUMA Affinity and GPU NUMA ID */
};

static const struct style compact = { "        ", "", " ", "X", " " };
static const struct style nvsmi = { "\t\033[4m", "\033[0m", "\t", " X ", "\t\t" };

static void dev_name(const struct gd_topo *t, size_t i, char *buf, size_t len)
{
	if (i < t->ngpus)
		snprintf(buf, len, "GPU%zu", i);
	else
		snprintf(buf, len, "NIC%zu", i - t->ngpus);
}

static void print_header(const struct gd_topo *t, const struct style *s, FILE *out)
{
	size_t n = t->ngpus + t->nnics;
	char name[24];

	fputs(s->head_start, out);
	for (size_t i = 0; i < n; i++) {
		dev_name(t, i, name, sizeof(name));
		fprintf(out, "%s%s", i ? s->sep : "", name);
	}
	if (t->ngpus)
		fprintf(out, "%sCPU Affinity%sNUMA Affinity%sGPU NUMA ID", n ? s->sep : "", s->sep,
			s->sep);
	fprintf(out, "%s\n", s->head_end);
}

static void print_row(const struct gd_topo *t, const struct style *s, size_t i, FILE *out)
{
	size_t n = t->ngpus + t->nnics;
	char cell[24];

	dev_name(t, i, cell, sizeof(cell));
	fputs(cell, out);
	for (size_t j = 0; j < n; j++) {
		gd_topo_cell(t, i, j, cell, sizeof(cell));
		fprintf(out, "%s%s", s->sep, i == j ? s->self : cell);
	}
	if (i < t->ngpus) {
		const struct gd_topo_gpu *g = &t->gpus[i];

		fprintf(out, "%s%s%s%s", s->sep, g->cpus, s->sep, g->nodes);
		if (g->gpu_numa_id >= 0)
			fprintf(out, "%s%d", s->numa_sep, g->gpu_numa_id);
		else
			fprintf(out, "%sN/A", s->numa_sep);
	}
	fputc('\n', out);
}

static void print_matrix(const struct gd_topo *t, const struct style *s, FILE *out)
{
	if (!t->ngpus && !t->nnics)
		return;
	print_header(t, s, out);
	for (size_t i = 0; i < t->ngpus + t->nnics; i++)
		print_row(t, s, i, out);
}

static void print_advice(const struct gd_topo *t, const struct gd_topo_advice *a, FILE *out)
{
	if (t->ngpus && t->nnics) {
		fputs("\nNearest NIC:\n", out);
		for (size_t g = 0; g < t->ngpus; g++) {
			int k = a->nic_for_gpu[g];

			if (k < 0)
				fprintf(out, "  GPU%zu (%s): none with a PCI device\n", g,
					t->gpus[g].busid);
			else
				fprintf(out, "  GPU%zu (%s): NIC%d %s (%s)\n", g, t->gpus[g].busid, k,
					t->nics[k].name, gd_loc_class_str(gd_topo_cls(t, g, t->ngpus + k)));
		}
	}
	if (a->nw)
		fputs("\nWarnings:\n", out);
	for (size_t i = 0; i < a->nw; i++)
		fprintf(out, "  %s\n", a->w[i].msg);
}

static void print_legend(const struct gd_topo *t, FILE *out)
{
	if (!t->nnics)
		return;
	fputs("NIC Legend:", out);
	for (size_t k = 0; k < t->nnics; k++) {
		fprintf(out, " NIC%zu: %s", k, t->nics[k].name);
		if (t->nics[k].legend_extra[0])
			fprintf(out, " (%s)", t->nics[k].legend_extra);
	}
	fputc('\n', out);
}

static void print_compact(const struct gd_topo *t, FILE *out)
{
	print_matrix(t, &compact, out);
	print_legend(t, out);
}

/* One row of the aligned matrix: its name, its cells, a GPU's affinities. */
static int table_row(const struct gd_topo *t, size_t i, struct gd_table *tb)
{
	size_t n = t->ngpus + t->nnics;
	char cell[24];
	int ret;

	dev_name(t, i, cell, sizeof(cell));
	ret = gd_table_add(tb, cell);
	for (size_t j = 0; j < n && !ret; j++) {
		gd_topo_cell(t, i, j, cell, sizeof(cell));
		ret = gd_table_add(tb, i == j ? "X" : cell);
	}
	if (i < t->ngpus && !ret) {
		const struct gd_topo_gpu *g = &t->gpus[i];

		snprintf(cell, sizeof(cell), "%d", g->gpu_numa_id);
		ret = gd_table_add(tb, g->cpus);
		ret = ret ?: gd_table_add(tb, g->nodes);
		ret = ret ?: gd_table_add(tb, g->gpu_numa_id >= 0 ? cell : "N/A");
	}
	gd_table_end_row(tb);
	return ret;
}

/* The default: the matrix with each column as wide as its widest cell (newcomer 8:
 * the compact form's single blanks did not line up), then the NIC legend. */
static int print_table(const struct gd_topo *t, FILE *out)
{
	size_t n = t->ngpus + t->nnics;
	struct gd_table *tb;
	char name[24];
	int ret;

	if (!n)
		return 0;
	if (!(tb = gd_table_new(n + 1 + (t->ngpus ? 3 : 0))))
		return -ENOMEM;
	ret = gd_table_add(tb, "");
	for (size_t i = 0; i < n && !ret; i++) {
		dev_name(t, i, name, sizeof(name));
		ret = gd_table_add(tb, name);
	}
	if (t->ngpus && !ret) {
		ret = gd_table_add(tb, "CPU Affinity");
		ret = ret ?: gd_table_add(tb, "NUMA Affinity");
		ret = ret ?: gd_table_add(tb, "GPU NUMA ID");
	}
	gd_table_end_row(tb);
	for (size_t i = 0; i < n && !ret; i++)
		ret = table_row(t, i, tb);
	ret = ret ?: gd_table_print(tb, "  ", out);
	gd_table_free(tb);
	if (!ret)
		print_legend(t, out);
	return ret;
}

static void print_nvsmi(const struct gd_topo *t, FILE *out)
{
	print_matrix(t, &nvsmi, out);
	fputs(nvsmi_legend, out);
	if (!t->pci_only) /* topo -mp prints no NV# line */
		fputs(nvsmi_legend_nv, out);
	if (!t->nnics)
		return;
	fputs("\nNIC Legend:\n\n", out);
	for (size_t k = 0; k < t->nnics; k++)
		fprintf(out, "  NIC%zu: %s\n", k, t->nics[k].name);
}

static void json_link(json_object *o, const struct gd_pcie_link *l)
{
	json_object *p;

	if (!l->known)
		return;
	p = json_object_new_object();
	gd_json_add_double(p, "current_gts", l->cur_gts);
	gd_json_add_int(p, "current_width", l->cur_width);
	gd_json_add_double(p, "max_gts", l->max_gts);
	gd_json_add_int(p, "max_width", l->max_width);
	json_object_object_add(o, "pcie_link", p);
}

/* An affinity nobody could read is "N/A" in the tables and null in JSON. */
static void json_affinity(json_object *r, const char *key, const char *val)
{
	gd_json_add_str_or_null(r, key, strcmp(val, "N/A") ? val : NULL);
}

/* The GPU --use_cuda=auto takes with this NIC (gd_loc_gpu_for_nic, as gpu_mem.c asks). */
static void json_auto_gpu(const struct gd_topo *t, size_t k, json_object *r)
{
	int g = gd_loc_gpu_for_nic(&t->loc, k, NULL);
	char name[24];

	if (!t->ngpus)
		return;
	if (g < 0) {
		json_object_object_add(r, "use_cuda_auto", NULL);
		return;
	}
	snprintf(name, sizeof(name), "GPU%d", g);
	gd_json_add_str(r, "use_cuda_auto", name);
}

static int json_devices(const struct gd_topo *t, FILE *out)
{
	int ret = 0;

	for (size_t g = 0; g < t->ngpus && !ret; g++) {
		const struct gd_topo_gpu *gpu = &t->gpus[g];
		json_object *r = gd_json_record("topo_gpu");
		char name[24];

		dev_name(t, g, name, sizeof(name));
		gd_json_add_str(r, "name", name);
		gd_json_add_str(r, "pci_bus_id", gpu->busid);
		json_affinity(r, "cpu_affinity", gpu->cpus);
		json_affinity(r, "numa_affinity", gpu->nodes);
		gd_json_add_int_or_null(r, "gpu_numa_id", gpu->gpu_numa_id, gpu->gpu_numa_id >= 0);
		json_link(r, &gpu->link);
		ret = gd_json_emit(r, out);
	}
	for (size_t k = 0; k < t->nnics && !ret; k++) {
		const struct gd_topo_nic *nic = &t->nics[k];
		json_object *r = gd_json_record("topo_nic");
		char name[24];

		dev_name(t, t->ngpus + k, name, sizeof(name));
		gd_json_add_str(r, "name", name);
		gd_json_add_str(r, "device", nic->name);
		gd_json_add_str_or_null(r, "pci_bus_id", nic->busid);
		json_affinity(r, "numa_affinity", nic->nodes);
		if (nic->legend_extra[0])
			gd_json_add_str(r, "note", nic->legend_extra);
		json_link(r, &nic->link);
		json_auto_gpu(t, k, r);
		ret = gd_json_emit(r, out);
	}
	return ret;
}

static int json_links(const struct gd_topo *t, FILE *out)
{
	size_t n = t->ngpus + t->nnics;
	int ret = 0;

	for (size_t i = 0; i < n && !ret; i++) {
		for (size_t j = i + 1; j < n && !ret; j++) {
			json_object *r = gd_json_record("topo_link");

			char a[24], b[24], cell[24];

			dev_name(t, i, a, sizeof(a));
			dev_name(t, j, b, sizeof(b));
			gd_topo_cell(t, i, j, cell, sizeof(cell));
			gd_json_add_str(r, "a", a);
			gd_json_add_str(r, "b", b);
			gd_json_add_str(r, "class", cell);
			if (i < t->ngpus && j < t->ngpus)
				gd_json_add_int(r, "nvlinks", gd_topo_nv(t, i, j));
			gd_json_add_str(r, "pcie_class", gd_loc_class_str(gd_topo_pcie_cls(t, i, j)));
			ret = gd_json_emit(r, out);
		}
	}
	return ret;
}

static int json_advice(const struct gd_topo *t, const struct gd_topo_advice *a, FILE *out)
{
	int ret = 0;

	for (size_t g = 0; g < t->ngpus && t->nnics && !ret; g++) {
		json_object *r = gd_json_record("topo_nearest_nic");
		int k = a->nic_for_gpu[g];
		char name[24];

		snprintf(name, sizeof(name), "GPU%zu", g);
		gd_json_add_str(r, "gpu", name);
		if (k >= 0) {
			snprintf(name, sizeof(name), "NIC%d", k);
			gd_json_add_str(r, "nic", name);
			gd_json_add_str(r, "device", t->nics[k].name);
			gd_json_add_str(r, "class", gd_loc_class_str(gd_topo_cls(t, g, t->ngpus + k)));
		} else {
			json_object_object_add(r, "nic", NULL);
		}
		ret = gd_json_emit(r, out);
	}
	for (size_t i = 0; i < a->nw && !ret; i++) {
		json_object *r = gd_json_record("topo_warning");

		gd_json_add_str(r, "kind", gd_topo_warn_kind_str(a->w[i].kind));
		gd_json_add_str(r, "device", a->w[i].device);
		gd_json_add_str(r, "message", a->w[i].msg);
		ret = gd_json_emit(r, out);
	}
	return ret;
}

int gd_topo_print_empty_json(const char *where, FILE *out)
{
	json_object *r = gd_json_record("topo_summary");

	gd_json_add_int(r, "gpus", 0);
	gd_json_add_int(r, "nics", 0);
	gd_json_add_str(r, "source", where);
	return gd_json_emit(r, out);
}

int gd_topo_print(const struct gd_topo *t, const struct gd_topo_advice *a,
		  enum gd_topo_format fmt, bool advice, FILE *out)
{
	int ret = 0;

	switch (fmt) {
	case GD_TOPO_TABLE:
		ret = print_table(t, out);
		if (ret)
			return ret;
		break;
	case GD_TOPO_COMPACT:
		print_compact(t, out);
		break;
	case GD_TOPO_NVSMI:
		print_nvsmi(t, out);
		break;
	case GD_TOPO_JSON:
		ret = json_devices(t, out);
		if (!ret)
			ret = json_links(t, out);
		if (!ret)
			ret = json_advice(t, a, out);
		return ret;
	}
	if (advice)
		print_advice(t, a, out);
	return ferror(out) ? -EIO : 0;
}
