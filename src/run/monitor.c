/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rt.h"
#include "core/spsc.h"
#include "action.h"
#include "monitor.h"

#define ACK_TIMEOUT_NS (1000 * AL_NS_PER_MS)

struct al_monitor_priv {
	size_t n_phases;
	/* the exact statistics: [set][phase], the audio thread writes set `cur` */
	struct al_period_stats *set[2];
	struct al_period_stats *cum;   /* the controller's: every set merged so far */
	_Atomic int want;              /* controller: the set to write */
	_Atomic int cur;               /* audio thread: the set it writes */
	int cur_local;                 /* audio thread */
	int w;                         /* controller: the last want */
	bool pending;                  /* controller: want not yet taken up */
	bool started;                  /* audio thread: the ring knows the stream start */
	/* events, audio thread -> controller (one writer, one reader) */
	struct al_monitor_event ev[AL_MONITOR_EVENTS];
	struct al_spsc ev_idx;
	_Atomic uint64_t ev_full;      /* audio thread: not queued, the queue being full */
	uint64_t ev_full_seen;         /* controller */
	int64_t ev_last_ns;            /* controller: when an event was last handed on, 0: never */
	uint64_t ev_held;              /* controller: events since the last one handed on */
	/* the controller's schedule */
	int64_t next_checkpoint_ns;
	int64_t next_metrics_ns;
	bool checkpoint_due;           /* an action asked for one: armed at the next turn */
	bool checkpoint_now;           /* armed: the spike's explanation was serviced since */
	/* the snapshot */
	struct al_result *snap;
	struct al_phase *snap_phases;
	struct al_window *snap_windows;
};

int
al_monitor_init(struct al_monitor *m, const struct al_monitor_opts *o)
{
	int rc;

	memset(m, 0, sizeof(*m));
	m->o = *o;
	if (m->o.window_ns <= 0)
		m->o.window_ns = 60 * AL_NS_PER_SEC;
	if (m->o.window_ns < 100 * AL_NS_PER_MS || m->o.checkpoint_ns < 0 ||
	    m->o.metrics_interval_ns < 0 || m->o.threshold_ns < 0 || m->o.action_interval_ns < 0)
		return -EINVAL;
	m->p = calloc(1, sizeof(*m->p));
	if (!m->p)
		return -ENOMEM;
	al_mw_ring_init(&m->ring, m->o.window_ns);
	al_mw_live_init(&m->live);
	al_mw_init(&m->last_short, 0, m->o.window_ns);
	al_mw_init(&m->last_long, 0, AL_MONITOR_LONG * m->o.window_ns);
	rc = al_mw_series_init(&m->shortw, m->o.window_ns, AL_MONITOR_WINDOWS);
	if (!rc)
		rc = al_mw_series_init(&m->longw, AL_MONITOR_LONG * m->o.window_ns,
				       AL_MONITOR_WINDOWS);
	m->p->snap = calloc(1, sizeof(*m->p->snap));
	m->p->snap_windows = calloc(AL_MONITOR_WINDOWS, sizeof(*m->p->snap_windows));
	if (rc || !m->p->snap || !m->p->snap_windows) {
		al_monitor_free(m);
		return rc ? rc : -ENOMEM;
	}
	atomic_init(&m->p->want, 0);
	atomic_init(&m->p->cur, 0);
	al_spsc_init(&m->p->ev_idx);
	atomic_init(&m->p->ev_full, 0);
	/* what the audio thread writes: touched now, locked by the run's mlockall */
	al_rt_prefault(m->shortw.w, AL_MONITOR_WINDOWS * sizeof(*m->shortw.w));
	al_rt_prefault(m->longw.w, AL_MONITOR_WINDOWS * sizeof(*m->longw.w));
	return 0;
}

static void
free_sets(struct al_monitor_priv *p)
{
	free(p->set[0]);
	free(p->set[1]);
	free(p->cum);
	free(p->snap_phases);
	p->set[0] = p->set[1] = p->cum = NULL;
	p->snap_phases = NULL;
}

void
al_monitor_free(struct al_monitor *m)
{
	if (m->o.action)
		al_action_reap(m->o.action);
	if (m->p) {
		free_sets(m->p);
		free(m->p->snap);
		free(m->p->snap_windows);
		free(m->p);
		m->p = NULL;
	}
	al_mw_series_free(&m->shortw);
	al_mw_series_free(&m->longw);
}

static void
sets_init(struct al_period_stats *st, size_t n)
{
	for (size_t i = 0; i < n; i++)
		al_period_stats_init(&st[i]);
}

