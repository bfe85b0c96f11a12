/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The reporters' table: every format is there once, by name, and renders
 * what it takes; what it does not take is refused with nothing written.
 * The SI figures the text and HTML reports share. The text report's
 * figures: the latencytest line in its units, with the share of the buffer
 * the document's version means, and the overflow in the histogram. A
 * load's report (audiolat load): its time in seconds, its figures.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "compare/compare.h"
#include "core/format.h"
#include "report/report.h"
#include "report-out.h"

static const char run_doc[] =
    "{\"schema\": \"audiolat.run/2\", \"label\": \"r <1>\","
    " \"config\": {\"backend\": \"sim\", \"rate\": 48000, \"period_frames\": 64, \"periods\": 3},"
    " \"total\": {\"xruns\": 0, \"wake_latency_ns\": {\"count\": 3, \"min\": 1000, \"max\": 9000},"
    " \"histogram\": {\"wake_latency_ns\": {\"count\": 3, \"buckets\": [[1000, 1024, 2],"
    " [8192, 9216, 1]]}}}}";

static const char midi_doc[] =
    "{\"schema\": \"audiolat.midi/1\", \"kind\": \"analyze\", \"events\": 2,"
    " \"histogram\": {\"count\": 1, \"buckets\": [[99000000, 101000000, 1]]}}";

/* What al_compare() and al_compare_midi() write, as far as the renderers read it. */
static const char cmp_doc[] =
    "{\"schema\": \"audiolat.compare/1\", \"baseline\": \"A\","
    " \"method\": {\"confidence\": 0.95, \"seed\": 7},"
    " \"results\": [{\"key\": \"A\", \"label\": \"base\"}, {\"key\": \"B\", \"label\": \"new\"}],"
    " \"scopes\": [{\"phase\": null, \"rows\": [{\"key\": \"A\"}, {\"key\": \"B\"}],"
    " \"comparisons\": []}]}";

static const char cmp_midi_doc[] =
    "{\"schema\": \"audiolat.compare-midi/1\", \"method\": {\"confidence\": 0.95},"
    " \"results\": [{\"key\": \"A\", \"label\": \"m1\", \"events\": 10},"
    " {\"key\": \"B\", \"label\": \"m2\", \"events\": 12}], \"scopes\": []}";

static const char cmp_groups_doc[] =
    "{\"schema\": \"audiolat.compare-groups/1\", \"group_by\": \"kernel\","
    " \"groups\": [{\"group\": \"6.1-rt\", \"runs\": 3, \"xruns\": 0}], \"comparisons\": []}";

static void
table_has_every_format_once(void **state)
{
	static const char *const names[] = {"text", "summary", "json", "markdown", "html"};
	size_t i, j, n = 0;

	(void)state;
	for (i = 0; al_reporters[i]; i++) {
		const struct al_reporter *r = al_reporters[i];

		assert_non_null(r->name);
		assert_non_null(r->file_ext);
		assert_non_null(r->summary);
		assert_non_null(r->write);
		assert_ptr_equal(al_reporter_find(r->name), r);
		for (j = 0; j < i; j++)
			assert_string_not_equal(al_reporters[j]->name, r->name);
		n++;
	}
	assert_int_equal(n, sizeof(names) / sizeof(names[0]));
	for (i = 0; i < n; i++)
		assert_non_null(al_reporter_find(names[i]));
	assert_ptr_equal(al_reporter_find("html"), &al_reporter_html);
	assert_string_equal(al_reporter_find("markdown")->file_ext, "md");
	assert_null(al_reporter_find("pdf"));
}

static void
one_run(void **state)
{
	json_t *doc = report_load(run_doc), *back;
	struct al_report_doc d = {doc, "r.json"};
	struct al_report_input in = {.docs = &d, .n = 1, .verdict = "PASS"};
	char *out;
	int rc;

	(void)state;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "backend=sim rate=48000 Hz  3 x 64 frames"));
	assert_non_null(strstr(out, "wake latency histogram"));
	free(out);
	in.no_histogram = true;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_null(strstr(out, "wake latency histogram"));
	free(out);

	out = report_render(&al_reporter_summary, &in, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "summary: backend=sim rate=48000 period=64 periods=3 samples=3 "
				 "min_ns=1000 p50_ns=- p99_ns=- max_ns=9000 max_interval_ns=- "
				 "xruns=0 lost_periods=- boundary=- result=PASS\n");
	free(out);
	in.verdict = NULL;
	out = report_render(&al_reporter_summary, &in, &rc);
	assert_non_null(strstr(out, " result=-\n"));
	free(out);

	out = report_render(&al_reporter_json, &in, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(out[strlen(out) - 1], '\n');
	back = report_load(out);
	assert_true(json_equal(back, doc));
	json_decref(back);
	free(out);

	out = report_render(&al_reporter_html, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "<title>audiolat report: r &lt;1&gt;</title>"));
	assert_non_null(strstr(out, "<code>r.json</code>"));
	free(out);

	/* Markdown renders a comparison only */
	out = report_render(&al_reporter_markdown, &in, &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(out, "");
	free(out);
	json_decref(doc);
}

