/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A node's SKU and manifest facts, read once and carried by its report (check_sku.h). */
#include "config.h"

#include <dlfcn.h>
#include <errno.h>
#include <infiniband/verbs.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_sku.h"
#include "cuda.h"
#include "gdr_env.h"
#include "jsonout.h"
#include "ofi_lib.h"
#include "sysfs.h"

/* "10de:2330" of a PCI device, "" when sysfs has none. */
static void pci_id(const struct gd_machine *m, const char *bdf, char *buf, size_t len)
{
	char v[16], d[16];

	buf[0] = 0;
	if (bdf[0] && !gd_sysfs_read_str(m, v, sizeof(v), "/sys/bus/pci/devices/%s/vendor", bdf) &&
	    !gd_sysfs_read_str(m, d, sizeof(d), "/sys/bus/pci/devices/%s/device", bdf))
		snprintf(buf, len, "%s:%s", v + (v[0] == '0' && v[1] == 'x' ? 2 : 0),
			 d + (d[0] == '0' && d[1] == 'x' ? 2 : 0));
}

/* Each kind once, "," between. */
static void add_model(char *buf, size_t len, const char *model)
{
	size_t n = strlen(buf);

	if (!model[0] || strstr(buf, model))
		return;
	snprintf(buf + n, len - n, "%s%s", n ? "," : "", model);
}

/* rdma-core's release from the libibverbs this process runs: libibverbs.so.1.14.44.0 is 44. */
static void rdma_core_version(char *buf, size_t len)
{
	Dl_info di;
	char real[PATH_MAX], *v;
	unsigned a, b, c;

	buf[0] = 0;
	if (!dladdr((void *)ibv_get_device_list, &di) || !di.dli_fname ||
	    !realpath(di.dli_fname, real) || !(v = strstr(real, ".so.")))
		return;
	if (sscanf(v, ".so.%u.%u.%u", &a, &b, &c) == 3)
		snprintf(buf, len, "%u", c);
}

/* The versions of this host's software (not read from a fixture tree: they are live). */
static void facts(const struct gd_ck_machine *m, const struct gd_ck_host *h, struct gd_ck_sku *s)
{
	struct gd_nv_driver nv;
	int ver;

	snprintf(s->fact[0], sizeof(s->fact[0]), "%s", h->kernel);
	if (!gd_nvidia_driver(m->mach, &nv))
		snprintf(s->fact[1], sizeof(s->fact[1]), "%s", nv.version);
	snprintf(s->fact[5], sizeof(s->fact[5]), "%s", h->version);
	if (m->mach->fixture)
		return;
	if (nv.version[0] && gd_cuda_driver_version(&ver, s->fact[2], sizeof(s->fact[2])))
		s->fact[2][0] = 0;
	rdma_core_version(s->fact[3], sizeof(s->fact[3]));
#ifdef HAVE_LIBFABRIC
	if (!gd_ofi_lib_load()) {
		uint32_t v = gd_fi_version();

		snprintf(s->fact[4], sizeof(s->fact[4]), "%u.%u", v >> 16, v & 0xffff);
	}
#endif
}

void gd_ck_sku_read(const struct gd_ck_machine *m, const struct gd_ck_host *h,
		    struct gd_ck_sku *s)
{
	char id[32];

	memset(s, 0, sizeof(*s));
	s->known = true;
	s->nics = (int)m->nhcas;
	for (size_t i = 0; i < m->nhcas; i++) {
		const struct gd_hca *c = &m->hcas[i];

		pci_id(m->mach, c->pci_addr, id, sizeof(id));
		add_model(s->nic_model, sizeof(s->nic_model), id[0] ? id : c->hca_type[0] ?
			  c->hca_type : c->driver);
		if (s->nnic == GD_CK_SKU_PARTS)
			continue;
		snprintf(s->nic[s->nnic].name, sizeof(s->nic[0].name), "%s", c->name);
		snprintf(s->nic[s->nnic].busid, sizeof(s->nic[0].busid), "%s", c->pci_addr);
		snprintf(s->nic[s->nnic++].firmware, sizeof(s->nic[0].firmware), "%s", c->fw_ver);
	}
	s->gpus = m->topo_ok ? (int)m->t.ngpus : 0;
	for (size_t g = 0; m->topo_ok && g < m->t.ngpus; g++) {
		pci_id(m->mach, m->t.gpus[g].busid, id, sizeof(id));
		add_model(s->gpu_model, sizeof(s->gpu_model), id);
		if (s->ngpu < GD_CK_SKU_PARTS)
			snprintf(s->gpu[s->ngpu++].busid, sizeof(s->gpu[0].busid), "%s",
				 m->t.gpus[g].busid);
	}
	facts(m, h, s);
}

void gd_ck_sku_key(const struct gd_ck_sku *s, char *buf, size_t len)
{
	snprintf(buf, len, "gpus=%d gpu_model=%s nics=%d nic_model=%s", s->gpus,
		 s->gpu_model[0] ? s->gpu_model : "-", s->nics, s->nic_model[0] ? s->nic_model : "-");
}

