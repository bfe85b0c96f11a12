/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Comparing MIDI timing results (audiolat.midi/1 from midi record or midi
 * analyze): a row per result with seed 002's figures, and for each result
 * against the first a 95 % interval for the difference of the p99 and of
 * the maximum of |delta - interval|, with a verdict (docs/compare.md).
 */
#include <errno.h>
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "ci.h"
#include "compare.h"
#include "doc/view.h"
#include "doc/doc.h"

static bool
is_loop(const json_t *doc)
{
	return !strcmp(al_doc_str(doc, "schema", ""), AL_SCHEMA_MIDI_LOOP) &&
	       json_is_object(json_object_get(doc, "histogram"));
}

bool
al_doc_is_midi(const json_t *doc)
{
	return (!strcmp(al_doc_str(doc, "schema", ""), AL_SCHEMA_MIDI) &&
		json_is_object(json_object_get(doc, "jitter_histogram"))) ||
	       is_loop(doc);
}

/* Per window of the timeline: the largest |delta - interval| in it. */
static int64_t *
window_maxima(const json_t *doc, size_t *m)
{
	const json_t *rows = al_doc_get(doc, "timeline.rows"), *row;
	double interval = al_doc_real(doc, "interval_ns", 0);
	int64_t *w;
	size_t i;

	*m = 0;
	w = calloc(json_array_size(rows) + 1, sizeof(*w));
	if (!w)
		return NULL;
	json_array_foreach(rows, i, row)
	{
		double lo = (double)json_integer_value(json_array_get(row, 2));
		double hi = (double)json_integer_value(json_array_get(row, 3));

		w[(*m)++] = (int64_t)fmax(fabs(hi - interval), fabs(lo - interval));
	}
	return w;
}

static json_t *
side(bool ok, double v)
{
	return ok ? json_real(v) : json_null();
}

/*
 * A difference the recordings cannot resolve (the whole interval within
 * one tick of the coarser file) is no difference.
 */
static json_t *
statistic(const char *name, double a, double b, const struct al_ci *ci, double resolution_ns,
	  const char *method, double conf)
{
	enum al_verdict v = al_ci_verdict(ci);

	if (ci->lo_ok && ci->hi_ok && ci->lo >= -resolution_ns && ci->hi <= resolution_ns)
		v = AL_VERDICT_SAME;
	return json_pack("{s:s, s:f, s:f, s:f, s:o, s:o, s:f, s:o, s:o, s:s, s:s, s:f}", "name",
			 name, "a", a, "b", b, "diff", b - a, "ci_lo", side(ci->lo_ok, ci->lo),
			 "ci_hi", side(ci->hi_ok, ci->hi), "confidence", conf, "p_value",
			 isnan(ci->p) ? json_null() : json_real(ci->p), "detectable",
			 v == AL_VERDICT_SAME && ci->lo_ok && ci->hi_ok
				 ? json_real((ci->hi - ci->lo) / 2) : json_null(),
			 "verdict", al_verdict_name(v), "method", method, "resolution_ns",
			 resolution_ns);
}

static json_t *
loop_row(const json_t *doc, const char *key, const char *label)
{
	return json_pack("{s:s, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "key", key, "label",
			 al_json_text(label), "sent", (json_int_t)al_doc_int(doc, "sent", 0),
			 "echoed", (json_int_t)al_doc_int(doc, "echoed", 0), "lost",
			 (json_int_t)al_doc_int(doc, "lost", 0), "latency_min_ns",
			 (json_int_t)al_doc_int(doc, "latency_min_ns", 0), "latency_mean_ns",
			 (json_int_t)al_doc_int(doc, "latency_mean_ns", 0), "latency_p99_ns",
			 (json_int_t)al_doc_int(doc, "latency_p99_ns", 0), "latency_max_ns",
			 (json_int_t)al_doc_int(doc, "latency_max_ns", 0), "jitter_peak_ns",
			 (json_int_t)al_doc_int(doc, "jitter_peak_ns", 0));
}

