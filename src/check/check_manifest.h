/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/* The manifest of a SKU (spec: manifest) against this machine, and --example's. */
#ifndef GD_CHECK_MANIFEST_H
#define GD_CHECK_MANIFEST_H

#include <stdio.h>

#include "check_machine.h"

/* Items: the counts (the topology section's gpus and nics), each NIC's firmware, port
 * rate and NUMA node, each GPU's NUMA node. Nothing when the spec has no manifest. */
void gd_ck_manifest(const struct gd_ck_spec *s, const struct gd_ck_machine *m,
		    struct gd_ck_report *r);
/* This machine's manifest section, as --example writes it. */
void gd_ck_print_manifest(FILE *out, const struct gd_ck_machine *m);
/* A version as a pattern that matches it alone (ERE specials escaped), in YAML single quotes. */
void gd_ck_fw_quote(FILE *out, const char *v);

#endif
