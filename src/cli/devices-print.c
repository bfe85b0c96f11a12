/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The devices a backend can reach, as a list of lines: what audiolat
 * devices prints per backend and what an error about a missing device
 * shows (fault.c). A file of its own so neither calls into the other.
 */
#include "backend/backend.h"
#include "core/devices.h"
#include "report/devices.h"

#include "cli-devices.h"

int
cli_devices_print(FILE *f, const struct al_backend_ops *b, const char *indent)
{
	struct al_device_group g;
	int n;

	al_backend_devices(b, &g);
	al_report_device_group_text(f, &g, indent);
	n = g.rc < 0 ? g.rc : (int)g.n;
	al_device_group_free(&g);
	return n;
}
