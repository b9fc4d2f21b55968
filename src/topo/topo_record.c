/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The NICs gd_topo found, recorded in the hwloc XML that gd_topo --export writes, and
 * read back when that XML is replayed alone (gd_topo --topology FILE, gd_doctor, gd_check).
 *
 * Why: hwloc keeps an OpenFabrics OS device only under a PCI function. A software RDMA
 * device (rxe, siw: /sys/devices/virtual/infiniband/NAME) has none, so it never reaches
 * hwloc's XML, and a Soft-RoCE machine's export replayed with no NIC at all ("nothing to
 * show", exit 3, where gd_topo on the machine showed rxe0). A NIC's legend (its bond and
 * slaves, the netdev under a software device) comes from sysfs, which no XML carries.
 *
 * The records are hwloc userdata of the root object (base64, so any byte survives the
 * XML): "gdperf.nics", the count; then one "gdperf.nic" per NIC, "NAME\nBUSID\nLEGEND"
 * (BUSID empty without a PCI function). An XML without "gdperf.nics" (lstopo's) is read
 * through its OpenFabrics devices as before.
 */
#include "topo.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <hwloc/export.h>

#define COUNT "gdperf.nics"
#define ONE "gdperf.nic"
/* more NICs than any machine has: a larger count is a damaged or hostile file */
#define MAX_RECORDS 4096

/* The records of the XML being loaded (set for hwloc_topology_load() only). */
static _Thread_local struct gd_topo_records *loading;

static void set_bad(struct gd_topo_records *r, const char *why)
{
	if (!r->bad[0])
		snprintf(r->bad, sizeof(r->bad), "%s", why);
}

/* Printable ASCII only: the fields are printed to terminals as they are. */
static bool printable(const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (s[i] < 0x20 || s[i] > 0x7e)
			return false;
	return true;
}

/* Copy field [s, s+n) into dst (cap bytes with its NUL); false if it does not fit. */
static bool field(char *dst, size_t cap, const char *s, size_t n)
{
	if (n >= cap || !printable(s, n))
		return false;
	memcpy(dst, s, n);
	dst[n] = '\0';
	return true;
}

/* "NAME\nBUSID\nLEGEND" into one record; false when it is not one gd_topo writes. */
static bool parse_nic(struct gd_topo_rec_nic *nic, const char *buf, size_t len)
{
	const char *a = memchr(buf, '\n', len), *b;
	struct gd_busid id;

	if (!a || !(b = memchr(a + 1, '\n', len - (size_t)(a + 1 - buf))))
		return false;
	if (!field(nic->name, sizeof(nic->name), buf, (size_t)(a - buf)) || !nic->name[0] ||
	    strchr(nic->name, ' ') ||
	    !field(nic->busid, sizeof(nic->busid), a + 1, (size_t)(b - a - 1)) ||
	    !field(nic->legend, sizeof(nic->legend), b + 1, len - (size_t)(b + 1 - buf)))
		return false;
	return !nic->busid[0] || gd_busid_parse(nic->busid, &id) == 0;
}

static void add_nic(struct gd_topo_records *r, const char *buf, size_t len)
{
	struct gd_topo_rec_nic *v;

	if (r->n >= MAX_RECORDS) {
		set_bad(r, "more than 4096 NIC records");
		return;
	}
	if (!(v = realloc(r->v, (r->n + 1) * sizeof(*v)))) {
		set_bad(r, "out of memory reading the NIC records");
		return;
	}
	r->v = v;
	memset(&v[r->n], 0, sizeof(v[r->n]));
	if (!parse_nic(&v[r->n], buf, len))
		set_bad(r, "a NIC record is not 'NAME, PCI address, legend' in printable text");
	else
		r->n++;
}

/* hwloc's import callback: one call per userdata element of the XML. */
static void import_cb(hwloc_topology_t hw, hwloc_obj_t obj, const char *name, const void *buffer,
		      size_t length)
{
	struct gd_topo_records *r = loading;
	char num[16], *end;
	unsigned long n;

	(void)hw;
	(void)obj;
	if (!r || !name || strncmp(name, "gdperf.", 7))
		return; /* another program's userdata */
	if (memchr(buffer, '\0', length)) {
		set_bad(r, "a NIC record holds a NUL byte");
	} else if (!strcmp(name, ONE)) {
		add_nic(r, buffer, length);
	} else if (!strcmp(name, COUNT) && !r->declared && length < sizeof(num)) {
		memcpy(num, buffer, length);
		num[length] = '\0';
		errno = 0;
		n = strtoul(num, &end, 10);
		if (errno || end == num || *end || num[0] == '-' || n > MAX_RECORDS)
			set_bad(r, "the NIC count is not a number up to 4096");
		r->declared = true;
		r->want = n;
	} else {
		set_bad(r, "an unknown or repeated gdperf record");
	}
}

int gd_topo_load_recorded(hwloc_topology_t hw, struct gd_topo *t)
{
	int ret, e;

	hwloc_topology_set_userdata_import_callback(hw, import_cb);
	loading = &t->rec;
	ret = hwloc_topology_load(hw);
	e = errno;
	loading = NULL;
	errno = e;
	return ret;
}

int gd_topo_records_check(const struct gd_topo *t, const char *xml, char *err, size_t errlen)
{
	const struct gd_topo_records *r = &t->rec;

	if (!r->bad[0] && !r->n && !r->declared)
		return 0; /* an XML gd_topo did not write: its OpenFabrics devices */
	if (!r->bad[0] && r->declared && r->n == r->want)
		return 0;
	snprintf(err, errlen, "%s: the NIC list gd_topo --export recorded in it is damaged (%s); "
		 "export it again (gd_topo --export FILE)", xml, r->bad[0] ? r->bad :
		 !r->declared ? "NIC records without their count" : "fewer or more NIC records "
		 "than their count");
	return -EINVAL;
}

/* hwloc's export callback: called for the objects whose userdata is set (the root). */
static void export_cb(void *reserved, hwloc_topology_t hw, hwloc_obj_t obj)
{
	const struct gd_topo *t = obj->userdata;
	char buf[sizeof(struct gd_topo_rec_nic) + 4], num[24];
	int n;

	if (obj != hwloc_get_root_obj(hw) || !t)
		return;
	n = snprintf(num, sizeof(num), "%zu", t->nnics);
	hwloc_export_obj_userdata_base64(reserved, hw, obj, COUNT, num, (size_t)n);
	for (size_t i = 0; i < t->nnics; i++) {
		const struct gd_topo_nic *c = &t->nics[i];

		n = snprintf(buf, sizeof(buf), "%s\n%s\n%s", c->name, c->busid, c->legend_extra);
		for (int k = 0; k < n; k++) /* printable on replay, as parse_nic wants */
			if (buf[k] != '\n' && (buf[k] < 0x20 || buf[k] > 0x7e))
				buf[k] = '?';
		hwloc_export_obj_userdata_base64(reserved, hw, obj, ONE, buf, (size_t)n);
	}
}

int gd_topo_export_xml(struct gd_topo *t, const char *path)
{
	hwloc_obj_t root = hwloc_get_root_obj(t->hw);
	void *old = root->userdata;
	int ret;

	hwloc_topology_set_userdata_export_callback(t->hw, export_cb);
	root->userdata = t;
	errno = 0;
	ret = hwloc_topology_export_xml(t->hw, path, 0) ? (errno ? -errno : -EIO) : 0;
	root->userdata = old;
	hwloc_topology_set_userdata_export_callback(t->hw, NULL);
	return ret;
}
