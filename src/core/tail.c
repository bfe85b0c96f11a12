/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The peaks-over-threshold fit of a histogram's tail (tail.h, docs/tail.md). */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "tail.h"

#define HALF_CHI2_95 1.9207294103470 /* chi2(1 df) 95 % quantile / 2 */
#define XI_EPS 1e-12

double
al_gpd_log_sf(double xi, double sigma, double y)
{
	double a;

	if (isinf(y))
		return -INFINITY;
	if (y <= 0)
		return 0;
	if (fabs(xi) < XI_EPS)
		return -y / sigma;
	a = xi * y / sigma;
	if (a <= -1)
		return -INFINITY;
	return -log1p(a) / xi;
}

double
al_gpd_loglik(const struct al_gpd_bin *b, size_t n, double xi, double sigma)
{
	double ll = 0;

	if (!(sigma > 0) || !isfinite(xi))
		return -INFINITY;
	for (size_t i = 0; i < n; i++) {
		double la, lb;

		if (b[i].count <= 0)
			continue;
		la = al_gpd_log_sf(xi, sigma, b[i].lo);
		if (la == -INFINITY)
			return -INFINITY;
		lb = al_gpd_log_sf(xi, sigma, b[i].hi);
		/* ln(S(lo) - S(hi)) = ln S(lo) + ln(1 - S(hi) / S(lo)) */
		if (lb >= la)
			return -INFINITY;
		ll += b[i].count * (la + log1p(-exp(lb - la)));
	}
	return ll;
}

/* minus the log-likelihood at (xi, ln sigma): what the simplex minimises */
static double
nll(const struct al_gpd_bin *b, size_t n, const double p[2])
{
	double ll = al_gpd_loglik(b, n, p[0], exp(p[1]));

	return isfinite(ll) ? -ll : INFINITY;
}

/* Nelder-Mead in two dimensions from the simplex s (3 points), to a spread below tol. */
static void
simplex_min(const struct al_gpd_bin *b, size_t n, double s[3][2], double f[3])
{
	for (int it = 0; it < 1000; it++) {
		int hi = 0, lo = 0, mid;
		double c[2], r[2], e[2], fr, fe;

		for (int i = 1; i < 3; i++) {
			hi = f[i] > f[hi] ? i : hi;
			lo = f[i] < f[lo] ? i : lo;
		}
		mid = 3 - hi - lo;
		if (hi == lo || (fabs(f[hi] - f[lo]) < 1e-10 * (1 + fabs(f[lo])) &&
				 fabs(s[hi][0] - s[lo][0]) + fabs(s[hi][1] - s[lo][1]) < 1e-9))
			return;
		for (int d = 0; d < 2; d++) {
			c[d] = (s[lo][d] + s[mid][d]) / 2;
			r[d] = 2 * c[d] - s[hi][d];
		}
		fr = nll(b, n, r);
		if (fr < f[lo]) {
			for (int d = 0; d < 2; d++)
				e[d] = 3 * c[d] - 2 * s[hi][d];
			fe = nll(b, n, e);
			memcpy(s[hi], fe < fr ? e : r, sizeof(r));
			f[hi] = fe < fr ? fe : fr;
			continue;
		}
		if (fr < f[mid]) {
			memcpy(s[hi], r, sizeof(r));
			f[hi] = fr;
			continue;
		}
		for (int d = 0; d < 2; d++) /* contract toward the centroid */
			e[d] = (c[d] + (fr < f[hi] ? r[d] : s[hi][d])) / 2;
		fe = nll(b, n, e);
		if (fe < fmin(fr, f[hi])) {
			memcpy(s[hi], e, sizeof(e));
			f[hi] = fe;
			continue;
		}
		for (int i = 0; i < 3; i++) { /* shrink toward the best */
			if (i == lo)
				continue;
			for (int d = 0; d < 2; d++)
				s[i][d] = (s[i][d] + s[lo][d]) / 2;
			f[i] = nll(b, n, s[i]);
		}
	}
}

