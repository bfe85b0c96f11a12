/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MIDI timing statistics: which events count, and the figures of the
 * deltas between them (seed 002's "largest delta minus the expected
 * interval" among them). Pure functions over arrays of times.
 */
#ifndef AL_MIDI_ANALYZE_H
#define AL_MIDI_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "smf.h"

enum al_midi_select {
	AL_MIDI_SEL_NOTE_ON = 0, /* note-on with velocity > 0 (the default) */
	AL_MIDI_SEL_NOTE_OFF,    /* note-off, or note-on with velocity 0 */
	AL_MIDI_SEL_ALL,         /* every channel message and sysex */
};

struct al_midi_filter {
	int events;   /* enum al_midi_select */
	int channel;  /* 1..16; 0: every channel */
};

/* "note-on", "note-off", "all" -> enum; 0 or -EINVAL. */
int al_midi_select_parse(const char *s, int *out);
const char *al_midi_select_name(int sel);

/* Does a message count? status 0x80..0xEF, or 0xF0/0xF7 for sysex. */
bool al_midi_filter_match(const struct al_midi_filter *f, uint8_t status, uint8_t d1, uint8_t d2);

/* Exact figures of a set of values (sorted copy, nearest-rank percentiles). */
struct al_midi_summary {
	uint64_t count;
	int64_t min_ns;
	int64_t max_ns;
	int64_t mean_ns;         /* rounded to the nearest ns */
	int64_t median_ns;       /* the mean of the two middle values for an even count */
	int64_t p99_ns;          /* nearest rank */
	int64_t stddev_ns;       /* population standard deviation */
	int64_t mean_abs_dev_ns; /* mean |value - mean| (average jitter) */
};

/* Summarize n values (any order). 0, or -ENOMEM; n == 0 gives all zeros. */
int al_midi_summarize(const int64_t *v_ns, size_t n, struct al_midi_summary *s);

/* A linear histogram for display: rows of step_ns from start_ns, exact counts. */
#define AL_MIDI_LINHIST_ROWS 21
struct al_midi_linhist {
	int64_t start_ns;
	int64_t step_ns;           /* 1, 2 or 5 x 10^k ns */
	int rows;                  /* 0 when empty */
	uint64_t count[AL_MIDI_LINHIST_ROWS];
};

/* Fill lh with n values (any order) between min_ns and max_ns, in at most 20 round steps. */
void al_midi_linhist_fill(struct al_midi_linhist *lh, const int64_t *v_ns, size_t n);

/*
 * The deltas over time, for a timeline: per window of timeline_window_ns
 * from the first event, the shortest and longest delta ending in it.
 * Bounded: longer recordings get longer windows.
 */
#define AL_MIDI_TIMELINE_MAX 2000
#define AL_MIDI_TIMELINE_WINDOW_NS 1000000000LL /* 1 s at the least */

struct al_midi_window {
	int64_t t_ns;          /* window start, relative to the first event */
	int64_t delta_min_ns;
	int64_t delta_max_ns;
	uint32_t deltas;       /* 0: no event ended a delta in this window */
};

struct al_midi_stats {
	uint64_t events;            /* selected events */
	uint64_t deltas;            /* events - 1 (0 when fewer than 2 events) */
	int64_t interval_ns;        /* given, or the median delta (auto) */
	bool interval_auto;
	bool interval_mode;         /* auto, but the median was 0 (events bunched in one
				     * cycle): the most frequent non-zero delta instead */
	struct al_midi_summary delta; /* of the deltas */
	int64_t jitter_max_ns;      /* delta max - interval (seed 002's figure) */
	int64_t jitter_abs_max_ns;  /* max |delta - interval| */
	int64_t jitter_mean_abs_ns; /* mean |delta - interval| */
	int64_t first_ns, last_ns;  /* times of the first and last selected event */
	struct al_hist hist;        /* the deltas */
	struct al_hist jitter_hist; /* |delta - interval|: finer buckets near 0 */
	struct al_midi_linhist delta_lin;  /* the deltas, for display */
	struct al_midi_linhist jitter_lin; /* |delta - interval|, for display */
	int64_t timeline_window_ns;
	size_t n_timeline;                 /* windows up to the last event */
	struct al_midi_window timeline[AL_MIDI_TIMELINE_MAX];
};

/*
 * Statistics of event times t_ns[0..n) (non-decreasing). interval_ns > 0
 * is the expected interval; 0 takes the median delta, or, when that is 0
 * (a server that delivers several events in one cycle: bunched), the most
 * frequent non-zero delta (the fullest histogram bucket above 0, its
 * midpoint; interval_mode says so). With fewer than two
 * events every delta figure is 0. Returns 0, -EINVAL (times go backwards)
 * or -ENOMEM.
 */
int al_midi_analyze_times(const int64_t *t_ns, size_t n, int64_t interval_ns,
			  struct al_midi_stats *st);

/*
 * The statistics of the events t_ns[0..n) (in time order) in [from_ns,
 * to_ns) (0: open), into a new *out (free it): the delta from the event
 * before the stretch belongs to it; st->events counts those inside.
 * Returns as al_midi_analyze_times(); *out is set even on failure.
 */
int al_midi_analyze_stretch(const int64_t *t_ns, size_t n, int64_t interval_ns, int64_t from_ns,
			    int64_t to_ns, struct al_midi_stats **out);

/* The selected events of a parsed file, then al_midi_analyze_times(). */
int al_midi_analyze_smf(const struct al_smf *smf, const struct al_midi_filter *f,
			int64_t interval_ns, struct al_midi_stats *st);

#endif
