/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat compare's comparison of single runs as text and Markdown
 * (compare.c makes the audiolat.compare/1 document they are rendered
 * from): seed 000's table per scope, a line per verdict with its
 * interval at its level, and what the verdicts rest on.
 */
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "core/text.h"
#include "compare.h"
#include "core/units.h"
#include "doc/tail-doc.h"
#include "doc/view.h"


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

/* The tail beyond the run of each row (docs/tail.md): for information, in no verdict. */
static void
tail_table(const json_t *cmp, const json_t *scope, FILE *f)
{
	const json_t *row;
	char label[96], mx[32], h1[64], h24[64];
	size_t i;

	fprintf(f, "   %-24s %12s  %-32s %s\n", "tail beyond the run", "observed max",
		"predicted 1 h (95 %)", "predicted 24 h (95 %)");
	json_array_foreach(json_object_get(scope, "rows"), i, row)
	{
		const char *key = al_doc_str(row, "key", "?");
		const json_t *tail = json_object_get(row, "tail");

		al_text_term_safe(al_doc_str(al_compare_result(cmp, key), "label", "?"), label,
				  sizeof(label), 24);
		al_doc_tail_max_text(tail, al_format_duration, mx, sizeof(mx));
		al_doc_tail_text(tail, "predicted_1h", al_format_duration, h1, sizeof(h1));
		al_doc_tail_text(tail, "predicted_24h", al_format_duration, h24, sizeof(h24));
		fprintf(f, "%-2s ", key);
		al_text_pad(f, label, 24, false);
		fprintf(f, " %12s  %-32s %s\n", mx, h1, h24);
	}
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

/*
 * The verdict and what it rests on: "worse (within-run only)" (one run
 * each: the spread within the runs decided, not the spread between runs),
 * "no significant difference (would have seen +-3.2 us)" (the interval's
 * half-width: the smallest difference this comparison could have shown).
 */
static void
verdict_text(const json_t *st, char *buf, size_t size, bool micro_sign)
{
	const char *v = al_doc_str(st, "verdict", "?");
	char w[32];

	if (!strcmp(v, "worse") || !strcmp(v, "better")) {
		snprintf(buf, size, "%s (within-run only)", v);
	} else if (json_is_number(json_object_get(st, "detectable_ns"))) {
		fmt_dur(w, sizeof(w), al_doc_real(st, "detectable_ns", 0), false,
			al_doc_real(st, "detectable_ns", 0), micro_sign);
		snprintf(buf, size, "%s (would have seen %s%s)", v, micro_sign ? "\u00b1" : "+-", w);
	} else {
		snprintf(buf, size, "%s", v);
	}
}

/* The level of one statistic's interval, in %: Holm's for its step. */
static double
stat_confidence_pct(const json_t *cmp, const json_t *st)
{
	return 100 * al_doc_real(st, "confidence", al_doc_real(cmp, "method.confidence", 0.95));
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
			char diff[32], ci[80], pct[24] = "", verd[96];
			double scale = scale_of(st);

			if (unmeasured_text(c, st, f, title))
				continue;
			fmt_dur(diff, sizeof(diff), al_doc_real(st, "diff_ns", 0), true, scale,
				false);
			if (json_is_number(json_object_get(st, "diff_pct")))
				snprintf(pct, sizeof(pct), " (%+.1f %%)",
					 al_doc_real(st, "diff_pct", 0));
			ci_text(st, ci, sizeof(ci), false);
			verdict_text(st, verd, sizeof(verd), false);
			fprintf(f, "%s vs %s, %s, %s wake latency: %s%s, %.4g %% CI %s: %s\n",
				al_doc_str(c, "key", "?"), al_doc_str(c, "baseline", "?"), title,
				al_doc_str(st, "name", "?"), diff, pct, stat_confidence_pct(cmp, st),
				ci, verd);
		}
	}
}

/* What the verdicts rest on, in one paragraph. */
static void
method_text(const json_t *cmp, FILE *f)
{
	fprintf(f, "Holm's correction over the %" PRId64 " verdicts above (%.0f %% for all of "
		   "them together: each interval is at its step's level). One run each: the "
		   "spread within the runs decided, not the spread between runs, so a verdict "
		   "here is not one on a change; compare repeated runs as groups (--group-by "
		   "label) for that.\n",
		al_doc_int(cmp, "method.multiple_testing.tests", 0), confidence_pct(cmp));
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
		tail_table(cmp, scope, f);
	}
	fprintf(f, "\n");
	json_array_foreach(scopes, i, scope)
	    text_verdicts(cmp, scope, f, scope_title(scope, title, sizeof(title)));
	method_text(cmp, f);
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

void
al_compare_md_escape(FILE *f, const char *s, size_t max_chars)
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
			al_compare_md_escape(f, al_doc_str(al_compare_result(cmp, key), "label", "?"),
					     60);
			fprintf(f, " | %s | %s | %s | %s | %s | %s | %s |\n", b[0], b[1], b[2],
				b[3], b[4], b[5], b[6]);
		}
		if (!json_array_size(json_object_get(scope, "comparisons")))
			continue;
		fprintf(f, "\n| | wake latency | baseline | result | difference | CI | "
			   "verdict |\n|---|---|--:|--:|--:|--:|---|\n");
		json_array_foreach(json_object_get(scope, "comparisons"), j, c)
		{
			json_array_foreach(json_object_get(c, "statistics"), k, st)
			{
				double scale = scale_of(st);
				char ci[80], pct[24] = "", verd[96];

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
				verdict_text(st, verd, sizeof(verd), true);
				fprintf(f, "| %s vs %s | %s | %s | %s | %s%s | %.4g %% %s | %s |\n",
					al_doc_str(c, "key", "?"), al_doc_str(c, "baseline", "?"),
					al_doc_str(st, "name", "?"), b[0], b[1], b[2], pct,
					stat_confidence_pct(cmp, st), ci, verd);
			}
		}
	}
	fprintf(f, "\n");
	json_array_foreach(json_object_get(cmp, "results"), i, r)
	{
		fprintf(f, "- %s: ", al_doc_str(r, "key", "?"));
		al_compare_md_escape(f, al_doc_str(r, "label", "?"), 60);
		fprintf(f, ", kernel ");
		al_compare_md_escape(f, al_doc_str(r, "kernel_release", "?"), 60);
		fprintf(f, ", ");
		al_compare_md_escape(f, al_doc_str(r, "backend", "?"), 20);
		fprintf(f, " %" PRId64 " Hz, %" PRId64 " x %" PRId64 " frames\n",
			al_doc_int(r, "rate", 0), al_doc_int(r, "periods", 0),
			al_doc_int(r, "period_frames", 0));
	}
	fprintf(f,
		"\nConfidence intervals of the difference to %s: p50 and p99 by a "
		"bootstrap from the histograms, max by an exceedance test on the "
		"time-series windows (audiolat compare, seed %" PRId64 "), each at its level "
		"by Holm's correction over the %" PRId64 " verdicts (%.0f %% for all together). "
		"One run each: the spread within the runs, not between them.\n",
		al_doc_str(cmp, "baseline", "A"), al_doc_int(cmp, "method.seed", 0),
		al_doc_int(cmp, "method.multiple_testing.tests", 0), confidence_pct(cmp));
}
