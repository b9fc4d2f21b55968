/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Unit tests for what each fabric takes and reports (struct gd_fabric_traits,
 * fabric.h): every trait of every fabric (verbs, ofi in every build, the software
 * test double), and the lookup the option checks make before anything is
 * opened (gd_fabric_traits_of the decided kind; gd_fabric_table and the
 * setup table gd_bench_fabric that go with it). A trait
 * flipped in one table fails here; what the tools do with each trait is
 * tests/fabric/ofi-roce.sh's (-S, -e, --tclass, HW rate refused over libfabric),
 * ofi-tools.sh's and tests/json's (the header, the JSON). */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "bench_fabric.h"
#include "fabric.h"
#include "fabric_double.h"

static struct gd_fabric_opts opts(const char *provider)
{
	struct gd_fabric_opts o;

	gd_fabric_opts_defaults(&o);
	snprintf(o.provider, sizeof(o.provider), "%s", provider);
	return o;
}

/* verbs: a port (perftest's report), -S, the whole --tclass byte, the QP's
 * rate limit, -e; no provider; a large write signals each message (the ACK
 * comes anyway); connected before the first message */
static void verbs_traits(void **state)
{
	const struct gd_fabric_traits *t = gd_fabric_verbs.traits;

	(void)state;
	assert_true(t->port);
	assert_true(t->service_level);
	assert_true(t->tclass_ecn);
	assert_true(t->qp_rate_limit);
	assert_false(t->providers);
	assert_false(t->moderates_writes);
	assert_null(t->connects_on_first_op);
	assert_true(t->cq_events);
	assert_non_null(gd_fabric_verbs.arm); /* -e: the trait says what the table has */
}

/* ofi: a domain, no service level, DSCP only, no QP rate limit, no -e; a
 * provider (the GPU copies' rule reads its name: fabric_rule.h); large writes
 * keep the moderation; RDM connects on the first message */
static void ofi_traits(void **state)
{
	const struct gd_fabric_traits *t = &gd_fabric_ofi_traits; /* in every build */
	struct gd_fabric_opts o;

	(void)state;
	assert_false(t->port);
	assert_false(t->service_level);
	assert_false(t->tclass_ecn);
	assert_false(t->qp_rate_limit);
	assert_true(t->providers);
	assert_true(t->moderates_writes);
	assert_false(t->cq_events);
	assert_non_null(t->connects_on_first_op);
	o = opts("tcp");
	assert_true(t->connects_on_first_op(&o)); /* RDM, the default */
	o.ep = GD_EP_MSG;
	assert_false(t->connects_on_first_op(&o));
#ifdef HAVE_LIBFABRIC
	assert_ptr_equal(gd_fabric_ofi.traits, t); /* its table points at them */
	assert_null(gd_fabric_ofi.arm); /* no -e */
#endif
}

/* the proxy's software test double takes none of the options and has no
 * port, provider or completion events */
static void double_traits(void **state)
{
	const struct gd_fabric_traits *t = gd_fabric_test_double.traits;

	(void)state;
	assert_false(t->port);
	assert_false(t->service_level);
	assert_false(t->tclass_ecn);
	assert_false(t->qp_rate_limit);
	assert_false(t->providers);
	assert_false(t->moderates_writes);
	assert_null(t->connects_on_first_op);
	assert_false(t->cq_events);
	assert_null(gd_fabric_test_double.arm);
}

/* before anything is opened: the traits of the kind the decision chose (AUTO,
 * not yet decided, reads as verbs, as the checks did before; ofi's in every
 * build), and the tables that go with them */
static void lookup_by_decision(void **state)
{
	(void)state;
	assert_ptr_equal(gd_fabric_traits_of(GD_FABRIC_VERBS), &gd_fabric_verbs_traits);
	assert_ptr_equal(gd_fabric_traits_of(GD_FABRIC_AUTO), &gd_fabric_verbs_traits);
	assert_ptr_equal(gd_fabric_traits_of(GD_FABRIC_OFI), &gd_fabric_ofi_traits);
	assert_ptr_equal(gd_fabric_verbs.traits, &gd_fabric_verbs_traits);
	assert_ptr_equal(gd_fabric_table(GD_FABRIC_VERBS), &gd_fabric_verbs);
	assert_ptr_equal(gd_fabric_table(GD_FABRIC_AUTO), &gd_fabric_verbs);
	assert_ptr_equal(gd_bench_fabric(GD_FABRIC_VERBS)->ops, &gd_fabric_verbs);
#ifdef HAVE_LIBFABRIC
	assert_ptr_equal(gd_fabric_table(GD_FABRIC_OFI), &gd_fabric_ofi);
	assert_ptr_equal(gd_bench_fabric(GD_FABRIC_OFI)->ops, &gd_fabric_ofi);
#endif
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(verbs_traits),
		cmocka_unit_test(ofi_traits),
		cmocka_unit_test(double_traits),
		cmocka_unit_test(lookup_by_decision),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
