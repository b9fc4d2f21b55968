/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * Built-in suites (gd_check --suite NAME, or include: NAME in a spec): a spec
 * written from discovery like --example, then loaded by the same parser.
 *   quick              topology, devices and links, doctor: seconds, a Slurm prolog
 *   full               quick + every NIC loopback (bandwidth, latency), the NIC x GPU
 *                      matrix: acceptance
 *   gpudirect          quick + GPU memory through each GPU's nearest NIC
 *   gpu-initiated      quick + the proxy and IBGDA initiators from GPU memory
 *   connectx-selftest  the paths only a ConnectX runs (see man gd_check); without a
 *                      ConnectX and a GPU each one is a SKIP item with the reason
 * include: resolves a suite or another spec file (relative to the including one);
 * the including spec's values override: topology counts it sets, devices and tests
 * of the same name replace the included ones, doctor checks are added.
 */
#include <errno.h>
#include <libgen.h>
#include <stddef.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "judge.h"

#include "check.h"
#include "check_machine.h"
#include "log.h"

const char *const gd_ck_suites[] = { "quick", "full", "gpudirect", "gpu-initiated",
				     "connectx-selftest", NULL };

#define TEST(name, op, type, extra) \
	"  - name: " name "\n    op: " op "\n    type: " type "\n" extra

static const char gpudirect_tests[] =
	"tests:\n"
	TEST("gpudirect-write-bw", "write", "bw", "    size: 1M\n    duration: 2s\n"
	     "    memory: gpu\n    pairs: each-gpu-nearest-nic\n    thresholds:\n"
	     "      min_bw: 50% pcie\n")
	TEST("gpudirect-read-bw", "read", "bw", "    size: 1M\n    duration: 2s\n"
	     "    memory: gpu\n    pairs: each-gpu-nearest-nic\n")
	TEST("gpudirect-write-lat", "write", "lat", "    size: 2\n    iterations: 1000\n"
	     "    memory: gpu\n    pairs: each-gpu-nearest-nic\n");

static const char initiated_tests[] =
	"tests:\n"
	TEST("proxy-write-bw", "write", "bw", "    size: 64K\n    duration: 2s\n"
	     "    memory: gpu\n    initiator: proxy\n    pairs: each-gpu-nearest-nic\n")
	TEST("ibgda-write-bw", "write", "bw", "    size: 64K\n    duration: 2s\n"
	     "    memory: gpu\n    initiator: ibgda\n    pairs: each-gpu-nearest-nic\n")
	TEST("ibgda-write-lat", "write", "lat", "    size: 2\n    iterations: 1000\n"
	     "    memory: gpu\n    initiator: ibgda\n    pairs: each-gpu-nearest-nic\n");

/* The ConnectX-only paths: a test each (memory: gpu on the ConnectX), and what it verifies. */
static const struct cx_check {
	const char *name, *verifies, *yaml;
} cx_checks[] = {
	{ "ibgda-devx-queues", "IBGDA: DEVX QP and CQ with their rings in GPU memory, WQEs "
	  "written by a GPU kernel", "    op: write\n    type: bw\n    initiator: ibgda\n" },
	{ "gpu-doorbell-uar", "the GPU rings the doorbell on the NIC's UAR page mapped for it "
	  "(one doorbell per message)", "    op: write\n    type: lat\n    size: 2\n"
	  "    initiator: ibgda\n" },
	{ "gpu-memory-registration", "GPU memory registered with the NIC (dma-buf, else "
	  "nvidia-peermem) and written by RDMA", "    op: write\n    type: bw\n" },
	{ "proxy-gpu-producer", "the proxy initiator on real QPs, the GPU producing the "
	  "requests", "    op: write\n    type: bw\n    initiator: proxy\n" },
	{ "ibgda-cpudb", "IBGDA with the doorbell rung by a CPU thread (GPU-written WQEs)",
	  "    op: write\n    type: bw\n    initiator: ibgda-cpudb\n" },
	{ "fetched-atomic-byte-order", "fetch-and-add into GPU memory: the fetched value in "
	  "the byte order the GPU reads", "    op: atomic\n    type: bw\n    size: 8\n" },
};

/* The first ConnectX (mlx5) RDMA device, NULL: none. */
static const struct gd_hca *connectx(const struct gd_ck_machine *m)
{
	for (size_t i = 0; i < m->nhcas; i++)
		if (!strncmp(m->hcas[i].name, "mlx5", 4) || !strcmp(m->hcas[i].driver, "mlx5_core"))
			return &m->hcas[i];
	return NULL;
}

