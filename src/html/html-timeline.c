/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plots over time: a run's latency per time-series window with its
 * phases, xruns and spikes; a MIDI recording's deltas per window.
 */
#define AL_HTML_INTERNAL
#include <inttypes.h>
#include <math.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "html-private.h"

/* Adjacent windows merged so a long run draws at most MAX_BINS columns. */
#define MAX_BINS 1000

struct bin {
	double t0_s, t1_s;
	double periods; /* sums in double: a document's numbers may be anything */
	int64_t min_ns, max_ns, interval_max_ns;
	double mean_ns;
	double xruns;
	int stalled; /* windows without a wake-up */
};

static size_t
make_bins(const struct al_dseries *s, struct bin *b)
{
	size_t per = (s->n + MAX_BINS - 1) / MAX_BINS, nb = 0, i, j;
	double win_s = (double)(s->window_ns > 0 ? s->window_ns : AL_WINDOW_DEFAULT_NS) / 1e9;

	if (!per)
		return 0;
	for (i = 0; i < s->n; i += per) {
		struct bin *x = &b[nb++];
		double sum = 0;

		memset(x, 0, sizeof(*x));
		x->t0_s = (double)s->w[i].t_ns / 1e9;
		x->min_ns = INT64_MAX;
		for (j = i; j < s->n && j < i + per; j++) {
			const struct al_dwindow *w = &s->w[j];

			x->t1_s = (double)w->t_ns / 1e9 + win_s;
			x->xruns += (double)w->xruns;
			if (!w->periods) {
				x->stalled++;
				continue;
			}
			x->periods += (double)w->periods;
			sum += (double)w->wake_mean_ns * (double)w->periods;
			if (w->wake_min_ns < x->min_ns)
				x->min_ns = w->wake_min_ns;
			if (w->wake_max_ns > x->max_ns)
				x->max_ns = w->wake_max_ns;
			if (w->interval_max_ns > x->interval_max_ns)
				x->interval_max_ns = w->interval_max_ns;
		}
		if (x->periods)
			x->mean_ns = sum / x->periods;
	}
	return nb;
}

static void
polyline_begin(FILE *f, const char *cls)
{
	fprintf(f, "<polyline class=\"%s\" points=\"", cls);
}

/* A phase name from outside, cut to fit px pixels. */
static void
phase_label(struct al_plot *p, double x0, double x1, const char *name)
{
	double room = (x1 - x0 - 8) / 6.5; /* characters of about 6.5 px */
	char buf[160];

	if (!(room >= 2))
		return;
	al__html_truncate_utf8(name, buf, sizeof(buf), (size_t)fmin(room, 40));
	al_svg_text(p->f, x0 + 4, p->top + 13, "start", "phasename", buf);
}

/* The causes of a spike, for its tooltip. */
static void
spike_causes(FILE *f, const json_t *causes)
{
	const json_t *c;
	size_t i;

	json_array_foreach(causes, i, c)
	{
		fputs(i ? "; " : "; causes: ", f);
		al__html_cause_text(f, c);
		if (i >= 20) {
			fputs("; ...", f);
			break;
		}
	}
}

/* The latency axis: the windows' wake latencies and intervals, and the deadlines. */
static void
timeline_range(const struct bin *b, size_t nb, double period_ns, double buffer_ns, double *lo_ns,
	       double *hi_ns)
{
	double lo = INFINITY, hi = 0;
	size_t i;

	for (i = 0; i < nb; i++) {
		if (!b[i].periods)
			continue;
		if (b[i].min_ns > 0 && b[i].min_ns < lo)
			lo = (double)b[i].min_ns;
		hi = fmax(hi, fmax((double)b[i].max_ns, (double)b[i].interval_max_ns));
	}
	if (!isfinite(lo))
		lo = 1000;
	hi = fmin(fmax(hi, fmax(period_ns, buffer_ns)), 1e19);
	if (!(hi > 0))
		hi = 1e6;
	lo = fmax(al__html_decade_floor(lo), 1);
	hi = al__html_decade_ceil(hi * 1.2);
	if (hi <= lo * 10)
		hi = lo * 100;
	*lo_ns = lo;
	*hi_ns = hi;
}

/* Where a load phase starts and ends on the time axis (to the end when it has no end). */
static void
phase_span(const struct al_plot *p, const json_t *ph, double *x0, double *x1)
{
	double t0 = al_doc_real(ph, "start_ns", 0) / 1e9, t1 = al_doc_real(ph, "end_ns", 0) / 1e9;

	*x0 = al_scale_px(&p->x, t0);
	*x1 = al_scale_px(&p->x, t1 > t0 ? t1 : p->x.hi);
}

