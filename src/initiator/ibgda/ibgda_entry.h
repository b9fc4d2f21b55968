/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * What a benchmark tool calls for --initiator=ibgda / ibgda-cpudb before it
 * opens anything: run the probe chain on the chosen device, print every
 * step with its reason under the header, and say whether the mode can run.
 */
#ifndef GD_IBGDA_ENTRY_H
#define GD_IBGDA_ENTRY_H

#include <stdbool.h>
#include <stdio.h>

#include "ibgda_probe.h"

struct gd_machine;

/* 0: plan says which mode runs (fallback announced); 3: the environment
 * cannot run it, the message names the cause, the fix and the gd_doctor
 * check (a non-mlx5 device names --initiator=proxy). */
int gd_ibgda_prepare(const struct gd_machine *m, const char *dev, bool cpudb, bool allow_fallback,
		     int cuda_ordinal, FILE *out, FILE *err, struct gd_ibgda_plan *plan);

#endif
