/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audiolat.run/2 document built from a result with known contents;
 * its "why" (core/why.h) with every member, null where a figure is not
 * known, and null when it was not collected.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
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

static const char *const why_figures[] = {
	"window_ns", "wait_ns", "cpu_ns", "vcsw", "ivcsw", "minflt", "majflt", "steal_ns",
	"irq_ns", "irqs", "irqs_expected", "softirqs", "softirqs_expected",
};

/* Without evidence collected, "why" is there and null. */
static void
why_is_null_when_not_collected(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 64,
				 .periods = 3, .duration_ns = AL_NS_PER_SEC };
	json_t *doc;

	(void)state;
	assert_int_equal(al_result_alloc(&r, &cfg, 1, 4), 0);
	al_result_finish(&r);
	doc = al_doc_run_json(&r);
	assert_non_null(json_object_get(doc, "why"));
	assert_true(json_is_null(json_object_get(doc, "why")));
	json_decref(doc);
	al_result_free(&r);
}

/* Three events kept of five seen (one not classified): one with all its evidence, one with none. */
static struct al_why *
why_fill(void)
{
	struct al_why *w = calloc(1, sizeof(*w));

	assert_non_null(w);
	w->threshold_ns = r.period_ns;
	w->sample_ns = 1000000;
	w->total = 5;
	w->dropped = 1;
	w->has_schedstat = w->has_irqs = true;
	w->count[AL_WHY_PREEMPTED] = 3;
	w->count[AL_WHY_UNATTRIBUTED] = 1;
	w->events[0] = (struct al_why_event){
		.t_ns = 603000000, .size_ns = 2040000, .late_ns = 2040000, .work_ns = 881000,
		.periods = 2, .xrun = true, .cls = AL_WHY_PREEMPTED,
		.ev = { 3000000, 2010000, 950000, 2, 1, 0, 0, 0, 0, 31, 28, 6, 5, 60, 95, false, 1, 1, 80 } };
	snprintf(w->events[0].because, sizeof(w->events[0].because), "waited <2.01> ms");
	w->events[1] = (struct al_why_event){
		.t_ns = 700000000, .size_ns = 1500000, .late_ns = -1, .work_ns = -1, .periods = 1,
		.cls = AL_WHY_UNATTRIBUTED,
		.ev = { -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, -1, true, -1, -1, 0 } };
	w->events[2] = w->events[0];
	w->events[2].ev.policy = 4; /* no policy has it */
	w->events[2].ev.cpu = 0;
	w->n_events = 3;
	/* a verdict with nothing to size a buffer by and no class */
	w->verdict.rate_hz = 48000;
	w->verdict.xruns = 1;
	w->verdict.dominant = -1;
	snprintf(w->verdict.line, sizeof(w->verdict.line), "not suitable: 1 xruns");
	return w;
}

