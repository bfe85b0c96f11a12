/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The statistics of audiolat compare: the PRNG and its variates, the
 * design effect, the exceedance test on maxima and the histogram
 * bootstrap of percentiles, on cases whose answer is known.
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

#include "compare/ci.h"
#include "assert-near.h"

static void
rng_is_deterministic(void **state)
{
	struct al_rng a, b, c;
	int i, differ = 0;

	(void)state;
	al_rng_seed(&a, 1);
	al_rng_seed(&b, 1);
	al_rng_seed(&c, 2);
	for (i = 0; i < 1000; i++) {
		uint64_t x = al_rng_next(&a);

		assert_true(x == al_rng_next(&b));
		differ += x != al_rng_next(&c);
	}
	assert_true(differ > 990);
	for (i = 0; i < 100000; i++) {
		double u = al_rng_uniform(&a);

		assert_true(u > 0 && u < 1);
	}
}

/* Sample mean and variance of n draws. */
static void
moments(struct al_rng *r, double (*draw)(struct al_rng *, double, double), double p1, double p2,
	int n, double *mean, double *var)
{
	double s = 0, ss = 0;
	int i;

	for (i = 0; i < n; i++) {
		double x = draw(r, p1, p2);

		s += x;
		ss += x * x;
	}
	*mean = s / n;
	*var = ss / n - *mean * *mean;
}

static double
draw_normal(struct al_rng *r, double a, double b)
{
	(void)a;
	(void)b;
	return al_rng_normal(r);
}

static double
draw_gamma(struct al_rng *r, double a, double b)
{
	(void)b;
	return al_rng_gamma(r, a);
}

static double
draw_beta(struct al_rng *r, double a, double b)
{
	return al_rng_beta(r, a, b);
}

static void
variates_have_their_moments(void **state)
{
	struct al_rng r;
	double m, v;

	(void)state;
	al_rng_seed(&r, 3);
	moments(&r, draw_normal, 0, 0, 200000, &m, &v);
	assert_near(m, 0, 0.01);
	assert_near(v, 1, 0.015);
	moments(&r, draw_gamma, 0.5, 0, 200000, &m, &v); /* mean = var = shape */
	assert_near(m, 0.5, 0.01);
	assert_near(v, 0.5, 0.02);
	moments(&r, draw_gamma, 3, 0, 200000, &m, &v);
	assert_near(m, 3, 0.03);
	assert_near(v, 3, 0.06);
	moments(&r, draw_gamma, 1e6, 0, 20000, &m, &v); /* large shapes stay exact */
	assert_near(m, 1e6, 30);
	assert_near(v, 1e6, 5e4);
	moments(&r, draw_beta, 2, 3, 200000, &m, &v); /* 0.4, ab/((a+b)^2 (a+b+1)) */
	assert_near(m, 0.4, 0.003);
	assert_near(v, 0.04, 0.001);
	/* the order statistic of the median of 10^5 uniforms */
	moments(&r, draw_beta, 50000, 50001, 20000, &m, &v);
	assert_near(m, 0.5, 1e-4);
	assert_near(sqrt(v), sqrt(0.25 / 100001), 1e-4);
}

static void
design_effect_known(void **state)
{
	int64_t n[4] = {100, 100, 100, 100};
	double same[4] = {10, 10, 10, 10}, clustered[4] = {10, 10, 20, 20};

	(void)state;
	/* no variation between windows: 1 (never below) */
	assert_near(al_ci_design_effect(n, same, 4, 5), 1, 1e-12);
	/*
	 * mean 15; cluster variance 4/3 * sum(100^2 * 5^2) / 400^2 = 8.3333;
	 * independent: 5^2 / 400 = 0.0625; ratio 133.33
	 */
	assert_near(al_ci_design_effect(n, clustered, 4, 5), 400.0 / 3, 1e-9);
	/* at most the number of periods */
	assert_near(al_ci_design_effect(n, clustered, 4, 0.01), 400, 1e-9);
	/* not computable: 1 */
	assert_near(al_ci_design_effect(n, clustered, 1, 5), 1, 0);
	assert_near(al_ci_design_effect(n, clustered, 4, 0), 1, 0);
	assert_near(al_ci_design_effect(n, clustered, 4, NAN), 1, 0);
}

