/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The audiolat.run/2 document built from a result with known contents. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "report/report.h"

static struct al_result r;

static void
fill(void)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 64,
				 .periods = 3, .cpu_load_pct = 80, .priority = 80,
				 .affinity_cpu = -1, .dma_latency_us = -1,
				 .duration_ns = AL_NS_PER_SEC };
	struct al_sample s = { 0 };
	int i;

	assert_int_equal(al_result_alloc(&r, &cfg, 1, 16), 0);
	snprintf(r.phases[0].name, sizeof(r.phases[0].name), "idle");
	/* a hostname that is not UTF-8 must not break the document */
	snprintf(r.sys.nodename, sizeof(r.sys.nodename), "host\xff\xfe");
	snprintf(r.cmdline, sizeof(r.cmdline), "audiolat run \"quoted\" \\ <tag>");
	r.start_mono_ns = AL_NS_PER_SEC;
	for (i = 1; i <= 100; i++) {
		s.boundary_ns = AL_NS_PER_SEC + i * r.period_ns;
		s.wake_ns = s.boundary_ns + i * 1000;
		s.prev_wake_ns = i > 1 ? s.boundary_ns - r.period_ns + (i - 1) * 1000 : 0;
		s.work_ns = 1000000;
		s.margin_ns = 2000000;
		s.xrun_start_ns = i == 50 ? s.boundary_ns - 5000000 : 0;
		s.xrun_ns = i == 50 ? 5000000 : 0;
		s.lost_periods = i == 50 ? 4 : 0;
		al_result_record(&r, &s);
	}
	r.duration_ns = AL_NS_PER_SEC;
	al_result_finish(&r);
}

static void
documented_fields_are_there(void **state)
{
	json_t *doc, *total, *wl, *ev, *rows;
	char *text;

	(void)state;
	fill();
	doc = al_doc_run_json(&r);
	assert_non_null(doc);
	assert_string_equal(json_string_value(json_object_get(doc, "schema")), "audiolat.run/2");
	assert_true(json_is_object(json_object_get(doc, "config")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(doc, "config"),
							    "period_frames")),
			 64);
	assert_true(json_is_object(json_object_get(doc, "system")));
	assert_true(json_is_string(json_object_get(json_object_get(doc, "system"), "hostname")));
	assert_true(json_is_boolean(json_object_get(doc, "realtime")));
	assert_true(json_is_string(json_object_get(doc, "started_at")));
	assert_true(json_is_boolean(json_object_get(doc, "interrupted")));
	total = json_object_get(doc, "total");
	assert_int_equal(json_integer_value(json_object_get(total, "periods")), 100);
	assert_int_equal(json_integer_value(json_object_get(total, "wakeups")), 100);
	assert_int_equal(json_integer_value(json_object_get(total, "missed_periods")), 0);
	assert_true(json_is_object(json_object_get(total, "wake_latency_per_wakeup_ns")));
	assert_int_equal(json_integer_value(json_object_get(
				 json_object_get(total, "wake_latency_per_wakeup_ns"), "max")),
			 100000);
	assert_true(json_is_real(json_object_get(total, "max_latency_pct_of_buffer")));
	assert_true(json_is_real(json_object_get(total, "within_1ms_pct_per_wakeup")));
	assert_true(json_is_array(json_object_get(
		json_object_get(json_object_get(total, "histogram"), "wake_latency_per_wakeup_ns"),
		"buckets")));
	assert_int_equal(json_integer_value(json_object_get(json_object_get(total, "wake_latency_ns"),
							    "negative")), 0);
	assert_int_equal(json_integer_value(json_object_get(total, "xruns")), 1);
	assert_int_equal(json_integer_value(json_object_get(total, "lost_periods")), 4);
	wl = json_object_get(total, "wake_latency_ns");
	assert_int_equal(json_integer_value(json_object_get(wl, "min")), 1000);
	assert_int_equal(json_integer_value(json_object_get(wl, "max")), 100000);
	/* percentiles come from the histogram: within 1 % of the exact 50 us */
	assert_in_range(json_integer_value(json_object_get(wl, "p50")), 49500, 50500);
	assert_true(json_is_object(json_object_get(total, "interval_ns")));
	assert_true(json_is_object(json_object_get(total, "work_ns")));
	assert_true(json_is_real(json_object_get(total, "max_interval_pct_of_buffer")));
	assert_true(json_is_real(json_object_get(total, "within_1ms_pct")));
	assert_true(json_is_real(json_object_get(total, "within_2ms_pct")));
	assert_int_equal(json_integer_value(json_object_get(total, "min_margin_ns")), 2000000);
	assert_true(json_is_array(json_object_get(
		json_object_get(json_object_get(total, "histogram"), "wake_latency_ns"),
		"buckets")));
	assert_int_equal(json_array_size(json_object_get(doc, "phases")), 1);
	ev = json_array_get(json_object_get(doc, "xrun_events"), 0);
	assert_int_equal(json_integer_value(json_object_get(ev, "duration_ns")), 5000000);
	assert_string_equal(json_string_value(json_object_get(ev, "phase")), "idle");
	assert_string_equal(json_string_value(json_object_get(ev, "source")), "device");
	/* the time series names its columns, wakeups among them */
	assert_string_equal(json_string_value(json_array_get(json_object_get(json_object_get(
				    doc, "timeseries"), "columns"), 8)), "wakeups");
	/* a row's time is its window's start: the first at 0, the next one window later */
	rows = json_object_get(json_object_get(doc, "timeseries"), "rows");
	assert_true(json_array_size(rows) >= 2);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(rows, 0), 0)), 0);
	assert_int_equal(json_integer_value(json_array_get(json_array_get(rows, 1), 0)),
			 json_integer_value(json_object_get(json_object_get(doc, "timeseries"),
							    "window_ns")));
	/* it serialises and parses back */
	text = json_dumps(doc, 0);
	assert_non_null(text);
	json_decref(doc);
	doc = json_loads(text, 0, NULL);
	assert_non_null(doc);
	assert_non_null(strstr(text, "\\\"quoted\\\""));
	free(text);
	json_decref(doc);
	al_result_free(&r);
}