/* Why the ConnectX self-test cannot run here, "" when it can. */
static void cx_why(const struct gd_ck_machine *m, char *why, size_t len)
{
	why[0] = 0;
	if (!connectx(m))
		snprintf(why, len, "no ConnectX (mlx5) RDMA device here%s%s%s: the ConnectX "
			 "self-test needs one", m->nhcas ? " (found " : "",
			 m->nhcas ? m->hcas[0].name : "", m->nhcas ? ")" : "");
	else if (!m->topo_ok || !m->t.ngpus)
		snprintf(why, len, "no GPU here: the ConnectX self-test runs from GPU memory");
}

static void cx_tests(FILE *out, const struct gd_ck_machine *m)
{
	char why[256];

	cx_why(m, why, sizeof(why));
	if (why[0]) {
		fprintf(out, "# %s: every check of the suite is SKIP\ntests: []\n", why);
		return;
	}
	fputs("tests:\n", out);
	for (size_t i = 0; i < sizeof(cx_checks) / sizeof(cx_checks[0]); i++)
		fprintf(out, "  # %s\n  - name: %s\n%s    memory: gpu\n    device: %s\n"
			"    pairs: each-gpu-nearest-nic\n", cx_checks[i].verifies, cx_checks[i].name,
			cx_checks[i].yaml, connectx(m)->name);
}

void gd_ck_suite_preflight(const struct gd_ck_spec *s, const struct gd_machine *mach,
			   const char *xml, struct gd_ck_report *r)
{
	struct gd_ck_machine m;
	char why[256];

	if (s->suite[0] && !s->manifest.given) {
		struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TOPOLOGY, "golden manifest");

		if (it) {
			snprintf(it->expected, sizeof(it->expected), "--golden FILE");
			gd_ck_judge_skip(it, GD_CK_SKIP_NO_GOLDEN, NULL);
		}
	}
	if (strcmp(s->suite, "connectx-selftest"))
		return;
	gd_ck_machine_load(&m, mach, xml);
	cx_why(&m, why, sizeof(why));
	for (size_t i = 0; why[0] && i < sizeof(cx_checks) / sizeof(cx_checks[0]); i++) {
		struct gd_ck_item *it = gd_ck_add(r, GD_CK_SEC_TESTS, "connectx %s",
						  cx_checks[i].name);

		char ev[sizeof(it->message)];

		if (!it)
			break;
		snprintf(it->expected, sizeof(it->expected), "runs");
		snprintf(ev, sizeof(ev), "%s; verifies: %s", why, cx_checks[i].verifies);
		gd_ck_judge_skip(it, GD_CK_SKIP_SELFTEST, ev);
	}
	gd_ck_machine_free(&m);
}

static int suite_index(const char *name)
{
	for (int i = 0; gd_ck_suites[i]; i++)
		if (!strcmp(gd_ck_suites[i], name))
			return i;
	return -1;
}

static void suite_list(char *buf, size_t len)
{
	buf[0] = 0;
	for (int i = 0; gd_ck_suites[i]; i++)
		snprintf(buf + strlen(buf), len - strlen(buf), "%s%s", i ? ", " : "",
			 gd_ck_suites[i]);
}

int gd_ck_suite_load(const char *name, const struct gd_machine *mach, const char *xml,
		     struct gd_ck_spec *spec, char *err, size_t errlen)
{
	static const unsigned sections[] = { 7, 15, 7, 7, 3 };
	int k = suite_index(name), ret;
	char what[64], label[64], *buf = NULL;
	size_t len = 0;
	FILE *f;

	if (k < 0) {
		char list[128];

		suite_list(list, sizeof(list));
		snprintf(err, errlen, "--suite %s: no such suite; the suites are %s", gd_excerpt(name),
			 list);
		return -ENOENT;
	}
	if (!(f = open_memstream(&buf, &len)))
		return -errno;
	snprintf(what, sizeof(what), "--suite %s", name);
	gd_ck_print_sections(f, mach, xml, sections[k] | GD_CK_EX_SUITE, what);
	if (k == 2 || k == 3)
		fputs(k == 2 ? gpudirect_tests : initiated_tests, f);
	if (k == 4) {
		struct gd_ck_machine m;

		gd_ck_machine_load(&m, mach, xml);
		cx_tests(f, &m);
		gd_ck_machine_free(&m);
	}
	fclose(f);
	snprintf(label, sizeof(label), "(suite %s)", name);
	ret = gd_ck_spec_parse(label, (const unsigned char *)buf, len, spec, err, errlen);
	free(buf);
	if (!ret)
		snprintf(spec->suite, sizeof(spec->suite), "%s", name);
	return ret;
}

