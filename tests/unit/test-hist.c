/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <cmocka.h>

#include "core/hist.h"
#include "core/stats.h"

static struct al_hist h;

static void
buckets_tile_the_range(void **state)
{
	int i;

	(void)state;
	assert_int_equal(al_hist_bucket_low(0), 0);
	for (i = 0; i + 1 < AL_HIST_BUCKETS; i++) {
		assert_int_equal(al_hist_bucket_high(i), al_hist_bucket_low(i + 1));
		assert_int_equal(al_hist_bucket_of(al_hist_bucket_low(i)), i);
		assert_int_equal(al_hist_bucket_of(al_hist_bucket_high(i) - 1), i);
	}
	assert_int_equal(al_hist_bucket_high(AL_HIST_BUCKETS - 1), AL_HIST_LIMIT_NS);
}

static void
bucket_width_within_one_percent(void **state)
{
	int i;

	(void)state;
	for (i = 2 * AL_HIST_SUB; i < AL_HIST_BUCKETS; i++) {
		int64_t lo = al_hist_bucket_low(i), w = al_hist_bucket_high(i) - lo;

		assert_true(w * 100 <= lo); /* width <= 1 % of the lower bound */
	}
}

static void
exact_percentiles_of_small_values(void **state)
{
	int64_t v;

	(void)state;
	al_hist_init(&h);
	for (v = 1; v <= 100; v++)
		al_hist_add(&h, v);
	assert_int_equal(h.count, 100);
	assert_int_equal(al_hist_quantile(&h, 0.50), 50);
	assert_int_equal(al_hist_quantile(&h, 0.90), 90);
	assert_int_equal(al_hist_quantile(&h, 0.99), 99);
	assert_int_equal(al_hist_quantile(&h, 0.999), 100);
	assert_int_equal(al_hist_quantile(&h, 0.001), 1);
	assert_int_equal(h.min_ns, 1);
	assert_int_equal(h.max_ns, 100);
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* Each quantile of h against the exact nearest-rank value of sorted vals[n]: within 1 %. */
static void
quantiles_within_one_percent(const int64_t *vals, size_t n, const double *qs, size_t nq)
{
	size_t i;

	for (i = 0; i < nq; i++) {
		size_t rank = (size_t)__builtin_ceil(qs[i] * (double)n);
		int64_t exact = vals[rank - 1], got = al_hist_quantile(&h, qs[i]);
		int64_t diff = got > exact ? got - exact : exact - got;

		assert_true(diff * 100 <= (exact < 0 ? -exact : exact));
	}
}

static void
percentiles_within_one_percent(void **state)
{
	static int64_t vals[100000];
	static const double qs[] = { 0.5, 0.9, 0.99, 0.999, 0.9999 };
	uint64_t x = 88172645463325252ull;
	size_t i, n = sizeof(vals) / sizeof(vals[0]);

	(void)state;
	al_hist_init(&h);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		/* log-uniform over 100 ns .. ~100 ms */
		vals[i] = (int64_t)(100.0 * __builtin_pow(10.0, (double)(x % 1000000) / 166667.0));
		al_hist_add(&h, vals[i]);
	}
	qsort(vals, n, sizeof(vals[0]), cmp64);
	quantiles_within_one_percent(vals, n, qs, sizeof(qs) / sizeof(qs[0]));
	assert_int_equal(h.min_ns, vals[0]);
	assert_int_equal(h.max_ns, vals[n - 1]);
}

static void
overflow_and_underflow_are_counted(void **state)
{
	struct al_summary s;

	(void)state;
	al_hist_init(&h);
	al_hist_add(&h, -5);
	al_hist_add(&h, 10);
	al_hist_add(&h, AL_HIST_LIMIT_NS + 7);
	al_hist_add(&h, -AL_HIST_LIMIT_NS - 9);
	assert_int_equal(h.count, 4);
	assert_int_equal(h.negative, 2);
	assert_int_equal(h.underflow, 1);
	assert_int_equal(h.overflow, 1);
	assert_int_equal(h.min_ns, -AL_HIST_LIMIT_NS - 9);
	assert_int_equal(h.max_ns, AL_HIST_LIMIT_NS + 7);
	assert_int_equal(al_hist_quantile(&h, 0.25), -AL_HIST_LIMIT_NS - 9);
	assert_int_equal(al_hist_quantile(&h, 0.5), -5);
	assert_int_equal(al_hist_quantile(&h, 0.75), 10);
	assert_int_equal(al_hist_quantile(&h, 1.0), AL_HIST_LIMIT_NS + 7);
	al_stats_summarize(&h, &s);
	assert_int_equal(s.max_ns, AL_HIST_LIMIT_NS + 7);
	assert_int_equal(s.p9999_ns, AL_HIST_LIMIT_NS + 7);
}

