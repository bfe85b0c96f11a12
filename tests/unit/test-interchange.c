/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest's formats (src/interchange, docs/interchange.md): the -h/-H
 * text and --json files made here, as cyclictest writes them, parsed into
 * documents (the max above the last bucket kept exactly, several threads,
 * an empty histogram, overflows), written back byte for byte; a truncated
 * or damaged file refused with its line.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <jansson.h>

#include "doc/doc.h"
#include "interchange/cyclictest.h"
#include "interchange/interchange.h"

/* A cyclictest -h 10 text of one thread: values 3 us (x4), 5 us (x2), two overflows, max 250. */
static const char one_thread[] =
	"# /dev/cpu_dma_latency set to 0us\n"
	"# Histogram\n"
	"000000 000000\n000001 000000\n000002 000000\n000003 000004\n000004 000000\n"
	"000005 000002\n000006 000000\n000007 000000\n000008 000000\n000009 000000\n"
	"# Total: 000000006\n"
	"# Min Latencies: 00003\n"
	"# Avg Latencies: 00045\n"
	"# Max Latencies: 00250\n"
	"# Histogram Overflows: 00002\n"
	"# Histogram Overflow at cycle number:\n"
	"# Thread 0: 00004 00007\n"
	"\n";

/* -H 4 with two threads: a summary column on the buckets, Total, Max and Overflows. */
static const char two_threads[] =
	"# Histogram\n"
	"000000 000000\t000000\t000000\n"
	"000001 000001\t000003\t000004\n"
	"000002 000002\t000000\t000002\n"
	"000003 000000\t000001\t000001\n"
	"# Total: 000000003 000000004 000000007\n"
	"# Min Latencies: 00001 00001\n"
	"# Avg Latencies: 00001 00009\n"
	"# Max Latencies: 00002 00031 00031\n"
	"# Histogram Overflows: 00000 00001 00001\n"
	"# Histogram Overflow at cycle number:\n"
	"# Thread 0:\n"
	"# Thread 1: # 00001 others\n"
	"\n";

static json_t *
doc_of(const char *text, enum al_ix_format f, char *err, size_t err_size)
{
	char *out = NULL;
	size_t len = 0;
	json_t *doc;

	if (al_ix_import(text, strlen(text), "/some/dir/run.hist", f, &out, &len, err, err_size))
		return NULL;
	assert_int_equal(strlen(out), len);
	doc = json_loads(out, 0, NULL);
	free(out);
	assert_non_null(doc);
	return doc;
}

static void
one_thread_with_overflow(void **state)
{
	char err[256] = "";
	json_t *doc = doc_of(one_thread, AL_IX_AUTO, err, sizeof(err));
	const json_t *t;

	(void)state;
	assert_non_null(doc);
	t = al_doc_get(doc, "total.wake_latency_ns");
	assert_string_equal(al_doc_str(doc, "schema", ""), "audiolat.run/2");
	assert_string_equal(al_doc_str(doc, "source.tool", ""), "cyclictest");
	assert_string_equal(al_doc_str(doc, "source.format", ""), "cyclictest-hist");
	assert_string_equal(al_doc_str(doc, "source.file", ""), "run.hist");
	/* cyclictest's summary: count = Total + Overflows, min, avg, max in ns */
	assert_int_equal(al_doc_int(t, "count", 0), 8);
	assert_int_equal(al_doc_int(t, "min", 0), 3000);
	assert_int_equal(al_doc_int(t, "mean", 0), 45000);
	/* the max lies above the last bucket: kept exactly from the Max line */
	assert_int_equal(al_doc_int(t, "max", 0), 250000);
	assert_int_equal(al_doc_int(t, "overflow", 0), 2);
	/* ranks in the overflow report the max; the first four are in [3, 4) us */
	assert_int_equal(al_doc_int(t, "p50", 0), 3499);
	assert_int_equal(al_doc_int(t, "p90", 0), 250000);
	assert_true(json_is_null(al_doc_get(t, "stddev")));
	assert_int_equal(json_array_size(al_doc_get(doc, "total.histogram.wake_latency_ns.buckets")),
			 2);
	assert_int_equal(al_doc_int(doc, "source.histogram_buckets", 0), 10);
	/* what cyclictest does not measure is null, never 0 */
	assert_true(json_is_null(al_doc_get(doc, "total.xruns")));
	assert_true(json_is_null(al_doc_get(doc, "total.periods")));
	assert_true(json_is_null(al_doc_get(doc, "config.backend")));
	assert_true(json_is_null(al_doc_get(doc, "config.period_frames")));
	assert_int_equal(al_doc_int(doc, "total.wakeups", 0), 8);
	/* the overflow's cycles, as listed */
	t = json_array_get(al_doc_get(doc, "source.threads"), 0);
	assert_int_equal(json_array_size(json_object_get(t, "overflow_cycles")), 2);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(t, "overflow_cycles"), 1)),
			 7);
	json_decref(doc);
}

