/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "ci.h"
#include "compare.h"
#include "doc/doc.h"
#include "doc/view.h"

#define AL_COMPARE_INTERNAL
#include "compare-private.h"

/* p50 and p99 by the histogram bootstrap, max by the exceedance test */
static const struct {
	const char *name;  /* in the document */
	const char *field; /* the summary field */
	double q;	   /* 0: the maximum */
} cmp_stats[] = {
    {"p50", "p50", 0.5},
    {"p99", "p99", 0.99},
    {"max", "max", 0},
};

#define N_CMP_STATS (sizeof(cmp_stats) / sizeof(cmp_stats[0]))

static void
result_key(size_t i, char *buf, size_t size)
{
	char tmp[16];
	size_t n = 0, k;

	/* A..Z, AA..AZ, ...: bijective base 26 */
	i++;
	while (i && n < sizeof(tmp)) {
		tmp[n++] = (char)('A' + (i - 1) % 26);
		i = (i - 1) / 26;
	}
	for (k = 0; k < n && k + 1 < size; k++)
		buf[k] = tmp[n - 1 - k];
	buf[k] = '\0';
}

static json_t *
num_or_null(const json_t *o, const char *path)
{
	const json_t *v = al_doc_get(o, path);

	return json_is_number(v) ? json_deep_copy(v) : json_null();
}

/*
 * One row of seed 000's table. "max latency" is the longest wake latency
 * (per period due in a run/2 document, per wake-up in a run/1 one: "view"
 * says which), its share of the buffer beside it; the interval has its own
 * columns.
 */
static json_t *
row_json(const char *key, const json_t *doc, const struct scope_data *sd)
{
	const json_t *st = sd->stats;
	bool per_period = al_doc_per_period(doc);
	json_t *pct = num_or_null(st, "max_latency_pct_of_buffer");
	int64_t buffer_ns = al_doc_int(doc, "config.buffer_ns", 0);

	if (!per_period && json_is_integer(al_doc_get(st, "wake_latency_ns.max")) && buffer_ns > 0) {
		json_decref(pct);
		pct = json_real(100.0 * (double)al_doc_int(st, "wake_latency_ns.max", 0) /
				(double)buffer_ns);
	}
	return json_pack(
	    "{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:I, "
	    "s:f, s:f}",
	    "key", key, "view",
	    !json_is_object(json_object_get(st, "wake_latency_ns")) ? "not measured"
	    : per_period ? "per period" : "per wake-up", "periods",
	    num_or_null(st, "periods"), "max_latency_ns", num_or_null(st, "wake_latency_ns.max"),
	    "max_latency_pct_of_buffer", pct, "max_interval_ns", num_or_null(st, "interval_ns.max"),
	    "max_interval_pct_of_buffer", num_or_null(st, "max_interval_pct_of_buffer"),
	    "within_1ms_pct", num_or_null(st, "within_1ms_pct"), "within_2ms_pct",
	    num_or_null(st, "within_2ms_pct"), "wake_p50_ns", num_or_null(st, "wake_latency_ns.p50"),
	    "wake_p99_ns", num_or_null(st, "wake_latency_ns.p99"), "wake_p999_ns",
	    num_or_null(st, "wake_latency_ns.p999"), "wake_max_ns",
	    num_or_null(st, "wake_latency_ns.max"), "xruns", num_or_null(st, "xruns"),
	    "lost_periods", num_or_null(st, "lost_periods"), "windows", (json_int_t)sd->m,
	    "design_effect", sd->deff, "effective_periods", sd->n_eff);
}

static json_t *
ci_side(bool ok, double v)
{
	if (!ok)
		return json_null();
	/* saturate: the difference of two extreme int64 values does not fit */
	if (!(v > -9.2e18))
		v = -9.2e18;
	if (!(v < 9.2e18))
		v = 9.2e18;
	return json_integer((json_int_t)llround(v));
}

