/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The long view of a monitor result (docs/monitor.md): the max of every
 * long window over the whole span on a wall-clock axis, the xruns on the
 * same axis with their time of day, and a per-hour heat map of the short
 * windows' histograms.
 */
#define AL_HTML_INTERNAL
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/mwin.h"
#include "doc/view.h"
#include "html-private.h"

#define HOURS_MAX 24 * 31
#define XRUN_LABELS_MAX 12

/* started_at ("2026-11-30T05:07:46.123Z") as epoch seconds; NAN when not that. */
static double
epoch_of(const char *iso)
{
	struct tm tm = { 0 };
	double frac = 0;
	char rest[16] = "";

	if (!iso || sscanf(iso, "%d-%d-%dT%d:%d:%d%15s", &tm.tm_year, &tm.tm_mon, &tm.tm_mday,
			   &tm.tm_hour, &tm.tm_min, &tm.tm_sec, rest) < 6)
		return NAN;
	tm.tm_year -= 1900;
	tm.tm_mon -= 1;
	if (rest[0] == '.')
		frac = strtod(rest, NULL);
	return (double)timegm(&tm) + frac;
}

static void
time_of_day(double epoch_s, char *buf, size_t size)
{
	time_t t = (time_t)epoch_s;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, "%H:%M:%S", &tm);
}

static void
tick_clock(double v, double span, char *buf, size_t size)
{
	time_t t = (time_t)v;
	struct tm tm;

	gmtime_r(&t, &tm);
	strftime(buf, size, span > 2 * 86400 ? "%d %H:%M" : "%H:%M", &tm);
}

/* The long windows' max over the span, the xruns with their time of day. */
static void
long_plot(struct html_ctx *c, const json_t *doc, const json_t *lw, double t0_s)
{
	const json_t *rows = json_object_get(lw, "rows"), *row, *events;
	double w_s = al_doc_real(lw, "window_ns", 3e11) / 1e9, lo = INFINITY, hi = 0, end_s = 0;
	struct al_plot p;
	size_t i, n_ev;
	int labels = 0;

	json_array_foreach(rows, i, row)
	{
		double mx = json_real_value(json_array_get(row, 6)) +
			    (double)json_integer_value(json_array_get(row, 6));

		end_s = json_integer_value(json_array_get(row, 0)) / 1e9 + w_s;
		if (json_is_null(json_array_get(row, 6)) || mx <= 0)
			continue;
		lo = fmin(lo, mx);
		hi = fmax(hi, mx);
	}
	if (!(hi > 0)) {
		fputs("<p class=\"small\">No long window closed yet.</p>\n", c->f);
		return;
	}
	al_plot_begin(&p, c->f, ++c->plot_id, 1000, 320, 70, 10, 30, 62,
		      "max wake latency of every long window over the whole span, log scale");
	p.x.lo = t0_s;
	p.x.hi = t0_s + (end_s > 0 ? end_s : w_s);
	p.y.lo = al__html_decade_floor(lo);
	p.y.hi = al__html_decade_ceil(hi * 1.5);
	p.y.log = true;
	al_plot_axes(&p, "time of day (UTC)", "max wake latency (log scale)", tick_clock,
		     al_tick_ns);
	al_plot_clip_begin(&p);
	fputs("<path class=\"mean\" d=\"", c->f);
	json_array_foreach(rows, i, row)
	{
		const json_t *m = json_array_get(row, 6);
		double t = t0_s + json_integer_value(json_array_get(row, 0)) / 1e9;

		if (json_is_null(m))
			continue;
		fprintf(c->f, "%s%.1f %.1f H%.1f", i ? " L" : "M", al_scale_px(&p.x, t),
			al_scale_px(&p.y, (double)json_integer_value(m)), al_scale_px(&p.x, t + w_s));
	}
	fputs("\"/>\n", c->f);
	events = json_object_get(doc, "xrun_events");
	n_ev = json_array_size(events);
	json_array_foreach(events, i, row)
	{
		double t = t0_s + al_doc_real(row, "t_ns", 0) / 1e9, x = al_scale_px(&p.x, t);
		char tod[16], dd[32];

		time_of_day(t, tod, sizeof(tod));
		al__html_dur(al_doc_int(row, "duration_ns", 0), dd, sizeof(dd));
		fprintf(c->f,
			"<g><title>xrun at %s UTC: starved %s</title><line class=\"xrun\" x1=\"%.1f\" "
			"y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/></g>\n",
			tod, dd, x, p.top, x, p.bottom);
		if (n_ev <= XRUN_LABELS_MAX && labels++ < XRUN_LABELS_MAX)
			al_svg_text(c->f, x + 2, p.top + 12 + 12 * (labels % 4), "start", "reflabel",
				    tod);
	}
	al_plot_clip_end(&p);
	al_plot_end(&p);
}

