/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The HTML report. Every string taken from a document goes through
 * al_html_escape(); numbers are formatted here. The markup is polyglot:
 * well-formed XML that browsers read as HTML5.
 */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "core/result.h"
#include "doc.h"
#include "escape.h"
#include "html.h"
#include "svg.h"

/* ---- small helpers -------------------------------------------------------------------- */

static const char *const palette[] = {
    "#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e", "#17becf", "#8c564b", "#e377c2",
};

#define PALETTE_N (sizeof(palette) / sizeof(palette[0]))

struct rctx {
	FILE *f;
	int plot_id;
};

/* A duration for a table: "812 ns", "15.2 µs", "1.352 ms", "3.100 s". */
static void
fmt_dur(int64_t ns, char *buf, size_t size)
{
	double a = fabs((double)ns); /* not -ns: INT64_MIN */

	if (a < 1000)
		snprintf(buf, size, "%" PRId64 " ns", ns);
	else if (a < 1000000)
		snprintf(buf, size, "%.1f µs", (double)ns / 1e3);
	else if (a < 1000000000)
		snprintf(buf, size, "%.3f ms", (double)ns / 1e6);
	else
		snprintf(buf, size, "%.3f s", (double)ns / 1e9);
}

static void
esc(FILE *f, const char *s)
{
	al_html_escape(f, s);
}

/* <td> with an escaped string, "-" when missing or empty. */
static void
td_str(FILE *f, const char *s)
{
	fputs("<td>", f);
	esc(f, s && s[0] ? s : "-");
	fputs("</td>", f);
}

/* <td class="num"> with a duration at path in o, "-" when it has none. */
static void
td_dur(FILE *f, const json_t *o, const char *path)
{
	char buf[32];

	if (json_is_number(al_doc_get(o, path))) {
		fmt_dur(al_doc_int(o, path, 0), buf, sizeof(buf));
		fprintf(f, "<td class=\"num\">%s</td>", buf);
	} else {
		fputs("<td class=\"num\">-</td>", f);
	}
}

static void
td_real(FILE *f, const json_t *o, const char *path, const char *fmt, const char *unit)
{
	char buf[48];

	if (json_is_number(al_doc_get(o, path))) {
		snprintf(buf, sizeof(buf), fmt, al_doc_real(o, path, 0));
		fprintf(f, "<td class=\"num\">%s%s</td>", buf, unit);
	} else {
		fputs("<td class=\"num\">-</td>", f);
	}
}

static void
td_int(FILE *f, const json_t *o, const char *path)
{
	if (json_is_number(al_doc_get(o, path)))
		fprintf(f, "<td class=\"num\">%" PRId64 "</td>", al_doc_int(o, path, 0));
	else
		fputs("<td class=\"num\">-</td>", f);
}

/* A row of a key/value table; value already formatted (escaped here). */
static void
kv(FILE *f, const char *key, const char *value)
{
	fprintf(f, "<tr><th>%s</th>", key);
	td_str(f, value);
	fputs("</tr>\n", f);
}

static void
kv_str(FILE *f, const json_t *doc, const char *key, const char *path)
{
	kv(f, key, al_doc_str(doc, path, NULL));
}

static void
kv_int(FILE *f, const json_t *doc, const char *key, const char *path, const char *unit)
{
	char buf[48];

	if (!json_is_number(al_doc_get(doc, path))) {
		kv(f, key, NULL);
		return;
	}
	snprintf(buf, sizeof(buf), "%" PRId64 "%s", al_doc_int(doc, path, 0), unit);
	kv(f, key, buf);
}

static void
kv_dur(FILE *f, const json_t *doc, const char *key, const char *path)
{
	char buf[32];

	if (!json_is_number(al_doc_get(doc, path))) {
		kv(f, key, NULL);
		return;
	}
	fmt_dur(al_doc_int(doc, path, 0), buf, sizeof(buf));
	kv(f, key, buf);
}

static void
kv_bool(FILE *f, const json_t *doc, const char *key, const char *path)
{
	const json_t *v = al_doc_get(doc, path);

	kv(f, key, json_is_boolean(v) ? (json_is_true(v) ? "yes" : "no") : NULL);
}

/* Copy at most max_chars characters of UTF-8 text (size >= 4), with "…" when cut. */
static void
truncate_utf8(const char *in, char *out, size_t size, size_t max_chars)
{
	size_t i, n, chars = 0, limit;
	bool cut;

	for (i = 0; in[i]; i++) {
		if (((unsigned char)in[i] & 0xc0) == 0x80)
			continue;
		if (chars == max_chars)
			break;
		chars++;
	}
	cut = in[i] != '\0';
	limit = size - 1 - (cut ? 3 : 0);
	n = i;
	if (n > limit) {
		n = limit;
		cut = true;
		limit = size - 4;
		if (n > limit)
			n = limit;
	}
	/* never end in the middle of a character */
	while (n && ((unsigned char)in[n] & 0xc0) == 0x80)
		n--;
	memcpy(out, in, n);
	if (cut) {
		memcpy(out + n, "\xe2\x80\xa6", 3);
		n += 3;
	}
	out[n] = '\0';
}

/* ---- the CSS -------------------------------------------------------------------------- */

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
    ".small{font-size:.85em;color:#555}footer{margin-top:3em;color:#777;font-size:.85em}\n";

/* ---- time series plot ----------------------------------------------------------------- */

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

static double
decade_floor(double v)
{
	return pow(10, floor(log10(v)));
}

static double
decade_ceil(double v)
{
	return pow(10, ceil(log10(v)));
}

/* A number from a document as int64, saturated (a cast of 1e300 is undefined). */
static int64_t
sat_i64(double v)
{
	if (!(v > -9.2e18))
		return v < 0 ? INT64_MIN : 0;
	if (!(v < 9.2e18))
		return INT64_MAX;
	return (int64_t)v;
}

/* A horizontal deadline line with its label in the right margin. */
static void
deadline_h(struct al_plot *p, double ns, const char *cls, const char *name)
{
	char buf[64], d[32];
	double y;

	if (!(ns > 0) || ns < p->y.lo || ns > p->y.hi)
		return;
	y = al_scale_px(&p->y, ns);
	fprintf(p->f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls,
		p->left, y, p->right, y);
	fmt_dur(sat_i64(ns), d, sizeof(d));
	snprintf(buf, sizeof(buf), "%s %s", name, d);
	snprintf(d, sizeof(d), "deadline dl-%s", cls);
	al_svg_text(p->f, p->right + 6, y + 4, "start", d, buf);
}

/* A vertical deadline line on a latency x axis, labelled at the top. */
static void
deadline_v(struct al_plot *p, double ns, const char *cls, const char *name)
{
	char d[32];
	double x;

	if (!(ns > 0) || ns < p->x.lo || ns > p->x.hi)
		return;
	x = al_scale_px(&p->x, ns);
	fprintf(p->f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls,
		x, p->top, x, p->bottom);
	snprintf(d, sizeof(d), "deadline dl-%s", cls);
	al_svg_text(p->f, x - 3, p->top + 12, "end", d, name);
}

struct legend_item {
	const char *kind; /* "band", "line:CLASS", "rect:CLASS", "dot:CLASS", "color:#rrggbb" */
	const char *text;
};

