/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi record's session (session.c) without a port: messages put
 * in a port's ring as its reader thread would, taken by the session: the
 * live figure of a recording (max |delta - interval| of the selected
 * events, early ones too; the first event has no delta), a loop's (its
 * slowest echo; lost probes counted, not timed); and the MIDI file of a
 * recording read back: 1 us ticks from the origin, the sysex, the end of
 * the track at the end of the recording, what a file cannot hold counted
 * and left out.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#define AL_MIDI_PORT_PRIVATE_ALLOW
#include "midi/port-private.h"
#include "midi/session.h"
#include "midi/smf.h"

#define MS 1000000LL
#define T0 (5000 * MS) /* the session's first event, CLOCK_MONOTONIC */

static struct al_midi_port port;
static char path[] = "/tmp/al-session-XXXXXX"; /* the recorded file */

static int
setup(void **state)
{
	int fd;

	(void)state;
	memset(&port, 0, sizeof(port));
	assert_int_equal(al_midi_ring_init(&port.rx, 64), 0);
	strcpy(path, "/tmp/al-session-XXXXXX");
	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	al_midi_ring_free(&port.rx);
	return unlink(path);
}

static void
msg(int64_t t_ns, uint8_t flags, int len, uint8_t b0, uint8_t b1, uint8_t b2)
{
	struct al_midi_msg m = { .t_ns = t_ns, .len = (uint8_t)len, .data = { b0, b1, b2 },
				 .flags = flags };

	assert_true(al_midi_ring_push(&port.rx, &m));
}

/* note-ons 100 ms apart, one 5 ms early, one 3 ms late; what is not a note-on between */
static void
record_max_deviation(void **state)
{
	struct al_midi_filter on = { AL_MIDI_SEL_NOTE_ON, 0 };
	struct al_midi_session s = { .port = &port, .filter = &on, .interval_ns = 100 * MS };

	(void)state;
	msg(T0, 0, 3, 0x90, 60, 100);
	msg(T0 + 20 * MS, 0, 3, 0x80, 60, 0);
	msg(T0 + 50 * MS, AL_MIDI_MSG_REALTIME, 1, 0xF8, 0, 0);
	msg(T0 + 95 * MS, 0, 3, 0x90, 60, 100);
	msg(T0 + 198 * MS, 0, 3, 0x90, 62, 100);
	assert_int_equal(al_midi_session_collect(&s), 0);
	assert_int_equal(s.n_msgs, 5);
	assert_int_equal(s.selected, 3);
	assert_int_equal(s.live_max_ns, 5 * MS);
	assert_int_equal(s.last_sel_ns, T0 + 198 * MS);
	al_midi_session_free(&s);

	/* no interval: the longest delta */
	s = (struct al_midi_session){ .port = &port, .filter = &on };
	msg(T0, 0, 3, 0x90, 60, 100);
	msg(T0 + 95 * MS, 0, 3, 0x90, 60, 100);
	msg(T0 + 198 * MS, 0, 3, 0x90, 62, 100);
	assert_int_equal(al_midi_session_collect(&s), 0);
	assert_int_equal(s.live_max_ns, 103 * MS);
	al_midi_session_free(&s);
}

/* a loop: every echo's latency, lost probes counted and not timed */
static void
loop_slowest_echo(void **state)
{
	struct al_midi_session s = { .port = &port, .loop = true };
	struct al_midi_msg m = { .t_ns = T0 + 3 * MS, .ref_ns = T0, .len = 3, .data = { 0x90, 1, 64 } };

	(void)state;
	assert_true(al_midi_ring_push(&port.rx, &m));
	m = (struct al_midi_msg){ .t_ns = 0, .ref_ns = T0 + 10 * MS, .flags = AL_MIDI_MSG_LOST };
	assert_true(al_midi_ring_push(&port.rx, &m));
	m = (struct al_midi_msg){ .t_ns = T0 + 27 * MS, .ref_ns = T0 + 20 * MS, .len = 3 };
	assert_true(al_midi_ring_push(&port.rx, &m));
	assert_int_equal(al_midi_session_collect(&s), 0);
	assert_int_equal(s.selected, 3);
	assert_int_equal(s.lost, 1);
	assert_int_equal(s.live_max_ns, 7 * MS);
	al_midi_session_free(&s);
}