/* The case: 60 values from -1 to -60 us and 40 positive ones; p50 is -11 us, not min. */
static void
negative_values_rank_exactly(void **state)
{
	static const double qs[] = { 0.01, 0.1, 0.3, 0.5, 0.6, 0.61, 0.9, 0.99 };
	int64_t vals[100];
	size_t i;

	(void)state;
	al_hist_init(&h);
	for (i = 0; i < 60; i++)
		vals[i] = -(int64_t)(i + 1) * 1000;
	for (i = 60; i < 100; i++)
		vals[i] = (int64_t)(i - 59) * 1500;
	for (i = 0; i < 100; i++)
		al_hist_add(&h, vals[i]);
	qsort(vals, 100, sizeof(vals[0]), cmp64);
	assert_int_equal(h.negative, 60);
	assert_int_equal(h.underflow, 0);
	quantiles_within_one_percent(vals, 100, qs, sizeof(qs) / sizeof(qs[0]));
	/* p50 is the 50th value: -11 us (within a bucket), never min (-60 us) */
	assert_true(al_hist_quantile(&h, 0.5) > -11100 && al_hist_quantile(&h, 0.5) < -10900);
	assert_int_equal(al_hist_quantile(&h, 0.001), -60000);
}

/* Log-uniform values of both signs: every percentile within 1 % on either side. */
static void
signed_percentiles_within_one_percent(void **state)
{
	static int64_t vals[100000];
	static const double qs[] = { 0.0001, 0.001, 0.01, 0.1, 0.3, 0.5, 0.7, 0.9, 0.99, 0.999 };
	uint64_t x = 2463534242ull;
	size_t i, n = sizeof(vals) / sizeof(vals[0]);

	(void)state;
	al_hist_init(&h);
	for (i = 0; i < n; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		vals[i] = (int64_t)(100.0 * __builtin_pow(10.0, (double)(x % 1000000) / 166667.0));
		if (x & (1ull << 40))
			vals[i] = -vals[i];
		al_hist_add(&h, vals[i]);
	}
	qsort(vals, n, sizeof(vals[0]), cmp64);
	quantiles_within_one_percent(vals, n, qs, sizeof(qs) / sizeof(qs[0]));
}

struct seen_bucket {
	int64_t prev_high;
	uint64_t total;
	int n;
};

static void
check_bucket(void *ud, int64_t low, int64_t high, uint64_t count)
{
	struct seen_bucket *s = ud;

	assert_true(low < high);
	assert_true(low >= s->prev_high); /* ascending, never overlapping */
	assert_true(count > 0);
	s->prev_high = high;
	s->total += count;
	s->n++;
}

/* The buckets a reporter sees: ascending, negative ones with negative bounds. */
static void
foreach_lists_signed_buckets_in_order(void **state)
{
	struct seen_bucket s = { INT64_MIN, 0, 0 };

	(void)state;
	al_hist_init(&h);
	al_hist_add(&h, -1000000);
	al_hist_add(&h, -3);
	al_hist_add(&h, 0);
	al_hist_add(&h, 7);
	al_hist_add(&h, 5000000);
	al_hist_foreach(&h, check_bucket, &s);
	assert_int_equal(s.total, 5);
	assert_int_equal(s.n, 5);
}

static void
one_bucket(void *ud, int64_t low, int64_t high, uint64_t count)
{
	int64_t *b = ud;

	(void)count;
	b[0] = low;
	b[1] = high;
}

static void
negative_bucket_bounds_hold_their_value(void **state)
{
	int64_t b[2], v;

	(void)state;
	for (v = -1; v > -AL_HIST_LIMIT_NS; v = v * 3 - 1) {
		al_hist_init(&h);
		al_hist_add(&h, v);
		al_hist_foreach(&h, one_bucket, b);
		assert_true(b[0] <= v && v < b[1]);
	}
}