/* C(m_x, k) / C(m_x + m_y, k) computed with lgamma */
static double
p_top_k(size_t mx, size_t my, size_t k)
{
	double n = (double)(mx + my);

	return exp(lgamma((double)mx + 1) - lgamma((double)(mx - k) + 1) - lgamma(n + 1) +
		   lgamma(n - (double)k + 1));
}

static void
exceedance_k_known(void **state)
{
	size_t mx, my, k;

	(void)state;
	assert_int_equal(al_ci_exceedance_k(100, 100, 0.025), 6); /* 0.0297 > 0.025 >= 0.0145 */
	assert_int_equal(al_ci_exceedance_k(10, 10, 0.025), 5);	  /* 0.0433, 0.0163 */
	assert_int_equal(al_ci_exceedance_k(20, 20, 0.025), 5);	  /* C(20,5)/C(40,5) = 0.0236 */
	assert_int_equal(al_ci_exceedance_k(3, 3, 0.025), 4);	  /* none: m + 1 */
	assert_int_equal(al_ci_exceedance_k(1, 1000, 0.025), 1);  /* 1/1001 */
	/* the smallest k with P <= tail, for many sizes */
	for (mx = 1; mx < 60; mx += 7)
		for (my = 1; my < 300; my += 13) {
			k = al_ci_exceedance_k(mx, my, 0.025);
			if (k <= mx)
				assert_true(p_top_k(mx, my, k) <= 0.025 * (1 + 1e-9));
			if (k > 1)
				assert_true(p_top_k(mx, my, k - 1) > 0.025 * (1 - 1e-9));
		}
}

static void
max_interval_known(void **state)
{
	int64_t a[10], b[10], small[3] = {1, 2, 3};
	struct al_ci ci;
	int i;

	(void)state;
	for (i = 0; i < 10; i++) {
		a[i] = 10 - i; /* 1..10, in any order */
		b[i] = 11 + i; /* 11..20 */
	}
	/* k = 5 for 10 and 10: [b(5) - max a, max b - a(5)] = [16 - 10, 20 - 6] */
	assert_int_equal(al_ci_max_diff(a, 10, b, 10, 0.95, &ci), 0);
	assert_true(ci.lo_ok && ci.hi_ok);
	assert_near(ci.lo, 6, 0);
	assert_near(ci.hi, 14, 0);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_WORSE);
	assert_int_equal(al_ci_max_diff(b, 10, a, 10, 0.95, &ci), 0);
	assert_near(ci.lo, -14, 0);
	assert_near(ci.hi, -6, 0);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_BETTER);
	/* the same values: the interval holds 0 */
	assert_int_equal(al_ci_max_diff(a, 10, a, 10, 0.95, &ci), 0);
	assert_true(ci.lo <= 0 && ci.hi >= 0);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_SAME);
	/* one spike in a alone is no evidence: b(5) - 100 < 0 < max b - a(5) */
	a[3] = 100;
	assert_int_equal(al_ci_max_diff(a, 10, a + 0, 10, 0.95, &ci), 0);
	for (i = 0; i < 10; i++)
		b[i] = 1 + i;
	assert_int_equal(al_ci_max_diff(a, 10, b, 10, 0.95, &ci), 0);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_SAME);
	/* three windows each cannot say anything */
	assert_int_equal(al_ci_max_diff(small, 3, small, 3, 0.95, &ci), 0);
	assert_false(ci.lo_ok || ci.hi_ok);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_NODATA);
	assert_string_equal(al_verdict_name(AL_VERDICT_NODATA), "not enough data");
	assert_int_equal(al_ci_max_diff(a, 0, b, 10, 0.95, &ci), -EINVAL);
	assert_int_equal(al_ci_max_diff(a, 10, b, 10, 1.5, &ci), -EINVAL);
}