/* The load phases shaded by turns, the load in their tooltip. */
static void
phase_shading(struct al_plot *p, const json_t *phases)
{
	const json_t *ph;
	double x0, x1;
	size_t i;

	json_array_foreach(phases, i, ph)
	{
		phase_span(p, ph, &x0, &x1);
		fprintf(p->f,
			"<rect class=\"phase%zu\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\"><title>phase ",
			i % 2, x0, p->top, x1 - x0, p->bottom - p->top);
		esc(p->f, al_doc_str(ph, "name", "?"));
		fputs(": ", p->f);
		esc(p->f, al_doc_str(ph, "load", ""));
		fputs("</title></rect>\n", p->f);
	}
}

/* A line where each phase but the first begins, and the phases' names. */
static void
phase_names(struct al_plot *p, const json_t *phases)
{
	const json_t *ph;
	double x0, x1;
	size_t i;

	json_array_foreach(phases, i, ph)
	{
		phase_span(p, ph, &x0, &x1);
		if (i)
			fprintf(p->f,
				"<line class=\"phaseline\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/>\n",
				x0, p->top, x0, p->bottom);
		phase_label(p, x0, x1, al_doc_str(ph, "name", "?"));
	}
}

/* The windows where nothing woke up. */
static void
stall_marks(struct al_plot *p, const struct bin *b, size_t nb)
{
	size_t i;

	for (i = 0; i < nb; i++)
		if (b[i].stalled)
			fprintf(
			    p->f,
			    "<rect class=\"stall\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\"><title>no wake-up in %d window(s)</title></rect>\n",
			    al_scale_px(&p->x, b[i].t0_s), p->top,
			    fmax(1, al_scale_px(&p->x, b[i].t1_s) - al_scale_px(&p->x, b[i].t0_s)),
			    p->bottom - p->top, b[i].stalled);
}

/* The min..max band, one polygon per stretch of windows with wake-ups. */
static void
wake_band(struct al_plot *p, const struct bin *b, size_t nb)
{
	size_t i, j, e;

	for (i = 0; i < nb;) {
		if (!b[i].periods) {
			i++;
			continue;
		}
		for (e = i; e < nb && b[e].periods; e++)
			;
		fputs("<polygon class=\"band\" points=\"", p->f);
		for (j = i; j < e; j++)
			fprintf(p->f, "%.1f,%.1f %.1f,%.1f ", al_scale_px(&p->x, b[j].t0_s),
				al_scale_px(&p->y, (double)b[j].max_ns),
				al_scale_px(&p->x, b[j].t1_s),
				al_scale_px(&p->y, (double)b[j].max_ns));
		for (j = e; j-- > i;)
			fprintf(p->f, "%.1f,%.1f %.1f,%.1f ", al_scale_px(&p->x, b[j].t1_s),
				al_scale_px(&p->y, (double)b[j].min_ns),
				al_scale_px(&p->x, b[j].t0_s),
				al_scale_px(&p->y, (double)b[j].min_ns));
		fputs("\"/>\n", p->f);
		i = e;
	}
}

/* The mean and the max interval: polylines broken where nothing woke. */
static void
wake_lines(struct al_plot *p, const struct bin *b, size_t nb)
{
	bool in_seg;
	size_t i;
	int k;

	for (k = 0; k < 2; k++) {
		in_seg = false;
		for (i = 0; i < nb; i++) {
			double v = k ? (double)b[i].interval_max_ns : b[i].mean_ns;
			double xm = al_scale_px(&p->x, (b[i].t0_s + b[i].t1_s) / 2);

			if (!b[i].periods || !(v > 0)) {
				if (in_seg)
					fputs("\"/>\n", p->f);
				in_seg = false;
				continue;
			}
			if (!in_seg)
				polyline_begin(p->f, k ? "interval" : "mean");
			in_seg = true;
			fprintf(p->f, "%.1f,%.1f ", xm, al_scale_px(&p->y, v));
		}
		if (in_seg)
			fputs("\"/>\n", p->f);
	}
}

#define MARKS_MAX 2000

/*
 * The xruns: each event with its starved time, or per window when there are
 * too many. server: the server's notifications that were not ours
 * (server_reported), each named so, never drawn per window.
 */