/* One statistic of result b against the baseline a. */
static json_t *
stat_json(const struct scope_data *a, const struct scope_data *b, size_t s,
	  const struct al_compare_opts *o, uint64_t seed)
{
	char path[64];
	struct al_ci ci = {0};
	int64_t va, vb, diff;
	int rc = -EINVAL;
	json_t *j;

	snprintf(path, sizeof(path), "wake_latency_ns.%s", cmp_stats[s].field);
	if (!json_is_integer(al_doc_get(a->stats, path)) ||
	    !json_is_integer(al_doc_get(b->stats, path))) /* a tool that does not measure it */
		return json_pack("{s:s, s:O?, s:O?, s:n, s:n, s:n, s:n, s:s}", "name",
				 cmp_stats[s].name, "baseline_ns", al_doc_get(a->stats, path),
				 "value_ns", al_doc_get(b->stats, path), "diff_ns", "diff_pct",
				 "ci_low_ns", "ci_high_ns", "verdict", "not measured");
	va = al_doc_int(a->stats, path, 0);
	vb = al_doc_int(b->stats, path, 0);
	if (cmp_stats[s].q > 0) {
		struct al_ci_sample sa = {&a->hist, a->n_eff}, sb = {&b->hist, b->n_eff};

		if (a->hist.count && b->hist.count)
			rc = al_ci_quantile_diff(&sa, &sb, cmp_stats[s].q, o->resamples, seed,
						 o->confidence, &ci);
	} else if (a->m && b->m) {
		rc = al_ci_max_diff(a->win_max, a->m, b->win_max, b->m, o->confidence, &ci);
	}
	if (rc == -ENOMEM)
		return NULL;
	if (rc)
		memset(&ci, 0, sizeof(ci)); /* both sides unbounded: not enough data */
	/* wrapping, not overflowing, on a hostile document's extremes */
	diff = (int64_t)((uint64_t)vb - (uint64_t)va);
	j = json_pack("{s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:s}", "name", cmp_stats[s].name,
		      "baseline_ns", (json_int_t)va, "value_ns", (json_int_t)vb, "diff_ns",
		      (json_int_t)diff, "diff_pct",
		      va ? json_real(100.0 * ((double)vb - (double)va) / (double)va) : json_null(),
		      "ci_low_ns", ci_side(ci.lo_ok, ci.lo), "ci_high_ns", ci_side(ci.hi_ok, ci.hi),
		      "verdict", al_verdict_name(al_ci_verdict(&ci)));
	return j;
}

static bool
key_known(const struct scope_key *keys, size_t n, const char *name, int occ)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(keys[i].name, name) && keys[i].occurrence == occ)
			return true;
	return false;
}

/* The phases over all results, in order of first appearance: (name, occurrence). */
static int
collect_phases(const struct al_report_doc *in, size_t n, struct scope_key **out, size_t *n_out,
	       bool *multi)
{
	struct scope_key *keys = NULL;
	size_t cap = 0, nk = 0, d, i, j;

	*multi = false;
	for (d = 0; d < n; d++) {
		const json_t *phases = json_object_get(in[d].doc, "phases"), *ph;

		if (json_array_size(phases) > 1)
			*multi = true;
		json_array_foreach(phases, i, ph)
		{
			const char *name = al__phase_name(ph);
			int occ = 0;

			if (!json_is_object(ph))
				continue;
			for (j = 0; j < i; j++)
				occ += !strcmp(al__phase_name(json_array_get(phases, j)), name);
			if (key_known(keys, nk, name, occ))
				continue;
			if (nk == cap) {
				struct scope_key *k2;

				cap = cap ? 2 * cap : 8;
				k2 = realloc(keys, cap * sizeof(*keys));
				if (!k2) {
					free(keys);
					return -ENOMEM;
				}
				keys = k2;
			}
			keys[nk++] = (struct scope_key){name, occ};
		}
	}
	*out = keys;
	*n_out = nk;
	return 0;
}

/* A copy of what the document has at path, null when it has nothing. */
static json_t *
copy_of(const json_t *doc, const char *path)
{
	const json_t *v = al_doc_get(doc, path);

	return v ? json_deep_copy(v) : json_null();
}

static json_t *
result_json(const struct al_report_doc *in, const char *key)
{
	const json_t *d = in->doc;

	return json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o}",
			 "key", key, "label", al_doc_label(d), "source", al_json_text(in->source),
			 "kernel_release", copy_of(d, "system.kernel_release"), "hostname",
			 copy_of(d, "system.hostname"), "preempt", copy_of(d, "system.preempt"),
			 "backend", copy_of(d, "config.backend"), "rate", copy_of(d, "config.rate"),
			 "period_frames", copy_of(d, "config.period_frames"), "periods",
			 copy_of(d, "config.periods"), "buffer_ns", copy_of(d, "config.buffer_ns"),
			 "load", copy_of(d, "config.load"), "started_at", copy_of(d, "started_at"),
			 "duration_ns", copy_of(d, "duration_ns"), "imported_from",
			 al_json_text(al_doc_imported_from(d)), "lacks", al_doc_lacks(d));
}

