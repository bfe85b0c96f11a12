/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The section of a MIDI result (audiolat.midi/1, midi-loop/1; docs/midi.md). */
#define AL_HTML_INTERNAL
#include <inttypes.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html-private.h"

/* Every scalar of an object as rows of a key/value table; deeper values as compact JSON. */
static void
kv_object(FILE *f, const json_t *o)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)o, key, v)
	{
		char buf[64], *text = NULL;

		fputs("<tr><th>", f);
		esc(f, key);
		fputs("</th>", f);
		if (json_is_string(v)) {
			al__html_td_str(f, json_string_value(v));
		} else if (json_is_integer(v)) {
			snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
			al__html_td_str(f, buf);
		} else if (json_is_real(v)) {
			snprintf(buf, sizeof(buf), "%.6g", json_real_value(v));
			al__html_td_str(f, buf);
		} else if (json_is_boolean(v)) {
			al__html_td_str(f, json_is_true(v) ? "yes" : "no");
		} else if (json_is_null(v)) {
			al__html_td_str(f, NULL);
		} else {
			text = json_dumps(v, JSON_COMPACT);
			fputs("<td><code>", f);
			esc(f, text ? text : "?");
			fputs("</code></td>", f);
			free(text);
		}
		fputs("</tr>\n", f);
	}
}

