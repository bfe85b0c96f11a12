/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A scope's tail beyond the run (tail-doc.h, docs/tail.md). */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/hist.h"
#include "core/units.h"
#include "doc.h"
#include "tail-doc.h"
#include "view.h"

#define HOUR_NS (3600 * AL_NS_PER_SEC)

/* doc's one period, 0 when it changed during the run or is not known */
static int64_t
period_of(const json_t *doc)
{
	const json_t *seg = al_doc_get(doc, "segments");

	if (seg && !json_is_null(seg))
		return 0;
	return al_doc_int(doc, "config.period_ns", 0) > 0 ? al_doc_int(doc, "config.period_ns", 0) : 0;
}

int
al_doc_tail_fit(const json_t *doc, const json_t *scope, struct al_tail *t, int64_t *period_ns)
{
	struct al_dhist h;
	struct al_tail_bucket *b = NULL;
	double periods[AL_TAIL_HORIZONS] = {0, 0};
	size_t n = 0;
	int rc;

	*period_ns = period_of(doc);
	if (*period_ns) {
		int64_t rate = al_doc_int(doc, "config.rate", 0);
		int64_t frames = al_doc_int(doc, "config.period_frames", 0);

		/* 3600 s / (period_frames / rate), exactly where the document says */
		periods[0] = rate > 0 && frames > 0 ? 3600.0 * (double)rate / (double)frames
						    : (double)HOUR_NS / (double)*period_ns;
		periods[1] = 24 * periods[0];
	}
	rc = al_dhist_from_json(al_doc_get(scope, "histogram.wake_latency_ns"),
				json_object_get(scope, "wake_latency_ns"), &h);
	if (rc)
		return rc;
	if (h.n && !(b = calloc(h.n, sizeof(*b)))) {
		al_dhist_free(&h);
		return -ENOMEM;
	}
	for (size_t i = 0; i < h.n; i++)
		b[n++] = (struct al_tail_bucket){h.b[i].low_ns, h.b[i].high_ns, h.b[i].count};
	rc = al_tail_fit(b, n, h.overflow, n && b[n - 1].high_ns > AL_HIST_LIMIT_NS
				       ? b[n - 1].high_ns : AL_HIST_LIMIT_NS, periods, t);
	free(b);
	al_dhist_free(&h);
	return rc == -EINVAL ? 0 : rc; /* a document's buckets are in order: never */
}

static json_t *
ns_or_null(double v)
{
	return isfinite(v) && fabs(v) < 9.2e18 ? json_integer((json_int_t)llround(v)) : json_null();
}

static json_t *
level_json(const struct al_tail_level *lv, int64_t period_ns)
{
	return json_pack("{s:o, s:o, s:o, s:o}", "periods",
			 period_ns ? json_integer((json_int_t)llround(lv->periods)) : json_null(),
			 "max_ns", ns_or_null(lv->max_ns), "low_ns", ns_or_null(lv->low_ns), "high_ns",
			 ns_or_null(lv->high_ns));
}

/* The share of the values at or above x: beyond the threshold by the fit, below it as counted. */
static double
share_at_or_above(const json_t *scope, const struct al_tail *t, int64_t x_ns, const char **source)
{
	struct al_dhist h;
	uint64_t above, count;

	*source = "fit";
	if (x_ns >= t->threshold_ns || !t->count)
		return al_tail_exceed_prob(t, (double)x_ns);
	*source = "observed";
	if (al_dhist_from_json(al_doc_get(scope, "histogram.wake_latency_ns"),
			       json_object_get(scope, "wake_latency_ns"), &h))
		return NAN;
	above = h.overflow;
	for (size_t i = 0; i < h.n; i++)
		above += h.b[i].low_ns >= x_ns ? h.b[i].count : 0;
	count = h.count;
	al_dhist_free(&h);
	return count ? (double)above / (double)count : NAN;
}

/* How likely a wake-up a whole buffer late is, and how long a run must be to see one. */
static json_t *
buffer_json(const json_t *doc, const json_t *scope, const struct al_tail *t, int64_t period_ns)
{
	int64_t buffer_ns = al_doc_int(doc, "config.buffer_ns", 0);
	const char *source = NULL;
	double p = NAN, run;

	if (buffer_ns > 0 && (t->status == AL_TAIL_OK || buffer_ns < t->threshold_ns))
		p = share_at_or_above(scope, t, buffer_ns, &source);
	run = al_tail_run_periods(p);
	return json_pack("{s:o, s:o, s:o, s:o, s:o}", "latency_ns", al_json_int_or_null(buffer_ns, 0),
			 "per_period_probability", al_json_real_or_null(p), "source",
			 isnan(p) ? json_null() : json_string(source), "run_periods_95",
			 run <= 9007199254740992.0 ? json_integer((json_int_t)run) : json_null(),
			 "run_ns_95",
			 period_ns ? ns_or_null(run * (double)period_ns) : json_null());
}

