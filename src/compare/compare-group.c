/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Groups of runs (audiolat compare --group-by kernel|host|label): one row
 * per group with each figure's geometric mean over its runs and the run-to-run
 * min-max beside it, and per group against the baseline group a verdict
 * from the spread between runs (al_ci_group_diff(): a hierarchical
 * bootstrap, runs within the group, then periods within each run). Below
 * AL_GROUP_MIN_RUNS runs on either side there is no verdict: "not enough
 * runs". docs/compare.md, "Groups of runs".
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "ci.h"
#include "compare.h"
#include "doc/view.h"

#define AL_COMPARE_INTERNAL
#include "compare-private.h"

/* one run's part */
struct grun {
	struct scope_data total; /* the whole run: histogram, effective size */
	struct al_ci_sample sample;
	double p50, p99, max;
	int64_t xruns;
};

struct group {
	const char *name;
	struct grun **runs;
	size_t n, cap;
};

static const char *
key_of(const json_t *doc, enum al_group_key key)
{
	const char *v;

	switch (key) {
	case AL_GROUP_HOST:
		v = al_doc_str(doc, "system.hostname", NULL);
		break;
	case AL_GROUP_LABEL:
		v = al_doc_str(doc, "label", NULL);
		break;
	default:
		v = al_doc_str(doc, "system.kernel_release", NULL);
		break;
	}
	return v && v[0] ? v : "(none)";
}

const char *
al_group_key_name(enum al_group_key key)
{
	return key == AL_GROUP_HOST ? "host" : key == AL_GROUP_LABEL ? "label" : "kernel";
}

int
al_group_key_parse(const char *s, enum al_group_key *key)
{
	if (!strcmp(s, "kernel"))
		*key = AL_GROUP_KERNEL;
	else if (!strcmp(s, "host"))
		*key = AL_GROUP_HOST;
	else if (!strcmp(s, "label"))
		*key = AL_GROUP_LABEL;
	else
		return -EINVAL;
	return 0;
}

/* the histogram and effective size of a run (its "total" scope) and its figures */
static int
run_of(const json_t *doc, struct grun *r)
{
	static const struct scope_key whole = { NULL, 0 };
	int rc;

	memset(r, 0, sizeof(*r));
	rc = al__scope_load(doc, &whole, &r->total);
	if (rc)
		return rc;
	r->sample.h = &r->total.hist;
	r->sample.n_eff = r->total.n_eff;
	r->p50 = al_doc_real(doc, "total.wake_latency_ns.p50", NAN);
	r->p99 = al_doc_real(doc, "total.wake_latency_ns.p99", NAN);
	r->max = al_doc_real(doc, "total.wake_latency_ns.max", NAN);
	r->xruns = al_doc_int(doc, "total.xruns", 0);
	return 0;
}

static const struct {
	const char *name;   /* "p99" */
	double q;           /* 0: the max */
} stats[] = {
	{ "p50", 0.5 },
	{ "p99", 0.99 },
	{ "max", 0 },
};

static double
stat_of(const struct grun *r, size_t k)
{
	return k == 0 ? r->p50 : k == 1 ? r->p99 : r->max;
}

/*
 * {gmean, min, max, runs} of a figure over a group's runs (the geometric mean:
 * latency figures of runs spread on a log scale); null when none measured it
 */
static json_t *
spread(const struct group *g, size_t k)
{
	double sum = 0, lo = INFINITY, hi = -INFINITY, v;
	json_t *runs = json_array(), *o;
	size_t i, n = 0;

	for (i = 0; i < g->n; i++) {
		v = stat_of(g->runs[i], k);
		json_array_append_new(runs, isfinite(v) ? json_real(v) : json_null());
		if (!isfinite(v))
			continue;
		sum += log(v > 1 ? v : 1);
		lo = fmin(lo, v);
		hi = fmax(hi, v);
		n++;
	}
	if (!n)
		o = json_pack("{s:n, s:n, s:n}", "gmean", "min", "max");
	else
		o = json_pack("{s:f, s:f, s:f}", "gmean", exp(sum / (double)n), "min", lo, "max",
			      hi);
	json_object_set_new(o, "runs", runs); /* each run's, in the order given */
	return o;
}

