/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "analyze.h"

bool
al_midi_filter_match(const struct al_midi_filter *f, uint8_t status, uint8_t d1, uint8_t d2)
{
	uint8_t type = status & 0xF0;

	(void)d1;
	if (status == 0xF0 || status == 0xF7)
		return f->events == AL_MIDI_SEL_ALL && !f->channel;
	if (status < 0x80 || status >= 0xF0)
		return false;
	if (f->channel && (status & 0x0F) != f->channel - 1)
		return false;
	switch (f->events) {
	case AL_MIDI_SEL_NOTE_ON:
		return type == 0x90 && d2 > 0;
	case AL_MIDI_SEL_NOTE_OFF:
		return type == 0x80 || (type == 0x90 && d2 == 0);
	default:
		return true;
	}
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return x < y ? -1 : x > y;
}

/* Nearest rank: the smallest value with at least ceil(q * n) values <= it. */
static int64_t
rank(const int64_t *sorted, size_t n, int permille)
{
	size_t k = (n * (size_t)permille + 999) / 1000;

	if (k < 1)
		k = 1;
	return sorted[k - 1];
}

/* num / den rounded to the nearest (halves away from zero); den > 0. */
static int64_t
round_div(__int128 num, __int128 den)
{
	__int128 q = num / den, r = num % den;

	if (r < 0)
		r = -r;
	if (2 * r >= den)
		q += num < 0 ? -1 : 1;
	return (int64_t)q;
}

int
al_midi_summarize(const int64_t *v_ns, size_t n, struct al_midi_summary *s)
{
	int64_t *sorted;
	__int128 sum = 0, dev = 0, mean_n;
	long double sq = 0, d;
	size_t i;

	memset(s, 0, sizeof(*s));
	if (!n)
		return 0;
	sorted = malloc(n * sizeof(*sorted));
	if (!sorted)
		return -ENOMEM;
	memcpy(sorted, v_ns, n * sizeof(*sorted));
	qsort(sorted, n, sizeof(*sorted), cmp_i64);
	for (i = 0; i < n; i++)
		sum += sorted[i];
	s->count = n;
	s->min_ns = sorted[0];
	s->max_ns = sorted[n - 1];
	s->mean_ns = round_div(sum, (__int128)n);
	if (n & 1)
		s->median_ns = sorted[n / 2];
	else
		s->median_ns = (int64_t)(((__int128)sorted[n / 2 - 1] + sorted[n / 2]) / 2);
	s->p99_ns = rank(sorted, n, 990);
	/* deviations from the exact mean sum / n, kept scaled by n */
	for (i = 0; i < n; i++) {
		mean_n = (__int128)sorted[i] * (__int128)n - sum;
		dev += mean_n < 0 ? -mean_n : mean_n;
		d = (long double)mean_n / (long double)n;
		sq += d * d;
	}
	s->mean_abs_dev_ns = round_div(dev, (__int128)n * (__int128)n);
	s->stddev_ns = (int64_t)llroundl(sqrtl(sq / (long double)n));
	free(sorted);
	return 0;
}

/* The smallest 1, 2 or 5 x 10^k at or above x. */
static int64_t
nice_step(int64_t x)
{
	int64_t p = 1;

	for (;;) {
		if (p >= x)
			return p;
		if (2 * p >= x)
			return 2 * p;
		if (5 * p >= x)
			return 5 * p;
		if (p > INT64_MAX / 100)
			return p * 10;
		p *= 10;
	}
}

void
al_midi_linhist_fill(struct al_midi_linhist *lh, const int64_t *v_ns, size_t n)
{
	int64_t min = INT64_MAX, max = INT64_MIN, span;
	__int128 start;
	size_t i;
	int row;

	memset(lh, 0, sizeof(*lh));
	if (!n)
		return;
	for (i = 0; i < n; i++) {
		if (v_ns[i] < min)
			min = v_ns[i];
		if (v_ns[i] > max)
			max = v_ns[i];
	}
	/* the span, without overflow for any two int64 values */
	span = max >= 0 && min < 0 && max > INT64_MAX + min ? INT64_MAX : max - min;
	lh->step_ns = nice_step(span / (AL_MIDI_LINHIST_ROWS - 1) + 1);
	/* rounded down to a step (towards -inf), at least INT64_MIN */
	start = (__int128)min / lh->step_ns * lh->step_ns;
	if (start > min)
		start -= lh->step_ns;
	lh->start_ns = start < INT64_MIN ? INT64_MIN : (int64_t)start;
	for (i = 0; i < n; i++) {
		row = (int)(((uint64_t)v_ns[i] - (uint64_t)lh->start_ns) / (uint64_t)lh->step_ns);
		if (row >= AL_MIDI_LINHIST_ROWS)
			row = AL_MIDI_LINHIST_ROWS - 1;
		lh->count[row]++;
		if (row + 1 > lh->rows)
			lh->rows = row + 1;
	}
}

