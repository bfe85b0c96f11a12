/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The plots of distributions: the histogram, the CCDF, the MIDI deltas;
 * and what every plot draws: deadlines and the legend.
 */
#define AL_HTML_INTERNAL
#include <inttypes.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "html-private.h"

double
al__html_decade_floor(double v)
{
	return pow(10, floor(log10(v)));
}

double
al__html_decade_ceil(double v)
{
	return pow(10, ceil(log10(v)));
}

/* A number from a document as int64, saturated (a cast of 1e300 is undefined). */
int64_t
al__html_sat_i64(double v)
{
	if (!(v > -9.2e18))
		return v < 0 ? INT64_MIN : 0;
	if (!(v < 9.2e18))
		return INT64_MAX;
	return (int64_t)v;
}

/* A horizontal deadline line with its label in the right margin. */
void
al__html_deadline_h(struct al_plot *p, double ns, const char *cls, const char *name)
{
	char buf[64], d[32];
	double y;

	if (!(ns > 0) || ns < p->y.lo || ns > p->y.hi)
		return;
	y = al_scale_px(&p->y, ns);
	fprintf(p->f, "<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n", cls,
		p->left, y, p->right, y);
	al__html_dur(al__html_sat_i64(ns), d, sizeof(d));
	snprintf(buf, sizeof(buf), "%s %s", name, d);
	snprintf(d, sizeof(d), "deadline dl-%s", cls);
	al_svg_text(p->f, p->right + 6, y + 4, "start", d, buf);
}

/* A vertical deadline line on a latency x axis, labelled at the top. */
void
al__html_deadline_v(struct al_plot *p, double ns, const char *cls, const char *name)
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

/* One row of legend items under the plot, from x = left. */
void
al__html_legend(struct al_plot *p, double y, const struct html_legend_item *it, size_t n)
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
			fprintf(p->f,
				"<line class=\"%s\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" "
				"y2=\"%.1f\"/>\n",
				k + 5, x, y - 4, x + 22, y - 4);
		else if (!strncmp(k, "rect:", 5))
			fprintf(p->f,
				"<rect class=\"%s\" x=\"%.1f\" y=\"%.1f\" width=\"22\" "
				"height=\"10\"/>\n",
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

#define BINS_PER_DECADE 20

/* The latency axis both plots share: the data, and the deadlines beside it. */
static void
latency_range(const struct al_dhist *h, double period_ns, double buffer_ns, double *lo, double *hi)
{
	double mn = (double)(h->min_ns > 0 ? h->min_ns : 1), mx = (double)h->max_ns;

	/* at most the int64 range, whatever a document says its deadlines are */
	mx = fmin(fmax(mx, fmax(period_ns, buffer_ns)), 1e19);
	*lo = fmax(al__html_decade_floor(mn), 1);
	*hi = al__html_decade_ceil(fmax(mx * 1.05, *lo * 10));
}

/* A histogram on log scales, with the period and buffer deadlines (0: none). */
void
al__html_plot_histogram(struct html_ctx *c, const struct al_dhist *h, double period_ns,
			double buffer_ns, const char *title, const char *xlabel, const char *ylabel)
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
	p.y.hi = al__html_decade_ceil(fmax(peak, 1) * 1.5);
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
	al__html_deadline_v(&p, period_ns, "period", "period");
	al__html_deadline_v(&p, buffer_ns, "buffer", "buffer");
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
void
al__html_plot_ccdf(struct html_ctx *c, const json_t *const *docs, const struct al_dhist *h,
		   size_t n, const size_t *idx, const char *title)
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
	p.y.lo = fmin(al__html_decade_floor(1 / maxcount), 0.1);
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
		ccdf_line(&p, &h[i], n > 1 ? al__html_color(idx ? idx[i] : i) : "#08519c");
	if (n == 1) {
		al__html_deadline_v(&p, al_doc_real(docs[0], "config.period_ns", 0), "period",
				    "period");
		al__html_deadline_v(&p, al_doc_real(docs[0], "config.buffer_ns", 0), "buffer",
				    "buffer");
	}
	al_plot_clip_end(&p);
	if (n > 1) {
		struct html_legend_item *items = calloc(n, sizeof(*items));
		char(*texts)[48] = calloc(n, sizeof(*texts));
		char(*colors)[16] = calloc(n, sizeof(*colors));

		if (items && texts && colors) {
			for (i = 0; i < n; i++) {
				char lab[40];

				size_t k = idx ? idx[i] : i;

				al__html_truncate_utf8(al_doc_label(docs[i]), lab, sizeof(lab), 24);
				snprintf(texts[i], sizeof(texts[i]), "%c %s", (char)('A' + k % 26),
					 lab);
				snprintf(colors[i], sizeof(colors[i]), "color:%s",
					 al__html_color(k));
				items[i] = (struct html_legend_item){colors[i], texts[i]};
			}
			al__html_legend(&p, p.bottom + 56, items, n);
		}
		free(items);
		free(texts);
		free(colors);
	}
	al_plot_end(&p);
}

/* The deltas on a linear axis around the interval: the buckets as bars, log counts. */
void
al__html_plot_deltas(struct html_ctx *c, const struct al_dhist *h, double interval_ns)
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
	p.y.hi = al__html_decade_ceil(peak * 1.5);
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
	al__html_deadline_v(&p, interval_ns, "period", "interval");
	al_plot_clip_end(&p);
	al_plot_end(&p);
}
