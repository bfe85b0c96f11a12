/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Xrun durations validated: aplay's "now - trigger" when the stamps are
 * believable; the pointer fallback for the bad stamps seen in the wild
 * (zero, epoch-sized, negative, mixed clocks, stale trigger, 76 h delays).
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "backend/pcmtime.h"
#include "core/clock.h"

#define MS AL_NS_PER_MS
#define SEC AL_NS_PER_SEC
/* a monotonic "now" 2 h after boot, and a wall clock in 2026 */
#define MONO (7200 * SEC)
#define REAL (1764480000LL * SEC)
#define PERIOD (5333333LL) /* 256 frames at 48 kHz */

/* The last write at MONO - 100 ms left 10.667 ms of audio. */
static struct al_xrun_stamps
stamps(int64_t status_ns, int64_t trigger_ns)
{
	return (struct al_xrun_stamps){
		.now_mono_ns = MONO,
		.now_real_ns = REAL,
		.status_ns = status_ns,
		.trigger_ns = trigger_ns,
		.last_ok_ns = MONO - 100 * MS,
		.empty_ns = MONO - 100 * MS + 10666667,
		.period_ns = PERIOD,
	};
}

/* what the pointers say: from when the queued audio ran out until now */
#define FALLBACK_NS (100 * MS - 10666667)

static void
classify_clocks(void **state)
{
	(void)state;
	assert_int_equal(al_stamp_classify(0, MONO, REAL), AL_STAMP_NONE);
	assert_int_equal(al_stamp_classify(MONO - 3 * MS, MONO, REAL), AL_STAMP_MONOTONIC);
	assert_int_equal(al_stamp_classify(REAL - 3 * MS, MONO, REAL), AL_STAMP_REALTIME);
	/* a stopped stream's stamp may be old, but not more than an hour */
	assert_int_equal(al_stamp_classify(MONO - 1800 * SEC, MONO, REAL), AL_STAMP_MONOTONIC);
	assert_int_equal(al_stamp_classify(MONO - 2 * 3600 * SEC + 1, MONO, REAL), AL_STAMP_UNKNOWN);
	/* in the future of both */
	assert_int_equal(al_stamp_classify(REAL + 60 * SEC, MONO, REAL), AL_STAMP_UNKNOWN);
	assert_int_equal(al_stamp_classify(MONO + 60 * SEC, MONO, REAL), AL_STAMP_UNKNOWN);
	assert_int_equal(al_stamp_to_mono(REAL - 5 * MS, AL_STAMP_REALTIME, MONO, REAL), MONO - 5 * MS);
	assert_int_equal(al_stamp_to_mono(MONO - 5 * MS, AL_STAMP_MONOTONIC, MONO, REAL), MONO - 5 * MS);
	assert_int_equal(al_stamp_to_mono(123, AL_STAMP_UNKNOWN, MONO, REAL), 0);
	assert_string_equal(al_stamp_base_name(AL_STAMP_REALTIME), "realtime");
}

static void
good_monotonic_trigger_is_used(void **state)
{
	struct al_xrun_stamps s = stamps(MONO - 1 * MS, MONO - 15198 * AL_NS_PER_US);
	struct al_xrun_duration d;

	(void)state;
	al_xrun_duration(&s, &d);
	assert_true(d.from_stamps);
	assert_null(d.reject);
	assert_int_equal(d.duration_ns, 15198 * AL_NS_PER_US);
	assert_int_equal(d.start_ns, MONO - 15198 * AL_NS_PER_US);
	assert_int_equal(d.lost_periods, 3); /* 15.198 ms of 5.333 ms periods, begun */
}

static void
good_realtime_trigger_is_mapped(void **state)
{
	/* gettimeofday stamps (a PCM without MONOTONIC), both on the wall clock */
	struct al_xrun_stamps s = stamps(REAL - 1 * MS, REAL - 40 * MS);
	struct al_xrun_duration d;

	(void)state;
	al_xrun_duration(&s, &d);
	assert_true(d.from_stamps);
	assert_int_equal(d.duration_ns, 40 * MS);
	assert_int_equal(d.start_ns, MONO - 40 * MS);
}

static void
zero_trigger_falls_back(void **state)
{
	/* alsa-utils #298: a plugin left the trigger at 0, aplay printed the epoch */
	struct al_xrun_stamps s = stamps(MONO, 0);
	struct al_xrun_duration d;

	(void)state;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_string_equal(d.reject, "zero trigger stamp");
	assert_int_equal(d.duration_ns, FALLBACK_NS);
	assert_int_equal(d.start_ns, MONO - FALLBACK_NS);
}

