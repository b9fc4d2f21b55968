/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "nvlink.h"

#include "gd.h"
#include "log.h"
#include "readfile.h"

#include <ctype.h>
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define MAX_LINK_COUNT 64

static int hexval(int c)
{
	if (c >= '0' && c <= '9')
		return c - '0';
	c = tolower(c);
	if (c >= 'a' && c <= 'f')
		return c - 'a' + 10;
	return -1;
}

/* Exactly n hex digits (n_min..n_max) up to the separator. */
static const char *parse_hex(const char *s, int n_min, int n_max, uint32_t *val)
{
	uint32_t v = 0;
	int n = 0;

	while (hexval(*s) >= 0 && n < n_max) {
		v = (v << 4) | (uint32_t)hexval(*s++);
		n++;
	}
	if (n < n_min)
		return NULL;
	*val = v;
	return s;
}

int gd_busid_parse(const char *s, struct gd_busid *id)
{
	uint32_t dom, bus, dev, fn;

	if (!(s = parse_hex(s, 1, 8, &dom)) || *s++ != ':')
		return -EINVAL;
	if (!(s = parse_hex(s, 2, 2, &bus)) || *s++ != ':')
		return -EINVAL;
	if (!(s = parse_hex(s, 2, 2, &dev)) || *s++ != '.')
		return -EINVAL;
	if (!(s = parse_hex(s, 1, 1, &fn)) || *s)
		return -EINVAL;
	id->domain = dom;
	id->bus = (uint8_t)bus;
	id->dev = (uint8_t)dev;
	id->fn = (uint8_t)fn;
	if (gd_busid_hidden_switch(id))
		return fn == 0 ? 0 : -EINVAL;
	/* a PCI device number has 5 bits, a function 3 */
	return dev <= 0x1f && fn <= 7 ? 0 : -EINVAL;
}

void gd_busid_format(const struct gd_busid *id, char *buf, size_t len)
{
	if (id->domain > 0xffff)
		snprintf(buf, len, "%08X:%02X:%02X.%x", id->domain, id->bus, id->dev, id->fn);
	else
		snprintf(buf, len, "%04x:%02x:%02x.%x", id->domain, id->bus, id->dev, id->fn);
}

bool gd_busid_eq(const struct gd_busid *a, const struct gd_busid *b)
{
	return gd_busid_cmp(a, b) == 0;
}

int gd_busid_cmp(const struct gd_busid *a, const struct gd_busid *b)
{
	if (a->domain != b->domain)
		return a->domain < b->domain ? -1 : 1;
	if (a->bus != b->bus)
		return a->bus < b->bus ? -1 : 1;
	if (a->dev != b->dev)
		return a->dev < b->dev ? -1 : 1;
	return (int)a->fn - (int)b->fn;
}

bool gd_busid_hidden_switch(const struct gd_busid *id)
{
	return id->domain == 0xffffffffu && id->bus == 0xff && id->dev == 0xff;
}

int gd_nvlink_add(struct gd_nvlinks *l, const struct gd_busid *gpu, const struct gd_busid *remote,
		  int count)
{
	struct gd_nvlink *nv;

	l->known = true;
	for (size_t i = 0; i < l->n; i++) {
		if (gd_busid_eq(&l->v[i].gpu, gpu) && gd_busid_eq(&l->v[i].remote, remote)) {
			l->v[i].count += count;
			return 0;
		}
	}
	nv = realloc(l->v, (l->n + 1) * sizeof(*nv));
	if (!nv)
		return -ENOMEM;
	l->v = nv;
	l->v[l->n++] = (struct gd_nvlink){ *gpu, *remote, count };
	return 0;
}

void gd_nvlink_free(struct gd_nvlinks *l)
{
	free(l->v);
	*l = (struct gd_nvlinks){ 0 };
}

static int line_error(char *err, size_t errlen, const char *fname, int line, const char *fmt,
		      ...)
{
	va_list ap;
	int n = snprintf(err, errlen, "%s:%d: ", fname, line);

	if (n >= 0 && (size_t)n < errlen) {
		va_start(ap, fmt);
		vsnprintf(err + n, errlen - n, fmt, ap);
		va_end(ap);
	}
	return -EINVAL;
}

#define MAX_FIELDS 4
#define FORMAT_HINT "expected 'GPU_BUSID REMOTE_BUSID COUNT', e.g. '0000:18:00.0 FFFFFFFF:FF:FF.0 18'"

