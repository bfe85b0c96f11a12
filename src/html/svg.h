/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inline SVG plots for the HTML report: axis ticks, tick labels with
 * units, linear and log scales, and the few drawing primitives the plots
 * need. Everything is written as XML-compatible markup to a FILE.
 */
#ifndef AL_REPORT_SVG_H
#define AL_REPORT_SVG_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define AL_TICKS_MAX 32

/*
 * "Nice" ticks on a linear axis: multiples of 1, 2 or 5 x 10^k covering
 * [lo, hi] with at most max_ticks (>= 2) values inside it. Writes them in
 * ascending order to ticks (room for cap) and returns how many; 0 when hi
 * <= lo or a bound is not finite.
 */
int al_ticks_linear(double lo, double hi, int max_ticks, double *ticks, int cap);

/*
 * Ticks on a log axis over [lo, hi] (0 < lo < hi): the powers of ten
 * inside; when there are fewer than three, 2x and 5x each decade too.
 * Returns the count as above; 0 when the range is not positive.
 */
int al_ticks_log(double lo, double hi, double *ticks, int cap);

/* A duration in ns as a tick label: "0", "500 ns", "20 µs", "1.5 ms", "2 s". */
void al_fmt_ns(double ns, char *buf, size_t size);
/* A time in s on an axis of span span_s: "30 s", "2 min", "1.5 h". */
void al_fmt_time_s(double s, double span_s, char *buf, size_t size);
/* A count: "1", "20", "5k", "1M". */
void al_fmt_count(double v, char *buf, size_t size);
/* A fraction as a percentage: "100 %", "0.1 %", "1e-05 %". */
void al_fmt_fraction(double v, char *buf, size_t size);

/* A tick label formatter; span is hi - lo of the axis (for the unit of a time axis). */
typedef void (*al_tick_fmt)(double v, double span, char *buf, size_t size);
void al_tick_ns(double v, double span, char *buf, size_t size);
void al_tick_time_s(double v, double span, char *buf, size_t size);
void al_tick_count(double v, double span, char *buf, size_t size);
void al_tick_fraction(double v, double span, char *buf, size_t size);

/* A scale mapping data to pixels. */
struct al_scale {
	double lo, hi; /* data range */
	double p0, p1; /* pixels of lo and hi (p1 < p0 for a y axis) */
	bool log;
};

/* Pixel of v, clamped to the axis (log: v <= 0 maps to lo). */
double al_scale_px(const struct al_scale *s, double v);

/* A plot: an SVG canvas with a plotting area and two scales. */
struct al_plot {
	FILE *f;
	double width, height;		 /* the whole SVG */
	double left, top, right, bottom; /* the plotting area */
	struct al_scale x, y;
	int id; /* unique per document, for clip paths */
};

/*
 * Open <svg> of width x height with a plotting area inset by the margins,
 * a title (escaped) for assistive technology, a clip path for the area.
 */
void al_plot_begin(struct al_plot *p, FILE *f, int id, double width, double height,
		   double margin_left, double margin_top, double margin_right, double margin_bottom,
		   const char *title);
/* Grid, ticks, tick labels and axis labels (escaped); xfmt gets the tick value. */
void al_plot_axes(struct al_plot *p, const char *xlabel, const char *ylabel, al_tick_fmt xfmt,
		  al_tick_fmt yfmt);
/* Open/close a group clipped to the plotting area. */
void al_plot_clip_begin(struct al_plot *p);
void al_plot_clip_end(struct al_plot *p);
void al_plot_end(struct al_plot *p);

/* Escaped text at (x, y); anchor is "start", "middle" or "end"; cls may be NULL. */
void al_svg_text(FILE *f, double x, double y, const char *anchor, const char *cls,
		 const char *text);

#endif
