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
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
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
	/* the device says xrun but by our account audio was still queued: from the last write */
	struct al_xrun_stamps s = stamps(MONO, 0);
	struct al_xrun_duration d;

	(void)state;
	s.empty_ns = MONO + 5 * MS;
	s.last_ok_ns = MONO - 3 * MS;
	al_xrun_duration(&s, &d);
	assert_false(d.from_stamps);
	assert_int_equal(d.duration_ns, 3 * MS);
	assert_int_equal(d.start_ns, MONO - 3 * MS);
	assert_int_equal(d.lost_periods, 1);
	/* ... and no write yet: nothing to go by */
	s.last_ok_ns = 0;
	al_xrun_duration(&s, &d);
	assert_int_equal(d.duration_ns, 0);
	assert_int_equal(d.start_ns, MONO);
	/* no account at all */
	s.empty_ns = 0;
	s.last_ok_ns = 0;
	al_xrun_duration(&s, &d);
	assert_int_equal(d.duration_ns, 0);
	assert_int_equal(d.start_ns, MONO);
}

/*
 * The period grid. A device whose clock runs drift_ppm off ours frees a
 * period of 256 frames every PERIOD * (1 + drift); each wake-up comes a
 * little after (jitter). frame is the count at which the period came free.
 */
#define RATE 48000
#define FRAMES 256

static int64_t
device_time(int64_t k, double drift_ppm)
{
	return MONO + (int64_t)llround((double)k * (double)PERIOD * (1.0 + drift_ppm * 1e-6));
}

/* a repeatable jitter: 5 .. 45 us, now and then 300 us */
static int64_t
jitter_ns(uint64_t *x)
{
	*x ^= *x << 13;
	*x ^= *x >> 7;
	*x ^= *x << 17;
	if (*x % 97 == 0)
		return 300 * 1000;
	return 5000 + (int64_t)(*x % 40000);
}

/*
 * Over a minute with the device's clock off ours, the grid finds the
 * boundaries to a few us. A constant lateness cannot be told from the
 * phase: the figure is the lateness above the earliest wake-ups' (5 us).
 */
static void
grid_fits_drift_and_phase(void **state)
{
	static const double drifts[] = { 0, 50, -200, 800 };
	struct al_grid g;
	uint64_t x = 12345;
	size_t d;
	int64_t k;

	(void)state;
	for (d = 0; d < sizeof(drifts) / sizeof(drifts[0]); d++) {
		double worst = 0;

		memset(&g, 0, sizeof(g));
		al_grid_start(&g, RATE);
		for (k = 0; k < 60 * SEC / PERIOD; k++) {
			int64_t j = jitter_ns(&x), wake = device_time(k, drifts[d]) + j;
			int64_t b = al_grid_boundary(&g, k * FRAMES, wake);
			double err = fabs((double)(wake - b) - (double)(j - 5000));

			/*
			 * once a few blocks gave the drift, within 5 us of the
			 * truth (an extreme clock, 800 ppm off, takes longer: its
			 * first blocks were picked on the nominal line)
			 */
			if (k * PERIOD > (fabs(drifts[d]) > 300 ? 10 : 5) * SEC && err > worst)
				worst = err;
		}
		assert_true(worst < 5000);
		assert_true(fabs(g.drift * 1e6 - drifts[d]) < 2);
		/* the frame length it reports (JACK MIDI's period) is the fitted one */
		assert_true(fabs(al_grid_frame_ns(&g) * RATE / 1e9 - 1 - drifts[d] * 1e-6) < 2e-6);
	}
}

/*
 * A sustained lateness step from 10 to 200 us (a thread that takes a slice
 * of every period): the figure stays at 200 us for as long as it lasts,
 * not 190, 123, 57, 0 us after 0, 25, 50, 75 periods (the old creeping grid).
 */