/* every run of the group has the figure */
static bool
all_measured(const struct group *g, size_t k)
{
	size_t i;

	for (i = 0; i < g->n; i++)
		if (!isfinite(stat_of(g->runs[i], k)) || (stats[k].q > 0 && !g->runs[i]->total.hist.count))
			return false;
	return g->n > 0;
}

/*
 * Group b against the baseline a on statistic k, its interval at level
 * conf (Holm's for its step), into out; *p its p-value (NAN: no test).
 */
static int
verdict(const struct group *a, const struct group *b, size_t k, const struct al_group_opts *o,
	double conf, json_t *out, double *p)
{
	struct al_ci_sample *sa = NULL, *sb = NULL;
	double *va = NULL, *vb = NULL, diff, ma, mb;
	struct al_ci ci;
	size_t i;
	int rc = 0;
	json_t *v;

	*p = NAN;
	v = json_pack("{s:s, s:s, s:s, s:n, s:n, s:n, s:n}", "group", b->name, "baseline",
		      a->name, "statistic", stats[k].name, "difference_ns", "ci_ns", "p_value",
		      "detectable_ns");
	if (a->n < AL_GROUP_MIN_RUNS || b->n < AL_GROUP_MIN_RUNS) {
		char why[160];

		snprintf(why, sizeof(why), "%zu run%s of %.60s, %d needed",
			 a->n < b->n ? a->n : b->n, (a->n < b->n ? a->n : b->n) == 1 ? "" : "s",
			 a->n < b->n ? a->name : b->name, AL_GROUP_MIN_RUNS);
		json_object_set_new(v, "verdict", json_string("not enough data"));
		json_object_set_new(v, "why", json_string(why));
		return json_array_append_new(out, v) ? -ENOMEM : 0;
	}
	if (!all_measured(a, k) || !all_measured(b, k)) {
		json_object_set_new(v, "verdict", json_string("not measured"));
		return json_array_append_new(out, v) ? -ENOMEM : 0;
	}
	sa = calloc(a->n, sizeof(*sa));
	sb = calloc(b->n, sizeof(*sb));
	va = calloc(a->n, sizeof(*va));
	vb = calloc(b->n, sizeof(*vb));
	if (!sa || !sb || !va || !vb) {
		rc = -ENOMEM;
		goto out;
	}
	ma = mb = 0;
	for (i = 0; i < a->n; i++) {
		sa[i] = a->runs[i]->sample;
		va[i] = stat_of(a->runs[i], k);
		ma += log(va[i] > 1 ? va[i] : 1) / (double)a->n;
	}
	for (i = 0; i < b->n; i++) {
		sb[i] = b->runs[i]->sample;
		vb[i] = stat_of(b->runs[i], k);
		mb += log(vb[i] > 1 ? vb[i] : 1) / (double)b->n;
	}
	{
		struct al_ci_group ga = { sa, va, a->n, true }, gb = { sb, vb, b->n, true };

		/* every verdict of the comparison together at o->confidence
		 * (Holm): this one's interval at its step's level, conf */
		rc = al_ci_group_diff(&ga, &gb, stats[k].q, o->resamples, o->seed + k, conf,
				      &ci);
	}
	if (rc)
		goto out;
	*p = ci.p;
	/* geometric means: the difference, and the interval of the ratio as a
	 * difference from the baseline's geometric mean */
	ma = exp(ma);
	mb = exp(mb);
	diff = mb - ma;
	json_object_set_new(v, "difference_ns", json_real(diff));
	json_object_set_new(v, "difference_pct", json_real(100 * diff / ma));
	json_object_set_new(v, "ratio_ci", json_pack("[f, f]", exp(ci.lo), exp(ci.hi)));
	json_object_set_new(v, "ci_ns", json_pack("[f, f]", ma * (exp(ci.lo) - 1), ma * (exp(ci.hi) - 1)));
	json_object_set_new(v, "confidence", json_real(conf));
	json_object_set_new(v, "p_value", isnan(ci.p) ? json_null() : json_real(ci.p));
	/* the power: the interval's half-width, where it found no difference */
	if (al_ci_verdict(&ci) == AL_VERDICT_SAME)
		json_object_set_new(v, "detectable_ns",
				    json_real(ma * (exp(ci.hi) - exp(ci.lo)) / 2));
	json_object_set_new(v, "verdict", json_string(al_verdict_name(al_ci_verdict(&ci))));
	if (json_array_append_new(out, v))
		rc = -ENOMEM;
	v = NULL;
out:
	json_decref(v);
	free(sa);
	free(sb);
	free(va);
	free(vb);
	return rc;
}

