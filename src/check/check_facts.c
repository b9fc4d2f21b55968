/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* What a gd_check report records about the machine: host, kernel, drivers, firmware, version. */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "check.h"
#include "rdma_dev.h"
#include "machine.h"
#include "sysfs.h"
#include "version.h"

static void append(char *buf, size_t len, const char *text)
{
	size_t n = strlen(buf);

	if (strstr(buf, text))
		return;
	snprintf(buf + n, len - n, "%s%s", n ? ", " : "", text);
}

static void device_facts(const struct gd_machine *m, struct gd_ck_host *h)
{
	struct gd_hca *hcas = NULL;
	size_t n = 0;

	/* names, drivers and firmware: not the ports (their GID tables are most of a discovery) */
	if (gd_rdma_discover_brief(m, &hcas, &n))
		return;
	for (size_t i = 0; i < n; i++) {
		const char *drv = hcas[i].driver[0] ? hcas[i].driver :
				  !strncmp(hcas[i].name, "rxe", 3) ? "rdma_rxe" : "";
		char ver[64] = "", text[160];

		if (drv[0]) {
			if (gd_sysfs_read_str(m, ver, sizeof(ver), "/sys/module/%s/version", drv))
				ver[0] = '\0';
			snprintf(text, sizeof(text), "%s%s%s", drv, ver[0] ? " " : "", ver);
			append(h->drivers, sizeof(h->drivers), text);
		}
		snprintf(text, sizeof(text), "%s %s", hcas[i].name,
			 hcas[i].fw_ver[0] ? hcas[i].fw_ver : "(no firmware version)");
		append(h->firmware, sizeof(h->firmware), text);
	}
	gd_rdma_free(hcas, n);
}

void gd_ck_host_facts(const struct gd_machine *m, struct gd_ck_host *h)
{
	struct utsname u;

	memset(h, 0, sizeof(*h));
	snprintf(h->version, sizeof(h->version), "%s", gd_version());
	if (m->fixture) {
		snprintf(h->hostname, sizeof(h->hostname), "fixture:%s", m->root);
		if (gd_sysfs_read_str(m, h->kernel, sizeof(h->kernel), "/proc/sys/kernel/osrelease"))
			snprintf(h->kernel, sizeof(h->kernel), "unknown (fixture)");
	} else {
		gethostname(h->hostname, sizeof(h->hostname) - 1);
		if (!uname(&u))
			snprintf(h->kernel, sizeof(h->kernel), "%s", u.release);
	}
	device_facts(m, h);
}
