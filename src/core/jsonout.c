/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "jsonout.h"

#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "gd.h"
#include "log.h"

const char *gd_json_utc(char *buf, size_t len, const struct timespec *ts)
{
	struct tm tm;
	char sec[32];

	gmtime_r(&ts->tv_sec, &tm);
	strftime(sec, sizeof(sec), "%Y-%m-%dT%H:%M:%S", &tm);
	snprintf(buf, len, "%s.%03ldZ", sec, ts->tv_nsec / 1000000);
	return buf;
}

json_object *gd_json_record(const char *type)
{
	json_object *rec = json_object_new_object();

	json_object_object_add(rec, "schema", json_object_new_int(GD_JSON_SCHEMA));
	json_object_object_add(rec, "tool", json_object_new_string(gd_progname()));
	json_object_object_add(rec, "type", json_object_new_string(type));
	return rec;
}

/* Length of the valid UTF-8 sequence at s (RFC 3629: no overlong forms, no
 * surrogates, nothing past U+10FFFF), or 0 if it is not one. */
static size_t utf8_seq(const unsigned char *s, size_t left)
{
	size_t n;
	uint32_t cp;

	if (s[0] < 0x80)
		return 1;
	if (s[0] >= 0xc2 && s[0] <= 0xdf)
		n = 2, cp = s[0] & 0x1f;
	else if (s[0] >= 0xe0 && s[0] <= 0xef)
		n = 3, cp = s[0] & 0x0f;
	else if (s[0] >= 0xf0 && s[0] <= 0xf4)
		n = 4, cp = s[0] & 0x07;
	else
		return 0;
	if (left < n)
		return 0;
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (s[i] & 0x3f);
	}
	if ((n == 3 && cp < 0x800) || (n == 4 && (cp < 0x10000 || cp > 0x10ffff)) ||
	    (cp >= 0xd800 && cp <= 0xdfff))
		return 0;
	return n;
}

bool gd_json_utf8_valid(const char *s, size_t len)
{
	for (size_t i = 0, n; i < len; i += n)
		if (!(n = utf8_seq((const unsigned char *)s + i, len - i)))
			return false;
	return true;
}

char *gd_json_utf8_fix(const char *s, size_t len)
{
	/* each bad byte becomes U+FFFD (3 bytes) */
	char *out = malloc(3 * len + 1), *p = out;

	if (!out)
		return NULL;
	for (size_t i = 0, n; i < len; i += n) {
		n = utf8_seq((const unsigned char *)s + i, len - i);
		if (n) {
			memcpy(p, s + i, n);
			p += n;
		} else {
			memcpy(p, "\xef\xbf\xbd", 3);
			p += 3;
			n = 1;
		}
	}
	*p = '\0';
	return out;
}

/* A string object for s, its invalid UTF-8 replaced. */
static json_object *new_string(const char *s)
{
	size_t len = strlen(s);
	char *fixed;
	json_object *o;

	if (gd_json_utf8_valid(s, len))
		return json_object_new_string(s);
	fixed = gd_json_utf8_fix(s, len);
	o = json_object_new_string(fixed ? fixed : "");
	free(fixed);
	return o;
}

static json_object *strict(json_object *o);

/* Whether integer o is within +-2^53, where a double holds it exactly. json-c
 * keeps a uint64 above INT64_MAX apart: json_object_get_int64 clamps it. */
static bool int_exact(json_object *o)
{
	int64_t i = json_object_get_int64(o);

	if (i < 0)
		return i >= -(int64_t)GD_JSON_EXACT_MAX;
	return json_object_get_uint64(o) <= GD_JSON_EXACT_MAX;
}

bool gd_json_no_limit(uint64_t limit)
{
	return limit >= GD_JSON_EXACT_MAX;
}

void gd_json_add_limit(json_object *o, const char *key, uint64_t limit)
{
	json_object_object_add(o, key, gd_json_no_limit(limit) ? NULL :
				       json_object_new_uint64(limit));
}

/* An object whose keys are valid UTF-8, its values made strict. */
static json_object *strict_object(json_object *o)
{
	bool keys_ok = true;

	json_object_object_foreach(o, key, val) {
		json_object *v = strict(json_object_get(val));

		if (v != val) /* replaces (and releases) the value in place: iteration goes on */
			json_object_object_add(o, key, v);
		else
			json_object_put(v);
		keys_ok = keys_ok && gd_json_utf8_valid(key, strlen(key));
	}
	if (keys_ok)
		return o;
	json_object *n = json_object_new_object();

	json_object_object_foreach(o, k, v) {
		char *fixed = gd_json_utf8_fix(k, strlen(k));

		json_object_object_add(n, fixed ? fixed : "", json_object_get(v));
		free(fixed);
	}
	json_object_put(o);
	return n;
}

/*
 * The strict form of o: every number finite (NaN and infinities become null)
 * and every integer exact (beyond +-2^53: null), every string valid UTF-8. Returns o itself, or a replacement (o released).
 */
static json_object *strict(json_object *o)
{
	switch (json_object_get_type(o)) {
	case json_type_int:
		if (int_exact(o))
			return o;
		json_object_put(o);
		return NULL;
	case json_type_double:
		if (isfinite(json_object_get_double(o)))
			return o;
		json_object_put(o);
		return NULL;
	case json_type_string: {
		const char *s = json_object_get_string(o);
		int len = json_object_get_string_len(o);

		/* json-c strings may hold NUL: only valid text up to the first one is kept */
		if (gd_json_utf8_valid(s, (size_t)len) && strlen(s) == (size_t)len)
			return o;
		json_object *n = new_string(s);
		json_object_put(o);
		return n;
	}
	case json_type_object:
		return strict_object(o);
	case json_type_array:
		for (size_t i = 0; i < json_object_array_length(o); i++) {
			json_object *v = json_object_array_get_idx(o, i);
			json_object *n = strict(json_object_get(v));

			if (n != v) /* replaces (and releases) the element */
				json_object_array_put_idx(o, i, n);
			else
				json_object_put(v);
		}
		return o;
	default:
		return o;
	}
}

json_object *gd_json_strict(json_object *o)
{
	return strict(o);
}

int gd_json_emit(json_object *rec, FILE *out)
{
	rec = strict(rec);

	const char *s = json_object_to_json_string_ext(rec, JSON_C_TO_STRING_PLAIN |
							       JSON_C_TO_STRING_NOSLASHESCAPE);
	int ret = fprintf(out, "%s\n", s) < 0 ? -EIO : 0;

	json_object_put(rec);
	return ret;
}

void gd_json_add_str(json_object *o, const char *key, const char *val)
{
	if (val)
		json_object_object_add(o, key, new_string(val));
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
	json_object_object_add(o, key, isfinite(val) ? json_object_new_double(val) : NULL);
}

void gd_json_add_bool(json_object *o, const char *key, int val)
{
	json_object_object_add(o, key, json_object_new_boolean(val));
}

void gd_json_add_str_or_null(json_object *o, const char *key, const char *val)
{
	json_object_object_add(o, key, val && *val ? new_string(val) : NULL);
}

void gd_json_add_int_or_null(json_object *o, const char *key, int64_t val, int known)
{
	json_object_object_add(o, key, known ? json_object_new_int64(val) : NULL);
}
