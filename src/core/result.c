/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "result.h"
#include "rt.h"

/* Time loads may take to start (a ready wait of up to 10 s) and stop, per phase. */
#define LOAD_SLACK_NS (15 * AL_NS_PER_SEC)

void
al_period_stats_init(struct al_period_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->min_margin_ns = INT64_MAX;
	al_hist_init(&st->wakeup_ns);
	al_hist_init(&st->missed_ns);
	al_hist_init(&st->wake_ns);
	al_hist_init(&st->interval_ns);
	al_hist_init(&st->work_ns);
}

void
al_period_stats_merge(struct al_period_stats *dst, const struct al_period_stats *src)
{
	dst->periods += src->periods;
	dst->wakeups += src->wakeups;
	dst->missed_periods += src->missed_periods;
	dst->xruns += src->xruns;
	dst->server_xruns += src->server_xruns;
	dst->lost_periods += src->lost_periods;
	dst->within_1ms += src->within_1ms;
	dst->within_2ms += src->within_2ms;
	dst->missed_within_1ms += src->missed_within_1ms;
	dst->missed_within_2ms += src->missed_within_2ms;
	dst->xrun_ns += src->xrun_ns;
	if (src->min_margin_ns < dst->min_margin_ns)
		dst->min_margin_ns = src->min_margin_ns;
	al_hist_merge(&dst->wakeup_ns, &src->wakeup_ns);
	al_hist_merge(&dst->missed_ns, &src->missed_ns);
	al_hist_merge(&dst->wake_ns, &src->wake_ns);
	al_hist_merge(&dst->interval_ns, &src->interval_ns);
	al_hist_merge(&dst->work_ns, &src->work_ns);
}

void
al_config_defaults(struct al_config *c)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->backend, sizeof(c->backend), "sim");
	c->rate_hz = 48000;
	c->period_frames = 64;
	c->periods = 3;
	c->cpu_load_pct = 80;
	c->priority = 80;
	c->affinity_cpu = -1;
	c->duration_ns = 10 * AL_NS_PER_SEC;
	c->dma_latency_us = -1;
}

int
al_result_alloc(struct al_result *r, const struct al_config *cfg, size_t n_phases,
		size_t xrun_cap)
{
	int64_t span_ns;
	size_t i;

	memset(r, 0, sizeof(*r));
	r->cfg = *cfg;
	r->dma_latency_us = -1;
	/* the whole run: loads take time to start and stop beside their phases */
	span_ns = cfg->duration_ns + AL_NS_PER_SEC;
	if (cfg->load_spec[0])
		span_ns += (int64_t)(n_phases ? n_phases : 1) * LOAD_SLACK_NS;
	/* windows of 100 ms (or as set), longer when the run would need too many */
	r->window_ns = cfg->window_ns > 0 ? cfg->window_ns : AL_WINDOW_DEFAULT_NS;
	if (span_ns / r->window_ns >= AL_WINDOWS_MAX - 2)
		r->window_ns = span_ns / (AL_WINDOWS_MAX - 2) + 1;
	r->window_cap = (size_t)(span_ns / r->window_ns) + 2;
	if (r->window_cap > AL_WINDOWS_MAX)
		r->window_cap = AL_WINDOWS_MAX;
	r->phases = calloc(n_phases ? n_phases : 1, sizeof(*r->phases));
	r->xrun_events = calloc(xrun_cap ? xrun_cap : 1, sizeof(*r->xrun_events));
	r->server_events = calloc(xrun_cap ? xrun_cap : 1, sizeof(*r->server_events));
	r->windows = calloc(r->window_cap, sizeof(*r->windows));
	r->spans = calloc(AL_SPANS_MAX, sizeof(*r->spans));
	r->segments = calloc(AL_SEGMENTS_MAX, sizeof(*r->segments));
	r->period_changes = calloc(AL_PERIOD_CHANGES_MAX, sizeof(*r->period_changes));
	if (!r->phases || !r->xrun_events || !r->server_events || !r->windows || !r->spans || !r->segments ||
	    !r->period_changes) {
		al_result_free(r);
		return -ENOMEM;
	}
	r->n_phases = n_phases;
	r->xrun_cap = xrun_cap;
	for (i = 0; i < n_phases; i++) {
		al_period_stats_init(&r->phases[i].stats);
		snprintf(r->phases[i].load, sizeof(r->phases[i].load), "none");
	}
	al_period_stats_init(&r->total);
	for (i = 0; i < AL_SEGMENTS_MAX; i++)
		al_period_stats_init(&r->segments[i].stats);
	al_rt_prefault(r->period_changes, AL_PERIOD_CHANGES_MAX * sizeof(*r->period_changes));
	al_rt_prefault(r->xrun_events, xrun_cap * sizeof(*r->xrun_events));
	al_rt_prefault(r->server_events, xrun_cap * sizeof(*r->server_events));
	al_rt_prefault(r->windows, r->window_cap * sizeof(*r->windows));
	al_rt_prefault(r->spans, AL_SPANS_MAX * sizeof(*r->spans));
	r->period_ns = al_frames_to_ns(cfg->period_frames, cfg->rate_hz);
	r->buffer_ns = al_frames_to_ns(cfg->period_frames * cfg->periods, cfg->rate_hz);
	return 0;
}