static void
midi_card_dur(FILE *f, const json_t *doc, const char *path, const char *what)
{
	char buf[32];

	if (!json_is_number(al_doc_get(doc, path)))
		return;
	al__html_dur(al_doc_int(doc, path, 0), buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>%s</span></div>\n", buf, what);
}

/* The heading and the line under it: what was measured, where and when. */
static void
midi_head(FILE *f, const struct al_report_doc *in, size_t idx, size_t n)
{
	const json_t *doc = in->doc;

	al__html_section_begin(f, "result midi", idx, n);
	if (al_doc_str(doc, "label", NULL)) {
		esc(f, al_doc_str(doc, "label", ""));
	} else {
		const char *file = al_doc_str(doc, "source.file", "result"),
			   *slash = strrchr(file, '/');

		esc(f, slash && slash[1] ? slash + 1 : file);
	}
	fputs(" (MIDI ", f);
	esc(f, al_doc_str(doc, "kind", "?"));
	fputs(")</h2>\n<p class=\"meta\">", f);
	esc(f, al_doc_str(doc, "config.backend", "?"));
	if (al_doc_str(doc, "source.in", NULL)) {
		fputs(" port ", f);
		esc(f, al_doc_str(doc, "source.in", ""));
	}
	if (json_is_object(json_object_get(doc, "system"))) {
		fputs(" · ", f);
		esc(f, al_doc_str(doc, "system.hostname", "?"));
		fputs(" · kernel ", f);
		esc(f, al_doc_str(doc, "system.kernel_release", "?"));
	}
	fputs(" · ", f);
	al__html_meta_end(f, doc, in->source);
}

/* A loop's cards: round-trip latencies, not deltas. */
static void
loop_cards(FILE *f, const json_t *doc)
{
	fprintf(f, "<div class=\"card\"><b>%" PRId64 "</b><span>echoed</span></div>\n",
		al_doc_int(doc, "echoed", 0));
	fprintf(f, "<div class=\"card %s\"><b>%" PRId64 "</b><span>lost</span></div>\n",
		al_doc_int(doc, "lost", 0) ? "bad" : "good", al_doc_int(doc, "lost", 0));
	midi_card_dur(f, doc, "latency_min_ns", "min round trip");
	midi_card_dur(f, doc, "latency_mean_ns", "mean round trip");
	midi_card_dur(f, doc, "latency_p99_ns", "p99 round trip");
	midi_card_dur(f, doc, "latency_max_ns", "max round trip");
	midi_card_dur(f, doc, "jitter_peak_ns", "peak-to-peak jitter");
}

/* A recording's or a file's cards: the deltas and how far they strayed. */
static void
delta_cards(FILE *f, const json_t *doc)
{
	fprintf(f, "<div class=\"card\"><b>%" PRId64 "</b><span>events</span></div>\n",
		al_doc_int(doc, "events", 0));
	midi_card_dur(f, doc, "interval_ns",
		      al_doc_bool(doc, "interval_auto", false) ? "interval (found)" : "interval");
	midi_card_dur(f, doc, "delta_min_ns", "shortest delta");
	midi_card_dur(f, doc, "delta_max_ns", "longest delta");
	midi_card_dur(f, doc, "delta_p99_ns", "p99 delta");
	midi_card_dur(f, doc, "jitter_abs_max_ns", "max |delta - interval|");
	midi_card_dur(f, doc, "jitter_mean_abs_ns", "mean |delta - interval|");
	if (json_is_integer(al_doc_get(doc, "source.xruns")))
		fprintf(f,
			"<div class=\"card %s\"><b>%" PRId64 "</b><span>xruns, %" PRId64
			" dropped</span></div>\n",
			al_doc_int(doc, "source.xruns", 0) ? "bad" : "good",
			al_doc_int(doc, "source.xruns", 0), al_doc_int(doc, "source.dropped", 0));
}

/* The deltas, how far they strayed from the interval, and when. */
static void
delta_plots(struct html_ctx *c, const json_t *doc, const struct al_dhist *h)
{
	FILE *f = c->f;
	struct al_dhist jit;

	fputs("<div class=\"plots\">\n", f);
	if (h->n) {
		fputs("<figure>\n", f);
		al__html_plot_deltas(c, h, al_doc_real(doc, "interval_ns", 0));
		fprintf(f,
			"<figcaption>The %" PRIu64 " delta times between events, with the "
			"interval they should be (dashed).</figcaption>\n</figure>\n",
			h->count);
	}
	if (!al_dhist_from_json(json_object_get(doc, "jitter_histogram"), NULL, &jit) && jit.n) {
		fputs("<figure>\n", f);
		al__html_plot_histogram(c, &jit, 0, 0,
					"histogram of |delta - interval|, log scales",
					"|delta - interval| (log scale)", "deltas (log scale)");
		fputs("<figcaption>How far each delta strayed from the interval.</figcaption>\n"
		      "</figure>\n",
		      f);
	}
	al_dhist_free(&jit);
	if (json_array_size(al_doc_get(doc, "timeline.rows"))) {
		fputs("<figure>\n", f);
		al__html_plot_midi_timeline(c, json_object_get(doc, "timeline"),
					    al_doc_real(doc, "interval_ns", 0));
		fputs("<figcaption>The shortest and longest delta in each window over the "
		      "recording, with the interval (dashed).</figcaption>\n</figure>\n",
		      f);
	}
	fputs("</div>\n", f);
	if (!h->n)
		fputs("<p class=\"small\">No deltas: fewer than two events.</p>\n", f);
}

static void
midi_phase_table(FILE *f, const json_t *phases)
{
	const json_t *ph;
	size_t i;

	if (!json_array_size(phases))
		return;
	fputs("<h3>Phases</h3>\n<table class=\"phases\"><thead><tr><th>phase</th>"
	      "<th>time</th><th>events</th><th>deltas</th><th>longest delta</th>"
	      "<th>max |delta - interval|</th></tr></thead><tbody>\n",
	      f);
	json_array_foreach(phases, i, ph)
	{
		fputs("<tr><td><b>", f);
		esc(f, al_doc_str(ph, "name", "?"));
		fputs("</b><br/><span class=\"small\">", f);
		esc(f, al_doc_str(ph, "load", ""));
		fprintf(f, "</span></td><td class=\"num\">%.1f-%.1f s</td>",
			al_doc_real(ph, "start_ns", 0) / 1e9, al_doc_real(ph, "end_ns", 0) / 1e9);
		al__html_td_int(f, ph, "events");
		al__html_td_int(f, ph, "deltas");
		al__html_td_dur(f, ph, "delta_max_ns");
		al__html_td_dur(f, ph, "jitter_abs_max_ns");
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The configuration and the source as the document gives them, the system and its checks. */
static void
midi_config_tables(FILE *f, const json_t *doc)
{
	fputs("<div class=\"kvs\"><div>\n<h3>Configuration</h3>\n<table class=\"kv\">\n", f);
	kv_object(f, json_object_get(doc, "config"));
	fputs("<tr><th>command line</th><td><code>", f);
	esc(f, al_doc_str(doc, "cmdline", "-"));
	fputs("</code></td></tr>\n</table>\n</div><div>\n<h3>Source</h3>\n<table class=\"kv\">\n",
	      f);
	kv_object(f, json_object_get(doc, "source"));
	fputs("</table>\n</div></div>\n", f);
	if (json_is_object(json_object_get(doc, "system"))) {
		fputs("<h3>System</h3>\n<table class=\"kv\">\n", f);
		al__html_kv_str(f, doc, "hostname", "system.hostname");
		al__html_kv_str(f, doc, "kernel", "system.kernel_release");
		al__html_kv_str(f, doc, "preemption", "system.preempt");
		al__html_kv_str(f, doc, "CPU", "system.cpu_model");
		fputs("</table>\n", f);
		al__html_checks_table(f, doc);
	}
}

void
al__html_midi_section(struct html_ctx *c, const struct al_report_doc *in, size_t idx, size_t n,
		      const struct al_dhist *h)
{
	const json_t *doc = in->doc;
	bool loop = !strcmp(al_doc_str(doc, "schema", ""), AL_SCHEMA_MIDI_LOOP);
	FILE *f = c->f;

	midi_head(f, in, idx, n);
	fputs("<div class=\"cards\">\n", f);
	if (loop)
		loop_cards(f, doc);
	else
		delta_cards(f, doc);
	fputs("</div>\n", f);
	al__html_warnings(f, doc);
	if (!loop) {
		if (al_doc_str(doc, "resolution_note", NULL)) {
			fputs("<p class=\"small\">", f);
			esc(f, al_doc_str(doc, "resolution_note", ""));
			fputs("</p>\n", f);
		}
		delta_plots(c, doc, h);
	}
	midi_phase_table(f, json_object_get(doc, "phases"));
	midi_config_tables(f, doc);
	fputs("</section>\n", f);
}
