/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's windows (src/core/mwin.c): every period due is counted
 * once, in the window it was due in, whatever a stall did; the ring, the
 * cumulative figures and the archive agree with each other and with the
 * run's own statistics.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/mwin.h"
#include "core/result.h"

#define MS AL_NS_PER_MS
#define US AL_NS_PER_US
#define P (1 * MS)
#define T0 (1000 * MS)

static struct al_mw_ring ring;
static struct al_mw_live live;
static struct al_period_stats st;
static int64_t prev_wake;

/* A period due at t (from the start), woken lat later, missed periods after it. */
static void
period(int64_t t_ns, int64_t lat_ns, int64_t missed)
{
	struct al_sample s = {
		.boundary_ns = T0 + t_ns,
		.wake_ns = T0 + t_ns + lat_ns,
		.prev_wake_ns = prev_wake,
		.work_ns = 10 * US,
		.seen_ns = T0 + t_ns + lat_ns + 10 * US,
		.margin_ns = INT64_MAX,
		.missed = missed,
	};

	if (missed) {
		s.xrun_start_ns = T0 + t_ns;
		s.xrun_ns = lat_ns;
		s.lost_periods = missed;
	}
	al_mw_record(&ring, &live, &s, P);
	al_period_stats_record(&st, &s, P);
	prev_wake = s.wake_ns;
}

static int
setup(void **state)
{
	(void)state;
	al_mw_ring_init(&ring, 100 * MS);
	ring.start_mono_ns = T0;
	al_mw_live_init(&live);
	al_period_stats_init(&st);
	prev_wake = 0;
	return 0;
}

static uint64_t
bucket_sum(const uint64_t *b)
{
	uint64_t n = 0;

	for (int i = 0; i < AL_MW_BUCKETS; i++)
		n += b[i];
	return n;
}

/* A 300 ms stall at 450 ms: its periods in windows 4..7, one xrun in window 4. */
static void
test_stall_windows(void **state)
{
	struct al_mw w[16];
	struct al_mw_totals t;
	int64_t t_ns;
	int n = 0;

	(void)state;
	for (t_ns = 0; t_ns < 450 * MS; t_ns += P)
		period(t_ns, 20 * US, 0);
	/* woken 300 ms late: the 300 boundaries after it passed before the wake-up */
	period(450 * MS, 300 * MS, 300);
	for (t_ns = 751 * MS; t_ns < 1000 * MS; t_ns += P)
		period(t_ns, 20 * US, 0);
	while (n < 16 && al_mw_ring_take(&ring, &w[n], 0))
		n++;
	assert_int_equal(n, 9); /* window 9 is still being written */
	assert_int_equal(al_mw_ring_take(&ring, &w[n], 1), 1);
	n++;
	assert_int_equal(al_mw_ring_take(&ring, &w[n], 1), 0);
	for (int i = 0; i < 10; i++) {
		assert_int_equal(w[i].start_ns, i * 100 * MS);
		assert_int_equal(w[i].periods, 100); /* every period due, once */
		assert_int_equal(bucket_sum(w[i].buckets), 100);
		assert_int_equal(w[i].xruns, i == 4);
	}
	/* window 4: its own 50 wake-ups, then the stall's: 300 ms at 450, 251 ms at 499 */
	assert_int_equal(w[4].wake_max_ns, 300 * MS);
	assert_int_equal(w[4].wakeups, 51);
	assert_int_equal(w[4].missed, 49);
	assert_int_equal(w[5].wake_max_ns, 250 * MS);
	assert_int_equal(w[5].wakeups, 0);
	assert_int_equal(w[7].wake_max_ns, 50 * MS);
	assert_int_equal(w[7].missed, 51); /* 700 .. 750, 750 charged 0 */
	assert_int_equal(w[7].wakeups, 49); /* 751 .. 799 */
	assert_int_equal(w[8].wake_max_ns, 20 * US);
	assert_int_equal(w[4].lost_periods, 300);
	/* the cumulative figures: the run's own statistics */
	al_mw_live_read(&live, &t);
	assert_int_equal(t.periods, 1000);
	assert_int_equal(t.periods, st.periods);
	assert_int_equal(t.missed, st.missed_periods);
	assert_int_equal(t.xruns, 1);
	assert_int_equal(t.wake_max_ns, 300 * MS);
	assert_int_equal(bucket_sum(t.wake_buckets), 1000);
	/* in (200 ms, 500 ms]: its own 300 ms and the 99 due at 451 .. 549 */
	assert_int_equal(t.wake_buckets[al_mw_bucket_of(300 * MS)], 100);
	assert_int_equal(ring.lost, 0);
}

/* A stall longer than the ring: its periods still counted, the overrun windows lost. */
static void
test_stall_longer_than_ring(void **state)
{
	struct al_mw w;
	struct al_mw_totals t;
	uint64_t periods = 0, n = 0;
	int64_t stall = (AL_MW_RING + 10) * 100 * MS;

	(void)state;
	period(0, 20 * US, 0);
	period(P, stall, stall / P);
	period(P + stall + P, 20 * US, 0);
	while (al_mw_ring_take(&ring, &w, 1)) {
		periods += w.periods;
		n++;
	}
	al_mw_live_read(&live, &t);
	assert_int_equal(t.periods, 3 + stall / P);
	/* the window the stall began in (its first period) was overrun too */
	assert_int_equal(periods + ring.skipped + 1, t.periods);
	assert_true(ring.lost > 0);
	assert_true(n <= AL_MW_RING);
}

/* The archive halves its resolution when full, and keeps every period. */
static void
test_series_halves(void **state)
{
	struct al_mw_series s;
	struct al_mw w;
	uint64_t total = 0;

	(void)state;
	assert_int_equal(al_mw_series_init(&s, 100 * MS, 8), 0);
	for (int i = 0; i < 20; i++) {
		al_mw_init(&w, i * 100 * MS, 100 * MS);
		al_mw_add_run(&w, 10 * US, US, 7);
		al_mw_series_push(&s, &w);
	}
	assert_int_equal(s.len_ns, 400 * MS);
	assert_int_equal(s.n, 5);
	for (size_t i = 0; i < s.n; i++) {
		assert_int_equal(s.w[i].start_ns, (int64_t)i * 400 * MS);
		total += s.w[i].periods;
	}
	assert_int_equal(total, 20 * 7);
	assert_int_equal(s.w[0].wake_max_ns, 16 * US);
	assert_int_equal(s.w[0].wake_min_ns, 10 * US);
	al_mw_series_free(&s);
}

/* A run's buckets as one value at a time would fill them. */
static void
test_add_run(void **state)
{
	struct al_mw a, b;

	(void)state;
	al_mw_init(&a, 0, MS);
	al_mw_init(&b, 0, MS);
	al_mw_add_run(&a, -3 * US, 7 * US, 2000);
	for (int i = 0; i < 2000; i++)
		al_mw_add(&b, -3 * US + i * 7 * US);
	assert_memory_equal(a.buckets, b.buckets, sizeof(a.buckets));
	assert_int_equal(a.wake_sum_ns, b.wake_sum_ns);
	assert_int_equal(a.wake_max_ns, b.wake_max_ns);
	assert_int_equal(al_mw_bucket_of(5 * US), 0);
	assert_int_equal(al_mw_bucket_of(5 * US + 1), 1);
	assert_int_equal(al_mw_bucket_of(11 * AL_NS_PER_SEC), AL_MW_BOUNDS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(test_stall_windows, setup),
		cmocka_unit_test_setup(test_stall_longer_than_ring, setup),
		cmocka_unit_test(test_series_halves),
		cmocka_unit_test(test_add_run),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
