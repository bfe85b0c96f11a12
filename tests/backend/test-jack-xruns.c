/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The JACK backend's xrun arithmetic without a server: cycle_xruns(),
 * what the server's cycle counter and its notifications make of a stall
 * (jack.c is compiled in here for its static functions; no JACK call is
 * made). A stall of k cycles: k - 1 cycles ran without us, each a missed
 * and a lost period, one event from the first cycle not served until we
 * ran again; the notifications the server queued for it merge into it;
 * a notification with no stall is an event of its own, losing nothing.
 * And the threads JACK blame follows (jk_tasks(), of a server with no
 * client files): ours first, marked as ours; looked up again when a
 * client (un)registered, the set's generation moving only when a thread
 * changed.
 */
/* first: cmocka.h defines a fail() macro, jack.c a fail() of its own */
#include "../../src/backend/jack.c"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define P 5333333LL /* 256 frames at 48 kHz */
#define B0 (7200 * AL_NS_PER_SEC)

static struct jk j;

static int
setup(void **state)
{
	(void)state;
	memset(&j, 0, sizeof(j));
	j.period_ns = P;
	j.prev_boundary_ns = B0;
	return 0;
}

/* one cycle after ours: nothing */
static void
on_time_is_no_xrun(void **state)
{
	struct al_write_info wi = { 0 };

	(void)state;
	cycle_xruns(&j, 1, B0 + P + 30000, &wi);
	assert_int_equal(wi.xrun_start_ns, 0);
	assert_int_equal(wi.missed_before, 0);
	assert_int_equal(wi.lost_periods, 0);
}

/* the counter moved 38 cycles: 37 ran without us */
static void
a_stall_loses_the_cycles_it_missed(void **state)
{
	struct al_write_info wi = { 0 };
	int64_t wake = B0 + 38 * P + 120000;

	(void)state;
	cycle_xruns(&j, 38, wake, &wi);
	assert_int_equal(wi.missed_before, 37);
	assert_int_equal(wi.lost_periods, 37);
	assert_int_equal(wi.xrun_source, AL_XRUN_COUNTER);
	/* from the first cycle we were not served (the one after our last) until now */
	assert_int_equal(wi.xrun_start_ns, B0 + P);
	assert_int_equal(wi.xrun_ns, wake - (B0 + P));
	assert_int_equal(j.stalls, 1);
}

/* jackd2's notifications for the stall, delivered before our cycle: part of it */
static void
notifications_for_the_stall_merge(void **state)
{
	struct al_write_info wi = { 0 };

	(void)state;
	atomic_store(&j.xruns, 3);
	atomic_store(&j.xrun_at_ns, B0 + 10 * P);
	cycle_xruns(&j, 20, B0 + 20 * P + 50000, &wi);
	assert_int_equal(wi.lost_periods, 19);
	assert_int_equal(j.merged, 3);
	assert_int_equal(j.pending, 0);
	/* and none of them comes back as an event later */
	for (int k = 0; k < 5; k++) {
		struct al_write_info next = { 0 };

		cycle_xruns(&j, 1, B0 + (21 + k) * P, &next);
		assert_int_equal(next.xrun_start_ns, 0);
	}
	assert_int_equal(j.server_xruns, 0);
}

/* a notification for a cycle we did not miss: one event, after three cycles, no period lost */
static void
a_notification_without_a_stall_is_its_own_event(void **state)
{
	struct al_write_info wi = { 0 };
	int k;

	(void)state;
	j.late_ns[2] = 700000; /* a cycle started 0.7 ms late */
	atomic_store(&j.xruns, 1);
	atomic_store(&j.xrun_at_ns, B0 + P + 1000);
	for (k = 0; k < XRUN_PENDING_CYCLES - 1; k++) {
		memset(&wi, 0, sizeof(wi));
		cycle_xruns(&j, 1, B0 + (2 + k) * P, &wi);
		assert_int_equal(wi.xrun_start_ns, 0);
	}
	memset(&wi, 0, sizeof(wi));
	cycle_xruns(&j, 1, B0 + (2 + k) * P, &wi);
	assert_int_equal(wi.xrun_source, AL_XRUN_SERVER);
	assert_int_equal(wi.xrun_start_ns, B0 + P + 1000);
	assert_int_equal(wi.xrun_ns, 700000);
	assert_int_equal(wi.lost_periods, 0);
	assert_int_equal(wi.missed_before, 0);
	assert_int_equal(j.server_xruns, 1);
}

static void
our_thread_first_and_marked(void **state)
{
	struct al_task t[4];
	unsigned gen = 0, gen2 = 0;

	(void)state;
	snprintf(j.server, sizeof(j.server), "audiolat-test-no-such-server");
	snprintf(j.self_name, sizeof(j.self_name), "audiolat-77");
	atomic_store(&j.self_tid, 4242);
	assert_int_equal(jk_tasks(&j, t, 4, &gen), 1);
	assert_int_equal(t[0].tid, 4242);
	assert_int_equal(t[0].pid, getpid());
	assert_true(t[0].self);
	assert_string_equal(t[0].client, "audiolat-77");
	/* a client came and went: the same threads, the same set */
	atomic_fetch_add(&j.registrations, 2);
	assert_int_equal(jk_tasks(&j, t, 4, &gen2), 1);
	assert_int_equal(gen2, gen);
	/* our thread is another one now (a restarted client): a new set */
	atomic_store(&j.self_tid, 4243);
	atomic_fetch_add(&j.registrations, 1);
	assert_int_equal(jk_tasks(&j, t, 4, &gen2), 1);
	assert_int_equal(t[0].tid, 4243);
	assert_int_not_equal(gen2, gen);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(on_time_is_no_xrun, setup),
		cmocka_unit_test_setup(a_stall_loses_the_cycles_it_missed, setup),
		cmocka_unit_test_setup(notifications_for_the_stall_merge, setup),
		cmocka_unit_test_setup(a_notification_without_a_stall_is_its_own_event, setup),
		cmocka_unit_test_setup(our_thread_first_and_marked, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
