/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi's document and text from a result built by hand
 * (src/doc/midi-doc.c, midi-text.c): what was not measured is null,
 * never 0; the JACK-only fields are null on ALSA; the uuid; the summary
 * and threshold lines; the text and summary reporters render the document.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "doc/doc.h"
#include "report/midi.h"
#include "report/report.h"

static struct al_midi_result *
new_result(int kind, int api)
{
	struct al_midi_result *r = calloc(1, sizeof(*r));

	assert_non_null(r);
	r->cfg.kind = kind;
	r->cfg.api = api;
	snprintf(r->cfg.cmdline, sizeof(r->cfg.cmdline), "audiolat midi test");
	return r;
}

/* What a reporter (text, summary) renders of doc, as audiolat midi and show print it. */
static char *
text_of(const struct al_reporter *rep, const json_t *doc, const char *verdict)
{
	const struct al_report_doc rd = { doc, NULL };
	const struct al_report_input in = { .docs = &rd, .n = 1, .verdict = verdict };
	char *buf = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&buf, &len);

	assert_non_null(f);
	assert_int_equal(rep->write(&in, f), 0);
	fclose(f);
	return buf;
}

static void
loop_nothing_echoed(void **state)
{
	struct al_midi_result *r = new_result(AL_MIDI_LOOP, AL_MIDI_API_RAWMIDI);
	json_t *doc;
	char *t;

	(void)state;
	r->sent = 3;
	r->lost = 3;
	doc = al_doc_midi_json(r);
	assert_non_null(doc);
	assert_string_equal(al_doc_str(doc, "schema", ""), AL_SCHEMA_MIDI_LOOP);
	assert_string_equal(al_doc_str(doc, "kind", ""), "loop");
	assert_int_equal(al_doc_int(doc, "lost", -1), 3);
	/* no echo: no latency was measured */
	assert_true(json_is_null(al_doc_get(doc, "latency_min_ns")));
	assert_true(json_is_null(al_doc_get(doc, "latency_max_ns")));
	assert_true(json_is_null(al_doc_get(doc, "jitter_peak_ns")));
	assert_true(json_is_null(al_doc_get(doc, "latency_frames_min")));
	assert_true(json_is_null(al_doc_get(doc, "wall_latency_ns.p99")));
	assert_true(json_is_null(al_doc_get(doc, "histogram")));
	/* not JACK: its fields are null */
	assert_true(json_is_null(al_doc_get(doc, "source.rate")));
	assert_true(json_is_null(al_doc_get(doc, "source.cycles")));
	assert_true(json_is_null(al_doc_get(doc, "source.callback_wake_ns")));
	/* no random bytes: no uuid */
	assert_true(json_is_null(al_doc_get(doc, "uuid")));
	assert_int_equal(al_doc_int(doc, "config.timeout_ns", -1), 1000000000);
	t = text_of(&al_reporter_text, doc, NULL);
	assert_non_null(strstr(t, "latency: none measured\n"));
	free(t);
	json_decref(doc);
	free(r);
}

static void
record_one_event(void **state)
{
	struct al_midi_result *r = new_result(AL_MIDI_RECORD, AL_MIDI_API_JACK);
	json_t *doc;

	(void)state;
	r->st = calloc(1, sizeof(*r->st));
	assert_non_null(r->st);
	r->st->events = 1;
	r->st->interval_auto = true;
	r->tick_ns = 1000;
	r->info.rate_hz = 48000;
	snprintf(r->uuid, sizeof(r->uuid), "5f0c6a36-1f7e-4c29-9d0b-8d6f1e0e2a41");
	doc = al_doc_midi_json(r);
	assert_non_null(doc);
	assert_string_equal(al_doc_str(doc, "schema", ""), AL_SCHEMA_MIDI);
	assert_string_equal(al_doc_str(doc, "kind", ""), "record");
	assert_string_equal(al_doc_str(doc, "uuid", ""), "5f0c6a36-1f7e-4c29-9d0b-8d6f1e0e2a41");
	assert_int_equal(al_doc_int(doc, "events", -1), 1);
	assert_int_equal(al_doc_int(doc, "deltas", -1), 0);
	/* one event: no delta, no interval found */
	assert_true(json_is_null(al_doc_get(doc, "interval_ns")));
	assert_true(json_is_null(al_doc_get(doc, "delta_min_ns")));
	assert_true(json_is_null(al_doc_get(doc, "jitter_abs_max_ns")));
	assert_true(json_is_null(al_doc_get(doc, "config.interval_ns")));
	assert_int_equal(al_doc_int(doc, "source.rate", -1), 48000);
	assert_true(json_is_array(al_doc_get(doc, "phases")));
	json_decref(doc);
	free(r->st);
	free(r);
}

static void
analyze_file_and_lines(void **state)
{
	struct al_midi_result *r = new_result(AL_MIDI_ANALYZE, AL_MIDI_API_JACK);
	char line[256], *t;
	json_t *doc;

	(void)state;
	r->cfg.file = "a.mid";
	r->cfg.max_jitter_ns = 1000000;
	r->has_file = true;
	r->file.bytes = 42;
	r->file.ppq = 480;
	r->st = calloc(1, sizeof(*r->st));
	assert_non_null(r->st);
	r->st->events = 6;
	r->st->deltas = 5;
	r->st->interval_ns = 100000000;
	r->st->jitter_abs_max_ns = 5000000;
	r->threshold = AL_MIDI_THRESH_JITTER_ABS;
	doc = al_doc_midi_json(r);
	assert_string_equal(al_doc_str(doc, "config.backend", ""), "file");
	assert_int_equal(al_doc_int(doc, "source.bytes", -1), 42);
	assert_int_equal(al_doc_int(doc, "source.ticks_per_quarter", -1), 480);
	assert_true(json_is_null(al_doc_get(doc, "source.smpte_fps")));
	assert_true(json_is_null(al_doc_get(doc, "duration_ns")));
	assert_null(al_doc_get(doc, "phases"));
	assert_true(al_midi_text_threshold(r, line, sizeof(line)));
	assert_string_equal(line, "max |delta - interval| 5000.0 us exceeds --max-jitter 1000.0 us");
	t = text_of(&al_reporter_summary, doc, r->threshold ? "FAIL" : "PASS");
	assert_non_null(strstr(t, "summary: source=file events=6 interval_ns=100000000 "));
	assert_non_null(strstr(t, " result=FAIL\n"));
	free(t);
	json_decref(doc);
	r->threshold = AL_MIDI_THRESH_NONE;
	assert_false(al_midi_text_threshold(r, line, sizeof(line)));
	free(r->st);
	free(r);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(loop_nothing_echoed),
		cmocka_unit_test(record_one_event),
		cmocka_unit_test(analyze_file_and_lines),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
