/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The noise guard (trust.h): whether a result should be believed. */
#define _GNU_SOURCE
#include "trust.h"

#include <errno.h>
#include <sched.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <json-c/json.h>

#include "gd.h"
#include "jsonout.h"
#include "machine.h"
#include "sysfs.h"

static const char *const why_names[GD_TRUST_NWHY] = {
	"cap_wide", "avg_tail", "p999_is_max", "cpu_starved", "shared_cpu",
};

const char *gd_trust_why_name(unsigned bit)
{
	for (unsigned i = 0; i < GD_TRUST_NWHY; i++)
		if (bit == 1u << i)
			return why_names[i];
	return NULL;
}

static unsigned bit_index(unsigned bit)
{
	unsigned i = 0;

	while (i < GD_TRUST_NWHY - 1 && bit != 1u << i)
		i++;
	return i;
}

static void add(struct gd_trust *t, unsigned bit, const char *fmt, ...) GD_PRINTF(3, 4);
static void add(struct gd_trust *t, unsigned bit, const char *fmt, ...)
{
	va_list ap;

	t->why |= bit;
	va_start(ap, fmt);
	vsnprintf(t->reason[bit_index(bit)], sizeof(t->reason[0]), fmt, ap);
	va_end(ap);
}

static void assess_lat(const struct gd_lat_stats *st, struct gd_trust *t)
{
	if (st->typical > 0 && st->avg > GD_TRUST_AVG_MEDIAN * st->typical)
		add(t, GD_TRUST_AVG_TAIL, "the average %.3g us is %.1fx the median %.3g us: a few "
		    "very slow samples (preemption, interrupts) carry it", st->avg,
		    st->avg / st->typical, st->typical);
	/* with enough samples p99.9 ranks below the maximum; equal to it, the
	 * slowest 0.1 % sit at one value: a repeated stall or a coarse clock
	 * (fewer samples: p99.9 is the maximum by rank, JSON's p99_9_usec_is_max) */
	if (!(st->at_max & (1u << GD_P999)) && st->n >= gd_stats_min_samples(99.9) &&
	    st->pct[GD_P999] >= st->max && st->max > st->typical)
		add(t, GD_TRUST_P999_MAX, "p99.9 equals the maximum %.3g us over %zu samples: the "
		    "slowest 0.1%% sit at one value (a repeated stall or a coarse clock)", st->max,
		    st->n);
}

static void assess_cpu(const struct gd_trust_in *in, struct gd_trust *t)
{
	uint64_t wall = in->t1.wall_ns - in->t0.wall_ns, cpu = in->t1.cpu_ns - in->t0.cpu_ns;
	double on;
	char load[96] = "";

	if (in->t1.wall_ns <= in->t0.wall_ns || wall < GD_TRUST_MIN_WINDOW_NS ||
	    in->t1.cpu_ns < in->t0.cpu_ns)
		return;
	on = (double)cpu / (double)wall;
	if (on >= GD_TRUST_ONCPU_MIN)
		return;
	if (in->loadavg >= 0 && in->ncpus > 0)
		snprintf(load, sizeof(load), " (load average %.2f on %d CPUs)", in->loadavg,
			 in->ncpus);
	add(t, GD_TRUST_CPU_STARVED, "the measuring thread ran on a CPU %.0f%% of the %.3f s it "
	    "polled: the host is busier than its cores%s", on * 100, (double)wall / 1e9, load);
}

void gd_trust_assess(const struct gd_trust_in *in, struct gd_trust *t)
{
	memset(t, 0, sizeof(*t));
	if (in->windows >= 2 && !in->converged && in->ci95_rel > GD_TRUST_CI_WIDE)
		add(t, GD_TRUST_CAP_WIDE, "the adaptive run stopped at its cap after %u windows with "
		    "a 95%% interval of +-%.1f%% (wider than %.0f%%): lengthen it (-D) or quiet the "
		    "host", in->windows, in->ci95_rel * 100, GD_TRUST_CI_WIDE * 100);
	if (in->lat)
		assess_lat(in->lat, t);
	assess_cpu(in, t);
	if (in->same_host && in->my_cpu >= 0 && in->my_cpu == in->peer_cpu)
		add(t, GD_TRUST_SHARED_CPU, "both sides run on CPU %d of this host (--pin_cores): "
		    "they take turns on one core; pin them to different cores", in->my_cpu);
}

void gd_trust_join(const struct gd_trust *t, char *buf, size_t len)
{
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	for (unsigned i = 0; i < GD_TRUST_NWHY && n < len; i++) {
		int k;

		if (!(t->why & (1u << i)))
			continue;
		k = snprintf(buf + n, len - n, "%s%s", n ? "; " : "", t->reason[i]);
		if (k < 0)
			return;
		n += (size_t)k;
	}
}

