/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef GD_CHECK_SPEC_KEYS_H
#define GD_CHECK_SPEC_KEYS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/*
 * The spec's keys (spec_keys.c), one table: the loader's sections take their keys from it and
 * every numeric key carries the limits of the component its value feeds, from that
 * component's code (the engine's parameter list, gd_matched_params, when it becomes a gd_*
 * option). tests/unit/test_check_spec.c walks it.
 */
enum gd_ck_key_kind {
	GD_CK_KEY_TEXT,		/* a name or a choice */
	GD_CK_KEY_SECTION,	/* a mapping or list of its own keys */
	GD_CK_KEY_INT,		/* a whole number */
	GD_CK_KEY_SIZE,		/* bytes, or K, M, G */
	GD_CK_KEY_SWEEP,	/* [FIRST, LAST], two sizes */
	GD_CK_KEY_SECONDS,	/* whole seconds, s, m */
	GD_CK_KEY_PERCENT,	/* N% */
	GD_CK_KEY_BW,		/* Gb/s ... (or % line, % pcie for thresholds) */
	GD_CK_KEY_LAT,		/* us, ns, ms */
	GD_CK_KEY_RATE,		/* Mpps, Kpps, pps */
	GD_CK_KEY_FACTOR,	/* a plain decimal ratio: 0.5 */
};
struct gd_ck_key {
	const char *section, *key;	/* "test", "size" */
	enum gd_ck_key_kind kind;
	const char *owner;		/* whose limits min and max are ("gd_check's attempts") */
	size_t param;			/* GD_PARAM(member) of the engine's list, or (size_t)-1 */
	uint64_t min, max;		/* the owner's limits when param is (size_t)-1 */
};
const struct gd_ck_key *gd_ck_keys(size_t *n);
const struct gd_ck_key *gd_ck_key_find(const char *section, const char *key);
/* " a b c" of a section, for messages. */
void gd_ck_key_list(const char *section, char *buf, size_t len);
/* A numeric key's limits, and whose they are in words ("the engine's -s/--size"). */
void gd_ck_key_limits(const struct gd_ck_key *k, uint64_t *min, uint64_t *max, char *who,
		      size_t wlen);
/* v within the key's limits (and the engine's further rule, e.g. -m a power of two). */
bool gd_ck_key_valid(const struct gd_ck_key *k, uint64_t v);

#endif
