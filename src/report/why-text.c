/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why it dropped out, as text and as Markdown (why-text.h). */
#include <inttypes.h>
#include <string.h>

#include "compare/compare.h"
#include "core/clock.h"
#include "core/text.h"
#include "core/units.h"
#include "core/why.h"
#include "doc/view.h"
#include "doc/why-doc.h"
#include "why-text.h"

#define CARDS_SHOWN 10

/* "  0.603 s  late    2.04 ms  preempted     waited 2.01 ms to run on CPU 1 ..." */
static void
card(const json_t *e, FILE *f)
{
	char cls[40], because[AL_WHY_TEXT + 16];

	al_text_term_safe(al_doc_str(e, "class", "?"), cls, sizeof(cls), 24);
	al_text_term_safe(al_doc_str(e, "because", ""), because, sizeof(because), AL_WHY_TEXT);
	fprintf(f, "  %8.3f s  %-4s %7.2f ms  %-12s  %s\n",
		(double)al_doc_int(e, "t_ns", 0) / AL_NS_PER_SEC,
		!strcmp(al_doc_str(e, "kind", ""), "xrun") ? "xrun" : "late",
		(double)al_doc_int(e, "size_ns", 0) / AL_NS_PER_MS, cls, because);
}

/* The events' cards: all, or the first ones of a run with xruns, and what was left out. */
static void
cards(const json_t *doc, const json_t *why, bool all, FILE *f)
{
	const json_t *events = json_object_get(why, "events");
	size_t n = json_array_size(events), shown = n, i;
	int64_t unkept = al_doc_int(why, "events_total", 0) - al_doc_int(why, "events_dropped", 0) -
			 (int64_t)n;

	if (!all)
		shown = al_doc_int(doc, "total.xruns", 0) > 0 ? (n < CARDS_SHOWN ? n : CARDS_SHOWN) : 0;
	for (i = 0; i < shown; i++)
		card(json_array_get(events, i), f);
	if (shown && shown < n)
		fprintf(f, "  ... %zu more (--why lists them all)\n", n - shown);
	if (all && unkept > 0)
		fprintf(f, "  ... %" PRId64 " more classified, not kept (the first %zu are)\n", unkept,
			n);
}

void
al__why_text(const json_t *doc, bool all, FILE *f)
{
	struct al_doc_why_summary s;
	char line[AL_WHY_TEXT + 16];
	const json_t *a;
	size_t i;

	if (!al_doc_why_summary(doc, al_format_duration, &s))
		return;
	al_text_term_safe(s.head, line, sizeof(line), sizeof(line));
	fprintf(f, "\nwhy: %s\n", line);
	if (json_is_string(json_object_get(s.why, "note"))) {
		al_text_term_safe(al_doc_str(s.why, "note", ""), line, sizeof(line), sizeof(line));
		fprintf(f, "  (%s)\n", line);
	}
	cards(doc, s.why, all, f);
	al_text_term_safe(al_doc_str(s.why, "verdict.line", "-"), line, sizeof(line), sizeof(line));
	fprintf(f, "verdict: %s\n", line);
	json_array_foreach(al_doc_get(s.why, "verdict.advice"), i, a) {
		al_text_term_safe(json_string_value(a), line, sizeof(line), sizeof(line));
		fprintf(f, "  try: %s\n", line);
	}
}

void
al__why_markdown(const json_t *doc, const char *key, FILE *f)
{
	struct al_doc_why_summary s;
	const json_t *a;
	size_t i;

	if (!al_doc_why_summary(doc, al_format_duration, &s))
		return;
	fprintf(f, "\n**Why ");
	al_compare_md_escape(f, key, 8);
	fprintf(f, " dropped out** (");
	al_compare_md_escape(f, al_doc_label(doc), 60);
	fprintf(f, "): ");
	al_compare_md_escape(f, s.head, sizeof(s.head));
	fprintf(f, "\n\n");
	if (s.n_classes) {
		fprintf(f, "| cause | events |\n|---|--:|\n");
		for (i = 0; i < s.n_classes; i++) {
			fprintf(f, "| ");
			al_compare_md_escape(f, s.classes[i].name, 24);
			fprintf(f, " | %" PRId64 " |\n", s.classes[i].n);
		}
		fprintf(f, "\n");
	}
	fprintf(f, "verdict: ");
	al_compare_md_escape(f, al_doc_str(s.why, "verdict.line", "-"), AL_WHY_TEXT);
	fprintf(f, "\n");
	json_array_foreach(al_doc_get(s.why, "verdict.advice"), i, a) {
		fprintf(f, "%s- try: ", i ? "" : "\n");
		al_compare_md_escape(f, json_string_value(a), AL_WHY_TEXT);
		fprintf(f, "\n");
	}
}
