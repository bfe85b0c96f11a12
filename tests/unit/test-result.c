/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results model: what one recorded period does to the statistics. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/result.h"

#define MS AL_NS_PER_MS
#define US AL_NS_PER_US

static struct al_result r;

static int
setup(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 48,
				 .periods = 3, .cpu_load_pct = 80 };

	(void)state;
	assert_int_equal(al_result_alloc(&r, &cfg, 2, 4), 0);
	r.start_mono_ns = 1000 * MS;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	al_result_free(&r);
	return 0;
}

static void
record(int64_t boundary_ns, int64_t wake_ns, int64_t prev_ns, int64_t xrun_start_ns,
       int64_t xrun_ns, int64_t lost)
{
	struct al_sample s = {
		.boundary_ns = boundary_ns,
		.wake_ns = wake_ns,
		.prev_wake_ns = prev_ns,
		.work_ns = 800 * US,
		.margin_ns = 2 * MS - (wake_ns - boundary_ns),
		.missed = 0,
		.xrun_start_ns = xrun_start_ns,
		.xrun_ns = xrun_ns,
		.lost_periods = lost,
	};

	al_result_record(&r, &s);
}

static void
derived_times(void **state)
{
	(void)state;
	assert_int_equal(r.period_ns, 1 * MS);
	assert_int_equal(r.buffer_ns, 3 * MS);
	assert_string_equal(r.phases[0].load, "none");
}

static void
intervals_and_factors(void **state)
{
	const struct al_period_stats *st;

	(void)state;
	record(1001 * MS, 1001 * MS + 10 * US, 0, 0, 0, 0);        /* first: no interval */
	record(1002 * MS, 1002 * MS + 20 * US, 1001 * MS + 10 * US, 0, 0, 0);   /* 1.01 ms */
	record(1003 * MS, 1004 * MS + 500 * US, 1002 * MS + 20 * US, 0, 0, 0);  /* 2.48 ms */
	record(1004 * MS, 1007 * MS + 100 * US, 1004 * MS + 500 * US, 0, 0, 0); /* 2.6 ms */
	al_result_finish(&r);
	st = &r.total;
	assert_int_equal(st->periods, 4);
	assert_int_equal(st->interval_ns.count, 3);
	assert_int_equal(st->within_1ms, 1);
	assert_int_equal(st->within_2ms, 3);
	assert_int_equal(st->wake_ns.max_ns, 3100 * US);
	assert_int_equal(st->interval_ns.max_ns, 2600 * US);
	assert_int_equal(st->min_margin_ns, 2 * MS - 3100 * US);
	assert_float_equal(al_stats_within_pct(st, 1), 100.0 / 3, 1e-9);
	assert_float_equal(al_stats_within_pct(st, 2), 100.0, 1e-9);
	assert_float_equal(al_stats_max_interval_pct(st, r.buffer_ns), 2600.0 / 30, 1e-9);
	assert_int_equal(atomic_load(&r.live.periods), 4);
	assert_int_equal(atomic_load(&r.live.max_wake_ns), 3100 * US);
}

static void
xruns_go_to_the_current_phase_and_the_event_list(void **state)
{
	(void)state;
	record(1001 * MS, 1001 * MS, 0, 0, 0, 0);
	atomic_store(&r.live.phase, 1);
	record(1002 * MS, 1203 * MS, 1001 * MS, 1004 * MS, 199 * MS, 200);
	al_result_finish(&r);
	assert_int_equal(r.phases[0].stats.periods, 1);
	assert_int_equal(r.phases[0].stats.xruns, 0);
	assert_int_equal(r.phases[1].stats.periods, 1);
	assert_int_equal(r.phases[1].stats.xruns, 1);
	assert_int_equal(r.phases[1].stats.lost_periods, 200);
	assert_int_equal(r.total.xruns, 1);
	assert_int_equal(r.total.xrun_ns, 199 * MS);
	assert_int_equal(atomic_load(&r.n_xrun_events), 1);
	assert_int_equal(r.xrun_events[0].t_ns, 4 * MS); /* relative to the start */
	assert_int_equal(r.xrun_events[0].duration_ns, 199 * MS);
	assert_int_equal(r.xrun_events[0].phase, 1);
}

