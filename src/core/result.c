/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clock.h"
#include "result.h"
#include "rt.h"

void
al_period_stats_init(struct al_period_stats *st)
{
	memset(st, 0, sizeof(*st));
	st->min_margin_ns = INT64_MAX;
	al_hist_init(&st->wake_ns);
	al_hist_init(&st->interval_ns);
	al_hist_init(&st->work_ns);
}

void
al_period_stats_merge(struct al_period_stats *dst, const struct al_period_stats *src)
{
	dst->periods += src->periods;
	dst->missed_periods += src->missed_periods;
	dst->xruns += src->xruns;
	dst->lost_periods += src->lost_periods;
	dst->within_1ms += src->within_1ms;
	dst->within_2ms += src->within_2ms;
	dst->xrun_ns += src->xrun_ns;
	if (src->min_margin_ns < dst->min_margin_ns)
		dst->min_margin_ns = src->min_margin_ns;
	al_hist_merge(&dst->wake_ns, &src->wake_ns);
	al_hist_merge(&dst->interval_ns, &src->interval_ns);
	al_hist_merge(&dst->work_ns, &src->work_ns);
}

int
al_result_alloc(struct al_result *r, const struct al_config *cfg, size_t n_phases,
		size_t xrun_cap)
{
	size_t i;

	memset(r, 0, sizeof(*r));
	r->cfg = *cfg;
	r->dma_latency_us = -1;
	/* windows of 100 ms (or as set), longer when the run would need too many */
	r->window_ns = cfg->window_ns > 0 ? cfg->window_ns : AL_WINDOW_DEFAULT_NS;
	if (cfg->duration_ns / r->window_ns >= AL_WINDOWS_MAX - 2)
		r->window_ns = cfg->duration_ns / (AL_WINDOWS_MAX - 2) + 1;
	r->window_cap = (size_t)(cfg->duration_ns / r->window_ns) + 2;
	if (r->window_cap > AL_WINDOWS_MAX)
		r->window_cap = AL_WINDOWS_MAX;
	r->phases = calloc(n_phases ? n_phases : 1, sizeof(*r->phases));
	r->xrun_events = calloc(xrun_cap ? xrun_cap : 1, sizeof(*r->xrun_events));
	r->windows = calloc(r->window_cap, sizeof(*r->windows));
	if (!r->phases || !r->xrun_events || !r->windows) {
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
	al_rt_prefault(r->xrun_events, xrun_cap * sizeof(*r->xrun_events));
	al_rt_prefault(r->windows, r->window_cap * sizeof(*r->windows));
	r->period_ns = al_frames_to_ns(cfg->period_frames, cfg->rate_hz);
	r->buffer_ns = al_frames_to_ns(cfg->period_frames * cfg->periods, cfg->rate_hz);
	return 0;
}

void
al_result_free(struct al_result *r)
{
	free(r->phases);
	free(r->xrun_events);
	free(r->windows);
	r->windows = NULL;
	r->phases = NULL;
	r->xrun_events = NULL;
	r->n_phases = 0;
	r->xrun_cap = 0;
}

static inline int64_t
abs64(int64_t v)
{
	return v < 0 ? -v : v;
}

static inline void
record_window(struct al_result *r, const struct al_sample *s, int phase, int64_t wake_lat_ns)
{
	int64_t t_ns = s->wake_ns - r->start_mono_ns;
	size_t i = t_ns > 0 ? (size_t)(t_ns / r->window_ns) : 0;
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
	w->xruns += s->xrun_start_ns != 0;
	if (i + 1 > r->n_windows)
		r->n_windows = i + 1;
}

void
al_result_record(struct al_result *r, const struct al_sample *s)
{
	int phase = atomic_load_explicit(&r->live.phase, memory_order_relaxed);
	struct al_period_stats *st = &r->phases[phase].stats;
	int64_t wake_lat_ns = s->wake_ns - s->boundary_ns;

	st->periods++;
	st->missed_periods += (uint64_t)s->missed;
	al_hist_add(&st->wake_ns, wake_lat_ns);
	if (s->prev_wake_ns) {
		int64_t interval_ns = s->wake_ns - s->prev_wake_ns;
		int64_t dev_ns = abs64(interval_ns - r->period_ns);

		al_hist_add(&st->interval_ns, interval_ns);
		st->within_1ms += dev_ns <= AL_NS_PER_MS;
		st->within_2ms += dev_ns <= 2 * AL_NS_PER_MS;
	}
	if (s->work_ns >= 0)
		al_hist_add(&st->work_ns, s->work_ns);
	if (s->margin_ns < st->min_margin_ns)
		st->min_margin_ns = s->margin_ns;
	if (s->xrun_start_ns) {
		size_t n = atomic_load_explicit(&r->n_xrun_events, memory_order_relaxed);

		st->xruns++;
		st->lost_periods += (uint64_t)s->lost_periods;
		st->xrun_ns += s->xrun_ns;
		if (n < r->xrun_cap) {
			r->xrun_events[n] = (struct al_xrun_event){
				.t_ns = s->xrun_start_ns - r->start_mono_ns,
				.duration_ns = s->xrun_ns,
				.lost_periods = s->lost_periods,
				.phase = phase,
			};
			atomic_store_explicit(&r->n_xrun_events, n + 1, memory_order_release);
		} else {
			atomic_fetch_add_explicit(&r->xrun_events_dropped, 1, memory_order_relaxed);
		}
		atomic_fetch_add_explicit(&r->live.xruns, 1, memory_order_relaxed);
	}
	record_window(r, s, phase, wake_lat_ns);
	atomic_fetch_add_explicit(&r->live.periods, 1, memory_order_relaxed);
	if (wake_lat_ns > atomic_load_explicit(&r->live.max_wake_ns, memory_order_relaxed))
		atomic_store_explicit(&r->live.max_wake_ns, wake_lat_ns, memory_order_relaxed);
}

void
al_result_finish(struct al_result *r)
{
	size_t i;

	al_period_stats_init(&r->total);
	for (i = 0; i < r->n_phases; i++)
		al_period_stats_merge(&r->total, &r->phases[i].stats);
}

void
al_result_warn(struct al_result *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_warnings >= AL_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->n_warnings++], AL_WARN_LEN, fmt, ap);
	va_end(ap);
}

double
al_stats_max_interval_pct(const struct al_period_stats *st, int64_t buffer_ns)
{
	if (!st->interval_ns.count || buffer_ns <= 0)
		return 0;
	return 100.0 * (double)st->interval_ns.max_ns / (double)buffer_ns;
}

double
al_stats_within_pct(const struct al_period_stats *st, int ms)
{
	uint64_t n = ms == 1 ? st->within_1ms : st->within_2ms;

	if (!st->interval_ns.count)
		return 0;
	return 100.0 * (double)n / (double)st->interval_ns.count;
}
