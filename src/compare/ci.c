/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ci.h"

static uint64_t
splitmix64(uint64_t *x)
{
	uint64_t z = (*x += 0x9e3779b97f4a7c15ULL);

	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
	z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
	return z ^ (z >> 31);
}

void
al_rng_seed(struct al_rng *r, uint64_t seed)
{
	for (int i = 0; i < 4; i++)
		r->s[i] = splitmix64(&seed);
}

static inline uint64_t
rotl(uint64_t x, int k)
{
	return (x << k) | (x >> (64 - k));
}

uint64_t
al_rng_next(struct al_rng *r)
{
	uint64_t *s = r->s, result = rotl(s[1] * 5, 7) * 9, t = s[1] << 17;

	s[2] ^= s[0];
	s[3] ^= s[1];
	s[1] ^= s[2];
	s[0] ^= s[3];
	s[2] ^= t;
	s[3] = rotl(s[3], 45);
	return result;
}

double
al_rng_uniform(struct al_rng *r)
{
	/* 53 random bits, shifted off zero by half a step: never 0, never 1 */
	return ((double)(al_rng_next(r) >> 11) + 0.5) * 0x1.0p-53;
}

double
al_rng_normal(struct al_rng *r)
{
	double u, v, s;

	do {
		u = 2 * al_rng_uniform(r) - 1;
		v = 2 * al_rng_uniform(r) - 1;
		s = u * u + v * v;
	} while (s >= 1 || s == 0);
	return u * sqrt(-2 * log(s) / s);
}

double
al_rng_gamma(struct al_rng *r, double shape)
{
	double d, c, x, v, u;

	if (shape < 1) /* boost: Gamma(a) = Gamma(a + 1) * U^(1/a) */
		return al_rng_gamma(r, shape + 1) * pow(al_rng_uniform(r), 1 / shape);
	d = shape - 1.0 / 3;
	c = 1 / sqrt(9 * d);
	for (;;) {
		do {
			x = al_rng_normal(r);
			v = 1 + c * x;
		} while (v <= 0);
		v = v * v * v;
		u = al_rng_uniform(r);
		if (u < 1 - 0.0331 * x * x * x * x)
			return d * v;
		if (log(u) < 0.5 * x * x + d * (1 - v + log(v)))
			return d * v;
	}
}

double
al_rng_beta(struct al_rng *r, double a, double b)
{
	double x = al_rng_gamma(r, a), y = al_rng_gamma(r, b);

	return x / (x + y);
}

enum al_verdict
al_ci_verdict(const struct al_ci *ci)
{
	if (!ci->lo_ok && !ci->hi_ok)
		return AL_VERDICT_NODATA;
	if (ci->lo_ok && ci->lo > 0)
		return AL_VERDICT_WORSE;
	if (ci->hi_ok && ci->hi < 0)
		return AL_VERDICT_BETTER;
	return AL_VERDICT_SAME;
}

const char *
al_verdict_name(enum al_verdict v)
{
	switch (v) {
	case AL_VERDICT_BETTER:
		return "better";
	case AL_VERDICT_WORSE:
		return "worse";
	case AL_VERDICT_NODATA:
		return "not enough data";
	default:
		return "no significant difference";
	}
}

double
al_ci_design_effect(const int64_t *n, const double *mean, size_t m, double sd)
{
	double total = 0, mu = 0, v_cl = 0, v_iid, deff;
	size_t i;

	if (m < 2 || !(sd > 0))
		return 1;
	for (i = 0; i < m; i++) {
		total += (double)n[i];
		mu += (double)n[i] * mean[i];
	}
	if (!(total > 0))
		return 1;
	mu /= total;
	for (i = 0; i < m; i++) {
		double d = (double)n[i] * (mean[i] - mu);

		v_cl += d * d;
	}
	v_cl = v_cl / (total * total) * (double)m / (double)(m - 1);
	v_iid = sd * sd / total;
	deff = v_cl / v_iid;
	if (!(deff >= 1))
		return 1;
	return deff > total ? total : deff;
}

