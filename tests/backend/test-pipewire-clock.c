/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PipeWire stream's clock arithmetic (pipewire-clock.c) without a
 * server, on the driver's clock as the process callback reads it: cycles
 * back to back are no xrun; a stall of k cycles is k - 1 missed and lost
 * periods from the first cycle not served; a position a little short of
 * whole quanta (a rate-matched driver) still counts its cycles; a
 * position that jumped with no time passed is a driver that started
 * again, not a stall; a driver held up (a cycle we did not miss, served
 * more than a period late) is one event losing the periods it stood
 * still, the late cycles of its catch-up its tail; so are a stall's.
 */
#include <pipewire/pipewire.h>

#define AL_PIPEWIRE_PRIVATE
#include "backend/pipewire-private.h"
#include "core/clock.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#define Q 256                /* frames a cycle */
#define P 5333333LL          /* their length at 48 kHz */
#define B0 (7200 * AL_NS_PER_SEC)
#define LATE 60000           /* our wake-up after the cycle was due */

static struct pwb *b;
static struct spa_io_clock clk;
static uint64_t pos;

static int
setup(void **state)
{
	(void)state;
	b = calloc(1, sizeof(*b));
	assert_non_null(b);
	b->rate_hz = 48000;
	memset(&clk, 0, sizeof(clk));
	clk.rate = SPA_FRACTION(1, 48000);
	clk.duration = Q;
	pos = 1000 * Q;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	free(b);
	return 0;
}

/* A cycle due at boundary_ns, its position advanced by adv frames; its write info. */
static uint64_t
cycle(int64_t adv, int64_t boundary_ns, int64_t wake_ns, struct al_write_info *wi)
{
	uint64_t cycles;

	memset(wi, 0, sizeof(*wi));
	pos += (uint64_t)adv;
	clk.position = pos;
	clk.nsec = (uint64_t)boundary_ns;
	cycles = pwb_cycles_since(b, &clk, Q, wake_ns, boundary_ns, P);
	pwb_account_xrun(b, &clk, cycles, wake_ns, boundary_ns, P, wi);
	pwb_remember_cycle(b, &clk, boundary_ns, wake_ns, boundary_ns);
	return cycles;
}

static void
back_to_back_is_no_xrun(void **state)
{
	struct al_write_info wi;
	int k;

	(void)state;
	for (k = 0; k < 10; k++) {
		assert_int_equal(cycle(Q, B0 + k * P, B0 + k * P + LATE, &wi), 1);
		assert_int_equal(wi.xrun_start_ns, 0);
		assert_int_equal(wi.missed_before, 0);
	}
	assert_int_equal(b->prev_period_ns, P);
	assert_int_equal(b->stalls + b->driver_late + b->counter_jumps + b->restarts, 0);
}

/* 6 quanta since our last cycle, 6 periods later: 5 ran without us */
static void
a_stall_loses_the_cycles_it_missed(void **state)
{
	struct al_write_info wi;
	int64_t wake = B0 + 6 * P + LATE;

	(void)state;
	cycle(Q, B0, B0 + LATE, &wi);
	assert_int_equal(cycle(6 * Q, B0 + 6 * P, wake, &wi), 6);
	assert_int_equal(wi.missed_before, 5);
	assert_int_equal(wi.lost_periods, 5);
	assert_int_equal(wi.xrun_source, AL_XRUN_COUNTER);
	/* from the first cycle not served, the one after our last, until we ran */
	assert_int_equal(wi.xrun_start_ns, B0 + P);
	assert_int_equal(wi.xrun_ns, wake - (B0 + P));
	assert_int_equal(b->stalls, 1);
	/* the next cycle on time: nothing more */
	assert_int_equal(cycle(Q, B0 + 7 * P, B0 + 7 * P + LATE, &wi), 1);
	assert_int_equal(wi.xrun_start_ns, 0);
}

