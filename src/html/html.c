/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML report: the page (head, CSS, title, footer) around the sections
 * of html-run.c, html-midi.c and html-compare.c, whose plots are drawn by
 * html-timeline.c and html-plot.c; html-table.c has the cells they share.
 * Every string taken from a document goes through al_html_escape(). The
 * markup is polyglot: well-formed XML that browsers read as HTML5.
 */
#define AL_HTML_INTERNAL
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "compare/compare.h"
#include "html-private.h"

static const char css[] =
    "body{font-family:system-ui,-apple-system,'Segoe UI',Roboto,sans-serif;color:#222;"
    "margin:0 auto;max-width:1060px;padding:1em 1.5em 3em;line-height:1.4;background:#fff;"
    "box-sizing:border-box}\n"
    "h1{font-size:1.6em;margin:.2em 0}h2{font-size:1.3em;margin:1.6em 0 .3em;"
    "border-bottom:2px solid #ddd;padding-bottom:.2em}h3{font-size:1.05em;margin:1.2em 0 .4em}\n"
    ".sub,.meta{color:#555;margin:.2em 0}.swatch{display:inline-block;width:.8em;height:.8em;"
    "border-radius:2px;margin-right:.4em;vertical-align:baseline}\n"
    "table{border-collapse:collapse;margin:.4em 0;font-size:.9em}"
    "th,td{border:1px solid #ddd;padding:.2em .5em;text-align:left;vertical-align:top}"
    "th{background:#f4f4f4;font-weight:600}td.num{text-align:right;"
    "font-variant-numeric:tabular-nums;white-space:nowrap}\n"
    "table.kv th{width:12em}.kvs{display:flex;flex-wrap:wrap;gap:1.5em}"
    "tr.phase td{border-bottom-style:none}tr.load td{border-top-style:none;padding-top:0;"
    "overflow-wrap:anywhere}"
    ".kvs>div{flex:1 1 420px;min-width:0}.kvs td{word-break:break-word}\n"
    ".cards{display:flex;flex-wrap:wrap;gap:.6em;margin:.6em 0}.card{border:1px solid #ddd;"
    "border-radius:6px;padding:.4em .8em;min-width:7.5em;background:#fafafa}"
    ".card b{display:block;font-size:1.3em}.card span{color:#555;font-size:.85em}\n"
    ".card.bad{border-color:#e31a1c;background:#fff0f0}.card.good{border-color:#2ca02c}\n"
    ".plots{display:flex;flex-wrap:wrap;gap:1em}figure{margin:.4em 0}"
    "figcaption{color:#555;font-size:.85em;max-width:490px}\n"
    "svg.plot{max-width:100%;height:auto;font-size:11px;font-family:inherit}"
    "svg .area{fill:#fff}svg .frame{fill:none;stroke:#888}svg .grid{stroke:#eee}"
    "svg .tick{stroke:#888}svg text{fill:#333}svg .label{font-size:12px;fill:#222}\n"
    "svg .phase0{fill:#f2f2f2}svg .phase1{fill:#e6eef7}svg .phasename{fill:#555;"
    "font-size:11px}svg .phaseline{stroke:#bbb;stroke-dasharray:2 3}\n"
    "svg .band{fill:#9ecae1;fill-opacity:.75}svg .mean{fill:none;stroke:#08519c;"
    "stroke-width:1.3}svg .interval{fill:none;stroke:#555;stroke-width:1}\n"
    "svg .period{stroke:#e0b000;stroke-width:2;stroke-dasharray:7 4}svg .buffer{stroke:#e31a1c;"
    "stroke-width:2}svg .deadline{font-size:11px}svg .dl-period{fill:#a07c00}"
    "svg .dl-buffer{fill:#c00}\n"
    "svg .xrun{stroke:#e31a1c;stroke-width:1.5}svg .xrunspan{fill:#e31a1c;fill-opacity:.25}"
    "svg .xrunmark{fill:#e31a1c}svg .stall{fill:#999;fill-opacity:.35}\n"
    "svg .spike{fill:#ff7f0e;stroke:#7a3d00;stroke-width:.8}svg .bar{fill:#6baed6;"
    "stroke:#3182bd;stroke-width:.5}svg .ref{stroke:#999;stroke-dasharray:2 2}"
    "svg .reflabel{fill:#777;font-size:10px}svg .legend{font-size:11px}\n"
    ".ok{color:#1a7f1a;font-weight:600}.warn{color:#b26b00;font-weight:600}"
    ".fail{color:#c00;font-weight:600}.skip{color:#777}\n"
    ".better{color:#1a7f1a;font-weight:600}.worse{color:#c00;font-weight:600}"
    ".same{color:#555}.warnings li{color:#b26b00}code{font-size:.9em;word-break:break-all}\n"
    ".heat td{text-align:right;font-size:.75em;padding:1px 4px}.heat th{font-size:.7em}\n"
    "table.why{font-size:.85em}table.why td:last-child{min-width:24em}\n"
    ".small{font-size:.85em;color:#555}footer{margin-top:3em;color:#777;font-size:.85em}\n";