static void
epoch_sized_trigger_falls_back(void **state)
{
	/* a few seconds after the epoch: on no clock of ours */
	struct al_xrun_stamps s = stamps(MONO, 3 * SEC);
	struct al_xrun_duration d;

	(void)state;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_non_null(strstr(d.reject, "no clock"));
	assert_int_equal(d.duration_ns, FALLBACK_NS);
	assert_true(d.duration_ns < 100 * MS);
}

static void
negative_duration_falls_back(void **state)
{
	/* jack2 #307: "xrun of at least -1177622.016 msecs": a trigger after now */
	struct al_xrun_stamps s = stamps(MONO, MONO + 1 * SEC);
	struct al_xrun_duration d;

	(void)state;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_non_null(strstr(d.reject, "negative"));
	assert_true(d.duration_ns >= 0);
	assert_int_equal(d.duration_ns, FALLBACK_NS);
}

static void
zero_duration_falls_back(void **state)
{
	struct al_xrun_stamps s = stamps(MONO, MONO);
	struct al_xrun_duration d;

	(void)state;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_string_equal(d.reject, "zero duration");
	assert_int_equal(d.duration_ns, FALLBACK_NS);
}

static void
mixed_clocks_fall_back(void **state)
{
	struct al_xrun_duration d;
	struct al_xrun_stamps s;

	(void)state;
	/* status on CLOCK_MONOTONIC, trigger on the wall clock */
	s = stamps(MONO - 1 * MS, REAL - 20 * MS);
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_non_null(strstr(d.reject, "different clocks"));
	assert_int_equal(d.duration_ns, FALLBACK_NS);
	/* and the other way round */
	s = stamps(REAL - 1 * MS, MONO - 20 * MS);
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_non_null(strstr(d.reject, "different clocks"));
	/* a status stamp on no clock */
	s = stamps(42, MONO - 20 * MS);
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_non_null(strstr(d.reject, "status stamp"));
}

static void
stale_trigger_falls_back(void **state)
{
	/* alsa-lib's ioplug (pcm_jack) stamps only start: the trigger predates the last write */
	struct al_xrun_stamps s = stamps(MONO, MONO - 3904 * MS);
	struct al_xrun_duration d;

	(void)state;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_non_null(strstr(d.reject, "older than the last write"));
	assert_int_equal(d.duration_ns, FALLBACK_NS);
}

static void
hour_long_duration_falls_back(void **state)
{
	struct al_xrun_stamps s = stamps(MONO, MONO - 3600 * SEC);
	struct al_xrun_duration d;

	(void)state;
	s.last_ok_ns = MONO - 3601 * SEC;
	s.empty_ns = MONO - 3601 * SEC + 10 * MS;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_string_equal(d.reject, "duration over an hour");
}

static void
fallback_is_never_negative(void **state)
{
	/* the device says xrun but by our account audio was still queued */
	struct al_xrun_stamps s = stamps(MONO, 0);
	struct al_xrun_duration d;

	(void)state;
	s.empty_ns = MONO + 5 * MS;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_int_equal(d.duration_ns, 0);
	assert_int_equal(d.start_ns, MONO);
	assert_int_equal(d.lost_periods, 1);
	/* no account at all */
	s.empty_ns = 0;
	s.last_ok_ns = 0;
	al_xrun_duration(&s, &d);
	assert_int_equal(d.duration_ns, 0);
	assert_int_equal(d.start_ns, MONO);
}

static void
jack_delay_validated(void **state)
{
	struct al_xrun_duration d;

	(void)state;
	al_jack_xrun_duration(625.0, 0, PERIOD, &d);
	assert_true(d.from_stamps);
	assert_int_equal(d.duration_ns, 625 * AL_NS_PER_US);
	assert_int_equal(d.lost_periods, 1);

	/* jackclient-python #105: negative delays of about 76 h */
	al_jack_xrun_duration(-76.0 * 3600e6, 12 * MS, PERIOD, &d);
	assert_false(d.from_stamps);
	assert_string_equal(d.reject, "zero or negative delay");
	assert_int_equal(d.duration_ns, 12 * MS); /* the cycle gap */
	assert_int_equal(d.lost_periods, 3);

	al_jack_xrun_duration(76.0 * 3600e6, 0, PERIOD, &d);
	assert_false(d.from_stamps);
	assert_string_equal(d.reject, "delay over an hour");
	assert_int_equal(d.duration_ns, PERIOD); /* cycles kept time: one period lost */

	al_jack_xrun_duration(0.0, 0, PERIOD, &d);
	assert_false(d.from_stamps);
	assert_int_equal(d.duration_ns, PERIOD);

	al_jack_xrun_duration(NAN, 7 * MS, PERIOD, &d);
	assert_false(d.from_stamps);
	assert_string_equal(d.reject, "delay not a number");
	assert_int_equal(d.duration_ns, 7 * MS);

	al_jack_xrun_duration(INFINITY, 0, PERIOD, &d);
	assert_false(d.from_stamps);
}