/*
 * The verdict of an interval: worse only when all of it is above 0,
 * better only when all of it is below; an interval that reaches 0 (an
 * edge at exactly 0) holds it: no significant difference. One side
 * unbounded: the other decides.
 */
static void
verdict_edges(void **state)
{
	static const struct {
		struct al_ci ci;
		enum al_verdict want;
	} cases[] = {
		{ { 0.5, 3, true, true }, AL_VERDICT_WORSE },
		{ { 0, 3, true, true }, AL_VERDICT_SAME },
		{ { -3, 0, true, true }, AL_VERDICT_SAME },
		{ { -3, -0.5, true, true }, AL_VERDICT_BETTER },
		{ { -1, 1, true, true }, AL_VERDICT_SAME },
		{ { 0.5, 0, true, false }, AL_VERDICT_WORSE },
		{ { 0, 0, true, false }, AL_VERDICT_SAME },
		{ { 0, -0.5, false, true }, AL_VERDICT_BETTER },
		{ { 0, 0, false, true }, AL_VERDICT_SAME },
		{ { 0, 2, false, true }, AL_VERDICT_SAME },
		{ { 0, 0, false, false }, AL_VERDICT_NODATA },
	};
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		enum al_verdict v = al_ci_verdict(&cases[i].ci);

		if (v != cases[i].want)
			fail_msg("[%g, %g] (%d, %d): %s, not %s", cases[i].ci.lo, cases[i].ci.hi,
				 cases[i].ci.lo_ok, cases[i].ci.hi_ok, al_verdict_name(v),
				 al_verdict_name(cases[i].want));
	}
}

/* A uniform histogram: values 1000..1999 ns, `per` of each (+ shift). */
static void
uniform_hist(struct al_dhist *h, int per, int64_t shift)
{
	int i;

	memset(h, 0, sizeof(*h));
	h->b = calloc(1000, sizeof(*h->b));
	assert_non_null(h->b);
	for (i = 0; i < 1000; i++)
		h->b[i] = (struct al_dbucket){1000 + i + shift, 1001 + i + shift, (uint64_t)per};
	h->n = 1000;
	h->count = 1000 * (uint64_t)per;
	h->min_ns = 1000 + shift;
	h->max_ns = 1999 + shift;
}

static void
quantile_interval_known(void **state)
{
	struct al_dhist a, b;
	struct al_ci_sample sa, sb;
	struct al_ci ci, ci2;
	/*
	 * The median of N = 10^5 from a uniform of density 1/1000 per ns has a
	 * standard error of sqrt(0.25 / N) * 1000 = 1.58 ns; the difference of
	 * two, 2.24 ns; 95 %: +- 4.38 ns.
	 */
	double half = 1.96 * sqrt(2) * sqrt(0.25 / 1e5) * 1000;

	(void)state;
	uniform_hist(&a, 100, 0);
	uniform_hist(&b, 100, 0);
	sa = (struct al_ci_sample){&a, 1e5};
	sb = (struct al_ci_sample){&b, 1e5};
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 4000, 1, 0.95, &ci), 0);
	assert_near(ci.lo, -half, 0.2 * half + 1);
	assert_near(ci.hi, half, 0.2 * half + 1);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_SAME);
	/* the same seed, the same interval; another seed, about the same */
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 4000, 1, 0.95, &ci2), 0);
	assert_true(ci.lo == ci2.lo && ci.hi == ci2.hi);
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 4000, 99, 0.95, &ci2), 0);
	assert_near(ci2.lo, ci.lo, 1.5);
	/* a quarter of the effective size: twice as wide */
	sa.n_eff = sb.n_eff = 2.5e4;
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 4000, 1, 0.95, &ci), 0);
	assert_near(ci.hi - ci.lo, 4 * half, 0.2 * 4 * half);
	/* p99: density the same, q(1-q) = 0.0099: +- 0.87 ns, but buckets are 1 ns wide */
	sa.n_eff = sb.n_eff = 1e5;
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.99, 4000, 1, 0.95, &ci), 0);
	assert_true(ci.lo >= -3 && ci.lo <= 0 && ci.hi >= 0 && ci.hi <= 3);
	al_dhist_free(&b);
	/* b 20 ns later: the interval is around +20 and excludes 0 */
	uniform_hist(&b, 100, 20);
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 4000, 1, 0.95, &ci), 0);
	assert_near((ci.lo + ci.hi) / 2, 20, 1.5);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_WORSE);
	assert_int_equal(al_ci_quantile_diff(&sb, &sa, 0.5, 4000, 1, 0.95, &ci), 0);
	assert_int_equal(al_ci_verdict(&ci), AL_VERDICT_BETTER);
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 1.0, 4000, 1, 0.95, &ci), -EINVAL);
	assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 10, 1, 0.95, &ci), -EINVAL);
	al_dhist_free(&a);
	al_dhist_free(&b);
}

