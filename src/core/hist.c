/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <string.h>

#include "hist.h"

void
al_hist_init(struct al_hist *h)
{
	memset(h, 0, sizeof(*h));
	h->min_ns = INT64_MAX;
	h->max_ns = INT64_MIN;
}

int64_t
al_hist_bucket_low(int i)
{
	int octave, e;

	if (i < 2 * AL_HIST_SUB)
		return i;
	octave = (i - 2 * AL_HIST_SUB) / AL_HIST_SUB;
	e = octave + AL_HIST_SUB_BITS + 1;
	return (int64_t)(AL_HIST_SUB + (i - 2 * AL_HIST_SUB) % AL_HIST_SUB) << (e - AL_HIST_SUB_BITS);
}

int64_t
al_hist_bucket_high(int i)
{
	int octave, e;

	if (i < 2 * AL_HIST_SUB)
		return i + 1;
	octave = (i - 2 * AL_HIST_SUB) / AL_HIST_SUB;
	e = octave + AL_HIST_SUB_BITS + 1;
	return al_hist_bucket_low(i) + ((int64_t)1 << (e - AL_HIST_SUB_BITS));
}

void
al_hist_merge(struct al_hist *dst, const struct al_hist *src)
{
	int i;

	if (!src->count)
		return;
	dst->count += src->count;
	dst->overflow += src->overflow;
	dst->underflow += src->underflow;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	if (src->sum_ns > 0 && dst->sum_ns > INT64_MAX - src->sum_ns)
		dst->sum_ns = INT64_MAX;
	else
		dst->sum_ns += src->sum_ns;
	dst->sum_sq += src->sum_sq;
	for (i = 0; i < AL_HIST_BUCKETS; i++)
		dst->buckets[i] += src->buckets[i];
}

int64_t
al_hist_quantile(const struct al_hist *h, double q)
{
	uint64_t rank, seen = 0;
	int64_t v;
	int i;

	if (!h->count)
		return 0;
	if (q <= 0)
		return h->min_ns;
	if (q >= 1)
		return h->max_ns;
	rank = (uint64_t)ceil(q * (double)h->count);
	if (rank < 1)
		rank = 1;
	for (i = 0; i < AL_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank) {
			if (i == 0 && h->underflow && seen - h->buckets[0] + h->underflow >= rank)
				return h->min_ns; /* a negative value: only min is exact */
			v = i < 2 * AL_HIST_SUB ? i
						: (al_hist_bucket_low(i) + al_hist_bucket_high(i) - 1) / 2;
			if (v < h->min_ns)
				v = h->min_ns;
			if (v > h->max_ns)
				v = h->max_ns;
			return v;
		}
	}
	return h->max_ns; /* in the overflow */
}