/* C(m_x, k) / C(m_x + m_y, k), by the same product as al_ci_exceedance_k(); 1 for k = 0 */
static double
exceedance_chance(size_t m_x, size_t m_y, size_t k)
{
	double p = 1;
	size_t j, n = m_x + m_y;

	for (j = 1; j <= k && j <= m_x; j++)
		p *= (double)(m_x - (j - 1)) / (double)(n - (j - 1));
	return p;
}

size_t
al_ci_exceedance_k(size_t m_x, size_t m_y, double tail)
{
	double p = 1;
	size_t k, n = m_x + m_y;

	/* C(m_x, k) / C(n, k) = prod_{j<k} (m_x - j) / (n - j) */
	for (k = 1; k <= m_x; k++) {
		p *= (double)(m_x - (k - 1)) / (double)(n - (k - 1));
		if (p <= tail)
			return k;
	}
	return m_x + 1;
}

static int
cmp_desc(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x > y ? -1 : x < y;
}

int
al_ci_max_diff(const int64_t *a, size_t m_a, const int64_t *b, size_t m_b, double conf,
	       struct al_ci *out)
{
	double tail = (1 - conf) / 2;
	int64_t *sa, *sb;
	size_t k_a, k_b;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (!m_a || !m_b || !(conf > 0 && conf < 1))
		return -EINVAL;
	sa = malloc(m_a * sizeof(*sa));
	sb = malloc(m_b * sizeof(*sb));
	if (!sa || !sb) {
		free(sa);
		free(sb);
		return -ENOMEM;
	}
	memcpy(sa, a, m_a * sizeof(*sa));
	memcpy(sb, b, m_b * sizeof(*sb));
	qsort(sa, m_a, sizeof(*sa), cmp_desc);
	qsort(sb, m_b, sizeof(*sb), cmp_desc);
	/* B shifted down by d rejected as too high: b(k_b) - d > max a */
	k_b = al_ci_exceedance_k(m_b, m_a, tail);
	/* ... rejected as too low: a(k_a) > max b - d */
	k_a = al_ci_exceedance_k(m_a, m_b, tail);
	if (k_b <= m_b) {
		out->lo = (double)sb[k_b - 1] - (double)sa[0];
		out->lo_ok = true;
	}
	if (k_a <= m_a) {
		out->hi = (double)sb[0] - (double)sa[k_a - 1];
		out->hi_ok = true;
	}
	/* p: twice the smaller of the chances that as many of B's window
	 * maxima as lie above max A (or of A's above max B) all came from it */
	{
		size_t cb = 0, ca = 0;

		while (cb < m_b && sb[cb] > sa[0])
			cb++;
		while (ca < m_a && sa[ca] > sb[0])
			ca++;
		out->p = 2 * fmin(exceedance_chance(m_b, m_a, cb), exceedance_chance(m_a, m_b, ca));
		if (out->p > 1)
			out->p = 1;
		/* no test at any level: neither side could ever be bounded */
		if (al_ci_exceedance_k(m_b, m_a, 0.5) > m_b && al_ci_exceedance_k(m_a, m_b, 0.5) > m_a)
			out->p = NAN;
	}
	free(sa);
	free(sb);
	return 0;
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return x < y ? -1 : x > y;
}

/*
 * The smaller share of the n sorted replicates on either side of 0: those
 * <= 0 or those >= 0. The percentile interval at tail t has its low end
 * above 0 exactly when t >= #(d <= 0) / n (its low end is d[floor(t n)]),
 * its high end below 0 exactly when t >= #(d >= 0) / n: it excludes 0
 * when t >= this share.
 */
static double
share_beyond_zero(const double *d, int n)
{
	int le = 0, ge = 0, i;

	for (i = 0; i < n; i++) {
		le += d[i] <= 0;
		ge += d[i] >= 0;
	}
	return (double)(le < ge ? le : ge) / (double)n;
}