/* The method of moments on the bins' midpoints (an open bin at its low end): a start. */
static void
moments_start(const struct al_gpd_bin *b, size_t n, double *xi, double *sigma)
{
	double w = 0, m = 0, v = 0;

	for (size_t i = 0; i < n; i++) {
		double y = isinf(b[i].hi) ? b[i].lo : (b[i].lo + b[i].hi) / 2;

		w += b[i].count;
		m += b[i].count * y;
		v += b[i].count * y * y;
	}
	m /= w;
	v = v / w - m * m;
	if (!(m > 0) || !(v > 0)) {
		*xi = 0.1;
		*sigma = m > 0 ? m : 1;
		return;
	}
	*xi = fmin(fmax(0.5 * (1 - m * m / v), -0.4), 0.8);
	*sigma = fmax(0.5 * m * (m * m / v + 1), 1e-9);
}

int
al_gpd_fit(const struct al_gpd_bin *b, size_t n, struct al_gpd *fit)
{
	double total = 0, xi, sigma, s[3][2], f[3];

	for (size_t i = 0; i < n; i++) {
		if (!(b[i].lo < b[i].hi) || b[i].lo < 0 || b[i].count < 0)
			return -EINVAL;
		total += b[i].count;
	}
	if (!(total > 0))
		return -EINVAL;
	moments_start(b, n, &xi, &sigma);
	/* twice: a restart from the first answer guards against a collapsed simplex */
	for (int pass = 0; pass < 2; pass++) {
		double step = pass ? 0.05 : 0.2;

		s[0][0] = xi, s[0][1] = log(sigma);
		s[1][0] = xi + step, s[1][1] = log(sigma);
		s[2][0] = xi, s[2][1] = log(sigma) + 2 * step;
		for (int i = 0; i < 3; i++)
			f[i] = nll(b, n, s[i]);
		if (!isfinite(f[0]) && !isfinite(f[1]) && !isfinite(f[2]))
			return -EDOM;
		simplex_min(b, n, s, f);
		for (int i = 1; i < 3; i++)
			if (f[i] < f[0]) {
				memcpy(s[0], s[i], sizeof(s[0]));
				f[0] = f[i];
			}
		if (!isfinite(f[0]))
			return -EDOM;
		xi = s[0][0];
		sigma = exp(s[0][1]);
	}
	fit->xi = xi;
	fit->sigma = sigma;
	fit->loglik = -f[0];
	return 0;
}

/* (r^xi - 1) / xi, ln r at xi = 0 */
static double
level_factor(double xi, double lr)
{
	return fabs(xi * lr) < 1e-12 ? lr : expm1(xi * lr) / xi;
}

double
al_gpd_level(double xi, double sigma, double r)
{
	return sigma * level_factor(xi, log(r));
}

/* The profile log-likelihood of the level y: max over xi of loglik(xi, y / level_factor(xi)). */
static double
profile(const struct al_gpd_bin *b, size_t n, double y, double lr, double xi0)
{
	const double g = 0.6180339887498949;
	double a = xi0 - 1, c = xi0 + 1, x1, x2, f1, f2;

	if (a < -1.5)
		a = -1.5;
	x1 = c - g * (c - a);
	x2 = a + g * (c - a);
	f1 = al_gpd_loglik(b, n, x1, y / level_factor(x1, lr));
	f2 = al_gpd_loglik(b, n, x2, y / level_factor(x2, lr));
	for (int it = 0; it < 36; it++) {
		if (f1 >= f2) {
			c = x2, x2 = x1, f2 = f1;
			x1 = c - g * (c - a);
			f1 = al_gpd_loglik(b, n, x1, y / level_factor(x1, lr));
		} else {
			a = x1, x1 = x2, f1 = f2;
			x2 = a + g * (c - a);
			f2 = al_gpd_loglik(b, n, x2, y / level_factor(x2, lr));
		}
	}
	return fmax(f1, f2);
}