static void
several_threads(void **state)
{
	char err[256] = "", *text = NULL;
	json_t *doc = doc_of(two_threads, AL_IX_CYCLICTEST_HIST, err, sizeof(err));
	const json_t *th;

	(void)state;
	assert_non_null(doc);
	th = al_doc_get(doc, "source.threads");
	/* the -H column is the sum of the two, no thread of its own */
	assert_int_equal(json_array_size(th), 2);
	assert_true(al_doc_bool(doc, "source.histofall", false));
	assert_int_equal(al_doc_int(json_array_get(th, 1), "wake_latency_ns.count", 0), 5);
	assert_int_equal(al_doc_int(json_array_get(th, 1), "wake_latency_ns.max", 0), 31000);
	/* together: 8 values, the min of both, the max of both, the mean by counts */
	assert_int_equal(al_doc_int(doc, "total.wake_latency_ns.count", 0), 8);
	assert_int_equal(al_doc_int(doc, "total.wake_latency_ns.min", 0), 1000);
	assert_int_equal(al_doc_int(doc, "total.wake_latency_ns.max", 0), 31000);
	assert_int_equal(al_doc_int(doc, "total.wake_latency_ns.mean", 0), (3 * 1000 + 5 * 9000) / 8);
	/* and back: cyclictest's own text */
	assert_int_equal(al_ix_export_cyclictest(doc, &text, err, sizeof(err)), 0);
	assert_string_equal(text, two_threads);
	free(text);
	json_decref(doc);
}

static void
written_back_byte_for_byte(void **state)
{
	char err[256] = "", *text = NULL, *again = NULL;
	json_t *doc = doc_of(one_thread, AL_IX_AUTO, err, sizeof(err)), *doc2;

	(void)state;
	assert_int_equal(al_ix_export_cyclictest(doc, &text, err, sizeof(err)), 0);
	/* cyclictest's line about /dev/cpu_dma_latency is the machine's, not the run's */
	assert_string_equal(text, strchr(one_thread, '\n') + 1);
	doc2 = doc_of(text, AL_IX_AUTO, err, sizeof(err));
	assert_int_equal(al_ix_export_cyclictest(doc2, &again, err, sizeof(err)), 0);
	assert_string_equal(text, again);
	free(text);
	free(again);
	json_decref(doc);
	json_decref(doc2);
}

