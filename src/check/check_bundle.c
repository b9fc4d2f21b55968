/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check --bundle FILE.tar.gz: what a bug report needs, in one file. The
 * members are staged in a directory next to FILE (gd_devinfo, gd_topo --export
 * and gd_doctor write their own output there), packed by tar(1) into a
 * temporary file in the same directory, synced and renamed onto FILE. tar(1),
 * not libarchive: tar is Essential in Debian (no new build dependency) and the
 * members are files other tools write anyway. Any error (a full disk included)
 * removes the staging directory and the temporary file: FILE is complete or
 * absent. gd_check writes nothing of the environment; doctor.json holds what gd_doctor
 * records of it (the MANIFEST says which variables).
 */
#define _GNU_SOURCE /* nftw */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <libgen.h>
#include <limits.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <sys/wait.h>
#include <unistd.h>

#include "check.h"
#include "machine.h"
#include "opts.h"
#include "readfile.h"

extern char **environ;

#define TOP "gd_check-bundle"

static int rm_one(const char *p, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	return flag == FTW_DP ? rmdir(p) : unlink(p);
}

/* Run argv (a NULL-terminated list; argv[0] a path, or with search a name looked up in
 * PATH) with stdout to out (opened with flags) and stderr appended to log, both under
 * dir; returns the exit status or -errno. */
static int spawn_file(const char *dir, const char *out, int flags, char *const argv[], bool search)
{
	posix_spawn_file_actions_t fa;
	char o[PATH_MAX], l[PATH_MAX];
	pid_t pid;
	int st, ret;

	snprintf(o, sizeof(o), "%s/%s", dir, out);
	snprintf(l, sizeof(l), "%s/tools.log", dir);
	posix_spawn_file_actions_init(&fa);
	posix_spawn_file_actions_addopen(&fa, 0, "/dev/null", O_RDONLY, 0);
	posix_spawn_file_actions_addopen(&fa, 1, o, O_WRONLY | O_CREAT | flags, 0644);
	posix_spawn_file_actions_addopen(&fa, 2, l, O_WRONLY | O_CREAT | O_APPEND, 0644);
	ret = search ? posix_spawnp(&pid, argv[0], &fa, NULL, argv, environ) :
		       posix_spawn(&pid, argv[0], &fa, NULL, argv, environ);
	posix_spawn_file_actions_destroy(&fa);
	if (ret)
		return -ret;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	return WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
}

static int spawn_to(const char *dir, const char *out, char *const argv[])
{
	return spawn_file(dir, out, O_TRUNC, argv, false);
}