#define N_STATS (sizeof(stats) / sizeof(stats[0]))

/*
 * Every group against the baseline on every statistic into jv: the
 * p-values first, then each interval at its level by Holm's correction
 * over all of them (the same seed: the same replicates); root gets
 * "multiple_testing".
 */
static int
verdicts(const struct group *groups, size_t ng, const struct group *base,
	 const struct al_group_opts *o, json_t *jv, json_t *root)
{
	size_t m = ng * N_STATS, j, k, t, tests;
	double *p = calloc(m ? m : 1, sizeof(*p)), *level = calloc(m ? m : 1, sizeof(*level));
	json_t *scratch = json_array();
	int rc = 0;

	if (!p || !level || !scratch) {
		rc = -ENOMEM;
		goto out;
	}
	for (t = 0; t < m; t++)
		p[t] = NAN;
	for (j = 0, t = 0; j < ng && !rc; j++)
		for (k = 0; k < N_STATS && !rc; k++, t++)
			if (&groups[j] != base)
				rc = verdict(base, &groups[j], k, o, o->confidence, scratch, &p[t]);
	if (rc)
		goto out;
	tests = al_ci_holm(p, m, 1 - o->confidence, level);
	for (j = 0, t = 0; j < ng && !rc; j++)
		for (k = 0; k < N_STATS && !rc; k++, t++)
			if (&groups[j] != base)
				rc = verdict(base, &groups[j], k, o,
					     isnan(level[t]) ? o->confidence : 1 - level[t], jv, &p[t]);
	if (!rc && json_object_set_new(root, "multiple_testing",
				       json_pack("{s:s, s:I, s:f}", "method", "holm", "tests",
						 (json_int_t)tests, "family_confidence",
						 o->confidence)))
		rc = -ENOMEM;
out:
	json_decref(scratch);
	free(p);
	free(level);
	return rc;
}

/* Run r into the group called name among groups[0..*ng), a new one if none is. 0 or -ENOMEM. */
static int
group_add(struct group *groups, size_t *ng, const char *name, struct grun *r)
{
	size_t j;

	for (j = 0; j < *ng && strcmp(groups[j].name, name); j++)
		;
	if (j == *ng)
		groups[(*ng)++].name = name;
	if (groups[j].n == groups[j].cap) {
		size_t cap = groups[j].cap ? groups[j].cap * 2 : 8;
		struct grun **nr = realloc(groups[j].runs, cap * sizeof(*nr));

		if (!nr)
			return -ENOMEM;
		groups[j].runs = nr;
		groups[j].cap = cap;
	}
	groups[j].runs[groups[j].n++] = r;
	return 0;
}

