/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* A run's port counters, judged (check_counters.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "check_counters.h"
#include "fabric.h"
#include "judge.h"
#include "log.h"
#include "sysfs.h"

int gd_ck_counters_port(const struct gd_machine *m, const struct gd_ck_run *run, char *dev,
			size_t len, int *port)
{
	const struct gd_ck_test *t = run->t;
	char name[sizeof(run->fab.domain)];
	size_t n;

	*port = 1;
	if (gd_fabric_traits_of(run->fab.fabric)->port) { /* the run's own port */
		snprintf(dev, len, "%s", run->dev);
		*port = run->port > 0 ? run->port : 1;
		return run->dev[0] ? 0 : -ENOENT;
	}
	if (t->ctr_dev[0]) {
		snprintf(dev, len, "%s", t->ctr_dev);
		*port = t->ctr_port > 0 ? t->ctr_port : 1;
		return 0;
	}
	/* a libfabric domain over an RDMA device: verbs' is the device, efa's adds a suffix */
	snprintf(name, sizeof(name), "%s", run->fab.domain);
	n = strlen(name);
	if (n > 4 && !strcmp(name + n - 4, "-rdm"))
		name[n - 4] = 0;
	else if (n > 5 && !strcmp(name + n - 5, "-dgrm"))
		name[n - 5] = 0;
	if (!name[0] || strchr(name, '/') || !gd_sysfs_exists(m, "/sys/class/infiniband/%s", name))
		return -ENOENT;
	snprintf(dev, len, "%s", name);
	return 0;
}

void gd_ck_counters_before(const struct gd_machine *m, const struct gd_ck_run *run,
			   struct gd_ck_ctr_run *c)
{
	memset(c, 0, sizeof(*c));
	if (gd_ck_counters_port(m, run, c->dev, sizeof(c->dev), &c->port))
		return;
	c->sampled = true;
	c->err = gd_pc_sample(m, c->dev, c->port, &c->before);
}

static int64_t tolerated(const struct gd_ck_test *t, const char *name)
{
	for (size_t i = 0; i < t->ntolerate; i++)
		if (!strcmp(t->tolerate[i].name, name))
			return (int64_t)t->tolerate[i].max;
	return -1;
}

const char *gd_ck_ctr_class(const struct gd_ck_ctr *x)
{
	return x->error ? "error" : x->congestion ? "congestion" : "info";
}

/* "write bw, 65536 bytes" */
static void what_ran(const struct gd_ck_test *t, char *buf, size_t len)
{
	if (t->sweep_min)
		snprintf(buf, len, "%s %s, %llu to %llu bytes", gd_bench_op_name(t->op),
			 gd_bench_kind_name(t->kind), (unsigned long long)t->sweep_min,
			 (unsigned long long)t->sweep_max);
	else
		snprintf(buf, len, "%s %s, %llu bytes", gd_bench_op_name(t->op),
			 gd_bench_kind_name(t->kind), (unsigned long long)t->size);
}

#define APPEND(buf, ...)                                                                     \
	do {                                                                                  \
		size_t o_ = strlen(buf);                                                      \
		if (o_ < sizeof(buf))                                                         \
			snprintf((buf) + o_, sizeof(buf) - o_, __VA_ARGS__);                  \
	} while (0)

/* Said once a port: its counters that could not be read (they are not judged). */
static void say_unreadable(const struct gd_ck_ctrs *c)
{
	static char said[32][96];
	static size_t n;
	char key[96];

	if (!c->unreadable[0])
		return;
	snprintf(key, sizeof(key), "%s:%d", c->dev, c->port);
	for (size_t i = 0; i < n; i++)
		if (!strcmp(said[i], key))
			return;
	if (n < 32)
		snprintf(said[n++], sizeof(said[0]), "%s", key);
	gd_warn("%s port %d: counters not judged, they could not be read: %s", c->dev, c->port,
		c->unreadable);
}

/* The order of the item's list: errors, then congestion, then traffic. */
static int rank(enum gd_pc_class cls)
{
	return cls == GD_PC_ERROR ? 2 : cls == GD_PC_CONGESTION;
}

static int listed_rank(const struct gd_ck_ctr *x)
{
	return rank(x->error ? GD_PC_ERROR : x->congestion ? GD_PC_CONGESTION : GD_PC_INFO);
}

/* Where a moved counter goes in the item's list: the next entry, or when it is full the place
 * of one of a lower rank, the lowest (errors are listed first of all, congestion before
 * traffic); NULL: counted in more. */
static struct gd_ck_ctr *slot(struct gd_ck_ctrs *c, enum gd_pc_class cls)
{
	size_t cap = sizeof(c->moved) / sizeof(c->moved[0]);
	struct gd_ck_ctr *low = NULL;