/* n draws from the exponential distribution (mean 20 us) into a 1-ns-bucket histogram */
static void
sample_hist(struct al_rng *r, int n, struct al_dhist *h, int64_t *win_max, int per_window)
{
	static uint64_t counts[400000];
	size_t i, k = 0;
	int j;

	memset(counts, 0, sizeof(counts));
	memset(h, 0, sizeof(*h));
	h->min_ns = INT64_MAX;
	for (j = 0; j < n; j++) {
		int64_t v = (int64_t)(-20000 * log(al_rng_uniform(r)));

		if (v >= (int64_t)(sizeof(counts) / sizeof(counts[0])))
			v = sizeof(counts) / sizeof(counts[0]) - 1;
		counts[v]++;
		h->min_ns = v < h->min_ns ? v : h->min_ns;
		h->max_ns = v > h->max_ns ? v : h->max_ns;
		if (j % per_window == 0)
			win_max[j / per_window] = v;
		else if (v > win_max[j / per_window])
			win_max[j / per_window] = v;
	}
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		k += counts[i] != 0;
	h->b = calloc(k, sizeof(*h->b));
	assert_non_null(h->b);
	for (i = 0; i < sizeof(counts) / sizeof(counts[0]); i++)
		if (counts[i])
			h->b[h->n++] = (struct al_dbucket){(int64_t)i, (int64_t)i + 1, counts[i]};
	h->count = (uint64_t)n;
}

/*
 * Two runs drawn from the same distribution: the 95 % intervals hold 0 in
 * about 95 % of the cases or more (never much less), for p50, p99 and max.
 */
static void
intervals_cover_zero_under_the_null(void **state)
{
	enum { TRIALS = 200, N = 20000, PER = 200 };
	int64_t wa[N / PER], wb[N / PER];
	int miss[3] = {0}, t;
	struct al_rng r;

	(void)state;
	al_rng_seed(&r, 2024);
	for (t = 0; t < TRIALS; t++) {
		struct al_dhist a, b;
		struct al_ci_sample sa = {&a, N}, sb = {&b, N};
		struct al_ci ci;

		sample_hist(&r, N, &a, wa, PER);
		sample_hist(&r, N, &b, wb, PER);
		assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 1000, (uint64_t)t, 0.95, &ci),
				 0);
		miss[0] += al_ci_verdict(&ci) != AL_VERDICT_SAME;
		assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.99, 1000, (uint64_t)t, 0.95, &ci),
				 0);
		miss[1] += al_ci_verdict(&ci) != AL_VERDICT_SAME;
		assert_int_equal(al_ci_max_diff(wa, N / PER, wb, N / PER, 0.95, &ci), 0);
		miss[2] += al_ci_verdict(&ci) != AL_VERDICT_SAME;
		al_dhist_free(&a);
		al_dhist_free(&b);
	}
	print_message("# false differences in %d null pairs: p50 %d, p99 %d, max %d\n", TRIALS,
		      miss[0], miss[1], miss[2]);
	/* 5 % expected at most: 10 of 200; 20 would be a 1-in-10^4 fluke */
	assert_true(miss[0] <= 20);
	assert_true(miss[1] <= 20);
	assert_true(miss[2] <= 20);
}