/* One line, comment already cut off; fields are split in place. */
static int parse_line(char *s, const char *fname, int lineno, struct gd_nvlinks *out, char *err,
		      size_t errlen)
{
	char *f[MAX_FIELDS], *save = NULL, *end;
	struct gd_busid gpu, remote;
	int n = 0;
	long count;

	for (char *tok = strtok_r(s, " \t\r", &save); tok; tok = strtok_r(NULL, " \t\r", &save))
		if (n++ < MAX_FIELDS)
			f[n - 1] = tok; /* the rest are only counted */
	if (n == 0)
		return 0;
	if (n != 3)
		return line_error(err, errlen, fname, lineno, "%d field%s, %s", n,
				  n == 1 ? "" : "s", FORMAT_HINT);
	if (gd_busid_parse(f[0], &gpu) || gd_busid_hidden_switch(&gpu))
		return line_error(err, errlen, fname, lineno,
				  "'%s' is not a GPU PCI bus ID (expected DDDD:BB:DD.F, e.g. 0000:18:00.0)",
				  gd_excerpt(f[0]));
	if (gd_busid_parse(f[1], &remote))
		return line_error(err, errlen, fname, lineno,
				  "'%s' is not a PCI bus ID (expected DDDD:BB:DD.F, or FFFFFFFF:FF:FF.0 for a hidden NVSwitch)",
				  gd_excerpt(f[1]));
	if (gd_busid_eq(&gpu, &remote))
		return line_error(err, errlen, fname, lineno, "GPU %s links to itself", f[0]);
	errno = 0;
	count = strtol(f[2], &end, 10);
	if (errno || *end || end == f[2] || count < 1 || count > MAX_LINK_COUNT)
		return line_error(err, errlen, fname, lineno,
				  "link count '%s' is not a whole number from 1 to %d", gd_excerpt(f[2]),
				  MAX_LINK_COUNT);
	for (size_t i = 0; i < out->n; i++) {
		if (gd_busid_eq(&out->v[i].gpu, &gpu) && gd_busid_eq(&out->v[i].remote, &remote)) {
			gd_warn("%s:%d: the pair %s %s is listed twice; this line is ignored (one "
				"line per pair, with the total link count)", fname, lineno,
				gd_excerpt(f[0]), gd_excerpt(f[1]));
			return 0;
		}
	}
	if (gd_nvlink_add(out, &gpu, &remote, (int)count)) {
		snprintf(err, errlen, "%s: out of memory", fname);
		return -ENOMEM;
	}
	return 0;
}

int gd_nvlink_parse(const char *text, const char *fname, struct gd_nvlinks *out, char *err,
		    size_t errlen, int *errline)
{
	char *copy = strdup(text), *line, *next;
	int lineno = 0, ret = 0;

	if (!copy) {
		snprintf(err, errlen, "%s: out of memory", fname);
		return -ENOMEM;
	}
	*out = (struct gd_nvlinks){ .known = true };
	for (line = copy; line && !ret; line = next) {
		char *hash;

		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		lineno++;
		if ((hash = strchr(line, '#')))
			*hash = '\0';
		ret = parse_line(line, fname, lineno, out, err, errlen);
	}
	free(copy);
	if (ret) {
		if (errline)
			*errline = lineno;
		gd_nvlink_free(out);
	}
	return ret;
}

/* a list of 8 GPUs x 18 links is a few kB; 1 MiB is far beyond any real one */
#define GD_READ_CAP_NVLINKS ((size_t)1024 * 1024)

#define NVLINK_FORMAT "expected text lines 'GPU_BUSID REMOTE_BUSID COUNT' (see gd_topo(1))"

int gd_nvlink_read_file(const char *path, struct gd_nvlinks *out, char *err, size_t errlen)
{
	char *text = NULL;
	size_t len = 0;
	/* bounded and non-blocking: --nvlinks /dev/zero or a FIFO is refused at once */
	int ret = gd_readfile_alloc(path, GD_READ_CAP_NVLINKS, &text, &len);

	if (ret) {
		snprintf(err, errlen, "cannot read NVLink file %s: %s; %s", path, gd_strerror(ret),
			 NVLINK_FORMAT);
	} else if (memchr(text, '\0', len)) {
		snprintf(err, errlen, "%s: not a text file (NUL byte); %s", path, NVLINK_FORMAT);
		ret = -EINVAL;
	} else {
		ret = gd_nvlink_parse(text, path, out, err, errlen, NULL);
	}
	free(text);
	return ret;
}