void
al_result_free(struct al_result *r)
{
	free(r->phases);
	free(r->xrun_events);
	free(r->server_events);
	free(r->windows);
	free(r->spans);
	free(r->segments);
	free(r->period_changes);
	free(r->graph);
	free(r->why);
	r->why = NULL;
	free(r->kwake);
	r->kwake = NULL;
	r->segments = NULL;
	r->n_segments = 0;
	r->period_changes = NULL;
	r->n_period_changes = 0;
	r->graph = NULL;
	r->windows = NULL;
	r->spans = NULL;
	r->n_spans = 0;
	r->phases = NULL;
	r->xrun_events = NULL;
	r->server_events = NULL;
	r->n_phases = 0;
	r->xrun_cap = 0;
}

static inline int64_t
abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

static inline size_t
window_of(const struct al_result *r, int64_t abs_ns)
{
	int64_t t_ns = abs_ns - r->start_mono_ns;

	return t_ns > 0 ? (size_t)(t_ns / r->window_ns) : 0;
}

/* The period's own wake-up, in the window its boundary was due in. */
static inline void
record_window(struct al_result *r, const struct al_sample *s, int phase, int64_t wake_lat_ns,
	      bool new_xrun)
{
	size_t i = window_of(r, s->boundary_ns);
	struct al_window *w;

	if (i >= r->window_cap) {
		r->windows_dropped++;
		return;
	}
	w = &r->windows[i];
	if (!w->periods) {
		w->wake_min_ns = wake_lat_ns;
		w->wake_max_ns = wake_lat_ns;
		w->phase = phase;
	}
	if (wake_lat_ns < w->wake_min_ns)
		w->wake_min_ns = wake_lat_ns;
	if (wake_lat_ns > w->wake_max_ns)
		w->wake_max_ns = wake_lat_ns;
	w->wake_sum_ns += wake_lat_ns;
	if (s->prev_wake_ns && s->wake_ns - s->prev_wake_ns > w->interval_max_ns)
		w->interval_max_ns = s->wake_ns - s->prev_wake_ns;
	w->periods++;
	w->wakeups++;
	if (s->clock_valid) {
		w->delay_sum_frames += s->delay_frames;
		w->rate_diff_sum += s->rate_diff;
		w->clock_n++;
	}
	if (i + 1 > r->n_windows)
		r->n_windows = i + 1;
	if (new_xrun) {
		i = window_of(r, s->xrun_start_ns);
		if (i < r->window_cap) {
			r->windows[i].xruns++;
			if (i + 1 > r->n_windows)
				r->n_windows = i + 1;
		}
	}
}

