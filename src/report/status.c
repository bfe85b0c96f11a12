/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The live status line (status.h). */
#include <stdatomic.h>

#include "core/clock.h"
#include "core/units.h"
#include "status.h"

void
al_report_status(FILE *f, const struct al_result *r, int64_t elapsed_ns)
{
	char max[32], total[32] = "";

	al_format_duration(atomic_load(&r->live.max_wake_ns), max, sizeof(max));
	if (r->cfg.duration_ns < AL_RUN_FOREVER_NS) /* audiolat monitor, until stopped: no total */
		snprintf(total, sizeof(total), "/%.1f", (double)r->cfg.duration_ns / AL_NS_PER_SEC);
	fprintf(f, AL_STATUS_CLEAR "[%6.1f%s s] periods=%llu max wake latency=%s xruns=%llu",
		(double)elapsed_ns / AL_NS_PER_SEC, total,
		(unsigned long long)atomic_load(&r->live.periods), max,
		(unsigned long long)atomic_load(&r->live.xruns));
	fflush(f);
}

void
al_report_status_clear(FILE *f)
{
	fputs(AL_STATUS_CLEAR, f);
}