static json_t *
scope_json(const struct al_report_doc *in, size_t n, const struct scope_key *key,
	   int scope_index, const struct al_compare_opts *o, int *err)
{
	struct scope_data *sd = calloc(n, sizeof(*sd));
	json_t *scope = NULL, *rows, *cmps;
	char k[16], kb[16];
	size_t d, s;
	int rc = 0;

	if (!sd) {
		*err = -ENOMEM;
		return NULL;
	}
	for (d = 0; d < n && !rc; d++)
		rc = al__scope_load(in[d].doc, key, &sd[d]);
	if (rc)
		goto out;
	rows = json_array();
	cmps = json_array();
	result_key(0, kb, sizeof(kb));
	for (d = 0; d < n; d++) {
		if (!sd[d].stats)
			continue;
		result_key(d, k, sizeof(k));
		json_array_append_new(rows, row_json(k, in[d].doc, &sd[d]));
		if (d == 0 || !sd[0].stats)
			continue;
		json_t *stats = json_array();

		for (s = 0; s < N_CMP_STATS; s++) {
			/* a seed per (scope, result, statistic): independent, reproducible */
			uint64_t seed = o->seed ^ ((uint64_t)scope_index << 40) ^
					((uint64_t)d << 20) ^ (uint64_t)s;
			json_t *st = stat_json(&sd[0], &sd[d], s, o, seed);

			if (!st) {
				rc = -ENOMEM;
				json_decref(stats);
				json_decref(rows);
				json_decref(cmps);
				goto out;
			}
			json_array_append_new(stats, st);
		}
		json_array_append_new(cmps, json_pack("{s:s, s:s, s:o}", "key", k, "baseline", kb,
						      "statistics", stats));
	}
	scope = json_pack("{s:o, s:i, s:o, s:o}", "phase",
			  key->name ? json_string(key->name) : json_null(), "occurrence",
			  key->occurrence, "rows", rows, "comparisons", cmps);
	if (!scope)
		rc = -ENOMEM;
out:
	for (d = 0; d < n; d++)
		al__scope_free(&sd[d]);
	free(sd);
	*err = rc;
	return scope;
}

int
al_compare(const struct al_report_doc *in, size_t n, const struct al_compare_opts *o,
	   json_t **out)
{
	struct scope_key total = {NULL, 0}, *keys = NULL;
	json_t *root, *results, *scopes, *sc;
	size_t nk = 0, d, i;
	char key[16], err[128];
	bool multi;
	int rc;

	*out = NULL;
	if (n < 2 || !o || o->resamples < 100 || !(o->confidence > 0 && o->confidence < 1))
		return -EINVAL;
	for (d = 0; d < n; d++)
		if (al_doc_check(in[d].doc, err, sizeof(err)) || !al_doc_is_run(in[d].doc))
			return -EINVAL;
	rc = collect_phases(in, n, &keys, &nk, &multi);
	if (rc)
		return rc;
	results = json_array();
	for (d = 0; d < n; d++) {
		result_key(d, key, sizeof(key));
		json_array_append_new(results, result_json(&in[d], key));
	}
	scopes = json_array();
	sc = scope_json(in, n, &total, 0, o, &rc);
	if (sc)
		json_array_append_new(scopes, sc);
	for (i = 0; multi && !rc && i < nk; i++) {
		sc = scope_json(in, n, &keys[i], (int)i + 1, o, &rc);
		if (sc)
			json_array_append_new(scopes, sc);
	}
	free(keys);
	if (rc) {
		json_decref(results);
		json_decref(scopes);
		return rc;
	}
	root = json_pack(
	    "{s:s, s:s, s:{s:f, s:i, s:I, s:s, s:s}, s:s, s:o, s:o}", "schema", AL_SCHEMA_COMPARE,
	    "tool_version", AL_VERSION, "method", "confidence", o->confidence, "resamples",
	    o->resamples, "seed", (json_int_t)o->seed, "percentiles",
	    "bootstrap from the histogram with the effective sample size "
	    "(periods / design effect of the time-series windows)",
	    "max", "exceedance test on the window maxima (Rosenbaum), inverted for a shift",
	    "baseline", "A", "results", results, "scopes", scopes);
	if (!root)
		return -ENOMEM;
	*out = root;
	return 0;
}

