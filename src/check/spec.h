/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * gd_check's acceptance spec: a YAML file (parsed by libyaml, Debian's
 * libyaml-dev) with the sections topology, devices, doctor and tests.
 *
 * Every value is checked while loading: unknown keys, wrong types, bad
 * units and YAML syntax errors give one message "FILE:LINE:COLUMN: what is
 * wrong; what is expected" and -EINVAL (the tool exits 2). Counts and
 * thresholds that a spec leaves out are not checked (-1 / nth == 0).
 *
 * Units: bandwidth in Gb/s (also Mb/s, GB/s), latency in us (also ns, ms),
 * message rate in Mpps (also Kpps, pps); relative bandwidth thresholds are
 * "90% line" (of the port's line rate) or "80% pcie" (of the narrowest PCIe
 * link on the path, by the path class of the pair).
 */
#ifndef GD_CHECK_SPEC_H
#define GD_CHECK_SPEC_H

#include <stddef.h>

#include "sha256.h"
#include "spec_keys.h"
#include "spec_manifest.h"
#include "spec_types.h"
#include "spec_values.h"

/*
 * Load and check a spec from a file. On error, err holds
 * "FILE:LINE:COLUMN: message" and the return is -EINVAL (bad spec) or
 * -errno (cannot read the file).
 */
int gd_ck_spec_load(const char *path, struct gd_ck_spec *spec, char *err, size_t errlen);
/* The same from a buffer (the fuzz target); name is used in messages. */
int gd_ck_spec_parse(const char *name, const unsigned char *buf, size_t len,
		     struct gd_ck_spec *spec, char *err, size_t errlen);
void gd_ck_spec_free(struct gd_ck_spec *spec);
/* The key of test t that gd_check's libfabric runs cannot take ("device",
 * "initiator", "memory", "pairs", "check"), NULL when none: gd_check runs
 * fabric ofi with host memory and the cpu initiator, on loopback or between
 * ranks. THE list: the loader refuses fabric: ofi with such a key, and
 * gd_check's fabric decision (check_machine.c) takes verbs for it. */
const char *gd_ck_ofi_refuses(const struct gd_ck_test *t);

#endif