/* Hot path (the audio thread): the period into the set asked for, the windows, the events. */
static void
tap(void *ud, const struct al_sample *s, const struct al_result *r)
{
	struct al_monitor *m = ud;
	struct al_monitor_priv *p = m->p;
	int want = atomic_load_explicit(&p->want, memory_order_acquire);
	int phase = atomic_load_explicit(&r->live.phase, memory_order_relaxed);
	int64_t worst_ns;
	bool late, xrun;

	if (!p->started) {
		m->ring.start_mono_ns = r->start_mono_ns;
		p->started = true;
	}
	if (want != p->cur_local) {
		/* every write to the other set came before this: the controller may read it */
		p->cur_local = want;
		atomic_store_explicit(&p->cur, want, memory_order_release);
	}
	if (phase < 0 || (size_t)phase >= p->n_phases)
		phase = (int)p->n_phases - 1;
	worst_ns = al_period_stats_record(&p->set[want][phase], s, r->period_ns);
	al_mw_record(&m->ring, &m->live, s, r->period_ns);

	late = m->o.threshold_ns > 0 && worst_ns > m->o.threshold_ns;
	xrun = m->o.on_xrun && s->xrun_start_ns;
	if (late || xrun) {
		uint32_t i;

		if (!al_spsc_slot(&p->ev_idx, AL_MONITOR_EVENTS, &i)) {
			atomic_store_explicit(&p->ev_full,
					      atomic_load_explicit(&p->ev_full,
								   memory_order_relaxed) + 1,
					      memory_order_relaxed);
			return;
		}
		p->ev[i] = (struct al_monitor_event){
			.t_ns = (xrun && !late ? s->xrun_start_ns : s->boundary_ns) - r->start_mono_ns,
			.latency_ns = worst_ns,
			.xrun = s->xrun_start_ns != 0,
			.xrun_ns = s->xrun_ns,
		};
		al_spsc_push(&p->ev_idx);
	}
}

/* The closed windows into the archives. all: the run is over, the last one too. */
static void
drain(struct al_monitor *m, int all)
{
	int64_t long_ns = AL_MONITOR_LONG * m->o.window_ns;
	struct al_mw w;

	while (al_mw_ring_take(&m->ring, &w, all)) {
		al_mw_series_push(&m->shortw, &w);
		al_mw_series_push(&m->longw, &w);
		m->last_short = w;
		/* a long window is closed with its last short one */
		if ((w.start_ns + w.len_ns) % long_ns == 0)
			m->last_long = m->longw.w[m->longw.n - 1];
	}
}

/* An event handed on to its action (a failure: one warning); true: a checkpoint now. */
static bool
act(struct al_monitor *m, const struct al_monitor_event *ev)
{
	char line[128];
	int rc = al_action_run(m->o.action, ev, m->started_at_ns);

	if (rc == -EBUSY)
		snprintf(line, sizeof(line),
			 "--on-threshold: %d actions still running; this one skipped",
			 AL_ACTION_CHILDREN);
	else if (rc < 0 && rc != -ENOMEM)
		snprintf(line, sizeof(line), "--on-threshold exec: could not start /bin/sh");
	else
		return rc == 1;
	if (m->o.warn)
		m->o.warn(m->o.ud, line);
	return false;
}

/* Queued events to the action, at most one per action interval. */
static void
events(struct al_monitor *m, int64_t now_ns)
{
	struct al_monitor_priv *p = m->p;
	uint32_t first, k, ready = al_spsc_ready(&p->ev_idx, &first);
	uint64_t full = atomic_load_explicit(&p->ev_full, memory_order_relaxed);

	p->ev_held += full - p->ev_full_seen;
	m->events_suppressed += full - p->ev_full_seen;
	p->ev_full_seen = full;
	for (k = 0; k < ready; k++) {
		struct al_monitor_event ev = p->ev[(first + k) & (AL_MONITOR_EVENTS - 1)];

		al_spsc_pop(&p->ev_idx, 1);
		if (!m->o.action)
			continue;
		if (p->ev_last_ns && now_ns - p->ev_last_ns < m->o.action_interval_ns) {
			p->ev_held++;
			m->events_suppressed++;
			continue;
		}
		ev.suppressed = p->ev_held;
		p->ev_held = 0;
		p->ev_last_ns = now_ns;
		m->events++;
		if (act(m, &ev))
			p->checkpoint_due = true;
	}
}

