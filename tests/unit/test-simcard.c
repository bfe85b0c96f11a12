/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The simulated card driven by a fake clock: exact boundaries, margins, xruns. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "backend/simcard.h"
#include "core/clock.h"

#define T0 (10 * AL_NS_PER_SEC)
#define US AL_NS_PER_US
#define MS AL_NS_PER_MS

/* 48 kHz, 48-frame periods (exactly 1 ms), 3 periods: a 3 ms buffer */
static struct al_simcard card;

static int
setup(void **state)
{
	(void)state;
	al_simcard_init(&card, 48000, 48, 3);
	al_simcard_start(&card, T0);
	return 0;
}

static void
starts_full(void **state)
{
	(void)state;
	assert_int_equal(al_simcard_next_boundary_ns(&card), T0 + 1 * MS);
	assert_int_equal(al_simcard_empty_ns(&card), T0 + 3 * MS);
}

static void
on_time_writes_keep_the_buffer_full(void **state)
{
	struct al_write_info wi;
	int i;

	(void)state;
	for (i = 1; i <= 1000; i++) {
		int64_t b = al_simcard_next_boundary_ns(&card);

		assert_int_equal(b, T0 + i * MS);
		al_simcard_write(&card, b + 200 * US, &wi);
		assert_int_equal(wi.xrun_start_ns, 0);
		assert_int_equal(wi.lost_periods, 0);
		/* the one period waited for came free: none missed */
		assert_true(wi.missed_known);
		assert_int_equal(wi.missed, 0);
		/* 2 periods minus the 0.2 ms spent were left (57 frames consumed of 3) */
		assert_int_equal(wi.margin_ns, 1812500);
	}
}

static void
a_late_wake_up_writes_several_periods(void **state)
{
	struct al_write_info wi;

	(void)state;
	/* 1.5 periods late: 120 frames free, two whole periods written */
	al_simcard_write(&card, T0 + 2500 * US, &wi);
	assert_int_equal(wi.xrun_start_ns, 0);
	/* the second came free without a wake-up of its own: one missed */
	assert_true(wi.missed_known);
	assert_int_equal(wi.missed, 1);
	assert_int_equal(wi.margin_ns, 500 * US);
	assert_int_equal(al_simcard_next_boundary_ns(&card), T0 + 3 * MS);
	assert_int_equal(al_simcard_empty_ns(&card), T0 + 5 * MS);
}

static void
writing_exactly_when_empty_is_no_xrun(void **state)
{
	struct al_write_info wi;

	(void)state;
	al_simcard_write(&card, T0 + 3 * MS, &wi);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(wi.missed, 2); /* three periods free: two passed unseen */
	assert_int_equal(wi.margin_ns, 0);
	assert_int_equal(al_simcard_empty_ns(&card), T0 + 6 * MS);
}

static void
a_short_starvation_is_one_xrun(void **state)
{
	struct al_write_info wi;

	(void)state;
	al_simcard_write(&card, T0 + 3500 * US, &wi);
	assert_int_equal(wi.xrun_start_ns, T0 + 3 * MS);
	assert_int_equal(wi.xrun_ns, 500 * US);
	assert_int_equal(wi.lost_periods, 1);
	assert_int_equal(wi.margin_ns, 0);
	/* restarted full at the write */
	assert_int_equal(al_simcard_next_boundary_ns(&card), T0 + 4500 * US);
	assert_int_equal(al_simcard_empty_ns(&card), T0 + 6500 * US);
}

static void
a_200ms_stall_loses_every_period_it_covers(void **state)
{
	struct al_write_info wi;
	int64_t b;

	(void)state;
	al_simcard_write(&card, T0 + 1 * MS, &wi); /* on time */
	assert_int_equal(wi.xrun_start_ns, 0);
	b = al_simcard_next_boundary_ns(&card);
	assert_int_equal(b, T0 + 2 * MS);
	/* stopped from the boundary on for 201.5 ms: starved from 4 ms to 203.5 ms */
	al_simcard_write(&card, b + 201500 * US, &wi);
	assert_int_equal(wi.xrun_start_ns, T0 + 4 * MS);
	assert_int_equal(wi.xrun_ns, 199500 * US);
	assert_int_equal(wi.lost_periods, 200);
	/* and the next on-time period is clean again */
	b = al_simcard_next_boundary_ns(&card);
	assert_int_equal(b, T0 + 204500 * US);
	al_simcard_write(&card, b + 10 * US, &wi);
	assert_int_equal(wi.xrun_start_ns, 0);
}

static void
two_xruns_in_a_row(void **state)
{
	struct al_write_info wi;

	(void)state;
	al_simcard_write(&card, T0 + 10 * MS, &wi);
	assert_int_equal(wi.xrun_start_ns, T0 + 3 * MS);
	assert_int_equal(wi.xrun_ns, 7 * MS);
	assert_int_equal(wi.lost_periods, 8);
	al_simcard_write(&card, T0 + 20 * MS, &wi);
	assert_int_equal(wi.xrun_start_ns, T0 + 13 * MS);
	assert_int_equal(wi.xrun_ns, 7 * MS);
}

static void
fractional_periods_at_44100(void **state)
{
	struct al_write_info wi;
	int64_t b;
	int i;

	(void)state;
	/* 256-frame periods at 44.1 kHz: 5.804988... ms, never a whole ns */
	al_simcard_init(&card, 44100, 256, 2);
	al_simcard_start(&card, T0);
	for (i = 1; i <= 44100; i++) {
		b = al_simcard_next_boundary_ns(&card);
		/*
		 * The i-th boundary is when 256 i frames have played: 256 i / 44100 s,
		 * rounded up to the ns. Worked out here, not with the clock helpers
		 * the card itself uses: the first three by hand (5804988.66...,
		 * 11609977.32..., 17414965.98... ns), the rest by integer arithmetic.
		 */
		if (i == 1)
			assert_int_equal(b, T0 + 5804989);
		else if (i == 2)
			assert_int_equal(b, T0 + 11609978);
		else if (i == 3)
			assert_int_equal(b, T0 + 17414966);
		assert_int_equal(b, T0 + (256LL * i * 1000000000LL + 44099) / 44100);
		al_simcard_write(&card, b, &wi);
		assert_int_equal(wi.xrun_start_ns, 0);
	}
	/* after 256 s of periods the schedule has not drifted by a ns */
	assert_int_equal(b, T0 + 256 * AL_NS_PER_SEC);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(starts_full, setup),
		cmocka_unit_test_setup(on_time_writes_keep_the_buffer_full, setup),
		cmocka_unit_test_setup(a_late_wake_up_writes_several_periods, setup),
		cmocka_unit_test_setup(writing_exactly_when_empty_is_no_xrun, setup),
		cmocka_unit_test_setup(a_short_starvation_is_one_xrun, setup),
		cmocka_unit_test_setup(a_200ms_stall_loses_every_period_it_covers, setup),
		cmocka_unit_test_setup(two_xruns_in_a_row, setup),
		cmocka_unit_test_setup(fractional_periods_at_44100, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
