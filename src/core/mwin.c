/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "mwin.h"

const int64_t al_mw_le_ns[AL_MW_BOUNDS] = {
	5 * AL_NS_PER_US,   10 * AL_NS_PER_US,  20 * AL_NS_PER_US,  50 * AL_NS_PER_US,
	100 * AL_NS_PER_US, 200 * AL_NS_PER_US, 500 * AL_NS_PER_US, 1 * AL_NS_PER_MS,
	2 * AL_NS_PER_MS,   5 * AL_NS_PER_MS,   10 * AL_NS_PER_MS,  20 * AL_NS_PER_MS,
	50 * AL_NS_PER_MS,  100 * AL_NS_PER_MS, 200 * AL_NS_PER_MS, 500 * AL_NS_PER_MS,
	1 * AL_NS_PER_SEC,  2 * AL_NS_PER_SEC,  5 * AL_NS_PER_SEC,  10 * AL_NS_PER_SEC,
};

int
al_mw_bucket_of(int64_t v_ns)
{
	int i;

	for (i = 0; i < AL_MW_BOUNDS; i++)
		if (v_ns <= al_mw_le_ns[i])
			return i;
	return AL_MW_BOUNDS;
}

/* The sum of first, first + step, ... (n values), saturated. */
static int64_t
run_sum(int64_t first_ns, int64_t step_ns, uint64_t n)
{
	__int128 s = (__int128)first_ns * (__int128)n +
		     (__int128)step_ns * (__int128)n * (__int128)(n - 1) / 2;

	if (s > INT64_MAX)
		return INT64_MAX;
	if (s < INT64_MIN)
		return INT64_MIN;
	return (int64_t)s;
}

/* The run's count in each bucket, into buckets and/or live. */
static void
run_buckets(int64_t first_ns, int64_t step_ns, uint64_t n, uint64_t *buckets,
	    _Atomic uint64_t *live)
{
	uint64_t below = 0, le;
	int i;

	for (i = al_mw_bucket_of(first_ns); i < AL_MW_BUCKETS && below < n; i++) {
		le = i < AL_MW_BOUNDS ? al_hist_run_count_le(first_ns, step_ns, n, al_mw_le_ns[i]) : n;
		if (le > below) {
			if (buckets)
				buckets[i] += le - below;
			if (live)
				atomic_store_explicit(&live[i],
						      atomic_load_explicit(&live[i],
									   memory_order_relaxed) +
							      (le - below),
						      memory_order_relaxed);
		}
		below = le;
	}
}

void
al_mw_init(struct al_mw *w, int64_t start_ns, int64_t len_ns)
{
	memset(w, 0, sizeof(*w));
	w->start_ns = start_ns;
	w->len_ns = len_ns;
	w->wake_min_ns = INT64_MAX;
	w->wake_max_ns = INT64_MIN;
}

void
al_mw_add_run(struct al_mw *w, int64_t first_ns, int64_t step_ns, uint64_t n)
{
	int64_t last_ns;

	if (!n)
		return;
	if (step_ns < 1)
		step_ns = 1;
	last_ns = first_ns + (int64_t)(n - 1) * step_ns;
	w->periods += n;
	if (first_ns < w->wake_min_ns)
		w->wake_min_ns = first_ns;
	if (last_ns > w->wake_max_ns)
		w->wake_max_ns = last_ns;
	w->wake_sum_ns = al_hist__sat_add(w->wake_sum_ns, run_sum(first_ns, step_ns, n));
	run_buckets(first_ns, step_ns, n, w->buckets, NULL);
}

void
al_mw_add(struct al_mw *w, int64_t v_ns)
{
	al_mw_add_run(w, v_ns, 1, 1);
}

