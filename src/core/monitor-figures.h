/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor's figures as plain data: src/run/monitor.c reads them
 * off the running monitor for its checkpoint and metrics callbacks (and
 * al_monitor_doc_input() at the end), src/report renders them (the "monitor" object of its document,
 * monitor-doc.c; the Prometheus exposition, prom.c).
 */
#ifndef AL_CORE_MONITOR_FIGURES_H
#define AL_CORE_MONITOR_FIGURES_H

#include <stdbool.h>
#include <stdint.h>

#include "mwin.h"

/* What metrics show: the run's configuration, the totals, the newest closed windows. */
struct al_prom_input {
	const char *backend;
	const char *device;          /* "" when none */
	int64_t period_frames;
	const struct al_mw_totals *t;
	const struct al_mw *last_short; /* the newest closed short window; periods 0: none yet */
	const struct al_mw *last_long;
	int64_t started_at_ns;       /* epoch ns of the stream start, 0: not started */
	/* events classified per cause (AL_WHY_CLASSES, core/why.h), NULL: causes not collected */
	const uint64_t *why_counts;
};

/* What a monitor result adds to its run document ("monitor": docs/json.md). */
struct al_monitor_doc_input {
	const struct al_mw_series *shortw;
	const struct al_mw_series *longw;
	const struct al_mw_totals *t;
	uint64_t windows_lost;        /* windows a stall longer than the ring overran */
	uint64_t checkpoints;
	uint64_t events;
	uint64_t events_suppressed;
	int64_t checkpoint_ns;        /* 0: none */
	int64_t threshold_ns;         /* 0: none */
	const char *on_threshold;     /* "exec:...", NULL */
	bool final;                   /* the end of the run, not a checkpoint */
};

#endif
