/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "jsonout.h"

#include <errno.h>

#include "gd.h"
#include "log.h"

json_object *gd_json_record(const char *type)
{
	json_object *rec = json_object_new_object();

	json_object_object_add(rec, "schema", json_object_new_int(GD_JSON_SCHEMA));
	json_object_object_add(rec, "tool", json_object_new_string(gd_progname()));
	json_object_object_add(rec, "type", json_object_new_string(type));
	return rec;
}

int gd_json_emit(json_object *rec, FILE *out)
{
	const char *s = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE);
	int ret = fprintf(out, "%s\n", s) < 0 ? -EIO : 0;

	json_object_put(rec);
	return ret;
}

void gd_json_add_str(json_object *o, const char *key, const char *val)
{
	if (val)
		json_object_object_add(o, key, json_object_new_string(val));
}

void gd_json_add_int(json_object *o, const char *key, int64_t val)
{
	json_object_object_add(o, key, json_object_new_int64(val));
}

void gd_json_add_u64(json_object *o, const char *key, uint64_t val)
{
	json_object_object_add(o, key, json_object_new_uint64(val));
}

void gd_json_add_double(json_object *o, const char *key, double val)
{
	json_object_object_add(o, key, json_object_new_double(val));
}

void gd_json_add_bool(json_object *o, const char *key, int val)
{
	json_object_object_add(o, key, json_object_new_boolean(val));
}

void gd_json_add_str_or_null(json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, val && *val ? json_object_new_string(val) : NULL);
}

void gd_json_add_int_or_null(json_object *o, const char *key, int64_t val, int known)
{
	json_object_object_add(o, key, known ? json_object_new_int64(val) : NULL);
}