/*
 * Where the profile crosses target between ln y = in (inside, above it)
 * and out (outside, below it): bisection in ln y.
 */
static double
crossing(const struct al_gpd_bin *b, size_t n, double lr, double xi0, double target, double in,
	 double out)
{
	for (int it = 0; it < 26; it++) {
		double m = (in + out) / 2;

		if (profile(b, n, exp(m), lr, xi0) >= target)
			in = m;
		else
			out = m;
	}
	return exp((in + out) / 2);
}

int
al_gpd_level_ci(const struct al_gpd_bin *b, size_t n, const struct al_gpd *fit, double r,
		double *lo, double *hi)
{
	double lr = log(r), y = al_gpd_level(fit->xi, fit->sigma, r), ly, target, step;

	*lo = NAN;
	*hi = NAN;
	if (!(r > 1) || !(y > 0) || !isfinite(y))
		return -EDOM;
	ly = log(y);
	target = fit->loglik - HALF_CHI2_95;
	for (step = 0.25; step <= 32; step *= 2) /* below: the level falls fast */
		if (profile(b, n, exp(ly - step), lr, fit->xi) < target)
			break;
	if (step > 32)
		return -EDOM;
	*lo = crossing(b, n, lr, fit->xi, target, ly - (step > 0.25 ? step / 2 : 0), ly - step);
	for (step = 0.25; step <= 32; step *= 2)
		if (profile(b, n, exp(ly + step), lr, fit->xi) < target)
			break;
	if (step > 32) {
		*hi = INFINITY;
		return 0;
	}
	*hi = crossing(b, n, lr, fit->xi, target, ly + (step > 0.25 ? step / 2 : 0), ly + step);
	return 0;
}

const char *
al_tail_status_text(enum al_tail_status s)
{
	switch (s) {
	case AL_TAIL_OK:
		return "";
	case AL_TAIL_EMPTY:
		return "nothing measured";
	case AL_TAIL_FEW:
		return "too few exceedances";
	case AL_TAIL_NO_FIT:
		return "no fit";
	case AL_TAIL_SHAPE:
		return "shape out of range";
	}
	return "?";
}

/*
 * The exceedance bins of b[j..n) and the overflow over u = b[j].low_ns (or
 * overflow_ns), consecutive buckets merged in groups so that at most
 * AL_TAIL_MAX_BINS + 1 remain. Returns how many.
 */
static size_t
exceedance_bins(const struct al_tail_bucket *b, size_t n, size_t j, uint64_t overflow,
		int64_t overflow_ns, int64_t u, struct al_gpd_bin *out)
{
	size_t m = n - j, g = (m + AL_TAIL_MAX_BINS - 1) / AL_TAIL_MAX_BINS, k = 0;

	for (size_t i = j; i < n; i += g) {
		size_t last = i + g < n ? i + g - 1 : n - 1;

		out[k] = (struct al_gpd_bin){(double)(b[i].low_ns - u), (double)(b[last].high_ns - u), 0};
		for (size_t x = i; x <= last; x++)
			out[k].count += (double)b[x].count;
		k++;
	}
	if (overflow) {
		double lo = (double)overflow_ns - (double)u;

		if (k && lo < out[k - 1].hi)
			lo = out[k - 1].hi;
		out[k++] = (struct al_gpd_bin){lo, INFINITY, (double)overflow};
	}
	return k;
}

/* The first bucket with at most 1 - AL_TAIL_QUANTILE of the values at or above it (n: none). */
static size_t
threshold_bucket(const struct al_tail_bucket *b, size_t n, uint64_t overflow, uint64_t total,
		 uint64_t *above)
{
	double limit = (1 - AL_TAIL_QUANTILE) * (double)total;
	uint64_t tail = overflow;
	size_t j = n;

	while (j > 0 && (double)(tail + b[j - 1].count) <= limit) {
		tail += b[j - 1].count;
		j--;
	}
	*above = tail;
	return j;
}

