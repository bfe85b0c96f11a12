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
#include "doc/tail-doc.h"
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
 * The tail beyond the run of the scope (docs/tail.md): what it predicts
 * for 1 h and 24 h, for information beside the verdicts, never in them.
 */
static json_t *
tail_row(const json_t *doc, const json_t *st)
{
	json_t *t = al_doc_scope_tail(doc, st), *o;

	if (!t)
		return json_null();
	o = json_pack("{s:O, s:O, s:O, s:O, s:O}", "status", json_object_get(t, "status"),
		      "shape", json_object_get(t, "shape"), "observed_max_ns",
		      json_object_get(t, "observed_max_ns"), "predicted_1h",
		      json_object_get(t, "predicted_1h"), "predicted_24h",
		      json_object_get(t, "predicted_24h"));
	json_decref(t);
	return o ? o : json_null();
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
	    "s:f, s:f, s:o}",
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
	    "design_effect", sd->deff, "effective_periods", sd->n_eff, "tail",
	    tail_row(doc, st));
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

/*
 * Holm's correction over every verdict of one comparison (every result,
 * phase and statistic): the first pass records each test's p-value in
 * order, al_ci_holm() gives each its level, and the second pass makes each
 * interval at its own level (the same seed: the same replicates).
 */
struct holm_pass {
	double *p;           /* first pass: each test's p-value (NAN: no test) */
	size_t n, cap;
	const double *level; /* second pass: each test's level (NAN: nominal) */
	size_t next;
};

/* The confidence of the next test, and its index; -ENOMEM */
static int
holm_next(struct holm_pass *hp, const struct al_compare_opts *o, double *conf, size_t *idx)
{
	*idx = hp->next++;
	*conf = o->confidence;
	if (hp->level) {
		if (*idx < hp->n && !isnan(hp->level[*idx]))
			*conf = 1 - hp->level[*idx];
		return 0;
	}
	if (hp->n == hp->cap) {
		size_t cap = hp->cap ? 2 * hp->cap : 32;
		double *np = realloc(hp->p, cap * sizeof(*np));

		if (!np)
			return -ENOMEM;
		hp->p = np;
		hp->cap = cap;
	}
	hp->p[hp->n++] = NAN;
	return 0;
}

/* What the power was: the interval's half-width, for a verdict of no difference. */
static json_t *
detectable(const struct al_ci *ci)
{
	if (al_ci_verdict(ci) != AL_VERDICT_SAME || !ci->lo_ok || !ci->hi_ok)
		return json_null();
	return ci_side(true, (ci->hi - ci->lo) / 2);
}

/* One statistic of result b against the baseline a. */
static json_t *
stat_json(const struct scope_data *a, const struct scope_data *b, size_t s,
	  const struct al_compare_opts *o, uint64_t seed, struct holm_pass *hp)
{
	char path[64];
	struct al_ci ci = {0};
	int64_t va, vb, diff;
	int rc = -EINVAL;
	double conf;
	size_t idx;
	json_t *j;

	if (holm_next(hp, o, &conf, &idx))
		return NULL;
	snprintf(path, sizeof(path), "wake_latency_ns.%s", cmp_stats[s].field);
	if (!json_is_integer(al_doc_get(a->stats, path)) ||
	    !json_is_integer(al_doc_get(b->stats, path))) /* a tool that does not measure it */
		return json_pack("{s:s, s:O?, s:O?, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:s}", "name",
				 cmp_stats[s].name, "baseline_ns", al_doc_get(a->stats, path),
				 "value_ns", al_doc_get(b->stats, path), "diff_ns", "diff_pct",
				 "ci_low_ns", "ci_high_ns", "confidence", "p_value", "detectable_ns",
				 "verdict", "not measured");
	va = al_doc_int(a->stats, path, 0);
	vb = al_doc_int(b->stats, path, 0);
	if (cmp_stats[s].q > 0) {
		struct al_ci_sample sa = {&a->hist, a->n_eff}, sb = {&b->hist, b->n_eff};

		if (a->hist.count && b->hist.count)
			rc = al_ci_quantile_diff(&sa, &sb, cmp_stats[s].q, o->resamples, seed, conf,
						 &ci);
	} else if (a->m && b->m) {
		rc = al_ci_max_diff(a->win_max, a->m, b->win_max, b->m, conf, &ci);
	}
	if (rc == -ENOMEM)
		return NULL;
	if (rc) { /* both sides unbounded: not enough data */
		memset(&ci, 0, sizeof(ci));
		ci.p = NAN;
	}
	if (!hp->level)
		hp->p[idx] = ci.p;
	/* wrapping, not overflowing, on a hostile document's extremes */
	diff = (int64_t)((uint64_t)vb - (uint64_t)va);
	j = json_pack("{s:s, s:I, s:I, s:I, s:o, s:o, s:o, s:f, s:o, s:o, s:s}", "name",
		      cmp_stats[s].name, "baseline_ns", (json_int_t)va, "value_ns", (json_int_t)vb,
		      "diff_ns", (json_int_t)diff, "diff_pct",
		      va ? json_real(100.0 * ((double)vb - (double)va) / (double)va) : json_null(),
		      "ci_low_ns", ci_side(ci.lo_ok, ci.lo), "ci_high_ns", ci_side(ci.hi_ok, ci.hi),
		      "confidence", conf, "p_value", isnan(ci.p) ? json_null() : json_real(ci.p),
		      "detectable_ns", detectable(&ci), "verdict", al_verdict_name(al_ci_verdict(&ci)));
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
	   int scope_index, const struct al_compare_opts *o, struct holm_pass *hp, int *err)
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
			json_t *st = stat_json(&sd[0], &sd[d], s, o, seed, hp);

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

