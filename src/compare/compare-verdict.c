/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What audiolat compare asks of its results (compare.h): of one kind, run
 * or MIDI; compared one by one or by groups; and what its exit status
 * asks of the comparison: is anything significantly worse?
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "compare.h"
#include "doc/view.h"

long
al_compare_odd_one(const struct al_report_doc *in, size_t n, bool *midi)
{
	*midi = n > 0 && al_doc_is_midi(in[0].doc);
	for (size_t i = 0; i < n; i++)
		if (!(*midi ? al_doc_is_midi(in[i].doc) : al_doc_is_run(in[i].doc)))
			return (long)i;
	return -1;
}

static const struct {
	const char *name;
	unsigned bit;
} gates[] = {
	{ "p50", AL_GATE_P50 },
	{ "p99", AL_GATE_P99 },
	{ "max", AL_GATE_MAX },
};

int
al_gate_parse(const char *s, unsigned *gate)
{
	const char *p = s, *e;
	size_t i, len;

	*gate = 0;
	if (!s || !*s)
		return -EINVAL;
	for (;;) {
		e = strchr(p, ',');
		len = e ? (size_t)(e - p) : strlen(p);
		for (i = 0; i < sizeof(gates) / sizeof(gates[0]); i++)
			if (strlen(gates[i].name) == len && !strncmp(p, gates[i].name, len))
				break;
		if (i == sizeof(gates) / sizeof(gates[0]))
			return *gate = 0, -EINVAL;
		*gate |= gates[i].bit;
		if (!e)
			return 0;
		p = e + 1;
	}
}

bool
al_gate_has(unsigned gate, const char *name)
{
	size_t i, len;

	for (i = 0; i < sizeof(gates) / sizeof(gates[0]); i++) {
		len = strlen(gates[i].name);
		/* "p99", or MIDI's "p99_abs_jitter" */
		if ((gate & gates[i].bit) && !strncmp(name, gates[i].name, len) &&
		    (name[len] == '\0' || name[len] == '_'))
			return true;
	}
	return false;
}

/* A verdict the gate cannot decide on: no interval to decide with. */
static bool
undecided(const char *verdict)
{
	return !strcmp(verdict, "not enough data") || !strcmp(verdict, "not measured");
}

/* The gate over groups: the first gated verdict "worse", else the first undecided one. */
static void
gate_groups(const json_t *cmp, unsigned gate, struct al_compare_out *out)
{
	const json_t *v;
	size_t i, n = 0;

	json_array_foreach(json_object_get(cmp, "verdicts"), i, v)
	{
		const char *verd = al_doc_str(v, "verdict", "");

		if (!al_gate_has(gate, al_doc_str(v, "statistic", "")))
			continue;
		n++;
		if (!strcmp(verd, "worse") && !out->worse[0])
			snprintf(out->worse, sizeof(out->worse),
				 "group %s is significantly worse than %s (%s wake latency)",
				 al_doc_str(v, "group", "?"), al_doc_str(v, "baseline", "?"),
				 al_doc_str(v, "statistic", "?"));
		else if (undecided(verd) && !out->insufficient[0])
			snprintf(out->insufficient, sizeof(out->insufficient),
				 "group %s against %s, %s wake latency: %s%s%s%s",
				 al_doc_str(v, "group", "?"), al_doc_str(v, "baseline", "?"),
				 al_doc_str(v, "statistic", "?"), verd,
				 al_doc_str(v, "why", NULL) ? " (" : "", al_doc_str(v, "why", ""),
				 al_doc_str(v, "why", NULL) ? ")" : "");
	}
	if (!n && !out->insufficient[0])
		snprintf(out->insufficient, sizeof(out->insufficient),
			 "one group only (%s): nothing to compare it with",
			 al_doc_str(cmp, "baseline", "?"));
}