	if (c->nmoved < cap)
		return &c->moved[c->nmoved++];
	c->more++;
	for (size_t i = 0; i < cap; i++)
		if (listed_rank(&c->moved[i]) < rank(cls) &&
		    (!low || listed_rank(&c->moved[i]) < listed_rank(low)))
			low = &c->moved[i];
	return low;
}

/* One counter's change into the item; an error beyond its bound into ev: 1, else 0. */
static int one_delta(struct gd_ck_item *it, const struct gd_ck_test *t, const struct gd_pc_delta *d,
		     const char *ran, char *ev, size_t evlen)
{
	struct gd_ck_ctrs *c = &it->ctr;
	int64_t tol = tolerated(t, d->name);
	struct gd_ck_ctr *x;
	size_t o = strlen(ev);

	if (d->err || d->went_back) {
		APPEND(c->unreadable, "%s%s/%s%s%s (%s)", c->unreadable[0] ? ", " : "",
		       gd_pc_source_name(d->src), d->src == GD_PC_ETHTOOL ? d->ifname : "",
		       d->src == GD_PC_ETHTOOL ? ":" : "", d->name,
		       d->went_back ? "went back during the run" : strerror(-d->err));
		return 0;
	}
	c->sampled++;
	if (!d->delta)
		return 0;
	x = slot(c, d->cls);
	if (x) {
		snprintf(x->name, sizeof(x->name), "%s", d->name);
		snprintf(x->src, sizeof(x->src), "%s", gd_pc_source_name(d->src));
		snprintf(x->netdev, sizeof(x->netdev), "%s", d->ifname);
		x->delta = d->delta;
		x->error = d->cls == GD_PC_ERROR;
		x->congestion = d->cls == GD_PC_CONGESTION;
		x->tolerated = x->error ? tol : -1;
	}
	if (d->cls != GD_PC_ERROR || (tol >= 0 && d->delta <= (uint64_t)tol))
		return 0;
	if (o < evlen)
		snprintf(ev + o, evlen - o, "%s%s port %d %s%s%s +%llu during %s (%s): %s",
			 o ? "; " : "", c->dev, c->port, d->ifname, d->ifname[0] ? " " : "",
			 d->name, (unsigned long long)d->delta, t->name, ran, d->why);
	return 1;
}

static void expected_text(struct gd_ck_item *it, const struct gd_ck_test *t)
{
	snprintf(it->expected, sizeof(it->expected), "no error counter moves");
	for (size_t i = 0; i < t->ntolerate; i++)
		APPEND(it->expected, "%s%s <= %llu", i ? ", " : " (tolerated: ", t->tolerate[i].name,
		       (unsigned long long)t->tolerate[i].max);
	if (t->ntolerate)
		APPEND(it->expected, ")");
}

/* The moved counters that are not failures, for the message: "rcvd_pkts +812, ...". */
static void reported(const struct gd_ck_item *it, const char *ev, char *buf, size_t len)
{
	const struct gd_ck_ctrs *c = &it->ctr;
	size_t o = (size_t)snprintf(buf, len, "%s%s%zu counter(s) of %s port %d%s%s%s sampled", ev,
				    ev[0] ? "; " : "", c->sampled, c->dev, c->port,
				    c->netdev[0] ? " (netdev " : "", c->netdev,
				    c->netdev[0] ? ")" : "");

	for (size_t i = 0, k = 0; i < c->nmoved && o < len; i++) {
		const struct gd_ck_ctr *x = &c->moved[i];

		if (x->error && x->tolerated < 0)
			continue;
		o += (size_t)snprintf(buf + o, len - o, "%s%s +%llu%s", k++ ? ", " : "; moved: ",
				      x->name, (unsigned long long)x->delta,
				      x->error ? " (tolerated)" : "");
	}
	if (c->unreadable[0] && o < len)
		snprintf(buf + o, len - o, "; not read (not judged): %s", c->unreadable);
}

void gd_ck_counters_judge(struct gd_ck_item *it, const struct gd_ck_test *t,
			  const struct gd_pc_sample *before, const struct gd_pc_sample *after)
{
	struct gd_ck_ctrs *c = &it->ctr;
	struct gd_pc_delta *d;
	char ran[96], ev[sizeof(it->message)], msg[sizeof(it->message)];
	size_t n, bad = 0;

	memset(c, 0, sizeof(*c));
	snprintf(c->dev, sizeof(c->dev), "%s", after->dev);
	snprintf(c->netdev, sizeof(c->netdev), "%s", after->netdev);
	c->port = after->port;
	expected_text(it, t);
	if (gd_pc_deltas(before, after, &d, &n)) {
		gd_ck_judge_not_run(it, "out of memory");
		return;
	}
	what_ran(t, ran, sizeof(ran));
	ev[0] = 0;
	for (size_t i = 0; i < n; i++)
		bad += (size_t)one_delta(it, t, &d[i], ran, ev, sizeof(ev));
	free(d);
	say_unreadable(c);
	if (!c->sampled) {
		gd_ck_judge_skip(it, GD_CK_SKIP_NO_COUNTERS, c->unreadable[0] ? c->unreadable :
				 "the port has no counters, hw_counters, netdev or ethtool "
				 "statistics");
		return;
	}
	if (bad)
		snprintf(it->measured, sizeof(it->measured), "%zu error counter(s) moved", bad);
	else
		snprintf(it->measured, sizeof(it->measured), "no error counter moved");
	gd_ck_item_value(it, (double)bad, "");
	reported(it, ev, msg, sizeof(msg));
	gd_ck_judge_holds(it, !bad, msg);
}

