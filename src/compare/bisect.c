/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat bisect's decision: the baselines' figures, the trials, a look
 * of the sequential test after each (bisect.h, sequential.h), and the
 * audiolat.bisect/1 document and text of the verdict (docs/bisect.md).
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/version.h"
#include "bisect.h"

static const char *const stat_names[] = { "p50", "p99", "max" };
static const char *const stat_paths[] = {
	"total.wake_latency_ns.p50",
	"total.wake_latency_ns.p99",
	"total.wake_latency_ns.max",
};

int
al_bisect_stat_parse(const char *s, enum al_bisect_stat *out)
{
	for (size_t i = 0; i < sizeof(stat_names) / sizeof(stat_names[0]); i++)
		if (!strcmp(s, stat_names[i])) {
			*out = (enum al_bisect_stat)i;
			return 0;
		}
	return -EINVAL;
}

const char *
al_bisect_stat_name(enum al_bisect_stat s)
{
	return stat_names[s <= AL_BISECT_MAX ? s : AL_BISECT_P99];
}

/* The statistic of a run document, ns: > 0, else NAN (not measured). */
static double
figure_of(const json_t *doc, enum al_bisect_stat s)
{
	double v = al_doc_real(doc, stat_paths[s], NAN);

	return v > 0 && isfinite(v) ? v : NAN;
}

/* The log figures of a baseline into x (n of them), and their geometric mean. */
static int
base_logs(const char *which, const struct al_report_doc *in, size_t n, enum al_bisect_stat s,
	  double *x, double *gmean, char *err, size_t err_size)
{
	double sum = 0, v;

	if (n < AL_BISECT_MIN_BASE)
		return snprintf(err, err_size, "%zu %s run%s, %d needed", n, which,
				n == 1 ? "" : "s", AL_BISECT_MIN_BASE), -EINVAL;
	for (size_t i = 0; i < n; i++) {
		v = figure_of(in[i].doc, s);
		if (isnan(v))
			return snprintf(err, err_size, "%s run %s: no %s wake latency", which,
					in[i].source ? in[i].source : "?", stat_names[s]), -EINVAL;
		x[i] = log(v);
		sum += x[i];
	}
	*gmean = exp(sum / (double)n);
	return 0;
}

/* One trial into out (its figure, its id); 0 or -errno with err. */
static int
one_trial(const struct al_bisect_req *q, al_bisect_trial_fn trial, void *ud,
	  struct al_bisect_out *out, double *y, char *err, size_t err_size)
{
	size_t i = out->trials;
	json_t *doc = NULL;
	char why[512] = "";
	int rc;

	rc = trial(ud, (unsigned)i, &doc, &out->id[i], why, sizeof(why));
	if (!rc && !doc)
		rc = -EINVAL, snprintf(why, sizeof(why), "no document");
	if (!rc) {
		out->value_ns[i] = figure_of(doc, q->stat);
		if (isnan(out->value_ns[i]))
			rc = -ENODATA, snprintf(why, sizeof(why), "no %s wake latency in its "
						"document", stat_names[q->stat]);
	}
	json_decref(doc);
	if (rc) {
		out->trial_failed = true;
		snprintf(err, err_size, "trial %zu: %s", i + 1, why[0] ? why : strerror(-rc));
		return rc;
	}
	y[i] = log(out->value_ns[i]);
	out->trials++;
	return 0;
}

int
al_bisect_decide(const struct al_bisect_req *q, al_bisect_trial_fn trial, void *ud,
		 struct al_bisect_out *out, char *err, size_t err_size)
{
	double *g = NULL, *b = NULL, y[AL_SEQ_N_MAX];
	struct al_seq_base base;
	int rc;

	memset(out, 0, sizeof(*out));
	out->verdict = AL_SEQ_INCONCLUSIVE;
	out->bad_gmean_ns = NAN;
	if (al_seq_check(&q->design))
		return snprintf(err, err_size, "a sequential design out of range"), -EINVAL;
	g = malloc((q->n_good + 1) * sizeof(*g));
	b = malloc((q->n_bad + 1) * sizeof(*b));
	if (!g || !b) {
		rc = -ENOMEM;
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		goto out;
	}
	rc = base_logs("good", q->good, q->n_good, q->stat, g, &out->good_gmean_ns, err, err_size);
	if (!rc && q->n_bad)
		rc = base_logs("bad", q->bad, q->n_bad, q->stat, b, &out->bad_gmean_ns, err,
			       err_size);
	if (rc)
		goto out;
	base = (struct al_seq_base){ g, q->n_good, q->n_bad ? b : NULL, q->n_bad };
	if (q->n_bad && !al_seq_gap(&q->design, &base, &out->gap) && !out->gap.open) {
		out->gated = true;
		al_seq_look(&q->design, &base, NULL, 0, &out->look);
		goto out;
	}
	do {
		rc = one_trial(q, trial, ud, out, y, err, err_size);
		if (!rc)
			rc = al_seq_look(&q->design, &base, y, out->trials, &out->look);
	} while (!rc && out->look.verdict == AL_SEQ_CONTINUE);
	if (!rc)
		out->verdict = out->look.verdict;
out:
	free(g);
	free(b);
	return rc;
}