static const struct al_smf_event *
nth_channel(const struct al_smf *smf, int k)
{
	for (size_t i = 0; i < smf->n_events; i++)
		if (smf->events[i].kind == AL_SMF_EV_CHANNEL && k-- == 0)
			return &smf->events[i];
	return NULL;
}

static void
the_file_of_a_recording(void **state)
{
	struct al_midi_filter all = { AL_MIDI_SEL_ALL, 0 };
	struct al_midi_session s = { .port = &port, .filter = &all };
	char err[256] = "";
	const struct al_smf_event *ev;
	uint64_t not_in_file = 0;
	struct al_smf smf;
	uint8_t buf[4096];
	size_t len, i, sysex = 0;
	int64_t origin_us = T0 / 1000 - 250;
	FILE *f;

	(void)state;
	msg(T0 + 400, 0, 3, 0x90, 60, 100);         /* 250.4 us after the origin: tick 250 */
	msg(T0 + MS + 999, 0, 3, 0x80, 60, 0);      /* tick 1250 */
	msg(T0 + 2 * MS, AL_MIDI_MSG_REALTIME, 1, 0xF8, 0, 0);
	msg(T0 + 3 * MS, AL_MIDI_MSG_SYSEX, 1, 0xF0, 0, 0);
	msg(T0 + 4 * MS, 0, 3, 0x90, 0x80, 1);      /* a data byte with its top bit: malformed */
	msg(T0 + 5 * MS, 0, 2, 0xC0, 5, 0);         /* tick 5250 */
	msg(T0 + 6 * MS, 0, 2, 0xF3, 1, 0);         /* song select: no file event */
	assert_int_equal(al_midi_session_collect(&s), 0);
	assert_int_equal(s.n_msgs, 7);
	assert_int_equal(al_midi_session_write_smf(&s, path, origin_us, origin_us + 9000, &not_in_file,
						   err, sizeof(err)), 0);
	assert_int_equal(not_in_file, 3);
	f = fopen(path, "rb");
	assert_non_null(f);
	len = fread(buf, 1, sizeof(buf), f);
	fclose(f);
	assert_int_equal(al_smf_parse(buf, len, &smf, NULL), 0);
	assert_int_equal(smf.format, 0);
	assert_int_equal(smf.ppq, AL_MIDI_REC_PPQ);
	ev = nth_channel(&smf, 0);
	assert_int_equal(ev->t_ns, 250000);
	assert_int_equal(ev->status, 0x90);
	assert_int_equal(ev->d2, 100);
	ev = nth_channel(&smf, 1);
	assert_int_equal(ev->t_ns, 1250000);
	assert_int_equal(ev->status, 0x80);
	ev = nth_channel(&smf, 2);
	assert_int_equal(ev->t_ns, 5250000);
	assert_int_equal(ev->status, 0xC0);
	assert_int_equal(ev->d1, 5);
	assert_null(nth_channel(&smf, 3));
	for (i = 0; i < smf.n_events; i++)
		if (smf.events[i].kind == AL_SMF_EV_SYSEX) {
			assert_int_equal(smf.events[i].t_ns, 3250000);
			sysex++;
		}
	assert_int_equal(sysex, 1);
	/* the end of the track: the end of the recording */
	assert_int_equal(smf.duration_ns, 9000000);
	al_smf_free(&smf);
	al_midi_session_free(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(record_max_deviation, setup, teardown),
		cmocka_unit_test_setup_teardown(loop_slowest_echo, setup, teardown),
		cmocka_unit_test_setup_teardown(the_file_of_a_recording, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
