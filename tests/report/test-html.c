/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML report and the comparison from documents with hostile strings:
 * everything from outside comes out escaped and as valid UTF-8; the parts
 * are there. (tests/report/report-cli.sh checks the markup with xmllint.)
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "compare/compare.h"
#include "doc/view.h"
#include "report/report.h"
#include "report-out.h"

#define HOSTILE "<script>alert('x')</script> & \"q\""

/* A result with phases and an xrun, from the real results model. */
static json_t *
make_doc(int seed, int scale_pct)
{
	struct al_config cfg = {.backend = "sim",
				.rate_hz = 48000,
				.period_frames = 64,
				.periods = 3,
				.affinity_cpu = -1,
				.dma_latency_us = -1,
				.duration_ns = 4 * AL_NS_PER_SEC};
	struct al_result r;
	struct al_sample s = {0};
	int64_t prev = 0;
	json_t *doc;
	int k, n;

	assert_int_equal(al_result_alloc(&r, &cfg, 2, 16), 0);
	snprintf(r.phases[0].name, sizeof(r.phases[0].name), "idle");
	snprintf(r.phases[1].name, sizeof(r.phases[1].name), "cmd <rm -rf /> & 'x'");
	snprintf(r.phases[1].load, sizeof(r.phases[1].load), "cmd '%s'", HOSTILE);
	r.phases[0].end_ns = r.phases[1].start_ns = 2 * AL_NS_PER_SEC;
	r.phases[1].n_throughput = 2;
	r.phases[1].throughput[0] = (struct al_metric){"bytes_per_s", 2.33155e9, "B/s"};
	r.phases[1].throughput[1] = (struct al_metric){"messages_per_s", 354694, "1/s"};
	r.phases[1].end_ns = 4 * AL_NS_PER_SEC;
	snprintf(r.sys.nodename, sizeof(r.sys.nodename), "host\xff<b>");
	snprintf(r.sys.release, sizeof(r.sys.release), "6.1.0-%d", seed);
	snprintf(r.cmdline, sizeof(r.cmdline), "audiolat run --label '%s'", HOSTILE);
	r.n_checks = 1;
	snprintf(r.checks[0].id, sizeof(r.checks[0].id), "governor");
	snprintf(r.checks[0].status, sizeof(r.checks[0].status), "warn");
	snprintf(r.checks[0].message, sizeof(r.checks[0].message), "%s", HOSTILE);
	snprintf(r.checks[0].fix, sizeof(r.checks[0].fix), "echo performance > /sys/x");
	r.start_mono_ns = AL_NS_PER_SEC;
	n = (int)(cfg.duration_ns / r.period_ns);
	for (k = 0; k < n; k++) {
		if (k == n / 2)
			atomic_store(&r.live.phase, 1);
		s.boundary_ns = AL_NS_PER_SEC + k * r.period_ns;
		s.wake_ns =
		    s.boundary_ns + (5000 + (k * 7919 + seed * 31) % 20000) * scale_pct / 100;
		s.prev_wake_ns = prev;
		s.work_ns = 1000000;
		s.margin_ns = 2000000;
		s.xrun_start_ns = k == n / 4 ? s.wake_ns - 3000000 : 0;
		s.xrun_ns = k == n / 4 ? 3000000 : 0;
		s.lost_periods = k == n / 4 ? 2 : 0;
		prev = s.wake_ns;
		al_result_record(&r, &s);
	}
	r.duration_ns = cfg.duration_ns;
	al_result_finish(&r);
	doc = al_doc_run_json(&r);
	al_result_free(&r);
	assert_non_null(doc);
	return doc;
}

static char *
render(const struct al_report_doc *in, size_t n, const json_t *cmp, int *rc)
{
	const struct al_report_input ri = {
	    .docs = in, .n = n, .compare = cmp, .title = "t " HOSTILE};

	return report_render(&al_reporter_html, &ri, rc);
}

static int
utf8_valid(const unsigned char *s)
{
	while (*s) {
		int len = *s < 0x80		? 1
			  : (*s & 0xe0) == 0xc0 ? 2
			  : (*s & 0xf0) == 0xe0 ? 3
			  : (*s & 0xf8) == 0xf0 ? 4
						: 0;

		if (!len || (len == 2 && *s < 0xc2))
			return 0;
		for (int i = 1; i < len; i++)
			if ((s[i] & 0xc0) != 0x80)
				return 0;
		s += len;
	}
	return 1;
}