/* Elements with a name at name_off: base's in order, each replaced by over's of the same
 * name, then over's new ones, into dst (room for both); returns the count. */
static size_t merge_named(void *dst, const void *over, size_t no, const void *base, size_t nb,
			  size_t size, size_t name_off)
{
	const char *o = over, *b = base;
	char *d = dst;
	size_t n = 0;

	for (size_t pass = 0; pass < 2; pass++)
		for (size_t i = 0; i < (pass ? no : nb); i++) {
			const char *e = pass ? o + i * size : b + i * size, *from = e;
			const char *other = pass ? b : o;
			size_t k = 0, nother = pass ? nb : no;

			while (k < nother && strcmp(other + k * size + name_off, e + name_off))
				k++;
			if (pass && k < nother)
				continue; /* replaced an included one in the first pass */
			if (!pass && k < nother)
				from = o + k * size;
			memcpy(d + n++ * size, from, size);
		}
	return n;
}

/* Values of over win; what over leaves out comes from base. Result in over, base freed. */
static int merge(struct gd_ck_spec *over, struct gd_ck_spec *base)
{
	struct gd_ck_topology *t = &over->topo, *b = &base->topo;
	size_t nd = over->ndevices + base->ndevices, nt = over->ntests + base->ntests;
	size_t no = over->ndoctor + base->ndoctor;
	struct gd_ck_device *d = calloc(nd ? nd : 1, sizeof(*d));
	struct gd_ck_test *ts = calloc(nt ? nt : 1, sizeof(*ts));
	char (*doc)[GD_CK_NAME] = calloc(no ? no : 1, sizeof(*doc));
	size_t n = 0;

	if (!d || !ts || !doc) {
		free(d);
		free(ts);
		free(doc);
		gd_ck_spec_free(base);
		return -ENOMEM;
	}
	if (b->given) {
		t->gpus = t->gpus >= 0 ? t->gpus : b->gpus;
		t->nics = t->nics >= 0 ? t->nics : b->nics;
		t->numa_nodes = t->numa_nodes >= 0 ? t->numa_nodes : b->numa_nodes;
		t->worst_class = t->worst_class >= 0 ? t->worst_class : b->worst_class;
		t->same_numa = t->same_numa || b->same_numa;
		t->given = true;
	}
	/* devices and tests: the included ones in their order, replaced by name, then the new */
	nd = merge_named(d, over->devices, over->ndevices, base->devices, base->ndevices,
			 sizeof(*d), offsetof(struct gd_ck_device, name));
	nt = merge_named(ts, over->tests, over->ntests, base->tests, base->ntests, sizeof(*ts),
			 offsetof(struct gd_ck_test, name));
	n = 0;
	for (size_t i = 0; i < over->ndoctor + base->ndoctor; i++) {
		const char *c = i < over->ndoctor ? over->doctor[i] : base->doctor[i - over->ndoctor];
		size_t k = 0;

		while (k < n && strcmp(doc[k], c))
			k++;
		if (k == n)
			snprintf(doc[n++], GD_CK_NAME, "%s", c);
	}
	/* the manifest: over's when it has one, else the included one's (moved, not copied) */
	struct gd_ck_manifest *keep = over->manifest.given ? &over->manifest : &base->manifest;
	struct gd_ck_manifest mf = *keep;

	memset(keep, 0, sizeof(*keep));
	/* the baseline: the same rule (over's, else the included one's, moved) */
	struct gd_ck_baseline *kb = over->baseline.given ? &over->baseline : &base->baseline;
	struct gd_ck_baseline bl = *kb;

	kb->c = NULL;
	kb->n = 0;
	if (!over->fleet_given && base->fleet_given) {
		over->fleet_outlier_pct = base->fleet_outlier_pct;
		over->fleet_given = true;
	}
	gd_ck_spec_free(over); /* its arrays: their elements are copied */
	over->manifest = mf;
	over->baseline = bl;
	over->devices = d, over->ndevices = nd;
	over->tests = ts, over->ntests = nt;
	over->doctor = doc, over->ndoctor = n;
	if (!over->name[0])
		snprintf(over->name, sizeof(over->name), "%s", base->name);
	if (over->retries < 0)
		over->retries = base->retries;
	snprintf(over->suite, sizeof(over->suite), "%s", base->suite);
	gd_ck_spec_free(base);
	return 0;
}

#define MAX_DEPTH 8

struct chain {
	char path[MAX_DEPTH][PATH_MAX];	/* real paths of the specs being loaded */
	int n;
};

static int load(const char *path, const struct gd_machine *mach, const char *xml,
		struct gd_ck_spec *spec, char *err, size_t errlen, struct chain *c);