static json_t *
result_row(const json_t *doc, const char *key, const char *source)
{
	const char *label = al_doc_str(doc, "label", NULL), *slash;

	/* unlabelled: the file it came from, else what it is */
	if (!label && source && *source) {
		slash = strrchr(source, '/');
		label = slash && slash[1] ? slash + 1 : source;
	}

	if (is_loop(doc))
		return loop_row(doc, key, label ? label : "loop");
	return json_pack("{s:s, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:I, s:I}", "key", key,
			 "label", al_json_text(label ? label : al_doc_str(doc, "kind", "midi")),
			 "source", al_json_text(source), "api",
			 al_json_text(al_doc_str(doc, "source.api", al_doc_str(doc, "config.backend", "file"))),
			 "events", (json_int_t)al_doc_int(doc, "events", 0), "interval_ns",
			 (json_int_t)al_doc_int(doc, "interval_ns", 0), "delta_max_ns",
			 (json_int_t)al_doc_int(doc, "delta_max_ns", 0), "delta_p99_ns",
			 (json_int_t)al_doc_int(doc, "delta_p99_ns", 0), "jitter_max_ns",
			 (json_int_t)al_doc_int(doc, "jitter_max_ns", 0), "jitter_abs_max_ns",
			 (json_int_t)al_doc_int(doc, "jitter_abs_max_ns", 0), "jitter_mean_abs_ns",
			 (json_int_t)al_doc_int(doc, "jitter_mean_abs_ns", 0));
}

/* What every result of a MIDI comparison has: its histogram and window maxima. */
struct midi_set {
	const struct al_report_doc *in;
	struct al_dhist *h;
	int64_t **wmax;
	size_t *m;
	bool loop;
};

/*
 * Result d against A into comparisons: its p99 (and, recorded, its max)
 * with intervals at their levels (level[2 (d - 1)] and the next one;
 * NAN: o->confidence), their p-values into p. 0 or -errno.
 */
static int
pair_json(const struct midi_set *s, size_t d, const struct al_compare_opts *o,
	  const double *level, double *p, json_t *comparisons)
{
	/* MIDI events are far apart (100 ms at 10 Hz): deltas taken as independent */
	struct al_ci_sample a = { &s->h[0], (double)s->h[0].count },
			    b = { &s->h[d], (double)s->h[d].count };
	struct al_ci p99 = { 0 }, max = { 0 };
	json_t *stats = json_array();
	const json_t *da = s->in[0].doc, *db = s->in[d].doc;
	double res_ns = fmax(al_doc_real(da, "tick_ns", 0), al_doc_real(db, "tick_ns", 0));
	double c99 = isnan(level[2 * (d - 1)]) ? o->confidence : 1 - level[2 * (d - 1)];
	double cmax = isnan(level[2 * (d - 1) + 1]) ? o->confidence : 1 - level[2 * (d - 1) + 1];
	char key[4];
	int rc = 0;

	p99.p = max.p = NAN;
	if (s->h[0].count && s->h[d].count)
		rc = al_ci_quantile_diff(&a, &b, 0.99, o->resamples, o->seed, c99, &p99);
	p[2 * (d - 1)] = p99.p;
	if (s->loop) {
		/* one message in flight: probes are independent; no windows for the max */
		json_array_append_new(stats, statistic("p99_latency", al_dhist_quantile(&s->h[0], 0.99),
						       al_dhist_quantile(&s->h[d], 0.99), &p99, 0,
						       "histogram bootstrap", c99));
	} else {
		if (!rc)
			rc = al_ci_max_diff(s->wmax[0], s->m[0], s->wmax[d], s->m[d], cmax, &max);
		p[2 * (d - 1) + 1] = max.p;
		json_array_append_new(stats, statistic("p99_abs_jitter",
						       al_dhist_quantile(&s->h[0], 0.99),
						       al_dhist_quantile(&s->h[d], 0.99), &p99, res_ns,
						       "histogram bootstrap", c99));
		json_array_append_new(
			stats, statistic("max_abs_jitter", (double)al_doc_int(da, "jitter_abs_max_ns", 0),
					 (double)al_doc_int(db, "jitter_abs_max_ns", 0), &max, res_ns,
					 "exceedance test on 1 s window maxima", cmax));
	}
	snprintf(key, sizeof(key), "%c", (char)('A' + d));
	json_array_append_new(comparisons, json_pack("{s:s, s:s, s:o}", "a", "A", "b", key,
						     "statistics", stats));
	return rc;
}