/* ---- text and Markdown ---------------------------------------------------------------- */

static double
ms_of(const json_t *row, const char *field)
{
	return al_doc_real(row, field, NAN) / 1e6;
}

static void
fmt_num(char *buf, size_t size, double v, const char *fmt, const char *unit)
{
	if (isnan(v)) {
		snprintf(buf, size, "-");
		return;
	}
	snprintf(buf, size, fmt, v);
	if (unit)
		snprintf(buf + strlen(buf), size - strlen(buf), "%s", unit);
}

/* A duration with the unit chosen for scale_ns: "14.6 us". */
static void
fmt_dur(char *buf, size_t size, double ns, bool sign, double scale_ns, bool micro_sign)
{
	const char *u = micro_sign ? "µs" : "us";
	double div = 1e3;

	if (isnan(ns)) {
		snprintf(buf, size, "-");
		return;
	}
	if (scale_ns >= 1e9) {
		div = 1e9;
		u = "s";
	} else if (scale_ns >= 1e6) {
		div = 1e6;
		u = "ms";
	} else if (scale_ns < 1e3) {
		div = 1;
		u = "ns";
	}
	snprintf(buf, size, sign ? "%+.*f %s" : "%.*f %s",
		 div == 1     ? 0
		 : div == 1e3 ? 1
			      : 3,
		 ns / div, u);
}

static const char *
scope_title(const json_t *scope, char *buf, size_t size)
{
	const char *name = al_doc_str(scope, "phase", NULL);
	int occ = (int)al_doc_int(scope, "occurrence", 0);
	char safe[96];

	if (!name)
		return "whole run";
	al_text_term_safe(name, safe, sizeof(safe), 40);
	if (occ)
		snprintf(buf, size, "phase %s (#%d)", safe, occ + 1);
	else
		snprintf(buf, size, "phase %s", safe);
	return buf;
}

const json_t *
al_compare_result(const json_t *cmp, const char *key)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(cmp, "results"), i, r)
	{
		if (!strcmp(al_doc_str(r, "key", ""), key))
			return r;
	}
	return NULL;
}

/* Say so when a row's wake latencies count wake-ups only (an audiolat.run/1 result). */
static void
view_note(const json_t *scope, FILE *f)
{
	const json_t *row;
	size_t i;
	bool first = true;

	json_array_foreach(json_object_get(scope, "rows"), i, row) {
		if (strcmp(al_doc_str(row, "view", "per period"), "per wake-up"))
			continue;
		fprintf(f, "%s %s", first ? "   wake latencies per wake-up, not per period due "
					    "(audiolat.run/1 results):" : ",", al_doc_str(row, "key", "?"));
		first = false;
	}
	if (!first)
		fprintf(f, "\n");
}

/* The columns of seed 000's table, and the wake-latency tail. */
static void
text_table(const json_t *cmp, const json_t *scope, FILE *f)
{
	const json_t *row;
	char label[96], b[8][32];
	size_t i;

	fprintf(f, "   %-24s %12s %12s %11s %11s %11s %11s %7s\n", "result", "max latency",
		"% of buffer", "1MS factor", "2MS factor", "p99 wake", "p99.9 wake", "xruns");
	json_array_foreach(json_object_get(scope, "rows"), i, row)
	{
		const char *key = al_doc_str(row, "key", "?");

		al_text_term_safe(al_doc_str(al_compare_result(cmp, key), "label", "?"), label,
				  sizeof(label), 24);
		fmt_num(b[0], sizeof(b[0]), ms_of(row, "max_latency_ns"), "%.3f", " ms");
		fmt_num(b[1], sizeof(b[1]), al_doc_real(row, "max_latency_pct_of_buffer", NAN),
			"%.1f", " %");
		fmt_num(b[2], sizeof(b[2]), al_doc_real(row, "within_1ms_pct", NAN), "%.3f", NULL);
		fmt_num(b[3], sizeof(b[3]), al_doc_real(row, "within_2ms_pct", NAN), "%.3f", NULL);
		fmt_dur(b[4], sizeof(b[4]), al_doc_real(row, "wake_p99_ns", NAN), false, 1e3,
			false);
		fmt_dur(b[5], sizeof(b[5]), al_doc_real(row, "wake_p999_ns", NAN), false, 1e3,
			false);
		fmt_num(b[6], sizeof(b[6]), al_doc_real(row, "xruns", NAN), "%.0f", NULL);
		fprintf(f, "%-2s ", key);
		al_text_pad(f, label, 24, false);
		fprintf(f, " %12s %12s %11s %11s %11s %11s %7s\n", b[0], b[1], b[2], b[3], b[4],
			b[5], b[6]);
	}
	view_note(scope, f);
}

