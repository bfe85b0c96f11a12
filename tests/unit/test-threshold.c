/* SPDX-License-Identifier: GPL-2.0-or-later */
/* run's thresholds over a whole result (core/threshold.c): which, in which order, the line. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/threshold.h"

static void
judged(void **state)
{
	struct al_result *r = calloc(1, sizeof(*r));
	char why[160];

	(void)state;
	assert_non_null(r);
	al_hist_init(&r->total.wake_ns);
	al_hist_init(&r->total.interval_ns);
	al_hist_add(&r->total.wake_ns, 300 * AL_NS_PER_MS);
	al_hist_add(&r->total.interval_ns, 301 * AL_NS_PER_MS);
	/* none given, none exceeded */
	assert_false(al_threshold_given(&r->cfg));
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_NONE);
	/* given, not reached */
	r->cfg.max_latency_ns = 10 * AL_NS_PER_SEC;
	r->cfg.fail_on_xrun = true;
	assert_true(al_threshold_given(&r->cfg));
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_NONE);
	/* the server's notifications that were not ours: only --fail-on-server-xrun */
	r->total.server_xruns = 5;
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_NONE);
	r->cfg.fail_on_server_xrun = true;
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_SERVER_XRUN);
	al_threshold_describe(r, AL_THRESHOLD_SERVER_XRUN, why, sizeof(why));
	assert_string_equal(why, "the server reported 5 xrun(s) not ours with --fail-on-server-xrun");
	r->cfg.fail_on_server_xrun = false;
	/* an xrun */
	r->total.xruns = 2;
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_XRUN);
	al_threshold_describe(r, AL_THRESHOLD_XRUN, why, sizeof(why));
	assert_string_equal(why, "2 xrun(s) with --fail-on-xrun");
	/* the interval comes before it, the latency first */
	r->cfg.max_interval_ns = 100 * AL_NS_PER_MS;
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_INTERVAL);
	r->cfg.max_latency_ns = 100 * AL_NS_PER_MS;
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_LATENCY);
	al_threshold_describe(r, AL_THRESHOLD_LATENCY, why, sizeof(why));
	assert_non_null(strstr(why, "exceeded --max-latency"));
	/* equal is not exceeded */
	r->cfg.max_latency_ns = 300 * AL_NS_PER_MS;
	assert_int_equal(al_threshold_exceeded(r), AL_THRESHOLD_INTERVAL);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(judged),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
