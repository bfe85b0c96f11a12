/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A preallocated log-linear histogram of signed nanosecond values.
 *
 * Magnitudes 0 .. 2*AL_HIST_SUB-1 have a bucket each (exact). Above, every
 * power-of-two range [2^e, 2^(e+1)) is cut into AL_HIST_SUB equal buckets,
 * so a bucket is at most 1/AL_HIST_SUB = 0.78 % of its lower bound wide and
 * its midpoint is within 0.4 % of any value in it. Negative values have
 * buckets of their own, the mirror image of the positive ones (a value v < 0
 * is counted in neg_buckets[bucket of -v]), with the same resolution.
 * Magnitudes at or above AL_HIST_LIMIT_NS are counted as overflow
 * (positive) or underflow (negative) outside the buckets; min and max stay
 * exact.
 *
 * al_hist_add() does no allocation and no syscall: safe on the hot path.
 * al_hist_add_run() adds an arithmetic run of values (the periods a stall
 * swallowed) at a cost bounded by the number of buckets the run spans,
 * never by its length.
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
	uint64_t overflow;   /* values >= AL_HIST_LIMIT_NS (in no bucket) */
	uint64_t underflow;  /* values <= -AL_HIST_LIMIT_NS (in no bucket) */
	uint64_t negative;   /* values < 0 (the underflow included) */
	int64_t min_ns;      /* exact; INT64_MAX when empty */
	int64_t max_ns;      /* exact; INT64_MIN when empty */
	int64_t sum_ns;      /* saturates at INT64_MIN / INT64_MAX */
	double sum_sq;       /* for the standard deviation */
	uint64_t buckets[AL_HIST_BUCKETS];     /* values >= 0 */
	uint64_t neg_buckets[AL_HIST_BUCKETS]; /* values < 0, by magnitude (index 0 unused) */
};

void al_hist_init(struct al_hist *h);

/* The bucket of a magnitude m >= 0 (m < AL_HIST_LIMIT_NS). */
static inline int
al_hist_bucket_of(int64_t m_ns)
{
	uint64_t v;
	int e;

	if (m_ns < 2 * AL_HIST_SUB)
		return m_ns < 0 ? 0 : (int)m_ns;
	v = (uint64_t)m_ns;
	e = 63 - __builtin_clzll(v);
	return 2 * AL_HIST_SUB + (e - AL_HIST_SUB_BITS - 1) * AL_HIST_SUB +
	       (int)((v >> (e - AL_HIST_SUB_BITS)) - AL_HIST_SUB);
}

static inline int64_t
al_hist__sat_add(int64_t a, int64_t b)
{
	int64_t s;

	if (__builtin_add_overflow(a, b, &s))
		return b > 0 ? INT64_MAX : INT64_MIN;
	return s;
}

/* How many of first, first + step, ... (n values, step >= 1) are <= limit. */
static inline uint64_t
al_hist_run_count_le(int64_t first_ns, int64_t step_ns, uint64_t n, int64_t limit_ns)
{
	uint64_t k;

	if (limit_ns < first_ns)
		return 0;
	k = (uint64_t)((limit_ns - first_ns) / step_ns) + 1;
	return k < n ? k : n;
}

static inline void
al_hist_add(struct al_hist *h, int64_t v_ns)
{
	h->count++;
	if (v_ns < h->min_ns)
		h->min_ns = v_ns;
	if (v_ns > h->max_ns)
		h->max_ns = v_ns;
	h->sum_ns = al_hist__sat_add(h->sum_ns, v_ns);
	h->sum_sq += (double)v_ns * (double)v_ns;
	if (v_ns >= 0) {
		if (v_ns >= AL_HIST_LIMIT_NS)
			h->overflow++;
		else
			h->buckets[al_hist_bucket_of(v_ns)]++;
		return;
	}
	h->negative++;
	if (v_ns <= -AL_HIST_LIMIT_NS)
		h->underflow++;
	else
		h->neg_buckets[al_hist_bucket_of(-v_ns)]++;
}

/*
 * Add the n values first_ns, first_ns + step_ns, ..., first_ns + (n-1) *
 * step_ns (step_ns >= 1; the last value must fit in int64_t). Exactly as
 * n calls of al_hist_add() would, but the cost grows with the number of
 * buckets the run crosses (at most 2 * AL_HIST_BUCKETS + 2), not with n.
 */
void al_hist_add_run(struct al_hist *h, int64_t first_ns, int64_t step_ns, uint64_t n);

/* Lower bound (inclusive) and upper bound (exclusive) of the magnitude bucket i. */
int64_t al_hist_bucket_low(int i);
int64_t al_hist_bucket_high(int i);

/* Add all of src into dst. */
void al_hist_merge(struct al_hist *dst, const struct al_hist *src);

/*
 * Every non-empty bucket in ascending order of value, negative ones
 * first: values low_ns <= v < high_ns (for a negative bucket of magnitudes
 * [lo, hi): low = -hi + 1, high = -lo + 1). Underflow and overflow are not
 * buckets (see the counters).
 */
typedef void (*al_hist_bucket_fn)(void *ud, int64_t low_ns, int64_t high_ns, uint64_t count);
void al_hist_foreach(const struct al_hist *h, al_hist_bucket_fn fn, void *ud);

/*
 * The value at quantile q (0 < q <= 1) by the nearest-rank rule: the
 * smallest recorded value v such that at least ceil(q * count) values are
 * <= v, reported as the midpoint of its bucket clamped to [min, max]
 * (exact for magnitudes below 2*AL_HIST_SUB ns, on either side of zero).
 * Underflowed values rank below every bucket and report the exact min,
 * overflowed ones above every bucket and report the exact max. 0 when
 * empty.
 */
int64_t al_hist_quantile(const struct al_hist *h, double q);

/*
 * The nearest rank of quantile q among count values, for any histogram
 * (this one, a document's): ceil(q * count), at least 1, to walk the
 * buckets up to; or 0 when no walk is needed, the answer then in *v_ns: 0
 * when empty, min_ns for q <= 0 (or not a number), max_ns for q >= 1.
 */
uint64_t al_quantile_rank(uint64_t count, double q, int64_t min_ns, int64_t max_ns,
			  int64_t *v_ns);

#endif
