/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * pw-profiler's log (src/interchange/pw-prof.c, docs/interchange.md). The
 * fixtures are built here, line by line, in the layout PipeWire 0.3.65's
 * pw-profiler writes (src/tools/pw-profiler.c, dump_point(): 4 driver
 * columns, 8 per follower column, " " in each of a blank column's 8, a tab
 * after the last): a clamped first cycle, an incomplete point, a node
 * still awake, a node only triggered, a slow run. Parsed into a document
 * whose wake latency is null (pw-profiler measures none) and which the
 * store takes; refused with its line when damaged; refused by the
 * cyclictest export.
 */
#include <errno.h>
#include <stdbool.h>
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
#include "interchange/interchange.h"
#include "interchange/pwprofiler.h"
#include "store/store.h"

/* A node's 8 columns as pw-profiler writes them: wait and busy as it computes them. */
static void
node(char **p, unsigned id, long sig, long awake, long fin, int status)
{
	long wait = awake > 0 && sig > 0 && awake > sig ? awake - sig : 0;
	long busy = fin > 0 && awake > 0 && fin > awake ? fin - awake : 0;

	*p += sprintf(*p, "%u\t%ld\t%ld\t%ld\t%ld\t%ld\t%d\t0\t", id, sig, awake, fin, wait, busy,
		      status);
}

static void
blank(char **p)
{
	*p += sprintf(*p, " \t \t \t \t \t \t \t \t");
}

static void
drv(char **p, long interval, long end, long delay, long period)
{
	*p += sprintf(*p, "%ld\t%ld\t%ld\t%ld\t", interval, end, delay, period);
}

/*
 * Four points of a 5333 us period, 3 node columns (the middle one blank):
 * 1: clamped (pw-profiler's 1.4 periods, 7466, for both); 2: complete;
 * 3: incomplete (interval 0), node 34 still awake, node 40 only triggered;
 * 4: complete, node 34 busy 1970 us, a delay of -2 us.
 */
static char *
capture(void)
{
	char *buf = calloc(1, 4096), *p = buf;

	drv(&p, 7466, 7466, 0, 5333);
	node(&p, 34, 20, 30, 90, 3), blank(&p), node(&p, 40, 100, 112, 150, 3);
	*p++ = '\n';
	drv(&p, 5333, 120, 0, 5333);
	node(&p, 34, 21, 33, 80, 3), blank(&p), node(&p, 40, 95, 110, 160, 3);
	*p++ = '\n';
	drv(&p, 0, 5340, 0, 5333);
	node(&p, 34, 22, 35, 0, 2), blank(&p), node(&p, 40, 0, 0, 0, 1);
	*p++ = '\n';
	drv(&p, 5340, 130, -2, 5333);
	node(&p, 34, 19, 30, 2000, 3), blank(&p), node(&p, 40, 97, 109, 170, 3);
	*p++ = '\n';
	return buf;
}

static json_t *
imported(const char *text, enum al_ix_format f, char **out)
{
	char err[256] = "";
	size_t len = 0;
	json_t *doc;

	assert_int_equal(al_ix_import(text, strlen(text), "/tmp/x/profiler.log", f, out, &len, err,
				      sizeof(err)), 0);
	doc = json_loads(*out, 0, NULL);
	assert_non_null(doc);
	return doc;
}

static const json_t *
node_of(const json_t *doc, int64_t id)
{
	const json_t *n;
	size_t i;

	json_array_foreach(al_doc_get(doc, "source.nodes"), i, n)
		if (al_doc_int(n, "id", -1) == id)
			return n;
	fail_msg("no node %lld", (long long)id);
	return NULL;
}

/* Figures a document (or a node of it) must have: a path and its integer, or null. */
struct want {
	const char *path;
	int64_t v;
	bool null;
};

static void
expect(const json_t *o, const struct want *w, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		const json_t *v = al_doc_get(o, w[i].path);

		if (w[i].null ? !json_is_null(v) : !json_is_integer(v) || json_integer_value(v) != w[i].v)
			fail_msg("%s: expected %s%lld", w[i].path, w[i].null ? "null, not " : "",
				 (long long)(w[i].null ? 0 : w[i].v));
	}
}

