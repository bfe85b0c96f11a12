/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why it dropped out, as the reports show a run document's "why"
 * (docs/json.md): the text's head line (classes by count, what was not
 * classified), its cards (none without xruns, the first 10 with them,
 * every one with --why), the verdict and what to try, nothing under -q or
 * for a document without it; the Markdown under a comparison; the HTML
 * section, its table capped at 200 rows, every string escaped.
 */
#include <errno.h>
#include <stdbool.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/report.h"
#include "report-out.h"

#define HOSTILE "<script>alert('x')</script> & \"q\""

static const char run_doc[] =
    "{\"schema\": \"audiolat.run/2\", \"label\": \"r <1>\","
    " \"config\": {\"backend\": \"sim\", \"rate\": 48000, \"period_frames\": 64, \"periods\": 3,"
    " \"period_ns\": 1333333},"
    " \"total\": {\"xruns\": 0, \"wake_latency_ns\": {\"count\": 3, \"min\": 1000, \"max\": 9000},"
    " \"histogram\": {\"wake_latency_ns\": {\"count\": 3, \"buckets\": [[1000, 1024, 2],"
    " [8192, 9216, 1]]}}}}";

/*
 * A run with n events kept of n + 2 seen (one not classified): event i at
 * i/10 s, 1.5 ms late, "preempted" but the last "unattributed", because
 * "because I" (the last: because); its evidence known but for the steal.
 */
static json_t *
why_doc(int n, const char *because)
{
	json_t *doc = report_load(run_doc), *events = json_array();
	char b[32];

	for (int i = 0; i < n; i++) {
		snprintf(b, sizeof(b), "because %d", i);
		json_array_append_new(events, json_pack(
			"{s:I, s:I, s:I, s:n, s:i, s:s, s:s, s:s, s:{s:I, s:I, s:I, s:i, s:i, s:i,"
			" s:i, s:n, s:I, s:i, s:i, s:i, s:i, s:b, s:i, s:s, s:i}}",
			"t_ns", (json_int_t)i * 100000000, "size_ns", (json_int_t)1500000, "late_ns",
			(json_int_t)1500000, "work_ns", "periods", 1, "kind", "late", "class",
			i == n - 1 ? "unattributed" : "preempted", "because",
			i == n - 1 ? because : b, "evidence", "window_ns", (json_int_t)3000000,
			"wait_ns", (json_int_t)1400000, "cpu_ns", (json_int_t)900000, "vcsw", 2,
			"ivcsw", 1, "minflt", 0, "majflt", 0, "steal_ns", "irq_ns", (json_int_t)0,
			"irqs", 31, "irqs_expected", 28, "softirqs", 6, "softirqs_expected", 5,
			"stopped", 0, "cpu", 1, "policy", "SCHED_FIFO", "priority", 80));
	}
	json_object_set_new(doc, "why", json_pack(
		"{s:I, s:I, s:i, s:i, s:{s:b, s:b, s:b}, s:n, s:{s:i, s:i}, s:o, s:i,"
		" s:{s:b, s:s, s:n, s:i, s:n, s:i, s:s, s:f, s:[s, s]}}",
		"threshold_ns", (json_int_t)1333333, "sample_ns", (json_int_t)1000000,
		"events_total", n + 2, "events_dropped", 1, "sources", "schedstat", 1, "steal", 0,
		"interrupts", 1, "note", "classes", "unattributed", 1, "preempted", n - 1, "events",
		events, "events_kept", n, "verdict", "suitable", 0, "line",
		"not suitable: 0 xruns, dominant cause preempted", "buffer_frames", "rate_hz", 48000,
		"margin_ns", "xruns", 0, "dominant", "preempted", "dominant_share", 0.9, "advice",
		"raise -p", "move the IRQ"));
	assert_non_null(json_object_get(doc, "why"));
	return doc;
}

/* "     0.300 s  late    1.50 ms  preempted     because 3\n" */
#define CARD(t, cls, because) "\n  " t " s  late    1.50 ms  " cls because "\n"

