/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* libfabric loaded on first use (ofi_lib.h says why). */
#include "ofi_lib.h"

#include <dlfcn.h>
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>

#include <rdma/fi_errno.h>

#include "log.h"

static struct {
	int (*getinfo)(uint32_t, const char *, const char *, uint64_t, const struct fi_info *,
		       struct fi_info **);
	void (*freeinfo)(struct fi_info *);
	struct fi_info *(*dupinfo)(const struct fi_info *);
	int (*fabric)(struct fi_fabric_attr *, struct fid_fabric **, void *);
	const char *(*strerror)(int);
	char *(*tostr)(const void *, enum fi_type);
	uint32_t (*version)(void);
	int ret;
	char err[512];
} lib;

static pthread_once_t lib_once = PTHREAD_ONCE_INIT;

/* dlopen libfabric, keeping the process's signal handlers: Debian's libfabric
 * links the PSM providers, whose libraries install SIGINT/SIGTERM (and other)
 * handlers from their constructors. Linked, those ran before main() and the
 * tool's own handlers replaced them; loaded here, after main() set them, they
 * would replace the tool's (a ^C would no longer print the rows measured and
 * exit 130). The handlers of before the load are put back. */
static void *lib_dlopen(void)
{
	struct sigaction before[NSIG], now;
	void *h;
	int sig;

	for (sig = 1; sig < NSIG; sig++)
		if (sigaction(sig, NULL, &before[sig]))
			before[sig].sa_handler = SIG_ERR; /* not a signal one may ask about */
	/* RTLD_GLOBAL: providers libfabric itself dlopens resolve against it */
	h = dlopen(GD_OFI_SONAME, RTLD_NOW | RTLD_GLOBAL);
	for (sig = 1; sig < NSIG; sig++)
		if (before[sig].sa_handler != SIG_ERR && !sigaction(sig, NULL, &now) &&
		    (now.sa_handler != before[sig].sa_handler ||
		     now.sa_flags != before[sig].sa_flags))
			sigaction(sig, &before[sig], NULL);
	return h;
}

static void lib_open(void)
{
	/* dlsym into the function pointers (POSIX defines the object/function cast) */
	const struct { void **slot; const char *name; } sym[] = {
		{ (void **)&lib.getinfo, "fi_getinfo" }, { (void **)&lib.freeinfo, "fi_freeinfo" },
		{ (void **)&lib.dupinfo, "fi_dupinfo" }, { (void **)&lib.fabric, "fi_fabric" },
		{ (void **)&lib.strerror, "fi_strerror" }, { (void **)&lib.tostr, "fi_tostr" },
		{ (void **)&lib.version, "fi_version" },
	};
	void *h = lib_dlopen();

	if (!h) {
		snprintf(lib.err, sizeof(lib.err), "libfabric could not be loaded (%s): install it "
			 "(Debian: apt-get install libfabric1) or put the directory of your "
			 "libfabric.so.1 on LD_LIBRARY_PATH", dlerror());
		lib.ret = -ELIBACC;
		return;
	}
	for (size_t i = 0; i < sizeof(sym) / sizeof(sym[0]); i++) {
		if ((*sym[i].slot = dlsym(h, sym[i].name)))
			continue;
		snprintf(lib.err, sizeof(lib.err), "the %s loaded has no %s: it is not libfabric "
			 "1.10 or later; install libfabric1 or fix LD_LIBRARY_PATH", GD_OFI_SONAME,
			 sym[i].name);
		lib.ret = -ELIBACC;
		dlclose(h);
		return;
	}
}

int gd_ofi_lib_load(void)
{
	pthread_once(&lib_once, lib_open);
	return lib.ret;
}

const char *gd_ofi_lib_error(void)
{
	return gd_ofi_lib_load() ? lib.err : "";
}

int gd_ofi_lib_require(void)
{
	int ret = gd_ofi_lib_load();

	if (ret)
		gd_error("--fabric ofi: %s", lib.err);
	return ret;
}

int gd_fi_getinfo(uint32_t version, const char *node, const char *service, uint64_t flags,
		  const struct fi_info *hints, struct fi_info **info)
{
	return gd_ofi_lib_load() ? -FI_ENOSYS : lib.getinfo(version, node, service, flags, hints,
							     info);
}

void gd_fi_freeinfo(struct fi_info *info)
{
	if (info && !gd_ofi_lib_load())
		lib.freeinfo(info);
}

struct fi_info *gd_fi_dupinfo(const struct fi_info *info)
{
	return gd_ofi_lib_load() ? NULL : lib.dupinfo(info);
}

int gd_fi_fabric(struct fi_fabric_attr *attr, struct fid_fabric **fabric, void *context)
{
	return gd_ofi_lib_load() ? -FI_ENOSYS : lib.fabric(attr, fabric, context);
}

const char *gd_fi_strerror(int errnum)
{
	return gd_ofi_lib_load() ? lib.err : lib.strerror(errnum);
}

char *gd_fi_tostr(const void *data, enum fi_type datatype)
{
	static char none[] = "";

	return gd_ofi_lib_load() ? none : lib.tostr(data, datatype);
}

uint32_t gd_fi_version(void)
{
	return gd_ofi_lib_load() ? 0 : lib.version();
}
