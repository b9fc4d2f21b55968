/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
#include "pcipath.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "log.h"
#include "readfile.h"
#include "sysfs.h"

static bool is_bdf(const char *s)
{
	unsigned d, b, dev, f;
	char tail;

	return sscanf(s, "%4x:%2x:%2x.%1x%c", &d, &b, &dev, &f, &tail) == 4 && strlen(s) == 12;
}

int gd_pci_parse_chain(const char *devpath, struct gd_pci_chain *c)
{
	char tmp[PATH_MAX];
	char *save = NULL, *tok;

	memset(c, 0, sizeof(*c));
	snprintf(tmp, sizeof(tmp), "%s", devpath);
	for (tok = strtok_r(tmp, "/", &save); tok; tok = strtok_r(NULL, "/", &save)) {
		if (strncmp(tok, "pci", 3) == 0 && !c->host[0]) {
			snprintf(c->host, sizeof(c->host), "%s", tok);
		} else if (c->host[0] && is_bdf(tok)) {
			if (c->n == GD_PCI_CHAIN_MAX)
				return -E2BIG;
			snprintf(c->bdf[c->n++], GD_BDF_LEN, "%s", tok);
		}
	}
	return c->host[0] && c->n > 0 ? 0 : -EINVAL;
}

int gd_pci_chain(const struct gd_machine *m, const char *bdf, struct gd_pci_chain *c)
{
	char real[PATH_MAX];
	int ret = gd_sysfs_realpath(m, real, sizeof(real), "/sys/bus/pci/devices/%s", bdf);

	if (ret)
		return ret;
	return gd_pci_parse_chain(real, c);
}

int gd_pci_numa(const struct gd_machine *m, const char *bdf)
{
	int node;

	if (gd_sysfs_read_int(m, &node, "/sys/bus/pci/devices/%s/numa_node", bdf))
		return -1;
	return node;
}

int gd_pcie_parse_speed(const char *s, double *gts)
{
	char *end;
	double v;

	/* "16.0 GT/s PCIe", "8 GT/s"; "Unknown", "nan GT/s", "1e999 GT/s", hex floats
	 * and absurd rates are malformed, never a rate that passes a check */
	if (!isdigit((unsigned char)s[0]) || (s[0] == '0' && (s[1] == 'x' || s[1] == 'X')))
		return -EINVAL;
	v = strtod(s, &end);
	if (end == s || strncmp(end, " GT/s", 5) != 0 || !(v > 0 && v <= 1024))
		return -EINVAL;
	*gts = v;
	return 0;
}

int gd_pcie_gen(double gts)
{
	static const double rates[] = { 2.5, 5, 8, 16, 32, 64 };

	for (int i = 0; i < 6; i++)
		if (gts > rates[i] - 0.1 && gts < rates[i] + 0.1)
			return i + 1;
	return 0;
}

/* A speed file: its rate, or 0 for "Unknown"; malformed text is named in l. */
static double read_speed(const struct gd_machine *m, const char *bdf, const char *file,
			 struct gd_pcie_link *l)
{
	char buf[64];
	double gts = 0;

	if (gd_sysfs_read_str(m, buf, sizeof(buf), "/sys/bus/pci/devices/%s/%s", bdf, file) ||
	    !gd_pcie_parse_speed(buf, &gts) || !strncmp(buf, "Unknown", 7))
		return gts;
	if (!l->bad_file[0]) {
		snprintf(l->bad_file, sizeof(l->bad_file), "%s", file);
		snprintf(l->bad_text, sizeof(l->bad_text), "%.40s", buf);
	}
	return 0;
}

