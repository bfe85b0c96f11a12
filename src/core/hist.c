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

/*
 * Where v is counted: *cnt is the counter, *end_ns the first value above v
 * that is counted elsewhere (INT64_MAX for the overflow).
 */
static void
slot_of(struct al_hist *h, int64_t v_ns, uint64_t **cnt, int64_t *end_ns)
{
	int i;

	if (v_ns >= AL_HIST_LIMIT_NS) {
		*cnt = &h->overflow;
		*end_ns = INT64_MAX;
	} else if (v_ns >= 0) {
		i = al_hist_bucket_of(v_ns);
		*cnt = &h->buckets[i];
		*end_ns = al_hist_bucket_high(i);
	} else if (v_ns > -AL_HIST_LIMIT_NS) {
		/* magnitudes [lo, hi) are the values [-hi + 1, -lo] */
		i = al_hist_bucket_of(-v_ns);
		*cnt = &h->neg_buckets[i];
		*end_ns = -al_hist_bucket_low(i) + 1;
	} else {
		*cnt = &h->underflow;
		*end_ns = -AL_HIST_LIMIT_NS + 1;
	}
}

void
al_hist_add_run(struct al_hist *h, int64_t first_ns, int64_t step_ns, uint64_t n)
{
	__int128 sum;
	double nn, lo, st;
	int64_t v_ns, last_ns, end_ns;
	uint64_t left, c, *cnt;

	if (!n)
		return;
	if (n < 4 || step_ns < 1) {
		for (v_ns = first_ns; n; n--, v_ns += step_ns > 0 ? step_ns : 0)
			al_hist_add(h, v_ns);
		return;
	}
	last_ns = first_ns + (int64_t)(n - 1) * step_ns;
	h->count += n;
	if (first_ns < h->min_ns)
		h->min_ns = first_ns;
	if (last_ns > h->max_ns)
		h->max_ns = last_ns;
	/* sum of the run: n * first + step * n (n - 1) / 2 */
	sum = (__int128)first_ns * (__int128)n + (__int128)step_ns * (__int128)n * (__int128)(n - 1) / 2;
	sum += h->sum_ns;
	h->sum_ns = sum > INT64_MAX ? INT64_MAX : sum < INT64_MIN ? INT64_MIN : (int64_t)sum;
	nn = (double)n;
	lo = (double)first_ns;
	st = (double)step_ns;
	h->sum_sq += nn * lo * lo + lo * st * nn * (nn - 1) +
		     st * st * (nn - 1) * nn * (2 * nn - 1) / 6;
	if (first_ns < 0) {
		/* how many of the run are negative: values first + k * step < 0 */
		uint64_t neg = (uint64_t)((-first_ns - 1) / step_ns) + 1;

		h->negative += neg < n ? neg : n;
	}
	/* one step per bucket crossed */
	for (v_ns = first_ns, left = n; left; left -= c) {
		slot_of(h, v_ns, &cnt, &end_ns);
		if (end_ns == INT64_MAX) {
			c = left;
		} else {
			c = (uint64_t)((end_ns - v_ns + step_ns - 1) / step_ns);
			if (c > left)
				c = left;
		}
		*cnt += c;
		if (c < left)
			v_ns += (int64_t)c * step_ns;
	}
	/* the slots above counted the underflowed values in the counter only */
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
	dst->negative += src->negative;
	if (src->min_ns < dst->min_ns)
		dst->min_ns = src->min_ns;
	if (src->max_ns > dst->max_ns)
		dst->max_ns = src->max_ns;
	dst->sum_ns = al_hist__sat_add(dst->sum_ns, src->sum_ns);
	dst->sum_sq += src->sum_sq;
	for (i = 0; i < AL_HIST_BUCKETS; i++) {
		dst->buckets[i] += src->buckets[i];
		dst->neg_buckets[i] += src->neg_buckets[i];
	}
}

void
al_hist_foreach(const struct al_hist *h, al_hist_bucket_fn fn, void *ud)
{
	int i;

	for (i = AL_HIST_BUCKETS - 1; i > 0; i--)
		if (h->neg_buckets[i])
			fn(ud, -al_hist_bucket_high(i) + 1, -al_hist_bucket_low(i) + 1,
			   h->neg_buckets[i]);
	for (i = 0; i < AL_HIST_BUCKETS; i++)
		if (h->buckets[i])
			fn(ud, al_hist_bucket_low(i), al_hist_bucket_high(i), h->buckets[i]);
}

/* The value a magnitude bucket reports: exact below 2 * AL_HIST_SUB, else its midpoint. */
static int64_t
bucket_value(int i)
{
	return i < 2 * AL_HIST_SUB ? i : (al_hist_bucket_low(i) + al_hist_bucket_high(i) - 1) / 2;
}

static int64_t
clamp(const struct al_hist *h, int64_t v)
{
	if (v < h->min_ns)
		return h->min_ns;
	if (v > h->max_ns)
		return h->max_ns;
	return v;
}

uint64_t
al_quantile_rank(uint64_t count, double q, int64_t min_ns, int64_t max_ns, int64_t *v_ns)
{
	uint64_t rank;

	*v_ns = !count ? 0 : !(q > 0) ? min_ns : max_ns;
	if (!count || !(q > 0) || q >= 1)
		return 0;
	rank = (uint64_t)ceil(q * (double)count);
	return rank < 1 ? 1 : rank;
}

int64_t
al_hist_quantile(const struct al_hist *h, double q)
{
	uint64_t rank, seen;
	int64_t v;
	int i;

	rank = al_quantile_rank(h->count, q, h->min_ns, h->max_ns, &v);
	if (!rank)
		return v;
	seen = h->underflow;
	if (seen >= rank)
		return h->min_ns;
	for (i = AL_HIST_BUCKETS - 1; i > 0; i--) {
		seen += h->neg_buckets[i];
		if (seen >= rank)
			return clamp(h, -bucket_value(i));
	}
	for (i = 0; i < AL_HIST_BUCKETS; i++) {
		seen += h->buckets[i];
		if (seen >= rank)
			return clamp(h, bucket_value(i));
	}
	return h->max_ns; /* in the overflow */
}
