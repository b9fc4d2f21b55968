/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* gdperf: conventions shared by every module and tool. */
#ifndef GD_H
#define GD_H

#include <stddef.h>

/* Exit codes. Only tools/ call exit(). */
enum gd_exit {
	GD_EXIT_OK = 0,    /* success */
	GD_EXIT_FAIL = 1,  /* a test ran and failed, or missed a threshold */
	GD_EXIT_USAGE = 2, /* usage, configuration or peer-protocol error */
	GD_EXIT_ENV = 3,   /* the environment cannot run it: no device, no GPU, no permission */
};

/* A tool that a signal (SIGINT, SIGTERM) stopped exits 128 + the signal, as a
 * shell reports a command the signal killed: 130 for ^C, 143 for SIGTERM. Its
 * report says "interrupted" and keeps what was measured before the signal. */
static inline int gd_exit_signal(int sig)
{
	return 128 + sig;
}

/* Version of every JSON record gdperf prints ("schema" field). */
#define GD_JSON_SCHEMA 1

#define GD_ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))
#define GD_MIN(a, b) ((a) < (b) ? (a) : (b))
#define GD_MAX(a, b) ((a) > (b) ? (a) : (b))

#endif