static void
grid_keeps_a_sustained_lateness(void **state)
{
	/* late in a long run, and early in a short one (3 s in: most of the window) */
	static const int64_t before_s[] = { 20, 3 };
	struct al_grid g;
	uint64_t x = 777;
	int64_t k, late, n_before;
	size_t r;

	(void)state;
	for (r = 0; r < sizeof(before_s) / sizeof(before_s[0]); r++) {
	n_before = before_s[r] * SEC / PERIOD;
	memset(&g, 0, sizeof(g));
	al_grid_start(&g, RATE);
	for (k = 0; k < n_before + 6 * SEC / PERIOD; k++) {
		bool step = k >= n_before;
		/* 10 us late (+- 2 us), then 200 us: a thread taking 190 us of every period */
		int64_t j = 8000 + (int64_t)((x = x * 6364136223846793005ull + 1) >> 33) % 4000;
		int64_t wake = device_time(k, 23) + j + (step ? 190 * 1000 : 0);
		int64_t b = al_grid_boundary(&g, k * FRAMES, wake);

		/* the figure is the lateness above the earliest (8 us) */
		late = wake - b;
		if (k > 3 * SEC / PERIOD && !step)
			assert_true(late >= -1000 && late <= 5000);
		if (step) /* 0, 25, 50, 75 ... periods into the step: all of it */
			assert_true(late >= 189000 && late <= 195000);
	}
	}
}

/* The first second: the earliest wake-up so far is the grid (nothing better is known). */
static void
grid_starts_from_the_earliest_wakeup(void **state)
{
	static const int jitter_us[] = { 40, 10, 25, 300, 12, 10, 11, 80, 10, 10 };
	struct al_grid g;
	int64_t b, wake;
	size_t i;

	(void)state;
	memset(&g, 0, sizeof(g));
	al_grid_start(&g, RATE);
	for (i = 0; i < sizeof(jitter_us) / sizeof(jitter_us[0]); i++) {
		wake = device_time((int64_t)i, 0) + jitter_us[i] * 1000LL;
		b = al_grid_boundary(&g, (int64_t)i * FRAMES, wake);
		if (i == 0)
			assert_int_equal(b, wake); /* the first wake-up starts the grid */
		if (i >= 2) /* from the earliest wake-up so far, 10 us late */
			assert_true(llabs(wake - b - (jitter_us[i] - 10) * 1000LL) <= 1);
	}
}

/* A restart (an xrun) starts a new line where the device resumes; the drift is kept. */
static void
grid_restart_keeps_the_drift(void **state)
{
	struct al_grid g;
	int64_t k, shift = 250 * MS + 1234567, b = 0, wake = 0;

	(void)state;
	memset(&g, 0, sizeof(g));
	al_grid_start(&g, RATE);
	for (k = 0; k < 40 * SEC / PERIOD; k++)
		al_grid_boundary(&g, k * FRAMES, device_time(k, 100) + 10000);
	assert_true(fabs(g.drift * 1e6 - 100) < 2);
	al_grid_start(&g, RATE);
	assert_true(fabs(g.drift * 1e6 - 100) < 2);
	/*
	 * The device stood still for shift ns: its frame clock moved on. The
	 * new line starts at the first wake-up (10 us late: read as 0), then
	 * keeps the old drift: no error accumulates over the 5 s.
	 */
	for (k = 40 * SEC / PERIOD; k < 45 * SEC / PERIOD; k++) {
		wake = device_time(k, 100) + shift + 10000;
		b = al_grid_boundary(&g, k * FRAMES, wake);
		assert_true(llabs(wake - b) <= 1000);
	}
}

/*
 * A quarter second in which every wake-up came 100 us late (a host busy
 * for that long), the whole fifth block of a line: a drift from the one
 * pair a second apart that 5 blocks give tilted the line by 100 us a
 * second, and the boundaries after it read 71 us early (JACK MIDI events
 * 1.25-1.5 s after a stall read late). The drift waits for 3 pairs, and
 * their median leaves the late block out.
 */
static void
grid_one_late_block_keeps_the_drift(void **state)
{
	struct al_grid g;
	uint64_t x = 4242;
	int64_t k, worst = 0;

	(void)state;
	memset(&g, 0, sizeof(g));
	al_grid_start(&g, RATE);
	for (k = 0; k < 4 * SEC / PERIOD; k++) {
		int64_t t = k * PERIOD;
		bool busy = t >= 990 * MS && t < 1270 * MS;
		int64_t j = 10000 + (int64_t)((x = x * 6364136223846793005ull + 1) >> 33) % 4000;
		int64_t wake = device_time(k, 0) + j + (busy ? 100 * 1000 : 0);
		int64_t b = al_grid_boundary(&g, k * FRAMES, wake);

		/* the figure is the lateness above the earliest (10 us) */
		if (t >= 1300 * MS && llabs(wake - b - (j - 10000)) > worst)
			worst = llabs(wake - b - (j - 10000));
	}
	assert_true(worst < 5000);
	assert_true(fabs(g.drift * 1e6) < 2);
}