#define N(a) (sizeof(a) / sizeof((a)[0]))

static void
capture_as_document(void **state)
{
	static const struct want doc_w[] = {
		{ "source.points", 4 }, { "source.clamped_points", 1 },
		{ "source.incomplete_points", 1 }, { "source.node_columns", 3 },
		/* no wake latency, no xruns: null, never 0 */
		{ "total.wake_latency_ns", 0, true }, { "total.wake_latency_per_wakeup_ns", 0, true },
		{ "total.histogram.wake_latency_ns", 0, true }, { "total.xruns", 0, true },
		{ "total.periods", 0, true }, { "config.rate", 0, true },
		{ "config.period_ns", 5333000 },
		/* the driver's interval: the complete, unclamped points (2 and 4) */
		{ "total.interval_ns.count", 2 }, { "total.interval_ns.min", 5333000 },
		{ "total.interval_ns.max", 5340000 }, { "total.histogram.interval_ns.count", 2 },
		{ "source.driver.end_ns.max", 130000 }, { "source.driver.delay_ns.min", -2000 },
	};
	/* node 34: awake in point 3 (unfinished, its wait counted, no busy) */
	static const struct want n34[] = {
		{ "column", 0 }, { "points", 4 }, { "unfinished", 1 }, { "wait_ns.count", 4 },
		{ "wait_ns.max", 13000 }, { "busy_ns.count", 3 }, { "busy_ns.min", 47000 },
		{ "busy_ns.max", 1970000 }, { "busy_ns.mean", (60 + 47 + 1970) * 1000 / 3 },
		{ "end_ns.max", 2000000 }, { "histogram.busy_ns.count", 3 },
	};
	/* node 40: only triggered in point 3: neither its wait nor its busy there */
	static const struct want n40[] = {
		{ "column", 2 }, { "unfinished", 1 }, { "wait_ns.count", 3 }, { "busy_ns.max", 61000 },
	};
	char *text = capture(), *out = NULL, err[256] = "";
	json_t *doc = imported(text, AL_IX_AUTO, &out);

	(void)state;
	assert_string_equal(al_doc_str(doc, "schema", ""), "audiolat.run/2");
	assert_string_equal(al_doc_str(doc, "source.tool", ""), "pw-profiler");
	assert_string_equal(al_doc_str(doc, "source.file", ""), "profiler.log");
	expect(doc, doc_w, N(doc_w));
	expect(node_of(doc, 34), n34, N(n34));
	expect(node_of(doc, 40), n40, N(n40));
	assert_int_equal(json_array_size(al_doc_get(doc, "source.nodes")), 2);
	/* the store takes it: a null wake latency is no missing field */
	assert_int_equal(al_store_check_document(out, strlen(out), err, sizeof(err)), 0);
	json_decref(doc);
	free(out);
	free(text);
}

/* 0.3.65's own width: 64 follower columns, all but one blank; a line with no tab last. */
static void
sixty_four_columns(void **state)
{
	char *buf = calloc(1, 8192), *p = buf, *out = NULL;
	json_t *doc;

	(void)state;
	for (int l = 0; l < 2; l++) {
		drv(&p, 5333, 100 + l, 0, 5333);
		for (int c = 0; c < 64; c++)
			c == 5 ? node(&p, 77, 10, 20, 50 + l, 3) : blank(&p);
		if (l == 1)
			p[-1] = '\0'; /* no tab after the last column, no newline */
		else
			*p++ = '\n';
	}
	doc = imported(buf, AL_IX_PW_PROFILER, &out);
	expect(doc, (const struct want[]){ { "source.node_columns", 64 }, { "source.points", 2 } }, 2);
	expect(node_of(doc, 77), (const struct want[]){ { "column", 5 }, { "busy_ns.max", 31000 } },
	       2);
	json_decref(doc);
	free(out);
	free(buf);
}

