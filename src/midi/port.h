/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MIDI ports for audiolat midi send/record/loop/thru, one interface over
 * three APIs:
 *
 *	jack     JACK MIDI ports; times are the events' frame times mapped onto
 *	         CLOCK_MONOTONIC (jack_frames_to_time on JACK's clock, which is
 *	         identified when the port opens: CLOCK_MONOTONIC, or
 *	         CLOCK_MONOTONIC_RAW as in Debian 12's jackd2, mapped each cycle)
 *	rawmidi  ALSA rawmidi (hw:C,D); input stamped by the kernel (framing
 *	         mode, CLOCK_MONOTONIC) when the kernel and alsa-lib allow it,
 *	         else at read time
 *	seq      ALSA sequencer (client:port); input stamped by a real-time queue
 *
 * The real-time parts run in the JACK process callback or in a reader /
 * prober thread of the port; they hand messages to the caller through
 * lock-free rings (al_midi_port_drain). al_midi_port_send() is called from
 * the caller's timing thread and does no allocation.
 */
#ifndef AL_MIDI_PORT_H
#define AL_MIDI_PORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/hist.h"
#include "midi.h"

enum al_midi_api {
	AL_MIDI_API_JACK = 0,
	AL_MIDI_API_RAWMIDI,
	AL_MIDI_API_SEQ,
	AL_MIDI_API_COUNT,
};

enum al_midi_mode {
	AL_MIDI_MODE_SEND = 0, /* an output, fed by al_midi_port_send() */
	AL_MIDI_MODE_RECORD,   /* an input, read with al_midi_port_drain() */
	AL_MIDI_MODE_LOOP,     /* probes out, echoes in: one in flight */
	AL_MIDI_MODE_THRU,     /* JACK only: input copied to the output */
};

/* "jack", "rawmidi", "seq" -> enum; 0 or -EINVAL. */
int al_midi_api_parse(const char *s, int *api);
const char *al_midi_api_name(int api);
/* NULL when built in, else why not ("built without libjack"). */
const char *al_midi_api_unavailable(int api);

struct al_midi_port_cfg {
	int api;
	int mode;
	const char *out;          /* send, loop, thru: destination port (NULL: none, JACK only) */
	const char *in;           /* record, loop, thru: source port (NULL: none, JACK only) */
	const char *server;       /* JACK server name; NULL: $JACK_DEFAULT_SERVER or default */
	const char *client_name;  /* JACK/seq client name; NULL: "audiolat-midi" */
	int prio;                 /* reader/prober thread: SCHED_FIFO priority, 0: none */
	size_t ring_msgs;         /* ring capacity (messages); 0: 4096 */
	int64_t loop_timeout_ns;  /* loop: no echo after this -> lost (0: 1 s) */
	int64_t loop_gap_ns;      /* loop: pause after an echo (0: none) */
};

struct al_midi_port_info {
	char timestamp_source[48]; /* "jack-frame-time", "rawmidi-framing-monotonic", ... */
	char timestamp_note[192];  /* why a fallback was taken, "" */
	char in_name[160];         /* our input / output as the API names them */
	char out_name[160];
	uint32_t rate_hz;          /* JACK */
	uint32_t period_frames;    /* JACK */
	bool server_realtime;      /* JACK: the process thread is real-time */
	char jack_clock[24];       /* JACK's clock: "CLOCK_MONOTONIC", "CLOCK_MONOTONIC_RAW", "other" */
	bool clock_monotonic;      /* JACK: its clock is CLOCK_MONOTONIC itself */
	int64_t clock_offset_ns;   /* JACK clock - CLOCK_MONOTONIC at the start (0 when the same) */
	bool thread_realtime;      /* the reader/prober thread got SCHED_FIFO */
};

struct al_midi_port_counters {
	uint64_t sent;             /* loop: probes sent; send: messages queued (JACK) */
	uint64_t cycles;           /* JACK process cycles */
	uint64_t irregular;        /* JACK cycles not starting a period after the last one */
	uint64_t xruns;            /* JACK xruns, rawmidi input overruns (bytes) */
	uint64_t late;             /* send: messages that missed their frame */
	uint64_t dropped;          /* messages lost to a full ring */
	uint64_t unexpected;       /* loop: echoes that matched no probe */
	uint64_t ignored;          /* record: real-time, long sysex, stray bytes */
	struct al_hist *wake_ns;   /* JACK: callback start - cycle start (wall clock); may be NULL */
};

/* A message, or in loop mode a probe (seq, sent at ref_ns, echo at t_ns). */
#define AL_MIDI_MSG_LOST 0x10    /* loop: no echo within the timeout (t_ns = 0) */

struct al_midi_port;

/*
 * Open the port and start it (JACK: activate and connect; ALSA: start the
 * reader or prober thread). Errors, with one line in err:
 * -ENOTSUP (API not built in), -ENOENT/-ENODEV (no server, no device,
 * no /dev/snd), -EINVAL (a bad port name or mode), -EPERM, -EIO.
 */
int al_midi_port_open(const struct al_midi_port_cfg *cfg, struct al_midi_port **out,
		      struct al_midi_port_info *info, char *err, size_t err_size);

/* Send one message now (m->t_ns is set to the time it went out). HOT. */
int al_midi_port_send(struct al_midi_port *p, struct al_midi_msg *m);

/* Take up to max received messages (record) or finished probes (loop). */
size_t al_midi_port_drain(struct al_midi_port *p, struct al_midi_msg *out, size_t max);

/* Counters so far; the histogram is the port's (valid until close). */
void al_midi_port_counters(struct al_midi_port *p, struct al_midi_port_counters *c);

/* 0 while the port works, else -errno and err says why (server gone, device error). */
int al_midi_port_status(struct al_midi_port *p, char *err, size_t err_size);

/*
 * Stop receiving and sending (JACK: deactivate, ALSA: end the thread);
 * the counters are final afterwards and al_midi_port_drain() still gives
 * what arrived before. Idempotent.
 */
void al_midi_port_stop(struct al_midi_port *p);

/* Stop, disconnect and free. */
void al_midi_port_close(struct al_midi_port *p);

/*
 * The test stream: note-on / note-off pairs at rate_hz (note-on at
 * start + k / rate, note-off half an interval later) until stop or
 * duration, from a thread sleeping to absolute CLOCK_MONOTONIC times at
 * SCHED_FIFO prio (0: none).
 */
struct al_midi_sender;
struct al_midi_sender_stats {
	uint64_t sent;             /* messages */
	uint64_t errors;           /* sends that failed */
	int64_t late_max_ns;       /* worst wake-up after the due time */
	bool realtime;             /* SCHED_FIFO applied */
};
int al_midi_sender_start(struct al_midi_port *p, double rate_hz, int64_t start_ns, int prio,
			 int channel, struct al_midi_sender **out);
void al_midi_sender_stats(struct al_midi_sender *s, struct al_midi_sender_stats *st);
/* Stop and free the sender; final (may be NULL) gets its figures after the last message. */
void al_midi_sender_stop(struct al_midi_sender *s, struct al_midi_sender_stats *final);

#endif