/* Each delta goes to the window in which it ends. */
static void
timeline_fill(struct al_midi_stats *st, const int64_t *t_ns, size_t n)
{
	int64_t span_ns = t_ns[n - 1] - t_ns[0], w_ns = AL_MIDI_TIMELINE_WINDOW_NS;
	size_t i, k;

	if (span_ns / w_ns >= AL_MIDI_TIMELINE_MAX)
		w_ns = span_ns / (AL_MIDI_TIMELINE_MAX - 1) + 1;
	st->timeline_window_ns = w_ns;
	for (i = 1; i < n; i++) {
		int64_t d = t_ns[i] - t_ns[i - 1];
		struct al_midi_window *w;

		k = (size_t)((t_ns[i] - t_ns[0]) / w_ns);
		if (k >= AL_MIDI_TIMELINE_MAX)
			k = AL_MIDI_TIMELINE_MAX - 1;
		w = &st->timeline[k];
		if (!w->deltas || d < w->delta_min_ns)
			w->delta_min_ns = d;
		if (!w->deltas || d > w->delta_max_ns)
			w->delta_max_ns = d;
		w->deltas++;
		if (k + 1 > st->n_timeline)
			st->n_timeline = k + 1;
	}
	for (k = 0; k < st->n_timeline; k++)
		st->timeline[k].t_ns = (int64_t)k * w_ns;
}

int
al_midi_analyze_times(const int64_t *t_ns, size_t n, int64_t interval_ns,
		      struct al_midi_stats *st)
{
	int64_t *delta, d, a;
	__int128 abs_sum = 0;
	size_t i;
	int rc;

	memset(st, 0, sizeof(*st));
	al_hist_init(&st->hist);
	al_hist_init(&st->jitter_hist);
	st->events = n;
	st->interval_ns = interval_ns > 0 ? interval_ns : 0;
	st->interval_auto = interval_ns <= 0;
	if (n)
		st->first_ns = t_ns[0], st->last_ns = t_ns[n - 1];
	if (n < 2)
		return 0;
	delta = malloc((n - 1) * sizeof(*delta));
	if (!delta)
		return -ENOMEM;
	for (i = 1; i < n; i++) {
		if (t_ns[i] < t_ns[i - 1]) {
			free(delta);
			return -EINVAL;
		}
		delta[i - 1] = t_ns[i] - t_ns[i - 1];
		al_hist_add(&st->hist, delta[i - 1]);
	}
	st->deltas = n - 1;
	timeline_fill(st, t_ns, n);
	rc = al_midi_summarize(delta, n - 1, &st->delta);
	if (rc) {
		free(delta);
		return rc;
	}
	if (st->interval_auto)
		st->interval_ns = st->delta.median_ns;
	if (st->interval_auto && st->interval_ns <= 0) {
		/* bunched events: jitter against 0 says nothing; the commonest gap */
		uint64_t best = 0;
		int b;

		for (b = 1; b < AL_HIST_BUCKETS; b++)
			if (st->hist.buckets[b] > best) {
				best = st->hist.buckets[b];
				st->interval_ns = (al_hist_bucket_low(b) + al_hist_bucket_high(b) - 1) / 2;
			}
		st->interval_mode = best > 0;
	}
	st->jitter_max_ns = st->delta.max_ns - st->interval_ns;
	for (i = 0; i < n - 1; i++) {
		d = delta[i] - st->interval_ns;
		a = d < 0 ? -d : d;
		if (a > st->jitter_abs_max_ns)
			st->jitter_abs_max_ns = a;
		abs_sum += a;
		al_hist_add(&st->jitter_hist, a);
	}
	st->jitter_mean_abs_ns = round_div(abs_sum, (__int128)(n - 1));
	al_midi_linhist_fill(&st->delta_lin, delta, n - 1);
	for (i = 0; i < n - 1; i++)
		delta[i] = delta[i] > st->interval_ns ? delta[i] - st->interval_ns
						       : st->interval_ns - delta[i];
	al_midi_linhist_fill(&st->jitter_lin, delta, n - 1);
	free(delta);
	return 0;
}

int
al_midi_analyze_smf(const struct al_smf *smf, const struct al_midi_filter *f, int64_t interval_ns,
		    struct al_midi_stats *st)
{
	const struct al_smf_event *ev;
	int64_t *t;
	size_t i, n = 0;
	int rc;

	t = malloc((smf->n_events ? smf->n_events : 1) * sizeof(*t));
	if (!t)
		return -ENOMEM;
	for (i = 0; i < smf->n_events; i++) {
		ev = &smf->events[i];
		if (ev->kind == AL_SMF_EV_META)
			continue;
		if (al_midi_filter_match(f, ev->status, ev->d1, ev->d2))
			t[n++] = ev->t_ns;
	}
	rc = al_midi_analyze_times(t, n, interval_ns, st);
	free(t);
	return rc;
}

int
al_midi_analyze_stretch(const int64_t *t_ns, size_t n, int64_t interval_ns, int64_t from_ns,
			int64_t to_ns, struct al_midi_stats **out)
{
	struct al_midi_stats *st = malloc(sizeof(*st));
	size_t first = 0, last, events;
	int rc;

	*out = st;
	if (!st)
		return -ENOMEM;
	while (first < n && from_ns && t_ns[first] < from_ns)
		first++;
	last = first;
	while (last < n && (!to_ns || t_ns[last] < to_ns))
		last++;
	events = last - first;
	/* the delta from the event before the stretch belongs to it */
	if (first > 0 && events)
		first--;
	rc = al_midi_analyze_times(t_ns + first, last - first, interval_ns, st);
	st->events = events;
	return rc;
}
