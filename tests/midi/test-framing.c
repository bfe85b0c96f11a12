/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The rawmidi framing records (struct snd_rawmidi_framing_tstamp, 32
 * bytes) decoded from byte buffers, the MIDI byte-stream parser behind
 * them, and the lock-free message ring: no sound card needed.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "midi/framing.h"
#include "midi/midi.h"
#include "midi/port.h"

/* One record as the kernel lays it out (native byte order). */
static void
frame(uint8_t *p, uint8_t type, uint8_t len, uint64_t sec, uint32_t nsec, const void *data,
      size_t n)
{
	memset(p, 0, AL_RAWMIDI_FRAME_BYTES);
	p[0] = type;
	p[1] = len;
	memcpy(p + 4, &nsec, sizeof(nsec));
	memcpy(p + 8, &sec, sizeof(sec));
	memcpy(p + 16, data, n);
}

static void
kernel_layout(void **state)
{
	(void)state;
	/* the header's constants, where the kernel header is at hand */
	assert_int_equal(AL_RAWMIDI_FRAME_BYTES, 32);
	assert_int_equal(AL_RAWMIDI_FRAME_DATA, 16);
	assert_int_equal(AL_RAWMIDI_MODE_FRAMING_TSTAMP, 1);
	assert_int_equal(AL_RAWMIDI_MODE_CLOCK_MONOTONIC, 2 << 3);
	assert_int_equal(AL_RAWMIDI_MODE_CLOCK_MONOTONIC_RAW, 3 << 3);
}

static void
decode_one(void **state)
{
	static const uint8_t note[] = { 0x90, 0x3C, 0x64 };
	struct al_rawmidi_frame f;
	uint8_t rec[32];

	(void)state;
	frame(rec, 0, 3, 1234, 567890123, note, sizeof(note));
	rec[19] = 0; /* unused bytes zeroed, as the kernel does */
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), 1);
	assert_int_equal(f.t_ns, 1234 * 1000000000LL + 567890123);
	assert_int_equal(f.len, 3);
	assert_memory_equal(f.data, note, 3);
	assert_int_equal(f.data[3], 0);

	/* byte offsets: tv_nsec at 4, tv_sec at 8, data at 16 */
	memset(rec, 0, sizeof(rec));
	rec[1] = 1;
	rec[16] = 0xF8;
	memcpy(rec + 4, &(uint32_t){ 7 }, 4);
	memcpy(rec + 8, &(uint64_t){ 2 }, 8);
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), 1);
	assert_int_equal(f.t_ns, 2000000007);
	assert_int_equal(f.data[0], 0xF8);
}

static void
decode_bad(void **state)
{
	static const uint8_t x[16] = { 0 };
	struct al_rawmidi_frame f;
	uint8_t rec[32];

	(void)state;
	frame(rec, 0, 0, 1, 0, x, 0);
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), -EINVAL);   /* length 0 */
	frame(rec, 0, 17, 1, 0, x, 16);
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), -EINVAL);   /* past data[16] */
	frame(rec, 0, 16, 1, 1000000000u, x, 16);
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), -EINVAL);   /* tv_nsec */
	frame(rec, 0, 1, UINT64_MAX / 2, 0, x, 1);
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), -EINVAL);   /* past 2^63 ns */
	frame(rec, 1, 3, 1, 0, x, 3);
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), 0);         /* another type: skipped */
	frame(rec, 0, 16, 1, 999999999, x, 16);
	assert_int_equal(al_rawmidi_frame_decode(rec, &f), 1);         /* the limits are fine */
	assert_int_equal(f.len, 16);
}

struct got {
	struct al_midi_msg m[16];
	int n;
};

static void
collect(void *ud, const struct al_midi_msg *m)
{
	struct got *g = ud;

	if (g->n < 16)
		g->m[g->n++] = *m;
}

/*
 * A message split over two frames takes the first frame's time; running
 * status continues across frames; a real-time byte in the middle is a
 * message of its own; an unknown frame type is skipped.
 */
static void
frames_to_messages(void **state)
{
	static const uint8_t a[] = { 0x90, 0x3C };
	static const uint8_t b[] = { 0x64, 0x3E, 0xF8, 0x50 };
	static const uint8_t c[] = { 0x80, 0x3C, 0x40 };
	struct al_midi_stream s;
	struct got g = { .n = 0 };
	uint8_t buf[4 * 32];
	size_t bad = 0;

	(void)state;
	al_midi_stream_init(&s);
	frame(buf, 0, 2, 10, 100, a, sizeof(a));
	frame(buf + 32, 0, 4, 10, 200, b, sizeof(b));
	frame(buf + 64, 2, 3, 10, 250, c, sizeof(c)); /* type 2: skipped */
	frame(buf + 96, 0, 3, 10, 300, c, sizeof(c));
	assert_int_equal(al_rawmidi_frames_parse(buf, sizeof(buf), &s, collect, &g, &bad), 4);
	assert_int_equal(g.n, 4);
	assert_int_equal(g.m[0].t_ns, 10000000100LL);
	assert_int_equal(g.m[0].len, 3);
	assert_int_equal(g.m[0].data[2], 0x64);
	assert_int_equal(g.m[1].data[0], 0xF8);        /* real time at once */
	assert_true(g.m[1].flags & AL_MIDI_MSG_REALTIME);
	assert_int_equal(g.m[2].data[0], 0x90);        /* running status */
	assert_int_equal(g.m[2].data[1], 0x3E);
	assert_int_equal(g.m[2].data[2], 0x50);
	assert_int_equal(g.m[2].t_ns, 10000000200LL);  /* its first byte's frame */
	assert_int_equal(g.m[3].data[0], 0x80);
	assert_int_equal(g.m[3].t_ns, 10000000300LL);

	/* not whole records, a bad record: the offset of the bad one */
	assert_int_equal(al_rawmidi_frames_parse(buf, 40, &s, NULL, NULL, &bad), -EINVAL);
	assert_int_equal(bad, 32);
	buf[64 + 0] = 0;
	buf[64 + 1] = 0;
	assert_int_equal(al_rawmidi_frames_parse(buf, sizeof(buf), &s, NULL, NULL, &bad), -EINVAL);
	assert_int_equal(bad, 64);
}

