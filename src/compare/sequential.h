/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The sequential test of audiolat bisect (docs/bisect.md): after each
 * trial from the n_min-th to the n_max-th, is the tree under test good,
 * bad, or not decided yet? Pure functions of log figures (one per run:
 * the log of its p99, say), deterministic.
 *
 * The figure of a run is taken as normal on the log scale with one
 * spread for every group of runs (a change that makes a run k times
 * slower shifts its log figure by log k and keeps its spread). The trials'
 * mean is compared with a boundary between good and bad:
 *
 * - with a bad baseline (runs of the known-bad tree): the midpoint of the
 *   good and the bad baselines' means, (g + b) / 2; and before any trial
 *   the gap gate: the one-sided 1 - alpha lower bound of b - g must lie
 *   above log(threshold), else the regression is not one the runs can
 *   tell from the noise (or smaller than the threshold): inconclusive;
 * - without: g + log(threshold).
 *
 * At each look (n = n_min .. n_max trials, L = n_max - n_min + 1 looks)
 * the contrast c = mean(trials) - boundary gets a pooled-variance t
 * interval at one-sided level alpha / L on each side (Bonferroni over the
 * looks): bad when its lower bound is above 0, good when its upper bound
 * is below 0, else on to the next trial; at n_max still undecided:
 * inconclusive. So whatever the true mean of the trials, a wrong verdict
 * (bad when it is at or below the boundary, good when at or above) has a
 * probability of at most alpha over the whole sequence.
 */
#ifndef AL_COMPARE_SEQUENTIAL_H
#define AL_COMPARE_SEQUENTIAL_H

#include <stdbool.h>
#include <stddef.h>

/* The most trials a sequence may take. */
#define AL_SEQ_N_MAX 100

struct al_seq_design {
	double alpha;       /* each wrong verdict's bound over the sequence (0.05) */
	unsigned n_min;     /* the first look after this many trials (3) */
	unsigned n_max;     /* the last (10); n_min <= n_max <= AL_SEQ_N_MAX */
	double threshold;   /* the ratio a regression must exceed (1.2), > 1 */
};

#define AL_SEQ_DESIGN_DEFAULT { .alpha = 0.05, .n_min = 3, .n_max = 10, .threshold = 1.2 }

enum al_seq_verdict {
	AL_SEQ_CONTINUE,     /* take another trial */
	AL_SEQ_GOOD,         /* below the boundary */
	AL_SEQ_BAD,          /* above it */
	AL_SEQ_INCONCLUSIVE, /* n_max trials and undecided, or the gap gate closed */
};

const char *al_seq_verdict_name(enum al_seq_verdict v);

/* The baselines: log figures of the good runs and (may be none) the bad runs. */
struct al_seq_base {
	const double *good;
	size_t n_good;      /* >= 2 */
	const double *bad;
	size_t n_bad;       /* 0: no bad baseline; else >= 2 */
};

/* What one look saw (all on the log scale). */
struct al_seq_look {
	enum al_seq_verdict verdict;
	size_t n;           /* trials */
	double boundary;    /* the estimated boundary */
	double contrast;    /* mean(trials) - boundary */
	double se;          /* its standard error */
	double df;          /* degrees of freedom of the pooled spread */
	double level;       /* the one-sided level of each side at this look: alpha / L */
	double t;           /* the critical t at that level */
	double lo, hi;      /* contrast -+ t se */
};

/* The gap gate (a bad baseline only). */
struct al_seq_gap {
	bool open;          /* the baselines differ by more than the threshold */
	double gap;         /* mean(bad) - mean(good) */
	double lo;          /* its one-sided 1 - alpha lower bound */
	double se, df, t;
};

/* 0, or -EINVAL: a design out of range (alpha not in (0, 0.5), n_min < 2 ...). */
int al_seq_check(const struct al_seq_design *d);

/*
 * The gap gate of b (with a bad baseline): 0 with *out, or -EINVAL (a bad
 * design, fewer than 2 runs a baseline, no spread at all).
 */
int al_seq_gap(const struct al_seq_design *d, const struct al_seq_base *b, struct al_seq_gap *out);

/*
 * The look after the trials y[0..n): AL_SEQ_CONTINUE below n_min and
 * while undecided before n_max. 0 with *out, or -EINVAL (a bad design or
 * baseline, n > n_max, a figure that is not finite, no spread at all).
 */
int al_seq_look(const struct al_seq_design *d, const struct al_seq_base *b, const double *y,
		size_t n, struct al_seq_look *out);

#endif
