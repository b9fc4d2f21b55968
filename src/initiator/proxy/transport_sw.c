/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The proxy's transport on the SOFTWARE FABRIC TEST DOUBLE (see transport.h):
 * the test double's fabric table (fabric_double.c) with its QPs, and the one
 * transport (transport.c) over it. No posting code of its own: the tests of
 * the proxy run the chains through the same path as a NIC's.
 */
#include "config.h"

#include "transport.h"

#include <stdlib.h>

#include "fabric_double.h"

struct gd_sw_transport {
	struct gd_fab_double *d;
	struct gd_qp_run *q;
	struct gd_transport *tp;
};

struct gd_sw_transport *gd_sw_transport_create(void *local, void *peer, uint64_t bytes,
					       uint32_t nqps, uint32_t nthreads, uint32_t cq_depth,
					       uint64_t fail_after)
{
	struct gd_sw_transport *t = calloc(1, sizeof(*t));

	if (!t)
		return NULL;
	t->d = gd_fab_double_create(local, peer, bytes, nthreads, cq_depth, fail_after);
	t->q = calloc(nqps, sizeof(*t->q));
	if (!t->d || !t->q) {
		gd_sw_transport_destroy(t);
		return NULL;
	}
	for (uint32_t i = 0; i < nqps; i++)
		gd_fab_double_qp_run(t->d, i, &t->q[i]);
	/* every request in range fits a chain: the proxy's batch is its bound */
	t->tp = gd_transport_create(&gd_fabric_test_double, t->q, nqps, nthreads, GD_MAX_POST_LIST,
				 0);
	if (!t->tp) {
		gd_sw_transport_destroy(t);
		return NULL;
	}
	return t;
}

void gd_sw_transport_destroy(struct gd_sw_transport *t)
{
	if (!t)
		return;
	gd_transport_destroy(t->tp);
	gd_fab_double_destroy(t->d);
	free(t->q);
	free(t);
}

struct gd_transport *gd_sw_transport_tp(struct gd_sw_transport *t)
{
	return t->tp;
}

void gd_sw_transport_set_delay(struct gd_sw_transport *t, uint64_t ns)
{
	gd_fab_double_set_delay(t->d, ns);
}

uint64_t gd_sw_transport_executed(const struct gd_sw_transport *t)
{
	return gd_fab_double_executed(t->d);
}
