/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "doc/escape.h"
#include "svg.h"

int
al_ticks_linear(double lo, double hi, int max_ticks, double *ticks, int cap)
{
	static const double nice[] = {1, 2, 5};
	double step = 0, mag, first, last;
	int n = 0, k, e;

	if (!isfinite(lo) || !isfinite(hi) || !isfinite(hi - lo) || !(hi > lo) || max_ticks < 2 ||
	    cap < 1)
		return 0;
	e = (int)floor(log10((hi - lo) / max_ticks)) - 1;
	for (; e < 400; e++) {
		mag = pow(10, e);
		for (k = 0; k < 3; k++) {
			step = nice[k] * mag;
			first = ceil(lo / step - 1e-9);
			last = floor(hi / step + 1e-9);
			if (last - first + 1 <= max_ticks)
				goto found;
		}
	}
	return 0;
found:
	if (!isfinite(step) || !isfinite(first) || !isfinite(last))
		return 0;
	for (double i = first; i <= last && n < cap; i++) {
		double v = i * step;

		ticks[n++] = fabs(v) < step * 1e-9 ? 0 : v;
	}
	return n;
}

int
al_ticks_log(double lo, double hi, double *ticks, int cap)
{
	static const double mult[] = {1, 2, 5};
	int n = 0, d, d0, d1, with_25, k;

	if (!isfinite(lo) || !isfinite(hi) || !(lo > 0) || !(hi > lo) || cap < 1)
		return 0;
	d0 = (int)floor(log10(lo));
	d1 = (int)ceil(log10(hi));
	/* fewer than three powers of ten inside: add 2x and 5x */
	with_25 = (int)floor(log10(hi) + 1e-9) - (int)ceil(log10(lo) - 1e-9) + 1 < 3;
	for (d = d0; d <= d1; d++) {
		for (k = 0; k < (with_25 ? 3 : 1); k++) {
			double v = mult[k] * pow(10, d);

			if (v < lo * (1 - 1e-9) || v > hi * (1 + 1e-9))
				continue;
			if (n == cap)
				return n;
			ticks[n++] = v;
		}
	}
	return n;
}

void
al_fmt_ns(double ns, char *buf, size_t size)
{
	double a = fabs(ns);

	if (a < 0.5)
		snprintf(buf, size, "0");
	else if (a < 1e3)
		snprintf(buf, size, "%.3g ns", ns);
	else if (a < 1e6)
		snprintf(buf, size, "%.3g µs", ns / 1e3);
	else if (a < 1e9)
		snprintf(buf, size, "%.3g ms", ns / 1e6);
	else
		snprintf(buf, size, "%.3g s", ns / 1e9);
}

void
al_fmt_time_s(double s, double span_s, char *buf, size_t size)
{
	if (fabs(s) < 1e-9)
		snprintf(buf, size, "0");
	else if (span_s >= 7200)
		snprintf(buf, size, "%.3g h", s / 3600);
	else if (span_s >= 300)
		snprintf(buf, size, "%.3g min", s / 60);
	else
		snprintf(buf, size, "%.3g s", s);
}

void
al_fmt_count(double v, char *buf, size_t size)
{
	double a = fabs(v);

	if (a < 1e3)
		snprintf(buf, size, "%.0f", v);
	else if (a < 1e6)
		snprintf(buf, size, "%.3gk", v / 1e3);
	else if (a < 1e9)
		snprintf(buf, size, "%.3gM", v / 1e6);
	else
		snprintf(buf, size, "%.3gG", v / 1e9);
}

void
al_fmt_fraction(double v, char *buf, size_t size)
{
	snprintf(buf, size, "%.3g %%", v * 100);
}

void
al_tick_ns(double v, double span, char *buf, size_t size)
{
	(void)span;
	al_fmt_ns(v, buf, size);
}

void
al_tick_time_s(double v, double span, char *buf, size_t size)
{
	al_fmt_time_s(v, span, buf, size);
}

void
al_tick_count(double v, double span, char *buf, size_t size)
{
	(void)span;
	al_fmt_count(v, buf, size);
}

void
al_tick_fraction(double v, double span, char *buf, size_t size)
{
	(void)span;
	al_fmt_fraction(v, buf, size);
}

double
al_scale_px(const struct al_scale *s, double v)
{
	double t;

	if (s->log) {
		if (!(v > 0) || !(s->lo > 0))
			return s->p0;
		t = (log10(v) - log10(s->lo)) / (log10(s->hi) - log10(s->lo));
	} else {
		t = (v - s->lo) / (s->hi - s->lo);
	}
	if (!isfinite(t))
		t = 0;
	if (t < 0)
		t = 0;
	if (t > 1)
		t = 1;
	return s->p0 + t * (s->p1 - s->p0);
}