int gd_nvlink_write(const struct gd_nvlinks *l, FILE *out)
{
	char a[24], b[24];

	fprintf(out, "# gpu-busid remote-busid link-count (FFFFFFFF:FF:FF.0 = hidden NVSwitch)\n");
	for (size_t i = 0; i < l->n; i++) {
		gd_busid_format(&l->v[i].gpu, a, sizeof(a));
		gd_busid_format(&l->v[i].remote, b, sizeof(b));
		fprintf(out, "%s %s %d\n", a, b, l->v[i].count);
	}
	return ferror(out) ? -EIO : 0;
}

static void drop(struct gd_nvlinks *l, size_t i)
{
	memmove(&l->v[i], &l->v[i + 1], (l->n - i - 1) * sizeof(*l->v));
	l->n--;
}

/* The index of the entry gpu -> remote, or -1. */
static ssize_t find_pair(const struct gd_nvlinks *l, const struct gd_busid *gpu,
			 const struct gd_busid *remote)
{
	for (size_t i = 0; i < l->n; i++)
		if (gd_busid_eq(&l->v[i].gpu, gpu) && gd_busid_eq(&l->v[i].remote, remote))
			return (ssize_t)i;
	return -1;
}

size_t gd_nvlink_validate(struct gd_nvlinks *l, const char *src,
			  bool (*is_gpu)(const struct gd_busid *, void *), void *ctx)
{
	char a[24], b[24];
	size_t dropped = 0;

	for (size_t i = 0; i < l->n;) {
		struct gd_nvlink nv = l->v[i];
		ssize_t back;

		gd_busid_format(&nv.gpu, a, sizeof(a));
		gd_busid_format(&nv.remote, b, sizeof(b));
		if (!is_gpu(&nv.gpu, ctx)) {
			gd_warn("%s: %s is not a GPU of this topology: its NVLink line (%s, %d "
				"links) is ignored", src, a, b, nv.count);
		} else if (is_gpu(&nv.remote, ctx) &&
			   (back = find_pair(l, &nv.remote, &nv.gpu)) >= 0 &&
			   l->v[back].count != nv.count) {
			gd_warn("%s: %s -> %s has %d links but %s -> %s has %d: both lines are "
				"ignored", src, a, b, nv.count, b, a, l->v[back].count);
			drop(l, (size_t)back);
			if ((size_t)back < i)
				i--;
			dropped++;
		} else {
			i++;
			continue;
		}
		drop(l, i);
		dropped++;
	}
	return dropped;
}

int gd_nvlink_count(const struct gd_nvlinks *l, const struct gd_busid *a,
		    const struct gd_busid *b, bool (*is_gpu)(const struct gd_busid *, void *),
		    void *ctx)
{
	int ab = 0, ba = 0, fa = 0, fb = 0;

	for (size_t i = 0; i < l->n; i++) {
		const struct gd_nvlink *nv = &l->v[i];
		bool to_gpu = is_gpu(&nv->remote, ctx);

		if (gd_busid_eq(&nv->gpu, a)) {
			if (gd_busid_eq(&nv->remote, b))
				ab += nv->count;
			else if (!to_gpu)
				fa += nv->count;
		} else if (gd_busid_eq(&nv->gpu, b)) {
			if (gd_busid_eq(&nv->remote, a))
				ba += nv->count;
			else if (!to_gpu)
				fb += nv->count;
		}
	}
	/* a direct bridge seen from one side only still counts */
	if (ab && ba)
		ab = GD_MIN(ab, ba);
	else
		ab = ab ? ab : ba;
	return ab + GD_MIN(fa, fb);
}

/*
 * NVML, declared here so that gdperf builds without the driver's headers.
 * The layouts are NVML's stable ABI (nvml.h, r450 and later).
 */
typedef int nvml_ret;
typedef void *nvml_dev;
struct nvml_pci {
	char bus_id_legacy[16];
	unsigned int domain, bus, device, pci_device_id, pci_subsystem_id;
	char bus_id[32];
	char reserved[64]; /* room should a later NVML grow the struct */
};
enum { NVML_OK = 0, NVML_FEATURE_ENABLED = 1, NVML_NVLINK_LINKS_MAX = 64 };