/* And a 15 % larger latency is found, every time, at this size. */
static void
planted_difference_is_found(void **state)
{
	enum { TRIALS = 20, N = 20000, PER = 200 };
	int64_t wa[N / PER], wb[N / PER];
	int found[3] = {0}, t, i;
	struct al_rng r;

	(void)state;
	al_rng_seed(&r, 77);
	for (t = 0; t < TRIALS; t++) {
		struct al_dhist a, b;
		struct al_ci_sample sa = {&a, N}, sb = {&b, N};
		struct al_ci ci;

		sample_hist(&r, N, &a, wa, PER);
		sample_hist(&r, N, &b, wb, PER);
		/* scale b by 1.15 (bucket bounds and maxima; 1-ns buckets stay distinct) */
		for (size_t j = 0; j < b.n; j++) {
			b.b[j].low_ns = b.b[j].low_ns * 115 / 100;
			b.b[j].high_ns = b.b[j].low_ns + 1;
		}
		b.min_ns = b.b[0].low_ns;
		b.max_ns = b.b[b.n - 1].low_ns;
		for (i = 0; i < N / PER; i++)
			wb[i] = wb[i] * 115 / 100;
		assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.5, 1000, (uint64_t)t, 0.95, &ci),
				 0);
		found[0] += al_ci_verdict(&ci) == AL_VERDICT_WORSE;
		assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.99, 1000, (uint64_t)t, 0.95, &ci),
				 0);
		found[1] += al_ci_verdict(&ci) == AL_VERDICT_WORSE;
		assert_int_equal(al_ci_max_diff(wa, N / PER, wb, N / PER, 0.95, &ci), 0);
		found[2] += al_ci_verdict(&ci) == AL_VERDICT_WORSE;
		al_dhist_free(&a);
		al_dhist_free(&b);
	}
	print_message("# +15 %% found in %d pairs: p50 %d, p99 %d, max %d\n", TRIALS, found[0],
		      found[1], found[2]);
	assert_int_equal(found[0], TRIALS);
	assert_true(found[1] >= TRIALS - 2);
	assert_true(found[2] >= TRIALS / 4); /* the max is the hardest: one value per run */
}

/* Hesterberg's expanded tail: 0.86 % for 10 runs at 95 %, 2.5 % in the limit */
static void
expanded_tail_known(void **state)
{
	(void)state;
	assert_true(fabs(al_ci_expanded_tail(0.95, 10) - 0.0086) < 0.0003);
	assert_true(fabs(al_ci_expanded_tail(0.95, 100000) - 0.025) < 0.0002);
	assert_true(fabs(al_ci_expanded_tail(0.95, 1) - 0.025) < 1e-12);
	assert_true(al_ci_expanded_tail(0.95, 3) < al_ci_expanded_tail(0.95, 5));
	/*
	 * the exact t quantile (tables: t(2) = 4.302653, t(4) = 2.776445,
	 * t(9) = 2.262157 at 2.5 %): the tail of sqrt(n / (n - 1)) t(n - 1),
	 * within 0.1 % of itself; a series in 1/(n - 1) is 3 % low in t at 3
	 */
	assert_true(fabs(al_ci_expanded_tail(0.95, 3) / 6.834137e-8 - 1) < 1e-3);
	assert_true(fabs(al_ci_expanded_tail(0.95, 5) / 9.541006e-4 - 1) < 1e-3);
	assert_true(fabs(al_ci_expanded_tail(0.95, 10) / 8.550639e-3 - 1) < 1e-3);
}