/* The text report of doc (without the histogram), with --why or not. */
static char *
text_of(json_t *doc, bool why)
{
	struct al_report_doc d = {doc, NULL};
	struct al_report_input in = {.docs = &d, .n = 1, .no_histogram = true, .why = why};
	char *out;
	int rc;

	out = report_render(&al_reporter_text, &in, &rc);
	assert_int_equal(rc, 0);
	return out;
}

static void
text_head_verdict_and_no_cards_without_xruns(void **state)
{
	json_t *doc = why_doc(12, "none\x1b[31m");
	char *out = text_of(doc, false);

	(void)state;
	/* most first, whatever the document's order */
	assert_non_null(strstr(out, "\nwhy: 14 events later than 1333.3 us (one period) or xruns: "
				    "preempted 11, unattributed 1, 1 not classified\n"));
	assert_non_null(strstr(out, "\nverdict: not suitable: 0 xruns, dominant cause preempted\n"
				    "  try: raise -p\n  try: move the IRQ\n"));
	/* no xrun, no --why: no card */
	assert_null(strstr(out, "because 0"));
	assert_null(strstr(out, "--why"));
	free(out);

	out = text_of(doc, true);
	assert_int_equal(report_count(out, " s  late    1.50 ms  "), 12);
	assert_non_null(strstr(out, CARD("   0.000", "preempted     ", "because 0")));
	assert_non_null(strstr(out, CARD("   1.000", "preempted     ", "because 10")));
	/* the document's text cannot steer the terminal */
	assert_non_null(strstr(out, CARD("   1.100", "unattributed  ", "none?[31m")));
	assert_null(strchr(out, '\x1b'));
	assert_null(strstr(out, "more (--why"));
	/* 14 seen, 1 not classified, 12 kept: 1 classified and not kept */
	assert_non_null(strstr(out, "\n  ... 1 more classified, not kept (the first 12 are)\n"));
	assert_true(strstr(out, "\nwhy: ") < strstr(out, "because 0"));
	assert_true(strstr(out, "because 0") < strstr(out, "\nverdict: "));
	free(out);
	json_decref(doc);
}

static void
text_first_ten_cards_of_a_run_with_xruns(void **state)
{
	json_t *doc = why_doc(12, "none");
	char *out;

	(void)state;
	json_object_set_new(json_object_get(doc, "total"), "xruns", json_integer(2));
	out = text_of(doc, false);
	assert_int_equal(report_count(out, " s  late    1.50 ms  "), 10);
	assert_non_null(strstr(out, CARD("   0.900", "preempted     ", "because 9")));
	assert_null(strstr(out, "because 10"));
	assert_non_null(strstr(out, "because 9\n  ... 2 more (--why lists them all)\nverdict: "));
	free(out);
	/* one more than ten: said; ten: nothing left out */
	json_array_remove(al_doc_get(doc, "why.events"), 11);
	out = text_of(doc, false);
	assert_non_null(strstr(out, "because 9\n  ... 1 more (--why lists them all)\nverdict: "));
	free(out);
	json_array_remove(al_doc_get(doc, "why.events"), 10);
	out = text_of(doc, false);
	assert_int_equal(report_count(out, " s  late    1.50 ms  "), 10);
	assert_non_null(strstr(out, "because 9\nverdict: "));
	free(out);
	/* the event's kind as the document says */
	json_object_set_new(json_array_get(al_doc_get(doc, "why.events"), 0), "kind",
			    json_string("xrun"));
	out = text_of(doc, false);
	assert_non_null(strstr(out, "\n     0.000 s  xrun    1.50 ms  preempted     because 0\n"));
	free(out);
	json_decref(doc);
}

