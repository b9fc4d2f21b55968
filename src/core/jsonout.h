/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* JSON Lines output through json-c: one object per record, with a schema version. */
#ifndef GD_JSONOUT_H
#define GD_JSONOUT_H

#include <stdint.h>
#include <stdio.h>
#include <json-c/json.h>

/* A new record {"schema": GD_JSON_SCHEMA, "tool": <progname>, "type": type}. */
json_object *gd_json_record(const char *type);
/* Print the record as one line on out and release it. Returns 0 or -EIO. */
int gd_json_emit(json_object *rec, FILE *out);

/* Add helpers that skip NULL strings. */
void gd_json_add_str(json_object *o, const char *key, const char *val);
void gd_json_add_int(json_object *o, const char *key, int64_t val);
void gd_json_add_u64(json_object *o, const char *key, uint64_t val);
void gd_json_add_double(json_object *o, const char *key, double val);
void gd_json_add_bool(json_object *o, const char *key, int val);
/* Add helpers that write null for what is not known: a NULL or "" string, !known. */
void gd_json_add_str_or_null(json_object *o, const char *key, const char *val);
void gd_json_add_int_or_null(json_object *o, const char *key, int64_t val, int known);

#endif
