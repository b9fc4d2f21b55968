/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The bring-up ladder (doc/check.md): software stack -> devices and links -> topology ->
 * GPUDirect engaged -> point-to-point -> GPU-initiated -> many nodes. The run goes rung by
 * rung; an item made while a lower rung has failed is stamped blocked_by, and the judge
 * makes it SKIP "not run: rung N (NAME) failed" (--keep-going: nothing is blocked).
 */
#include <string.h>

#include "check.h"
#include "doctor.h"

int gd_ck_ladder_blocked(const struct gd_ck_report *r)
{
	return !r->keep_going && r->failed_rung && r->failed_rung < r->rung_now ? r->failed_rung : 0;
}

void gd_ck_ladder_enter(struct gd_ck_report *r, int rung)
{
	r->rung_now = rung;
}

void gd_ck_ladder_leave(struct gd_ck_report *r, int rung)
{
	for (size_t i = 0; i < r->n; i++)
		if (r->items[i].rung == rung && r->items[i].status == GD_CK_FAIL &&
		    (!r->failed_rung || rung < r->failed_rung))
			r->failed_rung = rung;
	r->rung_now = GD_CK_RUNG_NONE;
}

const struct gd_ck_item *gd_ck_ladder_first_fail(const struct gd_ck_report *r)
{
	for (size_t i = 0; r->failed_rung && i < r->n; i++)
		if (r->items[i].rung == r->failed_rung && r->items[i].status == GD_CK_FAIL)
			return &r->items[i];
	return NULL;
}

const char *gd_ck_rung_fix(int rung)
{
	static const char *const fix[GD_CK_NRUNG] = {
		[GD_CK_RUNG_STACK] = "fix the software stack first: load or install what the "
				     "failed gd_doctor check names ('gd_doctor' gives each fix)",
		[GD_CK_RUNG_DEVICES] = "bring the devices and links up first: a device missing or "
				       "a port not ACTIVE at its rate (cable, switch port, 'ip link', "
				       "'gd_devinfo'); the tests above it would only measure that",
		[GD_CK_RUNG_TOPOLOGY] = "place the GPUs and NICs as the spec expects (slots, BIOS "
					"NUMA and ACS settings; 'gd_topo' shows the paths)",
		[GD_CK_RUNG_GPUDIRECT] = "make GPUDirect engage: GPU memory registered through "
					 "dma-buf or nvidia_peermem on its nearest NIC ('gd_doctor' "
					 "checks gdr.registration, peermem, cuda.dmabuf_*)",
		[GD_CK_RUNG_P2P] = "find the slow or failing path: rerun the 'reproduce' command "
				   "of the failed check; compare PCIe width, MTU and the path class",
		[GD_CK_RUNG_GPU_INITIATED] = "make the GPU-initiated modes ready: 'gd_doctor' "
					     "checks ibgda.regkey, ibgda.devx, ibgda.probe",
		[GD_CK_RUNG_NODES] = "fix the failing pairs between hosts: the worst pair's "
				     "hosts and devices are named above",
	};

	return rung > 0 && rung < GD_CK_NRUNG ? fix[rung] : "";
}

/* The fix of a failed check: a quiet host when only the noise guard's doubt failed it (the
 * path met its threshold), the part's own when its name says what failed (a part missing
 * is not told about slots and BIOS settings), else its rung's. */
const char *gd_ck_fail_fix(const struct gd_ck_item *f)
{
	static const struct {
		const char *prefix, *suffix, *fix;
	} own[] = {
		{ "manifest GPU", "pcie", "a PCIe link trained narrower or slower than the golden "
		  "one: reseat the card or its riser, check the slot ('lspci -vv' LnkSta)" },
		{ "manifest GPU", "numa", NULL },
		{ "manifest GPU", "", "a GPU of the golden manifest is gone: check that it is seated "
		  "and powered ('lspci -d 10de:', 'nvidia-smi -L', dmesg for 'fallen off the bus')" },
		{ "gpus", "", "the GPU count differs from the spec: 'gd_topo' lists the GPUs found; "
		  "a missing one: seating, power, dmesg" },
		{ "manifest ", "pcie", "a PCIe link trained narrower or slower than the golden one: "
		  "reseat the card or its riser, check the slot ('lspci -vv' LnkSta)" },
		{ "manifest ", "firmware", "flash the firmware the SKU's manifest allows "
		  "(mlxfwmanager, or the vendor's tool), or widen the pattern if this one is good" },
		{ "manifest NICs", "", "a NIC of the golden manifest is gone: 'gd_devinfo' lists the "
		  "RDMA devices; check 'lspci', the driver (mlx5_core) and dmesg" },
		{ "manifest ", "port 1", "a NIC of the golden manifest is gone: 'gd_devinfo' lists "
		  "the RDMA devices; check 'lspci', the driver and dmesg" },
	};
	size_t n = strlen(f->name);

	if (f->doubted)
		return "the measurement met its threshold but should not be believed (the reasons "
		       "are under the row: a host busier than its cores, a few very slow samples): "
		       "rerun on a quiet host (nothing else running, load below the CPU count); the "
		       "path itself showed no fault";
	for (size_t i = 0; i < sizeof(own) / sizeof(own[0]); i++) {
		size_t p = strlen(own[i].prefix), q = strlen(own[i].suffix);

		if (!strncmp(f->name, own[i].prefix, p) && n >= p + q &&
		    !strcmp(f->name + n - q, own[i].suffix))
			return own[i].fix ? own[i].fix : gd_ck_rung_fix(f->rung);
	}
	return gd_ck_rung_fix(f->rung);
}

/* gd_doctor's checks on the ladder: the rung of the stage its registry gives the check
 * (doctor.h); an id the registry does not know is on the stack rung. */
int gd_ck_doctor_rung(const char *id)
{
	static const int rung[GD_DOC_STAGE_COUNT] = {
		[GD_DOC_STAGE_STACK] = GD_CK_RUNG_STACK,
		[GD_DOC_STAGE_DEVICES] = GD_CK_RUNG_DEVICES,
		[GD_DOC_STAGE_TOPOLOGY] = GD_CK_RUNG_TOPOLOGY,
		[GD_DOC_STAGE_GPUDIRECT] = GD_CK_RUNG_GPUDIRECT,
		[GD_DOC_STAGE_GPU_INITIATED] = GD_CK_RUNG_GPU_INITIATED,
	};

	const struct gd_check *c = gd_check_find(id);

	return c && (unsigned)c->stage < GD_DOC_STAGE_COUNT ? rung[c->stage] : GD_CK_RUNG_STACK;
}