static double
scale_of(const json_t *st)
{
	double m = fabs(al_doc_real(st, "diff_ns", 0));

	m = fmax(m, fabs(al_doc_real(st, "ci_low_ns", 0)));
	m = fmax(m, fabs(al_doc_real(st, "ci_high_ns", 0)));
	return fmax(m, fabs(al_doc_real(st, "baseline_ns", 0)) / 10);
}

static void
ci_text(const json_t *st, char *buf, size_t size, bool micro_sign)
{
	double scale = scale_of(st);
	char lo[32], hi[32], *sp;

	if (!json_is_number(json_object_get(st, "ci_low_ns")))
		snprintf(lo, sizeof(lo), "-inf");
	else
		fmt_dur(lo, sizeof(lo), al_doc_real(st, "ci_low_ns", 0), true, scale, micro_sign);
	if (!json_is_number(json_object_get(st, "ci_high_ns")))
		snprintf(hi, sizeof(hi), "+inf");
	else
		fmt_dur(hi, sizeof(hi), al_doc_real(st, "ci_high_ns", 0), true, scale, micro_sign);
	/* one unit for both ends: "[+0.1, +0.5] us" */
	sp = strchr(lo, ' ');
	if (sp && strchr(hi, ' '))
		*sp = '\0';
	snprintf(buf, size, "[%s, %s]", lo, hi);
}

static double confidence_pct(const json_t *cmp);

/* A statistic one side lacks: "B vs A, whole run, p99 wake latency: not measured (A lacks it)". */
static bool
unmeasured_text(const json_t *c, const json_t *st, FILE *f, const char *title)
{
	bool a = json_is_number(json_object_get(st, "baseline_ns"));
	bool b = json_is_number(json_object_get(st, "value_ns"));

	if (strcmp(al_doc_str(st, "verdict", ""), "not measured"))
		return false;
	fprintf(f, "%s vs %s, %s, %s wake latency: not measured (%s%s%s lack%s it)\n",
		al_doc_str(c, "key", "?"), al_doc_str(c, "baseline", "?"), title,
		al_doc_str(st, "name", "?"), !a ? al_doc_str(c, "baseline", "?") : "",
		!a && !b ? " and " : "", !b ? al_doc_str(c, "key", "?") : "", !a && !b ? "" : "s");
	return true;
}

static void
text_verdicts(const json_t *cmp, const json_t *scope, FILE *f, const char *title)
{
	const json_t *c, *st;
	size_t i, j;

	json_array_foreach(json_object_get(scope, "comparisons"), i, c)
	{
		json_array_foreach(json_object_get(c, "statistics"), j, st)
		{
			char diff[32], ci[80], pct[24] = "";
			double scale = scale_of(st);

			if (unmeasured_text(c, st, f, title))
				continue;
			fmt_dur(diff, sizeof(diff), al_doc_real(st, "diff_ns", 0), true, scale,
				false);
			if (json_is_number(json_object_get(st, "diff_pct")))
				snprintf(pct, sizeof(pct), " (%+.1f %%)",
					 al_doc_real(st, "diff_pct", 0));
			ci_text(st, ci, sizeof(ci), false);
			fprintf(f, "%s vs %s, %s, %s wake latency: %s%s, %.0f %% CI %s: %s\n",
				al_doc_str(c, "key", "?"), al_doc_str(c, "baseline", "?"), title,
				al_doc_str(st, "name", "?"), diff, pct, confidence_pct(cmp), ci,
				al_doc_str(st, "verdict", "?"));
		}
	}
}

static double
confidence_pct(const json_t *cmp)
{
	return 100 * al_doc_real(cmp, "method.confidence", 0.95);
}

