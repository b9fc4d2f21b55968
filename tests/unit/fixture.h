/*
 * Where the sysfs fixture trees are: tests/fixtures/sysfs in the source tree
 * (a git checkout), or unpacked from tests/fixtures/sysfs.tar.gz (a release
 * tarball, which cannot hold the trees' symlink cycles: see mk/devinfo.am).
 */
#ifndef GD_TEST_FIXTURE_H
#define GD_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static char gd_fixture_tmp[64];

static void gd_fixture_cleanup(void)
{
	char cmd[128];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", gd_fixture_tmp);
	if (system(cmd) != 0)
		fprintf(stderr, "cannot remove %s\n", gd_fixture_tmp);
}

/* The directory holding h20/, ib/, rxe/...; NULL when neither form exists. */
static const char *gd_fixture_dir(void)
{
	static char dir[1024];
	const char *src = getenv("top_srcdir");
	char tarball[1024], cmd[2200];

	if (dir[0])
		return dir;
	if (!src)
		src = "../..";
	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysfs", src);
	if (access(dir, F_OK) == 0)
		return dir;
	snprintf(tarball, sizeof(tarball), "%s/tests/fixtures/sysfs.tar.gz", src);
	snprintf(gd_fixture_tmp, sizeof(gd_fixture_tmp), "/tmp/gd_fixtures_XXXXXX");
	if (access(tarball, R_OK) || !mkdtemp(gd_fixture_tmp))
		return NULL;
	atexit(gd_fixture_cleanup);
	snprintf(cmd, sizeof(cmd), "tar -xzf '%s' -C '%s'", tarball, gd_fixture_tmp);
	if (system(cmd) != 0)
		return NULL;
	snprintf(dir, sizeof(dir), "%s/sysfs", gd_fixture_tmp);
	return dir;
}

#endif
