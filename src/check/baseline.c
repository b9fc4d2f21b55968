/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check --baseline OUT REPORT...: good nodes' JSON reports (json-c) to the golden file of
 * their SKU: the manifest they share and, per measured check, the median, the scaled MAD and
 * N (robust.h). Refused (exit 2, naming the cause): fewer than 3 nodes, a node twice, mixed
 * SKUs, different specs or checks, a check that did not PASS, a node off the others' manifest.
 */
#include <errno.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "baseline.h"
#include "check_manifest.h"
#include "check_sku.h"
#include "log.h"
#include "readfile.h"
#include "robust.h"

static const char *str_of(json_object *o, const char *key)
{
	json_object *v;

	return json_object_object_get_ex(o, key, &v) && json_object_is_type(v, json_type_string) ?
	       json_object_get_string(v) : "";
}

/* A measured check of the tests section: its value, unit and size. */
static int add_value(struct gd_ck_bl_node *nd, json_object *rec)
{
	json_object *v, *ran, *sz;
	struct gd_ck_bl_value *x;

	if (strcmp(str_of(rec, "section"), "tests") || !json_object_object_get_ex(rec, "value", &v) ||
	    !(json_object_is_type(v, json_type_double) || json_object_is_type(v, json_type_int)))
		return 0;
	if (!(x = realloc(nd->v, (nd->n + 1) * sizeof(*x))))
		return -ENOMEM;
	nd->v = x;
	x = &nd->v[nd->n++];
	memset(x, 0, sizeof(*x));
	snprintf(x->check, sizeof(x->check), "%s", str_of(rec, "check"));
	snprintf(x->status, sizeof(x->status), "%s", str_of(rec, "status"));
	snprintf(x->unit, sizeof(x->unit), "%s", str_of(rec, "unit"));
	x->value = json_object_get_double(v);
	if (json_object_object_get_ex(rec, "ran", &ran) &&
	    json_object_object_get_ex(ran, "size_bytes", &sz) && json_object_is_type(sz, json_type_int))
		x->size = (uint64_t)json_object_get_int64(sz);
	return 0;
}

static int read_record(struct gd_ck_bl_node *nd, json_object *rec, char *why, size_t len)
{
	json_object *mf = NULL;
	const char *type = str_of(rec, "type");

	if (!strcmp(type, "check"))
		return add_value(nd, rec);
	if (strcmp(type, "check_run"))
		return 0;
	snprintf(nd->host, sizeof(nd->host), "%s", str_of(rec, "host"));
	snprintf(nd->spec_sha256, sizeof(nd->spec_sha256), "%s", str_of(rec, "spec_sha256"));
	json_object_object_get_ex(rec, "manifest", &mf);
	return gd_ck_sku_from_json(mf, &nd->sku, why, len);
}

static int read_lines(struct gd_ck_bl_node *nd, char *buf, char *why, size_t len)
{
	int ret = 0, line = 0;

	for (char *s = buf, *e; !ret && s && *s; s = e ? e + 1 : NULL) {
		json_object *rec;

		e = strchr(s, '\n');
		if (e)
			*e = 0;
		line++;
		if (!s[strspn(s, " \t\r")])
			continue;
		if (!(rec = json_tokener_parse(s))) {
			snprintf(why, len, "line %d is not JSON: give the output of 'gd_check --json' "
				 "alone (its stderr apart)", line);
			return -EINVAL;
		}
		ret = read_record(nd, rec, why, len);
		json_object_put(rec);
	}
	return ret;
}

int gd_ck_bl_read(const char *path, struct gd_ck_bl_node *nd, char *why, size_t len)
{
	char *buf = NULL, sub[512] = "";
	size_t got = 0;
	int ret = gd_readfile_alloc(path, (size_t)64 << 20, &buf, &got);

	memset(nd, 0, sizeof(*nd));
	snprintf(nd->path, sizeof(nd->path), "%s", path);
	if (ret) {
		snprintf(why, len, "%s: cannot read the report: %s", path, gd_strerror(ret));
		return ret;
	}
	ret = read_lines(nd, buf, sub, sizeof(sub));
	free(buf);
	if (!ret && !nd->sku.known)
		snprintf(sub, sizeof(sub), "no check_run record: not a 'gd_check --json' report");
	if (!ret && !nd->sku.known)
		ret = -EINVAL;
	if (ret) {
		snprintf(why, len, "%s: %s", path, sub);
		gd_ck_bl_node_free(nd); /* nothing of a report that could not be read */
	}
	return ret;
}

void gd_ck_bl_node_free(struct gd_ck_bl_node *nd)
{
	free(nd->v);
	nd->v = NULL;
	nd->n = 0;
}