/* Is "wake latency" among the figures a result lacks? */
static bool
lacks_wake(const json_t *lacks)
{
	const json_t *v;
	size_t i;

	json_array_foreach(lacks, i, v)
		if (!strcmp(json_string_value(v) ? json_string_value(v) : "", "wake latency"))
			return true;
	return false;
}

/* An imported result: the tool, and what it did not measure (its "-" in the tables). */
static void
lacks_line(const json_t *r, FILE *f)
{
	const json_t *lacks = json_object_get(r, "lacks"), *v;
	char tool[40];
	size_t i;

	if (!al_doc_str(r, "imported_from", NULL))
		return;
	al_text_term_safe(al_doc_str(r, "imported_from", "?"), tool, sizeof(tool), 30);
	fprintf(f, "   %s: imported from %s (%s); not measured:", al_doc_str(r, "key", "?"), tool,
		lacks_wake(lacks) ? "no wake latency" : "wake latency per wake-up");
	json_array_foreach(lacks, i, v)
		fprintf(f, "%s %s", i ? "," : "", json_string_value(v));
	fprintf(f, "\n");
}

void
al_compare_text(const json_t *cmp, FILE *f)
{
	const json_t *scopes = json_object_get(cmp, "scopes"), *scope, *r;
	char title[128], label[96], src[160], t[32], backend[40];
	size_t i;

	fprintf(f, "%zu results, compared with %s at %.0f %% confidence (seed %" PRId64 ")\n",
		json_array_size(json_object_get(cmp, "results")), al_doc_str(cmp, "baseline", "A"),
		confidence_pct(cmp), al_doc_int(cmp, "method.seed", 0));
	json_array_foreach(scopes, i, scope)
	{
		fprintf(f, "\n%s:\n", scope_title(scope, title, sizeof(title)));
		text_table(cmp, scope, f);
	}
	fprintf(f, "\n");
	json_array_foreach(scopes, i, scope)
	    text_verdicts(cmp, scope, f, scope_title(scope, title, sizeof(title)));
	fprintf(f, "\n");
	json_array_foreach(json_object_get(cmp, "results"), i, r)
	{
		al_text_term_safe(al_doc_str(r, "label", "?"), label, sizeof(label), 40);
		al_text_term_safe(al_doc_str(r, "source", "-"), src, sizeof(src), 80);
		al_text_term_safe(al_doc_str(r, "backend", "?"), backend, sizeof(backend), 20);
		fmt_dur(t, sizeof(t), al_doc_real(r, "buffer_ns", NAN), false, 1e6, false);
		if (al_doc_str(r, "imported_from", NULL) && !json_is_string(json_object_get(r, "backend"))) {
			fprintf(f, "%s: %s = %s\n", al_doc_str(r, "key", "?"), label, src);
			lacks_line(r, f);
			continue;
		}
		fprintf(f,
			"%s: %s = %s (%s, %" PRId64 " Hz, %" PRId64 " x %" PRId64
			" frames, buffer %s)\n",
			al_doc_str(r, "key", "?"), label, src, backend, al_doc_int(r, "rate", 0),
			al_doc_int(r, "periods", 0), al_doc_int(r, "period_frames", 0), t);
		lacks_line(r, f);
	}
}

/* Outside text in a Markdown table cell: what would end the cell or start markup escaped. */
static void
md_escape(FILE *f, const char *s, size_t max_chars)
{
	char safe[256];

	al_text_term_safe(s, safe, sizeof(safe), max_chars);
	for (const char *p = safe; *p; p++) {
		if (strchr("\\`*_[]<>|", *p))
			fputc('\\', f);
		fputc(*p, f);
	}
}