const char *gd_trust_verdict(const struct gd_trust *t)
{
	return t->why ? "doubtful" : "ok";
}

void gd_trust_sample(struct gd_trust_sample *s)
{
	struct timespec c, w;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &c);
	clock_gettime(CLOCK_MONOTONIC, &w);
	s->cpu_ns = (uint64_t)c.tv_sec * 1000000000ull + (uint64_t)c.tv_nsec;
	s->wall_ns = (uint64_t)w.tv_sec * 1000000000ull + (uint64_t)w.tv_nsec;
}

int gd_trust_single_cpu(const char *list)
{
	char *end;
	long a, z;

	if (!list || !*list)
		return -1;
	a = strtol(list, &end, 10);
	if (end == list || a < 0 || a >= CPU_SETSIZE)
		return -1;
	z = a;
	if (*end == '-') {
		const char *s = end + 1;

		z = strtol(s, &end, 10);
		if (end == s)
			return -1;
	}
	return *end == '\0' && z == a ? (int)a : -1;
}

void gd_trust_affinity(char *buf, size_t len)
{
	cpu_set_t set;
	size_t n = 0;

	if (len)
		buf[0] = '\0';
	if (!len || sched_getaffinity(0, sizeof(set), &set))
		return;
	for (int c = 0; c < CPU_SETSIZE; c++) {
		int z = c, k;

		if (!CPU_ISSET(c, &set))
			continue;
		while (z + 1 < CPU_SETSIZE && CPU_ISSET(z + 1, &set))
			z++;
		k = z > c ? snprintf(buf + n, len - n, "%s%d-%d", n ? "," : "", c, z) :
			    snprintf(buf + n, len - n, "%s%d", n ? "," : "", c);
		if (k < 0 || (size_t)k >= len - n) { /* too long to carry: not one CPU anyway */
			buf[0] = '\0';
			return;
		}
		n += (size_t)k;
		c = z;
	}
}

void gd_trust_host_load(const struct gd_machine *m, double *loadavg, int *ncpus)
{
	char s[128], *end;

	*loadavg = -1;
	*ncpus = 0;
	if (!gd_sysfs_read_str(m, s, sizeof(s), "/proc/loadavg")) {
		double v = strtod(s, &end);

		if (end != s)
			*loadavg = v;
	}
	if (!gd_sysfs_read_str(m, s, sizeof(s), "/sys/devices/system/cpu/online")) {
		/* "0-3,8-11": count the CPUs */
		const char *p = s;

		while (*p) {
			long a = strtol(p, &end, 10), z;

			if (end == p)
				break;
			z = a;
			if (*end == '-') {
				p = end + 1;
				z = strtol(p, &end, 10);
			}
			*ncpus += z >= a ? (int)(z - a + 1) : 0;
			p = *end == ',' ? end + 1 : end;
			if (*end != ',' )
				break;
		}
	}
}

int gd_cpu_stat_read(const struct gd_machine *m, struct gd_cpu_stat *s)
{
	unsigned long long v[8] = { 0 };
	char *text = NULL;
	int n;

	if (gd_sysfs_read_text(m, &text, "/proc/stat") || !text) {
		free(text);
		return -ENOENT;
	}
	n = sscanf(text, "cpu %llu %llu %llu %llu %llu %llu %llu %llu", &v[0], &v[1], &v[2], &v[3],
		   &v[4], &v[5], &v[6], &v[7]);
	free(text);
	if (n < 4)
		return -EINVAL;
	/* user nice system idle iowait irq softirq steal */
	s->busy = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	s->total = s->busy + v[3] + v[4];
	return 0;
}

double gd_cpu_util_pct(const struct gd_cpu_stat *a, const struct gd_cpu_stat *b)
{
	if (b->total <= a->total || b->busy < a->busy)
		return -1;
	return 100.0 * (double)(b->busy - a->busy) / (double)(b->total - a->total);
}

void gd_trust_to_json(const struct gd_trust *t, struct json_object *obj)
{
	json_object *o = json_object_new_object(), *a = json_object_new_array();

	gd_json_add_str(o, "verdict", gd_trust_verdict(t));
	for (unsigned i = 0; i < GD_TRUST_NWHY; i++) {
		json_object *r;

		if (!(t->why & (1u << i)))
			continue;
		r = json_object_new_object();
		gd_json_add_str(r, "id", why_names[i]);
		gd_json_add_str(r, "text", t->reason[i]);
		json_object_array_add(a, r);
	}
	json_object_object_add(o, "reasons", a);
	json_object_object_add(obj, "trust", o);
}