/* The set the audio thread wrote until now, merged into cum (false: it did not answer yet). */
static bool
switch_sets(struct al_monitor_priv *p)
{
	int64_t deadline_ns = al_clock_now_ns() + ACK_TIMEOUT_NS;

	if (!p->pending) {
		/* the other set was zeroed when it was merged */
		p->w = 1 - p->w;
		atomic_store_explicit(&p->want, p->w, memory_order_release);
		p->pending = true;
	}
	while (atomic_load_explicit(&p->cur, memory_order_acquire) != p->w) {
		if (al_clock_now_ns() >= deadline_ns)
			return false;
		al_clock_sleep_until_ns(al_clock_now_ns() + AL_NS_PER_MS);
	}
	for (size_t i = 0; i < p->n_phases; i++) {
		al_period_stats_merge(&p->cum[i], &p->set[1 - p->w][i]);
		al_period_stats_init(&p->set[1 - p->w][i]);
	}
	p->pending = false;
	return true;
}

/* The short windows as a run's time series. */
static void
snap_windows(struct al_monitor *m, struct al_result *snap)
{
	const struct al_mw_series *s = &m->shortw;
	size_t i, k, n = 0;

	for (i = 0; i < s->n; i++) {
		const struct al_mw *w = &s->w[i];
		struct al_window *o;
		int phase = 0;

		k = (size_t)(w->start_ns / s->len_ns);
		if (k >= AL_MONITOR_WINDOWS)
			break;
		while (n < k) /* windows lost to a stall longer than the ring */
			snap->windows[n++] = (struct al_window){ 0 };
		for (size_t j = 0; j < snap->n_phases; j++)
			if (w->start_ns >= snap->phases[j].start_ns)
				phase = (int)j;
		o = &snap->windows[n++];
		*o = (struct al_window){
			.wake_min_ns = w->periods ? w->wake_min_ns : 0,
			.wake_max_ns = w->periods ? w->wake_max_ns : 0,
			.wake_sum_ns = w->wake_sum_ns,
			.interval_max_ns = w->interval_max_ns,
			.periods = w->periods > UINT32_MAX ? UINT32_MAX : (uint32_t)w->periods,
			.wakeups = w->wakeups > UINT32_MAX ? UINT32_MAX : (uint32_t)w->wakeups,
			.xruns = w->xruns > UINT32_MAX ? UINT32_MAX : (uint32_t)w->xruns,
			.phase = phase,
		};
	}
	snap->n_windows = n;
	snap->window_cap = AL_MONITOR_WINDOWS;
	snap->window_ns = s->len_ns;
	snap->windows_dropped = 0;
	snap->spans = NULL;
	snap->n_spans = 0;
	snap->spans_dropped = 0;
}

const struct al_result *
al_monitor_snapshot(struct al_monitor *m, const struct al_result *r, bool final)
{
	struct al_monitor_priv *p = m->p;
	struct al_result *snap = p->snap;
	size_t i, n;
	int64_t now_ns = al_clock_now_ns();

	/* r's configuration, system, spikes (the controller's), pointers */
	memcpy(snap, r, sizeof(*snap));
	atomic_store(&snap->n_xrun_events,
		     atomic_load_explicit(&r->n_xrun_events, memory_order_acquire));
	atomic_store(&snap->xrun_events_dropped, atomic_load(&r->xrun_events_dropped));
	if (!final) {
		switch_sets(p); /* no answer: the statistics of the last checkpoint */
		n = (size_t)atomic_load(&r->live.phase) + 1;
		if (n > p->n_phases)
			n = p->n_phases;
		snap->phases = p->snap_phases;
		snap->n_phases = n;
		al_period_stats_init(&snap->total);
		for (i = 0; i < n; i++) {
			struct al_phase *ph = &snap->phases[i];
			const struct al_phase *src = &r->phases[i];

			memcpy(ph->name, src->name, sizeof(ph->name));
			memcpy(ph->load, src->load, sizeof(ph->load));
			memcpy(ph->error, src->error, sizeof(ph->error));
			memcpy(ph->throughput, src->throughput, sizeof(ph->throughput));
			ph->n_throughput = src->n_throughput;
			ph->start_ns = src->start_ns;
			ph->end_ns = i + 1 < n ? src->end_ns : now_ns - r->start_mono_ns;
			ph->stats = p->cum[i];
			al_hist_init(&ph->stats.wake_ns);
			al_hist_merge(&ph->stats.wake_ns, &ph->stats.wakeup_ns);
			al_hist_merge(&ph->stats.wake_ns, &ph->stats.missed_ns);
			al_period_stats_merge(&snap->total, &ph->stats);
		}
		snap->duration_ns = now_ns - r->start_mono_ns;
		/* the run goes on: a checkpoint that is the last one was cut short */
		snap->interrupted = true;
	}
	snap->windows = p->snap_windows;
	snap_windows(m, snap);
	return snap;
}