static void
why_has_its_members_and_nulls(void **state)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 64,
				 .periods = 3, .duration_ns = AL_NS_PER_SEC };
	json_t *doc, *why, *e, *v;
	size_t i;

	(void)state;
	assert_int_equal(al_result_alloc(&r, &cfg, 1, 4), 0);
	al_result_finish(&r);
	r.why = why_fill();
	doc = al_doc_run_json(&r);
	why = json_object_get(doc, "why");
	assert_true(json_is_object(why));
	assert_int_equal(al_doc_int(why, "threshold_ns", 0), r.period_ns);
	assert_int_equal(al_doc_int(why, "sample_ns", 0), 1000000);
	assert_int_equal(al_doc_int(why, "events_total", 0), 5);
	assert_int_equal(al_doc_int(why, "events_dropped", 0), 1);
	assert_int_equal(al_doc_int(why, "events_kept", 0), 3);
	assert_true(json_is_true(al_doc_get(why, "sources.schedstat")));
	assert_true(json_is_false(al_doc_get(why, "sources.steal")));
	assert_true(json_is_true(al_doc_get(why, "sources.interrupts")));
	assert_true(json_is_null(json_object_get(why, "note")));
	/* the classes with events only, by their names */
	assert_int_equal(json_object_size(json_object_get(why, "classes")), 2);
	assert_int_equal(al_doc_int(why, "classes.preempted", 0), 3);
	assert_int_equal(al_doc_int(why, "classes.unattributed", 0), 1);
	assert_int_equal(json_array_size(json_object_get(why, "events")), 3);

	e = json_array_get(json_object_get(why, "events"), 0);
	assert_int_equal(al_doc_int(e, "t_ns", 0), 603000000);
	assert_int_equal(al_doc_int(e, "size_ns", 0), 2040000);
	assert_int_equal(al_doc_int(e, "late_ns", 0), 2040000);
	assert_int_equal(al_doc_int(e, "work_ns", 0), 881000);
	assert_int_equal(al_doc_int(e, "periods", 0), 2);
	assert_string_equal(al_doc_str(e, "kind", ""), "xrun");
	assert_string_equal(al_doc_str(e, "class", ""), "preempted");
	assert_string_equal(al_doc_str(e, "because", ""), "waited <2.01> ms");
	for (i = 0; i < sizeof(why_figures) / sizeof(why_figures[0]); i++)
		assert_true(json_is_integer(json_object_get(json_object_get(e, "evidence"),
							    why_figures[i])));
	assert_int_equal(al_doc_int(e, "evidence.wait_ns", 0), 2010000);
	assert_int_equal(al_doc_int(e, "evidence.steal_ns", -1), 0); /* measured 0 is 0 */
	assert_int_equal(al_doc_int(e, "evidence.softirqs_expected", 0), 5);
	assert_true(json_is_false(al_doc_get(e, "evidence.stopped")));
	assert_int_equal(al_doc_int(e, "evidence.cpu", -1), 1);
	assert_string_equal(al_doc_str(e, "evidence.policy", ""), "SCHED_FIFO");
	assert_int_equal(al_doc_int(e, "evidence.priority", 0), 80);
	assert_int_equal(al_doc_int(e, "evidence.busy_pct", 0), 60);
	assert_int_equal(al_doc_int(e, "evidence.rt_limit_pct", 0), 95);

	/* nothing known: null, never 0 */
	e = json_array_get(json_object_get(why, "events"), 1);
	assert_string_equal(al_doc_str(e, "kind", ""), "late");
	assert_string_equal(al_doc_str(e, "class", ""), "unattributed");
	assert_true(json_is_null(json_object_get(e, "work_ns")));
	assert_string_equal(al_doc_str(e, "because", "?"), "");
	for (i = 0; i < sizeof(why_figures) / sizeof(why_figures[0]); i++)
		assert_true(json_is_null(json_object_get(json_object_get(e, "evidence"),
							 why_figures[i])));
	assert_true(json_is_true(al_doc_get(e, "evidence.stopped")));
	assert_true(json_is_null(al_doc_get(e, "evidence.cpu")));
	assert_true(json_is_null(al_doc_get(e, "evidence.policy")));
	assert_int_equal(al_doc_int(e, "evidence.priority", -1), 0);
	e = json_array_get(json_object_get(why, "events"), 2);
	assert_true(json_is_null(al_doc_get(e, "evidence.policy")));
	assert_int_equal(al_doc_int(e, "evidence.cpu", -1), 0);

	v = json_object_get(why, "verdict");
	assert_true(json_is_false(json_object_get(v, "suitable")));
	assert_string_equal(al_doc_str(v, "line", ""), "not suitable: 1 xruns");
	assert_true(json_is_null(json_object_get(v, "buffer_frames")));
	assert_true(json_is_null(json_object_get(v, "margin_ns")));
	assert_int_equal(al_doc_int(v, "rate_hz", 0), 48000);
	assert_int_equal(al_doc_int(v, "xruns", 0), 1);
	assert_true(json_is_null(json_object_get(v, "dominant")));
	assert_true(json_is_null(json_object_get(v, "dominant_share")));
	assert_int_equal(json_array_size(json_object_get(v, "advice")), 0);
	assert_true(json_is_array(json_object_get(v, "advice")));
	json_decref(doc);

	/* core/why.c's verdict: a buffer, the dominant class and its share, advice; and a note */
	snprintf(r.why->note, sizeof(r.why->note), "no schedstat here");
	al_why_verdict(r.why, 64, 48000, 3, 2040000, 0, true, true);
	doc = al_doc_run_json(&r);
	v = al_doc_get(doc, "why.verdict");
	assert_string_equal(al_doc_str(doc, "why.note", ""), "no schedstat here");
	assert_true(json_is_true(json_object_get(v, "suitable")));
	assert_int_equal(al_doc_int(v, "buffer_frames", 0), 192); /* 2.04 ms + a period: 3 periods */
	assert_true(json_is_integer(json_object_get(v, "margin_ns")));
	assert_string_equal(al_doc_str(v, "dominant", ""), "preempted");
	assert_true(json_is_real(json_object_get(v, "dominant_share")));
	assert_true(al_doc_real(v, "dominant_share", 0) > 0.74 &&
		    al_doc_real(v, "dominant_share", 0) < 0.76);
	/* a suitable run gets no advice */
	assert_int_equal(json_array_size(json_object_get(v, "advice")), 0);
	json_decref(doc);
	al_result_free(&r);
	assert_null(r.why);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(documented_fields_are_there),
		cmocka_unit_test(unmeasured_figures_are_null),
		cmocka_unit_test(negative_values_are_in_the_buckets),
		cmocka_unit_test(why_is_null_when_not_collected),
		cmocka_unit_test(why_has_its_members_and_nulls),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