/* Every scope (the whole run, then each phase when there are several) into scopes. */
static int
scopes_json(const struct al_report_doc *in, size_t n, const struct scope_key *keys, size_t nk,
	    bool multi, const struct al_compare_opts *o, struct holm_pass *hp, json_t **out)
{
	struct scope_key total = {NULL, 0};
	json_t *scopes = json_array(), *sc;
	size_t i;
	int rc = 0;

	hp->next = 0;
	sc = scope_json(in, n, &total, 0, o, hp, &rc);
	if (sc)
		json_array_append_new(scopes, sc);
	for (i = 0; multi && !rc && i < nk; i++) {
		sc = scope_json(in, n, &keys[i], (int)i + 1, o, hp, &rc);
		if (sc)
			json_array_append_new(scopes, sc);
	}
	if (rc || !scopes) {
		json_decref(scopes);
		return rc ? rc : -ENOMEM;
	}
	*out = scopes;
	return 0;
}

int
al_compare(const struct al_report_doc *in, size_t n, const struct al_compare_opts *o,
	   json_t **out)
{
	struct scope_key *keys = NULL;
	struct holm_pass hp = {0};
	json_t *root, *results, *scopes = NULL;
	double *level = NULL;
	size_t nk = 0, d, tests = 0;
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
	/* the p-values first, then every interval at its level by Holm */
	rc = scopes_json(in, n, keys, nk, multi, o, &hp, &scopes);
	json_decref(scopes);
	scopes = NULL;
	if (!rc && !(level = malloc((hp.n ? hp.n : 1) * sizeof(*level))))
		rc = -ENOMEM;
	if (!rc) {
		tests = al_ci_holm(hp.p, hp.n, 1 - o->confidence, level);
		hp.level = level;
		rc = scopes_json(in, n, keys, nk, multi, o, &hp, &scopes);
	}
	free(keys);
	free(hp.p);
	free(level);
	if (rc)
		return rc;
	results = json_array();
	for (d = 0; d < n; d++) {
		result_key(d, key, sizeof(key));
		json_array_append_new(results, result_json(&in[d], key));
	}
	root = json_pack(
	    "{s:s, s:s, s:{s:f, s:i, s:I, s:s, s:s, s:s, s:{s:s, s:I, s:f}}, s:s, s:o, s:o}",
	    "schema", AL_SCHEMA_COMPARE, "tool_version", AL_VERSION, "method", "confidence",
	    o->confidence, "resamples", o->resamples, "seed", (json_int_t)o->seed, "percentiles",
	    "bootstrap from the histogram with the effective sample size "
	    "(periods / design effect of the time-series windows)",
	    "max", "exceedance test on the window maxima (Rosenbaum), inverted for a shift",
	    "spread", "within-run",
	    "multiple_testing", "method", "holm", "tests", (json_int_t)tests, "family_confidence",
	    o->confidence, "baseline", "A", "results", results, "scopes", scopes);
	if (!root)
		return -ENOMEM;
	*out = root;
	return 0;
}