void
al_mw_merge(struct al_mw *a, const struct al_mw *b)
{
	int64_t end_ns = a->start_ns + a->len_ns, b_end_ns = b->start_ns + b->len_ns;
	int i;

	if (b->start_ns < a->start_ns)
		a->start_ns = b->start_ns;
	if (b_end_ns > end_ns)
		end_ns = b_end_ns;
	a->len_ns = end_ns - a->start_ns;
	a->periods += b->periods;
	a->wakeups += b->wakeups;
	a->missed += b->missed;
	a->xruns += b->xruns;
	a->lost_periods += b->lost_periods;
	if (b->wake_min_ns < a->wake_min_ns)
		a->wake_min_ns = b->wake_min_ns;
	if (b->wake_max_ns > a->wake_max_ns)
		a->wake_max_ns = b->wake_max_ns;
	a->wake_sum_ns = al_hist__sat_add(a->wake_sum_ns, b->wake_sum_ns);
	if (b->interval_max_ns > a->interval_max_ns)
		a->interval_max_ns = b->interval_max_ns;
	for (i = 0; i < AL_MW_BUCKETS; i++)
		a->buckets[i] += b->buckets[i];
}

void
al_mw_live_init(struct al_mw_live *l)
{
	int i;

	for (i = 0; i < AL_MW_BUCKETS; i++) {
		atomic_init(&l->wake_buckets[i], 0);
		atomic_init(&l->interval_buckets[i], 0);
	}
	atomic_init(&l->wake_sum_ns, 0);
	atomic_init(&l->wake_max_ns, INT64_MIN);
	atomic_init(&l->interval_sum_ns, 0);
	atomic_init(&l->periods, 0);
	atomic_init(&l->wakeups, 0);
	atomic_init(&l->missed, 0);
	atomic_init(&l->xruns, 0);
	atomic_init(&l->lost_periods, 0);
}

#define LOAD(x) atomic_load_explicit(&(x), memory_order_relaxed)
#define STORE(x, v) atomic_store_explicit(&(x), (v), memory_order_relaxed)

void
al_mw_live_read(const struct al_mw_live *l, struct al_mw_totals *t)
{
	int i;

	for (i = 0; i < AL_MW_BUCKETS; i++) {
		t->wake_buckets[i] = LOAD(l->wake_buckets[i]);
		t->interval_buckets[i] = LOAD(l->interval_buckets[i]);
	}
	t->wake_sum_ns = LOAD(l->wake_sum_ns);
	t->wake_max_ns = LOAD(l->wake_max_ns);
	t->interval_sum_ns = LOAD(l->interval_sum_ns);
	t->periods = LOAD(l->periods);
	t->wakeups = LOAD(l->wakeups);
	t->missed = LOAD(l->missed);
	t->xruns = LOAD(l->xruns);
	t->lost_periods = LOAD(l->lost_periods);
}

void
al_mw_ring_init(struct al_mw_ring *ring, int64_t len_ns)
{
	memset(ring, 0, sizeof(*ring));
	ring->len_ns = len_ns;
	atomic_init(&ring->head, 0);
	atomic_init(&ring->pending, 0);
	al_mw_init(&ring->slot[0], 0, len_ns);
}

static inline uint64_t
window_of(const struct al_mw_ring *ring, int64_t abs_ns)
{
	int64_t t_ns = abs_ns - ring->start_mono_ns;

	return t_ns > 0 ? (uint64_t)(t_ns / ring->len_ns) : 0;
}

/* Open the windows up to k (not published yet); returns the oldest one still writable. */
static uint64_t
ring_advance(struct al_mw_ring *ring, uint64_t k)
{
	uint64_t j, from, oldest = ring->cur;

	if (k <= ring->cur)
		return ring->cur;
	STORE(ring->pending, k);
	/* the reader's copy of a slot is checked against pending after it */
	atomic_thread_fence(memory_order_release);
	from = ring->cur + 1;
	if (k - ring->cur >= AL_MW_RING) /* the current window is overrun too */
		from = oldest = k - AL_MW_RING + 1;
	for (j = from; j <= k; j++)
		al_mw_init(&ring->slot[j % AL_MW_RING], (int64_t)j * ring->len_ns, ring->len_ns);
	ring->cur = k;
	return oldest;
}

static inline void
live_add(_Atomic uint64_t *a, uint64_t n)
{
	STORE(*a, LOAD(*a) + n);
}

