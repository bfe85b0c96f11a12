/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor (docs/monitor.md): one run (al_run: the same audio
 * thread and per-period statistics) for as long as it is let, at a
 * constant memory cost, with
 *   - windows of window_ns and 5 * window_ns (core/mwin.h) kept in
 *     archives of AL_MONITOR_WINDOWS each (halved in resolution when full);
 *   - a cumulative histogram readable at any time (live), for metrics;
 *   - checkpoints: every checkpoint_ns the statistics so far, exact
 *     (al_period_stats: two sets the audio thread switches between when
 *     asked, merged on the controlling thread), handed to checkpoint() as
 *     a result the report and the store take like any other;
 *   - events: a period later than threshold_ns, or an xrun, queued by the
 *     audio thread (lock-free, at most AL_MONITOR_EVENTS waiting) and
 *     handed to the action (action.h) on the controlling thread, at most
 *     one per action_interval_ns (the rest counted).
 * Every callback runs on the controlling thread, never on the audio one.
 *
 * Memory, fixed before the run starts: the run's result (al_result_alloc)
 * plus 3 * n_phases * sizeof(struct al_period_stats) (349 KiB each), the
 * ring (AL_MW_RING windows), 2 * AL_MONITOR_WINDOWS windows and as many
 * time-series rows for the snapshot: about 7 MiB with one phase.
 */
#ifndef AL_RUN_MONITOR_H
#define AL_RUN_MONITOR_H

#include <stdbool.h>
#include <stdint.h>

#include "core/monitor-figures.h"
#include "core/mwin.h"
#include "core/result.h"
#include "run.h"

#define AL_MONITOR_WINDOWS 4096  /* per archive: 2.8 days of 1-min, 14 days of 5-min windows */
#define AL_MONITOR_EVENTS 64 /* power of two */
#define AL_MONITOR_LONG 5        /* the long window is 5 short ones */

/* A threshold event, as the audio thread saw it. */
struct al_monitor_event {
	int64_t t_ns;          /* the period boundary (or the xrun's start), from the stream start */
	int64_t latency_ns;    /* the period's largest charge */
	bool xrun;             /* an xrun began with this period */
	int64_t xrun_ns;       /* its duration */
	uint64_t suppressed;   /* events since the last one handed on (rate limit, full queue) */
};

struct al_monitor;
struct al_action;

struct al_monitor_opts {
	int64_t window_ns;          /* the short window (the long one is 5 times it); 0: 1 min */
	int64_t checkpoint_ns;      /* 0: no checkpoint before the end */
	int64_t metrics_interval_ns; /* metrics() every ...; 0: never */
	int64_t threshold_ns;       /* 0: no latency events */
	bool on_xrun;               /* an xrun is an event */
	int64_t action_interval_ns; /* at most one action per ... */
	/*
	 * snap: the statistics so far (phases, total, xrun events, the short
	 * windows as its time series) and in the monitor's figures for its
	 * document (in->final false: the end is saved by the caller of
	 * al_monitor_run), both valid during the call.
	 */
	void (*checkpoint)(void *ud, const struct al_result *snap,
			   const struct al_monitor_doc_input *in);
	/* the figures for metrics, read now (valid during the call) */
	void (*metrics)(void *ud, const struct al_prom_input *in);
	/*
	 * --on-threshold (action.h): run for each event handed on (a trace
	 * action: a checkpoint at once, the flight recorder's explanation
	 * saved); NULL: none, and no event is handed on. Its exec: commands
	 * still running are collected by al_monitor_free().
	 */
	struct al_action *action;
	/* a line for the user, now (an action that could not run); NULL: none */
	void (*warn)(void *ud, const char *line);
	void *ud;
};

struct al_monitor {
	struct al_monitor_opts o;
	struct al_mw_ring ring;
	struct al_mw_live live;
	struct al_mw_series shortw;   /* window_ns windows */
	struct al_mw_series longw;    /* 5 * window_ns windows */
	struct al_mw last_short;      /* the newest closed window of each (periods 0: none yet) */
	struct al_mw last_long;
	int64_t start_mono_ns;        /* the stream start, 0 until it started */
	int64_t started_at_ns;        /* epoch ns of the stream start */
	uint64_t checkpoints;         /* checkpoints made */
	uint64_t events;              /* events handed to event() */
	uint64_t events_suppressed;   /* events not handed on (rate limit, full queue) */
	const struct al_result *r;    /* the run's result, from al_monitor_run() on */
	/* private */
	struct al_monitor_priv *p;
};

/* 0, -EINVAL (a bad option), -ENOMEM. */
int al_monitor_init(struct al_monitor *m, const struct al_monitor_opts *o);
void al_monitor_free(struct al_monitor *m);

/*
 * al_run(ro, r) with the hooks of the monitor (a struct al_monitor *):
 * the same contract as al_run, and the signature of struct al_measure's
 * measure, so that al_run_measure() runs it. Before it returns (also after
 * SIGTERM's stop), the last windows are taken and metrics() is called
 * once more; the caller saves the end (al_monitor_snapshot(m, r, true)).
 */
int al_monitor_run(const struct al_run_opts *ro, struct al_result *r, void *monitor);

/*
 * The result to save now: r's configuration with the monitor's exact
 * statistics so far (the set the audio thread last switched away from;
 * final: r's own, the run being over) and the short windows as its time
 * series. Valid until the next call and while r is; the controlling
 * thread's only.
 */
const struct al_result *al_monitor_snapshot(struct al_monitor *m, const struct al_result *r,
					    bool final);

/*
 * The monitor's figures now for its document (core/monitor-figures.h;
 * final: the end of the run, after al_monitor_run()), as checkpoint()
 * gets them: they point into m and into t, which gets the live totals.
 */
void al_monitor_doc_input(const struct al_monitor *m, bool final, struct al_mw_totals *t,
			  struct al_monitor_doc_input *in);

#endif
