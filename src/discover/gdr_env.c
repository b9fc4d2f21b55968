/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "gdr_env.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "readfile.h"
#include "sysfs.h"

/* ---- kernel version ---- */

int gd_parse_kernel_version(const char *text, struct gd_kver *v)
{
	int n = 0;

	memset(v, 0, sizeof(*v));
	snprintf(v->release, sizeof(v->release), "%s", text);
	v->release[strcspn(v->release, "\r\n")] = '\0';
	if (sscanf(text, "%d.%d%n", &v->major, &v->minor, &n) < 2 || v->major <= 0)
		return -EINVAL;
	if (text[n] == '.')
		sscanf(text + n + 1, "%d", &v->patch);
	return 0;
}

int gd_kver_cmp(const struct gd_kver *v, int major, int minor, int patch)
{
	if (v->major != major)
		return v->major < major ? -1 : 1;
	if (v->minor != minor)
		return v->minor < minor ? -1 : 1;
	if (v->patch != patch)
		return v->patch < patch ? -1 : 1;
	return 0;
}

int gd_kernel_version(const struct gd_machine *m, struct gd_kver *v)
{
	char buf[128];
	int ret = gd_sysfs_read_str(m, buf, sizeof(buf), "/proc/sys/kernel/osrelease");

	if (ret)
		return ret;
	return gd_parse_kernel_version(buf, v);
}

/* ---- NVIDIA driver ---- */

const char *gd_nv_flavour_str(enum gd_nv_flavour f)
{
	switch (f) {
	case GD_NV_OPEN:
		return "open";
	case GD_NV_PROPRIETARY:
		return "proprietary";
	default:
		return "unknown";
	}
}

/* The first token that looks like a driver version: digits '.' digits... */
static bool find_version(const char *s, char *out, size_t len)
{
	for (const char *p = s; *p; p++) {
		size_t n = 0, dots = 0;

		if (!isdigit((unsigned char)*p) || (p > s && !isspace((unsigned char)p[-1])))
			continue;
		while (isdigit((unsigned char)p[n]) || p[n] == '.')
			dots += p[n++] == '.';
		if (dots >= 1 && (p[n] == '\0' || isspace((unsigned char)p[n]))) {
			snprintf(out, len, "%.*s", (int)n, p);
			return true;
		}
	}
	return false;
}

int gd_parse_nvidia_version(const char *text, struct gd_nv_driver *d)
{
	const char *line = strstr(text, "NVRM version:");
	size_t n;

	if (!line)
		return -EINVAL;
	n = strcspn(line, "\n");
	snprintf(d->line, sizeof(d->line), "%.*s", (int)n, line);
	/* x86_64 only, for other architectures the word after UNIX differs */
	d->flavour = strstr(d->line, "Open Kernel Module") ? GD_NV_OPEN : GD_NV_PROPRIETARY;
	if (!find_version(d->line + strlen("NVRM version:"), d->version, sizeof(d->version)))
		return -EINVAL;
	d->loaded = true;
	return 0;
}

int gd_nvidia_driver(const struct gd_machine *m, struct gd_nv_driver *d)
{
	char *text = NULL;
	char taint[16];
	int ret;

	memset(d, 0, sizeof(*d));
	ret = gd_sysfs_read_text(m, &text, "/proc/driver/nvidia/version");
	if (ret == 0) {
		snprintf(d->source, sizeof(d->source), "/proc/driver/nvidia/version");
		ret = gd_parse_nvidia_version(text, d);
		free(text);
		return ret;
	}
	/* procfs entry missing: the module may still be loaded (containers) */
	if (gd_sysfs_read_str(m, d->version, sizeof(d->version), "/sys/module/nvidia/version"))
		return -ENOENT;
	d->loaded = true;
	snprintf(d->source, sizeof(d->source), "/sys/module/nvidia/version");
	/* a proprietary module taints the kernel with 'P' */
	if (gd_sysfs_read_str(m, taint, sizeof(taint), "/sys/module/nvidia/taint") == 0)
		d->flavour = strchr(taint, 'P') ? GD_NV_PROPRIETARY : GD_NV_OPEN;
	snprintf(d->line, sizeof(d->line), "version %s, taint '%s'", d->version,
		 d->flavour == GD_NV_UNKNOWN ? "?" : taint);
	return 0;
}