static void
outside_strings_are_escaped(void **state)
{
	json_t *doc = make_doc(1, 100);
	struct al_report_doc in = {doc, "file <x>.json"};
	char *html;
	int rc;

	(void)state;
	/* a label that is not even UTF-8, with control characters */
	json_object_set_new(doc, "label", json_string_nocheck("lab\xff\x01<i>el</i>"));
	json_array_append_new(json_object_get(doc, "warnings"), json_string(HOSTILE));
	html = render(&in, 1, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_true(utf8_valid((const unsigned char *)html));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<i>"));
	assert_null(strstr(html, "?<b>"));
	assert_null(strstr(html, "<x>"));
	assert_null(strstr(html, "<rm"));
	assert_null(strchr(html, '\x01'));
	assert_non_null(strstr(html, "&lt;script&gt;alert(&#39;x&#39;)&lt;/script&gt; &amp; "
				     "&quot;q&quot;"));
	assert_non_null(strstr(html, "lab\xef\xbf\xbd\xef\xbf\xbd&lt;i&gt;el&lt;/i&gt;"));
	assert_non_null(strstr(html, "file &lt;x&gt;.json"));
	/* the hostname's odd byte was replaced already in the JSON ('?') */
	assert_non_null(strstr(html, "host?&lt;b&gt;"));
	free(html);
	json_decref(doc);
}

static void
parts_are_there(void **state)
{
	json_t *a = make_doc(1, 100), *b = make_doc(2, 150), *cmp = NULL;
	struct al_report_doc in[2] = {{a, "a.json"}, {b, "b.json"}};
	struct al_compare_opts co = AL_COMPARE_OPTS_DEFAULT;
	char *html;
	int rc;

	(void)state;
	html = render(in, 1, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(report_count(html, "<svg "), 3); /* timeline, histogram, CCDF */
	assert_int_equal(report_count(html, "<section class=\"result\""), 1);
	/* deadlines in all three plots, and in the timeline's legend */
	assert_int_equal(report_count(html, "<line class=\"period\""), 4);
	assert_int_equal(report_count(html, "<line class=\"buffer\""), 4);
	assert_int_equal(report_count(html, "<path class=\"xrunmark\""), 1);
	assert_int_equal(report_count(html, "<rect class=\"phase"), 2);
	assert_int_equal(report_count(html, "<tr><td class=\"warn\">"), 1); /* the check */
	/*
	 * Under each phase's figures a row across the table: its load and, with SI
	 * prefixes as the text report has them (JSON keeps the number), what the load
	 * did. No column of its own: the table fits the page.
	 */
	assert_int_equal(report_count(html, "<tr class=\"phase\">"), 2);
	assert_int_equal(report_count(html, "<tr class=\"load\"><td colspan=\"13\">"), 2);
	assert_non_null(strstr(html, " · bytes_per_s 2.33 GB/s · messages_per_s 355 k/s</span></td>"));
	assert_null(strstr(html, "e+09"));
	assert_null(strstr(html, "<th>throughput</th>"));
	/* self-contained: nothing to fetch */
	assert_null(strstr(html, "src="));
	assert_null(strstr(html, "href=\"http"));
	assert_null(strstr(html, "url(http"));
	assert_null(strstr(html, "@import"));
	assert_null(strstr(html, "<script"));
	assert_null(strstr(html, "<link"));
	assert_null(strstr(html, "<img"));
	free(html);
	assert_int_equal(al_compare(in, 2, &co, &cmp), 0);
	html = render(in, 2, cmp, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(report_count(html, "<svg "), 7); /* 3 each and the overview's CCDF */
	assert_int_equal(report_count(html, "<section class=\"result\""), 2);
	assert_int_equal(report_count(html, "<section class=\"compare\""), 1);
	/* 3 scopes (whole run, 2 phases) x 3 statistics; b is 1.5 x a: worse */
	assert_int_equal(report_count(html, "<td class=\"worse\">worse</td>"), 9);
	free(html);
	json_decref(cmp);
	json_decref(a);
	json_decref(b);
}

static void
wrong_documents_are_refused(void **state)
{
	json_t *good = make_doc(1, 100), *bad = json_pack("{s:s}", "schema", "audiolat.check/1");
	struct al_report_doc in[2] = {{good, NULL}, {bad, NULL}};
	char *html;
	int rc;

	(void)state;
	html = render(in, 2, NULL, &rc);
	assert_int_equal(rc, -EINVAL);
	assert_string_equal(html, ""); /* nothing written */
	free(html);
	json_decref(good);
	json_decref(bad);
}

/* A MIDI result: its delta histograms; compared, it is refused. */
static void
midi_result(void **state)
{
	json_error_t e;
	json_t *m = json_loads(
	    "{\"schema\": \"audiolat.midi/1\", \"kind\": \"record\", \"label\": \"<m> & 'k'\","
	    " \"config\": {\"backend\": \"jack\", \"weird <key>\": [1, \"<v>\"]},"
	    " \"source\": {\"in\": \"a:<in>\", \"xruns\": 2, \"dropped\": 1},"
	    " \"events\": 4, \"deltas\": 3, \"interval_ns\": 100000000,"
	    " \"delta_min_ns\": 99000000, \"delta_max_ns\": 101000000,"
	    " \"histogram\": {\"count\": 3, \"buckets\": [[98566144, 99090432, 1],"
	    " [99614720, 100139008, 1], [100663296, 101187584, 1]]},"
	    " \"jitter_histogram\": {\"count\": 3, \"buckets\": [[0, 1, 1], [999424, 1007616, 2]]},"
	    " \"phases\": [{\"name\": \"idle\", \"start_ns\": 0, \"end_ns\": 400000000,"
	    " \"events\": 4, \"deltas\": 3}]}",
	    0, &e);
	json_t *run = make_doc(1, 100), *cmp = NULL;
	struct al_report_doc in[2] = {{m, NULL}, {run, NULL}};
	struct al_report_doc ci[2] = {{run, NULL}, {m, NULL}};
	struct al_compare_opts co = AL_COMPARE_OPTS_DEFAULT;
	char *html;
	int rc;

	(void)state;
	assert_non_null(m);
	html = render(in, 1, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(report_count(html, "<svg "), 2);
	assert_int_equal(report_count(html, "<rect class=\"bar\""), 3 + 2);
	assert_int_equal(report_count(html, "<section class=\"result midi\""), 1);
	assert_non_null(strstr(html, "&lt;m&gt; &amp; &#39;k&#39; (MIDI record)"));
	assert_non_null(strstr(html, "weird &lt;key&gt;"));
	assert_non_null(strstr(html, "[1,&quot;&lt;v&gt;&quot;]"));
	assert_non_null(strstr(html, "<b>2</b><span>xruns, 1 dropped</span>"));
	assert_null(strstr(html, "<m>"));
	free(html);
	/* beside a run: both sections, no overview for a single run */
	html = render(in, 2, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_int_equal(report_count(html, "<svg "), 2 + 3);
	assert_null(strstr(html, "id=\"overview\""));
	free(html);
	assert_int_equal(al_compare(ci, 2, &co, &cmp), -EINVAL);
	assert_null(cmp);
	json_decref(m);
	json_decref(run);
}

/* A document with only what al_doc_check() needs still renders. */
static void
sparse_document_renders(void **state)
{
	json_error_t e;
	json_t *d =
	    json_loads("{\"schema\": \"audiolat.run/1\", \"total\": {}, \"phases\": 3, "
		       "\"timeseries\": {\"rows\": [[0, 1, 2, 3, 4, 5, 6, 7]]}, "
		       "\"spikes\": [{\"t_ns\": \"x\", \"causes\": [{\"kind\": \"irq\"}, 5]}], "
		       "\"xrun_events\": [{}]}",
		       0, &e);
	struct al_report_doc in = {d, NULL};
	char *html;
	int rc;

	(void)state;
	assert_non_null(d);
	html = render(&in, 1, NULL, &rc);
	assert_int_equal(rc, 0);
	assert_non_null(strstr(html, "</html>"));
	free(html);
	json_decref(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(outside_strings_are_escaped), cmocka_unit_test(parts_are_there),
	    cmocka_unit_test(wrong_documents_are_refused), cmocka_unit_test(midi_result),
	    cmocka_unit_test(sparse_document_renders),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