static int
feed(struct al_midi_stream *s, const uint8_t *b, size_t n, struct al_midi_msg *out, int max)
{
	struct al_midi_msg m;
	int k = 0;
	size_t i;

	for (i = 0; i < n; i++)
		if (al_midi_stream_byte(s, b[i], (int64_t)i, &m) && k < max)
			out[k++] = m;
	return k;
}

static void
stream_parser(void **state)
{
	static const uint8_t in[] = {
		0x3C,                    /* stray data byte: dropped */
		0xC0, 0x05,              /* program change */
		0x07,                    /* running: another */
		0xF0, 0x7E, 0x90, 0xF7,  /* sysex (0x90 inside ends it: a status byte) */
		0x40, 0x40,              /* no running status after that 0x90? it is the status */
		0xF0, 0x01, 0x02, 0xF7,  /* a real sysex */
		0x45,                    /* after sysex: no running status, dropped */
		0xF1, 0x20,              /* MTC quarter frame: system common */
		0xF6,                    /* tune request */
		0xB0, 0x07, 0xFE, 0x64,  /* active sensing inside a message */
	};
	struct al_midi_stream s;
	struct al_midi_msg m[16];
	int n;

	(void)state;
	al_midi_stream_init(&s);
	n = feed(&s, in, sizeof(in), m, 16);
	assert_int_equal(n, 8);
	assert_int_equal(m[0].data[0], 0xC0);
	assert_int_equal(m[0].len, 2);
	assert_int_equal(m[1].data[1], 0x07);
	assert_int_equal(m[1].t_ns, 3);             /* stamped at its first (data) byte */
	assert_int_equal(m[2].data[0], 0x90);       /* 0x90 ended the sysex and started a note */
	assert_int_equal(m[2].data[1], 0x40);
	assert_int_equal(m[3].flags, AL_MIDI_MSG_SYSEX);
	assert_int_equal(m[3].t_ns, 10);
	assert_int_equal(m[4].data[0], 0xF1);
	assert_int_equal(m[4].len, 2);
	assert_int_equal(m[5].data[0], 0xF6);
	assert_int_equal(m[6].data[0], 0xFE);       /* active sensing first */
	assert_int_equal(m[7].data[0], 0xB0);
	assert_int_equal(m[7].data[2], 0x64);
	assert_int_equal(m[7].t_ns, 18);
	assert_int_equal(s.dropped, 2);
}

static void
ring(void **state)
{
	struct al_midi_ring r;
	struct al_midi_msg m = { .len = 1 };
	const struct al_midi_msg *p;
	int i;

	(void)state;
	assert_int_equal(al_midi_ring_init(&r, 5), 0);
	assert_int_equal(r.size, 16);
	assert_null(al_midi_ring_peek(&r));
	for (i = 0; i < 16; i++) {
		m.t_ns = i;
		assert_true(al_midi_ring_push(&r, &m));
	}
	assert_false(al_midi_ring_push(&r, &m));     /* full: counted */
	assert_int_equal(atomic_load(&r.dropped), 1);
	for (i = 0; i < 16; i++) {
		p = al_midi_ring_peek(&r);
		assert_non_null(p);
		assert_int_equal(p->t_ns, i);
		al_midi_ring_pop(&r);
	}
	assert_null(al_midi_ring_peek(&r));
	al_midi_ring_free(&r);
}

static void
apis(void **state)
{
	int api = -1;

	(void)state;
	assert_int_equal(al_midi_api_parse("rawmidi", &api), 0);
	assert_int_equal(api, AL_MIDI_API_RAWMIDI);
	assert_int_equal(al_midi_api_parse("alsa", &api), -EINVAL);
	assert_string_equal(al_midi_api_name(AL_MIDI_API_SEQ), "seq");
#ifdef HAVE_JACK
	assert_null(al_midi_api_unavailable(AL_MIDI_API_JACK));
#endif
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(kernel_layout),
		cmocka_unit_test(decode_one),
		cmocka_unit_test(decode_bad),
		cmocka_unit_test(frames_to_messages),
		cmocka_unit_test(stream_parser),
		cmocka_unit_test(ring),
		cmocka_unit_test(apis),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
