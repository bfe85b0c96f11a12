/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "midi.h"
#include "smf.h"

void
al_midi_stream_init(struct al_midi_stream *s)
{
	memset(s, 0, sizeof(*s));
}

/* Data bytes after a system common status; -1: undefined (F4, F5). */
static int
common_bytes(uint8_t b)
{
	switch (b) {
	case 0xF1:
	case 0xF3:
		return 1;
	case 0xF2:
		return 2;
	case 0xF6:
		return 0;
	default:
		return -1;
	}
}

static int
emit(struct al_midi_stream *s, struct al_midi_msg *out)
{
	memset(out, 0, sizeof(*out));
	out->t_ns = s->t_first_ns;
	out->len = (uint8_t)s->have;
	memcpy(out->data, s->buf, (size_t)s->have);
	s->have = 0; /* the next data byte starts a message under running status */
	return 1;
}

int
al_midi_stream_byte(struct al_midi_stream *s, uint8_t b, int64_t t_ns, struct al_midi_msg *out)
{
	int n;

	if (b >= 0xF8) {
		/* real time: a message of its own, state untouched */
		memset(out, 0, sizeof(*out));
		out->t_ns = t_ns;
		out->len = 1;
		out->data[0] = b;
		out->flags = AL_MIDI_MSG_REALTIME;
		return 1;
	}
	if (b == 0xF0) {
		s->in_sysex = true;
		s->running = 0;
		s->have = 0;
		s->t_first_ns = t_ns;
		return 0;
	}
	if (b == 0xF7) {
		if (!s->in_sysex)
			return 0;
		s->in_sysex = false;
		memset(out, 0, sizeof(*out));
		out->t_ns = s->t_first_ns;
		out->len = 1;
		out->data[0] = 0xF0;
		out->flags = AL_MIDI_MSG_SYSEX;
		return 1;
	}
	if (b >= 0x80) {
		/* a status byte ends a sysex without F7 too */
		s->in_sysex = false;
		s->buf[0] = b;
		s->have = 1;
		s->t_first_ns = t_ns;
		if (b >= 0xF0) {
			s->running = 0;
			n = common_bytes(b);
			if (n < 0) {
				s->have = 0;
				return 0;
			}
			s->need = 1 + n;
			if (!n)
				return emit(s, out);
			return 0;
		}
		s->running = b;
		s->need = 1 + al_midi_data_bytes(b);
		return 0;
	}
	/* a data byte */
	if (s->in_sysex)
		return 0;
	if (!s->have) {
		if (!s->running) {
			s->dropped++;
			return 0;
		}
		s->buf[0] = s->running;
		s->have = 1;
		s->need = 1 + al_midi_data_bytes(s->running);
		s->t_first_ns = t_ns;
	}
	s->buf[s->have++] = b;
	if (s->have < s->need)
		return 0;
	return emit(s, out);
}

int
al_midi_ring_init(struct al_midi_ring *r, size_t min_msgs)
{
	size_t cap = 16;

	memset(r, 0, sizeof(*r));
	while (cap < min_msgs && cap < ((size_t)1 << 30))
		cap <<= 1;
	r->buf = calloc(cap, sizeof(*r->buf));
	if (!r->buf)
		return -ENOMEM;
	r->size = (uint32_t)cap;
	al_spsc_init(&r->idx);
	atomic_init(&r->dropped, 0);
	return 0;
}

void
al_midi_ring_free(struct al_midi_ring *r)
{
	free(r->buf);
	r->buf = NULL;
}