static void
predict(const struct al_gpd_bin *bins, size_t nb, struct al_tail *t, struct al_tail_level *lv)
{
	double r, lo, hi;

	lv->max_ns = al_tail_median_max_ns(t, lv->periods, &r);
	lv->low_ns = NAN;
	lv->high_ns = NAN;
	if (isnan(lv->max_ns) || al_gpd_level_ci(bins, nb, &t->fit, r, &lo, &hi))
		return;
	lv->low_ns = (double)t->threshold_ns + lo;
	lv->high_ns = (double)t->threshold_ns + hi;
}

int
al_tail_fit(const struct al_tail_bucket *b, size_t n, uint64_t overflow, int64_t overflow_ns,
	    const double periods[AL_TAIL_HORIZONS], struct al_tail *t)
{
	struct al_gpd_bin bins[AL_TAIL_MAX_BINS + 2];
	size_t j, nb;

	memset(t, 0, sizeof(*t));
	for (int h = 0; h < AL_TAIL_HORIZONS; h++)
		t->level[h] = (struct al_tail_level){periods[h], NAN, NAN, NAN};
	t->fit = (struct al_gpd){NAN, NAN, NAN};
	t->rate = NAN;
	t->count = overflow;
	for (size_t i = 0; i < n; i++) {
		if (b[i].low_ns >= b[i].high_ns || (i && b[i].low_ns < b[i - 1].high_ns))
			return -EINVAL;
		t->count += b[i].count;
	}
	t->status = AL_TAIL_EMPTY;
	if (!t->count)
		return 0;
	j = threshold_bucket(b, n, overflow, t->count, &t->exceedances);
	t->threshold_ns = j < n ? b[j].low_ns : overflow_ns;
	t->rate = (double)t->exceedances / (double)t->count;
	t->status = AL_TAIL_FEW;
	if (t->exceedances < AL_TAIL_MIN_EXCEEDANCES)
		return 0;
	nb = exceedance_bins(b, n, j, overflow, overflow_ns, t->threshold_ns, bins);
	t->status = AL_TAIL_NO_FIT;
	/* two parameters need three bins at least */
	if (nb < 3 || al_gpd_fit(bins, nb, &t->fit))
		return 0;
	t->status = AL_TAIL_SHAPE;
	if (!(t->fit.xi > AL_TAIL_XI_MIN && t->fit.xi < AL_TAIL_XI_MAX))
		return 0;
	t->status = AL_TAIL_OK;
	for (int h = 0; h < AL_TAIL_HORIZONS; h++)
		if (periods[h] > 0)
			predict(bins, nb, t, &t->level[h]);
	return 0;
}

double
al_tail_median_max_ns(const struct al_tail *t, double periods, double *r)
{
	/* P(max of N <= x) = (1 - rate S(x - u))^N = 1/2: rate S = 1 - 2^(-1/N) */
	double pi = -expm1(-M_LN2 / periods);

	*r = t->rate / pi;
	if (t->status != AL_TAIL_OK || !(periods > 0) || !(*r > 1))
		return NAN;
	return (double)t->threshold_ns + al_gpd_level(t->fit.xi, t->fit.sigma, *r);
}

double
al_tail_exceed_prob(const struct al_tail *t, double x_ns)
{
	if (t->status != AL_TAIL_OK || !(x_ns >= (double)t->threshold_ns))
		return NAN;
	return t->rate * exp(al_gpd_log_sf(t->fit.xi, t->fit.sigma, x_ns - (double)t->threshold_ns));
}

double
al_tail_run_periods(double p)
{
	if (isnan(p) || p > 1)
		return NAN;
	if (p <= 0)
		return INFINITY;
	if (p >= 1)
		return 1;
	return ceil(log(0.05) / log1p(-p));
}
