/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#ifndef GD_VERSION_H
#define GD_VERSION_H

/* This build's version: 'git describe' (or the tarball's .tarball-version) taken
 * when make ran. The one source of --version, the wire hello and reports. */
const char *gd_version(void);

#endif
