/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The path a test actually used against its expect: (registration, path class, staging,
 * initiator, producer, fabric, provider). What ran is what the engine reports (its plan
 * facts, kept in the item's where by check_where.c); a difference is a silent fallback:
 * FAIL with what was expected and what ran.
 */
#include <stdio.h>
#include <string.h>

#include "check_int.h"
#include "judge.h"
#include "locality.h"

struct cmp {
	char measured[96], expected[96], ev[320];
	bool ok;
};

static void add(char *buf, size_t len, const char *key, const char *val)
{
	size_t n = strlen(buf);

	snprintf(buf + n, len - n, "%s%s %s", n ? ", " : "", key, val);
}

/* One key: want ("" not expected) against got ("" not known). */
static void key(struct cmp *c, const char *name, const char *want, const char *got, bool ok)
{
	size_t n = strlen(c->ev);

	if (!want[0])
		return;
	add(c->expected, sizeof(c->expected), name, want);
	add(c->measured, sizeof(c->measured), name, got[0] ? got : "unknown");
	if (ok)
		return;
	c->ok = false;
	snprintf(c->ev + n, sizeof(c->ev) - n, "%sexpected %s %s, ran %s", n ? "; " : "", name,
		 want, got[0] ? got : "unknown");
}

/* The class of a name gd_loc_class_str gives (GD_LOC_NA for another). */
static int class_of(const char *s)
{
	for (int c = GD_LOC_X; c < GD_LOC_NA; c++)
		if (!strcmp(gd_loc_class_str((enum gd_loc_class)c), s))
			return c;
	return GD_LOC_NA;
}

static void compare(struct cmp *c, const struct gd_ck_expect *e, const struct gd_ck_where *w)
{
	const char *path = e->path >= 0 ? gd_loc_class_str((enum gd_loc_class)e->path) : "";
	const char *staging = e->staging < 0 ? "" : e->staging ? "yes" : "no";
	const char *ran_staging = w->staging < 0 ? "" : w->staging ? "yes" : "no";

	c->ok = true;
	key(c, "registration", e->registration, w->registration,
	    !strcmp(e->registration, w->registration));
	/* the class or a nearer one: PIX meets "PXB" */
	key(c, "path", path, w->path, e->path >= 0 && class_of(w->path) <= e->path);
	key(c, "staging", staging, ran_staging, !strcmp(staging, ran_staging));
	key(c, "initiator", e->initiator, w->initiator, !strcmp(e->initiator, w->initiator));
	key(c, "producer", e->producer, w->producer, !strcmp(e->producer, w->producer));
	key(c, "fabric", e->fabric, w->fabric, !strcmp(e->fabric, w->fabric));
	key(c, "provider", e->provider, w->provider, !strcmp(e->provider, w->provider));
}

void gd_ck_expect_item(struct gd_ck_report *r, const struct gd_ck_run *run,
		       const struct gd_ck_measure *m, double seconds)
{
	const struct gd_ck_expect *e = &run->t->expect;
	struct gd_ck_item *it;
	struct cmp c = { 0 };
	char ev[sizeof(c.ev) + 64];

	if (!e->given || !(it = gd_ck_run_item(r, run, m, seconds, "path used")))
		return;
	compare(&c, e, &it->where);
	snprintf(it->expected, sizeof(it->expected), "%s", c.expected);
	if (gd_ck_unfinished(it, m))
		return;
	snprintf(it->measured, sizeof(it->measured), "%s", c.measured);
	snprintf(ev, sizeof(ev), "a silent fallback: %s", c.ev);
	gd_ck_judge_holds(it, c.ok, c.ok ? NULL : ev);
}