static void
xrun_marks(struct al_plot *p, const json_t *events, const struct bin *b, size_t nb, bool server)
{
	const json_t *ev;
	size_t i;

	if (json_array_size(events) && json_array_size(events) <= MARKS_MAX) {
		json_array_foreach(events, i, ev)
		{
			double t = al_doc_real(ev, "t_ns", 0) / 1e9;
			double d = al_doc_real(ev, "duration_ns", 0) / 1e9;
			double x = al_scale_px(&p->x, t), x2 = al_scale_px(&p->x, t + d);
			char dd[32];

			al__html_dur(al_doc_int(ev, "duration_ns", 0), dd, sizeof(dd));
			fprintf(p->f,
				"<g><title>%s at %.3f s: %s %s, %" PRId64
				" period(s) lost, phase ",
				server ? "server xrun (not ours)" : "xrun", t,
				server ? "the server late" : "starved", dd,
				al_doc_int(ev, "lost_periods", 0));
			esc(p->f, al_doc_str(ev, "phase", "?"));
			{
				/* graph blame: the xrun marker says whom */
				const json_t *bl = json_object_get(ev, "blame"), *c;
				size_t k;

				json_array_foreach(bl, k, c)
				{
					fputs(k ? ", " : "; cause: ", p->f);
					esc(p->f, al_doc_str(c, "name", "?"));
				}
			}
			fputs("</title>", p->f);
			if (x2 - x > 1)
				fprintf(p->f,
					"<rect class=\"xrunspan\" x=\"%.1f\" y=\"%.1f\" "
					"width=\"%.1f\" height=\"%.1f\"/>",
					x, p->top, x2 - x, p->bottom - p->top);
			fprintf(p->f,
				"<line class=\"xrun\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/><path class=\"xrunmark\" d=\"M%.1f %.1fl-5 -9h10z\"/>"
				"</g>\n",
				x, p->top, x, p->bottom, x, p->bottom);
		}
		return;
	}
	for (i = 0; !server && i < nb; i++) {
		double x;

		if (!b[i].xruns)
			continue;
		x = al_scale_px(&p->x, (b[i].t0_s + b[i].t1_s) / 2);
		fprintf(p->f,
			"<g><title>%.0f xrun(s) at %.1f s</title><line class=\"xrun\" "
			"x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><path "
			"class=\"xrunmark\" d=\"M%.1f %.1fl-5 -9h10z\"/></g>\n",
			b[i].xruns, b[i].t0_s, x, p->top, x, p->bottom, x, p->bottom);
	}
}

/* The spikes (when the document has them): where, how late, and why. */
static void
spike_marks(struct al_plot *p, const json_t *spikes)
{
	const json_t *ev;
	size_t i;

	json_array_foreach(spikes, i, ev)
	{
		double t = al_doc_real(ev, "t_ns", 0) / 1e9, v = al_doc_real(ev, "latency_ns", 0);
		char dd[32];

		if (i >= MARKS_MAX)
			break;
		al__html_dur(al__html_sat_i64(v), dd, sizeof(dd));
		fprintf(p->f,
			"<circle class=\"spike\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>spike at "
			"%.3f s: %s",
			al_scale_px(&p->x, t), al_scale_px(&p->y, v), t, dd);
		spike_causes(p->f, json_object_get(ev, "causes"));
		fputs("</title></circle>\n", p->f);
	}
}

static void
timeline_legend(struct al_plot *p, bool spikes)
{
	struct html_legend_item items[7];
	size_t n = 0;

	items[n++] = (struct html_legend_item){"rect:band", "wake latency min-max per window"};
	items[n++] = (struct html_legend_item){"line:mean", "mean"};
	items[n++] = (struct html_legend_item){"line:interval", "max interval"};
	items[n++] = (struct html_legend_item){"line:period", "period"};
	items[n++] = (struct html_legend_item){"line:buffer", "buffer"};
	items[n++] = (struct html_legend_item){"line:xrun", "xrun"};
	if (spikes)
		items[n++] = (struct html_legend_item){"dot:spike", "spike"};
	al__html_legend(p, p->bottom + 56, items, n);
}