/* A sibling tool of this gd_check (same directory: the build tree or /usr/bin). */
static void sibling(const char *tool, char *buf, size_t len)
{
	char self[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", self, sizeof(self) - 1);

	if (n <= 0) {
		snprintf(buf, len, "/usr/bin/%s", tool);
		return;
	}
	self[n] = 0;
	snprintf(buf, len, "%s/%s", dirname(self), tool);
}

/* dir/name is missing or 0 bytes. */
static bool empty(const char *dir, const char *name)
{
	char p[PATH_MAX];
	struct stat st;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	return stat(p, &st) || !st.st_size;
}

/* A test of the report ran over libfabric. */
static bool used_ofi(const struct gd_ck_report *r)
{
	enum gd_fabric_kind f;

	for (size_t i = 0; i < r->n; i++)
		if (!gd_fabric_parse(r->items[i].where.fabric, &f) && f == GD_FABRIC_OFI)
			return true;
	return false;
}

/* The libfabric report (gd_devinfo --fabric ofi --json): providers, domains, capabilities. */
static int ofi_report(const char *dir, const struct gd_ck_bundle_in *in, FILE *man)
{
	char exe[PATH_MAX];
	char *argv[] = { exe, (char *)"--fabric", (char *)"ofi", (char *)"--json", NULL };
	int rc;

	(void)in;
	sibling("gd_devinfo", exe, sizeof(exe));
	rc = spawn_to(dir, "devinfo-ofi.json", argv);
	if (rc < 0)
		return rc;
	fprintf(man, "%-14s gd_devinfo --fabric ofi --json (exit %d): the libfabric providers the "
		"tests used%s\n", "devinfo-ofi.json", rc, empty(dir, "devinfo-ofi.json") ?
		"; EMPTY: see tools.log" : "");
	return 0;
}

/* A system tool under timeout(1) (its deadline: 10 s, then SIGKILL 2 s later), stdout
 * appended to dir/out: its exit status (124 timed out, 127 not installed) or -errno. */
static int system_tool(const char *dir, const char *out, const char *tool, const char *arg1,
		       const char *arg2)
{
	char *argv[] = { (char *)"timeout", (char *)"-k", (char *)"2", (char *)"10", (char *)tool,
			 (char *)arg1, (char *)arg2, NULL };

	return spawn_file(dir, out, O_APPEND, argv, true);
}

/* The MANIFEST line of a system tool's file, with its exit status and what it means. */
static void system_line(FILE *man, const char *dir, const char *out, const char *what, int rc)
{
	fprintf(man, "%-14s %s (exit %d%s)%s\n", out, what, rc,
		rc == 127 ? ": not installed" : rc == 124 ? ": timed out after 10 s" : "",
		empty(dir, out) ? "; EMPTY: see tools.log" : "");
}

/* ethtool -i and ethtool of every network interface but lo, one section each: the number
 * of interfaces or -errno; *last the last exit status that was not 0. */
static int ethtool_all(const char *dir, int *last)
{
	DIR *d = opendir("/sys/class/net");
	struct dirent *e;
	int rc = 0, n = 0;

	*last = 0;
	while (d && (e = readdir(d)) && rc >= 0) {
		char p[PATH_MAX];
		FILE *f;

		if (e->d_name[0] == '.' || !strcmp(e->d_name, "lo"))
			continue;
		snprintf(p, sizeof(p), "%s/ethtool.txt", dir);
		if (!(f = fopen(p, "ae")))
			break;
		fprintf(f, "==== %s\n", e->d_name);
		fclose(f);
		n++;
		rc = system_tool(dir, "ethtool.txt", "ethtool", "-i", e->d_name);
		rc = rc < 0 ? rc : system_tool(dir, "ethtool.txt", "ethtool", e->d_name, NULL);
		*last = rc > 0 ? rc : *last;
	}
	if (d)
		closedir(d);
	return rc < 0 ? rc : n;
}

/* What a bug report about a NIC or a GPU asks for next (newcomer 47): the kernel's log, the
 * PCI devices with their links, each interface's driver, firmware and link; of the live
 * machine only (a fixture's root has none of them). A tool that is missing or fails is
 * said in the MANIFEST; the bundle is written without its file's content. */
static int system_logs(const char *dir, const struct gd_ck_bundle_in *in, FILE *man)
{
	int rc, n;

	if (in->m && in->m->fixture) {
		fprintf(man, "# no dmesg.txt, lspci.txt, ethtool.txt: the run read the fixture %s, "
			"not this machine\n", in->m->root);
		return 0;
	}
	rc = system_tool(dir, "dmesg.txt", "dmesg", NULL, NULL);
	if (rc < 0)
		return rc;
	system_line(man, dir, "dmesg.txt", "the kernel log (dmesg): review it before sharing", rc);
	rc = system_tool(dir, "lspci.txt", "lspci", "-vvv", NULL);
	if (rc < 0)
		return rc;
	system_line(man, dir, "lspci.txt", "PCI devices, links and capabilities (lspci -vvv)", rc);
	n = ethtool_all(dir, &rc);
	if (n < 0)
		return n;
	if (n)
		system_line(man, dir, "ethtool.txt", "each interface's driver and firmware (ethtool "
			    "-i) and link (ethtool); the exit is the last one that failed, if any", rc);
	else
		fprintf(man, "# no ethtool.txt: no network interface but lo\n");
	return 0;
}

/* gd_devinfo, gd_topo (--export: replayable with gd_topo --topology) and gd_doctor, as
 * JSON, against the machine gd_check read; each one's exit code goes to the MANIFEST. */
static int run_tools(const char *dir, const struct gd_ck_bundle_in *in, FILE *man)
{
	static const char *const tool[3] = { "gd_devinfo", "gd_topo", "gd_doctor" };
	char exe[PATH_MAX], xml[PATH_MAX];

	snprintf(xml, sizeof(xml), "%s/topology.xml", dir);
	for (int i = 0; i < 3; i++) {
		char *argv[12];
		char out[32];
		int n = 0, rc;

		sibling(tool[i], exe, sizeof(exe));
		argv[n++] = exe;
		argv[n++] = (char *)"--json";
		if (in->m && in->m->fixture) {
			argv[n++] = (char *)"--sysfs-root";
			argv[n++] = (char *)in->m->root;
		}
		if (in->xml && i) {
			argv[n++] = (char *)"--topology";
			argv[n++] = (char *)in->xml;
		}
		if (i == 1) {
			argv[n++] = (char *)"--export";
			argv[n++] = xml;
		}
		argv[n] = NULL;
		snprintf(out, sizeof(out), "%s.json", tool[i] + 3);
		rc = spawn_to(dir, out, argv);
		if (rc < 0)
			return rc;
		fprintf(man, "%-14s %s --json (exit %d)%s\n", out, tool[i], rc,
			empty(dir, out) ? "; EMPTY: the tool printed no record (tools.log has its "
			"words; gd_topo has nothing to show without a GPU or a NIC)" : "");
		if (i == 1 && access(xml, F_OK))
			fprintf(man, "# no topology.xml: gd_topo stopped before its export "
				"(tools.log says why)\n");
		else if (i == 1)
			fprintf(man, "%-14s the topology export (gd_topo --export): replay it with "
				"gd_topo --topology topology.xml --nvlinks topology.xml.nvlinks%s\n",
				"topology.xml",
				empty(dir, "topology.xml") ? "; EMPTY: see tools.log" : "");
	}
	return used_ofi(in->r) ? ofi_report(dir, in, man) : 0;
}

static int put(const char *dir, const char *name, int (*fill)(FILE *f, void *ctx), void *ctx)
{
	char p[PATH_MAX];
	FILE *f;
	int ret;

	snprintf(p, sizeof(p), "%s/%s", dir, name);
	if (!(f = fopen(p, "we")))
		return -errno;
	ret = fill(f, ctx);
	if (fflush(f) && !ret)
		ret = -errno;
	if (ferror(f) && !ret)
		ret = -EIO;
	if (fclose(f) && !ret)
		ret = -errno;
	if (ret) /* no half member: the caller says what is missing */
		unlink(p);
	return ret;
}

static int f_text(FILE *f, void *ctx)
{
	gd_ck_print_header(ctx, f);
	gd_ck_print_table(ctx, f);
	return 0;
}

static int f_json(FILE *f, void *ctx)
{
	return gd_ck_print_json(ctx, f);
}

static int f_junit(FILE *f, void *ctx)
{
	return gd_ck_junit_stream(ctx, f);
}

static int f_prom(FILE *f, void *ctx)
{
	return gd_ck_prom_stream(ctx, f);
}

static int f_spec(FILE *f, void *ctx)
{
	FILE *s = fopen(ctx, "re");
	char buf[8192];
	size_t n;

	if (!s)
		return -errno;
	while ((n = fread(buf, 1, sizeof(buf), s)))
		fwrite(buf, 1, n, f);
	n = ferror(s);
	fclose(s);
	return n ? -EIO : 0;
}

static int f_host(FILE *f, void *ctx)
{
	const struct gd_ck_host *h = ctx;
	struct utsname u;
	char os[256] = "";
	FILE *o = fopen("/etc/os-release", "re");

	while (o && fgets(os, sizeof(os), o) && strncmp(os, "PRETTY_NAME=", 12))
		os[0] = 0;
	if (o)
		fclose(o);
	os[strcspn(os, "\n")] = 0;
	uname(&u);
	fprintf(f, "gdperf: %s\nhost: %s\nkernel: %s\nuname: %s %s %s %s\nos: %s\n"
		"drivers: %s\nfirmware: %s\n", h->version, h->hostname, h->kernel, u.sysname,
		u.release, u.version, u.machine, os[0] ? os + 12 : "unknown",
		h->drivers[0] ? h->drivers : "none", h->firmware[0] ? h->firmware : "none");
	return 0;
}

/* s as one shell word (gd_shell_word, the tools' command lines' spelling) and a space */
static void shell_word(FILE *f, const char *s)
{
	size_t len = 4 * strlen(s) + 3;
	char *w = malloc(len);

	if (w && gd_shell_word(s, w, len) >= 0)
		fprintf(f, "%s ", w);
	free(w);
}

static int f_repro(FILE *f, void *ctx)
{
	const struct gd_ck_bundle_in *in = ctx;
	const struct gd_ck_report *r = in->r;
	char name[sizeof(r->items[0].name)];

	fputs("#!/bin/sh\n# The exact commands of this report. gd_check as it was run:\n", f);
	for (int i = 0; i < in->argc; i++)
		shell_word(f, in->argv[i]);
	fputs("\n\n# Each test run alone (server; client), as gd_check ran it:\n", f);
	for (size_t i = 0; i < r->n; i++) {
		const char *c = r->items[i].command;
		bool seen = false;

		for (size_t j = 0; j < i && !seen; j++)
			seen = !strcmp(c, r->items[j].command);
		/* the name is a spec's text: a newline in it would end the comment and make
		 * the rest a command; control bytes as '?', as on a terminal */
		if (c[0] && !seen)
			fprintf(f, "# %s\n%s\n", gd_ck_tty(r->items[i].name, name, sizeof(name)), c);
	}
	return 0;
}

/* Every file the MANIFEST has not named yet (the tools' side files), named. */
static void list_rest(const char *dir, FILE *man)
{
	static const char *const named[] = { "MANIFEST", "spec.yaml", "report.txt",
		"report.jsonl", "report.junit.xml", "report.prom", "host.txt", "reproduce.sh",
		"devinfo.json", "topo.json", "doctor.json", "topology.xml", "devinfo-ofi.json",
		"golden.yaml", "dmesg.txt", "lspci.txt", "ethtool.txt", NULL };
	DIR *d = opendir(dir);
	struct dirent *e;

	while (d && (e = readdir(d))) {
		size_t k = 0;

		while (named[k] && strcmp(named[k], e->d_name))
			k++;
		if (named[k] || e->d_name[0] == '.' || !strncmp(e->d_name, "include-", 8))
			continue;
		fprintf(man, "%-14s %s\n", e->d_name, !strcmp(e->d_name, "tools.log") ?
			"what the tools above printed on stderr" :
			!strcmp(e->d_name, "topology.xml.nvlinks") ? "the NVLink pairs of the "
			"topology export (gd_topo --nvlinks topology.xml.nvlinks)" :
			"written by the tools above");
	}
	if (d)
		closedir(d);
}

/* The spec's include: chain of files, each as include-N-NAME, with the line naming it. */
static int include_files(const char *dir, const struct gd_ck_bundle_in *in, FILE *man)
{
	char path[PATH_MAX], cur[PATH_MAX], name[PATH_MAX + 32], err[512];
	int ret = 0;

	snprintf(cur, sizeof(cur), "%s", in->spec ? in->spec : "");
	for (int k = 1; cur[0] && k <= 8 && !ret; k++) {
		struct gd_ck_spec s;
		const char *inc;
		size_t n;
		char d[PATH_MAX];

		if (gd_ck_spec_load(cur, &s, err, sizeof(err)))
			break;
		inc = s.include;
		n = strlen(inc);
		if (!(strchr(inc, '/') || (n > 5 && !strcmp(inc + n - 5, ".yaml")) ||
		      (n > 4 && !strcmp(inc + n - 4, ".yml")))) { /* a built-in suite, or none */
			gd_ck_spec_free(&s);
			break;
		}
		snprintf(d, sizeof(d), "%s", cur);
		snprintf(path, sizeof(path), "%s%s%s", inc[0] == '/' ? "" : dirname(d),
			 inc[0] == '/' ? "" : "/", inc);
		snprintf(d, sizeof(d), "%s", inc);
		snprintf(name, sizeof(name), "include-%d-%s", k, basename(d));
		ret = put(dir, name, f_spec, path);
		if (!ret) /* a line for the file only once it is there */
			fprintf(man, "%-14s included by the spec (or the file above) as 'include: "
				"%s'; to replay, put it there\n", name, inc);
		else if (ret == -ENOENT)
			fprintf(man, "# 'include: %s' names a file that is not there\n", inc);
		gd_ck_spec_free(&s);
		snprintf(cur, sizeof(cur), "%s", path);
	}
	return ret == -ENOENT ? 0 : ret;
}

static int members(const char *dir, const struct gd_ck_bundle_in *in)
{
	void *r = (void *)in->r;
	char p[PATH_MAX];
	FILE *man;
	int ret;

	ret = put(dir, "report.txt", f_text, r) ?: put(dir, "report.jsonl", f_json, r) ?:
	      put(dir, "report.junit.xml", f_junit, r) ?: put(dir, "report.prom", f_prom, r) ?:
	      put(dir, "host.txt", f_host, (void *)&in->r->host) ?:
	      put(dir, "reproduce.sh", f_repro, (void *)in);
	if (!ret && in->spec)
		ret = put(dir, "spec.yaml", f_spec, (void *)in->spec);
	if (!ret && in->golden)
		ret = put(dir, "golden.yaml", f_spec, (void *)in->golden);
	if (ret)
		return ret;
	snprintf(p, sizeof(p), "%s/MANIFEST", dir);
	if (!(man = fopen(p, "we")))
		return -errno;
	fprintf(man, "# gd_check bug-report bundle: one line per file, its name first. gd_check "
		"records no environment\n# variable; doctor.json holds the values of the libfabric "
		"variables gd_doctor's checks read\n# (FI_PROVIDER; on EFA nodes FI_EFA_USE_DEVICE_RDMA, "
		"FI_HMEM_DISABLE_P2P), as 'gd_doctor'\n# prints them: review it before sharing.\n");
	if (in->spec)
		fprintf(man, "spec.yaml      the spec (%s, sha256 %s)\n", in->spec, in->r->spec_sha256);
	fprintf(man, "report.txt     the report as text\nreport.jsonl   the report as JSON Lines\n"
		"report.junit.xml the report as JUnit XML\nreport.prom    the report as Prometheus "
		"text\nhost.txt       versions, kernel, drivers, firmware\n"
		"reproduce.sh   the exact commands of each test\n");
	if (in->golden)
		fprintf(man, "golden.yaml    the golden manifest (--golden %s)\n", in->golden);
	ret = run_tools(dir, in, man) ?: system_logs(dir, in, man) ?: include_files(dir, in, man);
	if (!ret)
		list_rest(dir, man);
	if (fclose(man) && !ret)
		ret = -errno;
	return ret;
}

/* tar(1) the staged top directory into tmp; 0 or -EIO (tar said why on stderr). */
static int pack(const char *stage, const char *tmp)
{
	char *argv[] = { (char *)"tar", (char *)"-czf", (char *)tmp, (char *)"-C",
			 (char *)stage, (char *)TOP, NULL };
	pid_t pid;
	int st, fd, ret = posix_spawnp(&pid, "tar", NULL, NULL, argv, environ);

	if (ret)
		return -ret;
	while (waitpid(pid, &st, 0) < 0)
		if (errno != EINTR)
			return -errno;
	if (!WIFEXITED(st) || WEXITSTATUS(st))
		return -EIO;
	if ((fd = open(tmp, O_RDONLY | O_CLOEXEC)) < 0)
		return -errno;
	ret = fsync(fd) ? -errno : 0;
	close(fd);
	return ret;
}

int gd_ck_write_bundle(const char *path, const struct gd_ck_bundle_in *in)
{
	char *d = strdup(path), *b = strdup(path), stage[PATH_MAX], tmp[PATH_MAX], top[PATH_MAX];
	int fd, ret = 0;

	if (!d || !b) {
		free(d);
		free(b);
		return -ENOMEM;
	}
	const char *dir = dirname(d), *base = basename(b);

	snprintf(stage, sizeof(stage), "%s/.%s.d.XXXXXX", dir, base);
	snprintf(tmp, sizeof(tmp), "%s/.%s.XXXXXX", dir, base);
	free(d);
	free(b);
	if (!mkdtemp(stage))
		return -errno;
	if ((fd = mkstemp(tmp)) < 0) {
		ret = -errno;
		tmp[0] = 0;
	} else {
		close(fd);
	}
	snprintf(top, sizeof(top), "%s/" TOP, stage);
	if (!ret && mkdir(top, 0755))
		ret = -errno;
	ret = ret ?: members(top, in) ?: pack(stage, tmp);
	if (!ret && (chmod(tmp, 0644) || rename(tmp, path)))
		ret = -errno;
	if (ret && tmp[0])
		unlink(tmp);
	nftw(stage, rm_one, 16, FTW_DEPTH | FTW_PHYS);
	return ret;
}
