/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat sweep's reporter (report/sweep.c) on plain cells of known
 * figures: the verdicts, the ranges over the runs, a figure not measured,
 * a cell that did not run, the smallest safe buffer, the summary line and
 * the audiolat.sweep/1 document.
 */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "report/sweep.h"

/* sim, 48000 Hz, 64 and 128 frames, 3 periods, 2 runs each (the 64 one: 1 xrun in run 2) */
static void
make(struct al_sweep *s, json_t **runs)
{
	static const double lat[2][2] = { { 1.0e6, 2.0e6 }, { 0.5e6, 0.5e6 } };

	assert_int_equal(al_sweep_init(s, 1, 1, 2, 1, 2), 0);
	snprintf(s->cmdline, sizeof(s->cmdline), "audiolat sweep -P 64,128 --repeat 2");
	for (int i = 0; i < 2; i++) {
		struct al_sweep_cell *c = &s->cells[i];

		snprintf(c->backend, sizeof(c->backend), "sim");
		c->rate_hz = 48000;
		c->period_frames = i ? 128 : 64;
		c->periods = 3;
		runs[i] = json_array();
		for (int r = 0; r < 2; r++) {
			for (int f = 0; f < AL_SWEEP_FIGURES; f++)
				c->fig[r][f] = 0;
			c->fig[r][AL_SWEEP_MAX_LATENCY] = lat[i][r];
			c->fig[r][AL_SWEEP_XRUNS] = !i && r ? 1 : 0;
			c->fig[r][AL_SWEEP_WAKE_P99] = NAN; /* not measured */
			json_array_append_new(runs[i], json_pack("{s:i}", "run", r));
			c->n_runs++;
		}
	}
}

static char *
text_of(const struct al_sweep *s, bool markdown)
{
	char *buf = NULL;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	al_report_sweep_text(s, markdown, true, f);
	fclose(f);
	return buf;
}

static void
table(void **state)
{
	struct al_sweep s;
	json_t *runs[2];
	char *t;

	(void)state;
	make(&s, runs);
	t = text_of(&s, false);
	assert_non_null(strstr(t, "sweep: 2 configurations x 2 runs (min-max over the runs)\n"));
	/* the range over the runs, one number when they agree, '-' when not measured */
	assert_non_null(strstr(t, "1.000-2.000"));
	assert_non_null(strstr(t, " 0.500 "));
	assert_non_null(strstr(t, "xruns in 1/2\n"));
	assert_non_null(strstr(t, "  ok\n"));
	assert_non_null(strstr(t, "smallest buffer without xruns: sim 48000 Hz 3 x 128 frames (8.000 ms)\n"));
	assert_non_null(strstr(t, "summary: sweep configurations=2 runs=4 xruns=1 "
				  "configurations_without_xruns=1 smallest_safe_buffer_ns=8000000 "
				  "result=DONE\n"));
	free(t);
	t = text_of(&s, true);
	assert_non_null(strstr(t, "| sim | 48000 | 3 x 64 = 4.000 ms | 1.000-2.000 |"));
	free(t);
	/* no cell without xruns; a cell that did not run */
	s.cells[1].fig[0][AL_SWEEP_XRUNS] = 3;
	s.cells[0].n_runs = 0;
	s.cells[0].failed_code = 4;
	t = text_of(&s, false);
	assert_non_null(strstr(t, "did not run (exit 4)\n"));
	assert_non_null(strstr(t, "xruns in 1/2\n"));
	assert_non_null(strstr(t, "\nno configuration ran without xruns\n"));
	assert_non_null(strstr(t, "smallest_safe_buffer_ns=-1 "));
	free(t);
	json_decref(runs[0]);
	json_decref(runs[1]);
	al_sweep_free(&s);
}

static void
document(void **state)
{
	struct al_sweep s;
	json_t *runs[2], *doc, *c0, *c1;

	(void)state;
	make(&s, runs);
	doc = al_report_sweep_json(&s, runs);
	assert_non_null(doc);
	assert_string_equal(al_doc_str(doc, "schema", ""), "audiolat.sweep/1");
	assert_int_equal(json_array_size(json_object_get(al_doc_get(doc, "grid"), "period_frames")), 2);
	assert_int_equal(json_integer_value(json_array_get(
				 json_object_get(al_doc_get(doc, "grid"), "period_frames"), 1)), 128);
	c0 = json_array_get(json_object_get(doc, "configurations"), 0);
	c1 = json_array_get(json_object_get(doc, "configurations"), 1);
	assert_string_equal(al_doc_str(c0, "verdict", ""), "xruns in 1/2");
	assert_true(json_is_null(json_object_get(c0, "device")));
	assert_int_equal(al_doc_int(c0, "buffer_ns", 0), 4000000);
	assert_true(al_doc_real(c0, "summary.max_latency_ns.min", 0) == 1.0e6);
	assert_true(al_doc_real(c0, "summary.max_latency_ns.max", 0) == 2.0e6);
	assert_true(al_doc_real(c0, "summary.max_latency_ns.mean", 0) == 1.5e6);
	assert_true(json_is_null(al_doc_get(c0, "summary.wake_p99_ns")));
	assert_int_equal(al_doc_int(c0, "summary.xruns_total", -1), 1);
	assert_int_equal(al_doc_int(c0, "summary.runs_with_xruns", -1), 1);
	assert_int_equal(al_doc_int(c1, "summary.runs_with_xruns", -1), 0);
	assert_int_equal(json_array_size(json_object_get(c1, "runs")), 2);
	json_decref(doc);
	json_decref(runs[0]);
	json_decref(runs[1]);
	al_sweep_free(&s);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(table),
		cmocka_unit_test(document),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
