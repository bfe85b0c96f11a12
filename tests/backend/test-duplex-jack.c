/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Roundtrip's JACK duplex stream (duplex-jack.c, compiled in for its
 * static functions) without a server: the libjack calls of its process
 * callback and of its status are answered here (a definition in the
 * executable wins over libjack's). A period goes through the callback
 * from our input port to our output port, and is counted; a server
 * that changes its period either way is seen; the latencies reported
 * are the longest of each direction's range, capture on our input,
 * playback on our output; a server gone reports none.
 */
#include "../../src/backend/duplex-jack.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define N 4

static int port_in, port_out;
static float buf_in[N] = { 0.25f, -0.5f, 1.0f, 0.0f }, buf_out[N];

void *
jack_port_get_buffer(jack_port_t *port, jack_nframes_t nframes)
{
	assert_int_equal(nframes, N);
	return port == (jack_port_t *)&port_in ? (void *)buf_in : (void *)buf_out;
}

/* capture 256..512 on our input, playback 1024..1536 on our output; the others 7 */
void
jack_port_get_latency_range(jack_port_t *port, jack_latency_callback_mode_t mode,
			    jack_latency_range_t *range)
{
	bool in = port == (jack_port_t *)&port_in;

	if (in && mode == JackCaptureLatency)
		*range = (jack_latency_range_t){ 256, 512 };
	else if (!in && mode == JackPlaybackLatency)
		*range = (jack_latency_range_t){ 1024, 1536 };
	else
		*range = (jack_latency_range_t){ 7, 7 };
}

int
jack_is_realtime(jack_client_t *client)
{
	(void)client;
	return 1;
}

/* the callback: twice its input, as a loop would return it */
static void
twice(void *ctx, const float *in, float *out, uint32_t nframes)
{
	(void)ctx;
	for (uint32_t i = 0; i < nframes; i++)
		out[i] = 2 * in[i];
}

static void
a_period_through_the_callback(void **state)
{
	struct dj d = { .in = (jack_port_t *)&port_in, .out = (jack_port_t *)&port_out,
			.fn = twice, .period_frames = N };
	struct al_duplex_status st;

	(void)state;
	assert_int_equal(process(N, &d), 0);
	assert_true(buf_out[0] == 0.5f && buf_out[1] == -1.0f && buf_out[2] == 2.0f);
	d.fn = NULL;
	assert_int_equal(process(N, &d), 0);
	assert_true(buf_out[0] == 0.0f && buf_out[2] == 0.0f);
	al_duplex_jack.status(&d, &st);
	assert_int_equal(st.periods, 2);
	assert_int_equal(st.capture_latency_frames, 512);
	assert_int_equal(st.playback_latency_frames, 1536);
	assert_false(st.period_changed);
	assert_true(st.realtime);
}

static void
a_period_change_is_seen(void **state)
{
	struct dj d = { .period_frames = 256 };
	struct al_duplex_status st;

	(void)state;
	on_buffer_size(256, &d);
	assert_false(atomic_load(&d.period_changed));
	on_buffer_size(512, &d);
	assert_true(atomic_load(&d.period_changed));
	atomic_store(&d.period_changed, false);
	on_buffer_size(128, &d);
	assert_true(atomic_load(&d.period_changed));
	/* the server went away: no latency read from its ports */
	on_shutdown(JackFailure, "gone", &d);
	al_duplex_jack.status(&d, &st);
	assert_int_equal(st.err, -ENOTCONN);
	assert_int_equal(st.capture_latency_frames, 0);
	assert_int_equal(st.playback_latency_frames, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_period_through_the_callback),
		cmocka_unit_test(a_period_change_is_seen),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