/* No "why" (null, or a document written before it): nothing; -q: no text at all. */
static void
text_nothing_without_it_or_quiet(void **state)
{
	json_t *doc = why_doc(3, "none");
	struct al_report_doc d = {doc, NULL};
	struct al_report_input in = {.docs = &d, .n = 1, .no_histogram = true, .why = true};
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);
	char *out;

	(void)state;
	assert_int_equal(al_report_text_summary(&in, true, f), 0);
	assert_int_equal(fclose(f), 0);
	assert_null(strstr(buf, "why"));
	assert_null(strstr(buf, "verdict"));
	assert_non_null(strstr(buf, "summary: "));
	free(buf);
	json_object_set_new(doc, "why", json_null());
	out = text_of(doc, true);
	assert_null(strstr(out, "why"));
	assert_null(strstr(out, "verdict"));
	free(out);
	json_object_del(doc, "why");
	out = text_of(doc, true);
	assert_null(strstr(out, "verdict"));
	free(out);
	json_decref(doc);
}

/* More classes than there are (a document from elsewhere): the largest 9, most first. */
static void
head_keeps_the_largest_classes(void **state)
{
	json_t *doc = why_doc(2, "none"), *classes = json_object();
	char name[8], *out;

	(void)state;
	for (int i = 1; i <= 11; i++) {
		snprintf(name, sizeof(name), "c%d", i);
		json_object_set_new(classes, name, json_integer(i == 4 ? 11 : i));
	}
	json_object_set_new(classes, "zero", json_integer(0));
	json_object_set_new(classes, "text", json_string("5"));
	json_object_set_new(json_object_get(doc, "why"), "classes", classes);
	out = text_of(doc, false);
	assert_non_null(strstr(out, "\nwhy: 4 events later than 1333.3 us (one period) or xruns: "
				    "c4 11, c11 11, c10 10, c9 9, c8 8, c7 7, c6 6, c5 5, c3 3, "
				    "1 not classified\n"));
	free(out);
	json_decref(doc);
}