/* Why the verdict, in a few words. */
static const char *
why_of(const struct al_bisect_out *out)
{
	if (out->gated)
		return "the bad baseline is not worse than the good one by more than the threshold "
		       "beyond the noise: nothing bisect can find";
	switch (out->verdict) {
	case AL_SEQ_GOOD:
		return "the trials lie below the boundary";
	case AL_SEQ_BAD:
		return "the trials lie above the boundary";
	default:
		return "undecided after the last trial";
	}
}

static json_t *
real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

static json_t *
trials_of(const struct al_bisect_out *out)
{
	json_t *a = json_array();

	for (size_t i = 0; a && i < out->trials; i++)
		json_array_append_new(a, json_pack("{s:o, s:o}", "value_ns",
						   real_or_null(out->value_ns[i]), "id",
						   out->id[i] > 0 ? json_integer(out->id[i])
								  : json_null()));
	return a;
}

static json_t *
look_of(const struct al_bisect_out *out)
{
	const struct al_seq_look *l = &out->look;

	if (!l->n)
		return json_null();
	return json_pack("{s:I, s:o, s:[o, o], s:f, s:f}", "trials", (json_int_t)l->n, "ratio",
			 real_or_null(exp(l->contrast)), "ci_ratio", real_or_null(exp(l->lo)),
			 real_or_null(exp(l->hi)), "level", l->level, "df", l->df);
}

json_t *
al_bisect_doc(const struct al_bisect_req *q, const struct al_bisect_out *out, const char *commit,
	      int exit_status)
{
	const struct al_seq_design *d = &q->design;
	json_t *bad = json_null(), *gap = json_null();

	if (q->n_bad)
		bad = json_pack("{s:I, s:o}", "runs", (json_int_t)q->n_bad, "gmean_ns",
				real_or_null(out->bad_gmean_ns));
	if (q->n_bad && out->gap.df > 0)
		gap = json_pack("{s:o, s:o, s:b}", "ratio", real_or_null(exp(out->gap.gap)),
				"lower_bound_ratio", real_or_null(exp(out->gap.lo)), "open",
				out->gap.open);
	return json_pack("{s:s, s:s, s:o, s:s, s:i, s:s, s:s, s:{s:s, s:f, s:i, s:i, s:f}, "
			 "s:{s:I, s:o}, s:o, s:o, s:o, s:o, s:o}",
			 "schema", AL_SCHEMA_BISECT, "tool_version", AL_VERSION, "commit",
			 commit ? al_json_text(commit) : json_null(), "verdict",
			 al_seq_verdict_name(out->verdict), "exit_status", exit_status, "why",
			 why_of(out), "statistic", stat_names[q->stat], "design", "method",
			 "group sequential t test, Bonferroni over the looks", "alpha", d->alpha,
			 "min_trials", (int)d->n_min, "max_trials", (int)d->n_max, "threshold",
			 d->threshold, "good", "runs", (json_int_t)q->n_good, "gmean_ns",
			 real_or_null(out->good_gmean_ns), "bad", bad, "gap", gap, "boundary_ns",
			 real_or_null(exp(out->look.boundary)), "trials", trials_of(out), "look",
			 look_of(out));
}

void
al_bisect_text(const json_t *doc, FILE *f)
{
	const char *stat = al_doc_str(doc, "statistic", "?");
	double good = al_doc_real(doc, "good.gmean_ns", NAN), bnd = al_doc_real(doc, "boundary_ns", NAN);
	const json_t *ci = al_doc_get(doc, "look.ci_ratio");
	size_t n = json_array_size(json_object_get(doc, "trials"));

	fprintf(f, "%s wake latency: good baseline %.1f us (%" JSON_INTEGER_FORMAT " runs)", stat,
		good / 1e3, (json_int_t)al_doc_int(doc, "good.runs", 0));
	if (al_doc_get(doc, "bad.runs"))
		fprintf(f, ", bad baseline %.1f us (%" JSON_INTEGER_FORMAT " runs, %.2fx, at least "
			   "%.2fx)", al_doc_real(doc, "bad.gmean_ns", NAN) / 1e3,
			(json_int_t)al_doc_int(doc, "bad.runs", 0), al_doc_real(doc, "gap.ratio", NAN),
			al_doc_real(doc, "gap.lower_bound_ratio", NAN));
	fprintf(f, "; boundary %.1f us\n", bnd / 1e3);
	if (n)
		fprintf(f, "%zu trial%s: %.2fx the boundary, interval [%.2fx, %.2fx] (each side at "
			   "%.3g)\n", n, n == 1 ? "" : "s", al_doc_real(doc, "look.ratio", NAN),
			json_real_value(json_array_get(ci, 0)), json_real_value(json_array_get(ci, 1)),
			al_doc_real(doc, "look.level", NAN));
	fprintf(f, "%s (exit %" JSON_INTEGER_FORMAT "): %s\n", al_doc_str(doc, "verdict", "?"),
		(json_int_t)al_doc_int(doc, "exit_status", 0), al_doc_str(doc, "why", ""));
}