/* A run of ours: its per-wake-up histogram, a bucket wider than 1 us, its xruns and backend. */
static void
ours_round_trip(void **state)
{
	const char *ours =
		"{\"schema\": \"audiolat.run/2\", \"label\": \"a \\\"b\\\"\", \"started_at\": \"2026-01-02T03:04:05.000Z\","
		" \"config\": {\"backend\": \"sim\", \"rate\": 48000, \"period_frames\": 64, \"periods\": 3},"
		" \"total\": {\"periods\": 12, \"xruns\": 3, \"missed_periods\": 2,"
		"  \"wake_latency_per_wakeup_ns\": {\"count\": 10, \"min\": -1500, \"mean\": 52000, \"max\": 140100},"
		"  \"histogram\": {\"wake_latency_per_wakeup_ns\": {\"count\": 10, \"overflow\": 0,"
		"   \"buckets\": [[-1535, -1499, 1], [4000, 4001, 5], [4500, 4501, 3], [139264, 140288, 1]]}}}}";
	char err[256] = "", *text = NULL, *text2 = NULL, *d1 = NULL, *d2 = NULL;
	json_t *doc = json_loads(ours, 0, NULL), *back, *back2;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(al_ix_export_cyclictest(doc, &text, err, sizeof(err)), 0);
	assert_non_null(strstr(text, "# audiolat.label: \"a \\\"b\\\"\"\n"));
	assert_non_null(strstr(text, "# audiolat.xruns: 3\n"));
	assert_non_null(strstr(text, "# audiolat.backend: \"sim\"\n"));
	/* the negative value in bucket 0, the two at 4 us together, the wide one at 139 us */
	assert_non_null(strstr(text, "000000 000001\n"));
	assert_non_null(strstr(text, "000004 000008\n"));
	assert_non_null(strstr(text, "000139 000001\n# Total: 000000010\n"));
	assert_non_null(strstr(text, "# Min Latencies: 00000\n"));
	assert_non_null(strstr(text, "# Avg Latencies: 00052\n# Max Latencies: 00140\n"));
	back = doc_of(text, AL_IX_AUTO, err, sizeof(err));
	assert_non_null(back);
	assert_int_equal(al_doc_int(back, "total.xruns", 0), 3);
	assert_int_equal(al_doc_int(back, "total.periods", 0), 12);
	assert_int_equal(al_doc_int(back, "config.period_frames", 0), 64);
	assert_string_equal(al_doc_str(back, "config.backend", ""), "sim");
	assert_string_equal(al_doc_str(back, "label", ""), "a \"b\"");
	assert_string_equal(al_doc_str(back, "started_at", ""), "2026-01-02T03:04:05.000Z");
	/* a second round: the same text, the same document */
	assert_int_equal(al_ix_export_cyclictest(back, &text2, err, sizeof(err)), 0);
	assert_string_equal(text, text2);
	back2 = doc_of(text2, AL_IX_AUTO, err, sizeof(err));
	d1 = json_dumps(back, JSON_SORT_KEYS);
	d2 = json_dumps(back2, JSON_SORT_KEYS);
	assert_string_equal(d1, d2);
	free(d1);
	free(d2);
	free(text);
	free(text2);
	json_decref(doc);
	json_decref(back);
	json_decref(back2);
}

/*
 * A run of ours with a wake-up past cyclictest's largest histogram (a 2 s
 * stall: 2000000 us, the export keeps 1000000 buckets): counted in the
 * Overflows line, not in Total, and read back as an overflow.
 */
static void
ours_past_the_last_bucket(void **state)
{
	const char *ours =
		"{\"schema\": \"audiolat.run/2\", \"config\": {\"backend\": \"sim\"},"
		" \"total\": {\"periods\": 3, \"xruns\": 1,"
		"  \"wake_latency_per_wakeup_ns\": {\"count\": 3, \"min\": 4000, \"mean\": 666669333, \"max\": 2000000000},"
		"  \"histogram\": {\"wake_latency_per_wakeup_ns\": {\"count\": 3, \"overflow\": 0,"
		"   \"buckets\": [[4000, 4001, 2], [2000000000, 2000001000, 1]]}}}}";
	char err[256] = "", *text = NULL;
	json_t *doc = json_loads(ours, 0, NULL), *back;

	(void)state;
	assert_non_null(doc);
	assert_int_equal(al_ix_export_cyclictest(doc, &text, err, sizeof(err)), 0);
	assert_non_null(strstr(text, "# Total: 000000002\n"));
	assert_non_null(strstr(text, "# Histogram Overflows: 00001\n"));
	back = doc_of(text, AL_IX_AUTO, err, sizeof(err));
	assert_non_null(back);
	assert_int_equal(al_doc_int(back, "total.histogram.wake_latency_per_wakeup_ns.count", 0), 3);
	assert_int_equal(al_doc_int(back, "total.histogram.wake_latency_per_wakeup_ns.overflow", 0), 1);
	free(text);
	json_decref(doc);
	json_decref(back);
}