/* ---- peer memory ---- */

#define GD_KALLSYMS_BUF (64 * 1024)

int gd_kallsyms_has(const struct gd_machine *m, const char *sym)
{
	char path[PATH_MAX], line[512], *buf;
	size_t len = strlen(sym);
	int found = 0, fd, ret;
	size_t total = 0;
	FILE *f;

	if (gd_sysfs_path(m, path, sizeof(path), "/proc/kallsyms"))
		return -ENAMETOOLONG;
	ret = gd_readfile_open(path, &fd);
	if (ret)
		return ret;
	f = fdopen(fd, "r");
	if (!f) {
		close(fd);
		return -ENOMEM;
	}
	/* stdio's buffer for a /proc file is its st_blksize, 1 KiB: a whole kallsyms
	 * (5 MB, 120k lines) then takes 5300 read()s; with 64 KiB asked the kernel
	 * gives a page a read, 1330 read()s (in the Soft-RoCE guest under TCG, where
	 * gd_check and gd_doctor read it every run: 0.40 s of system time, not 0.93).
	 * glibc takes the size only with a buffer given (NULL: st_blksize again). */
	buf = malloc(GD_KALLSYMS_BUF);
	if (buf)
		setvbuf(f, buf, _IOFBF, GD_KALLSYMS_BUF);
	/* "ffffffffc0123456 T ib_register_peer_memory_client\t[ib_core]"; a cap on
	 * the bytes read keeps an endless file in a fixture tree from running on */
	while (!found && total < GD_READ_CAP_TEXT && fgets(line, sizeof(line), f)) {
		total += strlen(line);
		char *name = strchr(line, ' ');

		name = name ? strchr(name + 1, ' ') : NULL;
		if (name && strncmp(name + 1, sym, len) == 0 &&
		    (name[1 + len] == '\t' || name[1 + len] == '\n' || name[1 + len] == '\0'))
			found = 1;
	}
	fclose(f);
	free(buf);
	return found;
}

bool gd_proc_modules_has(const char *text, const char *module)
{
	size_t len = strlen(module);

	for (const char *p = text; p && *p; p = strchr(p, '\n') ? strchr(p, '\n') + 1 : NULL)
		if (strncmp(p, module, len) == 0 && p[len] == ' ')
			return true;
	return false;
}

int gd_peermem_probe(const struct gd_machine *m, struct gd_peermem *p)
{
	static const char *const peers[] = { "nvidia-peermem", "nv_mem" };
	char *mods = NULL;
	int n = 0, mods_err;

	memset(p, 0, sizeof(*p));
	p->nvidia_peermem = gd_sysfs_exists(m, "/sys/module/nvidia_peermem");
	p->nv_peer_mem = gd_sysfs_exists(m, "/sys/module/nv_peer_mem");
	mods_err = gd_sysfs_read_text(m, &mods, "/proc/modules");
	p->modules_err = mods_err == -ENOENT ? 0 : mods_err;
	if (mods_err == 0) {
		p->nvidia_peermem |= gd_proc_modules_has(mods, "nvidia_peermem");
		p->nv_peer_mem |= gd_proc_modules_has(mods, "nv_peer_mem");
		free(mods);
	}
	p->memory_peers_dir = gd_sysfs_exists(m, "/sys/kernel/mm/memory_peers");
	for (size_t i = 0; i < 2 && !p->registered_as[0]; i++)
		if (gd_sysfs_exists(m, "/sys/kernel/mm/memory_peers/%s/version", peers[i]))
			snprintf(p->registered_as, sizeof(p->registered_as), "%s", peers[i]);
	if (!p->nvidia_peermem && !p->nv_peer_mem)
		p->state = GD_PEERMEM_ABSENT;
	else if (p->registered_as[0])
		p->state = GD_PEERMEM_REGISTERED;
	else if (p->memory_peers_dir)
		p->state = GD_PEERMEM_UNREGISTERED;
	else
		p->state = GD_PEERMEM_LOADED;
	n = snprintf(p->evidence, sizeof(p->evidence), "/sys/module/nvidia_peermem: %s; nv_peer_mem: %s",
		     p->nvidia_peermem ? "loaded" : "absent", p->nv_peer_mem ? "loaded" : "absent");
	if (mods_err && mods_err != -ENOENT) /* what could not be read is said, not assumed */
		n += snprintf(p->evidence + n, sizeof(p->evidence) - n,
			      "; /proc/modules unreadable (%s)", gd_strerror(mods_err));
	if ((size_t)n >= sizeof(p->evidence))
		n = (int)sizeof(p->evidence) - 1;
	if (p->registered_as[0])
		snprintf(p->evidence + n, sizeof(p->evidence) - n,
			 "; /sys/kernel/mm/memory_peers/%s/version exists", p->registered_as);
	else if (p->memory_peers_dir)
		snprintf(p->evidence + n, sizeof(p->evidence) - n,
			 "; /sys/kernel/mm/memory_peers has no nvidia entry");
	return 0;
}

