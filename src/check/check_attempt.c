/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Retries, honestly: a run that missed a performance threshold runs again, up to the
 * spec's retries. Each attempt is judged by the one judge (into a scratch report) and kept;
 * the report shows them all. A run that could not run (ERROR) is never retried, and a run
 * that failed otherwise (a completion error) is not a threshold missed. One rule for every
 * test that retries: a run's thresholds (gd_ck_tries_add, check_run.c) and the aggregate of
 * an all-nics run (check_allnics.c: every NIC again, together) both keep their attempts
 * with gd_ck_tries_keep and ask gd_ck_tries_again whether to run once more.
 */
#include <stdio.h>
#include <stdlib.h>

#include "check_int.h"

int gd_ck_retries(const struct gd_ck_spec *s, const struct gd_ck_test *t)
{
	return t->retries >= 0 ? t->retries : s && s->retries >= 0 ? s->retries :
		GD_CK_RETRIES_DEFAULT;
}

bool gd_ck_tries_keep(struct gd_ck_tries *tr, const struct gd_ck_test *t,
		      const struct gd_ck_report *tmp, double seconds, bool ran)
{
	bool missed = false;
	size_t k = tr->n;

	tr->retry = false;
	if (k == GD_CK_MAX_ATTEMPTS)
		return false;
	for (size_t i = 0; i < tmp->n && i < GD_CK_MAX_THRESH; i++) {
		struct gd_ck_attempt *a = &tr->a[i][k];

		a->status = tmp->items[i].status;
		a->seconds = seconds;
		snprintf(a->measured, sizeof(a->measured), "%s", tmp->items[i].measured);
		a->has_value = tmp->items[i].has_value && a->measured[0];
		a->value = tmp->items[i].value;
		snprintf(a->unit, sizeof(a->unit), "%s", tmp->items[i].unit);
		missed |= a->status == GD_CK_FAIL;
	}
	tr->nitems = tmp->n < GD_CK_MAX_THRESH ? tmp->n : GD_CK_MAX_THRESH;
	tr->n++;
	/* only a measurement that missed: not a run that could not run, nor one that failed */
	tr->retry = missed && t->nth && ran;
	return tr->retry;
}

bool gd_ck_tries_add(struct gd_ck_tries *tr, const struct gd_ck_run *run,
		     const struct gd_ck_measure *m, double seconds)
{
	struct gd_ck_report tmp = { 0 };
	bool retry;

	gd_ck_thresholds(&tmp, run, m, seconds);
	retry = gd_ck_tries_keep(tr, run->t, &tmp, seconds, !m->exit_code && m->nsizes);
	gd_ck_report_free(&tmp);
	return retry;
}

bool gd_ck_tries_again(const struct gd_ck_spec *s, const struct gd_ck_test *t,
		       const struct gd_ck_report *r, const struct gd_ck_tries *tr)
{
	if (gd_ck_ladder_blocked(r))
		return false;
	if (!tr->n)
		return true;
	return tr->retry && !gd_ck_stop && tr->n < (size_t)gd_ck_retries(s, t) + 1;
}

void gd_ck_tries_attach(struct gd_ck_report *r, size_t first, const struct gd_ck_tries *tr)
{
	for (size_t i = 0; i < tr->nitems && first + i < r->n; i++) {
		struct gd_ck_item *it = &r->items[first + i];

		it->nattempts = tr->n;
		for (size_t k = 0; k < tr->n; k++)
			it->attempts[k] = tr->a[i][k];
		if (tr->n > 1 && it->status == GD_CK_PASS)
			r->retried++;
	}
}
