/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The spec's manifest against this machine, and the manifest of this machine for --example.
 * Every fact is discovery's, read where the other sections read it: counts through the
 * topology section's own check, firmware and port rate from the RDMA devices (gd_hca), the
 * NUMA node of a NIC or GPU from the topology (gd_topo's nodes, as gpu_nic_same_numa).
 */
#include <regex.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "check_manifest.h"
#include "check_sections.h"
#include "judge.h"

/* The topology's NUMA node of a NIC or GPU: "0", "N/A"; NULL when it is not there. */
static const char *nic_nodes(const struct gd_ck_machine *m, const char *name)
{
	for (size_t i = 0; m->topo_ok && i < m->t.nnics; i++)
		if (!strcmp(m->t.nics[i].name, name))
			return m->t.nics[i].nodes;
	return NULL;
}

static const char *gpu_nodes(const struct gd_ck_machine *m, const char *busid)
{
	for (size_t g = 0; m->topo_ok && g < m->t.ngpus; g++)
		if (!strcasecmp(m->t.gpus[g].busid, busid))
			return m->t.gpus[g].nodes;
	return NULL;
}

/* "NAME numa": the NUMA node found against the manifest's. */
static void numa_item(struct gd_ck_report *r, enum gd_ck_section sec, const char *name,
		      const char *want, const char *got, bool topo_ok)
{
	struct gd_ck_item *it;
	char ev[160];

	if (!want[0] || !(it = gd_ck_add(r, sec, "manifest %s numa", name)))
		return;
	snprintf(it->expected, sizeof(it->expected), "%s", want);
	snprintf(it->measured, sizeof(it->measured), "%s", got ? got : "absent");
	snprintf(ev, sizeof(ev), "%s is %s (gd_topo places it)", name,
		 !got ? "not in the topology" : strcmp(got, "N/A") ? "on another NUMA node" :
		 "on no known NUMA node");
	if (!topo_ok)
		gd_ck_judge_skip(it, GD_CK_SKIP_NO_TOPOLOGY, NULL);
	else
		gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_SAME, .evidence = ev });
}

static void nic_firmware(struct gd_ck_report *r, const struct gd_hca *h, const char *pattern)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_DEVICES, "manifest %s firmware", h->name);
	char why[160];
	regex_t re;
	bool match;

	if (!it)
		return;
	snprintf(it->expected, sizeof(it->expected), "~ %s", pattern);
	snprintf(it->measured, sizeof(it->measured), "%s", h->fw_ver[0] ? h->fw_ver : "unknown");
	if (gd_ck_fw_regex(pattern, &re, why, sizeof(why))) { /* checked at load */
		gd_ck_judge_holds(it, false, why);
		return;
	}
	match = !regexec(&re, h->fw_ver, 0, NULL, 0);
	regfree(&re);
	snprintf(why, sizeof(why), "firmware %s does not match the SKU's pattern",
		 h->fw_ver[0] ? h->fw_ver : "(not reported)");
	gd_ck_judge_holds(it, match, match ? NULL : why);
}

static void one_nic(struct gd_ck_report *r, const struct gd_ck_machine *m,
		    const struct gd_ck_mf_nic *n)
{
	const struct gd_hca *h = gd_ck_hca(m, n->name);
	const struct gd_port *p = h && (size_t)n->port <= h->nports ? &h->ports[n->port - 1] : NULL;
	struct gd_ck_item *it;
	char ev[160];

	if (!p) {
		if ((it = gd_ck_add(r, GD_CK_SEC_DEVICES, "manifest %s port %d", n->name,
				    n->port))) {
			snprintf(it->expected, sizeof(it->expected), "present");
			snprintf(it->measured, sizeof(it->measured), "absent");
			snprintf(ev, sizeof(ev), "%s (manifest line %d); 'gd_devinfo' lists the "
				 "devices", h ? "no such port" : "no such RDMA device", n->line);
			gd_ck_judge_holds(it, false, ev);
		}
		return;
	}
	if (n->firmware[0])
		nic_firmware(r, h, n->firmware);
	if (n->rate_gbps > 0 && (it = gd_ck_add(r, GD_CK_SEC_DEVICES, "manifest %s port %d rate",
						 n->name, n->port))) {
		snprintf(it->expected, sizeof(it->expected), "== %g Gb/s", n->rate_gbps);
		snprintf(it->measured, sizeof(it->measured), "%g Gb/s", p->rate_gbps);
		gd_ck_judge(it, &(struct gd_ck_meas){ .cmp = GD_CK_EQ, .value = p->rate_gbps,
						      .expect = n->rate_gbps,
						      .evidence = p->rate_str });
	}
	numa_item(r, GD_CK_SEC_DEVICES, n->name, n->numa, nic_nodes(m, n->name), m->topo_ok);
}

