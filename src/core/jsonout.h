/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* JSON Lines output through json-c: one object per record, with a schema version. */
#ifndef GD_JSONOUT_H
#define GD_JSONOUT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <time.h>
#include <json-c/json.h>

/* A new record {"schema": GD_JSON_SCHEMA, "tool": <progname>, "type": type}. */
json_object *gd_json_record(const char *type);
/* A CLOCK_REALTIME time as UTC ISO 8601 with milliseconds ("2026-11-29T15:14:03.123Z"):
 * every record's time field (bench "time", gd_check "started"). Returns buf. */
const char *gd_json_utc(char *buf, size_t len, const struct timespec *ts);
/* Print the record as one line on out and release it. Returns 0 or -EIO. */
int gd_json_emit(json_object *rec, FILE *out);

/*
 * Strict JSON: every record printed by gd_json_emit is first made strict:
 * every number finite (NaN and infinities become null), every string and key
 * valid UTF-8 (each invalid byte becomes U+FFFD). The add helpers below do the
 * same as they add. gd_json_strict returns o or its replacement (o released).
 */
json_object *gd_json_strict(json_object *o);
/*
 * Exact integers: a JSON reader that holds numbers as IEEE doubles (JavaScript,
 * jq 1.6, most dashboards) keeps an integer exact only within +-2^53. Every
 * integer gdperf prints is within that range; one beyond it is null, as a
 * non-finite number is (gd_json_strict). A size limit at or beyond 2^53 bytes
 * (8 PiB: libfabric's SIZE_MAX and its near-SIZE_MAX values) is no limit in
 * practice: gd_json_no_limit says so, the text says "any", JSON null.
 */
#define GD_JSON_EXACT_MAX (UINT64_C(1) << 53)
bool gd_json_no_limit(uint64_t limit);
/* A size limit: the number, or null when gd_json_no_limit. */
void gd_json_add_limit(json_object *o, const char *key, uint64_t limit);
bool gd_json_utf8_valid(const char *s, size_t len);
/* A malloc'd copy of s with every invalid byte replaced by U+FFFD. */
char *gd_json_utf8_fix(const char *s, size_t len);

/* Add helpers that skip NULL strings; a non-finite double is added as null. */
void gd_json_add_str(json_object *o, const char *key, const char *val);
void gd_json_add_int(json_object *o, const char *key, int64_t val);
void gd_json_add_u64(json_object *o, const char *key, uint64_t val);
void gd_json_add_double(json_object *o, const char *key, double val);
void gd_json_add_bool(json_object *o, const char *key, int val);
/* Add helpers that write null for what is not known: a NULL or "" string, !known. */
void gd_json_add_str_or_null(json_object *o, const char *key, const char *val);
void gd_json_add_int_or_null(json_object *o, const char *key, int64_t val, int known);

#endif
