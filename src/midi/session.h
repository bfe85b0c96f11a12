/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The live MIDI measurement of audiolat midi record and loop: an open port,
 * the load phases run through the phase driver (src/load/phases.h) while
 * the port measures, and what it hands over collected in arrival order;
 * then the MIDI file of a recording and the statistics of a stretch of it.
 * Not real-time: the port's own thread measures (port.h).
 *
 *	struct al_midi_session s = { .port = p, .loop = false, .filter = &f, ... };
 *	al_midi_session_run(&s);      -> s.msgs[0..n_msgs), s.phases[0..n_phases)
 *	al_midi_port_stop(p); al_midi_session_collect(&s);
 *	al_midi_session_free(&s);
 */
#ifndef AL_MIDI_SESSION_H
#define AL_MIDI_SESSION_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "load/load.h"
#include "analyze.h"
#include "port.h"

/* The record file: 1000 ticks per quarter at 1000 us per quarter = 1 us a tick. */
#define AL_MIDI_REC_PPQ 1000
#define AL_MIDI_REC_TEMPO_US 1000

struct al_midi_session {
	/* in */
	struct al_midi_port *port;          /* open (the caller's; measuring) */
	bool loop;                          /* probes and echoes; else a recording */
	const struct al_midi_filter *filter; /* record: the events that count */
	int64_t interval_ns;                /* record: for the live figure; 0: auto */
	long count;                         /* loop: end after this many probes; 0: no end */
	const struct al_phase_spec *spec;   /* the load phases (NULL, 0: one idle phase) */
	size_t n_spec;
	const struct al_load_opts *load_opts;
	int64_t duration_ns;                /* 0: until the stop flag */
	volatile sig_atomic_t *stop_requested;
	/* the live status line, every status_ns (may be NULL) */
	void (*status)(void *ud, const struct al_midi_session *s, int64_t now_ns);
	void *status_ud;
	int64_t status_ns;

	/* out */
	struct al_midi_msg *msgs;           /* in arrival order */
	size_t n_msgs, cap_msgs;
	struct al_phase *phases;            /* the phases begun: n_phases */
	size_t n_phases;
	int64_t start_ns;                   /* CLOCK_MONOTONIC; phases count from it */
	bool interrupted;                   /* the stop flag ended it */
	bool failed;                        /* the port failed, or no memory: err says */
	char err[AL_WARN_LEN];
	/* live figures */
	uint64_t selected;                  /* events (record) or probes (loop) so far */
	int64_t last_sel_ns;
	int64_t live_max_ns;                /* record: max |delta - interval| or delta; loop: latency */
	uint64_t lost;                      /* loop: probes without an echo */
};

/* A time to the microsecond: the tick of the record file. */
static inline int64_t
al_midi_quantize(int64_t t_ns)
{
	return t_ns >= 0 ? t_ns / 1000 * 1000 : -((-t_ns + 999) / 1000 * 1000);
}

/* A message of a recording that counts as an event (not real-time, and the filter's). */
bool al_midi_session_selected(const struct al_midi_session *s, const struct al_midi_msg *m);

/*
 * Run the phases until the end, the stop flag, a loop's count, or a
 * failure (s->failed, s->err). Returns 0, or -ENOMEM before it began.
 */
int al_midi_session_run(struct al_midi_session *s);

/* Take what the port still has (after al_midi_port_stop()). 0 or -ENOMEM. */
int al_midi_session_collect(struct al_midi_session *s);

/*
 * Write the messages (in time order) as a type-0 MIDI file at path, ticks
 * of 1 us from origin_us, its end at end_us; what a file cannot hold
 * (real-time and system common messages, malformed ones) is counted in
 * *not_in_file. 0, or -errno with one line in err.
 */
int al_midi_session_write_smf(const struct al_midi_session *s, const char *path,
			      int64_t origin_us, int64_t end_us, uint64_t *not_in_file, char *err,
			      size_t err_size);

void al_midi_session_free(struct al_midi_session *s);

#endif
