/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * LD_PRELOAD shim for tests/fabric/ofi-check-alone.sh: every shmget that asks
 * for huge pages (SHM_HUGETLB, gd_buf_hugepage) gets plain shared memory
 * instead, so that --use_hugepages runs on a machine with none reserved, and
 * is counted: one line "PID SIZE" per such call, appended to the file named
 * by GD_TEST_HUGEPAGE_LOG. The test reads how many times each process took
 * its buffer.
 */
#define _GNU_SOURCE
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/ipc.h>
#include <sys/shm.h>
#include <sys/syscall.h>
#include <unistd.h>

int shmget(key_t key, size_t size, int flag)
{
	const char *log = getenv("GD_TEST_HUGEPAGE_LOG");

	if ((flag & SHM_HUGETLB) && log) {
		char line[64];
		int n = snprintf(line, sizeof(line), "%d %zu\n", (int)getpid(), size);
		int fd = open(log, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);

		if (fd >= 0) {
			if (write(fd, line, (size_t)n) != n)
				n = -1;
			close(fd);
		}
		flag &= ~SHM_HUGETLB;
	}
	return (int)syscall(SYS_shmget, key, size, flag);
}
