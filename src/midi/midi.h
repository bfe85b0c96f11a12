/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MIDI messages as audiolat handles them: a stamped short message, a
 * parser that cuts a byte stream (rawmidi) into messages, and a lock-free
 * single-producer single-consumer ring that carries messages between a
 * real-time thread (JACK process callback, reader, sender) and the
 * controller. al_midi_ring_push/peek/pop do no allocation and no syscall.
 */
#ifndef AL_MIDI_MIDI_H
#define AL_MIDI_MIDI_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/spsc.h"

#define AL_MIDI_MSG_SYSEX 0x01    /* a complete sysex (data holds F0 only) */
#define AL_MIDI_MSG_REALTIME 0x02 /* F8..FF */

struct al_midi_msg {
	int64_t t_ns;      /* CLOCK_MONOTONIC: when it arrived, or when it was sent */
	int64_t ref_ns;    /* loop: when the probe was sent */
	int64_t wall_ns;   /* loop: the round trip on CLOCK_MONOTONIC (JACK: callback to callback) */
	int32_t frames;    /* loop, JACK: the round trip in frames */
	uint32_t seq;      /* loop: the sequence number of the probe */
	uint8_t len;       /* bytes in data, 1..3 */
	uint8_t data[3];
	uint8_t flags;     /* AL_MIDI_MSG_* */
};

/* The byte-stream parser: running status, interleaved real-time bytes, sysex. */
struct al_midi_stream {
	uint8_t running;   /* running status, 0: none */
	uint8_t buf[3];
	int have;          /* bytes in buf */
	int need;          /* bytes the message in buf needs */
	bool in_sysex;
	int64_t t_first_ns; /* stamp of the first byte of the message in buf */
	uint64_t dropped;  /* stray data bytes with no status */
};

void al_midi_stream_init(struct al_midi_stream *s);

/*
 * Feed one byte that arrived at t_ns. Returns 1 with *out filled when it
 * completes a message (stamped with the time of its first byte; a
 * real-time byte is a message of its own at once), else 0.
 */
int al_midi_stream_byte(struct al_midi_stream *s, uint8_t b, int64_t t_ns,
			struct al_midi_msg *out);

struct al_midi_ring {
	struct al_midi_msg *buf;
	uint32_t size;            /* a power of two */
	struct al_spsc idx;
	_Atomic uint64_t dropped; /* pushes that found the ring full */
};

/* Room for at least min_msgs (rounded up to a power of two); touched. 0 or -ENOMEM. */
int al_midi_ring_init(struct al_midi_ring *r, size_t min_msgs);
void al_midi_ring_free(struct al_midi_ring *r);

static inline bool
al_midi_ring_push(struct al_midi_ring *r, const struct al_midi_msg *m)
{
	uint32_t i;

	if (!al_spsc_slot(&r->idx, r->size, &i)) {
		atomic_fetch_add_explicit(&r->dropped, 1, memory_order_relaxed);
		return false;
	}
	r->buf[i] = *m;
	al_spsc_push(&r->idx);
	return true;
}

/* The oldest message, or NULL when empty (it stays until al_midi_ring_pop). */
static inline const struct al_midi_msg *
al_midi_ring_peek(struct al_midi_ring *r)
{
	uint32_t first;

	return al_spsc_ready(&r->idx, &first) ? &r->buf[first & (r->size - 1)] : NULL;
}

static inline void
al_midi_ring_pop(struct al_midi_ring *r)
{
	al_spsc_pop(&r->idx, 1);
}

#endif