/* Two xruns: the time starved is their sum, each event keeps its own. */
static void
xrun_time_is_the_sum_of_the_xruns(void **state)
{
	(void)state;
	record(1001 * MS, 1001 * MS, 0, 0, 0, 0);
	record(1002 * MS, 1203 * MS, 1001 * MS, 1004 * MS, 199 * MS, 200);
	record(1204 * MS, 1208 * MS, 1203 * MS, 1205 * MS, 3 * MS, 3);
	al_result_finish(&r);
	assert_int_equal(r.total.xruns, 2);
	assert_int_equal(r.total.xrun_ns, 202 * MS);
	assert_int_equal(r.total.lost_periods, 203);
	assert_int_equal(r.phases[0].stats.xrun_ns, 202 * MS);
	assert_int_equal(r.xrun_events[1].duration_ns, 3 * MS);
	assert_int_equal(r.xrun_events[1].lost_periods, 3);
}

static void
record_from(int64_t boundary_ns, int64_t wake_ns, int64_t xrun_start_ns, int64_t xrun_ns,
	    int64_t lost, enum al_xrun_source src)
{
	struct al_sample s = {
		.boundary_ns = boundary_ns, .wake_ns = wake_ns, .prev_wake_ns = 0,
		.work_ns = -1, .margin_ns = INT64_MAX, .xrun_start_ns = xrun_start_ns,
		.xrun_ns = xrun_ns, .lost_periods = lost, .xrun_source = src,
	};

	al_result_record(&r, &s);
}

/*
 * One xrun definition (docs/truth.md): a second source's evidence of the
 * same starvation (its span overlaps the event's) is that event, grown to
 * the later end and the most periods lost, with both sources named; no
 * second event, no second count.
 */
static void
overlapping_evidence_is_one_event(void **state)
{
	(void)state;
	record_from(1001 * MS, 1001 * MS, 0, 0, 0, AL_XRUN_DEVICE);
	record_from(1002 * MS, 1150 * MS, 1010 * MS, 140 * MS, 140, AL_XRUN_DEVICE);
	/* our account saw it go on to 1160 ms, a period more */
	record_from(1151 * MS, 1161 * MS, 1100 * MS, 60 * MS, 141, AL_XRUN_ACCOUNT);
	al_result_finish(&r);
	assert_int_equal(r.total.xruns, 1);
	assert_int_equal(atomic_load(&r.n_xrun_events), 1);
	assert_int_equal(r.xrun_events[0].t_ns, 10 * MS);
	assert_int_equal(r.xrun_events[0].duration_ns, 150 * MS);
	assert_int_equal(r.xrun_events[0].lost_periods, 141);
	assert_int_equal(r.xrun_events[0].source, AL_XRUN_DEVICE);
	assert_int_equal(r.xrun_events[0].seen_by,
			 (1u << AL_XRUN_DEVICE) | (1u << AL_XRUN_ACCOUNT));
	assert_int_equal(r.total.xrun_ns, 150 * MS);
	assert_int_equal(r.total.lost_periods, 141);
	assert_int_equal(atomic_load(&r.live.xruns), 1);
}

/* Two stalls with audio served between them are two events, however close. */
static void
two_stalls_apart_are_two_events(void **state)
{
	(void)state;
	record_from(1001 * MS, 1001 * MS, 0, 0, 0, AL_XRUN_COUNTER);
	record_from(1002 * MS, 1150 * MS, 1002 * MS, 148 * MS, 148, AL_XRUN_COUNTER);
	record_from(1151 * MS, 1151 * MS, 0, 0, 0, AL_XRUN_COUNTER);
	/* the next begins 1 ns after the first ended */
	record_from(1152 * MS, 1300 * MS, 1150 * MS + 1, 150 * MS - 1, 148, AL_XRUN_COUNTER);
	al_result_finish(&r);
	assert_int_equal(r.total.xruns, 2);
	assert_int_equal(atomic_load(&r.n_xrun_events), 2);
	assert_int_equal(r.total.lost_periods, 296);
	assert_int_equal(r.xrun_events[1].seen_by, 1u << AL_XRUN_COUNTER);
}

