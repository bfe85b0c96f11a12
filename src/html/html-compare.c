/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The comparison (audiolat.compare/1) and the overview of several runs. */
#define AL_HTML_INTERNAL
#include <inttypes.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "html-private.h"

/* A signed duration: "+1.2 µs", "-3.000 ms", "0 ns". */
static void
fmt_sdur(int64_t ns, char *buf, size_t size)
{
	if (ns > 0 && size > 1) {
		buf[0] = '+';
		al__html_dur(ns, buf + 1, size - 1);
	} else {
		al__html_dur(ns, buf, size);
	}
}

static void
ci_cell(FILE *f, const json_t *st)
{
	char lo[40] = "-∞", hi[40] = "+∞";

	if (json_is_number(json_object_get(st, "ci_low_ns")))
		fmt_sdur(al_doc_int(st, "ci_low_ns", 0), lo, sizeof(lo));
	if (json_is_number(json_object_get(st, "ci_high_ns")))
		fmt_sdur(al_doc_int(st, "ci_high_ns", 0), hi, sizeof(hi));
	fprintf(f, "<td class=\"num\">%.4g %%: %s … %s</td>",
		100 * al_doc_real(st, "confidence", 0.95), lo, hi);
}

/* One scope's results side by side. */
static void
scope_rows(FILE *f, const json_t *cmp, const json_t *scope)
{
	static const char *const figures[9] = {
		"max_latency_ns", "max_latency_pct_of_buffer", "within_1ms_pct",
		"within_2ms_pct", "wake_p50_ns", "wake_p99_ns", "wake_p999_ns",
		"max_interval_ns", "xruns",
	};
	const json_t *row;
	size_t j;

	fputs("<table class=\"cmp\"><thead><tr><th></th><th>result</th>"
	      "<th>max latency</th><th>% of buffer</th><th>1MS factor</th><th>2MS factor</th>"
	      "<th>p50 wake</th><th>p99 wake</th><th>p99.9 wake</th><th>max interval</th>"
	      "<th>xruns</th><th>predicted 1 h</th><th>predicted 24 h</th></tr></thead><tbody>\n",
	      f);
	json_array_foreach(json_object_get(scope, "rows"), j, row)
	{
		const char *key = al_doc_str(row, "key", "?");

		fputs("<tr>", f);
		al__html_td_str(f, key);
		al__html_td_str(f, al_doc_str(al_compare_result(cmp, key), "label", NULL));
		al__html_td_figures(f, row, figures);
		al__html_tail_levels(f, json_object_get(row, "tail"));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* One row of verdicts: a statistic of a result against the baseline. */
static void
verdict_row(FILE *f, const json_t *c, const json_t *st)
{
	const char *v = al_doc_str(st, "verdict", "?");
	const char *cls = !strcmp(v, "better") ? "better" : !strcmp(v, "worse") ? "worse" : "same";
	char d[32];

	fputs("<tr><td>", f);
	esc(f, al_doc_str(c, "key", "?"));
	fputs(" vs ", f);
	esc(f, al_doc_str(c, "baseline", "?"));
	fputs("</td>", f);
	al__html_td_str(f, al_doc_str(st, "name", NULL));
	al__html_td_dur(f, st, "baseline_ns");
	al__html_td_dur(f, st, "value_ns");
	fmt_sdur(al_doc_int(st, "diff_ns", 0), d, sizeof(d));
	fprintf(f, "<td class=\"num\">%s", d);
	if (json_is_number(json_object_get(st, "diff_pct")))
		fprintf(f, " (%+.1f %%)", al_doc_real(st, "diff_pct", 0));
	fputs("</td>", f);
	ci_cell(f, st);
	fprintf(f, "<td class=\"%s\">", cls);
	esc(f, v);
	fputs("</td>", f);
	/* within one run each; what no difference could have seen */
	if (strcmp(cls, "same"))
		fputs("<td>within-run only</td>", f);
	else if (json_is_number(json_object_get(st, "detectable_ns"))) {
		fmt_sdur(al_doc_int(st, "detectable_ns", 0), d, sizeof(d));
		fprintf(f, "<td>would have seen ±%s</td>", d[0] == '+' ? d + 1 : d);
	} else
		fputs("<td></td>", f);
	fputs("</tr>\n", f);
}

/* One scope's verdicts, when it has any. */
static void
scope_verdicts(FILE *f, const json_t *scope)
{
	const json_t *c, *st;
	size_t j, k;

	if (!json_array_size(json_object_get(scope, "comparisons")))
		return;
	fprintf(f,
		"<table class=\"verdicts\"><thead><tr><th></th><th>wake latency</th>"
		"<th>baseline</th><th>result</th><th>difference</th><th>CI (Holm's level)</th>"
		"<th>verdict</th><th></th></tr></thead><tbody>\n");
	json_array_foreach(json_object_get(scope, "comparisons"), j, c)
	{
		json_array_foreach(json_object_get(c, "statistics"), k, st)
		{
			verdict_row(f, c, st);
		}
	}
	fputs("</tbody></table>\n", f);
}

void
al__html_compare_section(FILE *f, const json_t *cmp)
{
	const json_t *scope;
	size_t i;

	fputs("<section class=\"compare\" id=\"compare\">\n<h2>Comparison</h2>\n", f);
	fprintf(f,
		"<p class=\"sub\">Each result against %s (the baseline): confidence "
		"intervals for the difference, p50 and p99 by a bootstrap from the histograms, "
		"max by an exceedance test on the time-series windows (seed %" PRId64
		"), all %" PRId64 " verdicts corrected together by Holm (%.0f %% for all), each "
		"interval at its step's level. One run each: the spread within the runs, not "
		"between them. Lower is better.</p>\n",
		al_doc_str(cmp, "baseline", "A"), al_doc_int(cmp, "method.seed", 0),
		al_doc_int(cmp, "method.multiple_testing.tests", 0),
		100 * al_doc_real(cmp, "method.confidence", 0.95));
	json_array_foreach(json_object_get(cmp, "scopes"), i, scope)
	{
		const char *phase = al_doc_str(scope, "phase", NULL);

		fputs("<h3>", f);
		if (phase) {
			fputs("Phase ", f);
			esc(f, phase);
			if (al_doc_int(scope, "occurrence", 0))
				fprintf(f, " (#%" PRId64 ")",
					al_doc_int(scope, "occurrence", 0) + 1);
		} else {
			fputs("Whole run", f);
		}
		fputs("</h3>\n", f);
		scope_rows(f, cmp, scope);
		scope_verdicts(f, scope);
	}
	fputs("</section>\n", f);
}

void
al__html_overview(struct html_ctx *c, const struct al_report_doc *in, size_t n,
		  const struct al_dhist *h)
{
	const json_t **docs = calloc(n, sizeof(*docs));
	struct al_dhist *hs = calloc(n, sizeof(*hs));
	size_t *idx = calloc(n, sizeof(*idx)), i, m = 0;

	if (!docs || !hs || !idx) {
		free(docs);
		free(hs);
		free(idx);
		return;
	}
	fputs("<section class=\"overview\" id=\"overview\">\n<h2>All results</h2>\n"
	      "<table class=\"cmp\"><thead><tr><th></th><th>result</th><th>host</th>"
	      "<th>kernel</th><th>buffer</th><th>max latency</th><th>% of buffer</th>"
	      "<th>1MS factor</th><th>2MS factor</th><th>p99 wake</th><th>max interval</th>"
	      "<th>xruns</th></tr></thead><tbody>\n",
	      c->f);
	for (i = 0; i < n; i++) {
		const json_t *d = in[i].doc;
		char buf[96];

		if (!al_doc_is_run(d))
			continue; /* MIDI results have their own sections only */
		docs[m] = d;
		hs[m] = h[i]; /* a shallow copy: the buckets stay h[i]'s */
		idx[m++] = i;
		fprintf(c->f,
			"<tr><td><span class=\"swatch\" style=\"background:%s\"></span>"
			"<a href=\"#result-%zu\">%c</a></td>",
			al__html_color(i), i + 1, (char)('A' + i % 26));
		al__html_td_str(c->f, al_doc_label(d));
		al__html_td_str(c->f, al_doc_str(d, "system.hostname", NULL));
		al__html_td_str(c->f, al_doc_str(d, "system.kernel_release", NULL));
		snprintf(buf, sizeof(buf), "%" PRId64 " x %" PRId64 " @ %" PRId64 " Hz",
			 al_doc_int(d, "config.periods", 0),
			 al_doc_int(d, "config.period_frames", 0), al_doc_int(d, "config.rate", 0));
		al__html_td_str(c->f, buf);
		al__html_td_dur(c->f, d, "total.wake_latency_ns.max");
		al__html_td_real(c->f, d, "total.max_latency_pct_of_buffer", "%.1f", " %");
		al__html_td_real(c->f, d, "total.within_1ms_pct", "%.3f", "");
		al__html_td_real(c->f, d, "total.within_2ms_pct", "%.3f", "");
		al__html_td_dur(c->f, d, "total.wake_latency_ns.p99");
		al__html_td_dur(c->f, d, "total.interval_ns.max");
		al__html_td_int(c->f, d, "total.xruns");
		fputs("</tr>\n", c->f);
	}
	fputs("</tbody></table>\n<figure>\n", c->f);
	al__html_plot_ccdf(c, docs, hs, m, idx,
			   "share of periods later than x for every result, log scales");
	fputs("<figcaption>The wake latency of every result as a complementary CDF: lower and "
	      "further left is better.</figcaption>\n</figure>\n</section>\n",
	      c->f);
	free(docs);
	free(hs);
	free(idx);
}