/*
 * The device's frame count stood still for one period (pcm_jack: jackd
 * left its client out of a cycle, and that cycle's audio is gone): every
 * later period read one period late, 5.4 ms for 0.1 ms, for as long as the
 * run lasted. Seen behind at 4 wake-ups in a row, the line moves a period
 * later once: the lost period is reported from when it was due, and the
 * wake-ups after it read their own lateness again.
 */
static void
grid_a_lost_period_moves_the_line(void **state)
{
	struct al_grid g;
	uint64_t x = 99;
	int64_t k, n, lost = 3 * SEC / PERIOD, from = 0, found = 0, slips = 0;

	(void)state;
	memset(&g, 0, sizeof(g));
	al_grid_start(&g, RATE);
	for (k = 0; k < 6 * SEC / PERIOD; k++) {
		int64_t j = 10000 + (int64_t)((x = x * 6364136223846793005ull + 1) >> 33) % 4000;
		int64_t wake = device_time(k, 0) + j, b, got, from_ns = 0;

		if (k == lost)
			continue; /* no wake-up: its cycle never came */
		n = k > lost ? k - 1 : k; /* the frames the device counts */
		b = al_grid_boundary(&g, n * FRAMES, wake);
		got = al_grid_behind(&g, n * FRAMES, FRAMES, wake, &from_ns);
		if (got) {
			slips++;
			found = k;
			from = from_ns;
			b += (int64_t)llround(al_grid_frame_ns(&g) * (double)(got * FRAMES));
			assert_int_equal(got, 1);
		}
		if (k > lost + AL_GRID_BEHIND_WAKES || (k > SEC / PERIOD && k < lost))
			assert_true(wake - b >= -1000 && wake - b <= 5000);
	}
	assert_int_equal(slips, 1);
	assert_int_equal(found, lost + AL_GRID_BEHIND_WAKES);
	/* the period lost was due when its cycle should have come (the line: 10 us late) */
	assert_true(llabs(from - device_time(lost, 0) - 10000) <= 2000);
}

/*
 * No lost period where none was: a lateness of 0.8 of a period for 3 s (a
 * client ahead of ours taking that much of every cycle), and one cycle 1.5
 * periods late that a card then catches up (two periods at the next
 * wake-up). The lateness reads as itself, the line never moves.
 */
static void
grid_a_lateness_is_no_lost_period(void **state)
{
	struct al_grid g;
	uint64_t x = 5;
	int64_t k, from_ns;

	(void)state;
	memset(&g, 0, sizeof(g));
	al_grid_start(&g, RATE);
	for (k = 0; k < 6 * SEC / PERIOD; k++) {
		int64_t t = k * PERIOD, late = t >= 2 * SEC && t < 5 * SEC ? PERIOD * 8 / 10 : 0;
		int64_t j = 10000 + (int64_t)((x = x * 6364136223846793005ull + 1) >> 33) % 4000;
		int64_t wake = device_time(k, 0) + j + late, b;

		if (k == SEC / PERIOD + 7)
			wake += PERIOD * 3 / 2; /* late, and the next one comes at once */
		if (k == SEC / PERIOD + 8)
			wake = device_time(k - 1, 0) + PERIOD * 3 / 2 + j + 100000;
		b = al_grid_boundary(&g, k * FRAMES, wake);
		assert_int_equal(al_grid_behind(&g, k * FRAMES, FRAMES, wake, &from_ns), 0);
		if (late && t >= 2 * SEC + 100 * MS)
			assert_true(wake - b >= late - 1000 && wake - b <= late + 5000);
	}
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
		cmocka_unit_test(grid_fits_drift_and_phase),
		cmocka_unit_test(grid_keeps_a_sustained_lateness),
		cmocka_unit_test(grid_starts_from_the_earliest_wakeup),
		cmocka_unit_test(grid_restart_keeps_the_drift),
		cmocka_unit_test(grid_one_late_block_keeps_the_drift),
		cmocka_unit_test(grid_a_lost_period_moves_the_line),
		cmocka_unit_test(grid_a_lateness_is_no_lost_period),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
