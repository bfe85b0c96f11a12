/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The section of a run (audiolat.run/2 or /1): its cards, plots and tables. */
#define AL_HTML_INTERNAL
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/format.h"
#include "html-private.h"

/* A duration at path in o, or "-" where the document has none (a figure not measured). */
static void
fig_dur(const json_t *o, const char *path, char *buf, size_t size)
{
	if (json_is_number(al_doc_get(o, path)))
		al__html_dur(al_doc_int(o, path, 0), buf, size);
	else
		snprintf(buf, size, "-");
}

/* A count at path in o, or "-" where the document has none. */
static void
fig_int(const json_t *o, const char *path, char *buf, size_t size)
{
	if (json_is_number(al_doc_get(o, path)))
		snprintf(buf, size, "%" PRId64, al_doc_int(o, path, 0));
	else
		snprintf(buf, size, "-");
}

static void
cards(FILE *f, const json_t *doc)
{
	const json_t *t = json_object_get(doc, "total");
	int64_t xruns = al_doc_int(t, "xruns", 0);
	/* boundaries fitted to the wake-ups: jitter, not latency (docs/truth.md) */
	bool fitted = !strcmp(al_doc_str(doc, "boundary", ""), "fitted");
	char buf[48], lost[32];

	fputs("<div class=\"cards\">\n", f);
	/* max latency: the per-period wake latency (run/1: per wake-up, and said so) */
	fig_dur(t, "wake_latency_ns.max", buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>max %s%s</span></div>\n", buf,
		fitted ? "jitter (fitted boundary, not latency)" : "latency",
		al_doc_per_period(doc) ? " (per period)" : " (per wake-up: run/1)");
	if (json_is_number(json_object_get(t, "max_latency_pct_of_buffer")))
		fprintf(f, "<div class=\"card\"><b>%.1f %%</b><span>of the buffer</span></div>\n",
			al_doc_real(t, "max_latency_pct_of_buffer", 0));
	fig_dur(t, "interval_ns.max", buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>max interval</span></div>\n", buf);
	for (int k = 1; k <= 2; k++) {
		double v = al_doc_real(t, k == 1 ? "within_1ms_pct" : "within_2ms_pct", NAN);

		if (isfinite(v))
			fprintf(f,
				"<div class=\"card\"><b>%.3f</b><span>%dMS factor</span></div>\n",
				v, k);
		else /* not measured */
			fprintf(f, "<div class=\"card\"><b>-</b><span>%dMS factor</span></div>\n",
				k);
	}
	fig_dur(t, "wake_latency_ns.p99", buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>p99 wake %s</span></div>\n", buf,
		fitted ? "jitter" : "latency");
	al__html_dur(al_doc_int(t, "wake_latency_per_wakeup_ns.p99", 0), buf, sizeof(buf));
	if (json_is_integer(al_doc_get(t, "wake_latency_per_wakeup_ns.p99")))
		fprintf(f, "<div class=\"card\"><b>%s</b><span>p99 per wake-up</span></div>\n",
			buf);
	/* xruns a tool does not measure (an import): "-", neither good nor bad */
	fig_int(t, "xruns", buf, sizeof(buf));
	fig_int(t, "lost_periods", lost, sizeof(lost));
	fprintf(f, "<div class=\"card%s\"><b>%s</b><span>xruns (%s periods lost)</span></div>\n",
		!json_is_number(al_doc_get(t, "xruns")) ? "" : xruns ? " bad" : " good", buf, lost);
	fig_int(t, "periods", buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>periods</span></div>\n", buf);
	fputs("</div>\n", f);
}

#define PHASE_COLUMNS 13 /* of phase_table()'s header */

/*
 * Under a phase's figures and across the table: its exact load, whether
 * it failed, and what it did ("messages_per_s 10.3 k/s", as the text
 * report has it; the unit is the document's).
 */
static void
load_row(FILE *f, const json_t *ph)
{
	const char *err = al_doc_str(ph, "error", NULL), *name;
	const json_t *v;

	fprintf(f, "<tr class=\"load\"><td colspan=\"%d\"><span class=\"small\">", PHASE_COLUMNS);
	esc(f, al_doc_str(ph, "load", ""));
	if (err) {
		fputs(" <span class=\"fail\">FAILED: ", f);
		esc(f, err);
		fputs("</span>", f);
	}
	json_object_foreach(json_object_get(ph, "throughput"), name, v)
	{
		char buf[96];

		if (!json_is_number(json_object_get(v, "value")))
			continue; /* not measured */
		al_format_si(al_doc_real(v, "value", 0), al_doc_str(v, "unit", ""), buf,
			     sizeof(buf));
		fputs(" · ", f);
		esc(f, name);
		fputc(' ', f);
		esc(f, buf);
	}
	fputs("</span></td></tr>\n", f);
}

/* A row of figures per phase, and under it a row of what its load was and did. */
static void
phase_table(FILE *f, const json_t *doc)
{
	static const char *const figures[9] = {
		"wake_latency_ns.max", "max_latency_pct_of_buffer", "within_1ms_pct",
		"within_2ms_pct", "wake_latency_ns.p50", "wake_latency_ns.p99",
		"wake_latency_ns.p999", "interval_ns.max", "xruns",
	};
	const json_t *phases = json_object_get(doc, "phases"), *ph;
	size_t i;

	if (!json_array_size(phases))
		return;
	fputs("<h3>Phases</h3>\n<table class=\"phases\">\n<thead><tr><th>phase</th><th>time</th>"
	      "<th>periods</th><th>max latency</th><th>% of buffer</th><th>1MS</th><th>2MS</th>"
	      "<th>p50 wake</th><th>p99 wake</th><th>p99.9 wake</th><th>max interval</th>"
	      "<th>xruns</th><th>lost</th></tr></thead>\n<tbody>\n",
	      f);
	json_array_foreach(phases, i, ph)
	{
		fputs("<tr class=\"phase\"><td><b>", f);
		esc(f, al_doc_str(ph, "name", "?"));
		fprintf(f, "</b></td><td class=\"num\">%.1f-%.1f s</td>",
			al_doc_real(ph, "start_ns", 0) / 1e9, al_doc_real(ph, "end_ns", 0) / 1e9);
		al__html_td_int(f, ph, "periods");
		al__html_td_figures(f, ph, figures);
		al__html_td_int(f, ph, "lost_periods");
		fputs("</tr>\n", f);
		load_row(f, ph);
	}
	fputs("</tbody></table>\n", f);
}

static void
percentile_table(FILE *f, const json_t *doc)
{
	static const char *const rows[][2] = {
	    {"wake latency", "total.wake_latency_ns"},
	    {"interval", "total.interval_ns"},
	    {"work", "total.work_ns"},
	};
	static const char *const cols[] = {"min", "mean", "p50",   "p90",
					   "p99", "p999", "p9999", "max"};
	char path[96];
	size_t i, k;

	fputs("<table class=\"pct\"><thead><tr><th></th><th>min</th><th>mean</th><th>p50</th>"
	      "<th>p90</th><th>p99</th><th>p99.9</th><th>p99.99</th><th>max</th></tr></thead>"
	      "<tbody>\n",
	      f);
	for (i = 0; i < 3; i++) {
		fprintf(f, "<tr><th>%s</th>", rows[i][0]);
		for (k = 0; k < sizeof(cols) / sizeof(cols[0]); k++) {
			snprintf(path, sizeof(path), "%s.count", rows[i][1]);
			if (al_doc_int(doc, path, 0) <= 0) {
				fputs("<td class=\"num\">-</td>", f);
				continue;
			}
			snprintf(path, sizeof(path), "%s.%s", rows[i][1], cols[k]);
			al__html_td_dur(f, doc, path);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

/* The causes of an xrun or a late cycle (graph blame): "name (id N) busy X; ...", escaped. */
static void
causes_cell(FILE *f, const json_t *causes)
{
	const json_t *c;
	size_t k;
	char d[32];

	fputs("<td>", f);
	if (!json_array_size(causes))
		fputs("-", f);
	json_array_foreach(causes, k, c)
	{
		if (k)
			fputs("; ", f);
		esc(f, al_doc_str(c, "name", "?"));
		fprintf(f, " (id %" PRId64 ") ", al_doc_int(c, "id", 0));
		if (al_doc_bool(c, "driver", false)) {
			al__html_dur(al_doc_int(c, "wait_ns", 0), d, sizeof(d));
			fprintf(f, "began it %s late", d);
		} else {
			al__html_dur(al_doc_int(c, "busy_ns", 0), d, sizeof(d));
			fprintf(f, "%s, busy %s%s%s", al_doc_str(c, "state", "?"),
				al_doc_bool(c, "busy_at_least", false) ? "&ge; " : "", d,
				al_doc_bool(c, "self", false) ? " (audiolat)" : "");
		}
	}
	fputs("</td>", f);
}

static void
xrun_table(FILE *f, const json_t *doc)
{
	const json_t *events = json_object_get(doc, "xrun_events"), *ev;
	size_t i, n = json_array_size(events);
	int64_t dropped = al_doc_int(doc, "xrun_events_dropped", 0);
	bool blame = json_is_object(json_object_get(doc, "graph"));

	if (!n)
		return;
	fprintf(f, "<h3>Xruns</h3>\n<table class=\"xruns\"><thead><tr><th>#</th><th>at</th>"
		   "<th>starved</th><th>periods lost</th><th>phase</th>%s</tr></thead><tbody>\n",
		blame ? "<th>cause (graph blame)</th>" : "");
	json_array_foreach(events, i, ev)
	{
		if (i == 100)
			break;
		fprintf(f, "<tr><td class=\"num\">%zu</td><td class=\"num\">%.3f s</td>", i + 1,
			al_doc_real(ev, "t_ns", 0) / 1e9);
		al__html_td_dur(f, ev, "duration_ns");
		al__html_td_int(f, ev, "lost_periods");
		al__html_td_str(f, al_doc_str(ev, "phase", NULL));
		if (blame)
			causes_cell(f, json_object_get(ev, "blame"));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (n > 100 || dropped > 0)
		fprintf(f,
			"<p class=\"small\">%zu xrun(s) listed in the result, the first %zu shown; "
			"%" PRId64 " more not kept.</p>\n",
			n, n < 100 ? n : 100, dropped);
}

/* Graph blame: per node of the graph, pw-top's columns as distributions; the late cycles. */
static void
graph_table(FILE *f, const json_t *doc)
{
	const json_t *g = json_object_get(doc, "graph"), *n, *late;
	size_t i, nl;

	if (!json_is_object(g))
		return;
	fputs("<h3>Graph blame</h3>\n", f);
	if (!al_doc_bool(g, "active", false)) {
		fputs("<p class=\"small\">No blame: ", f);
		esc(f, al_doc_str(g, "note", "no profiler"));
		fputs("</p>\n", f);
		return;
	}
	late = json_object_get(g, "late_cycles");
	nl = json_array_size(late);
	fprintf(f, "<p class=\"small\">%s, driver ", al_doc_str(g, "source", "?"));
	esc(f, al_doc_str(g, "driver.name", "?"));
	fprintf(f, ": %" PRId64 " cycles, %zu late (%" PRId64 " not complete by their deadline, %" PRId64
		   " begun late), %" PRId64 " driver xruns.</p>\n",
		al_doc_int(g, "cycles", 0), nl, al_doc_int(g, "incomplete", 0),
		al_doc_int(g, "late_starts", 0), al_doc_int(g, "driver_xruns", 0));
	fputs("<table class=\"nodes\"><thead><tr><th>node</th><th>id</th><th>runs</th>"
	      "<th>unfinished</th><th>blamed</th><th>WAIT p50</th><th>WAIT p99</th>"
	      "<th>BUSY p50</th><th>BUSY p99</th><th>BUSY max</th></tr></thead><tbody>\n", f);
	json_array_foreach(json_object_get(g, "nodes"), i, n)
	{
		fputs("<tr><td>", f);
		esc(f, al_doc_str(n, "name", "?"));
		fputs(al_doc_bool(n, "self", false) ? " (audiolat)"
		      : al_doc_bool(n, "driver", false) ? " (driver)" : "", f);
		fputs("</td>", f);
		al__html_td_int(f, n, "id");
		al__html_td_int(f, n, "runs");
		al__html_td_int(f, n, "unfinished");
		al__html_td_int(f, n, "blamed");
		al__html_td_dur(f, n, "wait_ns.p50");
		al__html_td_dur(f, n, "wait_ns.p99");
		al__html_td_dur(f, n, "busy_ns.p50");
		al__html_td_dur(f, n, "busy_ns.p99");
		al__html_td_dur(f, n, "busy_ns.max");
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (!nl)
		return;
	fputs("<table class=\"late\"><thead><tr><th>late cycle at</th><th>past deadline</th>"
	      "<th>quantum</th><th>cause</th></tr></thead><tbody>\n", f);
	for (i = 0; i < nl && i < 100; i++) {
		const json_t *lc = json_array_get(late, i);

		fprintf(f, "<tr><td class=\"num\">%.3f s</td>", al_doc_real(lc, "t_ns", 0) / 1e9);
		al__html_td_dur(f, lc, "late_ns");
		al__html_td_dur(f, lc, "quantum_ns");
		causes_cell(f, json_object_get(lc, "causes"));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (nl > 100)
		fprintf(f, "<p class=\"small\">%zu late cycles, the first 100 shown.</p>\n", nl);
}

static void
spike_table(FILE *f, const json_t *doc)
{
	const json_t *spikes = json_object_get(doc, "spikes"), *sp;
	size_t i, n = json_array_size(spikes);

	if (!n)
		return;
	fputs("<h3>Spikes</h3>\n<table class=\"spikes\"><thead><tr><th>at</th><th>latency</th>"
	      "<th>causes</th></tr></thead><tbody>\n",
	      f);
	json_array_foreach(spikes, i, sp)
	{
		const json_t *causes = json_object_get(sp, "causes"), *cz;
		size_t k;

		if (i == 100)
			break;
		fprintf(f, "<tr><td class=\"num\">%.3f s</td>", al_doc_real(sp, "t_ns", 0) / 1e9);
		al__html_td_dur(f, sp, "latency_ns");
		fputs("<td class=\"small\">", f);
		json_array_foreach(causes, k, cz)
		{
			if (k)
				fputs("<br/>", f);
			al__html_cause_text(f, cz);
		}
		if (!json_array_size(causes))
			fputs("-", f);
		fputs("</td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (n > 100)
		fprintf(f, "<p class=\"small\">%zu spikes, the first 100 shown.</p>\n", n);
}

static void
config_tables(FILE *f, const json_t *doc)
{
	const json_t *cfg = json_object_get(doc, "config"), *sys = json_object_get(doc, "system");
	char buf[160];

	fputs("<div class=\"kvs\"><div>\n<h3>Configuration</h3>\n<table class=\"kv\">\n", f);
	al__html_kv_str(f, cfg, "backend", "backend");
	al__html_kv_str(f, cfg, "device", "device");
	al__html_kv_int(f, cfg, "rate", "rate", " Hz");
	if (json_is_number(json_object_get(cfg, "period_frames"))) {
		snprintf(buf, sizeof(buf), "%" PRId64 " x %" PRId64 " frames (%" PRId64 " frames)",
			 al_doc_int(cfg, "periods", 0), al_doc_int(cfg, "period_frames", 0),
			 al_doc_int(cfg, "buffer_frames", 0));
		al__html_kv(f, "buffer", buf);
	} else {
		al__html_kv(f, "buffer", "-");
	}
	al__html_kv_dur(f, cfg, "period", "period_ns");
	al__html_kv_dur(f, cfg, "buffer time", "buffer_ns");
	al__html_kv_int(f, cfg, "cpu load", "cpu_load_pct", " % of a period");
	al__html_kv_int(f, doc, "priority applied", "priority", "");
	al__html_kv_bool(f, doc, "real-time (SCHED_FIFO)", "realtime");
	al__html_kv_bool(f, doc, "memory locked", "memory_locked");
	al__html_kv_int(f, cfg, "affinity", "affinity", "");
	al__html_kv_int(f, doc, "dma latency", "dma_latency_us", " µs");
	al__html_kv_str(f, cfg, "load", "load");
	al__html_kv_dur(f, doc, "duration", "duration_ns");
	al__html_kv_dur(f, doc, "window", "timeseries.window_ns");
	al__html_kv_bool(f, doc, "interrupted", "interrupted");
	al__html_kv_str(f, doc, "started at", "started_at");
	al__html_kv_str(f, doc, "audiolat", "tool_version");
	fputs("<tr><th>command line</th><td><code>", f);
	esc(f, al_doc_str(doc, "cmdline", "-"));
	fputs("</code></td></tr>\n</table>\n</div><div>\n<h3>System</h3>\n<table class=\"kv\">\n",
	      f);
	al__html_kv_str(f, sys, "hostname", "hostname");
	al__html_kv_str(f, sys, "kernel", "kernel_release");
	al__html_kv_str(f, sys, "kernel version", "kernel_version");
	snprintf(buf, sizeof(buf), "%s", al_doc_str(sys, "preempt", "-"));
	al__html_kv(f, "preemption", buf);
	al__html_kv_str(f, sys, "read from", "preempt_source");
	al__html_kv_str(f, sys, "machine", "machine");
	al__html_kv_str(f, sys, "CPU", "cpu_model");
	al__html_kv_int(f, sys, "CPUs", "cpus", "");
	al__html_kv_str(f, sys, "clocksource", "clocksource");
	fputs("</table>\n</div></div>\n", f);
}

void
al__html_run_section(struct html_ctx *c, const struct al_report_doc *in, size_t idx, size_t n,
		     const struct al_dhist *h)
{
	FILE *f = c->f;
	const json_t *doc = in->doc, *sys = json_object_get(doc, "system");
	char buf[200];

	al__html_section_begin(f, "result", idx, n);
	esc(f, al_doc_label(doc));
	fputs("</h2>\n<p class=\"meta\">", f);
	esc(f, al_doc_str(sys, "hostname", "?"));
	fputs(" · kernel ", f);
	esc(f, al_doc_str(sys, "kernel_release", "?"));
	fputs(" (preempt ", f);
	esc(f, al_doc_str(sys, "preempt", "?"));
	fputs(") · ", f);
	esc(f, al_doc_str(doc, "config.backend", "?"));
	/* an import's config may have none of it: nothing rather than zeros */
	if (json_is_number(al_doc_get(doc, "config.period_frames"))) {
		fig_dur(doc, "config.buffer_ns", buf, sizeof(buf));
		fprintf(f, " %" PRId64 " Hz, %" PRId64 " x %" PRId64 " frames (buffer %s)",
			al_doc_int(doc, "config.rate", 0), al_doc_int(doc, "config.periods", 0),
			al_doc_int(doc, "config.period_frames", 0), buf);
	}
	fputs(" · ", f);
	al__html_meta_end(f, doc, in->source);
	if (!al_doc_bool(doc, "realtime", true))
		fputs(
		    "<p class=\"warn\">Not real-time: the audio thread did not run at SCHED_FIFO, "
		    "so these are not real-time figures.</p>\n",
		    f);
	if (al_doc_bool(doc, "interrupted", false))
		fputs("<p class=\"warn\">The run was interrupted: what was measured until "
		      "then.</p>\n",
		      f);
	cards(f, doc);
	al__html_warnings(f, doc);
	fputs("<h3>Latency over time</h3>\n<figure>\n", f);
	al__html_plot_timeline(c, doc);
	fputs("<figcaption>Per time-series window: the band spans the lowest to the highest wake "
	      "latency (wake-up - period boundary), the line is its mean; the grey line is the "
	      "longest interval between wake-ups (latencytest's total latency). Longer than the "
	      "buffer means the card ran dry.</figcaption>\n</figure>\n",
	      f);
	al__html_monitor_section(c, doc);
	fputs("<div class=\"plots\">\n<figure>\n", f);
	al__html_plot_histogram(c, h, al_doc_real(doc, "config.period_ns", 0),
				al_doc_real(doc, "config.buffer_ns", 0),
				"histogram of the wake latency, log scales",
				"wake latency (log scale)", "periods (log scale)");
	fprintf(f, "<figcaption>Wake latency histogram (%" PRIu64 " periods", h->count);
	if (h->overflow)
		fprintf(f, ", %" PRIu64 " beyond the last bucket", h->overflow);
	fputs(").</figcaption>\n</figure>\n<figure>\n", f);
	al__html_plot_ccdf(c, &doc, h, 1, NULL, "share of periods later than x, log scales");
	fputs("<figcaption>Complementary CDF: the share of periods whose wake latency exceeded x; "
	      "where the curve crosses the p99 line is the 99th percentile.</figcaption>\n"
	      "</figure>\n</div>\n",
	      f);
	percentile_table(f, doc);
	phase_table(f, doc);
	al__html_tail_table(f, doc);
	xrun_table(f, doc);
	graph_table(f, doc);
	spike_table(f, doc);
	al__html_why_section(f, doc);
	config_tables(f, doc);
	al__html_checks_table(f, doc);
	fputs("</section>\n", f);
}