/*
 * The histogram each section plots: a run's wake latencies; a MIDI
 * result's deltas, with their exact extremes when the document has them.
 */
static int
decode_hist(const json_t *d, struct al_dhist *h)
{
	int rc;

	if (al_doc_is_run(d))
		return al_dhist_from_json(al_doc_get(d, "total.histogram.wake_latency_ns"),
					  al_doc_get(d, "total.wake_latency_ns"), h);
	rc = al_dhist_from_json(json_object_get(d, "histogram"), NULL, h);
	if (!rc && h->count && json_is_integer(json_object_get(d, "delta_min_ns")) &&
	    json_is_integer(json_object_get(d, "delta_max_ns")) &&
	    al_doc_int(d, "delta_min_ns", 0) <= al_doc_int(d, "delta_max_ns", 0)) {
		h->min_ns = al_doc_int(d, "delta_min_ns", 0);
		h->max_ns = al_doc_int(d, "delta_max_ns", 0);
	}
	return rc;
}

static void
page_head(FILE *f, const struct al_report_input *in, const char *title)
{
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<meta name=\"generator\" content=\"audiolat ",
	      f);
	esc(f, AL_VERSION);
	fputs("\"/>\n<title>", f);
	esc(f, title);
	if (in->n == 1) {
		fputs(": ", f);
		esc(f, al_doc_label(in->docs[0].doc));
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	esc(f, title);
	fprintf(f, "</h1>\n<p class=\"sub\">%zu result%s · audiolat %s</p>\n", in->n,
		in->n == 1 ? "" : "s", AL_VERSION);
}

static void
page_foot(FILE *f)
{
	fputs("<footer>Made by audiolat ", f);
	esc(f, AL_VERSION);
	fputs(". Wake latency: how late the audio thread "
	      "woke after its period boundary, for every period due (a period a stall swallowed "
	      "counts until the thread was next seen running); max latency is its longest, and "
	      "its share of the buffer the factor. Interval: the time between wake-ups, "
	      "latencytest's total latency. 1MS/2MS factor: the share of periods within 1 ms / "
	      "2 ms of on time.</footer>\n</body>\n</html>\n",
	      f);
}

static int
html_write(const struct al_report_input *in, FILE *f)
{
	const char *title = in->title ? in->title : "audiolat report";
	const json_t *cmp = in->compare;
	struct html_ctx c = {.f = f};
	struct al_dhist *h;
	size_t i, runs = 0;
	char err[160];
	int rc = 0;

	for (i = 0; i < in->n; i++)
		if (al_doc_check(in->docs[i].doc, err, sizeof(err)))
			return -EINVAL;
	h = calloc(in->n ? in->n : 1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (i = 0; i < in->n && !rc; i++) {
		rc = decode_hist(in->docs[i].doc, &h[i]);
		runs += al_doc_is_run(in->docs[i].doc);
	}
	if (rc)
		goto out;
	page_head(f, in, title);
	/* groups of runs: the comparison of the groups is the page */
	if (cmp && !strcmp(al_doc_str(cmp, "schema", ""), AL_SCHEMA_COMPARE_GROUPS)) {
		al__html_groups_section(&c, cmp);
		page_foot(f);
		if (fflush(f) || ferror(f))
			rc = -EIO;
		goto out;
	}
	/* a comparison of runs; MIDI results have no section of their comparison */
	if (cmp && !strcmp(al_doc_str(cmp, "schema", ""), AL_SCHEMA_COMPARE))
		al__html_compare_section(f, cmp);
	if (runs > 1)
		al__html_overview(&c, in->docs, in->n, h);
	for (i = 0; i < in->n; i++) {
		if (al_doc_is_run(in->docs[i].doc))
			al__html_run_section(&c, &in->docs[i], i, in->n, &h[i]);
		else
			al__html_midi_section(&c, &in->docs[i], i, in->n, &h[i]);
	}
	page_foot(f);
	if (fflush(f) || ferror(f))
		rc = -EIO;
out:
	for (i = 0; i < in->n; i++)
		al_dhist_free(&h[i]);
	free(h);
	return rc;
}

const struct al_reporter al_reporter_html = {
	.name = "html",
	.file_ext = "html",
	.summary = "one self-contained page with plots: the comparison, an overview, every result",
	.write = html_write,
};
