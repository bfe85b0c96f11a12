/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JACK MIDI event times without a server: jackmidi.c is compiled in for
 * its process callbacks, and the few libjack calls they make in a cycle
 * are answered here (a definition in the executable wins over libjack's):
 * the cycle's first frame, no frames since its start, the input port's
 * events; and CLOCK_MONOTONIC is a fake clock the test sets (each cycle
 * "starts" when its callback reads the clock). An event's time is its
 * cycle's time plus its offset in frames at the fitted frame length; a
 * loop's round trip in frames is the frames between the probe and its
 * echo; after the server's xrun notification (jack2 re-anchors its clock:
 * its frame counter did not count the stall) the times follow the
 * server's new cycle starts at once.
 */
/* first: cmocka.h defines a fail() macro */
#include "../../src/midi/jackmidi.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/syscall.h>
#include <unistd.h>
#include <cmocka.h>

#define RATE 48000
#define N 256
#define PERIOD_NS 5333333 /* 256 frames at 48 kHz, as the grid's nominal line rounds it */

/* ---- the fake clock: CLOCK_MONOTONIC is fake_now_ns when set ---- */
static int64_t fake_now_ns;

int
clock_gettime(clockid_t id, struct timespec *ts)
{
	if (id == CLOCK_MONOTONIC && fake_now_ns) {
		ts->tv_sec = (time_t)(fake_now_ns / AL_NS_PER_SEC);
		ts->tv_nsec = (long)(fake_now_ns % AL_NS_PER_SEC);
		return 0;
	}
	return (int)syscall(SYS_clock_gettime, id, ts);
}

/* ---- the fake server's side of one cycle ---- */
static jack_nframes_t fake_f0;
static jack_midi_event_t fake_in[8];
static uint32_t fake_n_in;
static jack_midi_data_t fake_data[8][3];
static struct {
	jack_nframes_t time;
	jack_midi_data_t data[3];
} fake_out[8];
static int fake_n_out;
static char fake_buf[64];

jack_nframes_t
jack_frames_since_cycle_start(const jack_client_t *c)
{
	(void)c;
	return 0;
}

int
jack_get_cycle_times(const jack_client_t *c, jack_nframes_t *frames, jack_time_t *cur_us,
		     jack_time_t *next_us, float *period_us)
{
	(void)c;
	*frames = fake_f0;
	*cur_us = 0;
	*next_us = 0;
	*period_us = 0;
	return 0;
}

jack_nframes_t
jack_last_frame_time(const jack_client_t *c)
{
	(void)c;
	return fake_f0;
}

void *
jack_port_get_buffer(jack_port_t *port, jack_nframes_t n)
{
	(void)port;
	(void)n;
	return fake_buf;
}

uint32_t
jack_midi_get_event_count(void *buf)
{
	(void)buf;
	return fake_n_in;
}

int
jack_midi_event_get(jack_midi_event_t *ev, void *buf, uint32_t i)
{
	(void)buf;
	if (i >= fake_n_in)
		return -ENODATA;
	*ev = fake_in[i];
	return 0;
}

void
jack_midi_clear_buffer(void *buf)
{
	(void)buf;
}

int
jack_midi_event_write(void *buf, jack_nframes_t time, const jack_midi_data_t *data, size_t size)
{
	(void)buf;
	if (fake_n_out >= 8 || size > 3)
		return -ENOBUFS;
	fake_out[fake_n_out].time = time;
	memcpy(fake_out[fake_n_out].data, data, size);
	fake_n_out++;
	return 0;
}

/* an input event at offset t of this cycle */
static void
fake_event(jack_nframes_t t, uint8_t status, uint8_t d1, uint8_t d2)
{
	fake_data[fake_n_in][0] = status;
	fake_data[fake_n_in][1] = d1;
	fake_data[fake_n_in][2] = d2;
	fake_in[fake_n_in] = (jack_midi_event_t){ .time = t, .size = 3, .buffer = fake_data[fake_n_in] };
	fake_n_in++;
}

/* ---- the port ---- */
static struct al_midi_port port;
static struct jport j;

static int
setup(void **state)
{
	(void)state;
	memset(&port, 0, sizeof(port));
	memset(&j, 0, sizeof(j));
	assert_int_equal(al_midi_ring_init(&port.rx, 64), 0);
	j.p = &port;
	j.rate_hz = RATE;
	j.timeout_frames = RATE;
	j.rng = 12345;
	al_hist_init(&j.wake_ns);
	al_grid_start(&j.grid, RATE);
	atomic_store(&j.armed, true);
	fake_f0 = 1000000;
	fake_n_in = 0;
	fake_n_out = 0;
	fake_now_ns = 7200 * AL_NS_PER_SEC;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	al_midi_ring_free(&port.rx);
	fake_now_ns = 0;
	return 0;
}