/* n missed periods charged first, first + step, ... */
static inline void
charge_missed(struct al_period_stats *st, int64_t first_ns, int64_t step_ns, uint64_t n)
{
	al_hist_add_run(&st->missed_ns, first_ns, step_ns, n);
	st->missed_periods += n;
	st->periods += n;
	st->missed_within_1ms += al_hist_run_count_le(first_ns, step_ns, n, AL_NS_PER_MS);
	st->missed_within_2ms += al_hist_run_count_le(first_ns, step_ns, n, 2 * AL_NS_PER_MS);
}

static inline void
keep_span(struct al_result *r, int64_t due_ns, int64_t serve_ns, uint64_t n, int phase,
	  int64_t p_ns, bool keep)
{
	if (!keep)
		return;
	if (r->n_spans < AL_SPANS_MAX)
		r->spans[r->n_spans++] = (struct al_span){ due_ns, serve_ns, n, phase, p_ns };
	else
		r->spans_dropped++;
}

int
al_sample_spans(const struct al_sample *s, int64_t p_ns, struct al_span out[3])
{
	int64_t lat_ns = s->wake_ns - s->boundary_ns;
	uint64_t before = s->missed_before > 0 ? (uint64_t)s->missed_before : 0;
	uint64_t after = s->missed > 0 ? (uint64_t)s->missed : 0, by_wake = 0;
	int n = 0;

	if (p_ns <= 0)
		return 0;
	if (before)
		out[n++] = (struct al_span){ s->boundary_ns - (int64_t)before * p_ns, s->wake_ns,
					     before, 0, p_ns };
	if (!after)
		return n;
	if (lat_ns >= p_ns) {
		by_wake = (uint64_t)(lat_ns / p_ns);
		if (by_wake > after)
			by_wake = after;
		out[n++] = (struct al_span){ s->boundary_ns + p_ns, s->wake_ns, by_wake, 0, p_ns };
	}
	if (after > by_wake) {
		int64_t seen_ns = s->seen_ns > s->wake_ns ? s->seen_ns : s->wake_ns;

		out[n++] = (struct al_span){ s->boundary_ns + (int64_t)(by_wake + 1) * p_ns, seen_ns,
					     after - by_wake, 0, p_ns };
	}
	return n;
}

/*
 * The boundaries this period's wake-up did not have to itself
 * (al_sample_spans): arithmetic runs, a stall of an hour costs what one of
 * a millisecond does. Returns the largest charge.
 */
static int64_t
record_missed(struct al_result *r, struct al_period_stats *st, const struct al_sample *s,
	      int phase, int64_t p_ns, bool keep)
{
	int64_t worst_ns = s->wake_ns - s->boundary_ns;
	struct al_span sp[3];
	int i, n = al_sample_spans(s, p_ns, sp);

	for (i = 0; i < n; i++) {
		/* due, due + P, ... served at serve: charges fall as the due time rises */
		int64_t top_ns = sp[i].serve_ns - sp[i].due_ns;

		charge_missed(st, top_ns - (int64_t)(sp[i].n - 1) * p_ns, p_ns, sp[i].n);
		if (top_ns > worst_ns)
			worst_ns = top_ns;
		keep_span(r, sp[i].due_ns, sp[i].serve_ns, sp[i].n, phase, p_ns, keep);
	}
	return worst_ns;
}

/*
 * The segment this period belongs to: a new one when the server changed
 * its period (a change is also an event). Returns its period.
 */