int
al_compare_groups(const struct al_report_doc *in, size_t n, const struct al_group_opts *o,
		  json_t **out, char *err, size_t err_size)
{
	struct grun *runs = NULL;
	struct group *groups = NULL, *base = NULL;
	size_t ng = 0, i, j;
	json_t *root = NULL, *jg, *jv;
	int rc = 0;

	*out = NULL;
	if (err_size)
		err[0] = '\0';
	if (!n) {
		snprintf(err, err_size, "no runs to group");
		return -EINVAL;
	}
	runs = calloc(n, sizeof(*runs));
	groups = calloc(n, sizeof(*groups));
	if (!runs || !groups) {
		rc = -ENOMEM;
		goto out;
	}
	for (i = 0; i < n; i++) {
		const char *name;

		if (!al_doc_is_run(in[i].doc)) {
			snprintf(err, err_size, "%s: not an audiolat.run document", in[i].source);
			rc = -EINVAL;
			goto out;
		}
		rc = run_of(in[i].doc, &runs[i]);
		if (rc)
			goto out;
		name = key_of(in[i].doc, o->key);
		rc = group_add(groups, &ng, name, &runs[i]);
		if (rc)
			goto out;
	}
	/* the baseline: the group asked for, else the first one met */
	base = &groups[0];
	if (o->baseline) {
		for (j = 0; j < ng && strcmp(groups[j].name, o->baseline); j++)
			;
		if (j == ng) {
			snprintf(err, err_size, "--baseline '%.60s': no %s of that name among the runs",
				 o->baseline, al_group_key_name(o->key));
			rc = -EINVAL;
			goto out;
		}
		base = &groups[j];
	}
	jg = json_array();
	jv = json_array();
	root = json_pack("{s:s, s:s, s:s, s:f, s:i, s:I, s:i, s:o, s:o}", "schema",
			 AL_SCHEMA_COMPARE_GROUPS, "group_by", al_group_key_name(o->key),
			 "baseline", base->name, "confidence", o->confidence, "resamples",
			 o->resamples, "seed", (json_int_t)o->seed, "min_runs", AL_GROUP_MIN_RUNS,
			 "groups", jg, "verdicts", jv);
	if (!root) {
		rc = -ENOMEM;
		goto out;
	}
	for (j = 0; j < ng; j++) {
		int64_t xr = 0;

		for (i = 0; i < groups[j].n; i++)
			xr += groups[j].runs[i]->xruns;
		json_array_append_new(jg, json_pack("{s:s, s:I, s:o, s:o, s:o, s:I}", "group",
						    groups[j].name, "runs", (json_int_t)groups[j].n,
						    "p50_ns", spread(&groups[j], 0), "p99_ns",
						    spread(&groups[j], 1), "max_ns",
						    spread(&groups[j], 2), "xruns", (json_int_t)xr));
	}
	rc = verdicts(groups, ng, base, o, jv, root);
	if (!rc) {
		*out = root;
		root = NULL;
	}
out:
	json_decref(root);
	for (i = 0; runs && i < n; i++)
		al__scope_free(&runs[i].total);
	for (j = 0; groups && j < ng; j++)
		free(groups[j].runs);
	free(runs);
	free(groups);
	if (rc && err_size && !err[0])
		snprintf(err, err_size, "%s", strerror(-rc));
	return rc;
}

static void
dur(double ns, char *buf, size_t size)
{
	if (!isfinite(ns))
		snprintf(buf, size, "-");
	else
		al_format_duration((int64_t)llround(ns), buf, size);
}