json_object *gd_ck_sku_json(const struct gd_ck_sku *s)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	gd_json_add_int(o, "gpus", s->gpus);
	gd_json_add_str_or_null(o, "gpu_model", s->gpu_model);
	gd_json_add_int(o, "nics", s->nics);
	gd_json_add_str_or_null(o, "nic_model", s->nic_model);
	for (size_t i = 0; i < s->ngpu; i++)
		json_object_array_add(a, json_object_new_string(s->gpu[i].busid));
	json_object_object_add(o, "gpu_busids", a);
	a = json_object_new_array();
	for (size_t i = 0; i < s->nnic; i++) {
		json_object *n = json_object_new_object();

		gd_json_add_str(n, "name", s->nic[i].name);
		gd_json_add_str_or_null(n, "busid", s->nic[i].busid);
		gd_json_add_str_or_null(n, "firmware", s->nic[i].firmware);
		json_object_array_add(a, n);
	}
	json_object_object_add(o, "nic", a);
	for (int i = 0; i < GD_CK_BL_FACTS; i++)
		gd_json_add_str_or_null(o, gd_ck_bl_fact_keys[i], s->fact[i]);
	return o;
}

/* A string member (null: ""), into buf. */
static void str_of(json_object *o, const char *key, char *buf, size_t len)
{
	json_object *v;

	buf[0] = 0;
	if (json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string))
		snprintf(buf, len, "%s", json_object_get_string(v));
}

static void nics_from_json(json_object *a, struct gd_ck_sku *s)
{
	for (size_t i = 0; i < json_object_array_length(a) && s->nnic < GD_CK_SKU_PARTS; i++) {
		json_object *n = json_object_array_get_idx(a, i);

		str_of(n, "name", s->nic[s->nnic].name, sizeof(s->nic[0].name));
		str_of(n, "busid", s->nic[s->nnic].busid, sizeof(s->nic[0].busid));
		str_of(n, "firmware", s->nic[s->nnic++].firmware, sizeof(s->nic[0].firmware));
	}
}

int gd_ck_sku_from_json(json_object *o, struct gd_ck_sku *s, char *why, size_t len)
{
	json_object *g, *n, *a;

	memset(s, 0, sizeof(*s));
	if (!o || !json_object_is_type(o, json_type_object) ||
	    !json_object_object_get_ex(o, "gpus", &g) || !json_object_object_get_ex(o, "nics", &n) ||
	    !json_object_is_type(g, json_type_int) || !json_object_is_type(n, json_type_int)) {
		snprintf(why, len, "its check_run record has no \"manifest\" with gpus and nics "
			 "(a report of an older gd_check: run it again)");
		return -EINVAL;
	}
	s->known = true;
	s->gpus = json_object_get_int(g);
	s->nics = json_object_get_int(n);
	str_of(o, "gpu_model", s->gpu_model, sizeof(s->gpu_model));
	str_of(o, "nic_model", s->nic_model, sizeof(s->nic_model));
	if (json_object_object_get_ex(o, "gpu_busids", &a) && json_object_is_type(a, json_type_array))
		for (size_t i = 0; i < json_object_array_length(a) && s->ngpu < GD_CK_SKU_PARTS; i++)
			snprintf(s->gpu[s->ngpu++].busid, sizeof(s->gpu[0].busid), "%s",
				 json_object_get_string(json_object_array_get_idx(a, i)));
	if (json_object_object_get_ex(o, "nic", &a) && json_object_is_type(a, json_type_array))
		nics_from_json(a, s);
	for (int i = 0; i < GD_CK_BL_FACTS; i++)
		str_of(o, gd_ck_bl_fact_keys[i], s->fact[i], sizeof(s->fact[i]));
	return 0;
}

/* Busids of the GPUs, "," between. */
static void gpu_list(const struct gd_ck_sku *s, char *buf, size_t len)
{
	size_t o = 0;

	buf[0] = 0;
	for (size_t i = 0; i < s->ngpu && o < len; i++)
		o += (size_t)snprintf(buf + o, len - o, "%s%s", i ? "," : "", s->gpu[i].busid);
}

size_t gd_ck_sku_fields(const struct gd_ck_sku *s, struct gd_ck_sku_field *f, size_t max)
{
	size_t n = 0;

	for (int i = 0; i < GD_CK_BL_FACTS && n < max; i++, n++) {
		snprintf(f[n].name, sizeof(f[n].name), "%s", gd_ck_bl_fact_keys[i]);
		snprintf(f[n].value, sizeof(f[n].value), "%s", s->fact[i]);
	}
	if (n < max) {
		snprintf(f[n].name, sizeof(f[n].name), "GPU bus ids");
		gpu_list(s, f[n++].value, sizeof(f[0].value));
	}
	for (size_t i = 0; i < s->nnic && n + 1 < max; i++) {
		snprintf(f[n].name, sizeof(f[n].name), "NIC %s bus id", s->nic[i].name);
		snprintf(f[n++].value, sizeof(f[0].value), "%s", s->nic[i].busid);
		snprintf(f[n].name, sizeof(f[n].name), "NIC %s firmware", s->nic[i].name);
		snprintf(f[n++].value, sizeof(f[0].value), "%s", s->nic[i].firmware);
	}
	return n;
}