struct nvml {
	void *lib;
	nvml_ret (*init)(void);
	nvml_ret (*shutdown)(void);
	const char *(*error_string)(nvml_ret);
	nvml_ret (*count)(unsigned int *);
	nvml_ret (*handle)(unsigned int, nvml_dev *);
	nvml_ret (*pci)(nvml_dev, struct nvml_pci *);
	nvml_ret (*link_state)(nvml_dev, unsigned int, int *);
	nvml_ret (*remote_pci)(nvml_dev, unsigned int, struct nvml_pci *);
};

static int nvml_load(struct nvml *n, char *err, size_t errlen)
{
	n->lib = dlopen("libnvidia-ml.so.1", RTLD_NOW | RTLD_LOCAL);
	if (!n->lib) {
		snprintf(err, errlen, "NVML not available (%s); NVLink counts unknown", dlerror());
		return -ENOENT;
	}
#define SYM(field, name) (*(void **)&n->field = dlsym(n->lib, name))
	SYM(init, "nvmlInit_v2");
	SYM(shutdown, "nvmlShutdown");
	SYM(error_string, "nvmlErrorString");
	SYM(count, "nvmlDeviceGetCount_v2");
	SYM(handle, "nvmlDeviceGetHandleByIndex_v2");
	SYM(pci, "nvmlDeviceGetPciInfo_v3");
	SYM(link_state, "nvmlDeviceGetNvLinkState");
	SYM(remote_pci, "nvmlDeviceGetNvLinkRemotePciInfo_v2");
#undef SYM
	if (!n->init || !n->shutdown || !n->count || !n->handle || !n->pci || !n->link_state ||
	    !n->remote_pci) {
		snprintf(err, errlen, "libnvidia-ml.so.1 lacks the NVLink functions (driver too old)");
		dlclose(n->lib);
		return -ENOENT;
	}
	return 0;
}

static int nvml_busid(const struct nvml_pci *p, struct gd_busid *id)
{
	if (!gd_busid_parse(p->bus_id, id))
		return 0;
	if (!gd_busid_parse(p->bus_id_legacy, id))
		return 0;
	*id = (struct gd_busid){ p->domain, (uint8_t)p->bus, (uint8_t)p->device, 0 };
	return 0;
}

static int nvml_gpu_links(struct nvml *n, nvml_dev dev, struct gd_nvlinks *out)
{
	struct nvml_pci pci = { 0 };
	struct gd_busid gpu, remote;
	int ret;

	if (n->pci(dev, &pci) != NVML_OK)
		return 0;
	nvml_busid(&pci, &gpu);
	for (unsigned int link = 0; link < NVML_NVLINK_LINKS_MAX; link++) {
		int active = 0;

		/* NVML answers an error past the last link, or on a GPU without NVLink */
		if (n->link_state(dev, link, &active) != NVML_OK)
			break;
		if (active != NVML_FEATURE_ENABLED)
			continue;
		memset(&pci, 0, sizeof(pci));
		if (n->remote_pci(dev, link, &pci) != NVML_OK)
			continue;
		nvml_busid(&pci, &remote);
		ret = gd_nvlink_add(out, &gpu, &remote, 1);
		if (ret)
			return ret;
	}
	return 0;
}

int gd_nvlink_query_nvml(struct gd_nvlinks *out, char *err, size_t errlen)
{
	struct nvml n = { 0 };
	unsigned int count = 0;
	nvml_ret r;
	int ret;

	*out = (struct gd_nvlinks){ 0 };
	ret = nvml_load(&n, err, errlen);
	if (ret)
		return ret;
	r = n.init();
	if (r != NVML_OK) {
		snprintf(err, errlen, "NVML did not initialise (%s): is the NVIDIA driver loaded?",
			 n.error_string ? n.error_string(r) : "error");
		dlclose(n.lib);
		return -ENODEV;
	}
	out->known = true;
	ret = n.count(&count) == NVML_OK ? 0 : -ENODEV;
	for (unsigned int i = 0; !ret && i < count; i++) {
		nvml_dev dev;

		if (n.handle(i, &dev) == NVML_OK)
			ret = nvml_gpu_links(&n, dev, out);
	}
	n.shutdown();
	dlclose(n.lib);
	if (ret) {
		snprintf(err, errlen, "NVML could not list the GPUs");
		gd_nvlink_free(out);
	}
	return ret;
}