/* The percentile method: [tail, 1 - tail] of the n replicates d (sorted here). */
static void
percentile_interval(double *d, int n, double tail, struct al_ci *out)
{
	size_t lo, hi;

	qsort(d, (size_t)n, sizeof(*d), cmp_double);
	out->p = fmin(1, 2 * share_beyond_zero(d, n));
	lo = (size_t)floor(tail * n);
	hi = (size_t)ceil((1 - tail) * n) - 1;
	if (hi >= (size_t)n)
		hi = (size_t)n - 1;
	out->lo = d[lo];
	out->hi = d[hi];
	out->lo_ok = out->hi_ok = true;
}

/* Cumulative bucket counts of h, for a binary search per replicate; NULL on ENOMEM. */
static uint64_t *
cumulative(const struct al_dhist *h)
{
	uint64_t *cum = malloc((h->n ? h->n : 1) * sizeof(*cum)), sum = 0;
	size_t i;

	if (!cum)
		return NULL;
	for (i = 0; i < h->n; i++)
		cum[i] = sum += h->b[i].count;
	return cum;
}

/* al_dhist_quantile(h, u), in O(log n) with the cumulative counts. */
static double
quantile_at(const struct al_dhist *h, const uint64_t *cum, double u)
{
	uint64_t rank;
	size_t lo = 0, hi = h->n;

	if (u >= 1)
		return (double)h->max_ns;
	rank = (uint64_t)ceil(u * (double)h->count);
	if (rank < 1)
		rank = 1;
	/* the first bucket whose cumulative count reaches the rank */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (cum[mid] >= rank)
			hi = mid;
		else
			lo = mid + 1;
	}
	return lo < h->n ? (double)al_dhist_bucket_value(h, lo) : (double)h->max_ns;
}

/* One bootstrap replicate of the q-quantile of n draws from h. */
static double
draw_quantile(struct al_rng *rng, const struct al_ci_sample *s, const uint64_t *cum, double q)
{
	double n = floor(s->n_eff + 0.5), k, u;

	if (n < 1)
		n = 1;
	k = ceil(q * n);
	if (k < 1)
		k = 1;
	if (k > n)
		k = n;
	u = al_rng_beta(rng, k, n - k + 1);
	return quantile_at(s->h, cum, u);
}

int
al_ci_quantile_diff(const struct al_ci_sample *a, const struct al_ci_sample *b, double q,
		    int resamples, uint64_t seed, double conf, struct al_ci *out)
{
	uint64_t *cum_a = NULL, *cum_b = NULL;
	double *d = NULL, tail = (1 - conf) / 2;
	struct al_rng rng;
	int i;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (!a->h->count || !b->h->count || resamples < 100 || !(q > 0 && q < 1) ||
	    !(conf > 0 && conf < 1))
		return -EINVAL;
	d = malloc((size_t)resamples * sizeof(*d));
	cum_a = cumulative(a->h);
	cum_b = cumulative(b->h);
	if (!d || !cum_a || !cum_b) {
		free(d);
		free(cum_a);
		free(cum_b);
		return -ENOMEM;
	}
	al_rng_seed(&rng, seed);
	for (i = 0; i < resamples; i++) {
		double qa = draw_quantile(&rng, a, cum_a, q);

		d[i] = draw_quantile(&rng, b, cum_b, q) - qa;
	}
	free(cum_a);
	free(cum_b);
	percentile_interval(d, resamples, tail, out);
	free(d);
	return 0;
}

/*
 * One replicate of a group's statistic: m runs drawn with replacement,
 * each run's q-quantile redrawn from its own histogram (the second level;
 * q <= 0: the run's value as it is), averaged.
 */
