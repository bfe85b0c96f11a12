/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tail beyond the run (src/core/tail.c) on cases whose answer is
 * known: a histogram whose counts are the GPD's expected counts (its
 * maximum-likelihood estimates are the true parameters, by Gibbs'
 * inequality), a large seeded sample from a known GPD, the return level
 * and run-length formulas, and the cases that must give no number.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/hist.h"
#include "core/tail.h"

#define assert_near(x, want, tol)                                                                  \
	do {                                                                                       \
		double x_ = (x), w_ = (want);                                                      \
		if (!(fabs(x_ - w_) <= (tol)))                                                     \
			fail_msg("%s = %.8g, want %.8g +- %.3g", #x, x_, w_, (double)(tol));       \
	} while (0)

/* splitmix64: a seeded uniform in (0, 1) */
static double
uniform(uint64_t *s)
{
	uint64_t z = (*s += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	z ^= z >> 31;
	return ((double)(z >> 11) + 0.5) / 9007199254740992.0;
}

/* A GPD draw by the inverse of S: y = sigma / xi (U^-xi - 1). */
static double
gpd_draw(uint64_t *s, double xi, double sigma)
{
	double u = uniform(s);

	return fabs(xi) < 1e-12 ? -sigma * log(u) : sigma / xi * (pow(u, -xi) - 1);
}

/* The histogram's buckets of h (values >= 0), for al_tail_fit(). */
static size_t
buckets_of(const struct al_hist *h, struct al_tail_bucket *out)
{
	size_t n = 0;

	for (int i = 0; i < AL_HIST_BUCKETS; i++)
		if (h->buckets[i])
			out[n++] = (struct al_tail_bucket){al_hist_bucket_low(i), al_hist_bucket_high(i),
							  h->buckets[i]};
	return n;
}

static void
loglik_by_hand(void **state)
{
	struct al_gpd_bin one = {0, 1, 1}, open = {2, INFINITY, 3};

	(void)state;
	/* exponential (xi = 0, sigma = 1): P(0 <= y < 1) = 1 - e^-1 */
	assert_near(al_gpd_loglik(&one, 1, 0, 1), log(1 - exp(-1)), 1e-12);
	/* xi = 0.5, sigma = 2: S(2) = (1 + 0.5)^-2 = 4/9, three values there */
	assert_near(al_gpd_loglik(&open, 1, 0.5, 2), 3 * log(4.0 / 9), 1e-12);
	/* xi < 0 ends at sigma / -xi = 4: a value beyond has no probability */
	assert_true(al_gpd_loglik(&(struct al_gpd_bin){5, 6, 1}, 1, -0.5, 2) == -INFINITY);
	assert_near(al_gpd_log_sf(0.25, 1000, 3000), -4 * log(1.75), 1e-12);
}

static void
level_formulas(void **state)
{
	(void)state;
	/* sigma / xi (r^xi - 1): 2 / 0.5 (9^0.5 - 1) = 8 */
	assert_near(al_gpd_level(0.5, 2, 9), 8, 1e-12);
	assert_near(al_gpd_level(0, 3, exp(2)), 6, 1e-12);
	assert_near(al_gpd_level(-0.5, 2, 4), 2, 1e-12); /* 2 / -0.5 (1/2 - 1) */
	/* ceil(ln 0.05 / ln(1 - p)): 1e-6 -> 2995731, 0.5 -> 5 (4.32) */
	assert_near(al_tail_run_periods(1e-6), 2995731, 0);
	assert_near(al_tail_run_periods(0.5), 5, 0);
	assert_true(isinf(al_tail_run_periods(0)));
	assert_true(isnan(al_tail_run_periods(NAN)));
}

/* The expected counts of GPD(xi, sigma) over u in al_hist's buckets, 1e9 values in all. */
static size_t
expected_bins(double xi, double sigma, int64_t u, struct al_gpd_bin *b, size_t cap)
{
	size_t n = 0;
	double left = 1e9;

	for (int i = al_hist_bucket_of(u); i < AL_HIST_BUCKETS && n + 1 < cap; i++) {
		double lo = (double)(al_hist_bucket_low(i) - u), hi = (double)(al_hist_bucket_high(i) - u);
		double c = round(1e9 * (exp(al_gpd_log_sf(xi, sigma, lo)) -
					exp(al_gpd_log_sf(xi, sigma, hi))));

		b[n++] = (struct al_gpd_bin){lo, hi, c};
		left -= c;
		if (exp(al_gpd_log_sf(xi, sigma, hi)) * 1e9 < 0.5)
			return n;
	}
	b[n] = (struct al_gpd_bin){b[n - 1].hi, INFINITY, left > 0 ? left : 0};
	return n + 1;
}

static void
expected_counts_give_the_parameters(void **state)
{
	static const double cases[][2] = {{0.3, 1000}, {0, 500}, {-0.2, 2000}, {0.7, 100}, {0.1, 40000}};
	static struct al_gpd_bin b[AL_HIST_BUCKETS + 1];
	int64_t u = al_hist_bucket_low(al_hist_bucket_of(10000));

	(void)state;
	for (size_t c = 0; c < sizeof(cases) / sizeof(cases[0]); c++) {
		struct al_gpd fit;
		size_t n = expected_bins(cases[c][0], cases[c][1], u, b, AL_HIST_BUCKETS + 1);

		assert_int_equal(al_gpd_fit(b, n, &fit), 0);
		assert_near(fit.xi, cases[c][0], 2e-3);
		assert_near(fit.sigma / cases[c][1], 1, 2e-3);
		/* a maximum: no better at the truth or nearby */
		assert_true(fit.loglik >= al_gpd_loglik(b, n, cases[c][0], cases[c][1]) - 1e-6);
		assert_true(fit.loglik > al_gpd_loglik(b, n, cases[c][0] + 0.01, cases[c][1]));
	}
}

/*
 * 98 % of a million values uniform in [1, 9) us, 2 % at 10 us plus
 * GPD(xi, sigma): above any u >= 10 us the tail is GPD(xi, sigma + xi (u -
 * 10 us)) reached with probability 0.02 S(u - 10 us).
 */
static void
sample(struct al_hist *h, uint64_t seed, double xi, double sigma, long n)
{
	uint64_t s = seed;

	al_hist_init(h);
	for (long i = 0; i < n; i++) {
		double v = uniform(&s) < 0.02 ? 10000 + gpd_draw(&s, xi, sigma)
					       : 1000 + 8000 * uniform(&s);

		al_hist_add(h, v < 1e18 ? (int64_t)v : (int64_t)1e18);
	}
}

static void
sample_recovers_the_tail(void **state)
{
	static struct al_hist h;
	static struct al_tail_bucket b[AL_HIST_BUCKETS];
	const double xi = 0.25, sigma = 2000, periods[2] = {2.7e6, 6.48e7};
	struct al_tail t;
	double su, r, truth;
	size_t n;

	(void)state;
	sample(&h, 7, xi, sigma, 1000000);
	n = buckets_of(&h, b);
	assert_int_equal(al_tail_fit(b, n, h.overflow, AL_HIST_LIMIT_NS, periods, &t), 0);
	assert_int_equal(t.status, AL_TAIL_OK);
	assert_true(t.count == 1000000);
	assert_true(t.exceedances >= 9000 && t.exceedances <= 10000);
	assert_true(t.threshold_ns > 10000);
	su = sigma + xi * ((double)t.threshold_ns - 10000);
	/* standard errors about (1 + xi) / sqrt(k) = 0.013 for xi, 0.015 for sigma */
	assert_near(t.fit.xi, xi, 0.05);
	assert_near(t.fit.sigma / su, 1, 0.06);
	for (int i = 0; i < 2; i++) {
		/* the true median of the max of N: 0.02 S(y) = 1 - 2^(-1/N) */
		r = 0.02 / -expm1(-M_LN2 / periods[i]);
		truth = 10000 + al_gpd_level(xi, sigma, r);
		assert_true(t.level[i].low_ns < t.level[i].max_ns);
		assert_true(t.level[i].max_ns < t.level[i].high_ns);
		assert_true(t.level[i].low_ns <= truth && truth <= t.level[i].high_ns);
		assert_near(t.level[i].max_ns / truth, 1, 0.35);
	}
	assert_true(t.level[1].max_ns > t.level[0].max_ns);
	/* the probability of reaching the threshold is the rate */
	assert_near(al_tail_exceed_prob(&t, (double)t.threshold_ns), t.rate, 1e-15);
	assert_true(isnan(al_tail_exceed_prob(&t, (double)t.threshold_ns - 1)));
}

static void
no_number_where_the_fit_is_poor(void **state)
{
	static struct al_hist h;
	static struct al_tail_bucket b[AL_HIST_BUCKETS];
	const double periods[2] = {2.7e6, 6.48e7};
	struct al_tail t;
	size_t n;

	(void)state;
	/* 3000 values: at most 30 above the 99th percentile */
	sample(&h, 3, 0.25, 2000, 3000);
	n = buckets_of(&h, b);
	assert_int_equal(al_tail_fit(b, n, h.overflow, AL_HIST_LIMIT_NS, periods, &t), 0);
	assert_int_equal(t.status, AL_TAIL_FEW);
	assert_true(isnan(t.level[0].max_ns) && isnan(t.level[1].low_ns));
	assert_true(isnan(al_tail_exceed_prob(&t, 1e6)));
	/* xi = 1.5: no finite mean, out of range */
	sample(&h, 5, 1.5, 2000, 200000);
	n = buckets_of(&h, b);
	assert_int_equal(al_tail_fit(b, n, h.overflow, AL_HIST_LIMIT_NS, periods, &t), 0);
	assert_int_equal(t.status, AL_TAIL_SHAPE);
	assert_true(t.fit.xi > 1);
	assert_true(isnan(t.level[0].max_ns));
	/* nothing at all */
	assert_int_equal(al_tail_fit(b, 0, 0, AL_HIST_LIMIT_NS, periods, &t), 0);
	assert_int_equal(t.status, AL_TAIL_EMPTY);
	assert_string_equal(al_tail_status_text(AL_TAIL_FEW), "too few exceedances");
	/* buckets out of order */
	b[0] = (struct al_tail_bucket){10, 20, 1};
	b[1] = (struct al_tail_bucket){5, 8, 1};
	assert_int_equal(al_tail_fit(b, 2, 0, AL_HIST_LIMIT_NS, periods, &t), -EINVAL);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loglik_by_hand),
		cmocka_unit_test(level_formulas),
		cmocka_unit_test(expected_counts_give_the_parameters),
		cmocka_unit_test(sample_recovers_the_tail),
		cmocka_unit_test(no_number_where_the_fit_is_poor),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
