/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The audiolat.load/1 document of audiolat load (docs/loads.md), its text
 * made valid UTF-8; and its text report, rendered from it.
 */
#include <math.h>
#include <stdio.h>

#include <jansson.h>

#include "core/clock.h"

#include "doc/doc.h"
#include "doc/schema.h"
#include "report.h"

json_t *
al_report_load_json(const struct al_phase *ph, const char *name, int64_t elapsed_ns,
		    bool interrupted)
{
	json_t *root, *tp;

	root = al_doc_new_plain(AL_SCHEMA_LOAD);
	tp = al_json_throughput(ph->throughput, ph->n_throughput);
	if (!root || !tp) {
		json_decref(root);
		json_decref(tp);
		return NULL;
	}
	json_object_set_new(root, "name", al_json_text(name));
	json_object_set_new(root, "load", al_json_text(ph->load));
	json_object_set_new(root, "duration_ns", json_integer(elapsed_ns));
	json_object_set_new(root, "interrupted", json_boolean(interrupted));
	json_object_set_new(root, "throughput", tp);
	json_object_set_new(root, "error", al_json_text(*ph->error ? ph->error : NULL));
	return root;
}

/* Counts as integers, rates with one decimal, small values with 6 digits. */
static void
format_value(double v, char *buf, size_t size)
{
	if (!isfinite(v))
		snprintf(buf, size, "-"); /* not measured (the document's null) */
	else if (v == (double)(long long)v && v < 1e15 && v > -1e15)
		snprintf(buf, size, "%lld", (long long)v);
	else if (v >= 100 || v <= -100)
		snprintf(buf, size, "%.1f", v);
	else
		snprintf(buf, size, "%.6g", v);
}

/* A figure's value; NAN when the document has none (json_real() takes no NaN). */
static double
value_of(const json_t *m)
{
	const json_t *v = json_object_get(m, "value");

	return json_is_number(v) ? json_number_value(v) : NAN;
}

void
al_report_load_text(FILE *f, const json_t *doc, bool quiet, bool classic)
{
	const json_t *tp = json_object_get(doc, "throughput"), *m;
	bool interrupted = al_doc_bool(doc, "interrupted", false);
	double time_s = (double)al_doc_int(doc, "duration_ns", 0) / AL_NS_PER_SEC;
	const char *key;
	char v[64];
	int i = 0;

	if (classic && !al_doc_str(doc, "error", NULL) && !interrupted && json_object_size(tp) >= 2) {
		json_object_foreach((json_t *)tp, key, m)
			if (i++ == 1 && isfinite(value_of(m)))
				fprintf(f, "Time: %.3f\n", value_of(m));
		return;
	}
	if (!quiet) {
		fprintf(f, "time: %.3f s%s\n", time_s, interrupted ? " (interrupted)" : "");
		json_object_foreach((json_t *)tp, key, m) {
			format_value(value_of(m), v, sizeof(v));
			/* (no unit after a figure that was not measured) */
			const char *unit = isfinite(value_of(m)) ? al_doc_str(m, "unit", "") : "";

			fprintf(f, "%-26s %s%s%s\n", key, v, *unit ? " " : "", unit);
		}
	}
	fprintf(f, "summary: load=%s time_s=%.3f", al_doc_str(doc, "name", "?"), time_s);
	json_object_foreach((json_t *)tp, key, m) {
		format_value(value_of(m), v, sizeof(v));
		fprintf(f, " %s=%s", key, v);
	}
	fprintf(f, " interrupted=%s result=%s\n", interrupted ? "yes" : "no",
		al_doc_str(doc, "error", NULL) ? "error" : "ok");
}