static int
next(struct al_midi_msg *m)
{
	const struct al_midi_msg *p = al_midi_ring_peek(&port.rx);

	if (!p)
		return 0;
	*m = *p;
	al_midi_ring_pop(&port.rx);
	return 1;
}

/* Events at frames 0, 64 and 200 of a cycle: their cycle's time plus 0, 64, 200 frames. */
static void
record_times_an_event_at_its_frame(void **state)
{
	static const jack_nframes_t at[] = { 0, 64, 200 };
	struct al_midi_msg m[3], more;
	int k;

	(void)state;
	for (k = 0; k < 5; k++) { /* a few cycles first: a line to be on */
		process_record(N, &j);
		fake_f0 += N;
		fake_now_ns += PERIOD_NS;
	}
	for (k = 0; k < 3; k++)
		fake_event(at[k], 0x90, 60, 100);
	process_record(N, &j);
	for (k = 0; k < 3; k++)
		assert_int_equal(next(&m[k]), 1);
	assert_int_equal(next(&more), 0); /* three, no more */
	assert_true(llabs(m[0].t_ns - fake_now_ns) <= 1); /* the cycle's start */
	for (k = 1; k < 3; k++) {
		int64_t want = (int64_t)at[k] * PERIOD_NS / N;

		if (llabs(m[k].t_ns - m[0].t_ns - want) > 1)
			fail_msg("frame %u: %lld ns after frame 0, not %lld", at[k],
				 (long long)(m[k].t_ns - m[0].t_ns), (long long)want);
	}
	assert_int_equal(m[2].data[0], 0x90);
}

/* A probe at a random frame of one cycle, echoed at the same frame of the next: a period. */
static void
loop_round_trip_is_the_frames_between(void **state)
{
	struct al_midi_msg res;
	jack_nframes_t sent_at;
	uint8_t probe[3];

	(void)state;
	process_loop(N, &j);
	assert_int_equal(fake_n_out, 1); /* the probe */
	sent_at = fake_out[0].time;
	memcpy(probe, fake_out[0].data, 3);
	assert_int_equal(next(&res), 0);
	fake_f0 += N;
	fake_n_out = 0;
	fake_event(sent_at, probe[0], probe[1], probe[2]);
	process_loop(N, &j);
	assert_int_equal(next(&res), 1);
	assert_int_equal(res.frames, N);
	assert_int_equal(res.seq, 0);
	assert_false(res.flags & AL_MIDI_MSG_LOST);
	/* frames x the fitted frame length */
	assert_true(llabs(res.t_ns - res.ref_ns - PERIOD_NS) <= 1);
}

/*
 * 2 s on time, then the server's clock moves on by shift_ns and it says
 * so (an xrun notification; its frame counter goes on from where it
 * stopped): an event in the first cycle after is at that cycle's start,
 * not shift_ns before it.
 */
static void
event_after_an_xrun(int64_t shift_ns)
{
	struct al_midi_msg m;
	int k;

	for (k = 0; k < 375; k++) {
		process_record(N, &j);
		fake_f0 += N;
		fake_now_ns += PERIOD_NS + (k % 7) * 1000; /* a few us of jitter */
	}
	on_xrun(&j);
	fake_now_ns += shift_ns;
	fake_event(0, 0x90, 61, 100);
	process_record(N, &j);
	assert_int_equal(next(&m), 1);
	if (llabs(m.t_ns - fake_now_ns) > 1000)
		fail_msg("the event is %lld ns off its cycle's start", (long long)(m.t_ns - fake_now_ns));
}

/* A 100 ms stall: also a cycle begun a period late, which starts a new line by itself. */
static void
a_new_line_after_the_servers_xrun(void **state)
{
	(void)state;
	event_after_an_xrun(100 * AL_NS_PER_MS);
}

/*
 * jack2's timed drivers re-anchoring by less than a period (2 ms): no
 * cycle is a period late, and the starts stay off the line too few cycles
 * for that rule: only the xrun notification tells the line is old.
 */
static void
a_new_line_after_an_xrun_shorter_than_a_period(void **state)
{
	(void)state;
	event_after_an_xrun(2 * AL_NS_PER_MS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(record_times_an_event_at_its_frame, setup, teardown),
		cmocka_unit_test_setup_teardown(loop_round_trip_is_the_frames_between, setup,
						teardown),
		cmocka_unit_test_setup_teardown(a_new_line_after_the_servers_xrun, setup, teardown),
		cmocka_unit_test_setup_teardown(a_new_line_after_an_xrun_shorter_than_a_period, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
