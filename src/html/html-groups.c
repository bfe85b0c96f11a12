/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML page of a comparison of groups (audiolat.compare-groups/1,
 * report --group-by): the table of the groups with the run-to-run
 * min-max, the verdicts, and a strip plot of every run's p99 per group on
 * a log scale, the run-to-run spread the verdicts stand on.
 */
#define AL_HTML_INTERNAL
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "core/units.h"
#include "compare/compare.h"
#include "html-private.h"

static void
no_label(double v, double span, char *buf, size_t size)
{
	(void)v;
	(void)span;
	if (size)
		buf[0] = '\0';
}

static void
spread_cell(FILE *f, const json_t *s)
{
	char a[32], b[32], c[32];

	if (!json_is_number(json_object_get(s, "gmean"))) {
		fputs("<td class=\"num\">-</td>", f);
		return;
	}
	al__html_dur(al__html_sat_i64(al_doc_real(s, "gmean", 0)), a, sizeof(a));
	al__html_dur(al__html_sat_i64(al_doc_real(s, "min", 0)), b, sizeof(b));
	al__html_dur(al__html_sat_i64(al_doc_real(s, "max", 0)), c, sizeof(c));
	fprintf(f, "<td class=\"num\">%s <span class=\"small\">(%s – %s)</span></td>", a, b, c);
}

static void
strip_plot(struct html_ctx *c, const json_t *groups)
{
	double lo = INFINITY, hi = -INFINITY, v, y;
	size_t n = json_array_size(groups), i, j;
	const json_t *g, *r;
	struct al_plot p;

	json_array_foreach(groups, i, g)
		json_array_foreach(al_doc_get(g, "p99_ns.runs"), j, r)
			if (json_is_number(r) && json_number_value(r) > 0) {
				lo = fmin(lo, json_number_value(r));
				hi = fmax(hi, json_number_value(r));
			}
	if (!n || !isfinite(lo))
		return;
	fputs("<figure>", c->f);
	al_plot_begin(&p, c->f, ++c->plot_id, 720, 60 + 28.0 * (double)n, 170, 12, 20, 40,
		      "p99 wake latency of every run, per group");
	p.x = (struct al_scale){ al__html_decade_floor(lo), al__html_decade_ceil(hi * 1.01),
				 p.left, p.right, true };
	p.y = (struct al_scale){ -0.5, (double)n - 0.5, p.top, p.bottom, false };
	al_plot_axes(&p, "p99 wake latency of a run", NULL, al_tick_ns, no_label);
	json_array_foreach(groups, i, g) {
		y = al_scale_px(&p.y, (double)i);
		al_svg_text(c->f, p.left - 6, y + 4, "end", "label", al_doc_str(g, "group", "?"));
		json_array_foreach(al_doc_get(g, "p99_ns.runs"), j, r) {
			if (!json_is_number(r))
				continue;
			v = json_number_value(r);
			fprintf(c->f, "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3.5\" fill=\"%s\" "
				      "fill-opacity=\"0.7\"/>\n",
				al_scale_px(&p.x, v), y, al__html_color(i));
		}
		v = al_doc_real(g, "p99_ns.gmean", NAN);
		if (isfinite(v))
			fprintf(c->f, "<line class=\"mean\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" "
				      "y2=\"%.1f\"/>\n",
				al_scale_px(&p.x, v), al_scale_px(&p.x, v), y - 10, y + 10);
	}
	al_plot_end(&p);
	fputs("<figcaption>Every run's p99 wake latency (a dot), the group's geometric mean "
	      "(the bar). The verdicts stand on this spread between runs, not on the periods "
	      "within one.</figcaption></figure>\n",
	      c->f);
}

void
al__html_groups_section(struct html_ctx *c, const json_t *cmp)
{
	const json_t *groups = json_object_get(cmp, "groups"), *g, *v;
	FILE *f = c->f;
	size_t i;

	fputs("<h2>Groups by ", f);
	esc(f, al_doc_str(cmp, "group_by", "group"));
	fputs("</h2>\n<p class=\"meta\">Baseline: ", f);
	esc(f, al_doc_str(cmp, "baseline", "?"));
	fprintf(f, ". Each figure is the geometric mean over the group's runs, the run-to-run "
		   "min – max beside it; a verdict needs %lld runs a group.</p>\n",
		(long long)al_doc_int(cmp, "min_runs", 3));
	fputs("<table><tr><th>group</th><th>runs</th><th>p50 wake</th><th>p99 wake</th>"
	      "<th>max wake</th><th>xruns</th></tr>\n",
	      f);
	json_array_foreach(groups, i, g) {
		fputs("<tr>", f);
		al__html_td_str(f, al_doc_str(g, "group", "?"));
		al__html_td_int(f, g, "runs");
		spread_cell(f, json_object_get(g, "p50_ns"));
		spread_cell(f, json_object_get(g, "p99_ns"));
		spread_cell(f, json_object_get(g, "max_ns"));
		al__html_td_int(f, g, "xruns");
		fputs("</tr>\n", f);
	}
	fputs("</table>\n<ul>\n", f);
	json_array_foreach(json_object_get(cmp, "verdicts"), i, v) {
		const char *verd = al_doc_str(v, "verdict", "?");
		const char *cls = !strcmp(verd, "worse") ? "worse" : !strcmp(verd, "better") ?
								      "better" : "same";

		fputs("<li>", f);
		esc(f, al_doc_str(v, "group", "?"));
		fputs(" vs ", f);
		esc(f, al_doc_str(v, "baseline", "?"));
		fputs(", ", f);
		esc(f, al_doc_str(v, "statistic", "?"));
		fputs(" wake latency: ", f);
		if (json_is_number(json_object_get(v, "difference_pct")))
			fprintf(f, "%+.1f %% (ratio %.3f – %.3f, %.1f %% CI across runs): ",
				al_doc_real(v, "difference_pct", 0),
				json_number_value(json_array_get(json_object_get(v, "ratio_ci"), 0)),
				json_number_value(json_array_get(json_object_get(v, "ratio_ci"), 1)),
				100 * al_doc_real(v, "confidence", 0.95));
		fprintf(f, "<span class=\"%s\">", cls);
		esc(f, verd);
		fputs("</span>", f);
		if (json_is_number(json_object_get(v, "detectable_ns")))
			fprintf(f, " (would have seen \u00b1%.1f \u00b5s)",
				al_doc_real(v, "detectable_ns", 0) / 1e3);
		if (al_doc_str(v, "why", NULL)) {
			fputs(" (", f);
			esc(f, al_doc_str(v, "why", ""));
			fputs(")", f);
		}
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
	strip_plot(c, groups);
}