/* A comparison in Markdown: why each run with evidence dropped out, its classes in a table. */
static void
markdown_under_a_comparison(void **state)
{
	json_t *a = report_load(run_doc), *b = why_doc(4, "none");
	json_t *cmp = report_load("{\"schema\": \"audiolat.compare/1\", \"baseline\": \"A\","
			   " \"results\": [{\"key\": \"A\"}, {\"key\": \"B\"}], \"scopes\": []}");
	struct al_report_doc d[2] = {{a, "a"}, {b, "b"}};
	struct al_report_input in = {.docs = d, .n = 2, .compare = cmp};
	char *out;
	int rc;

	(void)state;
	json_object_set_new(b, "label", json_string("new|<b>"));
	json_array_set_new(al_doc_get(b, "why.verdict.advice"), 0, json_string("a `b` | c"));
	out = report_render(&al_reporter_markdown, &in, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(report_count(out, "dropped out**"), 1);
	assert_non_null(strstr(out, "\n**Why B dropped out** (new\\|\\<b\\>): 6 events later than "
				    "1333.3 us (one period) or xruns: preempted 3, unattributed 1, "
				    "1 not classified\n"));
	assert_non_null(strstr(out, "\n| cause | events |\n|---|--:|\n| preempted | 3 |\n"
				    "| unattributed | 1 |\n"));
	assert_non_null(strstr(out, "\nverdict: not suitable: 0 xruns, dominant cause preempted\n"
				    "\n- try: a \\`b\\` \\| c\n- try: move the IRQ\n"));
	free(out);
	json_decref(a);
	json_decref(b);
	json_decref(cmp);
}

/* The HTML section: verdict, advice, classes, a row per event (200 at most); everything escaped. */
static void
html_section_escaped_and_capped(void **state)
{
	json_t *doc = why_doc(250, HOSTILE), *why, *e1;
	struct al_report_doc d = {doc, NULL};
	struct al_report_input in = {.docs = &d, .n = 1};
	char *out;
	int rc;

	(void)state;
	why = json_object_get(doc, "why");
	json_object_set_new(why, "note", json_string("note " HOSTILE));
	json_object_set_new(json_object_get(why, "classes"), "x<y>", json_integer(2));
	json_array_set_new(al_doc_get(why, "verdict.advice"), 1, json_string("try " HOSTILE));
	json_object_set_new(json_array_get(json_object_get(why, "events"), 3), "class",
			    json_string("c<" "script>"));
	e1 = json_object_get(json_array_get(json_object_get(why, "events"), 1), "evidence");
	json_object_set_new(e1, "irqs", json_null());
	json_object_set_new(e1, "wait_ns", json_null());
	json_object_set_new(json_array_get(json_object_get(why, "events"), 2), "kind",
			    json_string("xrun"));
	out = report_render(&al_reporter_html, &in, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(out, "<h3>Why it dropped out</h3>\n<p class=\"fail\">not suitable: "
				    "0 xruns, dominant cause preempted</p>\n<ul class=\"advice\">\n"
				    "<li>try: raise -p</li>\n<li>try: try &lt;script&gt;"));
	assert_null(strstr(out, "<script"));
	assert_null(strstr(out, "<y>"));
	assert_null(strstr(out, "c<"));
	assert_non_null(strstr(out, "<td>c&lt;script&gt;</td>"));
	/* the note, a class in the table and in a row */
	assert_non_null(strstr(out, "Evidence missing: note &lt;script&gt;alert(&#39;x&#39;)"));
	assert_non_null(strstr(out, "<tr><td>x&lt;y&gt;</td><td class=\"num\">2</td></tr>"));
	assert_non_null(strstr(out, "<tr><td>preempted</td><td class=\"num\">249</td></tr>\n"
				    "<tr><td>x&lt;y&gt;</td>"));
	/* 200 rows, then how many there were */
	assert_int_equal(report_count(out, " s</td><td>late</td>"), 199);
	assert_int_equal(report_count(out, " s</td><td class=\"fail\">xrun</td>"), 1);
	assert_non_null(strstr(out, "<td class=\"small\">because 199</td></tr>\n</tbody></table>\n"
				    "<p class=\"small\">250 event(s) listed in the result, the first "
				    "200 shown; 1 more classified, not kept.</p>"));
	/* a figure not measured is "-", never 0 */
	assert_non_null(strstr(out, "<td>preempted</td><td class=\"num\">-</td><td class=\"num\">"
				    "900.0 µs</td><td class=\"num\">2 / 1</td><td class=\"num\">0 / 0"
				    "</td><td class=\"num\">-</td><td class=\"num\">- / 28</td>"));
	free(out);

	/* the because is escaped where it is shown; the verdict too; what was not kept */
	while (json_array_size(json_object_get(why, "events")) > 2)
		json_array_remove(json_object_get(why, "events"), 0);
	json_object_set_new(json_object_get(why, "verdict"), "line", json_string("v <i>"));
	out = report_render(&al_reporter_html, &in, &rc);
	assert_int_equal(report_count(out, "<td class=\"small\">"), 2);
	assert_non_null(strstr(out, "<td class=\"small\">&lt;script&gt;alert(&#39;x&#39;)&lt;/script"
				    "&gt; &amp; &quot;q&quot;</td></tr>\n</tbody></table>\n"
				    "<p class=\"small\">2 event(s) listed in the result, the first 2 "
				    "shown; 249 more classified, not kept.</p>"));
	assert_non_null(strstr(out, "<p class=\"fail\">v &lt;i&gt;</p>"));
	assert_null(strstr(out, "<script"));
	assert_null(strstr(out, "<i>"));
	free(out);
	json_object_set_new(doc, "why", json_null());
	out = report_render(&al_reporter_html, &in, &rc);
	assert_int_equal(rc, 0);
	assert_null(strstr(out, "Why it dropped out"));
	free(out);
	json_decref(doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(text_head_verdict_and_no_cards_without_xruns),
	    cmocka_unit_test(text_first_ten_cards_of_a_run_with_xruns),
	    cmocka_unit_test(text_nothing_without_it_or_quiet),
	    cmocka_unit_test(head_keeps_the_largest_classes),
	    cmocka_unit_test(markdown_under_a_comparison),
	    cmocka_unit_test(html_section_escaped_and_capped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