static int64_t
segment_of(struct al_result *r, const struct al_sample *s, struct al_segment **seg)
{
	int64_t frames = s->period_frames > 0 ? s->period_frames : r->cfg.period_frames;
	int64_t rate = s->rate_hz > 0 ? s->rate_hz : r->cfg.rate_hz;
	struct al_segment *cur = r->n_segments ? &r->segments[r->n_segments - 1] : NULL;

	if (cur && (cur->period_frames == frames && cur->rate_hz == rate)) {
		*seg = cur;
		return cur->period_ns;
	}
	if (cur) {
		if (r->n_period_changes < AL_PERIOD_CHANGES_MAX)
			r->period_changes[r->n_period_changes++] = (struct al_period_change){
				.t_ns = s->boundary_ns - r->start_mono_ns,
				.from_frames = cur->period_frames,
				.from_rate_hz = cur->rate_hz,
				.to_frames = frames,
				.to_rate_hz = rate,
			};
		else
			r->period_changes_dropped++;
	}
	if (r->n_segments >= AL_SEGMENTS_MAX) {
		/* no room: the last stretch goes on at the new period */
		r->segments_merged++;
		cur->period_frames = frames;
		cur->rate_hz = rate;
		cur->period_ns = al_frames_to_ns(frames, rate);
		*seg = cur;
		return cur->period_ns;
	}
	if (cur)
		cur->end_ns = s->boundary_ns;
	cur = &r->segments[r->n_segments];
	cur->start_ns = s->boundary_ns;
	cur->end_ns = 0;
	cur->period_frames = frames;
	cur->rate_hz = rate;
	cur->period_ns = r->n_segments || s->period_frames > 0 ? al_frames_to_ns(frames, rate)
							       : r->period_ns;
	r->n_segments++; /* read after the run */
	*seg = cur;
	return cur->period_ns;
}

/*
 * What a period's xrun evidence does (docs/truth.md, "One xrun
 * definition"): nothing, a new event of ours, more of the last one (its
 * span overlaps it: another source saw the same starvation, or it went
 * on), or a server's notification for a cycle we ran (no event of ours).
 */
enum xrun_kind { XRUN_NONE, XRUN_NEW, XRUN_GROWS, XRUN_SERVER_ONLY };

struct xrun_take {
	enum xrun_kind kind;
	int64_t add_ns;    /* starved time it adds */
	int64_t add_lost;  /* lost periods it adds */
};

/* Hot path: decide against the last event of ours (*end_ns, *lost) and move it on. */
static inline struct xrun_take
xrun_decide(int64_t *end_ns, int64_t *lost, const struct al_sample *s)
{
	int64_t e_ns = s->xrun_start_ns + s->xrun_ns;

	if (!s->xrun_start_ns)
		return (struct xrun_take){ XRUN_NONE, 0, 0 };
	if (s->xrun_source == AL_XRUN_SERVER)
		return (struct xrun_take){ XRUN_SERVER_ONLY, 0, 0 };
	if (*end_ns && s->xrun_start_ns < *end_ns) {
		/* the same starvation: it lasts to the later end, lost what the most said */
		struct xrun_take x = { XRUN_GROWS, e_ns > *end_ns ? e_ns - *end_ns : 0,
				       s->lost_periods > *lost ? s->lost_periods - *lost : 0 };

		*end_ns += x.add_ns;
		*lost += x.add_lost;
		return x;
	}
	*end_ns = e_ns > s->xrun_start_ns ? e_ns : s->xrun_start_ns + 1;
	*lost = s->lost_periods;
	return (struct xrun_take){ XRUN_NEW, s->xrun_ns, s->lost_periods };
}

/* One period into one set of statistics; the largest charge. */
static int64_t
account(struct al_result *r, struct al_period_stats *st, const struct al_sample *s, int phase,
	int64_t p_ns, bool keep, const struct xrun_take *x)
{
	int64_t wake_lat_ns = s->wake_ns - s->boundary_ns, worst_ns = wake_lat_ns;

	st->periods++;
	st->wakeups++;
	al_hist_add(&st->wakeup_ns, wake_lat_ns);
	if (s->missed_before > 0 || s->missed > 0)
		worst_ns = record_missed(r, st, s, phase, p_ns, keep);
	if (s->prev_wake_ns) {
		int64_t interval_ns = s->wake_ns - s->prev_wake_ns;
		int64_t dev_ns = abs64(interval_ns - p_ns);

		al_hist_add(&st->interval_ns, interval_ns);
		st->within_1ms += dev_ns <= AL_NS_PER_MS;
		st->within_2ms += dev_ns <= 2 * AL_NS_PER_MS;
	}
	if (s->work_ns >= 0)
		al_hist_add(&st->work_ns, s->work_ns);
	if (s->margin_ns < st->min_margin_ns)
		st->min_margin_ns = s->margin_ns;
	if (x->kind != XRUN_NONE) {
		if (x->kind == XRUN_NEW)
			st->xruns++;
		if (x->kind == XRUN_SERVER_ONLY)
			st->server_xruns++;
		st->lost_periods += (uint64_t)x->add_lost;
		st->xrun_ns += x->add_ns;
	}
	return worst_ns;
}

