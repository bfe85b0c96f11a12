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
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		size_t rank = (size_t)__builtin_ceil(qs[i] * (double)n);
		int64_t exact = vals[rank - 1], got = al_hist_quantile(&h, qs[i]);
		int64_t diff = got > exact ? got - exact : exact - got;

		assert_true(diff * 100 <= exact);
	}
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
	assert_int_equal(h.count, 3);
	assert_int_equal(h.underflow, 1);
	assert_int_equal(h.overflow, 1);
	assert_int_equal(h.min_ns, -5);
	assert_int_equal(h.max_ns, AL_HIST_LIMIT_NS + 7);
	assert_int_equal(al_hist_quantile(&h, 0.1), -5);
	assert_int_equal(al_hist_quantile(&h, 0.5), 10);
	assert_int_equal(al_hist_quantile(&h, 1.0), AL_HIST_LIMIT_NS + 7);
	al_stats_summarize(&h, &s);
	assert_int_equal(s.max_ns, AL_HIST_LIMIT_NS + 7);
	assert_int_equal(s.p9999_ns, AL_HIST_LIMIT_NS + 7);
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
		al_hist_add(v % 2 ? &a : &b, v * 977);
		al_hist_add(&all, v * 977);
	}
	al_hist_merge(&a, &b);
	assert_int_equal(a.count, all.count);
	assert_int_equal(a.min_ns, all.min_ns);
	assert_int_equal(a.max_ns, all.max_ns);
	assert_int_equal(a.sum_ns, all.sum_ns);
	assert_memory_equal(a.buckets, all.buckets, sizeof(a.buckets));
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
		cmocka_unit_test(merge_equals_adding_everything),
		cmocka_unit_test(summary_mean_and_stddev),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