/* Hours (UTC) by rows, the buckets by columns, shaded by the log of their share. */
static void
heat_map(FILE *f, const json_t *sw, double t0_s)
{
	const json_t *rows = json_object_get(sw, "rows"), *row;
	uint64_t (*cnt)[AL_MW_BUCKETS];
	double hour0 = floor(t0_s / 3600), max = 0;
	size_t i, n = 0;
	int k;

	cnt = calloc(HOURS_MAX, sizeof(*cnt));
	if (!cnt)
		return;
	json_array_foreach(rows, i, row)
	{
		double t = t0_s + json_integer_value(json_array_get(row, 0)) / 1e9;
		size_t h = (size_t)(floor(t / 3600) - hour0);
		const json_t *b = json_array_get(row, 10);

		if (h >= HOURS_MAX)
			break;
		if (h + 1 > n)
			n = h + 1;
		for (k = 0; k < AL_MW_BUCKETS; k++) {
			cnt[h][k] += (uint64_t)json_integer_value(json_array_get(b, (size_t)k));
			if ((double)cnt[h][k] > max)
				max = (double)cnt[h][k];
		}
	}
	fputs("<table class=\"heat\"><thead><tr><th>hour (UTC)</th>", f);
	for (k = 0; k < AL_MW_BUCKETS; k++) {
		char b[32];

		if (k < AL_MW_BOUNDS)
			al_fmt_ns((double)al_mw_le_ns[k], b, sizeof(b));
		fprintf(f, "<th>%s%s</th>", k < AL_MW_BOUNDS ? "\u2264 " : "&gt; ",
			k < AL_MW_BOUNDS ? b : "10 s");
	}
	fputs("</tr></thead><tbody>\n", f);
	for (i = 0; i < n; i++) {
		time_t t = (time_t)((hour0 + (double)i) * 3600);
		struct tm tm;
		char when[32];

		gmtime_r(&t, &tm);
		strftime(when, sizeof(when), "%Y-%m-%d %H:00", &tm);
		fprintf(f, "<tr><td>%s</td>", when);
		for (k = 0; k < AL_MW_BUCKETS; k++) {
			double v = (double)cnt[i][k];
			/* log shading: one count is faint, the largest cell darkest */
			double a = v > 0 && max > 0 ? 0.1 + 0.9 * log1p(v) / log1p(max) : 0;

			fprintf(f, "<td style=\"background:rgba(8,81,156,%.2f)%s\">%" PRIu64 "</td>", a,
				a > 0.55 ? ";color:#fff" : "", cnt[i][k]);
		}
		fputs("</tr>\n", f);
	}
	fputs("</tbody></table>\n", f);
	free(cnt);
}

void
al__html_monitor_section(struct html_ctx *c, const json_t *doc)
{
	const json_t *mon = json_object_get(doc, "monitor");
	double t0_s = epoch_of(al_doc_str(doc, "started_at", NULL));
	char len[32];

	if (!json_is_object(mon))
		return;
	if (isnan(t0_s))
		t0_s = 0;
	fputs("<h3>The long view</h3>\n<figure>\n", c->f);
	long_plot(c, doc, json_object_get(mon, "long"), t0_s);
	al__html_dur(al_doc_int(mon, "long.window_ns", 0), len, sizeof(len));
	fprintf(c->f,
		"<figcaption>The longest wake latency of every %s window (per period due, a "
		"stall's periods included) over the whole span; red lines: the xruns, labelled "
		"with their time of day when there are few.</figcaption>\n</figure>\n",
		len);
	fputs("<h3>Wake latency by hour</h3>\n", c->f);
	heat_map(c->f, json_object_get(mon, "short"), t0_s);
	fputs("<p class=\"small\">Periods per hour and wake-latency bucket; the shade is "
	      "logarithmic in the count.</p>\n",
	      c->f);
}