int64_t
al_period_stats_record(struct al_period_stats *st, const struct al_sample *s, int64_t period_ns)
{
	struct xrun_take x = xrun_decide(&st->xrun_end_ns, &st->xrun_lost, s);

	/* statistics only: no spans kept, so no result needed */
	return account(NULL, st, s, 0, period_ns, false, &x);
}

/* Hot path: a new event into the first n of events[0..cap), or one more dropped. */
static inline struct al_xrun_event *
event_add(struct al_xrun_event *events, _Atomic size_t *n_events, _Atomic uint64_t *dropped,
	  size_t cap, const struct al_xrun_event *ev)
{
	size_t n = atomic_load_explicit(n_events, memory_order_relaxed);

	if (n >= cap) {
		atomic_fetch_add_explicit(dropped, 1, memory_order_relaxed);
		return NULL;
	}
	events[n] = *ev;
	atomic_store_explicit(n_events, n + 1, memory_order_release);
	return &events[n];
}

void
al_result_record(struct al_result *r, const struct al_sample *s)
{
	int phase = atomic_load_explicit(&r->live.phase, memory_order_relaxed);
	struct al_period_stats *st = &r->phases[phase].stats;
	int64_t wake_lat_ns = s->wake_ns - s->boundary_ns, worst_ns, p_ns = r->period_ns;
	struct al_segment *seg = NULL;
	struct xrun_take x;

	/* (only a server that sets the period says it: the others' never changes) */
	if (r->segments && s->period_frames > 0)
		p_ns = segment_of(r, s, &seg);
	x = xrun_decide(&r->xrun_end_ns, &r->xrun_lost, s);
	worst_ns = account(r, st, s, phase, p_ns, true, &x);
	if (seg)
		account(r, &seg->stats, s, phase, p_ns, false, &x);
	if (x.kind != XRUN_NONE) {
		struct al_xrun_event ev = {
			.t_ns = s->xrun_start_ns - r->start_mono_ns,
			.duration_ns = s->xrun_ns,
			.lost_periods = s->lost_periods,
			.phase = phase,
			.source = s->xrun_source,
			.seen_by = 1u << s->xrun_source,
		};
		size_t n = atomic_load_explicit(&r->n_xrun_events, memory_order_relaxed);

		if (x.kind == XRUN_SERVER_ONLY) {
			event_add(r->server_events, &r->n_server_events, &r->server_events_dropped,
				  r->xrun_cap, &ev);
		} else if (x.kind == XRUN_GROWS) {
			/* (a dropped event grows nothing: the totals above still count it) */
			if (n && !atomic_load_explicit(&r->xrun_events_dropped, memory_order_relaxed)) {
				struct al_xrun_event *last = &r->xrun_events[n - 1];

				last->duration_ns = r->xrun_end_ns - r->start_mono_ns - last->t_ns;
				last->lost_periods = r->xrun_lost;
				last->seen_by |= ev.seen_by;
			}
		} else {
			event_add(r->xrun_events, &r->n_xrun_events, &r->xrun_events_dropped,
				  r->xrun_cap, &ev);
			atomic_fetch_add_explicit(&r->live.xruns, 1, memory_order_relaxed);
		}
	}
	record_window(r, s, phase, wake_lat_ns, x.kind == XRUN_NEW);
	atomic_fetch_add_explicit(&r->live.periods, 1, memory_order_relaxed);
	if (worst_ns > atomic_load_explicit(&r->live.max_wake_ns, memory_order_relaxed))
		atomic_store_explicit(&r->live.max_wake_ns, worst_ns, memory_order_relaxed);
}