/*
 * A server's notification for a cycle that served us is no xrun of ours:
 * listed as server_reported, counted apart, in no total, window or
 * status line; one that lands inside an event of ours does not grow it.
 */
static void
server_notifications_are_not_ours(void **state)
{
	(void)state;
	record_from(1001 * MS, 1001 * MS, 1001 * MS, 4 * MS, 0, AL_XRUN_SERVER);
	record_from(1002 * MS, 1100 * MS, 1002 * MS, 98 * MS, 98, AL_XRUN_COUNTER);
	record_from(1101 * MS, 1101 * MS, 1050 * MS, 90 * MS, 0, AL_XRUN_SERVER);
	al_result_finish(&r);
	assert_int_equal(r.total.xruns, 1);
	assert_int_equal(r.total.server_xruns, 2);
	assert_int_equal(r.total.xrun_ns, 98 * MS);
	assert_int_equal(atomic_load(&r.n_xrun_events), 1);
	assert_int_equal(r.xrun_events[0].duration_ns, 98 * MS);
	assert_int_equal(atomic_load(&r.n_server_events), 2);
	assert_int_equal(r.server_events[0].source, AL_XRUN_SERVER);
	assert_int_equal(atomic_load(&r.live.xruns), 1);
	/* (both in the first window of 100 ms: the counter's alone counted there) */
	assert_int_equal(r.windows[0].xruns, 1);
}

/* An interval exactly 1 ms (2 ms) off the period is within 1 ms (2 ms): the edges count. */
static void
interval_edges_are_within(void **state)
{
	const struct al_period_stats *st;

	(void)state;
	/* 1 ms periods: intervals of 2 ms (1 ms off), 3 ms (2 ms off), 3.001 ms */
	record(1001 * MS, 1001 * MS, 0, 0, 0, 0);
	record(1002 * MS, 1003 * MS, 1001 * MS, 0, 0, 0);
	record(1003 * MS, 1006 * MS, 1003 * MS, 0, 0, 0);
	record(1004 * MS, 1009 * MS + 1 * US, 1006 * MS, 0, 0, 0);
	al_result_finish(&r);
	st = &r.total;
	assert_int_equal(st->interval_ns.count, 3);
	assert_int_equal(st->within_1ms, 1);
	assert_int_equal(st->within_2ms, 2);
}

static void
xrun_events_beyond_capacity_are_counted(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		record((1001 + 10 * i) * MS, (1005 + 10 * i) * MS, 0, (1004 + 10 * i) * MS, MS,
		       1);
	al_result_finish(&r);
	assert_int_equal(r.total.xruns, 6);
	assert_int_equal(atomic_load(&r.n_xrun_events), 4);
	assert_int_equal(atomic_load(&r.xrun_events_dropped), 2);
}

static void
warnings_are_bounded(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < AL_WARN_MAX + 3; i++)
		al_result_warn(&r, "warning %d %s", i, "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
						       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
						       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx"
						       "xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx");
	assert_int_equal(r.n_warnings, AL_WARN_MAX);
	assert_int_equal(strlen(r.warnings[0]), AL_WARN_LEN - 1);
}

static void
long_runs_get_longer_windows(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 48,
				 .periods = 3, .duration_ns = 86400 * AL_NS_PER_SEC };
	struct al_result day;

	(void)state;
	assert_int_equal(al_result_alloc(&day, &cfg, 1, 4), 0);
	assert_true(day.window_ns > 2 * AL_NS_PER_SEC && day.window_ns < 3 * AL_NS_PER_SEC);
	assert_true(day.window_cap <= AL_WINDOWS_MAX);
	assert_true((int64_t)day.window_cap * day.window_ns >= cfg.duration_ns);
	al_result_free(&day);
	cfg.duration_ns = 10 * AL_NS_PER_SEC;
	assert_int_equal(al_result_alloc(&day, &cfg, 1, 4), 0);
	assert_int_equal(day.window_ns, AL_WINDOW_DEFAULT_NS);
	assert_int_equal(day.window_cap, 112); /* 10 s and the 1 s the end takes */
	al_result_free(&day);
	/* loads take time to start and stop: 15 s a phase more, so the tail is drawn */
	snprintf(cfg.load_spec, sizeof(cfg.load_spec), "idle:5s,hackbench:5s");
	assert_int_equal(al_result_alloc(&day, &cfg, 2, 4), 0);
	assert_int_equal(day.window_cap, 412);
	al_result_free(&day);
}