void
al__html_plot_timeline(struct html_ctx *c, const json_t *doc)
{
	const json_t *phases = json_object_get(doc, "phases"), *spikes;
	double lo, hi, dur_s, period_ns, buffer_ns;
	struct al_dseries s;
	struct al_plot p;
	struct bin *b;
	size_t nb;

	if (al_dseries_from_json(doc, &s) || !s.n) {
		fputs("<p class=\"small\">No time series in this result.</p>\n", c->f);
		al_dseries_free(&s);
		return;
	}
	b = calloc(s.n < MAX_BINS ? s.n : MAX_BINS, sizeof(*b));
	if (!b) {
		al_dseries_free(&s);
		return;
	}
	nb = make_bins(&s, b);
	period_ns = al_doc_real(doc, "config.period_ns", 0);
	buffer_ns = al_doc_real(doc, "config.buffer_ns", 0);
	dur_s = fmin(fmax(al_doc_real(doc, "duration_ns", 0) / 1e9, b[nb - 1].t1_s), 1e10);
	timeline_range(b, nb, period_ns, buffer_ns, &lo, &hi);

	al_plot_begin(&p, c->f, ++c->plot_id, 1000, 360, 70, 10, 120, 62,
		      "wake latency and max interval per window over the run, log scale");
	p.x.lo = 0;
	p.x.hi = dur_s > 0 ? dur_s : 1;
	p.y.lo = lo;
	p.y.hi = hi;
	p.y.log = true;
	al_plot_clip_begin(&p);
	phase_shading(&p, phases);
	al_plot_clip_end(&p); /* the axes go over the shading, the data over the axes */
	al_plot_axes(&p, "time since the stream started", "latency (log scale)", al_tick_time_s,
		     al_tick_ns);
	al_plot_clip_begin(&p);
	phase_names(&p, phases);
	stall_marks(&p, b, nb);
	wake_band(&p, b, nb);
	wake_lines(&p, b, nb);
	xrun_marks(&p, json_object_get(doc, "xrun_events"), b, nb, false);
	xrun_marks(&p, json_object_get(doc, "server_reported"), b, nb, true);
	spikes = json_object_get(doc, "spikes");
	spike_marks(&p, spikes);
	al_plot_clip_end(&p);
	al__html_deadline_h(&p, period_ns, "period", "period");
	al__html_deadline_h(&p, buffer_ns, "buffer", "buffer");
	timeline_legend(&p, json_array_size(spikes) > 0);
	al_plot_end(&p);
	free(b);
	al_dseries_free(&s);
}

/* MIDI deltas over time: a min..max bar per window of the timeline, the interval dashed. */
void
al__html_plot_midi_timeline(struct html_ctx *c, const json_t *tl, double interval_ns)
{
	const json_t *rows = json_object_get(tl, "rows"), *row;
	double w_s = al_doc_real(tl, "window_ns", 1e9) / 1e9, lo = INFINITY, hi = -INFINITY;
	double t_end = 0, pad;
	struct al_plot p;
	size_t i;

	json_array_foreach(rows, i, row)
	{
		lo = fmin(lo, (double)json_integer_value(json_array_get(row, 2)));
		hi = fmax(hi, (double)json_integer_value(json_array_get(row, 3)));
		t_end = fmax(t_end, (double)json_integer_value(json_array_get(row, 0)) / 1e9 + w_s);
	}
	if (!(hi >= lo))
		return;
	if (interval_ns > 0) {
		lo = fmin(lo, interval_ns);
		hi = fmax(hi, interval_ns);
	}
	pad = fmax((hi - lo) * 0.05, 1000);
	al_plot_begin(&p, c->f, ++c->plot_id, 490, 300, 62, 10, 16, 44,
		      "delta times between events over the recording");
	p.x.lo = 0;
	p.x.hi = fmax(t_end, w_s);
	p.y.lo = lo - pad;
	p.y.hi = hi + pad;
	al_plot_axes(&p, "time since the first event", "delta time", al_tick_time_s, al_tick_ns);
	al_plot_clip_begin(&p);
	al__html_deadline_h(&p, interval_ns, "period", "interval");
	json_array_foreach(rows, i, row)
	{
		double t = (double)json_integer_value(json_array_get(row, 0)) / 1e9;
		double x0 = al_scale_px(&p.x, t), x1 = al_scale_px(&p.x, t + w_s);
		double y0 = al_scale_px(&p.y, (double)json_integer_value(json_array_get(row, 3)));
		double y1 = al_scale_px(&p.y, (double)json_integer_value(json_array_get(row, 2)));

		fprintf(c->f,
			"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			"<title>%" JSON_INTEGER_FORMAT " deltas</title></rect>\n",
			x0, y0, fmax(x1 - x0 - 0.5, 1.0), fmax(y1 - y0, 1.0),
			json_integer_value(json_array_get(row, 1)));
	}
	al_plot_clip_end(&p);
	al_plot_end(&p);
}