/* The include of spec (a file, or a suite) into base; err as FILE:LINE:COLUMN. */
static int include(const struct gd_ck_spec *spec, const struct gd_machine *mach, const char *xml,
		   struct gd_ck_spec *base, char *err, size_t errlen, struct chain *c)
{
	const char *inc = spec->include;
	size_t n = strlen(inc);
	char where[PATH_MAX + 64], dir[PATH_MAX], file[PATH_MAX * 2], list[128];
	int ret;

	snprintf(where, sizeof(where), "%s:%d:%d", spec->path, spec->include_line,
		 spec->include_column);
	if (strchr(inc, '/') || (n > 5 && !strcmp(inc + n - 5, ".yaml")) ||
	    (n > 4 && !strcmp(inc + n - 4, ".yml"))) {
		snprintf(dir, sizeof(dir), "%s", spec->path);
		snprintf(file, sizeof(file), "%s/%s", inc[0] == '/' ? "" : dirname(dir), inc);
		ret = load(inc[0] == '/' ? inc : file, mach, xml, base, err, errlen, c);
		if (ret && ret != -EINVAL && ret != -ELOOP) { /* the file: say who includes it */
			char *why = strdup(err);

			snprintf(err, errlen, "%s: include: %s", where, why ? why : "");
			free(why);
		}
		return ret;
	}
	if (suite_index(inc) >= 0)
		return gd_ck_suite_load(inc, mach, xml, base, err, errlen);
	suite_list(list, sizeof(list));
	snprintf(err, errlen, "%s: include: no built-in suite '%s'; the suites are %s, or give "
		 "a spec file (FILE.yaml)", where, gd_excerpt(inc), list);
	return -EINVAL;
}

static int load(const char *path, const struct gd_machine *mach, const char *xml,
		struct gd_ck_spec *spec, char *err, size_t errlen, struct chain *c)
{
	struct gd_ck_spec base;
	char real[PATH_MAX];
	int ret;

	if (!realpath(path, real))
		snprintf(real, sizeof(real), "%s", path);
	for (int i = 0; i < c->n; i++)
		if (!strcmp(c->path[i], real)) {
			size_t len = strlen(err);

			snprintf(err + len, errlen - len, ": include loop: %s is already being "
				 "included; remove one include", path);
			return -ELOOP;
		}
	if (c->n == MAX_DEPTH) {
		snprintf(err, errlen, "%s: includes nested deeper than %d", path, MAX_DEPTH);
		return -EINVAL;
	}
	if ((ret = gd_ck_spec_load(path, spec, err, errlen)))
		return ret;
	if (!spec->include[0])
		return 0;
	snprintf(c->path[c->n++], PATH_MAX, "%s", real);
	snprintf(err, errlen, "%s:%d:%d", spec->path, spec->include_line, spec->include_column);
	ret = include(spec, mach, xml, &base, err, errlen, c);
	c->n--;
	if (ret) {
		gd_ck_spec_free(spec);
		return ret == -ELOOP || ret == -ENOENT ? -EINVAL : ret;
	}
	return merge(spec, &base);
}

int gd_ck_suite_load_golden(const char *name, const char *golden, const struct gd_machine *mach,
			    const char *xml, struct gd_ck_spec *spec, char *err, size_t errlen)
{
	struct gd_ck_spec base;
	int ret;

	if ((ret = gd_ck_suite_load(name, mach, xml, &base, err, errlen)))
		return ret;
	if ((ret = gd_ck_spec_load_all(golden, mach, xml, spec, err, errlen))) {
		gd_ck_spec_free(&base);
		return ret;
	}
	if (!spec->manifest.given || spec->suite[0]) {
		snprintf(err, errlen, "--golden %s: %s; 'gd_check --write-golden FILE' on a "
			 "known-good node writes a golden file", golden, spec->suite[0] ?
			 "a golden file is a manifest, not a suite: it must not include one" :
			 "it has no 'manifest:' section (the counts, bus ids and firmware a node "
			 "is judged against)");
		gd_ck_spec_free(&base);
		gd_ck_spec_free(spec);
		return -EINVAL;
	}
	return merge(spec, &base); /* the golden file over the suite: include:'s one rule */
}

int gd_ck_spec_load_all(const char *path, const struct gd_machine *mach, const char *xml,
			struct gd_ck_spec *spec, char *err, size_t errlen)
{
	struct chain *c = calloc(1, sizeof(*c));
	int ret;

	if (!c)
		return -ENOMEM;
	ret = load(path, mach, xml, spec, err, errlen, c);
	free(c);
	return ret;
}