int gd_pci_read_link(const struct gd_machine *m, const char *bdf, struct gd_pcie_link *l)
{
	int ret;

	memset(l, 0, sizeof(*l));
	l->cur_gts = read_speed(m, bdf, "current_link_speed", l);
	l->max_gts = read_speed(m, bdf, "max_link_speed", l);
	if (!l->cur_gts)
		return -EINVAL;
	ret = gd_sysfs_read_int(m, &l->cur_width, "/sys/bus/pci/devices/%s/current_link_width",
				bdf);
	if (ret || l->cur_width <= 0)
		return ret ? ret : -EINVAL;
	if (gd_sysfs_read_int(m, &l->max_width, "/sys/bus/pci/devices/%s/max_link_width", bdf))
		l->max_width = 0;
	l->known = true;
	return 0;
}

int gd_pci_read_config(const struct gd_machine *m, const char *bdf, uint8_t *buf, size_t len,
		       size_t *got)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, ret = gd_sysfs_path(m, path, sizeof(path), "/sys/bus/pci/devices/%s/config", bdf);

	if (ret)
		return ret;
	/* bounded and non-blocking; config space is at most 4096 bytes, read what fits */
	ret = gd_readfile_open(path, &fd);
	if (ret)
		return ret;
	do
		n = read(fd, buf, len);
	while (n < 0 && errno == EINTR);
	ret = n < 0 ? -errno : 0;
	close(fd);
	*got = n < 0 ? 0 : (size_t)n;
	return ret;
}

static uint32_t le32(const uint8_t *p)
{
	return p[0] | p[1] << 8 | p[2] << 16 | (uint32_t)p[3] << 24;
}

int gd_pci_find_ext_cap(const uint8_t *cfg, size_t len, uint16_t id)
{
	size_t off = 0x100;

	if (len < 0x104)
		return -EACCES;
	for (int hops = 0; hops < 480; hops++) {
		uint32_t hdr = le32(cfg + off);

		if (hdr == 0 || hdr == 0xffffffff)
			return -ENOENT;
		if ((hdr & 0xffff) == id)
			return (int)off;
		off = hdr >> 20;
		if (off == 0)
			return -ENOENT;
		if (off < 0x100 || off + 4 > len || (off & 3))
			return -EINVAL;
	}
	return -EINVAL; /* a loop */
}

int gd_pci_acs_ctrl(const uint8_t *cfg, size_t len, uint16_t *ctrl)
{
	int off = gd_pci_find_ext_cap(cfg, len, GD_PCI_EXT_CAP_ACS);

	if (off < 0)
		return off;
	if ((size_t)off + 8 > len)
		return -EINVAL;
	*ctrl = cfg[off + 6] | cfg[off + 7] << 8;
	return 0;
}

void gd_acs_str(uint16_t ctrl, char *buf, size_t len)
{
	static const struct {
		uint16_t bit;
		const char *name;
	} bits[] = {
		{ GD_ACS_SV, "SrcValid" },   { GD_ACS_TB, "TransBlk" },
		{ GD_ACS_RR, "ReqRedir" },   { GD_ACS_CR, "CmpltRedir" },
		{ GD_ACS_UF, "UpstreamFwd" }, { GD_ACS_EC, "EgressCtrl" },
		{ GD_ACS_DT, "DirectTrans" },
	};
	size_t n = 0;

	buf[0] = '\0';
	for (size_t i = 0; i < sizeof(bits) / sizeof(bits[0]) && n < len; i++)
		if (ctrl & bits[i].bit)
			n += snprintf(buf + n, len - n, "%s%s+", n ? " " : "", bits[i].name);
	if (!n)
		snprintf(buf, len, "none");
}

int gd_pci_mem_resource(const struct gd_machine *m, const char *bdf, int nth, uint64_t *size)
{
	char text[2048], *line, *save = NULL;
	int ret = gd_sysfs_read_str(m, text, sizeof(text), "/sys/bus/pci/devices/%s/resource", bdf);

	if (ret)
		return ret;
	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		unsigned long long start, end, flags;

		if (sscanf(line, "%llx %llx %llx", &start, &end, &flags) != 3)
			return -EINVAL;
		if (!(flags & 0x200) || end <= start) /* IORESOURCE_MEM */
			continue;
		if (nth-- == 0) {
			*size = end - start + 1;
			return 0;
		}
	}
	return -ENOENT;
}