/* A run of missed periods into the windows their boundaries were due in. */
static void
spread_span(struct al_result *r, const struct al_span *sp)
{
	int64_t p_ns = sp->period_ns > 0 ? sp->period_ns : r->period_ns;
	int64_t t0_ns = sp->due_ns - r->start_mono_ns;
	uint64_t k = 0, k2, cnt;

	while (k < sp->n) {
		int64_t t_ns = t0_ns + (int64_t)k * p_ns, end_ns, hi_ns, lo_ns;
		size_t i = t_ns > 0 ? (size_t)(t_ns / r->window_ns) : 0;
		struct al_window *w;

		if (i >= r->window_cap) {
			r->windows_dropped += sp->n - k;
			return;
		}
		/* the first due at or after the end of window i */
		end_ns = (int64_t)(i + 1) * r->window_ns;
		k2 = end_ns > t0_ns ? (uint64_t)((end_ns - t0_ns + p_ns - 1) / p_ns) : k + 1;
		if (k2 <= k)
			k2 = k + 1;
		if (k2 > sp->n)
			k2 = sp->n;
		cnt = k2 - k;
		/* charges fall as the due time rises */
		hi_ns = sp->serve_ns - sp->due_ns - (int64_t)k * p_ns;
		lo_ns = sp->serve_ns - sp->due_ns - (int64_t)(k2 - 1) * p_ns;
		w = &r->windows[i];
		if (!w->periods) {
			w->wake_min_ns = lo_ns;
			w->wake_max_ns = hi_ns;
			w->phase = sp->phase;
		}
		if (lo_ns < w->wake_min_ns)
			w->wake_min_ns = lo_ns;
		if (hi_ns > w->wake_max_ns)
			w->wake_max_ns = hi_ns;
		w->wake_sum_ns += (int64_t)((__int128)(hi_ns + lo_ns) * (__int128)cnt / 2);
		w->periods += (uint32_t)cnt;
		if (i + 1 > r->n_windows)
			r->n_windows = i + 1;
		k = k2;
	}
}

void
al_result_finish(struct al_result *r)
{
	size_t i;

	for (i = 0; i < r->n_phases; i++) {
		struct al_period_stats *st = &r->phases[i].stats;

		al_hist_init(&st->wake_ns);
		al_hist_merge(&st->wake_ns, &st->wakeup_ns);
		al_hist_merge(&st->wake_ns, &st->missed_ns);
	}
	al_period_stats_init(&r->total);
	for (i = 0; i < r->n_phases; i++)
		al_period_stats_merge(&r->total, &r->phases[i].stats);
	for (i = 0; i < r->n_spans; i++)
		spread_span(r, &r->spans[i]);
	r->n_spans = 0; /* spread once */
	for (i = 0; i < r->n_segments; i++) {
		struct al_segment *seg = &r->segments[i];
		struct al_period_stats *st = &seg->stats;

		al_hist_init(&st->wake_ns);
		al_hist_merge(&st->wake_ns, &st->wakeup_ns);
		al_hist_merge(&st->wake_ns, &st->missed_ns);
		/* relative to the stream start, once */
		if (r->start_mono_ns && seg->start_ns >= r->start_mono_ns) {
			seg->start_ns -= r->start_mono_ns;
			seg->end_ns = seg->end_ns ? seg->end_ns - r->start_mono_ns : r->duration_ns;
		}
		if (seg->start_ns < 0)
			seg->start_ns = 0;
	}
}

void
al_warnings_vadd(char w[][AL_WARN_LEN], int *n, const char *fmt, va_list ap)
{
	if (*n < AL_WARN_MAX)
		vsnprintf(w[(*n)++], AL_WARN_LEN, fmt, ap);
}

void
al_result_warn(struct al_result *r, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	al_warnings_vadd(r->warnings, &r->n_warnings, fmt, ap);
	va_end(ap);
}

const char *
al_xrun_source_name(enum al_xrun_source s)
{
	static const char *const names[] = {
		[AL_XRUN_DEVICE] = "device", [AL_XRUN_ACCOUNT] = "account",
		[AL_XRUN_COUNTER] = "counter", [AL_XRUN_SERVER] = "server", [AL_XRUN_SIM] = "sim",
		[AL_XRUN_DRIVER] = "driver",
	};

	return (unsigned)s < sizeof(names) / sizeof(names[0]) ? names[s] : "?";
}