void
al_compare_groups_text(const json_t *cmp, bool markdown, FILE *f)
{
	const json_t *groups = json_object_get(cmp, "groups"), *g, *v;
	const char *by = al_doc_str(cmp, "group_by", "group");
	size_t i, k;
	char a[32], b[32], c[32];
	static const char *const keys[] = { "p50_ns", "p99_ns", "max_ns" };

	if (markdown)
		fprintf(f, "| %s | runs | p50 wake (min-max) | p99 wake (min-max) | max wake (min-max) "
			   "| xruns |\n|---|---:|---:|---:|---:|---:|\n",
			by);
	else
		fprintf(f, "%-24s %5s  %-26s  %-26s  %-26s  %s\n", by, "runs", "p50 wake (min-max)",
			"p99 wake (min-max)", "max wake (min-max)", "xruns");
	json_array_foreach(groups, i, g)
	{
		char cell[3][112];

		for (k = 0; k < 3; k++) {
			dur(al_doc_real(json_object_get(g, keys[k]), "gmean", NAN), a, sizeof(a));
			dur(al_doc_real(json_object_get(g, keys[k]), "min", NAN), b, sizeof(b));
			dur(al_doc_real(json_object_get(g, keys[k]), "max", NAN), c, sizeof(c));
			snprintf(cell[k], sizeof(cell[k]), "%s (%s-%s)", a, b, c);
		}
		if (markdown)
			fprintf(f, "| %s | %lld | %s | %s | %s | %lld |\n",
				al_doc_str(g, "group", "?"), (long long)al_doc_int(g, "runs", 0),
				cell[0], cell[1], cell[2], (long long)al_doc_int(g, "xruns", 0));
		else
			fprintf(f, "%-24s %5lld  %-26s  %-26s  %-26s  %lld\n",
				al_doc_str(g, "group", "?"), (long long)al_doc_int(g, "runs", 0),
				cell[0], cell[1], cell[2], (long long)al_doc_int(g, "xruns", 0));
	}
	fputc('\n', f);
	json_array_foreach(json_object_get(cmp, "verdicts"), i, v)
	{
		const json_t *ci = json_object_get(v, "ci_ns");
		const char *verd = al_doc_str(v, "verdict", "?");

		fprintf(f, "%s%s vs %s, %s wake latency: ", markdown ? "- " : "",
			al_doc_str(v, "group", "?"), al_doc_str(v, "baseline", "?"),
			al_doc_str(v, "statistic", "?"));
		if (!json_is_array(ci)) {
			if (al_doc_str(v, "why", NULL))
				fprintf(f, "%s (%s)\n", verd, al_doc_str(v, "why", ""));
			else
				fprintf(f, "%s\n", verd);
			continue;
		}
		dur(fabs(al_doc_real(v, "difference_ns", 0)), a, sizeof(a));
		dur(fabs(json_number_value(json_array_get(ci, 0))), b, sizeof(b));
		dur(fabs(json_number_value(json_array_get(ci, 1))), c, sizeof(c));
		fprintf(f, "%s%s", al_doc_real(v, "difference_ns", 0) < 0 ? "-" : "+", a);
		if (json_is_number(json_object_get(v, "difference_pct")))
			fprintf(f, " (%+.1f %%)", al_doc_real(v, "difference_pct", 0));
		fprintf(f, ", %.4g %% CI [%s%s, %s%s] across runs: %s",
			100 * al_doc_real(v, "confidence", 0.95),
			json_number_value(json_array_get(ci, 0)) < 0 ? "-" : "+", b,
			json_number_value(json_array_get(ci, 1)) < 0 ? "-" : "+", c, verd);
		if (json_is_number(json_object_get(v, "detectable_ns"))) {
			dur(al_doc_real(v, "detectable_ns", 0), a, sizeof(a));
			fprintf(f, " (would have seen %s%s)", markdown ? "\u00b1" : "+-", a);
		}
		fputc('\n', f);
	}
	fprintf(f, "%sHolm's correction over the %lld verdicts (%.0f %% for all of them together: "
		   "each interval at its step's level); below %lld runs a group, not enough data.\n",
		markdown ? "\n" : "\n", (long long)al_doc_int(cmp, "multiple_testing.tests", 0),
		100 * al_doc_real(cmp, "confidence", 0.95), (long long)al_doc_int(cmp, "min_runs", 0));
}