void
al_svg_text(FILE *f, double x, double y, const char *anchor, const char *cls, const char *text)
{
	fprintf(f, "<text x=\"%.1f\" y=\"%.1f\" text-anchor=\"%s\"", x, y, anchor);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fputs(">", f);
	al_html_escape(f, text);
	fputs("</text>\n", f);
}

void
al_plot_begin(struct al_plot *p, FILE *f, int id, double width, double height, double margin_left,
	      double margin_top, double margin_right, double margin_bottom, const char *title)
{
	memset(p, 0, sizeof(*p));
	p->f = f;
	p->id = id;
	p->width = width;
	p->height = height;
	p->left = margin_left;
	p->top = margin_top;
	p->right = width - margin_right;
	p->bottom = height - margin_bottom;
	p->x.p0 = p->left;
	p->x.p1 = p->right;
	p->y.p0 = p->bottom;
	p->y.p1 = p->top;
	fprintf(
	    f,
	    "<svg xmlns=\"http://www.w3.org/2000/svg\" class=\"plot\" width=\"%.0f\" "
	    "height=\"%.0f\" viewBox=\"0 0 %.0f %.0f\" role=\"img\" aria-labelledby=\"p%d-t\">\n"
	    "<title id=\"p%d-t\">",
	    width, height, width, height, id, id);
	al_html_escape(f, title);
	fprintf(f,
		"</title>\n<defs><clipPath id=\"p%d-c\"><rect x=\"%.1f\" y=\"%.1f\" "
		"width=\"%.1f\" height=\"%.1f\"/></clipPath></defs>\n"
		"<rect class=\"area\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		id, p->left, p->top, p->right - p->left, p->bottom - p->top, p->left, p->top,
		p->right - p->left, p->bottom - p->top);
}

void
al_plot_axes(struct al_plot *p, const char *xlabel, const char *ylabel, al_tick_fmt xfmt,
	     al_tick_fmt yfmt)
{
	double ticks[AL_TICKS_MAX], px;
	char label[48];
	int n, i;

	n = p->x.log ? al_ticks_log(p->x.lo, p->x.hi, ticks, AL_TICKS_MAX)
		     : al_ticks_linear(p->x.lo, p->x.hi, 8, ticks, AL_TICKS_MAX);
	fputs("<g class=\"axis x\">\n", p->f);
	for (i = 0; i < n; i++) {
		px = al_scale_px(&p->x, ticks[i]);
		fprintf(p->f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			px, p->top, px, p->bottom, px, p->bottom, px, p->bottom + 5);
		xfmt(ticks[i], p->x.hi - p->x.lo, label, sizeof(label));
		al_svg_text(p->f, px, p->bottom + 18, "middle", NULL, label);
	}
	al_svg_text(p->f, (p->left + p->right) / 2, p->bottom + 36, "middle", "label", xlabel);
	fputs("</g>\n<g class=\"axis y\">\n", p->f);
	n = p->y.log ? al_ticks_log(p->y.lo, p->y.hi, ticks, AL_TICKS_MAX)
		     : al_ticks_linear(p->y.lo, p->y.hi, 6, ticks, AL_TICKS_MAX);
	for (i = 0; i < n; i++) {
		px = al_scale_px(&p->y, ticks[i]);
		fprintf(p->f,
			"<line class=\"grid\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>"
			"<line class=\"tick\" x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\"/>\n",
			p->left, px, p->right, px, p->left - 5, px, p->left, px);
		yfmt(ticks[i], p->y.hi - p->y.lo, label, sizeof(label));
		al_svg_text(p->f, p->left - 8, px + 4, "end", NULL, label);
	}
	fprintf(p->f,
		"<text class=\"label\" x=\"0\" y=\"0\" text-anchor=\"middle\" "
		"transform=\"translate(14 %.1f) rotate(-90)\">",
		(p->top + p->bottom) / 2);
	al_html_escape(p->f, ylabel);
	fputs("</text>\n</g>\n", p->f);
	fprintf(p->f,
		"<rect class=\"frame\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\"/>\n",
		p->left, p->top, p->right - p->left, p->bottom - p->top);
}

void
al_plot_clip_begin(struct al_plot *p)
{
	fprintf(p->f, "<g clip-path=\"url(#p%d-c)\">\n", p->id);
}

void
al_plot_clip_end(struct al_plot *p)
{
	fputs("</g>\n", p->f);
}

void
al_plot_end(struct al_plot *p)
{
	fputs("</svg>\n", p->f);
}