/* A run of missed periods (due, due + P, ..., served at serve) into the windows. */
static void
spread(struct al_mw_ring *ring, struct al_mw_live *live, const struct al_span *sp, int64_t p_ns,
       uint64_t oldest)
{
	int64_t t0_ns = sp->due_ns - ring->start_mono_ns, top_ns = sp->serve_ns - sp->due_ns;
	int64_t len_ns = ring->len_ns, oldest_ns = (int64_t)oldest * len_ns;
	uint64_t k = 0, k2, cnt;

	if (live) {
		/* all of it, in one step */
		int64_t first_ns = top_ns - (int64_t)(sp->n - 1) * p_ns;

		run_buckets(first_ns, p_ns, sp->n, NULL, live->wake_buckets);
		STORE(live->wake_sum_ns, al_hist__sat_add(LOAD(live->wake_sum_ns),
						 run_sum(first_ns, p_ns, sp->n)));
		if (top_ns > LOAD(live->wake_max_ns))
			STORE(live->wake_max_ns, top_ns);
		live_add(&live->periods, sp->n);
		live_add(&live->missed, sp->n);
	}
	/* the ones due in windows the ring no longer holds */
	if (t0_ns < oldest_ns) {
		k = (uint64_t)((oldest_ns - t0_ns + p_ns - 1) / p_ns);
		if (k > sp->n)
			k = sp->n;
		ring->skipped += k;
	}
	while (k < sp->n) {
		int64_t t_ns = t0_ns + (int64_t)k * p_ns, end_ns;
		uint64_t i = t_ns > 0 ? (uint64_t)(t_ns / len_ns) : 0;
		struct al_mw *w;

		if (i > ring->cur) /* cannot happen: the ring was advanced past the span */
			i = ring->cur;
		end_ns = (int64_t)(i + 1) * len_ns;
		k2 = end_ns > t0_ns ? (uint64_t)((end_ns - t0_ns + p_ns - 1) / p_ns) : k + 1;
		if (k2 <= k)
			k2 = k + 1;
		if (k2 > sp->n || i == ring->cur)
			k2 = sp->n;
		cnt = k2 - k;
		w = &ring->slot[i % AL_MW_RING];
		al_mw_add_run(w, top_ns - (int64_t)(k2 - 1) * p_ns, p_ns, cnt);
		w->missed += cnt;
		k = k2;
	}
}

void
al_mw_record(struct al_mw_ring *ring, struct al_mw_live *live, const struct al_sample *s,
	     int64_t period_ns)
{
	int64_t lat_ns = s->wake_ns - s->boundary_ns;
	uint64_t k = window_of(ring, s->boundary_ns), kmax = k, oldest, i;
	struct al_span sp[3];
	int n, j;
	struct al_mw *w;

	n = al_sample_spans(s, period_ns, sp);
	for (j = 0; j < n; j++) {
		uint64_t last = window_of(ring, sp[j].due_ns + (int64_t)(sp[j].n - 1) * period_ns);

		if (last > kmax)
			kmax = last;
	}
	if (k < ring->cur)
		k = ring->cur;
	oldest = ring_advance(ring, kmax);
	if (k < oldest) {
		ring->skipped++;
	} else {
		w = &ring->slot[k % AL_MW_RING];
		al_mw_add(w, lat_ns);
		w->wakeups++;
		if (s->prev_wake_ns && s->wake_ns - s->prev_wake_ns > w->interval_max_ns)
			w->interval_max_ns = s->wake_ns - s->prev_wake_ns;
	}
	if (live) {
		run_buckets(lat_ns, 1, 1, NULL, live->wake_buckets);
		STORE(live->wake_sum_ns, al_hist__sat_add(LOAD(live->wake_sum_ns), lat_ns));
		if (lat_ns > LOAD(live->wake_max_ns))
			STORE(live->wake_max_ns, lat_ns);
		live_add(&live->periods, 1);
		live_add(&live->wakeups, 1);
		if (s->prev_wake_ns) {
			int64_t iv_ns = s->wake_ns - s->prev_wake_ns;

			run_buckets(iv_ns, 1, 1, NULL, live->interval_buckets);
			STORE(live->interval_sum_ns, al_hist__sat_add(LOAD(live->interval_sum_ns), iv_ns));
		}
	}
	for (j = 0; j < n; j++)
		spread(ring, live, &sp[j], period_ns, oldest);
	if (s->xrun_start_ns) {
		i = window_of(ring, s->xrun_start_ns);
		if (i < oldest)
			i = oldest;
		if (i > ring->cur)
			i = ring->cur;
		w = &ring->slot[i % AL_MW_RING];
		w->xruns++;
		w->lost_periods += (uint64_t)(s->lost_periods > 0 ? s->lost_periods : 0);
		if (live) {
			live_add(&live->xruns, 1);
			live_add(&live->lost_periods,
				 (uint64_t)(s->lost_periods > 0 ? s->lost_periods : 0));
		}
	}
	atomic_store_explicit(&ring->head, ring->cur, memory_order_release);
}