/*
 * The case: a 200 ms stall swallowed 150 of 1.333 ms periods among
 * 2000 on time. Per period due, those 150 are late by up to 200 ms, and
 * p99 says so; per wake-up (cyclictest's view) they do not exist.
 */
static void
a_stall_is_charged_per_period(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 64,
				 .periods = 3, .duration_ns = 3 * AL_NS_PER_SEC };
	struct al_result x;
	struct al_sample s = { 0 };
	int64_t p, b = 1000 * MS, prev = 0;
	int i;

	(void)state;
	assert_int_equal(al_result_alloc(&x, &cfg, 1, 4), 0);
	x.start_mono_ns = b;
	p = x.period_ns;
	for (i = 0; i < 2000; i++) {
		s.boundary_ns = b;
		s.wake_ns = b + 20 * US;
		s.seen_ns = s.wake_ns + 800 * US;
		s.missed = 0;
		if (i == 1000) {
			/* woke on time, then stopped for 200 ms in the work */
			s.seen_ns = s.wake_ns + 200 * MS;
			s.missed = (s.seen_ns - b) / p;
		}
		s.prev_wake_ns = prev;
		s.work_ns = s.seen_ns - s.wake_ns;
		s.margin_ns = MS;
		al_result_record(&x, &s);
		prev = s.wake_ns;
		b += p * (1 + s.missed);
	}
	al_result_finish(&x);
	assert_int_equal(x.total.missed_periods, 150);
	assert_int_equal(x.total.wakeups, 2000);
	assert_int_equal(x.total.periods, 2150);
	assert_int_equal(x.total.wakeup_ns.count, 2000);
	assert_int_equal(x.total.wake_ns.count, 2150);
	/* per wake-up: every one 20 us late */
	assert_int_equal(al_hist_quantile(&x.total.wakeup_ns, 0.99), 20 * US);
	/* per period: the 150 swallowed ones were served at seen, 200.02 ms after our boundary */
	assert_int_equal(x.total.wake_ns.max_ns, 200 * MS + 20 * US - p);
	assert_int_equal(x.total.missed_ns.min_ns, 200 * MS + 20 * US - 150 * p);
	/* p99 of 2150: rank 2129, the 21st largest: 200.02 ms - 21 periods (within 1 %) */
	assert_true(llabs(al_hist_quantile(&x.total.wake_ns, 0.99) - (200 * MS + 20 * US - 21 * p)) <
		    2 * MS);
	/* 1MS factor per period: the swallowed ones above 1 ms are not within */
	assert_true(al_stats_within_pct(&x.total, 1) < 93.5);
	assert_true(al_stats_within_pct_per_wakeup(&x.total, 1) > 99.9);
	/* the time series: the windows the stall covered hold its periods */
	assert_true(x.windows[14].periods > 0 && x.windows[14].wakeups == 0);
	assert_true(x.windows[14].wake_max_ns > 100 * MS);
	/* every period due is in one window, once: the swallowed 150 too */
	{
		uint64_t periods = 0, wakeups = 0;

		for (i = 0; i < (int)x.n_windows; i++) {
			periods += x.windows[i].periods;
			wakeups += x.windows[i].wakeups;
		}
		assert_int_equal(periods, 2150);
		assert_int_equal(wakeups, 2000);
	}
	/* the max latency's share of the buffer is per period: the stall's, not 20 us */
	assert_float_equal(al_stats_max_latency_pct(&x.total, x.buffer_ns),
			   100.0 * (double)(200 * MS + 20 * US - p) / (double)x.buffer_ns, 1e-9);
	assert_int_equal(atomic_load(&x.live.max_wake_ns), 200 * MS + 20 * US - p);
	al_result_free(&x);
}

