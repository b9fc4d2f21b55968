/* Where the sysfs fixture trees are: $top_srcdir/tests/fixtures/sysfs. */
#ifndef GD_TEST_FIXTURE_H
#define GD_TEST_FIXTURE_H

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

/* The directory holding h20/, ib/, rxe/...; NULL when it is missing. */
static const char *gd_fixture_dir(void)
{
	static char dir[1024];
	const char *src = getenv("top_srcdir");

	snprintf(dir, sizeof(dir), "%s/tests/fixtures/sysfs", src ? src : "../..");
	return access(dir, F_OK) == 0 ? dir : NULL;
}

#endif