/* An empty result: what was not measured is null, never 0. */
static void
unmeasured_figures_are_null(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 64,
				 .periods = 3, .duration_ns = AL_NS_PER_SEC };
	json_t *doc, *total;

	(void)state;
	assert_int_equal(al_result_alloc(&r, &cfg, 1, 4), 0);
	al_result_finish(&r);
	doc = al_doc_run_json(&r);
	assert_non_null(doc);
	total = json_object_get(doc, "total");
	assert_int_equal(json_integer_value(json_object_get(total, "periods")), 0);
	assert_true(json_is_null(json_object_get(json_object_get(total, "wake_latency_ns"), "min")));
	assert_true(json_is_null(json_object_get(json_object_get(total, "wake_latency_ns"), "p99")));
	assert_true(json_is_null(json_object_get(json_object_get(total, "interval_ns"), "max")));
	assert_true(json_is_null(json_object_get(total, "within_1ms_pct")));
	assert_true(json_is_null(json_object_get(total, "max_latency_pct_of_buffer")));
	assert_true(json_is_null(json_object_get(total, "max_interval_pct_of_buffer")));
	assert_true(json_is_null(json_object_get(total, "min_margin_ns")));
	json_decref(doc);
	al_result_free(&r);
}

/* Negative wake latencies keep their sign in the buckets, and are counted. */
static void
negative_values_are_in_the_buckets(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 64,
				 .periods = 3, .duration_ns = AL_NS_PER_SEC };
	struct al_sample s = { 0 };
	json_t *doc, *b, *wl;
	int i;

	(void)state;
	assert_int_equal(al_result_alloc(&r, &cfg, 1, 4), 0);
	r.start_mono_ns = AL_NS_PER_SEC;
	for (i = 0; i < 10; i++) {
		s.boundary_ns = AL_NS_PER_SEC + i * r.period_ns;
		s.wake_ns = s.boundary_ns + (i < 4 ? -5000 : 20000);
		s.seen_ns = s.wake_ns;
		al_result_record(&r, &s);
	}
	al_result_finish(&r);
	doc = al_doc_run_json(&r);
	wl = json_object_get(json_object_get(doc, "total"), "wake_latency_ns");
	assert_int_equal(json_integer_value(json_object_get(wl, "negative")), 4);
	assert_int_equal(json_integer_value(json_object_get(wl, "min")), -5000);
	b = json_array_get(json_object_get(json_object_get(json_object_get(json_object_get(doc,
		"total"), "histogram"), "wake_latency_ns"), "buckets"), 0);
	/* the first bucket holds -5000: [low, high) with low <= -5000 < high <= 0 */
	assert_true(json_integer_value(json_array_get(b, 0)) <= -5000);
	assert_true(json_integer_value(json_array_get(b, 1)) > -5000);
	assert_true(json_integer_value(json_array_get(b, 1)) <= 0);
	assert_int_equal(json_integer_value(json_array_get(b, 2)), 4);
	json_decref(doc);
	al_result_free(&r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(documented_fields_are_there),
		cmocka_unit_test(unmeasured_figures_are_null),
		cmocka_unit_test(negative_values_are_in_the_buckets),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