/*
 * A result that is neither a run nor a MIDI result (a check): text and
 * summary refuse it, writing nothing; a MIDI result they render, as
 * audiolat midi prints it.
 */
static void
what_a_format_does_not_take(void **state)
{
	json_t *run = report_load(run_doc), *midi = report_load(midi_doc);
	json_t *check = report_load("{\"schema\": \"audiolat.check/1\"}");
	struct al_report_doc d[2] = {{run, NULL}, {check, NULL}};
	struct al_report_input in = {.docs = d, .n = 2};
	char *out;
	int rc;

	(void)state;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(out, "");
	free(out);
	out = report_render(&al_reporter_summary, &in, &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(out, "");
	free(out);
	json_decref(check);
	d[1].doc = midi;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\nevents: 2 channel message or sysex"));
	free(out);
	out = report_render(&al_reporter_summary, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "\nsummary: source=? events=2 tick_ns=0 result=-\n"));
	free(out);
	/* JSON writes one document: two results and no comparison are not one */
	out = report_render(&al_reporter_json, &in, &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(out, "");
	free(out);
	/* the HTML page takes both */
	out = report_render(&al_reporter_html, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "<section class=\"result midi\""));
	free(out);
	json_decref(run);
	json_decref(midi);
}

/* With a comparison, text, Markdown and JSON render it, by its kind. */
static void
a_comparison(void **state)
{
	json_t *run = report_load(run_doc), *cmp = report_load(cmp_doc), *mcmp = report_load(cmp_midi_doc), *back;
	struct al_report_doc d[2] = {{run, "a"}, {run, "b"}};
	struct al_report_input in = {.docs = d, .n = 2, .compare = cmp};
	char *out;
	int rc;

	(void)state;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "2 results, compared with A at 95 % confidence (seed 7)"));
	free(out);
	out = report_render(&al_reporter_markdown, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "| A | base |"));
	free(out);
	out = report_render(&al_reporter_json, &in, &rc);
	assert_int_equal(rc, 0);
	back = report_load(out);
	assert_true(json_equal(back, cmp));
	json_decref(back);
	free(out);
	out = report_render(&al_reporter_html, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "<h2>Comparison</h2>"));
	free(out);

	in.compare = mcmp;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "A   m1"));
	free(out);
	out = report_render(&al_reporter_markdown, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "| A | m1 | 10 "));
	free(out);
	/* groups of runs (compare --group-by) */
	json_decref(mcmp);
	mcmp = report_load(cmp_groups_doc);
	in.compare = mcmp;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "kernel                    runs"));
	assert_non_null(strstr(out, "\n6.1-rt                       3  "));
	free(out);
	out = report_render(&al_reporter_markdown, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "| kernel | runs |"));
	assert_non_null(strstr(out, "| 6.1-rt | 3 |"));
	free(out);
	in.compare = report_load(cmp_midi_doc);
	json_decref(mcmp);
	mcmp = (json_t *)in.compare;
	/* the page has no section for a MIDI comparison */
	out = report_render(&al_reporter_html, &in, &rc);
	assert_int_equal(rc, 0);
	assert_null(strstr(out, "<h2>Comparison</h2>"));
	free(out);
	json_decref(run);
	json_decref(cmp);
	json_decref(mcmp);
}

