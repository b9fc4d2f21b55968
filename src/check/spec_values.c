/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* Values in a gd_check spec: sizes, durations, rates and thresholds with their units. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "spec_values.h"
#include "log.h"

static const char *const metric_names[GD_CK_NMETRIC] = {
	"min_bw", "min_peak_bw", "min_msg_rate", "max_lat", "max_lat_avg", "max_lat_p50",
	"max_lat_p99", "max_lat_p999", "max_lat_max",
};
static const char *const metric_units[GD_CK_NMETRIC] = { "Gb/s", "Gb/s", "Mpps", "us", "us",
							 "us", "us", "us", "us" };
/* What each compares, in the judge's words: the plain max_lat is the median. */
static const char *const metric_stats[GD_CK_NMETRIC] = {
	"average bandwidth", "peak bandwidth", "message rate", "p50 latency", "average latency",
	"p50 latency", "p99 latency", "p99.9 latency", "maximum latency",
};

const char *gd_ck_metric_stat(enum gd_ck_metric m)
{
	return m < GD_CK_NMETRIC ? metric_stats[m] : "?";
}

const char *gd_ck_metric_name(enum gd_ck_metric m)
{
	return m < GD_CK_NMETRIC ? metric_names[m] : "?";
}

const char *gd_ck_metric_unit(enum gd_ck_metric m)
{
	return m < GD_CK_NMETRIC ? metric_units[m] : "?";
}

bool gd_ck_metric_is_min(enum gd_ck_metric m)
{
	return m == GD_CK_BW_AVG || m == GD_CK_BW_PEAK || m == GD_CK_MSG_RATE;
}

const char *gd_ck_pairs_name(enum gd_ck_pairs p)
{
	static const char *const n[] = { "each-nic-loopback", "each-gpu-nearest-nic",
					 "nic-gpu-matrix", "hosts", "all-nics" };
	return p <= GD_CK_ALL_NICS ? n[p] : "?";
}

const char *gd_ck_pattern_name(enum gd_ck_pattern p)
{
	static const char *const n[] = { "pairwise", "ring", "all-pairs", "one-to-many",
					 "many-to-one" };
	return p <= GD_CK_PAT_MANY_TO_ONE ? n[p] : "?";
}

/* Decimal digits, an optional fraction and exponent: the length, 0 when none. strtod would
 * also take hex ("0x1p3"), "inf" and "nan", which no message offers. */
static size_t decimal_len(const char *s)
{
	size_t n = strspn(s, "0123456789"), f = 0;

	if (s[n] == '.')
		f = strspn(s + n + 1, "0123456789") + 1;
	if (!n && f <= 1)
		return 0;
	n += f;
	if (s[n] == 'e' || s[n] == 'E') {
		size_t e = s[n + 1] == '+' || s[n + 1] == '-' ? 2 : 1;
		size_t d = strspn(s + n + e, "0123456789");

		if (d)
			n += e + d;
	}
	return n;
}

/* A finite non-negative decimal number followed by optional blanks; *end at the unit. */
static int number(const char *s, double *v, const char **end)
{
	char *e;
	size_t n;

	while (isspace((unsigned char)*s))
		s++;
	if (!(n = decimal_len(s)))
		return -EINVAL;
	errno = 0;
	*v = strtod(s, &e);
	if (errno || e != s + n || !isfinite(*v) || *v < 0)
		return -EINVAL;
	while (isspace((unsigned char)*e))
		e++;
	*end = e;
	return 0;
}

struct unit {
	const char *name;
	double factor;
};

/* The unit at u (case-sensitive, then trailing blanks): its factor, or -EINVAL. */
static int unit_factor(const char *u, const struct unit *units, double *factor)
{
	size_t n = strlen(u);

	while (n && isspace((unsigned char)u[n - 1]))
		n--;
	for (const struct unit *x = units; x->name; x++)
		if (strlen(x->name) == n && strncmp(u, x->name, n) == 0) {
			*factor = x->factor;
			return 0;
		}
	return -EINVAL;
}

int gd_ck_parse_size(const char *s, uint64_t *bytes, char *why, size_t len)
{
	static const struct unit u[] = { { "", 1 }, { "B", 1 }, { "K", 1024 }, { "KiB", 1024 },
					 { "M", 1 << 20 }, { "MiB", 1 << 20 }, { "G", 1 << 30 },
					 { "GiB", 1 << 30 }, { NULL, 0 } };
	const char *end;
	double v, f;

	/* the range is the key's (the engine's -s: gd_ck_ld_in_range); here what fits a u64 */
	if (number(s, &v, &end) || unit_factor(end, u, &f) || v * f < 1 || v * f > 0x1p62 ||
	    v * f != floor(v * f)) {
		snprintf(why, len, "'%s' is not a size: write whole bytes or K, M, G (powers of "
			 "two), e.g. 64K", gd_excerpt(s));
		return -EINVAL;
	}
	*bytes = (uint64_t)(v * f);
	return 0;
}

