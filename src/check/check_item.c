/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The report's items: adding one, a run's item, a run that did not finish. Below
 * the sections that make items (check_eval, check_expect, check_fleet, ...). */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "check_int.h"
#include "clock.h"
#include "judge.h"

const char *gd_ck_section_name(enum gd_ck_section s)
{
	static const char *const n[] = { "topology", "devices", "doctor", "tests" };
	return s < GD_CK_NSEC ? n[s] : "?";
}

struct gd_ck_item *gd_ck_add(struct gd_ck_report *r, enum gd_ck_section sec, const char *fmt, ...)
{
	struct gd_ck_item *it;
	uint64_t now;
	va_list ap;

	if (r->n == r->cap) {
		size_t cap = r->cap ? r->cap * 2 : 32;
		struct gd_ck_item *v = realloc(r->items, cap * sizeof(*v));

		if (!v)
			return NULL;
		r->items = v;
		r->cap = cap;
	}
	it = &r->items[r->n++];
	memset(it, 0, sizeof(*it));
	now = gd_clock_mono_ns();
	/* a check's own time: what was done since the item before it (a run's items
	 * are given the run's time after this) */
	it->seconds = r->last_add_ns && now > r->last_add_ns ? (double)(now - r->last_add_ns) / 1e9 : 0;
	r->last_add_ns = now;
	clock_gettime(CLOCK_REALTIME, &it->added);
	it->section = sec;
	it->rung = r->rung_now;
	it->blocked_by = gd_ck_ladder_blocked(r);
	va_start(ap, fmt);
	vsnprintf(it->name, sizeof(it->name), fmt, ap);
	va_end(ap);
	return it;
}

/* A run that did not end with results: the hardware failed it (engine exit 1), or it could not
 * run (exit 2, 3, a signal): ERROR. 1 when judged here. */
int gd_ck_unfinished(struct gd_ck_item *it, const struct gd_ck_measure *m)
{
	char ev[320];

	if (!m->exit_code && m->nsizes)
		return 0;
	snprintf(ev, sizeof(ev), "%s", m->error[0] ? m->error : "no result");
	if (gd_ck_engine_not_run(m->exit_code))
		gd_ck_judge_not_run(it, ev);
	else
		gd_ck_judge_holds(it, false, ev);
	return 1;
}

/* The item of one run, with what every item of it shares. */
struct gd_ck_item *gd_ck_run_item(struct gd_ck_report *r, const struct gd_ck_run *run,
				   const struct gd_ck_measure *m, double seconds, const char *what)
{
	struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s %s: %s", run->t->name,
					  run->label, what);
	size_t k = m->nsizes ? m->nsizes - 1 : 0;

	if (!it)
		return NULL;
	it->seconds = seconds;
	snprintf(it->path_class, sizeof(it->path_class), "%s", run->cls);
	gd_ck_where_set(it, run, m);
	gd_ck_command(run, m->nsizes ? m->size[k] : run->t->size, it->command, sizeof(it->command));
	return it;
}

void gd_ck_item_value(struct gd_ck_item *it, double value, const char *unit)
{
	it->has_value = true;
	it->value = value;
	snprintf(it->unit, sizeof(it->unit), "%s", unit);
}
