/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Summary statistics of a histogram, computed after the run. */
#ifndef AL_CORE_STATS_H
#define AL_CORE_STATS_H

#include <stdint.h>

#include "hist.h"

struct al_summary {
	uint64_t count;
	int64_t min_ns;
	int64_t mean_ns;
	int64_t stddev_ns;
	int64_t p50_ns;
	int64_t p90_ns;
	int64_t p99_ns;
	int64_t p999_ns;
	int64_t p9999_ns;
	int64_t max_ns;
};

/* All zero when the histogram is empty. */
void al_stats_summarize(const struct al_hist *h, struct al_summary *s);

#endif