/* a rate-matched driver's quanta vary by a few frames: 4 cycles are 4, not 3 */
static void
a_position_a_little_short_counts_its_cycles(void **state)
{
	struct al_write_info wi;

	(void)state;
	cycle(Q, B0, B0 + LATE, &wi);
	assert_int_equal(cycle(4 * Q - 5, B0 + 4 * P, B0 + 4 * P + LATE, &wi), 4);
	assert_int_equal(wi.missed_before, 3);
}

/* the position moved 50 quanta in one period: a driver that started again */
static void
a_jump_with_no_time_passed_is_no_stall(void **state)
{
	struct al_write_info wi;

	(void)state;
	cycle(Q, B0, B0 + LATE, &wi);
	assert_int_equal(cycle(50 * Q, B0 + P, B0 + P + LATE, &wi), 1);
	assert_int_equal(wi.missed_before, 0);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(b->counter_jumps, 1);
	assert_int_equal(b->stalls, 0);
}

/*
 * The driver held up 3.5 periods: its next cycle, not missed by us, comes
 * that late; the catch-up's next cycle is late too, but the same event.
 */
static void
a_driver_held_up_is_one_event(void **state)
{
	struct al_write_info wi;
	int64_t late = 3 * P + P / 2;

	(void)state;
	cycle(Q, B0, B0 + LATE, &wi);
	assert_int_equal(cycle(Q, B0 + P, B0 + P + late, &wi), 1);
	assert_int_equal(wi.missed_before, 0);
	assert_int_equal(wi.xrun_start_ns, B0 + P);
	assert_int_equal(wi.xrun_ns, late);
	assert_int_equal(wi.lost_periods, 3);
	assert_int_equal(wi.xrun_source, AL_XRUN_DRIVER);
	assert_int_equal(b->driver_late, 1);
	assert_int_equal(b->driver_late_max_ns, late);
	/* the catch-up: the next cycle at once, still late */
	assert_int_equal(cycle(Q, B0 + 2 * P, B0 + P + late + 100000, &wi), 1);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(b->driver_late, 1);
}

/*
 * A stall, its first cycle served just under a period late, and the next
 * one just over: the catch-up of the same stall, no event of the
 * driver's (truth-pipewire's two stalls read 3 events: the first stall's,
 * a driver's of 5.3 ms 23 us after it, the second's). Then on time, and a
 * driver really held up later is its own event again.
 */
static void
a_stall_s_late_catch_up_is_its_tail(void **state)
{
	struct al_write_info wi;

	(void)state;
	cycle(Q, B0, B0 + LATE, &wi);
	assert_int_equal(cycle(6 * Q, B0 + 6 * P, B0 + 6 * P + P - 20000, &wi), 6);
	assert_int_equal(wi.xrun_source, AL_XRUN_COUNTER);
	assert_int_equal(b->stalls, 1);
	assert_int_equal(cycle(Q, B0 + 7 * P, B0 + 7 * P + P + 15000, &wi), 1);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(b->driver_late, 0);
	assert_int_equal(cycle(Q, B0 + 8 * P, B0 + 8 * P + LATE, &wi), 1);
	assert_int_equal(wi.xrun_start_ns, 0);
	/* on time since: a driver held up 2.5 periods is an event */
	assert_int_equal(cycle(Q, B0 + 9 * P, B0 + 9 * P + 2 * P + P / 2, &wi), 1);
	assert_int_equal(wi.xrun_start_ns, B0 + 9 * P);
	assert_int_equal(wi.xrun_source, AL_XRUN_DRIVER);
	assert_int_equal(b->driver_late, 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(back_to_back_is_no_xrun, setup, teardown),
		cmocka_unit_test_setup_teardown(a_stall_loses_the_cycles_it_missed, setup, teardown),
		cmocka_unit_test_setup_teardown(a_position_a_little_short_counts_its_cycles, setup,
						teardown),
		cmocka_unit_test_setup_teardown(a_jump_with_no_time_passed_is_no_stall, setup, teardown),
		cmocka_unit_test_setup_teardown(a_driver_held_up_is_one_event, setup, teardown),
		cmocka_unit_test_setup_teardown(a_stall_s_late_catch_up_is_its_tail, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