/*
 * Every result against A, Holm over every verdict: the p-values first
 * (pass 0), then each interval at its step's level (pass 1; the same
 * seed, the same replicates); test 2 (d - 1) is d's p99, 2 (d - 1) + 1
 * its max. *tests: how many there were. NULL on ENOMEM or an error.
 */
static json_t *
comparisons_json(const struct midi_set *s, size_t n, const struct al_compare_opts *o,
		 size_t *tests, int *rc)
{
	double *p = calloc(2 * n, sizeof(*p)), *level = calloc(2 * n, sizeof(*level));
	json_t *comparisons = NULL;
	size_t d;
	int pass;

	*rc = p && level ? 0 : -ENOMEM;
	for (d = 0; !*rc && d < 2 * n; d++)
		p[d] = level[d] = NAN;
	for (pass = 0; pass < 2 && !*rc; pass++) {
		if (pass == 1)
			*tests = al_ci_holm(p, 2 * n, 1 - o->confidence, level);
		json_decref(comparisons);
		comparisons = json_array();
		for (d = 1; d < n && !*rc; d++)
			*rc = pair_json(s, d, o, level, p, comparisons);
	}
	free(p);
	free(level);
	if (*rc) {
		json_decref(comparisons);
		return NULL;
	}
	return comparisons;
}

int
al_compare_midi(const struct al_report_doc *in, size_t n, const struct al_compare_opts *o,
		json_t **out)
{
	struct midi_set s = { in, NULL, NULL, NULL, false };
	json_t *results, *comparisons = NULL;
	size_t d, tests = 0;
	char key[4];
	int rc = 0;

	*out = NULL;
	if (n < 2 || n > 26 || !o || o->resamples < 100 || !(o->confidence > 0 && o->confidence < 1))
		return -EINVAL;
	for (d = 0; d < n; d++)
		if (!al_doc_is_midi(in[d].doc) || is_loop(in[d].doc) != is_loop(in[0].doc))
			return -EINVAL;
	s.loop = is_loop(in[0].doc);
	s.h = calloc(n, sizeof(*s.h));
	s.wmax = calloc(n, sizeof(*s.wmax));
	s.m = calloc(n, sizeof(*s.m));
	if (!s.h || !s.wmax || !s.m) {
		rc = -ENOMEM;
		goto out;
	}
	results = json_array();
	for (d = 0; d < n && !rc; d++) {
		snprintf(key, sizeof(key), "%c", (char)('A' + d));
		json_array_append_new(results, result_row(in[d].doc, key, in[d].source));
		rc = al_dhist_from_json(json_object_get(in[d].doc,
							s.loop ? "histogram" : "jitter_histogram"),
					NULL, &s.h[d]);
		if (!rc && !(s.wmax[d] = window_maxima(in[d].doc, &s.m[d])))
			rc = -ENOMEM;
	}
	if (!rc)
		comparisons = comparisons_json(&s, n, o, &tests, &rc);
	if (rc) {
		json_decref(results);
		goto out;
	}
	*out = json_pack("{s:s, s:{s:f, s:i, s:I, s:{s:s, s:I, s:f}}, s:o, s:[{s:n, s:o}]}",
			 "schema", AL_SCHEMA_COMPARE_MIDI, "method", "confidence", o->confidence,
			 "resamples", o->resamples, "seed", (json_int_t)o->seed, "multiple_testing",
			 "method", "holm", "tests", (json_int_t)tests, "family_confidence",
			 o->confidence, "results", results, "scopes", "name", "comparisons",
			 comparisons);
	rc = *out ? 0 : -ENOMEM;
out:
	for (d = 0; s.h && d < n; d++)
		al_dhist_free(&s.h[d]);
	for (d = 0; s.wmax && d < n; d++)
		free(s.wmax[d]);
	free(s.h);
	free(s.wmax);
	free(s.m);
	return rc;
}

static void
ms(char *buf, size_t size, const json_t *o, const char *field)
{
	snprintf(buf, size, "%.3f", al_doc_real(o, field, 0) / 1e6);
}