/* A callback backend's server ran 46 cycles without us: charged wake - due, from lat + p up. */
static void
missed_before_is_charged_to_the_wakeup(void **state)
{
	struct al_sample s = { 0 };
	int64_t p = r.period_ns;

	(void)state;
	s.boundary_ns = 1300 * MS;
	s.wake_ns = s.boundary_ns + 2 * MS;
	s.seen_ns = s.wake_ns + 800 * US;
	s.missed_before = 46;
	s.prev_wake_ns = 1000 * MS;
	al_result_record(&r, &s);
	al_result_finish(&r);
	assert_int_equal(r.total.missed_periods, 46);
	assert_int_equal(r.total.periods, 47);
	assert_int_equal(r.total.wake_ns.min_ns, 2 * MS);
	assert_int_equal(r.total.wake_ns.max_ns, 2 * MS + 46 * p);
	assert_int_equal(r.total.missed_ns.min_ns, 2 * MS + p);
}

/* A stall while asleep: the boundaries before the late wake-up are charged wake - due. */
static void
a_late_wakeup_passes_over_boundaries(void **state)
{
	struct al_sample s = { 0 };
	int64_t p = r.period_ns;

	(void)state;
	s.boundary_ns = 1100 * MS;
	s.wake_ns = s.boundary_ns + 10 * p + 300 * US;
	s.seen_ns = s.wake_ns + 800 * US; /* the work passes one more */
	s.missed = (s.seen_ns - s.boundary_ns) / p;
	al_result_record(&r, &s);
	al_result_finish(&r);
	assert_int_equal(s.missed, 11);
	assert_int_equal(r.total.missed_periods, 11);
	/* 10 passed by the wake-up: 9p + 0.3 ms down to 0.3 ms; 1 during the work: 0.1 ms */
	assert_int_equal(r.total.wake_ns.max_ns, 10 * p + 300 * US);
	assert_int_equal(r.total.missed_ns.max_ns, 9 * p + 300 * US);
	assert_int_equal(r.total.missed_ns.min_ns, 100 * US);
	assert_int_equal(r.total.missed_within_1ms, 2);
}

/* What was not measured is not a number: the JSON writes null (json.c). */
static void
nothing_measured_is_not_a_number(void **state)
{
	(void)state;
	al_result_finish(&r);
	assert_true(isnan(al_stats_within_pct(&r.total, 1)));
	assert_true(isnan(al_stats_within_pct_per_wakeup(&r.total, 2)));
	assert_true(isnan(al_stats_max_latency_pct(&r.total, r.buffer_ns)));
	assert_true(isnan(al_stats_max_interval_pct(&r.total, r.buffer_ns)));
}

static void
windows_summarise_their_periods(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 48,
				 .periods = 3, .duration_ns = AL_NS_PER_SEC };
	struct al_result w;
	struct al_sample s = { 0 };
	int i;

	(void)state;
	assert_int_equal(al_result_alloc(&w, &cfg, 1, 4), 0);
	w.start_mono_ns = 1000 * MS;
	for (i = 0; i < 250; i++) { /* 1 ms periods: windows 0 and 1 full, 2 half */
		s.boundary_ns = w.start_mono_ns + i * MS;
		s.wake_ns = s.boundary_ns + (i == 150 ? 900 * US : 10 * US);
		s.prev_wake_ns = i ? s.wake_ns - MS : 0;
		s.margin_ns = MS;
		al_result_record(&w, &s);
	}
	assert_int_equal(w.n_windows, 3);
	assert_int_equal(w.windows[0].periods, 100);
	assert_int_equal(w.windows[1].periods, 100);
	assert_int_equal(w.windows[2].periods, 50);
	assert_int_equal(w.windows[1].wake_max_ns, 900 * US);
	assert_int_equal(w.windows[1].wake_min_ns, 10 * US);
	assert_int_equal(w.windows[0].wake_max_ns, 10 * US);
	assert_int_equal(w.windows[0].wake_sum_ns, 100 * 10 * US);
	al_result_free(&w);
}