int gd_ck_parse_seconds(const char *s, uint32_t *sec, char *why, size_t len)
{
	static const struct unit u[] = { { "", 1 }, { "s", 1 }, { "m", 60 }, { "min", 60 },
					 { NULL, 0 } };
	const char *end;
	double v, f;

	/* the range is the key's (gd_ck_ld_in_range); here what fits a u32 */
	if (number(s, &v, &end) || unit_factor(end, u, &f) || v * f < 1 || v * f > UINT32_MAX ||
	    v * f != floor(v * f)) {
		snprintf(why, len, "'%s' is not a duration: write whole seconds, e.g. 5s or 2m", gd_excerpt(s));
		return -EINVAL;
	}
	*sec = (uint32_t)(v * f);
	return 0;
}

static const struct unit bw_units[] = { { "Gb/s", 1 }, { "Gbps", 1 }, { "Mb/s", 1e-3 },
					{ "Mbps", 1e-3 }, { "Tb/s", 1e3 }, { "GB/s", 8 },
					{ "MB/s", 8e-3 }, { NULL, 0 } };

int gd_ck_parse_rate(const char *s, double *gbps, char *why, size_t len)
{
	const char *end;
	double v, f;

	if (number(s, &v, &end) || !*end || unit_factor(end, bw_units, &f)) {
		snprintf(why, len, "'%s' is not a bandwidth: write a number and Gb/s (or Mb/s, "
			 "Tb/s, GB/s), e.g. 100 Gb/s", gd_excerpt(s));
		return -EINVAL;
	}
	if (!isfinite(v * f)) {
		snprintf(why, len, "'%s' is beyond a double in Gb/s: write a real rate", gd_excerpt(s));
		return -EINVAL;
	}
	*gbps = v * f;
	return 0;
}

int gd_ck_parse_percent(const char *s, double *pct)
{
	const char *end;

	return number(s, pct, &end) || strcmp(end, "%") ? -EINVAL : 0;
}

int gd_ck_parse_factor(const char *s, double *f)
{
	const char *end;

	return number(s, f, &end) || *end ? -EINVAL : 0;
}

/* "90% line" / "75% pcie" */
static int relative(const char *s, const char *end, struct gd_ck_threshold *t)
{
	const char *w = end + 1;
	size_t n;

	while (isspace((unsigned char)*w))
		w++;
	n = strlen(w);
	while (n && isspace((unsigned char)w[n - 1]))
		n--;
	if (n == 4 && strncmp(w, "line", 4) == 0)
		t->kind = GD_CK_LINE;
	else if (n == 4 && strncmp(w, "pcie", 4) == 0)
		t->kind = GD_CK_PCIE;
	else
		return -EINVAL;
	return t->value > 0 && t->value <= 100 ? 0 : -ERANGE;
}

int gd_ck_parse_threshold(enum gd_ck_metric m, const char *s, struct gd_ck_threshold *t,
			  char *why, size_t len)
{
	static const struct unit lat[] = { { "us", 1 }, { "µs", 1 }, { "ns", 1e-3 },
					   { "ms", 1e3 }, { NULL, 0 } };
	static const struct unit rate[] = { { "Mpps", 1 }, { "Kpps", 1e-3 }, { "pps", 1e-6 },
					    { NULL, 0 } };
	const struct unit *units = m == GD_CK_MSG_RATE ? rate : !gd_ck_metric_is_min(m) ? lat :
				   bw_units;
	const char *end;
	double f;
	int ret;

	memset(t, 0, sizeof(*t));
	t->metric = m;
	snprintf(t->text, sizeof(t->text), "%s", s);
	if (number(s, &t->value, &end) || !*end)
		goto bad;
	if (*end == '%') {
		if (m != GD_CK_BW_AVG && m != GD_CK_BW_PEAK)
			goto bad;
		ret = relative(s, end, t);
		if (ret == -ERANGE) {
			snprintf(why, len, "'%s': a percentage is above 0 and at most 100", gd_excerpt(s));
			return -EINVAL;
		}
		if (ret)
			goto bad;
		return 0;
	}
	if (unit_factor(end, units, &f))
		goto bad;
	t->kind = GD_CK_ABS;
	t->value *= f;
	if (!isfinite(t->value)) { /* 1e308 ms: infinite us would always pass */
		snprintf(why, len, "'%s' is beyond a double in %s: write a real limit", gd_excerpt(s),
			 gd_ck_metric_unit(m));
		return -EINVAL;
	}
	return 0;
bad:
	if (m == GD_CK_MSG_RATE)
		snprintf(why, len, "'%s' is not a message rate: write a number and Mpps (or "
			 "Kpps, pps), e.g. 1.5 Mpps", gd_excerpt(s));
	else if (!gd_ck_metric_is_min(m))
		snprintf(why, len, "'%s' is not a latency: write a number and us (or ns, ms), "
			 "e.g. 5 us", gd_excerpt(s));
	else
		snprintf(why, len, "'%s' is not a bandwidth threshold: write a number and Gb/s "
			 "(or Mb/s, GB/s), or a percentage of the line rate or PCIe limit: "
			 "'90%% line', '80%% pcie'", gd_excerpt(s));
	return -EINVAL;
}

