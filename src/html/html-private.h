/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Shared between the files of the HTML report only. From the top down:
 * html.c (the page) calls the sections, html-run.c, html-midi.c and
 * html-compare.c; they call the plots, html-timeline.c and html-plot.c;
 * everything calls html-table.c. No file calls one above it.
 */
#ifndef AL_REPORT_HTML_PRIVATE_H
#define AL_REPORT_HTML_PRIVATE_H

#ifndef AL_HTML_INTERNAL
#error "html-private.h is for src/report/html*.c only"
#endif

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "doc/view.h"
#include "doc/escape.h"
#include "doc/render.h"
#include "svg.h"

/* The page being written. */
struct html_ctx {
	FILE *f;
	int plot_id; /* the last plot's id: each plot takes the next one */
};

/* Every string from a document is written with this. */
static inline void
esc(FILE *f, const char *s)
{
	al_html_escape(f, s);
}

/* ---- html-table.c: cells, rows and small blocks ------------------------------------------ */

/* The colour of the result at place i of the page. */
const char *al__html_color(size_t i);
/* Open the section of result idx of n and its <h2>, with its colour and letter when n > 1. */
void al__html_section_begin(FILE *f, const char *cls, size_t idx, size_t n);
/* The end of a section's meta line: when it started, where it came from (may be NULL). */
void al__html_meta_end(FILE *f, const json_t *doc, const char *source);
/* A duration for a table: "812 ns", "15.2 µs", "1.352 ms", "3.100 s". */
void al__html_dur(int64_t ns, char *buf, size_t size);
/* <td> with an escaped string, "-" when missing or empty. */
void al__html_td_str(FILE *f, const char *s);
/* <td class="num"> with the figure at path in o, "-" when it has none. */
void al__html_td_dur(FILE *f, const json_t *o, const char *path);
void al__html_td_real(FILE *f, const json_t *o, const char *path, const char *fmt,
		      const char *unit);
void al__html_td_int(FILE *f, const json_t *o, const char *path);
/*
 * Seed 000's figures as nine cells, one format each: max latency, % of
 * buffer, within 1 ms, within 2 ms, p50, p99 and p99.9 wake latency, max
 * interval, xruns. path[k] names each in o (a compare row and a phase
 * name them differently).
 */
void al__html_td_figures(FILE *f, const json_t *o, const char *const path[9]);
/* A row of a key/value table; value already formatted (escaped here), NULL "-". */
void al__html_kv(FILE *f, const char *key, const char *value);
/* A row with the string, integer (and unit), duration or yes/no at path in doc. */
void al__html_kv_str(FILE *f, const json_t *doc, const char *key, const char *path);
void al__html_kv_int(FILE *f, const json_t *doc, const char *key, const char *path,
		     const char *unit);
void al__html_kv_dur(FILE *f, const json_t *doc, const char *key, const char *path);
void al__html_kv_bool(FILE *f, const json_t *doc, const char *key, const char *path);
/* Copy at most max_chars characters of UTF-8 text (size >= 4), with "…" when cut. */
void al__html_truncate_utf8(const char *in, char *out, size_t size, size_t max_chars);
/* One cause of a spike, escaped: "irq eth0 [42] 120.0 µs (35.1 %)". */
void al__html_cause_text(FILE *f, const json_t *c);
/* The document's "warnings" as a list; nothing when it has none. */
void al__html_warnings(FILE *f, const json_t *doc);
/* The table of "system.checks"; nothing when the document has none. */
void al__html_checks_table(FILE *f, const json_t *doc);

/* ---- html-plot.c: distributions, and what every plot draws ----------------------------- */

double al__html_decade_floor(double v);
double al__html_decade_ceil(double v);
/* A number from a document as int64, saturated (a cast of 1e300 is undefined). */
int64_t al__html_sat_i64(double v);
/* A horizontal deadline at ns, labelled in the right margin with its time. */
void al__html_deadline_h(struct al_plot *p, double ns, const char *cls, const char *name);
/* A vertical deadline at ns on a latency x axis, labelled at the top. */
void al__html_deadline_v(struct al_plot *p, double ns, const char *cls, const char *name);

struct html_legend_item {
	const char *kind; /* "band", "line:CLASS", "rect:CLASS", "dot:CLASS", "color:#rrggbb" */
	const char *text;
};

/* Legend items in rows under the plot, from x = left, the first row at y. */
void al__html_legend(struct al_plot *p, double y, const struct html_legend_item *it, size_t n);
/* A histogram on log scales, with the period and buffer deadlines (0: none). */
void al__html_plot_histogram(struct html_ctx *c, const struct al_dhist *h, double period_ns,
			     double buffer_ns, const char *title, const char *xlabel,
			     const char *ylabel);
/*
 * CCDF of one or several results; docs[i] and h[i] go together, idx[i] is
 * the result's place in the page (its letter and colour; NULL: i).
 */
void al__html_plot_ccdf(struct html_ctx *c, const json_t *const *docs, const struct al_dhist *h,
			size_t n, const size_t *idx, const char *title);
/* MIDI deltas on a linear axis around the interval: the buckets as bars, log counts. */
void al__html_plot_deltas(struct html_ctx *c, const struct al_dhist *h, double interval_ns);

/* ---- html-timeline.c: plots over time -------------------------------------------------- */

/* A run's latency per time-series window, its phases, xruns and spikes. */
void al__html_plot_timeline(struct html_ctx *c, const json_t *doc);
/* html-monitor.c: a monitor result's long view and per-hour heat map (nothing otherwise). */
void al__html_monitor_section(struct html_ctx *c, const json_t *doc);
/* MIDI deltas over time: a min..max bar per window of the timeline, the interval dashed. */
void al__html_plot_midi_timeline(struct html_ctx *c, const json_t *tl, double interval_ns);

/* ---- html-tail.c: the tail beyond the run (docs/tail.md) ---------------------------------- */

/* Two cells of a "tail" object: predicted 1 h and 24 h with their intervals (or why none). */
void al__html_tail_levels(FILE *f, const json_t *tail);
/* A run's table of them: the whole run, each phase when there are several. */
void al__html_tail_table(FILE *f, const json_t *doc);

/* ---- html-why.c: why it dropped out (docs/json.md's "why") --------------------------------- */

/* A run's verdict, what to try, the events by class and a row per event (the first 200). */
void al__html_why_section(FILE *f, const json_t *doc);

/* ---- the sections: html-run.c, html-midi.c, html-compare.c ------------------------------ */

/*
 * The section of result idx of n: in->doc and h, its decoded histogram
 * (wake latencies of a run, deltas of a MIDI result).
 */
void al__html_run_section(struct html_ctx *c, const struct al_report_doc *in, size_t idx, size_t n,
			  const struct al_dhist *h);
void al__html_midi_section(struct html_ctx *c, const struct al_report_doc *in, size_t idx, size_t n,
			   const struct al_dhist *h);
/* The comparison (audiolat.compare/1) with every verdict. */
void al__html_compare_section(FILE *f, const json_t *cmp);
/* html-groups.c: a comparison of groups of runs (audiolat.compare-groups/1) */
void al__html_groups_section(struct html_ctx *c, const json_t *cmp);
/* The runs among in[0..n) (h[i] goes with in[i]) in one table and one CCDF. */
void al__html_overview(struct html_ctx *c, const struct al_report_doc *in, size_t n,
		       const struct al_dhist *h);

#endif
