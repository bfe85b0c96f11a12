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
#include "core/midi-result.h" /* the API names, the port info and counters */
#include "midi.h"

enum al_midi_mode {
	AL_MIDI_MODE_SEND = 0, /* an output, fed by al_midi_port_send() */
	AL_MIDI_MODE_RECORD,   /* an input, read with al_midi_port_drain() */
	AL_MIDI_MODE_LOOP,     /* probes out, echoes in: one in flight */
	AL_MIDI_MODE_THRU,     /* JACK only: input copied to the output */
};

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
int al_midi_sender_start(struct al_midi_port *p, double rate_hz, int64_t start_ns, int prio,
			 int channel, struct al_midi_sender **out);
void al_midi_sender_stats(struct al_midi_sender *s, struct al_midi_sender_stats *st);
/* Stop and free the sender; final (may be NULL) gets its figures after the last message. */
void al_midi_sender_stop(struct al_midi_sender *s, struct al_midi_sender_stats *final);

#endif