/* One row of legend items under the plot, from x = left. */
static void
legend(struct al_plot *p, double y, const struct legend_item *it, size_t n)
{
	double x = p->left;
	size_t i;

	fputs("<g class=\"legend\">\n", p->f);
	for (i = 0; i < n; i++) {
		const char *k = it[i].kind;
		/* a rough text width: enough for the labels we write */
		double w = 27 + 6.2 * (double)strlen(it[i].text) + 16;

		if (i && x + w > p->width - 8) {
			x = p->left;
			y += 16;
		}
		if (!strncmp(k, "line:", 5))
			fprintf(
			    p->f,
			    "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			    k + 5, x, y - 4, x + 22, y - 4);
		else if (!strncmp(k, "rect:", 5))
			fprintf(
			    p->f,
			    "<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"22\" height=\"10\"/>\n",
			    k + 5, x, y - 9);
		else if (!strncmp(k, "dot:", 4))
			fprintf(p->f, "<circle class=\"%s\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"/>\n",
				k + 4, x + 11, y - 4);
		else if (!strncmp(k, "color:", 6))
			fprintf(
			    p->f,
			    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"%s\" "
			    "stroke-width=\"2.5\"/>\n",
			    x, y - 4, x + 22, y - 4, k + 6);
		al_svg_text(p->f, x + 27, y, "start", NULL, it[i].text);
		x += w;
	}
	fputs("</g>\n", p->f);
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
	truncate_utf8(name, buf, sizeof(buf), (size_t)fmin(room, 40));
	al_svg_text(p->f, x0 + 4, p->top + 13, "start", "phasename", buf);
}

/*
 * One cause of a spike (docs/json.md): {kind, name, pid, duration_ns, pct}
 * as "irq eth0 [42] 120.0 µs (35.1 %)"; a string as it is; anything else
 * as compact JSON.
 */
static void
cause_text(FILE *f, const json_t *c)
{
	char *text;

	if (json_is_string(c)) {
		esc(f, json_string_value(c));
		return;
	}
	if (json_is_object(c) && json_is_string(json_object_get(c, "kind"))) {
		char d[32];

		esc(f, al_doc_str(c, "kind", "?"));
		if (al_doc_str(c, "name", NULL)) {
			fputc(' ', f);
			esc(f, al_doc_str(c, "name", ""));
		}
		if (json_is_integer(json_object_get(c, "pid")) && al_doc_int(c, "pid", -1) >= 0)
			fprintf(f, " [%" PRId64 "]", al_doc_int(c, "pid", -1));
		if (json_is_number(json_object_get(c, "duration_ns"))) {
			fmt_dur(al_doc_int(c, "duration_ns", 0), d, sizeof(d));
			fprintf(f, " %s", d);
		}
		if (json_is_number(json_object_get(c, "pct")))
			fprintf(f, " (%.1f %%)", al_doc_real(c, "pct", 0));
		return;
	}
	text = json_dumps(c, JSON_COMPACT | JSON_ENCODE_ANY);
	esc(f, text ? text : "?");
	free(text);
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
		cause_text(f, c);
		if (i >= 20) {
			fputs("; ...", f);
			break;
		}
	}
}

#define MARKS_MAX 2000