/* audiolat show: where and when first, a run's or a MIDI result's report after; of another result those lines only. */
static void
provenance(void **state)
{
	json_t *run = report_load(run_doc);
	json_t *midi = report_load("{\"schema\": \"audiolat.midi/1\", \"started_at\": \"2026-01-02T03:04:05Z\","
			    " \"system\": {\"hostname\": \"h\", \"kernel_release\": \"6.1\", \"preempt\": \"full\"}}");
	struct al_report_doc d = {run, NULL};
	struct al_report_input in = {.docs = &d, .n = 1, .no_histogram = true, .provenance = true};
	char *out;
	int rc;

	(void)state;
	json_object_set_new(run, "started_at", json_string("2026-01-02T03:04:05Z"));
	json_object_set_new(run, "cmdline", json_string("audiolat run -b sim"));
	json_object_set_new(run, "system", report_load("{\"hostname\": \"h\\u0001\", \"machine\": \"x86_64\", \"cpus\": 2}"));
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "started:   2026-01-02T03:04:05Z\n"
				    "system:    h?  x86_64  2 CPUs  \n"
				    "load:      none\n"
				    "command:   audiolat run -b sim\n\nbackend=sim"));
	free(out);
	d.doc = midi;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "started:   2026-01-02T03:04:05Z\n"
				 "system:    h  6.1 (preempt: full)\n"
				 "0 xruns, 0 messages dropped\n"
				 "events: 0 channel message or sysex, every channel\n"
				 "deltas: none (fewer than two events)\n");
	free(out);
	d.doc = report_load("{\"schema\": \"audiolat.roundtrip/1\", \"started_at\": \"2026-01-02T03:04:05Z\"}");
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	assert_string_equal(out, "started:   2026-01-02T03:04:05Z\n");
	free(out);
	in.provenance = false;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, -EINVAL);
	free(out);
	json_decref((json_t *)d.doc);
	json_decref(run);
	json_decref(midi);
}

/* A run whose figures differ from each other, so that one read for another shows. */
static const char figures_doc[] =
    "{\"schema\": \"audiolat.run/2\","
    " \"config\": {\"backend\": \"sim\", \"rate\": 48000, \"period_frames\": 64, \"periods\": 3},"
    " \"total\": {\"periods\": 7, \"xruns\": 2, \"max_latency_pct_of_buffer\": 37.5,"
    " \"max_interval_pct_of_buffer\": 62.5, \"within_1ms_pct\": 99.5, \"within_2ms_pct\": 100,"
    " \"wake_latency_ns\": {\"count\": 7, \"min\": 1000, \"max\": 1500000},"
    " \"interval_ns\": {\"count\": 7, \"max\": 2500000},"
    " \"histogram\": {\"wake_latency_ns\": {\"count\": 7, \"overflow\": 5,"
    " \"buckets\": [[1000, 1024, 2]]}}}}";

static void
text_figures(void **state)
{
	json_t *doc = report_load(figures_doc);
	struct al_report_doc d = {doc, "f.json"};
	struct al_report_input in = {.docs = &d, .n = 1};
	char *out;
	int rc;

	(void)state;
	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	/* per period (a /2 document): the wake latency's share of the buffer */
	assert_non_null(strstr(out, "\nmax latency=1.500 ms  factor=37.5 % of buffer  max "
				    "interval=2.500 ms  1MS factor=99.500  2MS factor=100.000  "
				    "xruns=2\n"));
	/* the 5 above the histogram's range are in its last row, not lost */
	assert_non_null(strstr(out, "           5 |"));
	free(out);
	json_decref(doc);
}

static void
load_text(void **state)
{
	json_t *doc = report_load("{\"schema\": \"audiolat.load/1\", \"name\": \"cpu\","
			   " \"duration_ns\": 300000000, \"interrupted\": false, \"error\": null,"
			   " \"throughput\": {\"loops_per_s\": {\"value\": 1234.5678, \"unit\": \"1/s\"},"
			   " \"passes\": {\"value\": 12, \"unit\": \"\"}}}");
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	(void)state;
	assert_non_null(f);
	al_report_load_text(f, doc, false, false);
	assert_int_equal(fclose(f), 0);
	assert_non_null(strstr(buf, "time: 0.300 s\n"));
	assert_non_null(strstr(buf, "\nsummary: load=cpu time_s=0.300 loops_per_s=1234.6 passes=12 "
				    "interrupted=no result=ok\n"));
	free(buf);
	json_decref(doc);
}

static void
si_figures(void **state)
{
	char buf[48];

	(void)state;
	al_format_si(2.33155e9, "B/s", buf, sizeof(buf));
	assert_string_equal(buf, "2.33 GB/s");
	al_format_si(354694, "1/s", buf, sizeof(buf));
	assert_string_equal(buf, "355 k/s");
	al_format_si(1.28053e6, "1/s", buf, sizeof(buf));
	assert_string_equal(buf, "1.28 M/s");
	al_format_si(0.00389447, "s", buf, sizeof(buf));
	assert_string_equal(buf, "0.00389 s");
	al_format_si(112, "", buf, sizeof(buf));
	assert_string_equal(buf, "112 ");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(table_has_every_format_once),
	    cmocka_unit_test(one_run),
	    cmocka_unit_test(what_a_format_does_not_take),
	    cmocka_unit_test(a_comparison),
	    cmocka_unit_test(provenance),
	    cmocka_unit_test(si_figures),
	    cmocka_unit_test(text_figures),
	    cmocka_unit_test(load_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
