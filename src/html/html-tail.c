/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tail beyond the run in the HTML report (docs/tail.md): cells and the run's table. */
#include "doc/tail-doc.h"
#define AL_HTML_INTERNAL
#include "html-private.h"

/* One prediction: "91.3 µs (73.5 µs – 135.7 µs)", or why there is none. */
static void
level_cell(FILE *f, const json_t *tail, const char *name)
{
	char buf[128];

	al_doc_tail_text(tail, name, al__html_dur, buf, sizeof(buf));
	fputs("<td class=\"num\">", f);
	esc(f, buf);
	fputs("</td>", f);
}

void
al__html_tail_levels(FILE *f, const json_t *tail)
{
	level_cell(f, tail, "predicted_1h");
	level_cell(f, tail, "predicted_24h");
}

static void
scope_row(FILE *f, const json_t *doc, const json_t *scope, const char *name)
{
	json_t *tail = al_doc_scope_tail(doc, scope);

	fputs("<tr>", f);
	al__html_td_str(f, name);
	al__html_td_dur(f, tail, "observed_max_ns");
	al__html_tail_levels(f, tail);
	al__html_td_real(f, tail, "shape", "%.3f", "");
	al__html_td_int(f, tail, "exceedances");
	al__html_td_dur(f, tail, "threshold_ns");
	fputs("</tr>\n", f);
	json_decref(tail);
}

void
al__html_tail_table(FILE *f, const json_t *doc)
{
	const json_t *phases = json_object_get(doc, "phases"), *ph;
	size_t i;

	fputs("<h3>The tail beyond the run</h3>\n<table class=\"tail\"><thead><tr><th>scope</th>"
	      "<th>observed max</th><th>predicted 1 h</th><th>predicted 24 h</th><th>shape ξ</th>"
	      "<th>exceedances</th><th>threshold (p99)</th></tr></thead><tbody>\n",
	      f);
	scope_row(f, doc, json_object_get(doc, "total"), "whole run");
	if (json_array_size(phases) > 1)
		json_array_foreach(phases, i, ph)
			scope_row(f, doc, ph, al_doc_str(ph, "name", "?"));
	fputs("</tbody></table>\n<p class=\"sub\">The median of the largest wake latency a run of "
	      "1 h or 24 h at this period would see (half of such runs see more), from a generalised "
	      "Pareto fit of the latencies above the 99th percentile, with its 95 % "
	      "profile-likelihood interval; no prediction where there are fewer than 50 "
	      "exceedances or the shape is out of range (docs/tail.md).</p>\n",
	      f);
}
