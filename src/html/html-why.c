/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why it dropped out in the HTML report (docs/json.md's "why"): the verdict, the classes, the events. */
#include <inttypes.h>
#include <string.h>

#include "doc/why-doc.h"
#define AL_HTML_INTERNAL
#include "html-private.h"

#define WHY_ROWS 200

/* Two figures of an event's evidence in one cell, "3 / 1"; "-" for one the document has not. */
static void
pair_cell(FILE *f, const json_t *ev, const char *a, const char *b)
{
	const json_t *x = json_object_get(ev, a), *y = json_object_get(ev, b);

	fputs("<td class=\"num\">", f);
	if (json_is_integer(x))
		fprintf(f, "%" PRId64, (int64_t)json_integer_value(x));
	else
		fputs("-", f);
	fputs(" / ", f);
	if (json_is_integer(y))
		fprintf(f, "%" PRId64, (int64_t)json_integer_value(y));
	else
		fputs("-", f);
	fputs("</td>", f);
}

static void
event_row(FILE *f, const json_t *e)
{
	const json_t *ev = json_object_get(e, "evidence");
	bool xrun = !strcmp(al_doc_str(e, "kind", ""), "xrun");

	fprintf(f, "<tr><td class=\"num\">%.3f s</td><td%s>%s</td>",
		al_doc_real(e, "t_ns", 0) / 1e9, xrun ? " class=\"fail\"" : "", xrun ? "xrun" : "late");
	al__html_td_dur(f, e, "size_ns");
	al__html_td_str(f, al_doc_str(e, "class", NULL));
	al__html_td_dur(f, ev, "wait_ns");
	al__html_td_dur(f, ev, "cpu_ns");
	pair_cell(f, ev, "vcsw", "ivcsw");
	pair_cell(f, ev, "minflt", "majflt");
	al__html_td_dur(f, ev, "steal_ns");
	pair_cell(f, ev, "irqs", "irqs_expected");
	fputs("<td class=\"small\">", f);
	esc(f, al_doc_str(e, "because", "-"));
	fputs("</td></tr>\n", f);
}

/* The events' table, its first WHY_ROWS rows, and what it leaves out. */
static void
event_table(FILE *f, const json_t *why)
{
	const json_t *events = json_object_get(why, "events"), *e;
	size_t n = json_array_size(events), i;
	int64_t unkept = al_doc_int(why, "events_total", 0) - al_doc_int(why, "events_dropped", 0) -
			 (int64_t)n;

	if (!n)
		return;
	fputs("<table class=\"why\"><thead><tr><th>at</th><th>kind</th><th>late / lasted</th>"
	      "<th>cause</th><th>waited</th><th>ran</th><th>switches vol. / invol.</th>"
	      "<th>faults min. / maj.</th><th>steal</th><th>IRQs / expected</th><th>because</th>"
	      "</tr></thead><tbody>\n", f);
	json_array_foreach(events, i, e)
	{
		if (i == WHY_ROWS)
			break;
		event_row(f, e);
	}
	fputs("</tbody></table>\n", f);
	if (n > WHY_ROWS || unkept > 0)
		fprintf(f,
			"<p class=\"small\">%zu event(s) listed in the result, the first %zu shown; "
			"%" PRId64 " more classified, not kept.</p>\n",
			n, n < WHY_ROWS ? n : WHY_ROWS, unkept > 0 ? unkept : 0);
}

void
al__html_why_section(FILE *f, const json_t *doc)
{
	struct al_doc_why_summary s;
	const json_t *a;
	size_t i;

	if (!al_doc_why_summary(doc, al__html_dur, &s))
		return;
	fprintf(f, "<h3>Why it dropped out</h3>\n<p class=\"%s\">",
		al_doc_bool(s.why, "verdict.suitable", false) ? "ok" : "fail");
	esc(f, al_doc_str(s.why, "verdict.line", "-"));
	fputs("</p>\n", f);
	if (json_array_size(al_doc_get(s.why, "verdict.advice"))) {
		fputs("<ul class=\"advice\">\n", f);
		json_array_foreach(al_doc_get(s.why, "verdict.advice"), i, a)
		{
			fputs("<li>try: ", f);
			esc(f, json_string_value(a));
			fputs("</li>\n", f);
		}
		fputs("</ul>\n", f);
	}
	fputs("<p class=\"small\">", f);
	esc(f, s.head);
	fputs(".", f);
	if (json_is_string(json_object_get(s.why, "note"))) {
		fputs(" Evidence missing: ", f);
		esc(f, al_doc_str(s.why, "note", ""));
		fputs(".", f);
	}
	fputs("</p>\n", f);
	if (s.n_classes) {
		fputs("<table class=\"why-classes\"><thead><tr><th>cause</th><th>events</th></tr>"
		      "</thead><tbody>\n", f);
		for (i = 0; i < s.n_classes; i++) {
			fputs("<tr>", f);
			al__html_td_str(f, s.classes[i].name);
			fprintf(f, "<td class=\"num\">%" PRId64 "</td></tr>\n", s.classes[i].n);
		}
		fputs("</tbody></table>\n", f);
	}
	event_table(f, s.why);
}