void
al_compare_markdown(const json_t *cmp, FILE *f)
{
	const json_t *scopes = json_object_get(cmp, "scopes"), *scope, *row, *c, *st, *r;
	char title[128], b[8][40];
	size_t i, j, k;

	json_array_foreach(scopes, i, scope)
	{
		if (json_array_size(scopes) > 1)
			fprintf(f, "%s**%s**\n\n", i ? "\n" : "",
				scope_title(scope, title, sizeof(title)));
		fprintf(f, "| | result | max latency | %% of buffer | 1MS factor | 2MS factor | "
			   "p99 wake | p99.9 wake | xruns |\n"
			   "|---|---|--:|--:|--:|--:|--:|--:|--:|\n");
		json_array_foreach(json_object_get(scope, "rows"), j, row)
		{
			const char *key = al_doc_str(row, "key", "?");

			fmt_num(b[0], sizeof(b[0]), ms_of(row, "max_latency_ns"), "%.3f", " ms");
			fmt_num(b[1], sizeof(b[1]),
				al_doc_real(row, "max_latency_pct_of_buffer", NAN), "%.1f", " %");
			fmt_num(b[2], sizeof(b[2]), al_doc_real(row, "within_1ms_pct", NAN), "%.3f",
				NULL);
			fmt_num(b[3], sizeof(b[3]), al_doc_real(row, "within_2ms_pct", NAN), "%.3f",
				NULL);
			fmt_dur(b[4], sizeof(b[4]), al_doc_real(row, "wake_p99_ns", NAN), false,
				1e3, true);
			fmt_dur(b[5], sizeof(b[5]), al_doc_real(row, "wake_p999_ns", NAN), false,
				1e3, true);
			fmt_num(b[6], sizeof(b[6]), al_doc_real(row, "xruns", NAN), "%.0f", NULL);
			fprintf(f, "| %s | ", key);
			md_escape(f, al_doc_str(al_compare_result(cmp, key), "label", "?"), 60);
			fprintf(f, " | %s | %s | %s | %s | %s | %s | %s |\n", b[0], b[1], b[2],
				b[3], b[4], b[5], b[6]);
		}
		if (!json_array_size(json_object_get(scope, "comparisons")))
			continue;
		fprintf(f,
			"\n| | wake latency | baseline | result | difference | %.0f %% CI | "
			"verdict |\n|---|---|--:|--:|--:|--:|---|\n",
			confidence_pct(cmp));
		json_array_foreach(json_object_get(scope, "comparisons"), j, c)
		{
			json_array_foreach(json_object_get(c, "statistics"), k, st)
			{
				double scale = scale_of(st);
				char ci[80], pct[24] = "";

				if (!strcmp(al_doc_str(st, "verdict", ""), "not measured")) {
					fprintf(f, "| %s vs %s | %s | | | | | not measured |\n",
						al_doc_str(c, "key", "?"), al_doc_str(c, "baseline", "?"),
						al_doc_str(st, "name", "?"));
					continue;
				}
				fmt_dur(b[0], sizeof(b[0]), al_doc_real(st, "baseline_ns", 0),
					false, al_doc_real(st, "baseline_ns", 0), true);
				fmt_dur(b[1], sizeof(b[1]), al_doc_real(st, "value_ns", 0), false,
					al_doc_real(st, "baseline_ns", 0), true);
				fmt_dur(b[2], sizeof(b[2]), al_doc_real(st, "diff_ns", 0), true,
					scale, true);
				if (json_is_number(json_object_get(st, "diff_pct")))
					snprintf(pct, sizeof(pct), " (%+.1f %%)",
						 al_doc_real(st, "diff_pct", 0));
				ci_text(st, ci, sizeof(ci), true);
				fprintf(f, "| %s vs %s | %s | %s | %s | %s%s | %s | %s |\n",
					al_doc_str(c, "key", "?"), al_doc_str(c, "baseline", "?"),
					al_doc_str(st, "name", "?"), b[0], b[1], b[2], pct, ci,
					al_doc_str(st, "verdict", "?"));
			}
		}
	}
	fprintf(f, "\n");
	json_array_foreach(json_object_get(cmp, "results"), i, r)
	{
		fprintf(f, "- %s: ", al_doc_str(r, "key", "?"));
		md_escape(f, al_doc_str(r, "label", "?"), 60);
		fprintf(f, ", kernel ");
		md_escape(f, al_doc_str(r, "kernel_release", "?"), 60);
		fprintf(f, ", ");
		md_escape(f, al_doc_str(r, "backend", "?"), 20);
		fprintf(f, " %" PRId64 " Hz, %" PRId64 " x %" PRId64 " frames\n",
			al_doc_int(r, "rate", 0), al_doc_int(r, "periods", 0),
			al_doc_int(r, "period_frames", 0));
	}
	fprintf(f,
		"\n%.0f %% confidence intervals of the difference to %s: p50 and p99 by a "
		"bootstrap from the histograms, max by an exceedance test on the "
		"time-series windows (audiolat compare, seed %" PRId64 ").\n",
		confidence_pct(cmp), al_doc_str(cmp, "baseline", "A"),
		al_doc_int(cmp, "method.seed", 0));
}
