/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A preallocated log-linear histogram of nanosecond values.
 *
 * Values 0 .. 2*AL_HIST_SUB-1 have a bucket each (exact). Above, every
 * power-of-two range [2^e, 2^(e+1)) is cut into AL_HIST_SUB equal buckets,
 * so a bucket is at most 1/AL_HIST_SUB = 0.78 % of its lower bound wide and
 * its midpoint is within 0.4 % of any value in it. Values at or above
 * AL_HIST_LIMIT_NS are counted as overflow (their max stays exact); values
 * below zero are counted as underflow in bucket 0 (min stays exact).
 *
 * al_hist_add() does no allocation and no syscall: safe on the hot path.
 */
#ifndef AL_CORE_HIST_H
#define AL_CORE_HIST_H

#include <stdbool.h>
#include <stdint.h>

#define AL_HIST_SUB_BITS 7
#define AL_HIST_SUB (1 << AL_HIST_SUB_BITS)   /* 128 buckets per octave */
#define AL_HIST_MAX_EXP 40                    /* limit 2^40 ns = 1099.5 s */
#define AL_HIST_LIMIT_NS (1LL << AL_HIST_MAX_EXP)
#define AL_HIST_BUCKETS (2 * AL_HIST_SUB + (AL_HIST_MAX_EXP - AL_HIST_SUB_BITS - 1) * AL_HIST_SUB)

struct al_hist {
	uint64_t count;
	uint64_t overflow;   /* values >= AL_HIST_LIMIT_NS */
	uint64_t underflow;  /* values < 0 (counted in bucket 0) */
	int64_t min_ns;      /* exact; INT64_MAX when empty */
	int64_t max_ns;      /* exact; INT64_MIN when empty */
	int64_t sum_ns;      /* saturates at INT64_MAX */
	double sum_sq;       /* for the standard deviation */
	uint64_t buckets[AL_HIST_BUCKETS];
};

void al_hist_init(struct al_hist *h);

static inline int
al_hist_bucket_of(int64_t v_ns)
{
	uint64_t v;
	int e;

	if (v_ns < 2 * AL_HIST_SUB)
		return v_ns < 0 ? 0 : (int)v_ns;
	v = (uint64_t)v_ns;
	e = 63 - __builtin_clzll(v);
	return 2 * AL_HIST_SUB + (e - AL_HIST_SUB_BITS - 1) * AL_HIST_SUB +
	       (int)((v >> (e - AL_HIST_SUB_BITS)) - AL_HIST_SUB);
}

static inline void
al_hist_add(struct al_hist *h, int64_t v_ns)
{
	h->count++;
	if (v_ns < h->min_ns)
		h->min_ns = v_ns;
	if (v_ns > h->max_ns)
		h->max_ns = v_ns;
	if (v_ns > 0 && h->sum_ns > INT64_MAX - v_ns)
		h->sum_ns = INT64_MAX;
	else
		h->sum_ns += v_ns;
	h->sum_sq += (double)v_ns * (double)v_ns;
	if (v_ns >= AL_HIST_LIMIT_NS) {
		h->overflow++;
		return;
	}
	if (v_ns < 0)
		h->underflow++;
	h->buckets[al_hist_bucket_of(v_ns)]++;
}

/* Lower bound (inclusive) and upper bound (exclusive) of bucket i. */
int64_t al_hist_bucket_low(int i);
int64_t al_hist_bucket_high(int i);

/* Add all of src into dst. */
void al_hist_merge(struct al_hist *dst, const struct al_hist *src);

/*
 * The value at quantile q (0 < q <= 1) by the nearest-rank rule: the
 * smallest recorded value v such that at least ceil(q * count) values are
 * <= v, reported as the midpoint of its bucket clamped to [min, max]
 * (exact for values below 2*AL_HIST_SUB ns). Overflowed values rank above
 * every bucket and report the exact max. 0 when empty.
 */
int64_t al_hist_quantile(const struct al_hist *h, double q);

#endif