/* The gate over single runs (with within_run): the same over every scope. */
static void
gate_runs(const json_t *cmp, unsigned gate, struct al_compare_out *out)
{
	const json_t *scope, *c, *st;
	size_t i, j, k;

	json_array_foreach(json_object_get(cmp, "scopes"), i, scope)
		json_array_foreach(json_object_get(scope, "comparisons"), j, c)
			json_array_foreach(json_object_get(c, "statistics"), k, st)
	{
		const char *verd = al_doc_str(st, "verdict", "");
		const char *key = al_doc_str(c, "key", al_doc_str(c, "b", "?"));

		if (!al_gate_has(gate, al_doc_str(st, "name", "")))
			continue;
		if (!strcmp(verd, "worse") && !out->worse[0])
			snprintf(out->worse, sizeof(out->worse),
				 "%s is significantly worse than the baseline within the runs (%s)", key,
				 al_doc_str(st, "name", "?"));
		else if (undecided(verd) && !out->insufficient[0])
			snprintf(out->insufficient, sizeof(out->insufficient), "%s against the "
				 "baseline, %s: %s", key, al_doc_str(st, "name", "?"), verd);
	}
}

/* The results all of one kind, else -EPROTO naming the first of another. */
static int
one_kind(const struct al_report_doc *in, size_t n, bool *midi, char *err, size_t err_size)
{
	char name[256], schema[64];
	long odd = al_compare_odd_one(in, n, midi);

	if (odd < 0)
		return 0;
	al_text_term_safe(in[odd].source, name, sizeof(name), sizeof(name));
	al_text_term_safe(al_doc_str(in[odd].doc, "schema", "?"), schema, sizeof(schema),
			  sizeof(schema));
	snprintf(err, err_size, "%s: schema %s: compare takes audiolat.run results, or "
		 "audiolat.midi/1 results of midi record/analyze (not mixed)", name, schema);
	return -EPROTO;
}

/*
 * The runs' boundaries all of one kind (docs/truth.md, "Measured or
 * fitted"): a latency measured on the device's or server's clock is not
 * comparable with jitter against a frame clock fitted to the wake-ups.
 * A document without the field (written before it) is taken as measured.
 */
static int
one_boundary(const struct al_report_doc *in, size_t n, char *err, size_t err_size)
{
	char a[256], b[256];

	for (size_t i = 1; i < n; i++) {
		bool f0 = !strcmp(al_doc_str(in[0].doc, "boundary", "measured"), "fitted");
		bool fi = !strcmp(al_doc_str(in[i].doc, "boundary", "measured"), "fitted");

		if (f0 == fi)
			continue;
		al_text_term_safe(in[0].source, a, sizeof(a), sizeof(a));
		al_text_term_safe(in[i].source, b, sizeof(b), sizeof(b));
		snprintf(err, err_size, "%s has %s boundaries, %s %s: a latency on the device's or "
			 "server's clock and jitter against a fitted frame clock are not compared "
			 "(docs/truth.md)", a, f0 ? "fitted" : "measured", b, fi ? "fitted" : "measured");
		return -EPROTO;
	}
	return 0;
}

int
al_compare_docs(const struct al_report_doc *in, size_t n, const struct al_compare_req *q,
		struct al_compare_out *out, char *err, size_t err_size)
{
	int rc;

	memset(out, 0, sizeof(*out));
	if (!n)
		return snprintf(err, err_size, "no runs in the results database"), -ENODATA;
	rc = one_kind(in, n, &out->midi, err, err_size);
	if (!rc && !out->midi)
		rc = one_boundary(in, n, err, err_size);
	if (rc)
		return rc;
	out->groups = q->group && !out->midi;
	if (out->groups) {
		rc = al_compare_groups(in, n, &q->go, &out->cmp, err, err_size);
		if (!rc)
			gate_groups(out->cmp, q->gate, out);
		return rc;
	}
	if (out->midi && n > 26)
		return snprintf(err, err_size, "at most 26 MIDI results"), -EINVAL;
	rc = out->midi ? al_compare_midi(in, n, &q->co, &out->cmp) : al_compare(in, n, &q->co, &out->cmp);
	if (rc) /* a document it cannot compare is bad input, not a bad command line */
		return snprintf(err, err_size, "%s", strerror(-rc)), rc == -EINVAL ? -EPROTO : rc;
	if (q->within_run)
		gate_runs(out->cmp, q->gate, out);
	else
		snprintf(out->insufficient, sizeof(out->insufficient),
			 "one run each: the spread between runs is not known, and a gate decides on "
			 "it (compare groups of runs, --group-by label, %d a group at least; or "
			 "--within-run to gate on the spread within the runs)", AL_GROUP_MIN_RUNS);
	return 0;
}