void gd_ck_manifest(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    struct gd_ck_report *r)
{
	const struct gd_ck_manifest *mf = &s->manifest;
	struct gd_ck_spec counts = { .topo = { mf->gpus, mf->nics, -1, -1, false, true } };

	if (!mf->given)
		return;
	gd_ck_topology(&counts, m, r); /* the topology section's counts, one rule */
	for (size_t i = 0; i < mf->nnic; i++)
		one_nic(r, m, &mf->nic[i]);
	for (size_t i = 0; i < mf->ngpu; i++) {
		char name[40];

		snprintf(name, sizeof(name), "GPU %s", mf->gpu[i].busid);
		numa_item(r, GD_CK_SEC_TOPOLOGY, name, mf->gpu[i].numa,
			  gpu_nodes(m, mf->gpu[i].busid), m->topo_ok);
	}
}

/* A version as a pattern that matches it alone (ERE specials escaped), in YAML single quotes. */
static void fw_pattern(FILE *out, const char *v)
{
	fputc('\'', out);
	for (; *v; v++) {
		if (strchr(".[]()*+?{}|^$\\", *v))
			fputc('\\', out);
		if (*v == '\'')
			fputc('\'', out);
		fputc(*v, out);
	}
	fputc('\'', out);
}

/* A NUMA node a manifest can name: a single number. */
static bool one_node(const char *nodes)
{
	return nodes && nodes[0] && strspn(nodes, "0123456789") == strlen(nodes);
}

void gd_ck_print_manifest(FILE *out, const struct gd_ck_machine *m)
{
	fprintf(out, "# The SKU's manifest, as this node is: this example of a good node is the\n"
		"# manifest for the fleet. firmware is a POSIX extended regular expression matched\n"
		"# against the whole version (e.g. '28\\.39\\..*' for any 28.39 build); rate is the\n"
		"# port's link rate exactly; numa the node gd_topo places the NIC or GPU on.\n"
		"manifest:\n  gpus: %zu\n  nics: %zu\n", m->t.ngpus, m->nhcas ? m->nhcas : m->t.nnics);
	fputs(m->nhcas ? "  nic:\n" : "  nic: []\n", out);
	for (size_t i = 0; i < m->nhcas; i++) {
		const struct gd_hca *h = &m->hcas[i];
		const char *nodes = nic_nodes(m, h->name);

		fprintf(out, "    - name: %s\n", h->name);
		if (h->fw_ver[0]) {
			fputs("      firmware: ", out);
			fw_pattern(out, h->fw_ver);
			fputc('\n', out);
		}
		if (h->nports && h->ports[0].rate_gbps > 0)
			fprintf(out, "      rate: %g Gb/s\n", h->ports[0].rate_gbps);
		if (one_node(nodes))
			fprintf(out, "      numa: %s\n", nodes);
	}
	fputs(m->topo_ok && m->t.ngpus ? "  gpu:\n" : "  gpu: []\n", out);
	for (size_t g = 0; m->topo_ok && g < m->t.ngpus; g++) {
		fprintf(out, "    - busid: \"%s\"\n", m->t.gpus[g].busid);
		if (one_node(m->t.gpus[g].nodes))
			fprintf(out, "      numa: %s\n", m->t.gpus[g].nodes);
	}
	fputc('\n', out);
}