static double
draw_group(struct al_rng *rng, const struct al_ci_group *g, uint64_t *const *cum, double q)
{
	double sum = 0, v;
	size_t i, r;

	for (i = 0; i < g->n; i++) {
		r = (size_t)(al_rng_uniform(rng) * (double)g->n);
		if (r >= g->n)
			r = g->n - 1;
		if (q > 0 && g->runs[r].h && g->runs[r].h->count)
			v = draw_quantile(rng, &g->runs[r], cum[r], q);
		else
			v = g->value[r];
		/* on the log scale: a ratio of geometric means (v >= 1 ns) */
		sum += g->log ? log(v > 1 ? v : 1) : v;
	}
	return sum / (double)g->n;
}

static void
free_cums(uint64_t **cum, size_t n)
{
	size_t i;

	for (i = 0; cum && i < n; i++)
		free(cum[i]);
	free(cum);
}

static uint64_t **
group_cums(const struct al_ci_group *g, double q)
{
	uint64_t **cum = calloc(g->n ? g->n : 1, sizeof(*cum));
	size_t i;

	if (!cum)
		return NULL;
	for (i = 0; q > 0 && i < g->n; i++) {
		if (!g->runs[i].h)
			continue;
		cum[i] = cumulative(g->runs[i].h);
		if (!cum[i]) {
			free_cums(cum, g->n);
			return NULL;
		}
	}
	return cum;
}

/*
 * The continued fraction of the regularized incomplete beta function
 * I_x(a, b), evaluated by the modified Lentz method (converges quickly for
 * x < (a + 1) / (a + b + 2); the caller uses the symmetry otherwise).
 */
static double
beta_cf(double a, double b, double x)
{
	const double tiny = 1e-300;
	double c = 1, d = 1 - (a + b) * x / (a + 1), h;
	int m;

	if (fabs(d) < tiny)
		d = tiny;
	d = 1 / d;
	h = d;
	for (m = 1; m <= 300; m++) {
		double num = m * (b - m) * x / ((a + 2 * m - 1) * (a + 2 * m)), del;

		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		h *= d * c;
		num = -(a + m) * (a + b + m) * x / ((a + 2 * m) * (a + 2 * m + 1));
		d = 1 + num * d;
		c = 1 + num / c;
		d = 1 / (fabs(d) < tiny ? tiny : d);
		c = fabs(c) < tiny ? tiny : c;
		del = d * c;
		h *= del;
		if (fabs(del - 1) < 1e-15)
			break;
	}
	return h;
}

/* The regularized incomplete beta function I_x(a, b), 0 <= x <= 1. */
static double
beta_inc(double a, double b, double x)
{
	double front;

	if (x <= 0)
		return 0;
	if (x >= 1)
		return 1;
	front = exp(lgamma(a + b) - lgamma(a) - lgamma(b) + a * log(x) + b * log1p(-x));
	if (x < (a + 1) / (a + b + 2))
		return front * beta_cf(a, b, x) / a;
	return 1 - front * beta_cf(b, a, 1 - x) / b;
}

/* P(T > t) for Student's t with v degrees of freedom, t >= 0. */
static double
t_tail(double t, double v)
{
	return 0.5 * beta_inc(v / 2, 0.5, v / (v + t * t));
}

/*
 * Student's t upper quantile: t with P(T > t) = p (0 < p < 0.5), by
 * bisection on the exact tail (the incomplete beta function): exact to
 * 1e-9 at every v, where a series in 1/v is 3 % low at v = 2.
 */
static double
t_upper(double p, double v)
{
	double lo = 0, hi = 1, mid;
	int i;

	while (t_tail(hi, v) > p && hi < 1e12)
		hi *= 2;
	for (i = 0; i < 200 && hi - lo > 1e-12 * hi; i++) {
		mid = (lo + hi) / 2;
		if (t_tail(mid, v) > p)
			lo = mid;
		else
			hi = mid;
	}
	return (lo + hi) / 2;
}

double
al_ci_t_upper(double p, double v)
{
	return t_upper(p, v);
}

