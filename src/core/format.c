/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "format.h"

void
al_format_si(double v, const char *unit, char *buf, size_t size)
{
	static const char *const pfx[] = { "", "k", "M", "G", "T", "P" };
	bool per = !strcmp(unit, "1/s");
	int p = 0;

	while (fabs(v) >= 1000 && p < 5) {
		v /= 1000;
		p++;
	}
	if (per)
		snprintf(buf, size, "%.3g %s/s", v, pfx[p]);
	else
		snprintf(buf, size, "%.3g %s%s", v, pfx[p], unit);
}