static void
empty_histogram(void **state)
{
	const char *empty = "# Histogram\n# Total: 000000000\n# Min Latencies: 1000000\n"
			    "# Avg Latencies: 00000\n# Max Latencies: 00000\n"
			    "# Histogram Overflows: 00000\n# Histogram Overflow at cycle number:\n"
			    "# Thread 0:\n";
	char err[256] = "";
	json_t *doc = doc_of(empty, AL_IX_AUTO, err, sizeof(err));

	(void)state;
	assert_non_null(doc);
	/* nothing measured: cyclictest's min of 1000000 is its start value, not a figure */
	assert_int_equal(al_doc_int(doc, "total.wake_latency_ns.count", -1), 0);
	assert_true(json_is_null(al_doc_get(doc, "total.wake_latency_ns.min")));
	assert_true(json_is_null(al_doc_get(doc, "total.wake_latency_ns.max")));
	json_decref(doc);
}

static void
expect_refused(const char *text, enum al_ix_format f, const char *want)
{
	char err[256] = "", *out = (char *)"untouched";
	size_t len = 7;

	assert_int_equal(al_ix_import(text, strlen(text), "x", f, &out, &len, err, sizeof(err)),
			 -22);
	assert_null(out);
	if (!strstr(err, want))
		fail_msg("'%s' is not in '%s'", want, err);
	assert_null(strchr(err, '\n'));
}

static void
bad_input_names_its_line(void **state)
{
	char cut[200];

	(void)state;
	/* truncated after its buckets */
	snprintf(cut, sizeof(cut), "%.*s", (int)(strstr(one_thread, "# Total") - one_thread),
		 one_thread);
	expect_refused(cut, AL_IX_AUTO, ":12: expected a '# Min Latencies:' line (a truncated file?)");
	expect_refused("# Histogram\n000000 000001\n000001 00x\n", AL_IX_AUTO,
		       ":3: expected counts after the bucket, found '00x'");
	expect_refused("# Histogram\n000003 000001\n000002 000001\n", AL_IX_AUTO,
		       ":3: expected a bucket above 000003 (line 2)");
	expect_refused("# Histogram\n000000 000001\n000001 000001 000004\n", AL_IX_AUTO,
		       ":3: expected 1 counts (as on line 2), found 2");
	expect_refused("# Histogram\n000000 000002\n# Total: 000000003\n# Min Latencies: 00000\n"
		       "# Avg Latencies: 00000\n# Max Latencies: 00000\n# Histogram Overflows: 00000\n",
		       AL_IX_AUTO, ":3: expected 2 in column 1 of '# Total:'");
	expect_refused("hello\n", AL_IX_CYCLICTEST_HIST, ":1: expected a bucket line");
	expect_refused("# audiolat.xruns: \"three\"\n# Histogram\n", AL_IX_CYCLICTEST_HIST,
		       ":1: expected an integer or null after '# audiolat.xruns:'");
	expect_refused("{\"num_threads\": 1, \"thread\": {\"0\": {\"histogram\": {\"5\": 3},"
		       " \"cycles\": 2, \"min\": 5, \"max\": 5, \"avg\": 5}}}", AL_IX_AUTO,
		       ": thread \"0\": expected \"cycles\" (2) at least the histogram's 3");
	expect_refused("{\"num_threads\": 1, \"thread\": {", AL_IX_CYCLICTEST_JSON,
		       ":1:30: invalid JSON");
}

