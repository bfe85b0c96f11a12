/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MIDI timing statistics: which events count, and the figures of the
 * deltas between them (seed 002's "largest delta minus the expected
 * interval" among them). Pure functions over arrays of times. The types
 * (the filter, the summary, struct al_midi_stats) are core/midi-result.h's.
 */
#ifndef AL_MIDI_ANALYZE_H
#define AL_MIDI_ANALYZE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "core/midi-result.h"
#include "smf.h"

/* Does a message count? status 0x80..0xEF, or 0xF0/0xF7 for sysex. */
bool al_midi_filter_match(const struct al_midi_filter *f, uint8_t status, uint8_t d1, uint8_t d2);

/* Summarize n values (any order). 0, or -ENOMEM; n == 0 gives all zeros. */
int al_midi_summarize(const int64_t *v_ns, size_t n, struct al_midi_summary *s);

/* Fill lh with n values (any order) between min_ns and max_ns, in at most 20 round steps. */
void al_midi_linhist_fill(struct al_midi_linhist *lh, const int64_t *v_ns, size_t n);

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
