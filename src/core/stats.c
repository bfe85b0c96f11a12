/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <string.h>

#include "stats.h"

void
al_stats_summarize(const struct al_hist *h, struct al_summary *s)
{
	double mean, var;

	memset(s, 0, sizeof(*s));
	if (!h->count)
		return;
	s->count = h->count;
	s->min_ns = h->min_ns;
	s->max_ns = h->max_ns;
	mean = (double)h->sum_ns / (double)h->count;
	var = h->sum_sq / (double)h->count - mean * mean;
	s->mean_ns = llround(mean);
	s->stddev_ns = var > 0 ? llround(sqrt(var)) : 0;
	s->p50_ns = al_hist_quantile(h, 0.50);
	s->p90_ns = al_hist_quantile(h, 0.90);
	s->p99_ns = al_hist_quantile(h, 0.99);
	s->p999_ns = al_hist_quantile(h, 0.999);
	s->p9999_ns = al_hist_quantile(h, 0.9999);
}
