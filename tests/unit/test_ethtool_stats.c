/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_ethtool_stats (port_counters.h) against the reference, ethtool(8), on this machine's
 * own interfaces: the first interface whose driver has statistics (eth0's virtio_net, a veth,
 * ...) gives the same names in the same order as `ethtool -S IF`, and each value read before
 * ethtool ran is at most ethtool's, which is at most the one read after (counters only
 * grow). lo has none (-EOPNOTSUPP), a name that is no interface is -ENODEV. SKIP (77) without
 * ethtool(8) or an interface with statistics.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <dirent.h>
#include <inttypes.h>

#include "port_counters.h"

static char ifname[IF_NAMESIZE];

/* The first interface of /sys/class/net, by name, whose statistics can be read. */
static int pick(void)
{
	struct dirent **ents;
	int n = scandir("/sys/class/net", &ents, NULL, alphasort), found = 0;

	for (int i = 0; i < n; i++) {
		char (*names)[GD_ETHTOOL_NAME];
		uint64_t *vals;
		size_t k;

		if (!found && ents[i]->d_name[0] != '.' && strlen(ents[i]->d_name) < IF_NAMESIZE &&
		    !gd_ethtool_stats(ents[i]->d_name, &names, &vals, &k)) {
			snprintf(ifname, sizeof(ifname), "%s", ents[i]->d_name);
			found = 1;
			free(names);
			free(vals);
		}
		free(ents[i]);
	}
	free(ents);
	return found;
}

/* ethtool -S's "     NAME: VALUE" lines, in order, against two reads around it. */
static void same_as_ethtool(void **state)
{
	char (*n0)[GD_ETHTOOL_NAME], (*n1)[GD_ETHTOOL_NAME], cmd[128], line[256];
	uint64_t *v0, *v1;
	size_t c0, c1, i = 0;
	FILE *p;

	(void)state;
	assert_int_equal(gd_ethtool_stats(ifname, &n0, &v0, &c0), 0);
	snprintf(cmd, sizeof(cmd), "ethtool -S %s", ifname);
	p = popen(cmd, "r");
	assert_non_null(p);
	assert_non_null(fgets(line, sizeof(line), p)); /* "NIC statistics:" */
	assert_int_equal(gd_ethtool_stats(ifname, &n1, &v1, &c1), 0);
	assert_int_equal(c0, c1);
	while (fgets(line, sizeof(line), p)) {
		char name[64];
		uint64_t v;

		if (sscanf(line, " %63[^:]: %" SCNu64, name, &v) != 2)
			continue;
		assert_true(i < c0);
		assert_string_equal(name, n0[i]);
		assert_true(v0[i] <= v || !strcmp(name, "peer_ifindex"));
		assert_true(v <= v1[i] || !strcmp(name, "peer_ifindex"));
		i++;
	}
	assert_int_equal(pclose(p), 0);
	assert_int_equal(i, c0);
	printf("# %s: %zu statistics, as ethtool -S prints them\n", ifname, c0);
	free(n0);
	free(v0);
	free(n1);
	free(v1);
}

static void none_and_absent(void **state)
{
	char (*names)[GD_ETHTOOL_NAME];
	uint64_t *vals;
	size_t n;

	(void)state;
	assert_int_equal(gd_ethtool_stats("gd-no-such9", &names, &vals, &n), -ENODEV);
	assert_int_equal(gd_ethtool_stats("lo", &names, &vals, &n), -EOPNOTSUPP);
	assert_null(names);
	assert_int_equal(n, 0);
	assert_int_equal(gd_ethtool_stats("../lo", &names, &vals, &n), -ENODEV);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(same_as_ethtool),
		cmocka_unit_test(none_and_absent),
	};

	if (system("ethtool --version >/dev/null 2>&1")) {
		printf("SKIP: ethtool(8) is not installed: nothing to compare with\n");
		return 77;
	}
	if (!pick()) {
		printf("SKIP: no interface here has ethtool statistics\n");
		return 77;
	}
	return cmocka_run_group_tests(tests, NULL, NULL);
}