/*
 * The period grid: wake-ups at k x PERIOD + jitter, where nothing says
 * when the boundaries really were. The grid follows the earliest ones.
 */
static void
grid_follows_the_earliest_wakeups(void **state)
{
	/* jitter of each wake-up after its true boundary, in us */
	static const int jitter_us[] = { 40, 10, 25, 300, 12, 10, 11, 80, 10, 10 };
	struct al_grid g = { 0 };
	int64_t t0 = MONO, b, wake;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(jitter_us) / sizeof(jitter_us[0]); i++) {
		wake = t0 + (int64_t)i * PERIOD + jitter_us[i] * 1000LL;
		/* our own account says nothing useful: due later than the wake-up */
		b = al_grid_boundary(&g, PERIOD, wake + PERIOD, wake);
		assert_true(b <= wake);
		if (i == 0)
			assert_int_equal(b, wake); /* the first wake-up starts the grid */
		if (i >= 2) {
			/*
			 * from the earliest wake-up so far (10 us late); the grid
			 * creeps later by at most PERIOD / 2000 per period (drift)
			 */
			assert_true(wake - b <= (jitter_us[i] - 10) * 1000LL);
			assert_true(wake - b >= (jitter_us[i] - 10) * 1000LL -
						(int64_t)i * (PERIOD / 2000 + 1));
		}
	}
	/* the 300 us wake-up showed about 290 us, not 0 */
	g = (struct al_grid){ 0 };
	for (i = 0; i < 4; i++) {
		wake = t0 + (int64_t)i * PERIOD + jitter_us[i] * 1000LL;
		b = al_grid_boundary(&g, PERIOD, wake + PERIOD, wake);
	}
	assert_in_range(wake - b, 285000, 295000);
}

/* The account's due time bounds the grid; a grid that lost a period snaps to the wake-up. */
static void
grid_never_after_the_account_and_never_twice(void **state)
{
	struct al_grid g = { 0 };
	int64_t b, wake = MONO;

	(void)state;
	assert_int_equal(al_grid_boundary(&g, PERIOD, wake + PERIOD, wake), wake);
	/* next period: the account says due 1 ms before the wake-up */
	wake += PERIOD + 2 * MS;
	b = al_grid_boundary(&g, PERIOD, wake - 1 * MS, wake);
	assert_true(b <= wake - 1 * MS);
	/* a wake-up early in the same grid period as the last boundary: not that boundary again */
	wake = b + PERIOD / 4;
	assert_int_equal(al_grid_boundary(&g, PERIOD, wake + PERIOD, wake), wake);
	/* a boundary given from elsewhere counts as the last one */
	g.last_due_ns = wake + PERIOD;
	wake += PERIOD + PERIOD / 4;
	assert_int_equal(al_grid_boundary(&g, PERIOD, wake + PERIOD, wake), wake);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(classify_clocks),
		cmocka_unit_test(good_monotonic_trigger_is_used),
		cmocka_unit_test(good_realtime_trigger_is_mapped),
		cmocka_unit_test(zero_trigger_falls_back),
		cmocka_unit_test(epoch_sized_trigger_falls_back),
		cmocka_unit_test(negative_duration_falls_back),
		cmocka_unit_test(zero_duration_falls_back),
		cmocka_unit_test(mixed_clocks_fall_back),
		cmocka_unit_test(stale_trigger_falls_back),
		cmocka_unit_test(hour_long_duration_falls_back),
		cmocka_unit_test(fallback_is_never_negative),
		cmocka_unit_test(jack_delay_validated),
		cmocka_unit_test(grid_follows_the_earliest_wakeups),
		cmocka_unit_test(grid_never_after_the_account_and_never_twice),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
