/* SPDX-License-Identifier: GPL-2.0-only OR BSD-2-Clause */
/*
 * The IBGDA modes' entry (initiator.h). Owned by the IBGDA feature: it
 * replaces this file with its real dispatch. Until then every IBGDA value of
 * --initiator is refused with exit 3 ("not built").
 */
#include "initiator.h"

bool gd_ibgda_available(enum gd_initiator which)
{
	return false;
}