/* A libfabric name as fi_info prints it: letters, digits, '_', '-', '.', ';' and ':'. */
static bool fi_name_ok(const char *s, size_t cap)
{
	if (!*s || strlen(s) >= cap)
		return false;
	for (; *s; s++)
		if (!isalnum((unsigned char)*s) && !strchr("_-.;:", *s))
			return false;
	return true;
}

int gd_ck_parse_fabric_key(const char *key, const char *s, struct gd_fabric_opts *f, char *why,
			   size_t len)
{
	if (!strcmp(key, "fabric")) {
		if (gd_fabric_parse(s, &f->fabric)) {
			snprintf(why, len, "fabric '%s' is not known: write verbs or ofi (libfabric)", gd_excerpt(s));
			return -EINVAL;
		}
		snprintf(f->why, sizeof(f->why), "the spec's fabric");
		return 0;
	}
	if (!strcmp(key, "endpoint")) {
		if (strcmp(s, "rdm") && strcmp(s, "msg")) {
			snprintf(why, len, "endpoint '%s' is not known: write rdm (FI_EP_RDM) or "
				 "msg (FI_EP_MSG)", gd_excerpt(s));
			return -EINVAL;
		}
		f->ep = !strcmp(s, "msg") ? GD_EP_MSG : GD_EP_RDM;
		f->given = 1;
		return 0;
	}
	if (strcmp(key, "provider") && strcmp(key, "domain"))
		return 1;
	if (!fi_name_ok(s, !strcmp(key, "provider") ? sizeof(f->provider) : sizeof(f->domain))) {
		snprintf(why, len, "%s '%s' is not a libfabric name: write it as fi_info prints it "
			 "(letters, digits, '_', '-', '.'; at most %zu characters), e.g. %s", key,
			 gd_excerpt(s),
			 (!strcmp(key, "provider") ? sizeof(f->provider) : sizeof(f->domain)) - 1,
			 !strcmp(key, "provider") ? "tcp or shm" : "lo");
		return -EINVAL;
	}
	snprintf(!strcmp(key, "provider") ? f->provider : f->domain,
		 !strcmp(key, "provider") ? sizeof(f->provider) : sizeof(f->domain), "%s", s);
	f->given = 1;
	return 0;
}

static const char *const rung_names[GD_CK_NRUNG] = {
	"", "stack", "devices", "topology", "gpudirect", "p2p", "gpu-initiated", "nodes",
};

const char *gd_ck_rung_name(int rung)
{
	return rung > 0 && rung < GD_CK_NRUNG ? rung_names[rung] : "";
}

int gd_ck_parse_rung(const char *s, int *rung, char *why, size_t len)
{
	for (int i = 1; i < GD_CK_NRUNG; i++)
		if (!strcmp(s, rung_names[i]) || (s[0] == '0' + i && !s[1])) {
			*rung = i;
			return 0;
		}
	snprintf(why, len, "rung '%s' is not known: use 1-7 or stack, devices, topology, "
		 "gpudirect, p2p, gpu-initiated, nodes", gd_excerpt(s));
	return -EINVAL;
}

int gd_ck_test_rung(const struct gd_ck_test *t)
{
	if (t->pairs == GD_CK_HOSTS) /* under mpirun/srun: rung 7 alone */
		return GD_CK_RUNG_NODES;
	if (t->rung)
		return t->rung;
	if (t->initiator != GD_INIT_CPU)
		return GD_CK_RUNG_GPU_INITIATED;
	if (t->memory == GD_CK_MEM_GPU ||
	    (t->pairs != GD_CK_EACH_NIC_LOOPBACK && t->pairs != GD_CK_ALL_NICS))
		return GD_CK_RUNG_GPUDIRECT; /* all-nics: host memory is p2p, like a loopback */
	return GD_CK_RUNG_P2P;
}
