/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gd_check under mpirun/srun: each node checked by its host's lowest rank, gathered by rank 0
 * (its items and its NIC x memory matrix). */
#include "config.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_matrix.h"
#include "check_nodes.h"
#include "judge.h"
#include "launch.h"

#define STEP_MS (120 * 1000)

int gd_ck_nodes_start(struct gd_ck_nodes *nd, const char *host, double est_s)
{
	const struct gd_launch *l = gd_launch();
	struct who {
		char host[64];
		double est_s;
	} me = { .est_s = est_s }, *all = calloc((size_t)l->size, sizeof(*all));
	double slow = 0;
	int ret;

	memset(nd, 0, sizeof(*nd));
	if (!all)
		return -ENOMEM;
	snprintf(me.host, sizeof(me.host), "%s", host);
	if ((ret = gd_launch_allgather(&me, all, sizeof(me), STEP_MS, "the ranks' hosts"))) {
		free(all);
		return ret;
	}
	nd->leader = true;
	for (int i = 0; i < l->size; i++) {
		bool first = true;

		for (int j = 0; j < i && first; j++)
			first = strcmp(all[i].host, all[j].host) != 0;
		if (i == l->rank) {
			nd->leader = first;
			nd->host_index = nd->nhosts - !first;
		}
		nd->nhosts += first;
		if (all[i].est_s > slow)
			slow = all[i].est_s;
	}
	/* the slowest node's tests (twice their estimate) and its other checks (a step) */
	slow = slow * 2000.0 + 2 * STEP_MS;
	nd->deadline_ms = slow > INT_MAX ? INT_MAX : (int)slow;
	free(all);
	return 0;
}

/* "HOST: NAME" for the items of a launch over several hosts, and the item's node. */
static void mark(struct gd_ck_item *it, const char *host, int nhosts)
{
	char name[sizeof(it->name) + sizeof(it->node) + 2];

	snprintf(it->node, sizeof(it->node), "%s", host);
	if (nhosts < 2)
		return;
	snprintf(name, sizeof(name), "%s: %s", it->node, it->name);
	snprintf(it->name, sizeof(it->name), "%.*s", (int)sizeof(it->name) - 1, name);
}

struct head {
	int ret;		/* the rank's node checks' result */
	int leader;
	size_t n;		/* its items */
	size_t ncells;		/* its node's NIC x memory matrix cells */
	char host[64];
};

/* Rank 0: rank j's items, or an ERROR item naming the node whose checks ended with an error. */
static void take(struct gd_ck_report *r, const struct head *h, const struct gd_ck_item *v,
		 int j, int nhosts)
{
	char ev[160];

	for (size_t i = 0; i < h->n; i++) {
		struct gd_ck_item *it = gd_ck_add(r, v[i].section, "%s", v[i].name);

		if (!it)
			return;
		*it = v[i];
		mark(it, h->host, nhosts);
		if (it->status == GD_CK_FAIL && it->rung > 0 && it->rung < GD_CK_RUNG_NODES &&
		    (!r->failed_rung || it->rung < r->failed_rung))
			r->failed_rung = it->rung;
	}
	if (h->ret) {
		struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "%s: node checks", h->host);

		snprintf(ev, sizeof(ev), "rank %d's checks of %s ended with exit code %d (its "
			 "error message says why)", j, h->host, h->ret);
		if (it)
			gd_ck_judge_not_run(it, ev);
	}
}

/* Rank j's matrix cells to rank 0, each marked with its node (every node's matrix, not rank
 * 0's alone). 0, or the launch's error. */
static int gather_cells(struct gd_ck_report *r, const struct head *h, int j)
{
	const struct gd_launch *l = gd_launch();
	struct gd_ck_cell *v;
	int err;

	if (!h->ncells)
		return 0;
	v = l->rank == j ? r->matrix->v : calloc(h->ncells, sizeof(*v));
	if (!v)
		return -ENOMEM; /* the launch cannot go on: gd_launch_fini aborts it */
	err = gd_launch_bcast(v, h->ncells * sizeof(*v), j, STEP_MS, "a node's matrix");
	if (!err && l->rank == 0 && gd_ck_matrix_append(&r->matrix, v, h->ncells, h->host))
		err = -ENOMEM;
	if (l->rank != j)
		free(v);
	return err;
}

int gd_ck_nodes_gather(struct gd_ck_nodes *nd, struct gd_ck_report *r, int ret)
{
	const struct gd_launch *l = gd_launch();
	struct head h;
	int err = 0, rung;

	for (size_t i = 0; l->rank == 0 && i < r->n; i++)
		mark(&r->items[i], r->host.hostname, nd->nhosts);
	for (size_t i = 0; l->rank == 0 && r->matrix && i < r->matrix->n; i++)
		snprintf(r->matrix->v[i].node, sizeof(r->matrix->v[i].node), "%s", r->host.hostname);
	nd->failed = ret != 0;
	for (int j = 1; j < l->size && !err; j++) {
		struct gd_ck_item *v = NULL;

		memset(&h, 0, sizeof(h));
		if (l->rank == j) {
			h = (struct head){ ret, nd->leader, nd->leader ? r->n : 0,
					   nd->leader && r->matrix ? r->matrix->n : 0, "" };
			snprintf(h.host, sizeof(h.host), "%s", r->host.hostname);
		}
		if ((err = gd_launch_bcast(&h, sizeof(h), j, nd->deadline_ms, "a node's checks")))
			break;
		nd->failed |= h.ret != 0;
		if (h.n && !(v = l->rank == j ? r->items : calloc(h.n, sizeof(*v))))
			err = -ENOMEM; /* the launch cannot go on: gd_launch_fini aborts it */
		else if (h.n)
			err = gd_launch_bcast(v, h.n * sizeof(*v), j, STEP_MS, "a node's results");
		if (!err && l->rank == 0)
			take(r, &h, v, j, nd->nhosts);
		if (v != r->items)
			free(v);
		if (!err)
			err = gather_cells(r, &h, j);
	}
	/* the fleet's lowest failed rung, rank 0's word: rung 7 runs everywhere or nowhere */
	rung = r->failed_rung;
	if (!err)
		err = gd_launch_bcast(&rung, sizeof(rung), 0, STEP_MS, "the ladder's failed rung");
	r->failed_rung = rung;
	return err;
}
