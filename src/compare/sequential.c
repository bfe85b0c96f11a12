/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat bisect's sequential test: a group sequential t test of the
 * trials' mean log figure against a boundary, Bonferroni over the looks
 * (sequential.h; docs/bisect.md, "The sequential test").
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "ci.h"
#include "sequential.h"

const char *
al_seq_verdict_name(enum al_seq_verdict v)
{
	switch (v) {
	case AL_SEQ_GOOD:
		return "good";
	case AL_SEQ_BAD:
		return "bad";
	case AL_SEQ_INCONCLUSIVE:
		return "inconclusive";
	default:
		return "continue";
	}
}

int
al_seq_check(const struct al_seq_design *d)
{
	if (!(d->alpha > 0 && d->alpha < 0.5) || d->n_min < 2 || d->n_max < d->n_min ||
	    d->n_max > AL_SEQ_N_MAX || !(d->threshold > 1) || !isfinite(d->threshold))
		return -EINVAL;
	return 0;
}

/* The mean of x[0..n) into *mean; adds its sum of squared deviations to *ss; -EINVAL: not finite. */
static int
moments(const double *x, size_t n, double *mean, double *ss)
{
	double s = 0;
	size_t i;

	for (i = 0; i < n; i++) {
		if (!isfinite(x[i]))
			return -EINVAL;
		s += x[i];
	}
	*mean = n ? s / (double)n : NAN;
	for (i = 0; i < n; i++)
		*ss += (x[i] - *mean) * (x[i] - *mean);
	return 0;
}

static int
base_check(const struct al_seq_base *b)
{
	if (!b->good || b->n_good < 2 || (b->n_bad && (!b->bad || b->n_bad < 2)))
		return -EINVAL;
	return 0;
}

int
al_seq_gap(const struct al_seq_design *d, const struct al_seq_base *b, struct al_seq_gap *out)
{
	double mg, mb, ss = 0;

	memset(out, 0, sizeof(*out));
	if (al_seq_check(d) || base_check(b) || !b->n_bad)
		return -EINVAL;
	if (moments(b->good, b->n_good, &mg, &ss) || moments(b->bad, b->n_bad, &mb, &ss))
		return -EINVAL;
	out->df = (double)(b->n_good + b->n_bad - 2);
	out->se = sqrt(ss / out->df * (1.0 / (double)b->n_good + 1.0 / (double)b->n_bad));
	out->t = al_ci_t_upper(d->alpha, out->df);
	out->gap = mb - mg;
	out->lo = out->gap - out->t * out->se;
	out->open = out->lo > log(d->threshold);
	return 0;
}

/* The boundary and the baselines' part of the contrast's variance (in units of the spread's). */
static int
boundary_of(const struct al_seq_design *d, const struct al_seq_base *b, double *boundary,
	    double *var_unit, double *ss)
{
	double mg, mb;

	if (moments(b->good, b->n_good, &mg, ss))
		return -EINVAL;
	if (!b->n_bad) {
		*boundary = mg + log(d->threshold);
		*var_unit = 1.0 / (double)b->n_good;
		return 0;
	}
	if (moments(b->bad, b->n_bad, &mb, ss))
		return -EINVAL;
	*boundary = (mg + mb) / 2;
	*var_unit = 0.25 / (double)b->n_good + 0.25 / (double)b->n_bad;
	return 0;
}

int
al_seq_look(const struct al_seq_design *d, const struct al_seq_base *b, const double *y,
	    size_t n, struct al_seq_look *out)
{
	double var_unit, my, ss = 0;

	memset(out, 0, sizeof(*out));
	if (al_seq_check(d) || base_check(b) || n > d->n_max || (n && !y))
		return -EINVAL;
	if (boundary_of(d, b, &out->boundary, &var_unit, &ss) || moments(y, n, &my, &ss))
		return -EINVAL;
	out->n = n;
	out->verdict = AL_SEQ_CONTINUE;
	out->level = d->alpha / (double)(d->n_max - d->n_min + 1);
	out->df = (double)(b->n_good + (b->n_bad ? b->n_bad - 1 : 0) - 1 + (n ? n - 1 : 0));
	out->contrast = n ? my - out->boundary : NAN;
	out->se = n ? sqrt(ss / out->df * (var_unit + 1.0 / (double)n)) : NAN;
	out->t = al_ci_t_upper(out->level, out->df);
	out->lo = out->contrast - out->t * out->se;
	out->hi = out->contrast + out->t * out->se;
	if (n < d->n_min)
		return 0;
	if (out->lo > 0)
		out->verdict = AL_SEQ_BAD;
	else if (out->hi < 0)
		out->verdict = AL_SEQ_GOOD;
	else if (n == d->n_max)
		out->verdict = AL_SEQ_INCONCLUSIVE;
	return 0;
}