double
al_ci_expanded_tail(double conf, size_t n)
{
	double tail = (1 - conf) / 2, z;

	if (n < 2)
		return tail;
	/* Hesterberg's expanded percentile interval: the tail whose normal
	 * quantile is sqrt(n / (n - 1)) t(n - 1) */
	z = sqrt((double)n / (double)(n - 1)) * t_upper(tail, (double)(n - 1));
	return 0.5 * erfc(z / sqrt(2));
}

/*
 * The p-value of the expanded percentile interval: the smallest alpha at
 * which its tail, al_ci_expanded_tail(1 - alpha, n), reaches the share of
 * the replicates beyond 0 (the tail grows with alpha: bisection).
 */
static double
expanded_p(double share, size_t n)
{
	double lo = 0, hi = 1, mid;
	int i;

	if (share <= 0)
		return 0;
	if (al_ci_expanded_tail(1e-12, n) < share)
		return 1;
	for (i = 0; i < 60; i++) {
		mid = (lo + hi) / 2;
		if (al_ci_expanded_tail(1 - mid, n) >= share)
			hi = mid;
		else
			lo = mid;
	}
	return hi;
}

int
al_ci_group_diff(const struct al_ci_group *a, const struct al_ci_group *b, double q,
		 int resamples, uint64_t seed, double conf, struct al_ci *out)
{
	double *d, tail = (1 - conf) / 2;
	uint64_t **cum_a, **cum_b;
	struct al_rng rng;
	int i;

	memset(out, 0, sizeof(*out));
	out->p = NAN;
	if (a->n < 1 || b->n < 1 || resamples < 100 || q >= 1 || !(conf > 0 && conf < 1))
		return -EINVAL;
	d = malloc((size_t)resamples * sizeof(*d));
	cum_a = group_cums(a, q);
	cum_b = group_cums(b, q);
	if (!d || !cum_a || !cum_b) {
		free(d);
		free_cums(cum_a, a->n);
		free_cums(cum_b, b->n);
		return -ENOMEM;
	}
	al_rng_seed(&rng, seed);
	for (i = 0; i < resamples; i++) {
		double ga = draw_group(&rng, a, cum_a, q);

		d[i] = draw_group(&rng, b, cum_b, q) - ga;
	}
	free_cums(cum_a, a->n);
	free_cums(cum_b, b->n);
	/* few runs: a percentile interval of a resampled mean is too narrow */
	tail = al_ci_expanded_tail(conf, a->n < b->n ? a->n : b->n);
	percentile_interval(d, resamples, tail, out);
	out->p = expanded_p(share_beyond_zero(d, resamples), a->n < b->n ? a->n : b->n);
	free(d);
	return 0;
}

size_t
al_ci_holm(const double *p, size_t m, double alpha, double *level)
{
	size_t *ord, i, j, n = 0, t;
	bool going = true;
	double stop = NAN;

	for (i = 0; i < m; i++) {
		level[i] = NAN;
		n += !isnan(p[i]);
	}
	ord = malloc((n ? n : 1) * sizeof(*ord));
	if (!ord) { /* Bonferroni, which Holm never rejects less than */
		for (i = 0; i < m; i++)
			level[i] = isnan(p[i]) ? NAN : alpha / (double)n;
		return n;
	}
	for (i = 0, t = 0; i < m; i++)
		if (!isnan(p[i]))
			ord[t++] = i;
	/* by p, then by position (stable: the same order for ties every time) */
	for (i = 1; i < n; i++)
		for (j = i; j > 0 && (p[ord[j - 1]] > p[ord[j]] ||
				      (p[ord[j - 1]] == p[ord[j]] && ord[j - 1] > ord[j])); j--) {
			t = ord[j];
			ord[j] = ord[j - 1];
			ord[j - 1] = t;
		}
	for (j = 0; j < n; j++) {
		double lv = alpha / (double)(n - j);

		if (going && p[ord[j]] <= lv) {
			level[ord[j]] = lv;
			continue;
		}
		if (going) {
			going = false;
			stop = lv;
		}
		level[ord[j]] = stop;
	}
	free(ord);
	return n;
}