static void
json_file(void **state)
{
	const char *j =
		"{\"cmdline:\": \"cyclictest -m -p 80 -t 2 -i 1000 -l 10 -h 50 -q --json=x\","
		" \"rt_test_version:\": \"2.40\", \"start_time\": \"Sun, 06 Dec 2026 03:07:42 +0100\","
		" \"sysinfo\": {\"nodename\": \"vm\", \"release\": \"6.6.1-rt7\", \"realtime\": 1},"
		" \"num_threads\": 2, \"thread\": {"
		" \"0\": {\"histogram\": {\"40\": 7, \"28\": 1}, \"cycles\": 10, \"min\": 28, \"max\": 1589,"
		"  \"avg\": 173.66, \"cpu\": 0},"
		" \"1\": {\"histogram\": {\"18\": 10}, \"cycles\": 10, \"min\": 18, \"max\": 18, \"avg\": 18.0,"
		"  \"cpu\": 1}}}";
	char err[256] = "";
	json_t *doc = doc_of(j, AL_IX_AUTO, err, sizeof(err)), *t0;

	(void)state;
	assert_non_null(doc);
	assert_string_equal(al_doc_str(doc, "source.format", ""), "cyclictest-json");
	t0 = json_array_get(al_doc_get(doc, "source.threads"), 0);
	/* the two values cycles counts past the histogram overflowed; avg to 0.01 us */
	assert_int_equal(al_doc_int(t0, "wake_latency_ns.overflow", 0), 2);
	assert_int_equal(al_doc_int(t0, "wake_latency_ns.mean", 0), 173660);
	assert_int_equal(al_doc_int(t0, "wake_latency_ns.max", 0), 1589000);
	assert_int_equal(al_doc_int(t0, "cpu", -1), 0);
	assert_int_equal(al_doc_int(doc, "source.histogram_buckets", 0), 50);
	assert_string_equal(al_doc_str(doc, "system.kernel_release", ""), "6.6.1-rt7");
	assert_string_equal(al_doc_str(doc, "system.preempt", ""), "PREEMPT_RT");
	assert_string_equal(al_doc_str(doc, "started_at", ""), "2026-12-06T02:07:42.000Z");
	assert_int_equal(al_doc_int(doc, "total.wake_latency_ns.count", 0), 20);
	json_decref(doc);
}

static void
formats_by_content(void **state)
{
	enum al_ix_format f;

	(void)state;
	assert_int_equal(al_ix_detect(one_thread, strlen(one_thread)), AL_IX_CYCLICTEST_HIST);
	assert_int_equal(al_ix_detect(two_threads, strlen(two_threads)), AL_IX_CYCLICTEST_HIST);
	assert_int_equal(al_ix_detect(" {\"num_threads\": 1, \"thread\": {}}", 34),
			 AL_IX_CYCLICTEST_JSON);
	assert_int_equal(al_ix_detect("{\"schema\": \"audiolat.run/2\"}", 28), AL_IX_AUDIOLAT);
	assert_int_equal(al_ix_format_of("cyclictest-json", &f), 0);
	assert_int_equal(f, AL_IX_CYCLICTEST_JSON);
	assert_int_equal(al_ix_format_of("osadl", &f), -22);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(one_thread_with_overflow),
		cmocka_unit_test(several_threads),
		cmocka_unit_test(written_back_byte_for_byte),
		cmocka_unit_test(ours_round_trip),
		cmocka_unit_test(ours_past_the_last_bucket),
		cmocka_unit_test(empty_histogram),
		cmocka_unit_test(bad_input_names_its_line),
		cmocka_unit_test(json_file),
		cmocka_unit_test(formats_by_content),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