int
al_mw_ring_take(struct al_mw_ring *ring, struct al_mw *w, int all)
{
	uint64_t head, limit;

	for (;;) {
		head = atomic_load_explicit(&ring->head, memory_order_acquire);
		limit = all ? head + 1 : head;
		if (ring->taken + AL_MW_RING <= head) {
			ring->lost += head - AL_MW_RING + 1 - ring->taken;
			ring->taken = head - AL_MW_RING + 1;
		}
		if (ring->taken >= limit)
			return 0;
		*w = ring->slot[ring->taken % AL_MW_RING];
		atomic_thread_fence(memory_order_acquire);
		if (ring->taken + AL_MW_RING <= LOAD(ring->pending)) {
			/* overwritten while copied */
			ring->lost++;
			ring->taken++;
			continue;
		}
		ring->taken++;
		return 1;
	}
}

int
al_mw_series_init(struct al_mw_series *s, int64_t len_ns, size_t cap)
{
	memset(s, 0, sizeof(*s));
	if (cap < 2 || len_ns <= 0)
		return -EINVAL;
	s->w = calloc(cap, sizeof(*s->w));
	if (!s->w)
		return -ENOMEM;
	s->cap = cap;
	s->len_ns = len_ns;
	return 0;
}

void
al_mw_series_free(struct al_mw_series *s)
{
	free(s->w);
	s->w = NULL;
	s->n = s->cap = 0;
}

/* Twice the length, neighbours merged: at most half the windows. */
static void
series_halve(struct al_mw_series *s)
{
	size_t i, n = 0;
	int64_t len_ns = s->len_ns * 2;

	for (i = 0; i < s->n; i++) {
		int64_t idx = s->w[i].start_ns / len_ns;
		struct al_mw cur = s->w[i];

		if (n && s->w[n - 1].start_ns / len_ns == idx) {
			al_mw_merge(&s->w[n - 1], &cur);
		} else {
			s->w[n] = cur;
			s->w[n].start_ns = idx * len_ns;
			n++;
		}
		s->w[n - 1].len_ns = len_ns;
	}
	s->n = n;
	s->len_ns = len_ns;
	s->merges++;
}

void
al_mw_series_push(struct al_mw_series *s, const struct al_mw *w)
{
	int64_t idx = w->start_ns / s->len_ns;
	struct al_mw *last;

	if (s->n && s->w[s->n - 1].start_ns / s->len_ns == idx) {
		last = &s->w[s->n - 1];
	} else {
		if (s->n == s->cap) {
			series_halve(s);
			idx = w->start_ns / s->len_ns;
			if (s->w[s->n - 1].start_ns / s->len_ns == idx) {
				last = &s->w[s->n - 1];
				goto merge;
			}
		}
		last = &s->w[s->n++];
		al_mw_init(last, idx * s->len_ns, s->len_ns);
	}
merge:
	al_mw_merge(last, w);
	last->start_ns = idx * s->len_ns;
	last->len_ns = s->len_ns;
}