void
al_compare_midi_table(const json_t *cmp, bool markdown, FILE *f)
{
	static const char *const rec_cols[] = { "events", "interval_ns", "delta_max_ns",
						"jitter_max_ns", "jitter_abs_max_ns",
						"jitter_mean_abs_ns" };
	static const char *const loop_cols[] = { "echoed", "latency_min_ns", "latency_mean_ns",
						 "latency_p99_ns", "latency_max_ns",
						 "jitter_peak_ns" };
	bool loop = json_is_integer(
		json_object_get(json_array_get(json_object_get(cmp, "results"), 0), "sent"));
	const char *const *cols = loop ? loop_cols : rec_cols;
	const json_t *r, *c, *st;
	char b[64];
	size_t i, j, k;

	if (loop)
		fprintf(f, markdown ? "| | result | echoed | min ms | mean ms | p99 ms | max ms | "
				      "peak-to-peak ms |\n|---|---|---|---|---|---|---|---|\n"
				    : "    %-24s %7s %12s %12s %12s %12s %12s\n",
			"result", "echoed", "min", "mean", "p99", "max", "peak-peak");
	else
		fprintf(f, markdown ? "| | result | events | interval ms | longest delta ms | "
				      "max delta - interval ms | max abs jitter ms | mean abs jitter ms |\n"
				      "|---|---|---|---|---|---|---|---|\n"
				    : "    %-24s %7s %12s %12s %12s %12s %12s\n",
			"result", "events", "interval", "longest", "max-intv", "max|jit|", "mean|jit|");
	json_array_foreach(json_object_get(cmp, "results"), i, r)
	{
		fprintf(f, markdown ? "| %s | %s " : "%-3s %-24.24s", al_doc_str(r, "key", "?"),
			al_doc_str(r, "label", "?"));
		for (j = 0; j < 6; j++) {
			if (j == 0)
				snprintf(b, sizeof(b), "%" JSON_INTEGER_FORMAT,
					 json_integer_value(json_object_get(r, cols[j])));
			else
				ms(b, sizeof(b), r, cols[j]);
			fprintf(f, markdown ? "| %s " : (j ? " %12s" : " %7s"), b);
		}
		fputs(markdown ? "|\n" : "\n", f);
	}
	fputs("\n", f);
	json_array_foreach(al_doc_get(cmp, "scopes"), i, r)
	json_array_foreach(json_object_get(r, "comparisons"), j, c)
	json_array_foreach(json_object_get(c, "statistics"), k, st)
	{
		const json_t *lo = json_object_get(st, "ci_lo"), *hi = json_object_get(st, "ci_hi");
		char l[32], h[32];

		snprintf(l, sizeof(l), json_is_real(lo) ? "%+.3f" : "-inf", json_real_value(lo) / 1e6);
		snprintf(h, sizeof(h), json_is_real(hi) ? "%+.3f" : "+inf", json_real_value(hi) / 1e6);
		fprintf(f, "%s%s vs %s: %s %+.3f ms (%.4g %% CI %s .. %s ms): %s",
			markdown ? "- " : "", al_doc_str(c, "b", "?"), al_doc_str(c, "a", "?"),
			al_doc_str(st, "name", "?"), al_doc_real(st, "diff", 0) / 1e6,
			100 * al_doc_real(st, "confidence", al_doc_real(cmp, "method.confidence", 0.95)),
			l, h, al_doc_str(st, "verdict", "?"));
		if (!strcmp(al_doc_str(st, "verdict", ""), "worse") ||
		    !strcmp(al_doc_str(st, "verdict", ""), "better"))
			fputs(" (within-run only)", f);
		else if (json_is_number(json_object_get(st, "detectable")))
			fprintf(f, " (would have seen %s%.3f ms)", markdown ? "\u00b1" : "+-",
				al_doc_real(st, "detectable", 0) / 1e6);
		fputc('\n', f);
	}
	fprintf(f, "%sHolm's correction over the %lld verdicts (%.0f %% for all of them together: "
		   "each interval at its step's level). One recording each: the spread within "
		   "them, not between recordings.\n", markdown ? "\n" : "",
		(long long)al_doc_int(cmp, "method.multiple_testing.tests", 0),
		100 * al_doc_real(cmp, "method.confidence", 0.95));
}