/* The run's port could not be sampled: a port the spec names and this machine lacks FAILs,
 * else the counters cannot be judged. */
static void not_sampled(struct gd_ck_item *it, const struct gd_ck_test *t,
			const struct gd_ck_ctr_run *c, int err)
{
	char ev[256];

	snprintf(it->ctr.dev, sizeof(it->ctr.dev), "%s", c->dev);
	it->ctr.port = c->port;
	expected_text(it, t);
	snprintf(ev, sizeof(ev), "%s port %d: %s", c->dev, c->port,
		 err == -ENODEV ? "no such RDMA device or port here" : strerror(-err));
	if (err == -ENODEV && t->ctr_dev[0]) {
		snprintf(it->measured, sizeof(it->measured), "no port %s:%d", c->dev, c->port);
		APPEND(ev, " (the test's counters_port: name a port of this machine, gd_devinfo "
		       "lists them)");
		gd_ck_judge_holds(it, false, ev);
	} else {
		gd_ck_judge_skip(it, GD_CK_SKIP_NO_COUNTERS, ev);
	}
}

/* Sample the run's port after it and judge its counters into it (name set); frees c. */
static void judge_into(struct gd_ck_item *it, const struct gd_machine *m,
		       const struct gd_ck_test *t, struct gd_ck_ctr_run *c)
{
	struct gd_pc_sample after;
	int err = c->err;

	if (!err)
		err = gd_pc_sample(m, c->dev, c->port, &after);
	if (err)
		not_sampled(it, t, c, err);
	else {
		gd_ck_counters_judge(it, t, &c->before, &after);
		gd_pc_free(&after);
	}
	gd_pc_free(&c->before);
	c->sampled = false;
}

void gd_ck_counters_item(struct gd_ck_report *r, const struct gd_machine *m,
			 const struct gd_ck_run *run, const struct gd_ck_measure *ms, double seconds,
			 struct gd_ck_ctr_run *c)
{
	struct gd_ck_item *it;

	if (!c->sampled)
		return;
	it = gd_ck_run_item(r, run, ms, seconds, "counters");
	if (it)
		judge_into(it, m, run->t, c);
	gd_pc_free(&c->before);
	c->sampled = false;
}

void gd_ck_counters_side(const struct gd_machine *m, const struct gd_ck_run *run,
			 struct gd_ck_ctr_run *c, const char *who, struct gd_ck_ctr_side *out)
{
	struct gd_ck_item *it;

	memset(out, 0, sizeof(*out));
	if (!c->sampled)
		return;
	it = calloc(1, sizeof(*it));
	if (!it) {
		gd_pc_free(&c->before);
		c->sampled = false;
		return;
	}
	snprintf(it->name, sizeof(it->name), "%s: counters", who);
	judge_into(it, m, run->t, c);
	out->judged = true;
	out->status = it->status;
	snprintf(out->measured, sizeof(out->measured), "%s", it->measured);
	snprintf(out->expected, sizeof(out->expected), "%s", it->expected);
	snprintf(out->message, sizeof(out->message), "%s", it->message);
	out->ctr = it->ctr;
	out->errors = it->has_value ? it->value : 0;
	free(it);
}

void gd_ck_counters_side_item(struct gd_ck_report *r, const struct gd_ck_run *run,
			      const struct gd_ck_measure *ms, double seconds, const char *who,
			      const struct gd_ck_ctr_side *s)
{
	struct gd_ck_item *it;
	char what[96];

	if (!s->judged)
		return;
	snprintf(what, sizeof(what), "counters %s", who);
	it = gd_ck_run_item(r, run, ms, seconds, what);
	if (!it)
		return;
	/* judged on the side's own rank, where its port is: the verdict travels whole */
	it->status = s->status;
	snprintf(it->measured, sizeof(it->measured), "%s", s->measured);
	snprintf(it->expected, sizeof(it->expected), "%s", s->expected);
	snprintf(it->message, sizeof(it->message), "%s", s->message);
	if (s->measured[0])
		gd_ck_item_value(it, s->errors, "");
	it->ctr = s->ctr;
}