json_t *
al_doc_tail_json(const json_t *doc, const json_t *scope)
{
	static const char *const names[] = AL_TAIL_HORIZON_NAMES;
	bool fitted;
	struct al_tail t;
	int64_t period_ns;
	json_t *o;

	if (al_doc_tail_fit(doc, scope, &t, &period_ns))
		return NULL;
	fitted = t.status == AL_TAIL_OK || t.status == AL_TAIL_SHAPE;
	o = json_pack("{s:s, s:o, s:f, s:I, s:o, s:o, s:o, s:o}", "status",
		      t.status == AL_TAIL_OK && !period_ns ? "period unknown"
		      : t.status == AL_TAIL_OK		  ? "ok"
							  : al_tail_status_text(t.status),
		      "threshold_ns", t.count ? json_integer(t.threshold_ns) : json_null(),
		      "threshold_quantile", AL_TAIL_QUANTILE, "exceedances", (json_int_t)t.exceedances,
		      "exceedance_rate", al_json_real_or_null(t.rate), "shape",
		      al_json_real_or_null(fitted ? t.fit.xi : NAN), "scale_ns",
		      al_json_real_or_null(fitted ? t.fit.sigma : NAN), "observed_max_ns",
		      al_json_int_or_null(al_doc_int(scope, "wake_latency_ns.max", INT64_MIN), INT64_MIN));
	for (int i = 0; o && i < AL_TAIL_HORIZONS; i++)
		json_object_set_new(o, names[i], level_json(&t.level[i], period_ns));
	if (o)
		json_object_set_new(o, "buffer_late", buffer_json(doc, scope, &t, period_ns));
	return o;
}

json_t *
al_doc_scope_tail(const json_t *doc, const json_t *scope)
{
	json_t *own = json_object_get(scope, "tail");

	if (json_is_object(own))
		return json_incref(own);
	return al_doc_tail_json(doc, scope);
}

void
al_doc_tail_max_text(const json_t *tail, al_doc_dur_fn dur, char *buf, size_t size)
{
	if (json_is_integer(json_object_get(tail, "observed_max_ns")))
		dur(al_doc_int(tail, "observed_max_ns", 0), buf, size);
	else
		snprintf(buf, size, "-");
}

void
al_doc_tail_text(const json_t *tail, const char *name, al_doc_dur_fn dur, char *buf, size_t size)
{
	const json_t *lv = json_object_get(tail, name);
	const char *status = al_doc_str(tail, "status", NULL);
	char m[32], lo[32], hi[32];

	if (!status) {
		snprintf(buf, size, "-");
		return;
	}
	if (!json_is_integer(json_object_get(lv, "max_ns"))) {
		snprintf(buf, size, "%s", strcmp(status, "ok") ? status : "-");
		return;
	}
	dur(al_doc_int(lv, "max_ns", 0), m, sizeof(m));
	dur(al_doc_int(lv, "low_ns", 0), lo, sizeof(lo));
	if (json_is_integer(json_object_get(lv, "high_ns")))
		dur(al_doc_int(lv, "high_ns", 0), hi, sizeof(hi));
	else
		snprintf(hi, sizeof(hi), "unbounded");
	if (json_is_integer(json_object_get(lv, "low_ns")))
		snprintf(buf, size, "%s (%s - %s)", m, lo, hi);
	else
		snprintf(buf, size, "%s (no interval)", m);
}

void
al_doc_span_text(double t_ns, char *buf, size_t size)
{
	double s = t_ns / AL_NS_PER_SEC;

	if (!(t_ns >= 0))
		snprintf(buf, size, "-");
	else if (s < 120)
		al_format_duration((int64_t)t_ns, buf, size);
	else if (s < 2 * 3600)
		snprintf(buf, size, "%.0f min", s / 60);
	else if (s < 2 * 86400)
		snprintf(buf, size, "%.1f h", s / 3600);
	else if (s < 2 * 365.25 * 86400)
		snprintf(buf, size, "%.0f days", s / 86400);
	else
		snprintf(buf, size, "%.3g years", s / (365.25 * 86400));
}