static void
plot_timeline(struct rctx *c, const json_t *doc)
{
	FILE *f = c->f;
	struct al_dseries s;
	struct al_plot p;
	struct bin *b = NULL;
	size_t nb, i;
	double lo = INFINITY, hi = 0, dur_s, period_ns, buffer_ns;
	const json_t *phases = json_object_get(doc, "phases"), *ph, *events, *ev, *spikes;
	bool in_seg;
	int k;

	if (al_dseries_from_json(doc, &s) || !s.n) {
		fputs("<p class=\"small\">No time series in this result.</p>\n", f);
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
	lo = fmax(decade_floor(lo), 1);
	hi = decade_ceil(hi * 1.2);
	if (hi <= lo * 10)
		hi = lo * 100;

	al_plot_begin(&p, f, ++c->plot_id, 1000, 360, 70, 10, 120, 62,
		      "wake latency and max interval per window over the run, log scale");
	p.x.lo = 0;
	p.x.hi = dur_s > 0 ? dur_s : 1;
	p.y.lo = lo;
	p.y.hi = hi;
	p.y.log = true;
	al_plot_clip_begin(&p);
	/* load phases, shaded by turns and named */
	json_array_foreach(phases, i, ph)
	{
		double t0 = al_doc_real(ph, "start_ns", 0) / 1e9,
		       t1 = al_doc_real(ph, "end_ns", 0) / 1e9;
		double x0 = al_scale_px(&p.x, t0), x1 = al_scale_px(&p.x, t1 > t0 ? t1 : p.x.hi);

		fprintf(f,
			"<rect class=\"phase%zu\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			"height=\"%.1f\"><title>phase ",
			i % 2, x0, p.top, x1 - x0, p.bottom - p.top);
		esc(f, al_doc_str(ph, "name", "?"));
		fputs(": ", f);
		esc(f, al_doc_str(ph, "load", ""));
		fputs("</title></rect>\n", f);
	}
	al_plot_clip_end(&p); /* the axes go over the shading, the data over the axes */
	al_plot_axes(&p, "time since the stream started", "latency (log scale)", al_tick_time_s,
		     al_tick_ns);
	al_plot_clip_begin(&p);
	json_array_foreach(phases, i, ph)
	{
		double t0 = al_doc_real(ph, "start_ns", 0) / 1e9,
		       t1 = al_doc_real(ph, "end_ns", 0) / 1e9;
		double x0 = al_scale_px(&p.x, t0), x1 = al_scale_px(&p.x, t1 > t0 ? t1 : p.x.hi);

		if (i)
			fprintf(f,
				"<line class=\"phaseline\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/>\n",
				x0, p.top, x0, p.bottom);
		phase_label(&p, x0, x1, al_doc_str(ph, "name", "?"));
	}
	/* windows where nothing woke up */
	for (i = 0; i < nb; i++)
		if (b[i].stalled)
			fprintf(
			    f,
			    "<rect class=\"stall\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" "
			    "height=\"%.1f\"><title>no wake-up in %d window(s)</title></rect>\n",
			    al_scale_px(&p.x, b[i].t0_s), p.top,
			    fmax(1, al_scale_px(&p.x, b[i].t1_s) - al_scale_px(&p.x, b[i].t0_s)),
			    p.bottom - p.top, b[i].stalled);
	/* min..max band, one polygon per stretch of windows with wake-ups */
	for (i = 0; i < nb;) {
		size_t j, e;

		if (!b[i].periods) {
			i++;
			continue;
		}
		for (e = i; e < nb && b[e].periods; e++)
			;
		fputs("<polygon class=\"band\" points=\"", f);
		for (j = i; j < e; j++)
			fprintf(f, "%.1f,%.1f %.1f,%.1f ", al_scale_px(&p.x, b[j].t0_s),
				al_scale_px(&p.y, (double)b[j].max_ns),
				al_scale_px(&p.x, b[j].t1_s),
				al_scale_px(&p.y, (double)b[j].max_ns));
		for (j = e; j-- > i;)
			fprintf(f, "%.1f,%.1f %.1f,%.1f ", al_scale_px(&p.x, b[j].t1_s),
				al_scale_px(&p.y, (double)b[j].min_ns),
				al_scale_px(&p.x, b[j].t0_s),
				al_scale_px(&p.y, (double)b[j].min_ns));
		fputs("\"/>\n", f);
		i = e;
	}
	/* mean and max interval: polylines broken where nothing woke */
	for (k = 0; k < 2; k++) {
		in_seg = false;
		for (i = 0; i < nb; i++) {
			double v = k ? (double)b[i].interval_max_ns : b[i].mean_ns;
			double xm = al_scale_px(&p.x, (b[i].t0_s + b[i].t1_s) / 2);

			if (!b[i].periods || !(v > 0)) {
				if (in_seg)
					fputs("\"/>\n", f);
				in_seg = false;
				continue;
			}
			if (!in_seg)
				polyline_begin(f, k ? "interval" : "mean");
			in_seg = true;
			fprintf(f, "%.1f,%.1f ", xm, al_scale_px(&p.y, v));
		}
		if (in_seg)
			fputs("\"/>\n", f);
	}
	/* xruns: each event, or per window when there are too many to draw */
	events = json_object_get(doc, "xrun_events");
	if (json_array_size(events) && json_array_size(events) <= MARKS_MAX) {
		json_array_foreach(events, i, ev)
		{
			double t = al_doc_real(ev, "t_ns", 0) / 1e9;
			double d = al_doc_real(ev, "duration_ns", 0) / 1e9;
			double x = al_scale_px(&p.x, t), x2 = al_scale_px(&p.x, t + d);
			char dd[32];

			fmt_dur(al_doc_int(ev, "duration_ns", 0), dd, sizeof(dd));
			fprintf(f,
				"<g><title>xrun at %.3f s: starved %s, %" PRId64
				" period(s) lost, phase ",
				t, dd, al_doc_int(ev, "lost_periods", 0));
			esc(f, al_doc_str(ev, "phase", "?"));
			fputs("</title>", f);
			if (x2 - x > 1)
				fprintf(f,
					"<rect class=\"xrunspan\" x=\"%.1f\" y=\"%.1f\" "
					"width=\"%.1f\" height=\"%.1f\"/>",
					x, p.top, x2 - x, p.bottom - p.top);
			fprintf(f,
				"<line class=\"xrun\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/><path class=\"xrunmark\" d=\"M%.1f %.1fl-5 -9h10z\"/>"
				"</g>\n",
				x, p.top, x, p.bottom, x, p.bottom);
		}
	} else {
		for (i = 0; i < nb; i++) {
			double x;

			if (!b[i].xruns)
				continue;
			x = al_scale_px(&p.x, (b[i].t0_s + b[i].t1_s) / 2);
			fprintf(f,
				"<g><title>%.0f xrun(s) at %.1f s</title><line class=\"xrun\" "
				"x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/><path "
				"class=\"xrunmark\" d=\"M%.1f %.1fl-5 -9h10z\"/></g>\n",
				b[i].xruns, b[i].t0_s, x, p.top, x, p.bottom, x, p.bottom);
		}
	}
	/* spikes (when the document has them): where, how late, and why */
	spikes = json_object_get(doc, "spikes");
	json_array_foreach(spikes, i, ev)
	{
		double t = al_doc_real(ev, "t_ns", 0) / 1e9, v = al_doc_real(ev, "latency_ns", 0);
		char dd[32];

		if (i >= MARKS_MAX)
			break;
		fmt_dur(sat_i64(v), dd, sizeof(dd));
		fprintf(f,
			"<circle class=\"spike\" cx=\"%.1f\" cy=\"%.1f\" r=\"4\"><title>spike at "
			"%.3f s: %s",
			al_scale_px(&p.x, t), al_scale_px(&p.y, v), t, dd);
		spike_causes(f, json_object_get(ev, "causes"));
		fputs("</title></circle>\n", f);
	}
	al_plot_clip_end(&p);
	deadline_h(&p, period_ns, "period", "period");
	deadline_h(&p, buffer_ns, "buffer", "buffer");
	{
		struct legend_item items[7];
		size_t n = 0;

		items[n++] = (struct legend_item){"rect:band", "wake latency min-max per window"};
		items[n++] = (struct legend_item){"line:mean", "mean"};
		items[n++] = (struct legend_item){"line:interval", "max interval"};
		items[n++] = (struct legend_item){"line:period", "period"};
		items[n++] = (struct legend_item){"line:buffer", "buffer"};
		items[n++] = (struct legend_item){"line:xrun", "xrun"};
		if (json_array_size(spikes))
			items[n++] = (struct legend_item){"dot:spike", "spike"};
		legend(&p, p.bottom + 56, items, n);
	}
	al_plot_end(&p);
	free(b);
	al_dseries_free(&s);
}

/* ---- histogram and CCDF --------------------------------------------------------------- */

#define BINS_PER_DECADE 20

/* The latency axis both plots share: the data, and the deadlines beside it. */
static void
latency_range(const struct al_dhist *h, double period_ns, double buffer_ns, double *lo, double *hi)
{
	double mn = (double)(h->min_ns > 0 ? h->min_ns : 1), mx = (double)h->max_ns;

	/* at most the int64 range, whatever a document says its deadlines are */
	mx = fmin(fmax(mx, fmax(period_ns, buffer_ns)), 1e19);
	*lo = fmax(decade_floor(mn), 1);
	*hi = decade_ceil(fmax(mx * 1.05, *lo * 10));
}

/* A histogram on log scales, with the period and buffer deadlines (0: none). */
static void
plot_histogram(struct rctx *c, const struct al_dhist *h, double period_ns, double buffer_ns,
	       const char *title, const char *xlabel, const char *ylabel)
{
	double lo, hi, peak = 0;
	uint64_t *bins;
	int nbins, d0, i;
	struct al_plot p;
	size_t j;

	latency_range(h, period_ns, buffer_ns, &lo, &hi);
	d0 = (int)lround(log10(lo));
	nbins = (int)lround(log10(hi / lo)) * BINS_PER_DECADE;
	bins = calloc((size_t)nbins + 1, sizeof(*bins));
	if (!bins)
		return;
	for (j = 0; j < h->n; j++) {
		double mid = ((double)h->b[j].low_ns + (double)h->b[j].high_ns - 1) / 2;

		i = mid > 0 ? (int)floor((log10(mid) - d0) * BINS_PER_DECADE) : 0;
		if (i < 0)
			i = 0;
		if (i >= nbins)
			i = nbins - 1;
		bins[i] += h->b[j].count;
	}
	for (i = 0; i < nbins; i++)
		peak = fmax(peak, (double)bins[i]);
	al_plot_begin(&p, c->f, ++c->plot_id, 490, 300, 62, 10, 16, 44, title);
	p.x.lo = lo;
	p.x.hi = hi;
	p.x.log = true;
	p.y.lo = 0.7; /* below 1, so a count of 1 shows; no tick under 1 */
	p.y.hi = decade_ceil(fmax(peak, 1) * 1.5);
	p.y.log = true;
	al_plot_axes(&p, xlabel, ylabel, al_tick_ns, al_tick_count);
	al_plot_clip_begin(&p);
	for (i = 0; i < nbins; i++) {
		double x0, x1, y;

		if (!bins[i])
			continue;
		x0 = al_scale_px(&p.x, pow(10, d0 + (double)i / BINS_PER_DECADE));
		x1 = al_scale_px(&p.x, pow(10, d0 + (double)(i + 1) / BINS_PER_DECADE));
		y = al_scale_px(&p.y, (double)bins[i]);
		fprintf(c->f,
			"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			"<title>%" PRIu64 "</title></rect>\n",
			x0, y, fmax(x1 - x0 - 0.5, 0.5), p.bottom - y, bins[i]);
	}
	deadline_v(&p, period_ns, "period", "period");
	deadline_v(&p, buffer_ns, "buffer", "buffer");
	al_plot_clip_end(&p);
	al_plot_end(&p);
	free(bins);
}

/* The survival function of one histogram as a step line. */
static void
ccdf_line(struct al_plot *p, const struct al_dhist *h, const char *color)
{
	double total = (double)h->count, left, x, y;
	uint64_t cum = 0;
	size_t j;

	if (!h->count)
		return;
	fprintf(p->f, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.8\" points=\"",
		color);
	x = al_scale_px(&p->x, (double)(h->min_ns > 0 ? h->min_ns : 1));
	fprintf(p->f, "%.1f,%.1f ", p->left, al_scale_px(&p->y, 1));
	fprintf(p->f, "%.1f,%.1f ", x, al_scale_px(&p->y, 1));
	for (j = 0; j < h->n; j++) {
		cum += h->b[j].count;
		left = (total - (double)cum) / total;
		x = al_scale_px(&p->x, (double)h->b[j].high_ns);
		fprintf(p->f, "%.1f,%.1f ", x,
			al_scale_px(&p->y, (total - (double)(cum - h->b[j].count)) / total));
		if (left <= 0) {
			fprintf(p->f, "%.1f,%.1f ", x, p->bottom);
			break;
		}
		y = al_scale_px(&p->y, left);
		fprintf(p->f, "%.1f,%.1f ", x, y);
	}
	if (cum < h->count) /* the overflow: beyond the last bucket, up to the max */
		fprintf(p->f, "%.1f,%.1f %.1f,%.1f", al_scale_px(&p->x, (double)h->max_ns),
			al_scale_px(&p->y, (total - (double)cum) / total),
			al_scale_px(&p->x, (double)h->max_ns), p->bottom);
	fputs("\"/>\n", p->f);
}

/*
 * CCDF of one or several results; docs[i] and h[i] go together, idx[i] is
 * the result's place in the page (its letter and colour; NULL: i).
 */
static void
plot_ccdf(struct rctx *c, const json_t *const *docs, const struct al_dhist *h, size_t n,
	  const size_t *idx, const char *title)
{
	static const struct {
		double frac;
		const char *name;
	} refs[] = {{0.5, "p50"}, {0.01, "p99"}, {0.001, "p99.9"}, {0.0001, "p99.99"}};
	double lo = INFINITY, hi = 0, l, hh, maxcount = 1;
	struct al_plot p;
	size_t i, rows;

	for (i = 0; i < n; i++) {
		if (!h[i].count)
			continue;
		latency_range(&h[i], al_doc_real(docs[i], "config.period_ns", 0),
			      al_doc_real(docs[i], "config.buffer_ns", 0), &l, &hh);
		lo = fmin(lo, l);
		hi = fmax(hi, hh);
		maxcount = fmax(maxcount, (double)h[i].count);
	}
	if (!isfinite(lo)) {
		lo = 1e3;
		hi = 1e7;
	}
	/* several results: a legend under the axis, four to a row */
	rows = n > 1 ? (n + 3) / 4 : 0;
	al_plot_begin(&p, c->f, ++c->plot_id, n > 1 ? 1000 : 490,
		      256 + (rows ? 62 + 16 * (rows - 1) : 44), 62, 10, n > 1 ? 120 : 46,
		      rows ? 62 + 16 * (rows - 1) : 44, title);
	p.x.lo = lo;
	p.x.hi = hi;
	p.x.log = true;
	p.y.lo = fmin(decade_floor(1 / maxcount), 0.1);
	p.y.hi = 1;
	p.y.log = true;
	al_plot_axes(&p, "wake latency (log scale)", "periods later than x (log scale)", al_tick_ns,
		     al_tick_fraction);
	for (i = 0; i < sizeof(refs) / sizeof(refs[0]); i++) {
		double y = al_scale_px(&p.y, refs[i].frac);

		if (refs[i].frac < p.y.lo)
			continue;
		fprintf(c->f,
			"<line class=\"ref\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			p.left, y, p.right, y);
		al_svg_text(c->f, p.right + 4, y + 3, "start", "reflabel", refs[i].name);
	}
	al_plot_clip_begin(&p);
	for (i = 0; i < n; i++)
		ccdf_line(&p, &h[i], n > 1 ? palette[(idx ? idx[i] : i) % PALETTE_N] : "#08519c");
	if (n == 1) {
		deadline_v(&p, al_doc_real(docs[0], "config.period_ns", 0), "period", "period");
		deadline_v(&p, al_doc_real(docs[0], "config.buffer_ns", 0), "buffer", "buffer");
	}
	al_plot_clip_end(&p);
	if (n > 1) {
		struct legend_item *items = calloc(n, sizeof(*items));
		char(*texts)[48] = calloc(n, sizeof(*texts));
		char(*colors)[16] = calloc(n, sizeof(*colors));

		if (items && texts && colors) {
			for (i = 0; i < n; i++) {
				char lab[40];

				size_t k = idx ? idx[i] : i;

				truncate_utf8(al_doc_label(docs[i]), lab, sizeof(lab), 24);
				snprintf(texts[i], sizeof(texts[i]), "%c %s", (char)('A' + k % 26),
					 lab);
				snprintf(colors[i], sizeof(colors[i]), "color:%s",
					 palette[k % PALETTE_N]);
				items[i] = (struct legend_item){colors[i], texts[i]};
			}
			legend(&p, p.bottom + 56, items, n);
		}
		free(items);
		free(texts);
		free(colors);
	}
	al_plot_end(&p);
}

/* ---- tables --------------------------------------------------------------------------- */

static void
cards(FILE *f, const json_t *doc)
{
	const json_t *t = json_object_get(doc, "total");
	int64_t xruns = al_doc_int(t, "xruns", 0);
	char buf[48];

	fputs("<div class=\"cards\">\n", f);
	/* max latency: the per-period wake latency (run/1: per wake-up, and said so) */
	fmt_dur(al_doc_int(t, "wake_latency_ns.max", 0), buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>max latency%s</span></div>\n", buf,
		al_doc_per_period(doc) ? " (per period)" : " (per wake-up: run/1)");
	if (json_is_number(json_object_get(t, "max_latency_pct_of_buffer")))
		fprintf(f, "<div class=\"card\"><b>%.1f %%</b><span>of the buffer</span></div>\n",
			al_doc_real(t, "max_latency_pct_of_buffer", 0));
	fmt_dur(al_doc_int(t, "interval_ns.max", 0), buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>max interval</span></div>\n", buf);
	for (int k = 1; k <= 2; k++) {
		double v = al_doc_real(t, k == 1 ? "within_1ms_pct" : "within_2ms_pct", NAN);

		if (isfinite(v))
			fprintf(f, "<div class=\"card\"><b>%.3f</b><span>%dMS factor</span></div>\n",
				v, k);
		else /* not measured */
			fprintf(f, "<div class=\"card\"><b>-</b><span>%dMS factor</span></div>\n", k);
	}
	fmt_dur(al_doc_int(t, "wake_latency_ns.p99", 0), buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>p99 wake latency</span></div>\n", buf);
	fmt_dur(al_doc_int(t, "wake_latency_per_wakeup_ns.p99", 0), buf, sizeof(buf));
	if (json_is_integer(al_doc_get(t, "wake_latency_per_wakeup_ns.p99")))
		fprintf(f, "<div class=\"card\"><b>%s</b><span>p99 per wake-up</span></div>\n", buf);
	fprintf(f,
		"<div class=\"card %s\"><b>%" PRId64 "</b><span>xruns (%" PRId64
		" periods lost)</span></div>\n",
		xruns ? "bad" : "good", xruns, al_doc_int(t, "lost_periods", 0));
	fprintf(f, "<div class=\"card\"><b>%" PRId64 "</b><span>periods</span></div>\n",
		al_doc_int(t, "periods", 0));
	fputs("</div>\n", f);
}

static void
throughput_cell(FILE *f, const json_t *tp)
{
	const char *name;
	const json_t *v;
	bool first = true;

	fputs("<td class=\"small\">", f);
	json_object_foreach((json_t *)tp, name, v)
	{
		char buf[48];

		if (!first)
			fputs("<br/>", f);
		first = false;
		esc(f, name);
		snprintf(buf, sizeof(buf), " %.6g ", al_doc_real(v, "value", 0));
		fputs(buf, f);
		esc(f, al_doc_str(v, "unit", ""));
	}
	if (first)
		fputs("-", f);
	fputs("</td>", f);
}

static void
phase_table(FILE *f, const json_t *doc)
{
	const json_t *phases = json_object_get(doc, "phases"), *ph;
	size_t i;

	if (!json_array_size(phases))
		return;
	fputs("<h3>Phases</h3>\n<table class=\"phases\">\n<thead><tr><th>phase</th><th>time</th>"
	      "<th>periods</th><th>max latency</th><th>% of buffer</th><th>1MS</th><th>2MS</th>"
	      "<th>p50 wake</th><th>p99 wake</th><th>p99.9 wake</th><th>max interval</th>"
	      "<th>xruns</th><th>lost</th><th>throughput</th></tr></thead>\n<tbody>\n",
	      f);
	json_array_foreach(phases, i, ph)
	{
		const char *err = al_doc_str(ph, "error", NULL);

		fputs("<tr><td><b>", f);
		esc(f, al_doc_str(ph, "name", "?"));
		fputs("</b><br/><span class=\"small\">", f);
		esc(f, al_doc_str(ph, "load", ""));
		fputs("</span>", f);
		if (err) {
			fputs("<br/><span class=\"fail\">FAILED: ", f);
			esc(f, err);
			fputs("</span>", f);
		}
		fprintf(f, "</td><td class=\"num\">%.1f-%.1f s</td>",
			al_doc_real(ph, "start_ns", 0) / 1e9, al_doc_real(ph, "end_ns", 0) / 1e9);
		td_int(f, ph, "periods");
		td_dur(f, ph, "wake_latency_ns.max");
		td_real(f, ph, "max_latency_pct_of_buffer", "%.1f", " %");
		td_real(f, ph, "within_1ms_pct", "%.3f", "");
		td_real(f, ph, "within_2ms_pct", "%.3f", "");
		td_dur(f, ph, "wake_latency_ns.p50");
		td_dur(f, ph, "wake_latency_ns.p99");
		td_dur(f, ph, "wake_latency_ns.p999");
		td_dur(f, ph, "interval_ns.max");
		td_int(f, ph, "xruns");
		td_int(f, ph, "lost_periods");
		throughput_cell(f, json_object_get(ph, "throughput"));
		fputs("</tr>\n", f);
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
			td_dur(f, doc, path);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void
xrun_table(FILE *f, const json_t *doc)
{
	const json_t *events = json_object_get(doc, "xrun_events"), *ev;
	size_t i, n = json_array_size(events);
	int64_t dropped = al_doc_int(doc, "xrun_events_dropped", 0);

	if (!n)
		return;
	fprintf(f, "<h3>Xruns</h3>\n<table class=\"xruns\"><thead><tr><th>#</th><th>at</th>"
		   "<th>starved</th><th>periods lost</th><th>phase</th></tr></thead><tbody>\n");
	json_array_foreach(events, i, ev)
	{
		if (i == 100)
			break;
		fprintf(f, "<tr><td class=\"num\">%zu</td><td class=\"num\">%.3f s</td>", i + 1,
			al_doc_real(ev, "t_ns", 0) / 1e9);
		td_dur(f, ev, "duration_ns");
		td_int(f, ev, "lost_periods");
		td_str(f, al_doc_str(ev, "phase", NULL));
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	if (n > 100 || dropped > 0)
		fprintf(f,
			"<p class=\"small\">%zu xrun(s) listed in the result, the first %zu shown; "
			"%" PRId64 " more not kept.</p>\n",
			n, n < 100 ? n : 100, dropped);
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
		td_dur(f, sp, "latency_ns");
		fputs("<td class=\"small\">", f);
		json_array_foreach(causes, k, cz)
		{
			if (k)
				fputs("<br/>", f);
			cause_text(f, cz);
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
	kv_str(f, cfg, "backend", "backend");
	kv_str(f, cfg, "device", "device");
	kv_int(f, cfg, "rate", "rate", " Hz");
	snprintf(buf, sizeof(buf), "%" PRId64 " x %" PRId64 " frames (%" PRId64 " frames)",
		 al_doc_int(cfg, "periods", 0), al_doc_int(cfg, "period_frames", 0),
		 al_doc_int(cfg, "buffer_frames", 0));
	kv(f, "buffer", buf);
	kv_dur(f, cfg, "period", "period_ns");
	kv_dur(f, cfg, "buffer time", "buffer_ns");
	kv_int(f, cfg, "cpu load", "cpu_load_pct", " % of a period");
	kv_int(f, doc, "priority applied", "priority", "");
	kv_bool(f, doc, "real-time (SCHED_FIFO)", "realtime");
	kv_bool(f, doc, "memory locked", "memory_locked");
	kv_int(f, cfg, "affinity", "affinity", "");
	kv_int(f, doc, "dma latency", "dma_latency_us", " µs");
	kv_str(f, cfg, "load", "load");
	kv_dur(f, doc, "duration", "duration_ns");
	kv_dur(f, doc, "window", "timeseries.window_ns");
	kv_bool(f, doc, "interrupted", "interrupted");
	kv_str(f, doc, "started at", "started_at");
	kv_str(f, doc, "audiolat", "tool_version");
	fputs("<tr><th>command line</th><td><code>", f);
	esc(f, al_doc_str(doc, "cmdline", "-"));
	fputs("</code></td></tr>\n</table>\n</div><div>\n<h3>System</h3>\n<table class=\"kv\">\n",
	      f);
	kv_str(f, sys, "hostname", "hostname");
	kv_str(f, sys, "kernel", "kernel_release");
	kv_str(f, sys, "kernel version", "kernel_version");
	snprintf(buf, sizeof(buf), "%s", al_doc_str(sys, "preempt", "-"));
	kv(f, "preemption", buf);
	kv_str(f, sys, "read from", "preempt_source");
	kv_str(f, sys, "machine", "machine");
	kv_str(f, sys, "CPU", "cpu_model");
	kv_int(f, sys, "CPUs", "cpus", "");
	kv_str(f, sys, "clocksource", "clocksource");
	fputs("</table>\n</div></div>\n", f);
}

static void
checks_table(FILE *f, const json_t *doc)
{
	const json_t *checks = al_doc_get(doc, "system.checks"), *c;
	size_t i;

	if (!json_is_object(checks))
		return;
	fprintf(f,
		"<h3>System checks</h3>\n<p class=\"small\">ok %" PRId64 ", warn %" PRId64
		", fail %" PRId64 ", skip %" PRId64 " (taken right after the run)</p>\n",
		al_doc_int(checks, "ok", 0), al_doc_int(checks, "warn", 0),
		al_doc_int(checks, "fail", 0), al_doc_int(checks, "skip", 0));
	fputs("<table class=\"checks\"><thead><tr><th>status</th><th>check</th><th>what</th>"
	      "<th>fix</th></tr></thead><tbody>\n",
	      f);
	json_array_foreach(json_object_get(checks, "checks"), i, c)
	{
		const char *st = al_doc_str(c, "status", "skip");
		const char *cls = !strcmp(st, "ok")	? "ok"
				  : !strcmp(st, "warn") ? "warn"
				  : !strcmp(st, "fail") ? "fail"
							: "skip";

		fprintf(f, "<tr><td class=\"%s\">", cls);
		esc(f, st);
		fputs("</td>", f);
		td_str(f, al_doc_str(c, "id", NULL));
		td_str(f, al_doc_str(c, "message", NULL));
		fputs("<td><code>", f);
		esc(f, al_doc_str(c, "fix", ""));
		fputs("</code></td></tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
}

static void
warnings_list(FILE *f, const json_t *doc)
{
	const json_t *w = json_object_get(doc, "warnings"), *s;
	size_t i;

	if (!json_array_size(w))
		return;
	fputs("<ul class=\"warnings\">\n", f);
	json_array_foreach(w, i, s)
	{
		fputs("<li>", f);
		esc(f, json_is_string(s) ? json_string_value(s) : "?");
		fputs("</li>\n", f);
	}
	fputs("</ul>\n", f);
}

static void
result_section(struct rctx *c, const struct al_html_input *in, size_t idx, size_t n,
	       const struct al_dhist *h)
{
	FILE *f = c->f;
	const json_t *doc = in->doc, *sys = json_object_get(doc, "system");
	char buf[200];

	fprintf(f, "<section class=\"result\" id=\"result-%zu\">\n<h2>", idx + 1);
	if (n > 1)
		fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>%c: ",
			palette[idx % PALETTE_N], (char)('A' + idx % 26));
	esc(f, al_doc_label(doc));
	fputs("</h2>\n<p class=\"meta\">", f);
	esc(f, al_doc_str(sys, "hostname", "?"));
	fputs(" · kernel ", f);
	esc(f, al_doc_str(sys, "kernel_release", "?"));
	fputs(" (preempt ", f);
	esc(f, al_doc_str(sys, "preempt", "?"));
	fputs(") · ", f);
	esc(f, al_doc_str(doc, "config.backend", "?"));
	fmt_dur(al_doc_int(doc, "config.buffer_ns", 0), buf, sizeof(buf));
	fprintf(f, " %" PRId64 " Hz, %" PRId64 " x %" PRId64 " frames (buffer %s) · ",
		al_doc_int(doc, "config.rate", 0), al_doc_int(doc, "config.periods", 0),
		al_doc_int(doc, "config.period_frames", 0), buf);
	esc(f, al_doc_str(doc, "started_at", "?"));
	if (in->source) {
		fputs(" · <code>", f);
		esc(f, in->source);
		fputs("</code>", f);
	}
	fputs("</p>\n", f);
	if (!al_doc_bool(doc, "realtime", true))
		fputs(
		    "<p class=\"warn\">Not real-time: the audio thread did not run at SCHED_FIFO, "
		    "so these are not real-time figures.</p>\n",
		    f);
	if (al_doc_bool(doc, "interrupted", false))
		fputs(
		    "<p class=\"warn\">The run was interrupted: what was measured until then.</p>\n",
		    f);
	cards(f, doc);
	warnings_list(f, doc);
	fputs("<h3>Latency over time</h3>\n<figure>\n", f);
	plot_timeline(c, doc);
	fputs("<figcaption>Per time-series window: the band spans the lowest to the highest wake "
	      "latency (wake-up - period boundary), the line is its mean; the grey line is the "
	      "longest interval between wake-ups (latencytest's total latency). Longer than the "
	      "buffer means the card ran dry.</figcaption>\n</figure>\n",
	      f);
	fputs("<div class=\"plots\">\n<figure>\n", f);
	plot_histogram(c, h, al_doc_real(doc, "config.period_ns", 0),
		       al_doc_real(doc, "config.buffer_ns", 0),
		       "histogram of the wake latency, log scales", "wake latency (log scale)",
		       "periods (log scale)");
	fprintf(f, "<figcaption>Wake latency histogram (%" PRIu64 " periods", h->count);
	if (h->overflow)
		fprintf(f, ", %" PRIu64 " beyond the last bucket", h->overflow);
	fputs(").</figcaption>\n</figure>\n<figure>\n", f);
	plot_ccdf(c, &doc, h, 1, NULL, "share of periods later than x, log scales");
	fputs("<figcaption>Complementary CDF: the share of periods whose wake latency exceeded x; "
	      "where the curve crosses the p99 line is the 99th percentile.</figcaption>\n"
	      "</figure>\n</div>\n",
	      f);
	percentile_table(f, doc);
	phase_table(f, doc);
	xrun_table(f, doc);
	spike_table(f, doc);
	config_tables(f, doc);
	checks_table(f, doc);
	fputs("</section>\n", f);
}

/* ---- MIDI results (audiolat.midi/1, docs/midi.md) --------------------------------------- */

/* The deltas on a linear axis around the interval: the buckets as bars, log counts. */
static void
plot_deltas(struct rctx *c, const struct al_dhist *h, double interval_ns)
{
	double lo, hi, pad, peak = 1;
	struct al_plot p;
	size_t j;

	lo = (double)h->b[0].low_ns;
	hi = (double)h->b[h->n - 1].high_ns;
	if (interval_ns > 0) {
		lo = fmin(lo, interval_ns);
		hi = fmax(hi, interval_ns);
	}
	pad = fmax((hi - lo) * 0.05, 1);
	lo -= pad;
	hi += pad;
	for (j = 0; j < h->n; j++)
		peak = fmax(peak, (double)h->b[j].count);
	al_plot_begin(&p, c->f, ++c->plot_id, 490, 300, 62, 10, 16, 44,
		      "histogram of the delta times between events");
	p.x.lo = lo;
	p.x.hi = hi;
	p.y.lo = 0.7; /* below 1, so a count of 1 shows; no tick under 1 */
	p.y.hi = decade_ceil(peak * 1.5);
	p.y.log = true;
	al_plot_axes(&p, "delta time between events", "deltas (log scale)", al_tick_ns,
		     al_tick_count);
	al_plot_clip_begin(&p);
	for (j = 0; j < h->n; j++) {
		double x0 = al_scale_px(&p.x, (double)h->b[j].low_ns);
		double x1 = al_scale_px(&p.x, (double)h->b[j].high_ns);
		double y = al_scale_px(&p.y, (double)h->b[j].count);

		fprintf(c->f,
			"<rect class=\"bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
			"<title>%" PRIu64 "</title></rect>\n",
			x0, y, fmax(x1 - x0, 1.5), p.bottom - y, h->b[j].count);
	}
	deadline_v(&p, interval_ns, "period", "interval");
	al_plot_clip_end(&p);
	al_plot_end(&p);
}

/* Every scalar of an object as rows of a key/value table; deeper values as compact JSON. */
static void
kv_object(FILE *f, const json_t *o)
{
	const char *key;
	json_t *v;

	json_object_foreach((json_t *)o, key, v)
	{
		char buf[64], *text = NULL;

		fputs("<tr><th>", f);
		esc(f, key);
		fputs("</th>", f);
		if (json_is_string(v)) {
			td_str(f, json_string_value(v));
		} else if (json_is_integer(v)) {
			snprintf(buf, sizeof(buf), "%" JSON_INTEGER_FORMAT, json_integer_value(v));
			td_str(f, buf);
		} else if (json_is_real(v)) {
			snprintf(buf, sizeof(buf), "%.6g", json_real_value(v));
			td_str(f, buf);
		} else if (json_is_boolean(v)) {
			td_str(f, json_is_true(v) ? "yes" : "no");
		} else if (json_is_null(v)) {
			td_str(f, NULL);
		} else {
			text = json_dumps(v, JSON_COMPACT);
			fputs("<td><code>", f);
			esc(f, text ? text : "?");
			fputs("</code></td>", f);
			free(text);
		}
		fputs("</tr>\n", f);
	}
}

/* MIDI deltas over time: a min..max bar per window of the timeline, the interval dashed. */
static void
plot_midi_timeline(struct rctx *c, const json_t *tl, double interval_ns)
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
	deadline_h(&p, interval_ns, "period", "interval");
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

static void
midi_card_dur(FILE *f, const json_t *doc, const char *path, const char *what)
{
	char buf[32];

	if (!json_is_number(al_doc_get(doc, path)))
		return;
	fmt_dur(al_doc_int(doc, path, 0), buf, sizeof(buf));
	fprintf(f, "<div class=\"card\"><b>%s</b><span>%s</span></div>\n", buf, what);
}

static void
midi_section(struct rctx *c, const struct al_html_input *in, size_t idx, size_t n,
	     const struct al_dhist *h)
{
	FILE *f = c->f;
	const json_t *doc = in->doc, *phases = json_object_get(doc, "phases"), *ph;
	struct al_dhist jit;
	size_t i;

	fprintf(f, "<section class=\"result midi\" id=\"result-%zu\">\n<h2>", idx + 1);
	if (n > 1)
		fprintf(f, "<span class=\"swatch\" style=\"background:%s\"></span>%c: ",
			palette[idx % PALETTE_N], (char)('A' + idx % 26));
	if (al_doc_str(doc, "label", NULL)) {
		esc(f, al_doc_str(doc, "label", ""));
	} else {
		const char *file = al_doc_str(doc, "source.file", "result"),
			   *slash = strrchr(file, '/');

		esc(f, slash && slash[1] ? slash + 1 : file);
	}
	fputs(" (MIDI ", f);
	esc(f, al_doc_str(doc, "kind", "?"));
	fputs(")</h2>\n<p class=\"meta\">", f);
	esc(f, al_doc_str(doc, "config.backend", "?"));
	if (al_doc_str(doc, "source.in", NULL)) {
		fputs(" port ", f);
		esc(f, al_doc_str(doc, "source.in", ""));
	}
	if (json_is_object(json_object_get(doc, "system"))) {
		fputs(" · ", f);
		esc(f, al_doc_str(doc, "system.hostname", "?"));
		fputs(" · kernel ", f);
		esc(f, al_doc_str(doc, "system.kernel_release", "?"));
	}
	fputs(" · ", f);
	esc(f, al_doc_str(doc, "started_at", "?"));
	if (in->source) {
		fputs(" · <code>", f);
		esc(f, in->source);
		fputs("</code>", f);
	}
	fputs("</p>\n<div class=\"cards\">\n", f);
	if (!strcmp(al_doc_str(doc, "schema", ""), "audiolat.midi-loop/1")) {
		/* a loop: round-trip latencies, not deltas */
		fprintf(f, "<div class=\"card\"><b>%" PRId64 "</b><span>echoed</span></div>\n",
			al_doc_int(doc, "echoed", 0));
		fprintf(f, "<div class=\"card %s\"><b>%" PRId64 "</b><span>lost</span></div>\n",
			al_doc_int(doc, "lost", 0) ? "bad" : "good", al_doc_int(doc, "lost", 0));
		midi_card_dur(f, doc, "latency_min_ns", "min round trip");
		midi_card_dur(f, doc, "latency_mean_ns", "mean round trip");
		midi_card_dur(f, doc, "latency_p99_ns", "p99 round trip");
		midi_card_dur(f, doc, "latency_max_ns", "max round trip");
		midi_card_dur(f, doc, "jitter_peak_ns", "peak-to-peak jitter");
		fputs("</div>\n", f);
		warnings_list(f, doc);
		goto tables;
	}
	fprintf(f, "<div class=\"card\"><b>%" PRId64 "</b><span>events</span></div>\n",
		al_doc_int(doc, "events", 0));
	midi_card_dur(f, doc, "interval_ns",
		      al_doc_bool(doc, "interval_auto", false) ? "interval (found)" : "interval");
	midi_card_dur(f, doc, "delta_min_ns", "shortest delta");
	midi_card_dur(f, doc, "delta_max_ns", "longest delta");
	midi_card_dur(f, doc, "delta_p99_ns", "p99 delta");
	midi_card_dur(f, doc, "jitter_abs_max_ns", "max |delta - interval|");
	midi_card_dur(f, doc, "jitter_mean_abs_ns", "mean |delta - interval|");
	if (json_is_integer(al_doc_get(doc, "source.xruns")))
		fprintf(f,
			"<div class=\"card %s\"><b>%" PRId64 "</b><span>xruns, %" PRId64
			" dropped</span></div>\n",
			al_doc_int(doc, "source.xruns", 0) ? "bad" : "good",
			al_doc_int(doc, "source.xruns", 0), al_doc_int(doc, "source.dropped", 0));
	fputs("</div>\n", f);
	warnings_list(f, doc);
	if (al_doc_str(doc, "resolution_note", NULL)) {
		fputs("<p class=\"small\">", f);
		esc(f, al_doc_str(doc, "resolution_note", ""));
		fputs("</p>\n", f);
	}
	fputs("<div class=\"plots\">\n", f);
	if (h->n) {
		fputs("<figure>\n", f);
		plot_deltas(c, h, al_doc_real(doc, "interval_ns", 0));
		fprintf(f,
			"<figcaption>The %" PRIu64 " delta times between events, with the "
			"interval they should be (dashed).</figcaption>\n</figure>\n",
			h->count);
	}
	if (!al_dhist_from_json(json_object_get(doc, "jitter_histogram"), NULL, &jit) && jit.n) {
		fputs("<figure>\n", f);
		plot_histogram(c, &jit, 0, 0, "histogram of |delta - interval|, log scales",
			       "|delta - interval| (log scale)", "deltas (log scale)");
		fputs("<figcaption>How far each delta strayed from the interval.</figcaption>\n"
		      "</figure>\n",
		      f);
	}
	al_dhist_free(&jit);
	if (json_array_size(al_doc_get(doc, "timeline.rows"))) {
		fputs("<figure>\n", f);
		plot_midi_timeline(c, json_object_get(doc, "timeline"),
				   al_doc_real(doc, "interval_ns", 0));
		fputs("<figcaption>The shortest and longest delta in each window over the "
		      "recording, with the interval (dashed).</figcaption>\n</figure>\n",
		      f);
	}
	fputs("</div>\n", f);
	if (!h->n)
		fputs("<p class=\"small\">No deltas: fewer than two events.</p>\n", f);
tables:
	if (json_array_size(phases)) {
		fputs("<h3>Phases</h3>\n<table class=\"phases\"><thead><tr><th>phase</th>"
		      "<th>time</th><th>events</th><th>deltas</th><th>longest delta</th>"
		      "<th>max |delta - interval|</th></tr></thead><tbody>\n",
		      f);
		json_array_foreach(phases, i, ph)
		{
			fputs("<tr><td><b>", f);
			esc(f, al_doc_str(ph, "name", "?"));
			fputs("</b><br/><span class=\"small\">", f);
			esc(f, al_doc_str(ph, "load", ""));
			fprintf(f, "</span></td><td class=\"num\">%.1f-%.1f s</td>",
				al_doc_real(ph, "start_ns", 0) / 1e9,
				al_doc_real(ph, "end_ns", 0) / 1e9);
			td_int(f, ph, "events");
			td_int(f, ph, "deltas");
			td_dur(f, ph, "delta_max_ns");
			td_dur(f, ph, "jitter_abs_max_ns");
			fputs("</tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
	}
	fputs("<div class=\"kvs\"><div>\n<h3>Configuration</h3>\n<table class=\"kv\">\n", f);
	kv_object(f, json_object_get(doc, "config"));
	fputs("<tr><th>command line</th><td><code>", f);
	esc(f, al_doc_str(doc, "cmdline", "-"));
	fputs("</code></td></tr>\n</table>\n</div><div>\n<h3>Source</h3>\n<table class=\"kv\">\n",
	      f);
	kv_object(f, json_object_get(doc, "source"));
	fputs("</table>\n</div></div>\n", f);
	if (json_is_object(json_object_get(doc, "system"))) {
		fputs("<h3>System</h3>\n<table class=\"kv\">\n", f);
		kv_str(f, doc, "hostname", "system.hostname");
		kv_str(f, doc, "kernel", "system.kernel_release");
		kv_str(f, doc, "preemption", "system.preempt");
		kv_str(f, doc, "CPU", "system.cpu_model");
		fputs("</table>\n", f);
		checks_table(f, doc);
	}
	fputs("</section>\n", f);
}

/* ---- the comparison and the overview -------------------------------------------------- */

static const json_t *
cmp_result(const json_t *cmp, const char *key)
{
	const json_t *r;
	size_t i;

	json_array_foreach(json_object_get(cmp, "results"), i,
			   r) if (!strcmp(al_doc_str(r, "key", ""), key)) return r;
	return NULL;
}

/* A signed duration: "+1.2 µs", "-3.000 ms", "0 ns". */
static void
fmt_sdur(int64_t ns, char *buf, size_t size)
{
	if (ns > 0 && size > 1) {
		buf[0] = '+';
		fmt_dur(ns, buf + 1, size - 1);
	} else {
		fmt_dur(ns, buf, size);
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
	fprintf(f, "<td class=\"num\">%s … %s</td>", lo, hi);
}

static void
compare_section(FILE *f, const json_t *cmp)
{
	const json_t *scopes = json_object_get(cmp, "scopes"), *scope, *row, *c, *st;
	size_t i, j, k;

	fputs("<section class=\"compare\" id=\"compare\">\n<h2>Comparison</h2>\n", f);
	fprintf(f,
		"<p class=\"sub\">Each result against %s (the baseline): %.0f %% confidence "
		"intervals for the difference, p50 and p99 by a bootstrap from the histograms, "
		"max by an exceedance test on the time-series windows (seed %" PRId64
		"). Lower is better.</p>\n",
		al_doc_str(cmp, "baseline", "A"), 100 * al_doc_real(cmp, "method.confidence", 0.95),
		al_doc_int(cmp, "method.seed", 0));
	json_array_foreach(scopes, i, scope)
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
		fputs(
		    "</h3>\n<table class=\"cmp\"><thead><tr><th></th><th>result</th>"
		    "<th>max latency</th><th>% of buffer</th><th>1MS factor</th><th>2MS factor</th>"
		    "<th>p50 wake</th><th>p99 wake</th><th>p99.9 wake</th><th>max interval</th>"
		    "<th>xruns</th></tr></thead><tbody>\n",
		    f);
		json_array_foreach(json_object_get(scope, "rows"), j, row)
		{
			const char *key = al_doc_str(row, "key", "?");

			fputs("<tr>", f);
			td_str(f, key);
			td_str(f, al_doc_str(cmp_result(cmp, key), "label", NULL));
			td_dur(f, row, "max_latency_ns");
			td_real(f, row, "max_latency_pct_of_buffer", "%.1f", " %");
			td_real(f, row, "within_1ms_pct", "%.3f", "");
			td_real(f, row, "within_2ms_pct", "%.3f", "");
			td_dur(f, row, "wake_p50_ns");
			td_dur(f, row, "wake_p99_ns");
			td_dur(f, row, "wake_p999_ns");
			td_dur(f, row, "max_interval_ns");
			td_int(f, row, "xruns");
			fputs("</tr>\n", f);
		}
		fputs("</tbody></table>\n", f);
		if (!json_array_size(json_object_get(scope, "comparisons")))
			continue;
		fprintf(f,
			"<table class=\"verdicts\"><thead><tr><th></th><th>wake latency</th>"
			"<th>baseline</th><th>result</th><th>difference</th><th>%.0f %% CI</th>"
			"<th>verdict</th></tr></thead><tbody>\n",
			100 * al_doc_real(cmp, "method.confidence", 0.95));
		json_array_foreach(json_object_get(scope, "comparisons"), j, c)
		{
			json_array_foreach(json_object_get(c, "statistics"), k, st)
			{
				const char *v = al_doc_str(st, "verdict", "?");
				const char *cls = !strcmp(v, "better")	? "better"
						  : !strcmp(v, "worse") ? "worse"
									: "same";
				char d[32];

				fputs("<tr><td>", f);
				esc(f, al_doc_str(c, "key", "?"));
				fputs(" vs ", f);
				esc(f, al_doc_str(c, "baseline", "?"));
				fputs("</td>", f);
				td_str(f, al_doc_str(st, "name", NULL));
				td_dur(f, st, "baseline_ns");
				td_dur(f, st, "value_ns");
				fmt_sdur(al_doc_int(st, "diff_ns", 0), d, sizeof(d));
				fprintf(f, "<td class=\"num\">%s", d);
				if (json_is_number(json_object_get(st, "diff_pct")))
					fprintf(f, " (%+.1f %%)", al_doc_real(st, "diff_pct", 0));
				fputs("</td>", f);
				ci_cell(f, st);
				fprintf(f, "<td class=\"%s\">", cls);
				esc(f, v);
				fputs("</td></tr>\n", f);
			}
		}
		fputs("</tbody></table>\n", f);
	}
	fputs("</section>\n", f);
}

static void
overview(struct rctx *c, const struct al_html_input *in, size_t n, const struct al_dhist *h)
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
			palette[i % PALETTE_N], i + 1, (char)('A' + i % 26));
		td_str(c->f, al_doc_label(d));
		td_str(c->f, al_doc_str(d, "system.hostname", NULL));
		td_str(c->f, al_doc_str(d, "system.kernel_release", NULL));
		snprintf(buf, sizeof(buf), "%" PRId64 " x %" PRId64 " @ %" PRId64 " Hz",
			 al_doc_int(d, "config.periods", 0),
			 al_doc_int(d, "config.period_frames", 0), al_doc_int(d, "config.rate", 0));
		td_str(c->f, buf);
		td_dur(c->f, d, "total.wake_latency_ns.max");
		td_real(c->f, d, "total.max_latency_pct_of_buffer", "%.1f", " %");
		td_real(c->f, d, "total.within_1ms_pct", "%.3f", "");
		td_real(c->f, d, "total.within_2ms_pct", "%.3f", "");
		td_dur(c->f, d, "total.wake_latency_ns.p99");
		td_dur(c->f, d, "total.interval_ns.max");
		td_int(c->f, d, "total.xruns");
		fputs("</tr>\n", c->f);
	}
	fputs("</tbody></table>\n<figure>\n", c->f);
	plot_ccdf(c, docs, hs, m, idx,
		  "share of periods later than x for every result, log scales");
	fputs("<figcaption>The wake latency of every result as a complementary CDF: lower and "
	      "further left is better.</figcaption>\n</figure>\n</section>\n",
	      c->f);
	free(docs);
	free(hs);
	free(idx);
}

int
al_report_html(FILE *f, const struct al_html_input *in, size_t n, const struct al_html_opts *o)
{
	const char *title = o && o->title ? o->title : "audiolat report";
	struct rctx c = {.f = f};
	struct al_dhist *h;
	size_t i, runs = 0;
	char err[160];
	int rc = 0;

	for (i = 0; i < n; i++)
		if (al_doc_check(in[i].doc, err, sizeof(err)))
			return -EINVAL;
	h = calloc(n ? n : 1, sizeof(*h));
	if (!h)
		return -ENOMEM;
	for (i = 0; i < n && !rc; i++) {
		const json_t *d = in[i].doc;

		if (al_doc_is_run(d)) {
			rc = al_dhist_from_json(al_doc_get(d, "total.histogram.wake_latency_ns"),
						al_doc_get(d, "total.wake_latency_ns"), &h[i]);
			runs++;
			continue;
		}
		/* MIDI: the deltas, with their exact extremes when the document has them */
		rc = al_dhist_from_json(json_object_get(d, "histogram"), NULL, &h[i]);
		if (!rc && h[i].count && json_is_integer(json_object_get(d, "delta_min_ns")) &&
		    json_is_integer(json_object_get(d, "delta_max_ns")) &&
		    al_doc_int(d, "delta_min_ns", 0) <= al_doc_int(d, "delta_max_ns", 0)) {
			h[i].min_ns = al_doc_int(d, "delta_min_ns", 0);
			h[i].max_ns = al_doc_int(d, "delta_max_ns", 0);
		}
	}
	if (rc)
		goto out;
	fputs("<!DOCTYPE html>\n<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\">\n<head>\n"
	      "<meta charset=\"utf-8\"/>\n"
	      "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
	      "<meta name=\"generator\" content=\"audiolat " AL_VERSION "\"/>\n<title>",
	      f);
	esc(f, title);
	if (n == 1) {
		fputs(": ", f);
		esc(f, al_doc_label(in[0].doc));
	}
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", css);
	esc(f, title);
	fprintf(f, "</h1>\n<p class=\"sub\">%zu result%s · audiolat %s</p>\n", n, n == 1 ? "" : "s",
		AL_VERSION);
	if (o && o->compare)
		compare_section(f, o->compare);
	if (runs > 1)
		overview(&c, in, n, h);
	for (i = 0; i < n; i++) {
		if (al_doc_is_run(in[i].doc))
			result_section(&c, &in[i], i, n, &h[i]);
		else
			midi_section(&c, &in[i], i, n, &h[i]);
	}
	fputs("<footer>Made by audiolat " AL_VERSION ". Wake latency: how late the audio thread "
	      "woke after its period boundary, for every period due (a period a stall swallowed "
	      "counts until the thread was next seen running); max latency is its longest, and "
	      "its share of the buffer the factor. Interval: the time between wake-ups, "
	      "latencytest's total latency. 1MS/2MS factor: the share of periods within 1 ms / "
	      "2 ms of on time.</footer>\n</body>\n</html>\n",
	      f);
	if (fflush(f) || ferror(f))
		rc = -EIO;
out:
	for (i = 0; i < n; i++)
		al_dhist_free(&h[i]);
	free(h);
	return rc;
}