/*
 * Groups of runs whose figures spread between runs (log-normal, 20 %):
 * the same distribution holds 0 in nearly every trial, a group 50 %
 * higher comes out worse in at least 90 %. The max path (q = 0) and the
 * figure path only: the per-run histograms are left out.
 */
static void
group_intervals_are_calibrated(void **state)
{
	enum { TRIALS = 40, RUNS = 8 };
	double va[RUNS], vb[RUNS], vc[RUNS];
	struct al_ci_sample none[RUNS] = { { 0 } };
	int same = 0, worse = 0, t, i;
	struct al_rng r;
	struct al_ci ci;

	(void)state;
	al_rng_seed(&r, 5);
	for (t = 0; t < TRIALS; t++) {
		for (i = 0; i < RUNS; i++) {
			va[i] = 50000 * exp(0.2 * al_rng_normal(&r));
			vb[i] = 50000 * exp(0.2 * al_rng_normal(&r));
			vc[i] = 75000 * exp(0.2 * al_rng_normal(&r));
		}
		struct al_ci_group a = { none, va, RUNS, true }, b = { none, vb, RUNS, true },
				   c = { none, vc, RUNS, true };

		assert_int_equal(al_ci_group_diff(&a, &b, 0, 1000, (uint64_t)t, 0.95, &ci), 0);
		same += al_ci_verdict(&ci) == AL_VERDICT_SAME;
		assert_int_equal(al_ci_group_diff(&a, &c, 0, 1000, (uint64_t)t, 0.95, &ci), 0);
		worse += al_ci_verdict(&ci) == AL_VERDICT_WORSE;
	}
	print_message("# groups of %d runs: %d of %d the same, %d of %d worse\n", RUNS, same,
		      TRIALS, worse, TRIALS);
	assert_true(same >= TRIALS - 3);
	assert_true(worse >= TRIALS - 4); /* the power for +50 % with 8 runs a side */
}

/*
 * Holm's step-down on textbook cases: p = 0.01, 0.04, 0.03, 0.005 at 5 %:
 * sorted 0.005 <= 0.0125, 0.01 <= 0.0167, 0.03 > 0.025 stops: the first
 * two rejected at their levels, the other two at 0.025 and not rejected.
 * NAN is no test (left out of m). All rejected when every p is small.
 */
static void
holm_known(void **state)
{
	double p[5] = { 0.01, 0.04, NAN, 0.03, 0.005 }, lv[5];
	double q[3] = { 0.001, 0.02, 0.04 }, lq[3];
	double r[2] = { 0.02, 0.02 }, lr[2];

	(void)state;
	assert_int_equal(al_ci_holm(p, 5, 0.05, lv), 4);
	assert_near(lv[4], 0.05 / 4, 1e-15);
	assert_near(lv[0], 0.05 / 3, 1e-15);
	assert_near(lv[3], 0.05 / 2, 1e-15);
	assert_near(lv[1], 0.05 / 2, 1e-15); /* after the stop: the stop's level */
	assert_true(isnan(lv[2]));
	assert_true(p[4] <= lv[4] && p[0] <= lv[0] && !(p[3] <= lv[3]) && !(p[1] <= lv[1]));
	/* 0.001 <= 0.0167, 0.02 <= 0.025, 0.04 <= 0.05: all three (Bonferroni: one) */
	assert_int_equal(al_ci_holm(q, 3, 0.05, lq), 3);
	assert_near(lq[0], 0.05 / 3, 1e-15);
	assert_near(lq[1], 0.05 / 2, 1e-15);
	assert_near(lq[2], 0.05, 1e-15);
	/* ties: 0.02 > 0.025? no: 0.02 <= 0.025 rejected, then 0.02 <= 0.05 */
	assert_int_equal(al_ci_holm(r, 2, 0.05, lr), 2);
	assert_near(lr[0], 0.025, 1e-15);
	assert_near(lr[1], 0.05, 1e-15);
	/* nothing to test */
	assert_int_equal(al_ci_holm(p + 2, 1, 0.05, lv), 0);
	assert_true(isnan(lv[0]));
}

