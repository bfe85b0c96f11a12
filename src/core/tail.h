/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tail beyond the run (docs/tail.md): a peaks-over-threshold fit of a
 * latency histogram. The values above a high threshold u (the smallest
 * bucket boundary with at most 1 % of the values at or above it) are
 * taken as a generalised Pareto distribution (GPD) of shape xi and scale
 * sigma, fitted by maximum likelihood on the buckets as they are (each
 * bucket's probability S(low - u) - S(high - u): exact for binned data,
 * no midpoint error). From it: the median of the largest of N periods
 * (a run of 1 h, of 24 h) with a 95 % profile-likelihood interval, and
 * the per-period probability of exceeding a value.
 *
 * Pure arithmetic, deterministic (no random numbers), no allocation but
 * one bounded array; nothing of ours below it.
 */
#ifndef AL_CORE_TAIL_H
#define AL_CORE_TAIL_H

#include <stddef.h>
#include <stdint.h>

/* One bucket of a histogram: values low_ns <= v < high_ns. */
struct al_tail_bucket {
	int64_t low_ns;
	int64_t high_ns;
	uint64_t count;
};

/* The GPD above a threshold: S(y) = (1 + xi y / sigma)^(-1/xi), exp(-y / sigma) at xi = 0. */
struct al_gpd {
	double xi;
	double sigma;
	double loglik; /* of the binned exceedances at (xi, sigma) */
};

/* Exceedances y >= 0 of the threshold, in bins lo <= y < hi (hi may be INFINITY). */
struct al_gpd_bin {
	double lo, hi;
	double count;
};

/* ln S(y) of the GPD (-INFINITY beyond its end when xi < 0, or at y = INFINITY). */
double al_gpd_log_sf(double xi, double sigma, double y);
/* The binned log-likelihood; -INFINITY where a non-empty bin has no probability. */
double al_gpd_loglik(const struct al_gpd_bin *b, size_t n, double xi, double sigma);
/*
 * The maximum-likelihood (xi, sigma) of the bins (Nelder-Mead on (xi, ln
 * sigma), from the method of moments). 0, -EINVAL (no exceedance, a bin
 * with lo >= hi) or -EDOM (the likelihood found no finite maximum).
 */
int al_gpd_fit(const struct al_gpd_bin *b, size_t n, struct al_gpd *fit);
/*
 * The exceedance y over the threshold that is exceeded with probability
 * 1/r (r > 1): sigma / xi (r^xi - 1), sigma ln r at xi = 0.
 */
double al_gpd_level(double xi, double sigma, double r);
/*
 * The 95 % profile-likelihood interval of al_gpd_level(xi, sigma, r): the
 * levels y whose profile log-likelihood (maximised over xi, sigma tied
 * to y) is within chi2(1, 0.95) / 2 = 1.92 of fit->loglik. *hi is
 * INFINITY when the profile never falls that far (the data do not bound
 * the tail). 0, or -EDOM when the interval could not be found.
 */
int al_gpd_level_ci(const struct al_gpd_bin *b, size_t n, const struct al_gpd *fit, double r,
		    double *lo, double *hi);

/* Why a tail has no predictions. */
enum al_tail_status {
	AL_TAIL_OK,
	AL_TAIL_EMPTY,	   /* nothing measured */
	AL_TAIL_FEW,	   /* fewer than AL_TAIL_MIN_EXCEEDANCES above the threshold */
	AL_TAIL_NO_FIT,	   /* the likelihood has no finite maximum */
	AL_TAIL_SHAPE,	   /* xi outside (AL_TAIL_XI_MIN, AL_TAIL_XI_MAX) */
};

#define AL_TAIL_QUANTILE 0.99
#define AL_TAIL_MIN_EXCEEDANCES 50
#define AL_TAIL_XI_MIN -0.5
#define AL_TAIL_XI_MAX 1.0
#define AL_TAIL_MAX_BINS 256 /* more exceedance buckets are merged in pairs */
#define AL_TAIL_HORIZONS 2

/* The median of the largest of `periods` periods, and its 95 % interval (NAN/INFINITY: none). */
struct al_tail_level {
	double periods;
	double max_ns;
	double low_ns;
	double high_ns; /* INFINITY: not bounded by the data */
};

struct al_tail {
	enum al_tail_status status;
	uint64_t count;	      /* values in the histogram */
	int64_t threshold_ns; /* u: a bucket boundary */
	uint64_t exceedances; /* values >= u */
	double rate;	      /* exceedances / count: the per-period probability of reaching u */
	struct al_gpd fit;    /* valid unless EMPTY or FEW */
	struct al_tail_level level[AL_TAIL_HORIZONS];
};

/*
 * Fit the tail of the histogram b[0..n) (ascending, non-overlapping) plus
 * `overflow` values at or above overflow_ns (above every bucket), and
 * predict the median of the largest value of periods[i] periods for each
 * horizon (0: none). 0 (see t->status) or -EINVAL.
 */
int al_tail_fit(const struct al_tail_bucket *b, size_t n, uint64_t overflow, int64_t overflow_ns,
		const double periods[AL_TAIL_HORIZONS], struct al_tail *t);

/*
 * The median of the largest of `periods` periods under the fit, and the
 * factor r = rate / (1 - 2^(-1/periods)) it is al_gpd_level() of; NAN
 * unless status is OK and r > 1.
 */
double al_tail_median_max_ns(const struct al_tail *t, double periods, double *r);

/* The per-period probability of a value >= x_ns under the fit (x_ns >= u); NAN unless OK. */
double al_tail_exceed_prob(const struct al_tail *t, double x_ns);

/*
 * Periods to run to see at least one event of per-period probability p
 * with 95 % confidence: ceil(ln 0.05 / ln(1 - p)). INFINITY for p <= 0,
 * NAN for p not a number or above 1.
 */
double al_tail_run_periods(double p);

/* "too few exceedances", ...; "" for OK. */
const char *al_tail_status_text(enum al_tail_status s);

#endif
