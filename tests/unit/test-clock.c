/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"

static void
frames_to_ns_is_exact(void **state)
{
	(void)state;
	assert_int_equal(al_frames_to_ns(64, 48000), 1333333);
	assert_int_equal(al_frames_to_ns_ceil(64, 48000), 1333334);
	assert_int_equal(al_frames_to_ns(48000, 48000), AL_NS_PER_SEC);
	assert_int_equal(al_frames_to_ns_ceil(48000, 48000), AL_NS_PER_SEC);
	/* 24 h at 192 kHz: frames * 1e9 would overflow int64 */
	assert_int_equal(al_frames_to_ns(192000LL * 86400, 192000), 86400 * AL_NS_PER_SEC);
	assert_int_equal(al_frames_to_ns(192000LL * 86400 + 1, 192000),
			 86400 * AL_NS_PER_SEC + 5208);
	assert_int_equal(al_frames_to_ns(44100LL * 1000000 + 3, 44100),
			 1000000 * AL_NS_PER_SEC + 68027);
}

static void
ns_to_frames_rounds_down(void **state)
{
	(void)state;
	assert_int_equal(al_ns_to_frames(1333333, 48000), 63);
	assert_int_equal(al_ns_to_frames(1333334, 48000), 64);
	assert_int_equal(al_ns_to_frames(86400 * AL_NS_PER_SEC, 192000), 192000LL * 86400);
	assert_int_equal(al_ns_to_frames(al_frames_to_ns_ceil(12345678, 44100), 44100),
			 12345678);
}

static void
iso_time(void **state)
{
	char buf[40];

	(void)state;
	al_clock_format_iso(1764479266123456789LL, buf, sizeof(buf));
	assert_string_equal(buf, "2025-11-30T05:07:46.123Z");
}

static void
sleep_until_the_past_returns_at_once(void **state)
{
	int64_t t0 = al_clock_now_ns();

	(void)state;
	assert_int_equal(al_clock_sleep_until_ns(t0 - AL_NS_PER_SEC), 0);
	assert_true(al_clock_now_ns() >= t0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(frames_to_ns_is_exact),
		cmocka_unit_test(ns_to_frames_rounds_down),
		cmocka_unit_test(iso_time),
		cmocka_unit_test(sleep_until_the_past_returns_at_once),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