/*
 * The p-value of each interval agrees with the interval at every level:
 * the interval at 1 - alpha excludes 0 exactly when p <= alpha, for the
 * histogram bootstrap, the exceedance test and the groups' expanded
 * interval, on pairs from one distribution and pairs 10 % apart.
 */
static void
p_values_agree_with_intervals(void **state)
{
	enum { N = 4000, PER = 200, RUNS = 5 };
	static const double alphas[] = { 0.2, 0.1, 0.05, 0.025, 0.0167, 0.01, 0.005, 0.001 };
	int64_t wa[N / PER], wb[N / PER];
	struct al_ci_sample none[RUNS] = { { 0 } };
	double va[RUNS], vb[RUNS];
	int t, i, checked = 0, rejected = 0;
	struct al_rng r;

	(void)state;
	al_rng_seed(&r, 11);
	for (t = 0; t < 12; t++) {
		struct al_dhist a, b;
		struct al_ci_sample sa = { &a, N }, sb = { &b, N };
		struct al_ci ci, p;
		double scale = t % 2 ? 1.1 : 1.0;

		sample_hist(&r, N, &a, wa, PER);
		sample_hist(&r, N, &b, wb, PER);
		for (i = 0; i < N / PER; i++)
			wb[i] = (int64_t)((double)wb[i] * scale);
		for (i = 0; i < RUNS; i++) {
			va[i] = 50000 * exp(0.2 * al_rng_normal(&r));
			vb[i] = scale * 50000 * exp(0.2 * al_rng_normal(&r));
		}
		struct al_ci_group ga = { none, va, RUNS, true }, gb = { none, vb, RUNS, true };

		for (size_t k = 0; k < sizeof(alphas) / sizeof(alphas[0]); k++) {
			double al = alphas[k];

			assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.99, 1000, (uint64_t)t,
							     0.95, &p), 0);
			assert_int_equal(al_ci_quantile_diff(&sa, &sb, 0.99, 1000, (uint64_t)t,
							     1 - al, &ci), 0);
			assert_true(p.p >= 0 && p.p <= 1 && p.p == ci.p);
			assert_int_equal(al_ci_verdict(&ci) != AL_VERDICT_SAME, p.p <= al);
			rejected += p.p <= al;
			assert_int_equal(al_ci_max_diff(wa, N / PER, wb, N / PER, 1 - al, &ci), 0);
			if (al_ci_verdict(&ci) != AL_VERDICT_NODATA)
				assert_int_equal(al_ci_verdict(&ci) != AL_VERDICT_SAME, ci.p <= al);
			assert_int_equal(al_ci_group_diff(&ga, &gb, 0, 1000, (uint64_t)t, 1 - al,
							  &ci), 0);
			assert_int_equal(al_ci_verdict(&ci) != AL_VERDICT_SAME, ci.p <= al);
			checked += 3;
		}
		al_dhist_free(&a);
		al_dhist_free(&b);
	}
	print_message("# %d intervals agreed with their p-values (%d p99 rejections)\n", checked,
		      rejected);
	assert_true(rejected > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(rng_is_deterministic),
	    cmocka_unit_test(variates_have_their_moments),
	    cmocka_unit_test(design_effect_known),
	    cmocka_unit_test(exceedance_k_known),
	    cmocka_unit_test(max_interval_known),
	    cmocka_unit_test(verdict_edges),
	    cmocka_unit_test(quantile_interval_known),
	    cmocka_unit_test(intervals_cover_zero_under_the_null),
	    cmocka_unit_test(planted_difference_is_found),
	    cmocka_unit_test(expanded_tail_known),
	    cmocka_unit_test(group_intervals_are_calibrated),
	    cmocka_unit_test(holm_known),
	    cmocka_unit_test(p_values_agree_with_intervals),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