double
al_stats_max_latency_pct(const struct al_period_stats *st, int64_t buffer_ns)
{
	if (!st->wake_ns.count || buffer_ns <= 0)
		return NAN;
	return 100.0 * (double)st->wake_ns.max_ns / (double)buffer_ns;
}

double
al_stats_max_interval_pct(const struct al_period_stats *st, int64_t buffer_ns)
{
	if (!st->interval_ns.count || buffer_ns <= 0)
		return NAN;
	return 100.0 * (double)st->interval_ns.max_ns / (double)buffer_ns;
}

double
al_stats_within_pct(const struct al_period_stats *st, int ms)
{
	uint64_t in = ms == 1 ? st->within_1ms + st->missed_within_1ms
			      : st->within_2ms + st->missed_within_2ms;
	uint64_t n = st->interval_ns.count + st->missed_periods;

	if (!n)
		return NAN;
	return 100.0 * (double)in / (double)n;
}

double
al_stats_within_pct_per_wakeup(const struct al_period_stats *st, int ms)
{
	uint64_t n = ms == 1 ? st->within_1ms : st->within_2ms;

	if (!st->interval_ns.count)
		return NAN;
	return 100.0 * (double)n / (double)st->interval_ns.count;
}

void
al_check_tally(const struct al_syscheck *c, int n, struct al_check_tally *t)
{
	int i;

	memset(t, 0, sizeof(*t));
	for (i = 0; i < n; i++) {
		if (!strcmp(c[i].status, "ok"))
			t->ok++;
		else if (!strcmp(c[i].status, "warn"))
			t->warn++;
		else if (!strcmp(c[i].status, "fail"))
			t->fail++;
		else
			t->skip++;
	}
}

void
al_kernel_wake_judge(struct al_kernel_wake *k, const struct al_period_stats *total, bool fitted)
{
	int64_t d_count, d_max_ns;
	size_t n;

	if (!k->measured)
		return;
	k->ours_count = total->wakeups;
	k->ours_max_ns = total->wakeup_ns.count ? total->wakeup_ns.max_ns : 0;
	k->ours_p50_ns = total->wakeup_ns.count ? al_hist_quantile(&total->wakeup_ns, 0.5) : 0;
	d_count = (int64_t)k->count - (int64_t)k->ours_count;
	d_max_ns = k->max_ns - k->ours_max_ns;
	/* within 1 % of ours (and at least 1), maxima within 20 us, nothing dropped */
	k->agree = k->ours_count > 0 && k->dropped == 0 &&
		   llabs(d_count) * 100 <= (long long)k->ours_count &&
		   llabs(d_max_ns) <= AL_KWAKE_MAX_APART_NS;
	if (!k->agree)
		snprintf(k->note, sizeof(k->note),
			 "they diverge: the kernel paired %llu wake-ups, audiolat counted %llu%s; "
			 "maxima %lld us and %lld us%s",
			 (unsigned long long)k->count, (unsigned long long)k->ours_count,
			 k->count < k->ours_count ? " (a period served without sleeping, its thread "
						    "behind, has no wake-up in the kernel)" : "",
			 (long long)(k->max_ns / 1000), (long long)(k->ours_max_ns / 1000),
			 k->dropped ? "; the kernel's table dropped some" : "");
	n = strlen(k->note);
	if (!k->agree && fitted && n < sizeof(k->note))
		snprintf(k->note + n, sizeof(k->note) - n,
			 "; audiolat's boundaries are fitted to the earliest wake-ups, where a floor "
			 "reads 0: the kernel's p50 is %lld us",
			 (long long)(k->p50_ns / 1000));
	else if (!k->agree && k->ours_p50_ns > k->p50_ns && n < sizeof(k->note))
		snprintf(k->note + n, sizeof(k->note) - n,
			 "; audiolat counts from the period boundary, the kernel from the wake-up "
			 "call: the interrupt's and the wait's return are ours only (p50 %lld us, "
			 "the kernel's %lld us)",
			 (long long)(k->ours_p50_ns / 1000), (long long)(k->p50_ns / 1000));
}