/* add_run equals adding every value, and costs buckets, not values. */
static void
run_equals_adding_each_value(void **state)
{
	static struct al_hist a, all;
	static const struct {
		int64_t first, step;
		uint64_t n;
	} runs[] = {
		{ 0, 1, 1000 },
		{ 17, 1333333, 150 },          /* a 200 ms stall at 1.33 ms periods */
		{ -5000000, 5333333, 40 },     /* crossing zero */
		{ -300, 1, 600 },              /* every negative exact bucket, one value each */
		{ -70000, 7, 20000 },          /* wide negative buckets, several values each */
		{ -AL_HIST_LIMIT_NS - 5, 1000000007, 3000 }, /* from underflow up */
		{ AL_HIST_LIMIT_NS - 3000, 1000, 10 }, /* into the overflow */
		{ 5, 0, 7 },                   /* step 0: the same value */
		{ 3, 2, 2 },
	};
	size_t r;
	uint64_t k;

	(void)state;
	for (r = 0; r < sizeof(runs) / sizeof(runs[0]); r++) {
		al_hist_init(&a);
		al_hist_init(&all);
		al_hist_add(&a, 42);
		al_hist_add(&all, 42);
		al_hist_add_run(&a, runs[r].first, runs[r].step, runs[r].n);
		for (k = 0; k < runs[r].n; k++)
			al_hist_add(&all, runs[r].first + (int64_t)k * runs[r].step);
		assert_int_equal(a.count, all.count);
		assert_int_equal(a.negative, all.negative);
		assert_int_equal(a.underflow, all.underflow);
		assert_int_equal(a.overflow, all.overflow);
		assert_int_equal(a.min_ns, all.min_ns);
		assert_int_equal(a.max_ns, all.max_ns);
		assert_int_equal(a.sum_ns, all.sum_ns);
		assert_true(__builtin_fabs(a.sum_sq - all.sum_sq) <= 1e-9 * all.sum_sq + 1);
		assert_memory_equal(a.buckets, all.buckets, sizeof(a.buckets));
		assert_memory_equal(a.neg_buckets, all.neg_buckets, sizeof(a.neg_buckets));
	}
}

/*
 * A 15-minute stall at 1.33 ms periods: 675 000 values added in one go (an
 * hour's would pass AL_HIST_LIMIT_NS: the overflow, exact max).
 */
static void
run_of_a_long_stall_is_exact(void **state)
{
	uint64_t n = 675000;

	(void)state;
	al_hist_init(&h);
	al_hist_add_run(&h, 1000, 1333333, n);
	assert_int_equal(h.count, n);
	assert_int_equal(h.max_ns, 1000 + (int64_t)(n - 1) * 1333333);
	/* uniform: the median within 1 % of the middle value */
	assert_true(__builtin_llabs(al_hist_quantile(&h, 0.5) - (1000 + 337499 * 1333333LL)) * 100 <=
		    337499 * 1333333LL);
}

static void
merge_equals_adding_everything(void **state)
{
	static struct al_hist a, b, all;
	int64_t v;

	(void)state;
	al_hist_init(&a);
	al_hist_init(&b);
	al_hist_init(&all);
	for (v = 0; v < 5000; v += 3) {
		al_hist_add(v % 2 ? &a : &b, v * 977 - 1000000);
		al_hist_add(&all, v * 977 - 1000000);
	}
	al_hist_merge(&a, &b);
	assert_int_equal(a.count, all.count);
	assert_int_equal(a.min_ns, all.min_ns);
	assert_int_equal(a.max_ns, all.max_ns);
	assert_int_equal(a.sum_ns, all.sum_ns);
	assert_memory_equal(a.buckets, all.buckets, sizeof(a.buckets));
	assert_memory_equal(a.neg_buckets, all.neg_buckets, sizeof(a.neg_buckets));
}

static void
summary_mean_and_stddev(void **state)
{
	struct al_summary s;

	(void)state;
	al_hist_init(&h);
	al_hist_add(&h, 1000);
	al_hist_add(&h, 3000);
	al_stats_summarize(&h, &s);
	assert_int_equal(s.mean_ns, 2000);
	assert_int_equal(s.stddev_ns, 1000);
	/* 0..99 ns, exact buckets: each percentile is the value of its rank (ceil(q n)) */
	al_hist_init(&h);
	for (int64_t v = 0; v < 100; v++)
		al_hist_add(&h, v);
	al_stats_summarize(&h, &s);
	assert_int_equal(s.p50_ns, 49);
	assert_int_equal(s.p90_ns, 89);
	assert_int_equal(s.p99_ns, 98);
	assert_int_equal(s.p999_ns, 99);
	assert_int_equal(s.p9999_ns, 99);
	al_hist_init(&h);
	al_stats_summarize(&h, &s);
	assert_int_equal(s.count, 0);
	assert_int_equal(s.max_ns, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(buckets_tile_the_range),
		cmocka_unit_test(bucket_width_within_one_percent),
		cmocka_unit_test(exact_percentiles_of_small_values),
		cmocka_unit_test(percentiles_within_one_percent),
		cmocka_unit_test(overflow_and_underflow_are_counted),
		cmocka_unit_test(negative_values_rank_exactly),
		cmocka_unit_test(signed_percentiles_within_one_percent),
		cmocka_unit_test(foreach_lists_signed_buckets_in_order),
		cmocka_unit_test(negative_bucket_bounds_hold_their_value),
		cmocka_unit_test(run_equals_adding_each_value),
		cmocka_unit_test(run_of_a_long_stall_is_exact),
		cmocka_unit_test(merge_equals_adding_everything),
		cmocka_unit_test(summary_mean_and_stddev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