/* metrics() with the figures for metrics, read now */
static void
metrics(struct al_monitor *m)
{
	struct al_mw_totals t;
	struct al_prom_input in;
	uint64_t why[AL_WHY_CLASSES];

	al_mw_live_read(&m->live, &t);
	in = (struct al_prom_input){
		.backend = m->r->cfg.backend, .device = m->r->cfg.device,
		.period_frames = m->r->cfg.period_frames, .t = &t, .last_short = &m->last_short,
		.last_long = &m->last_long, .started_at_ns = m->started_at_ns,
	};
	if (m->r->why) {
		/* the side thread classifies while the run goes on */
		for (int i = 0; i < AL_WHY_CLASSES; i++)
			why[i] = __atomic_load_n(&m->r->why->count[i], __ATOMIC_RELAXED);
		in.why_counts = why;
	}
	m->o.metrics(m->o.ud, &in);
}

/* checkpoint() with the statistics so far and the figures of the document */
static void
checkpoint(struct al_monitor *m, const struct al_result *r)
{
	const struct al_result *snap = al_monitor_snapshot(m, r, false);
	struct al_monitor_doc_input in;
	struct al_mw_totals t;

	al_monitor_doc_input(m, false, &t, &in);
	m->o.checkpoint(m->o.ud, snap, &in);
}

static void
tick(void *ud, struct al_result *r, int64_t now_ns)
{
	struct al_monitor *m = ud;
	struct al_monitor_priv *p = m->p;

	if (!m->start_mono_ns) {
		m->start_mono_ns = r->start_mono_ns;
		m->started_at_ns = r->started_at_ns;
		p->next_checkpoint_ns = now_ns + m->o.checkpoint_ns;
		p->next_metrics_ns = now_ns;
	}
	drain(m, 0);
	events(m, now_ns);
	if (m->o.metrics && m->o.metrics_interval_ns && now_ns >= p->next_metrics_ns) {
		metrics(m);
		p->next_metrics_ns = now_ns + m->o.metrics_interval_ns;
	}
	if (m->o.checkpoint &&
	    (p->checkpoint_now || (m->o.checkpoint_ns && now_ns >= p->next_checkpoint_ns))) {
		checkpoint(m, r);
		m->checkpoints++;
		p->checkpoint_now = false;
		p->next_checkpoint_ns = al_clock_now_ns() + m->o.checkpoint_ns;
	}
	/*
	 * The audio thread queues the event before the flight recorder's
	 * mark: the checkpoint it asked for waits one turn of the loop, which
	 * services the marks first.
	 */
	if (p->checkpoint_due) {
		p->checkpoint_now = true;
		p->checkpoint_due = false;
	}
}

int
al_monitor_run(const struct al_run_opts *ro, struct al_result *r, void *monitor)
{
	struct al_monitor *m = monitor;
	struct al_monitor_priv *p = m->p;
	struct al_run_opts o = *ro;
	size_t n = ro->n_phases ? ro->n_phases : 1;
	int rc;

	free_sets(p);
	p->n_phases = n;
	p->set[0] = calloc(n, sizeof(*p->set[0]));
	p->set[1] = calloc(n, sizeof(*p->set[1]));
	p->cum = calloc(n, sizeof(*p->cum));
	p->snap_phases = calloc(n, sizeof(*p->snap_phases));
	if (!p->set[0] || !p->set[1] || !p->cum || !p->snap_phases) {
		free_sets(p);
		return -ENOMEM;
	}
	/* zeroed and touched before the memory is locked */
	sets_init(p->set[0], n);
	sets_init(p->set[1], n);
	sets_init(p->cum, n);
	o.tap = tap;
	o.tick = tick;
	o.hook_ud = m;
	m->r = r;
	rc = al_run(&o, r);
	if (!r->n_phases)
		return rc;
	/* the audio thread has stopped: the window it was writing is closed too */
	drain(m, 1);
	events(m, al_clock_now_ns());
	if (m->o.metrics)
		metrics(m);
	return rc;
}

void
al_monitor_doc_input(const struct al_monitor *m, bool final, struct al_mw_totals *t,
		     struct al_monitor_doc_input *in)
{
	al_mw_live_read(&m->live, t);
	*in = (struct al_monitor_doc_input){
		.shortw = &m->shortw, .longw = &m->longw, .t = t, .windows_lost = m->ring.lost,
		.checkpoints = m->checkpoints, .events = m->events,
		.events_suppressed = m->events_suppressed, .checkpoint_ns = m->o.checkpoint_ns,
		.threshold_ns = m->o.threshold_ns,
		.on_threshold = m->o.action ? m->o.action->spec : NULL, .final = final,
	};
}

