/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The tail beyond the run in the text report (tail-text.h). */
#include <inttypes.h>
#include <math.h>
#include <string.h>

#include "core/text.h"
#include "core/units.h"
#include "doc/tail-doc.h"
#include "doc/view.h"
#include "tail-text.h"

static void
scope_row(const json_t *doc, const json_t *scope, const char *name, FILE *f)
{
	json_t *tail = al_doc_scope_tail(doc, scope);
	char nm[80], mx[32], h1[64], h24[64], xi[16];

	al_text_term_safe(name, nm, sizeof(nm), 16);
	al_doc_tail_max_text(tail, al_format_duration, mx, sizeof(mx));
	al_doc_tail_text(tail, "predicted_1h", al_format_duration, h1, sizeof(h1));
	al_doc_tail_text(tail, "predicted_24h", al_format_duration, h24, sizeof(h24));
	if (json_is_number(json_object_get(tail, "shape")))
		snprintf(xi, sizeof(xi), "%.3f", al_doc_real(tail, "shape", 0));
	else
		snprintf(xi, sizeof(xi), "-");
	fprintf(f, "%-16s %12s  %-32s %-32s %6s %7" PRId64 "\n", nm, mx, h1, h24, xi,
		al_doc_int(tail, "exceedances", 0));
	json_decref(tail);
}

/* The whole run's chance of a wake-up a buffer late, and the run that would see one. */
static void
buffer_line(const json_t *doc, FILE *f)
{
	json_t *tail = al_doc_scope_tail(doc, json_object_get(doc, "total"));
	const json_t *b = json_object_get(tail, "buffer_late");
	double p = al_doc_real(b, "per_period_probability", NAN);
	double run = al_tail_run_periods(p); /* null in the document beyond 2^53 */
	double period_ns = al_doc_real(doc, "config.period_ns", NAN);
	char buf[32], span[32];

	if (!json_is_integer(json_object_get(b, "latency_ns")) || isnan(p)) {
		json_decref(tail);
		return;
	}
	al_format_duration(al_doc_int(b, "latency_ns", 0), buf, sizeof(buf));
	fprintf(f, "a wake-up a whole buffer (%s) late: ", buf);
	if (p <= 0)
		fprintf(f, "beyond the end of the fitted tail (shape %.3f < 0): the fit expects\n"
			   "none, which is not a proof of never\n",
			al_doc_real(tail, "shape", 0));
	else {
		al_doc_span_text(run * period_ns, span, sizeof(span));
		fprintf(f, "%.2g per period (%s); a run of %s sees one with 95 %% confidence\n", p,
			!strcmp(al_doc_str(b, "source", ""), "fit") ? "by the fit" : "as counted",
			span);
	}
	json_decref(tail);
}

void
al__tail_text(const json_t *doc, FILE *f)
{
	const json_t *phases = json_object_get(doc, "phases"), *ph;
	json_t *tail = al_doc_scope_tail(doc, json_object_get(doc, "total"));
	char u[32];
	size_t i;

	if (!tail)
		return;
	if (json_is_integer(json_object_get(tail, "threshold_ns")))
		al_format_duration(al_doc_int(tail, "threshold_ns", 0), u, sizeof(u));
	else
		snprintf(u, sizeof(u), "-");
	fprintf(f, "\ntail beyond the run: the median max of a 1 h and a 24 h run (95 %% interval),\n"
		   "a GPD fit of the wake latencies above the 99th percentile (whole run: %s; docs/tail.md)\n", u);
	fprintf(f, "%-16s %12s  %-32s %-32s %6s %7s\n", "", "observed max", "predicted 1 h",
		"predicted 24 h", "shape", "exceed.");
	scope_row(doc, json_object_get(doc, "total"), "whole run", f);
	if (json_array_size(phases) > 1)
		json_array_foreach(phases, i, ph)
			scope_row(doc, ph, al_doc_str(ph, "name", "?"), f);
	buffer_line(doc, f);
	json_decref(tail);
}
