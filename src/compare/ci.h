/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Confidence intervals for the difference of two results (audiolat
 * compare): pure functions, deterministic for a given seed. The method
 * and its limits are explained in docs/compare.md.
 *
 * - Percentiles (p50, p99): a bootstrap from the histogram. The q-quantile
 *   of n draws from a histogram is F^-1(U(k)) with U(k) ~ Beta(k, n-k+1),
 *   k = ceil(q n), so each replicate draws one Beta variate instead of n
 *   values. n is the effective sample size: the periods divided by the
 *   design effect the time-series windows show (correlated periods carry
 *   less information than independent ones).
 * - Max: the windows' maxima in a two-sample exceedance test (Rosenbaum
 *   1954: how many of one sample lie above the other's maximum), inverted
 *   for a shift. Distribution-free; it needs no bootstrap of a maximum,
 *   which is known not to work.
 */
#ifndef AL_REPORT_CI_H
#define AL_REPORT_CI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "doc/view.h"

/* xoshiro256** seeded through splitmix64. */
struct al_rng {
	uint64_t s[4];
};

void al_rng_seed(struct al_rng *r, uint64_t seed);
uint64_t al_rng_next(struct al_rng *r);
/* Uniform in the open interval (0, 1). */
double al_rng_uniform(struct al_rng *r);
/* Standard normal (Marsaglia's polar method). */
double al_rng_normal(struct al_rng *r);
/* Gamma(shape, 1), shape > 0 (Marsaglia and Tsang 2000). */
double al_rng_gamma(struct al_rng *r, double shape);
/* Beta(a, b), a, b > 0. */
double al_rng_beta(struct al_rng *r, double a, double b);

/*
 * A confidence interval; an unbounded side has its _ok flag false. p is
 * the two-sided p-value of "no difference" from the same replicates or
 * ranks, by the same rule as the interval: the interval at level conf
 * excludes 0 exactly when p <= 1 - conf (NAN where the test cannot be
 * made: too few windows for the maximum).
 */
struct al_ci {
	double lo;
	double hi;
	bool lo_ok;
	bool hi_ok;
	double p;
};

enum al_verdict {
	AL_VERDICT_SAME,   /* no significant difference: the interval holds 0 */
	AL_VERDICT_BETTER, /* the whole interval below 0: lower latency */
	AL_VERDICT_WORSE,  /* the whole interval above 0 */
	AL_VERDICT_NODATA, /* both sides unbounded: too few windows */
};

enum al_verdict al_ci_verdict(const struct al_ci *ci);
const char *al_verdict_name(enum al_verdict v);

/*
 * The design effect of periods grouped in m windows: the variance of the
 * mean estimated from the windows (n[i] periods of mean mean[i] each, the
 * linearised cluster variance) over the variance periods would give if
 * independent (sd^2 / sum n). At least 1; 1 when m < 2 or sd <= 0.
 */
double al_ci_design_effect(const int64_t *n, const double *mean, size_t m, double sd);

/*
 * The smallest k such that the chance that the k largest of m_x + m_y
 * exchangeable values all come from the m_x ones, C(m_x, k) / C(m_x +
 * m_y, k), is at most tail; m_x + 1 when no k <= m_x is.
 */
size_t al_ci_exceedance_k(size_t m_x, size_t m_y, double tail);

/*
 * Interval at level conf (0.95) for max(b) - max(a), a shift of b
 * against a, from the exceedance test on the values (window maxima) of
 * both: [b(k_b) - max a, max b - a(k_a)] with x(k) the k-th largest. 0,
 * -EINVAL (an empty sample) or -ENOMEM.
 */
int al_ci_max_diff(const int64_t *a, size_t m_a, const int64_t *b, size_t m_b, double conf,
		   struct al_ci *out);

/* One side of a percentile comparison: a histogram and its effective size. */
struct al_ci_sample {
	const struct al_dhist *h;
	double n_eff; /* effective sample size, 1 .. h->count */
};

/*
 * Percentile bootstrap interval at level conf for Q_b(q) - Q_a(q) with
 * `resamples` replicates (>= 100) from a PRNG seeded with seed. 0,
 * -EINVAL (an empty histogram, bad arguments) or -ENOMEM.
 */
int al_ci_quantile_diff(const struct al_ci_sample *a, const struct al_ci_sample *b, double q,
			int resamples, uint64_t seed, double conf, struct al_ci *out);

/*
 * A group of runs (one kernel, one host, one label): each run's
 * histogram and effective size, and the run's own value of the statistic
 * (its q-quantile, or its max).
 */
struct al_ci_group {
	const struct al_ci_sample *runs; /* n of them; .h may be NULL when q <= 0 */
	const double *value;             /* n: each run's figure */
	size_t n;
	bool log;                        /* average log(figure): the interval is of the
					  * log of the ratio of geometric means */
};

/*
 * The hierarchical bootstrap across runs (docs/compare.md, "Groups of
 * runs"): interval at level conf for the difference of the groups' mean
 * run figure, b - a. Each replicate resamples the runs of each group with
 * replacement and, for a quantile (0 < q < 1), redraws each chosen run's
 * q-quantile from its histogram with its effective size (the periods
 * within the run); q <= 0 takes each chosen run's value as it is (the
 * max, for which a within-run bootstrap does not work). The spread
 * between runs is what the interval measures. With few runs the
 * percentile interval of a resampled mean is too narrow (its spread is
 * (n-1)/n of the mean's, and the mean's distribution is t-like), so the
 * interval is Hesterberg's expanded percentile interval:
 * al_ci_expanded_tail() of the smaller group. 0, -EINVAL or -ENOMEM.
 */
/*
 * The tail to cut from each side of the replicates for level conf with n
 * runs: the normal tail of sqrt(n/(n-1)) * t(1 - tail, n - 1) (Hesterberg
 * 2015, "What teachers should know about the bootstrap"): 0.0086 for
 * n = 10 at 95 %, (1 - conf)/2 for n < 2 and as n grows.
 */
double al_ci_expanded_tail(double conf, size_t n);

/* Student's t upper quantile: P(T > t) = p (0 < p < 0.5) with v > 0 degrees of freedom. */
double al_ci_t_upper(double p, double v);

int al_ci_group_diff(const struct al_ci_group *a, const struct al_ci_group *b, double q,
		     int resamples, uint64_t seed, double conf, struct al_ci *out);

/*
 * Holm's step-down correction of m tests at family level alpha (0.05):
 * p[i] the tests' p-values (NAN: not a test, left out of the family).
 * level[i] is the level the test is decided at: alpha / (m - j) for the
 * j-th smallest p (from 0) while each so far was rejected (p <= its
 * level); after the first that was not, every later one gets that same
 * level, at which none of them is rejected; NAN where p is NAN. A test is
 * rejected when p[i] <= level[i]. Its interval at confidence 1 - level[i]
 * then excludes 0 exactly when it is rejected (al_ci's p). The number of
 * tests in the family (the p that are not NAN) is returned.
 */
size_t al_ci_holm(const double *p, size_t m, double alpha, double *level);

#endif