/* --trace: the kernel's wake-to-run histogram judged against ours (al_kernel_wake_judge) */
static void
kernel_wake_agrees_within_one_percent_and_20us(void **state)
{
	struct al_period_stats st;
	struct al_kernel_wake k;
	int i;

	(void)state;
	al_period_stats_init(&st);
	for (i = 0; i < 1000; i++) {
		st.wakeups++;
		al_hist_add(&st.wakeup_ns, 30000 + i);
	}
	/* max ours 30999 ns: the kernel's 50 us is 19 us more, 990 of 1000 counted */
	k = (struct al_kernel_wake){ .measured = true, .count = 990, .max_ns = 50000, .p50_ns = 30000 };
	al_kernel_wake_judge(&k, &st, false);
	assert_int_equal(k.ours_count, 1000);
	assert_int_equal(k.ours_max_ns, 30999);
	assert_true(k.agree);
	assert_string_equal(k.note, "");
	/* 989: 1.1 % fewer */
	k = (struct al_kernel_wake){ .measured = true, .count = 989, .max_ns = 50000 };
	al_kernel_wake_judge(&k, &st, false);
	assert_false(k.agree);
	assert_non_null(strstr(k.note, "without sleeping"));
	/* 1010 and maxima 21 us apart */
	k = (struct al_kernel_wake){ .measured = true, .count = 1010, .max_ns = 52000 };
	al_kernel_wake_judge(&k, &st, false);
	assert_false(k.agree);
	assert_null(strstr(k.note, "without sleeping"));
	/* the kernel's table dropped some: not agreed, said */
	k = (struct al_kernel_wake){ .measured = true, .count = 1000, .max_ns = 31000, .dropped = 3 };
	al_kernel_wake_judge(&k, &st, false);
	assert_false(k.agree);
	assert_non_null(strstr(k.note, "dropped"));
	/* fitted boundaries: the note names the floor the kernel saw */
	k = (struct al_kernel_wake){ .measured = true, .count = 1000, .max_ns = 72000, .p50_ns = 41000 };
	al_kernel_wake_judge(&k, &st, true);
	assert_false(k.agree);
	assert_non_null(strstr(k.note, "fitted"));
	assert_non_null(strstr(k.note, "p50 is 41 us"));
	/* measured boundaries, ours above the kernel's: the note says whose cost it is */
	k = (struct al_kernel_wake){ .measured = true, .count = 1000, .max_ns = 5000, .p50_ns = 2000 };
	al_kernel_wake_judge(&k, &st, false);
	assert_false(k.agree);
	assert_true(k.ours_p50_ns >= 30000 && k.ours_p50_ns <= 31000);
	assert_non_null(strstr(k.note, "period boundary"));
	/* not made: left as it was */
	k = (struct al_kernel_wake){ .measured = false };
	al_kernel_wake_judge(&k, &st, false);
	assert_false(k.agree);
	assert_int_equal(k.ours_count, 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(derived_times, setup, teardown),
		cmocka_unit_test_setup_teardown(intervals_and_factors, setup, teardown),
		cmocka_unit_test_setup_teardown(xruns_go_to_the_current_phase_and_the_event_list,
						setup, teardown),
		cmocka_unit_test_setup_teardown(xrun_time_is_the_sum_of_the_xruns, setup, teardown),
		cmocka_unit_test_setup_teardown(interval_edges_are_within, setup, teardown),
		cmocka_unit_test_setup_teardown(overlapping_evidence_is_one_event, setup, teardown),
		cmocka_unit_test_setup_teardown(two_stalls_apart_are_two_events, setup, teardown),
		cmocka_unit_test_setup_teardown(server_notifications_are_not_ours, setup, teardown),
		cmocka_unit_test_setup_teardown(xrun_events_beyond_capacity_are_counted, setup,
						teardown),
		cmocka_unit_test_setup_teardown(warnings_are_bounded, setup, teardown),
		cmocka_unit_test(long_runs_get_longer_windows),
		cmocka_unit_test(a_stall_is_charged_per_period),
		cmocka_unit_test_setup_teardown(missed_before_is_charged_to_the_wakeup, setup,
						teardown),
		cmocka_unit_test_setup_teardown(a_late_wakeup_passes_over_boundaries, setup,
						teardown),
		cmocka_unit_test_setup_teardown(nothing_measured_is_not_a_number, setup, teardown),
		cmocka_unit_test(windows_summarise_their_periods),
		cmocka_unit_test(kernel_wake_agrees_within_one_percent_and_20us),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
