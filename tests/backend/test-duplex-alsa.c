/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ALSA duplex stream of audiolat roundtrip (duplex-alsa.c, compiled in
 * for its static functions) without a card: opened on alsa-lib's "null"
 * PCM, the latencies it reports (a period captured, the rest of the
 * buffer queued for playback); and the samples: capture channel 0 of an
 * interleaved period to floats, a float period out on every playback
 * channel, clipped to [-1, 1], NaN as silence, in each sample format.
 */
#include "../../src/backend/duplex-alsa.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

static void
opened_on_the_null_pcm(void **state)
{
	struct al_duplex_config cfg = { .device = "null", .rate_hz = 48000, .period_frames = 256,
					 .periods = 3 };
	struct al_duplex_info info;
	struct da d;
	char why[256] = "";
	int rc;

	(void)state;
	rc = da_open(&d, &cfg, &info, why, sizeof(why));
	assert_int_equal(rc, 0);
	assert_int_equal(info.rate_hz, 48000);
	assert_int_equal(info.period_frames, 256);
	assert_int_equal(info.periods, 3);
	assert_int_equal(info.capture_latency_frames, 256);
	assert_int_equal(info.playback_latency_frames, 512);
	assert_string_equal(info.in_name, "null");
	assert_string_equal(info.out_name, "null");
	da_close(&d);
}

static void
capture_channel_0_to_floats(void **state)
{
	int16_t s16[8] = { 16384, 111, -32768, 222, 0, 333, -8192, 444 };
	int32_t s32[8] = { 1073741824, 7, INT32_MIN, 7, 0, 7, -536870912, 7 };
	float in[4];
	struct da d = { .period = 4, .cap_ch = 2, .in = in };
	static const float want[4] = { 0.5f, -1.0f, 0.0f, -0.25f };

	(void)state;
	d.cap_fmt = SND_PCM_FORMAT_S16;
	d.cap_buf = s16;
	to_float(&d);
	for (int i = 0; i < 4; i++)
		assert_float_equal(in[i], want[i], 1e-7);
	d.cap_fmt = SND_PCM_FORMAT_S32;
	d.cap_buf = s32;
	to_float(&d);
	for (int i = 0; i < 4; i++)
		assert_float_equal(in[i], want[i], 1e-7);
}

static void
floats_out_on_every_channel(void **state)
{
	float out[4] = { 2.0f, -0.5f, NAN, -3.0f };
	int16_t s16[8];
	int32_t s32[8];
	struct da d = { .period = 4, .play_ch = 2, .out = out };
	static const int16_t w16[4] = { 32767, -16384, 0, -32767 };
	static const int32_t w32[4] = { 2147483647, -1073741824, 0, -2147483647 };

	(void)state;
	d.play_fmt = SND_PCM_FORMAT_S16;
	d.play_buf = s16;
	from_float(&d);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(s16[2 * i], w16[i]);
		assert_int_equal(s16[2 * i + 1], w16[i]);
	}
	d.play_fmt = SND_PCM_FORMAT_S32;
	d.play_buf = s32;
	from_float(&d);
	for (int i = 0; i < 4; i++) {
		assert_int_equal(s32[2 * i], w32[i]);
		assert_int_equal(s32[2 * i + 1], w32[i]);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(opened_on_the_null_pcm),
		cmocka_unit_test(capture_channel_0_to_floats),
		cmocka_unit_test(floats_out_on_every_channel),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