/* ---- registry parameters ---- */

int gd_registry_dword(const char *registry, const char *key)
{
	size_t klen = strlen(key);

	for (const char *p = registry; p && *p;) {
		while (*p == ';' || *p == ' ' || *p == '"')
			p++;
		if (strncasecmp(p, key, klen) == 0 && p[klen] == '=') {
			const char *v = p + klen + 1;
			bool hex = v[0] == '0' && (v[1] == 'x' || v[1] == 'X');
			long n;

			/* hex after 0x, else decimal (never octal); no digits: unknown */
			if (hex ? !isxdigit((unsigned char)v[2]) : !isdigit((unsigned char)v[0]))
				return -1;
			n = strtol(v + (hex ? 2 : 0), NULL, hex ? 16 : 10);
			return n < 0 || n > INT_MAX ? -1 : (int)n;
		}
		p = strchr(p, ';');
	}
	return -1;
}

static void unquote(char *dst, size_t len, const char *src)
{
	size_t n;

	while (*src == ' ' || *src == '\t')
		src++;
	if (*src == '"')
		src++;
	n = strcspn(src, "\"\n");
	snprintf(dst, len, "%.*s", (int)n, src);
}

int gd_parse_nv_params(const char *text, struct gd_nv_params *p)
{
	const char *line;

	p->found = true;
	p->registry[0] = '\0';
	p->peer_mapping_override = -1;
	p->stream_memops = -1;
	for (line = text; line && *line; line = strchr(line, '\n') ? strchr(line, '\n') + 1 : NULL) {
		if (strncmp(line, "RegistryDwords:", 15) == 0)
			unquote(p->registry, sizeof(p->registry), line + 15);
		else if (strncmp(line, "EnableStreamMemOPs:", 19) == 0)
			p->stream_memops = atoi(line + 19);
	}
	p->peer_mapping_override = gd_registry_dword(p->registry, "PeerMappingOverride");
	return 0;
}

int gd_nv_params_read(const struct gd_machine *m, struct gd_nv_params *p)
{
	char *text = NULL;
	char reg[256];
	int ret;

	memset(p, 0, sizeof(*p));
	p->peer_mapping_override = p->stream_memops = -1;
	ret = gd_sysfs_read_text(m, &text, "/proc/driver/nvidia/params");
	if (ret == 0) {
		snprintf(p->source, sizeof(p->source), "/proc/driver/nvidia/params");
		ret = gd_parse_nv_params(text, p);
		free(text);
		return ret;
	}
	/* module parameters, when procfs is hidden (containers) */
	ret = gd_sysfs_read_str(m, reg, sizeof(reg),
				"/sys/module/nvidia/parameters/NVreg_RegistryDwords");
	if (ret)
		return -ENOENT;
	p->found = true;
	snprintf(p->source, sizeof(p->source), "/sys/module/nvidia/parameters/NVreg_RegistryDwords");
	unquote(p->registry, sizeof(p->registry), reg);
	if (strcmp(p->registry, "(null)") == 0)
		p->registry[0] = '\0';
	p->peer_mapping_override = gd_registry_dword(p->registry, "PeerMappingOverride");
	return 0;
}