static void
recognised_by_content(void **state)
{
	char *text = capture();

	(void)state;
	assert_int_equal(al_ix_detect(text, strlen(text)), AL_IX_PW_PROFILER);
	assert_int_equal(al_ix_detect("# Histogram\n000000 000001\n", 26), AL_IX_CYCLICTEST_HIST);
	assert_int_equal(al_ix_detect("{\"schema\": \"x\"}", 15), AL_IX_AUDIOLAT);
	/* a cyclictest bucket line (a space in its first column) is not pw-profiler's */
	assert_int_equal(al_ix_detect("000000 000001\t2\t3\t4\n", 20), AL_IX_AUDIOLAT);
	assert_int_equal(al_ix_detect("1\t2\t3\n", 6), AL_IX_AUDIOLAT);
	free(text);
}

/* text with its line `line` replaced by `with`: the error names that line. */
static void
refused(const char *with, int line, const char *expect)
{
	char *text = capture(), *bad = calloc(1, 8192), *out = NULL, err[256] = "";
	const char *s = text;
	size_t len = 0;

	for (int l = 1; *s; l++) {
		const char *nl = strchr(s, '\n');

		strcat(bad, l == line ? with : "");
		if (l != line)
			strncat(bad, s, (size_t)(nl - s));
		strcat(bad, "\n");
		s = nl + 1;
	}
	assert_int_equal(al_ix_import(bad, strlen(bad), "p.log", AL_IX_PW_PROFILER, &out, &len, err,
				      sizeof(err)), -EINVAL);
	assert_null(out);
	if (!strstr(err, expect))
		fail_msg("'%s' does not say '%s'", err, expect);
	free(bad);
	free(text);
}

static void
bad_input_names_its_line(void **state)
{
	char wrong_wait[512], *p = wrong_wait;

	(void)state;
	refused("5333\t120\t0\t5333\t", 2, ":2: expected 3 node columns as line 1 has, found 0");
	refused("5333\t120\t0\t", 3, ":3: expected 4 driver columns, then 8 per node, found 3");
	refused("", 4, ":4: expected a profiler point");
	drv(&p, 5333, 120, 0, 5333);
	node(&p, 34, 21, 33, 80, 3), blank(&p);
	p += sprintf(p, "40\t95\t110\t160\t16\t50\t3\t0\t"); /* wait 16, not 110 - 95 */
	refused(wrong_wait, 2, ":2: expected the wait and busy time of node 40 (columns 25, 26)");
	p = wrong_wait;
	drv(&p, 5333, 120, 0, 5333);
	node(&p, 34, 21, 33, 80, 4), blank(&p), node(&p, 40, 95, 110, 160, 3);
	refused(wrong_wait, 3, ":3: expected a status (1 triggered, 2 awake, 3 finished) from 1 "
			       "to 3 in column 11, found 4");
	p = wrong_wait;
	drv(&p, 5333, 120, 0, 5333);
	p += sprintf(p, "x\t");
	refused(wrong_wait, 1, ":1: expected 4 driver columns");
	p = wrong_wait;
	p += sprintf(p, "5333\t-1\t0\t5333\t");
	node(&p, 34, 21, 33, 80, 3), blank(&p), node(&p, 40, 95, 110, 160, 3);
	refused(wrong_wait, 2, ":2: expected the driver's end (a whole number) in column 2, "
			       "found '-1'");
}

static void
empty_file(void **state)
{
	char *out = NULL, err[256] = "";
	size_t len = 0;

	(void)state;
	assert_int_equal(al_ix_import("", 0, "p.log", AL_IX_PW_PROFILER, &out, &len, err,
				      sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, ":1: expected a profiler point"));
}

/* cyclictest's text holds a wake-latency histogram: a run without one is refused, no 0s written. */
static void
no_cyclictest_export(void **state)
{
	char *text = capture(), *out = NULL, *ct = NULL, err[256] = "";
	json_t *doc = imported(text, AL_IX_AUTO, &out);

	(void)state;
	assert_int_equal(al_ix_export_cyclictest(doc, &ct, err, sizeof(err)), -ENODATA);
	assert_null(ct);
	assert_non_null(strstr(err, "no wake latency histogram (pw-profiler does not measure it)"));
	json_decref(doc);
	free(out);
	free(text);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(capture_as_document),
		cmocka_unit_test(sixty_four_columns),
		cmocka_unit_test(recognised_by_content),
		cmocka_unit_test(bad_input_names_its_line),
		cmocka_unit_test(empty_file),
		cmocka_unit_test(no_cyclictest_export),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
