/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * A manifest's values (spec_manifest.c loads the manifest section): PCIe links and firmware
 * patterns, for the loader, check_manifest.c and the unit tests.
 */
#ifndef GD_CHECK_SPEC_MANIFEST_H
#define GD_CHECK_SPEC_MANIFEST_H

#include <regex.h>
#include <stddef.h>

#include "spec_types.h"

/* A manifest's PCIe link "x16 32 GT/s" (width, speed; either may be left out): 0, -EINVAL. */
int gd_ck_parse_pcie(const char *s, struct gd_ck_mf_pcie *p, char *why, size_t len);

/* A manifest's firmware pattern compiled to match a whole version: 0, or -EINVAL with why.
 * Its cost is bounded first (gd_ck_fw_pattern_cost): a spec's pattern is code. */
int gd_ck_fw_regex(const char *pattern, regex_t *re, char *why, size_t len);
/* The atoms regcomp would build from a pattern, each counted repetition copying its atom:
 * more than GD_CK_FW_MAX_ATOMS, groups nested deeper than GD_CK_FW_MAX_GROUPS (-E2BIG) or a
 * back-reference or a ')' without its '(' (-EINVAL) refused with why; else 0. */
#define GD_CK_FW_MAX_ATOMS 256
#define GD_CK_FW_MAX_GROUPS 16
int gd_ck_fw_pattern_cost(const char *pattern, char *why, size_t len);

#endif
