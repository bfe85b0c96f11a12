/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/hist.h"
#include "core/result.h"
#include "core/text.h"
#include "view.h"

bool
al_doc_is_run(const json_t *doc)
{
	const char *schema = al_doc_str(doc, "schema", "");

	return (!strcmp(schema, AL_SCHEMA_RUN) || !strcmp(schema, AL_SCHEMA_RUN_V1)) &&
	       json_is_object(al_doc_get(doc, "total"));
}

bool
al_doc_per_period(const json_t *doc)
{
	return strcmp(al_doc_str(doc, "schema", ""), AL_SCHEMA_RUN_V1) != 0 &&
	       !al_doc_imported_from(doc);
}

const char *
al_doc_imported_from(const json_t *doc)
{
	const char *tool = al_doc_str(doc, "source.tool", NULL);

	return tool && tool[0] ? tool : NULL;
}

/* The figures a reader shows, by the name it shows them under. */
static const struct {
	const char *name, *path;
} figures[] = {
	{ "backend", "config.backend" },
	{ "rate", "config.rate" },
	{ "period", "config.period_frames" },
	{ "buffer", "config.buffer_ns" },
	{ "duration", "duration_ns" },
	{ "periods due", "total.periods" },
	{ "missed periods", "total.missed_periods" },
	{ "xruns", "total.xruns" },
	{ "lost periods", "total.lost_periods" },
	{ "wake latency", "total.wake_latency_ns" },
	{ "interval", "total.interval_ns" },
	{ "work", "total.work_ns" },
	{ "wake latency stddev", "total.wake_latency_ns.stddev" },
};

/* Does doc lack figure i, and no figure before it that holds it (a null wake latency, its stddev)? */
static bool
lacks(const json_t *doc, size_t i)
{
	const json_t *v = al_doc_get(doc, figures[i].path);

	if (v && !json_is_null(v))
		return false;
	for (size_t k = 0; k < i; k++) {
		size_t n = strlen(figures[k].path);
		const json_t *w = al_doc_get(doc, figures[k].path);

		if (!strncmp(figures[i].path, figures[k].path, n) && figures[i].path[n] == '.' &&
		    (!w || json_is_null(w)))
			return false;
	}
	return true;
}

json_t *
al_doc_lacks(const json_t *doc)
{
	json_t *arr = json_array();

	for (size_t i = 0; arr && i < sizeof(figures) / sizeof(figures[0]); i++) {
		if (lacks(doc, i) && json_array_append_new(arr, json_string(figures[i].name))) {
			json_decref(arr);
			return NULL;
		}
	}
	return arr;
}

size_t
al_doc_lacks_text(const json_t *doc, char *buf, size_t size)
{
	size_t n = 0, len = 0;

	if (size)
		buf[0] = '\0';
	for (size_t i = 0; i < sizeof(figures) / sizeof(figures[0]); i++) {
		if (!lacks(doc, i))
			continue;
		if (len < size)
			len += (size_t)snprintf(buf + len, size - len, "%s%s", n ? ", " : "",
						figures[i].name);
		n++;
	}
	return n;
}

const char *
al_doc_label(const json_t *doc)
{
	const char *s = al_doc_str(doc, "label", NULL);

	if (s && s[0])
		return s;
	s = al_doc_str(doc, "system.kernel_release", NULL);
	if (s && s[0])
		return s;
	s = al_doc_imported_from(doc);
	return s ? s : "?";
}

static int
bucket_cmp(const void *a, const void *b)
{
	const struct al_dbucket *x = a, *y = b;

	if (x->low_ns != y->low_ns)
		return x->low_ns < y->low_ns ? -1 : 1;
	return x->high_ns < y->high_ns ? -1 : x->high_ns > y->high_ns;
}

int
al_dhist_from_json(const json_t *hist, const json_t *summary, struct al_dhist *h)
{
	const json_t *buckets = json_object_get(hist, "buckets"), *row;
	size_t i, n = 0, cap;
	int64_t ov;

	memset(h, 0, sizeof(*h));
	ov = al_doc_int(hist, "overflow", 0);
	h->overflow = ov > 0 ? (uint64_t)ov : 0;
	cap = json_is_array(buckets) ? json_array_size(buckets) : 0;
	if (cap) {
		h->b = calloc(cap, sizeof(*h->b));
		if (!h->b)
			return -ENOMEM;
	}
	json_array_foreach(buckets, i, row)
	{
		const json_t *lo = json_array_get(row, 0), *hi = json_array_get(row, 1),
			     *c = json_array_get(row, 2);

		if (!json_is_array(row) || !json_is_integer(lo) || !json_is_integer(hi) ||
		    !json_is_integer(c))
			continue;
		if (json_integer_value(lo) >= json_integer_value(hi) || json_integer_value(c) < 1)
			continue;
		h->b[n++] = (struct al_dbucket){json_integer_value(lo), json_integer_value(hi),
						(uint64_t)json_integer_value(c)};
	}
	if (n) /* qsort(NULL, 0, ...) is undefined */
		qsort(h->b, n, sizeof(*h->b), bucket_cmp);
	/* drop buckets overlapping an earlier one: a well-formed document has none */
	h->n = 0;
	for (i = 0; i < n; i++) {
		if (h->n && h->b[i].low_ns < h->b[h->n - 1].high_ns)
			continue;
		h->b[h->n++] = h->b[i];
	}
	h->count = h->overflow;
	for (i = 0; i < h->n; i++)
		h->count =
		    h->count + h->b[i].count < h->count ? UINT64_MAX : h->count + h->b[i].count;
	h->min_ns = h->n ? h->b[0].low_ns : 0;
	h->max_ns = h->n ? h->b[h->n - 1].high_ns - 1 : 0;
	if (json_is_integer(json_object_get(summary, "min")) &&
	    json_is_integer(json_object_get(summary, "max")) && h->count) {
		int64_t mn = al_doc_int(summary, "min", 0), mx = al_doc_int(summary, "max", 0);

		if (mn <= mx) {
			h->min_ns = mn;
			h->max_ns = mx;
		}
	}
	return 0;
}

void
al_dhist_free(struct al_dhist *h)
{
	free(h->b);
	memset(h, 0, sizeof(*h));
}

int64_t
al_dhist_quantile(const struct al_dhist *h, double q)
{
	uint64_t rank, seen = 0;
	int64_t v;
	size_t i;

	rank = al_quantile_rank(h->count, q, h->min_ns, h->max_ns, &v);
	if (!rank)
		return v;
	for (i = 0; i < h->n; i++) {
		seen += h->b[i].count;
		if (seen >= rank)
			return al_dhist_bucket_value(h, i);
	}
	return h->max_ns;
}

int64_t
al_dhist_bucket_value(const struct al_dhist *h, size_t i)
{
	/* unsigned: a hostile document's buckets may span all of int64 */
	int64_t mid = (int64_t)((uint64_t)h->b[i].low_ns +
				((uint64_t)h->b[i].high_ns - 1 - (uint64_t)h->b[i].low_ns) / 2);

	if (mid < h->min_ns)
		mid = h->min_ns;
	if (mid > h->max_ns)
		mid = h->max_ns;
	return mid;
}

/* Values below 0: the buckets wholly below it (a document's buckets never straddle it). */
static uint64_t
dhist_negative(const struct al_dhist *h)
{
	uint64_t n = 0;

	for (size_t i = 0; i < h->n && h->b[i].low_ns < 0; i++)
		n += h->b[i].count;
	return n;
}

json_t *
al_dhist_json(const struct al_dhist *h)
{
	json_t *buckets = json_array();

	for (size_t i = 0; buckets && i < h->n; i++)
		json_array_append_new(buckets, json_pack("[I, I, I]", (json_int_t)h->b[i].low_ns,
							 (json_int_t)h->b[i].high_ns,
							 (json_int_t)h->b[i].count));
	return json_pack("{s:I, s:I, s:i, s:I, s:o}", "count", (json_int_t)h->count, "overflow",
			 (json_int_t)h->overflow, "underflow", 0, "negative",
			 (json_int_t)dhist_negative(h), "buckets", buckets);
}

json_t *
al_dhist_summary_json(const struct al_dhist *h, int64_t mean_ns, int64_t stddev_ns)
{
	static const struct {
		const char *name;
		double q;
	} pct[] = { { "p50", 0.5 }, { "p90", 0.9 }, { "p99", 0.99 }, { "p999", 0.999 },
		    { "p9999", 0.9999 } };
	json_t *o;

	o = json_pack("{s:I, s:o, s:o, s:o}", "count", (json_int_t)h->count, "min",
		      h->count ? json_integer(h->min_ns) : json_null(), "mean",
		      h->count ? al_json_int_or_null(mean_ns, INT64_MIN) : json_null(), "stddev",
		      h->count ? al_json_int_or_null(stddev_ns, INT64_MIN) : json_null());
	for (size_t i = 0; o && i < sizeof(pct) / sizeof(pct[0]); i++)
		json_object_set_new(o, pct[i].name, h->count ? json_integer(al_dhist_quantile(h, pct[i].q))
							     : json_null());
	if (o && json_object_set_new(o, "max", h->count ? json_integer(h->max_ns) : json_null()) |
		     json_object_set_new(o, "overflow", json_integer((json_int_t)h->overflow)) |
		     json_object_set_new(o, "underflow", json_integer(0)) |
		     json_object_set_new(o, "negative", json_integer((json_int_t)dhist_negative(h)))) {
		json_decref(o);
		return NULL;
	}
	return o;
}

static int
column(const json_t *columns, const char *name)
{
	const json_t *c;
	size_t i;

	json_array_foreach(columns, i, c) if (json_is_string(c) &&
					      !strcmp(json_string_value(c), name)) return (int)i;
	return -1;
}

static int64_t
cell(const json_t *row, int idx)
{
	const json_t *v = idx >= 0 ? json_array_get(row, (size_t)idx) : NULL;

	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_real(v) && fabs(json_real_value(v)) < 9.2e18)
		return (int64_t)json_real_value(v);
	return 0;
}

int
al_dseries_from_json(const json_t *doc, struct al_dseries *s)
{
	const json_t *ts = json_object_get(doc, "timeseries");
	const json_t *cols = json_object_get(ts, "columns"), *rows = json_object_get(ts, "rows");
	const json_t *row;
	int c_t, c_n, c_min, c_mean, c_max, c_int, c_x, c_ph;
	size_t i;

	memset(s, 0, sizeof(*s));
	s->window_ns = al_doc_int(ts, "window_ns", 0);
	if (!json_is_array(rows) || !json_array_size(rows))
		return 0;
	s->w = calloc(json_array_size(rows), sizeof(*s->w));
	if (!s->w)
		return -ENOMEM;
	c_t = column(cols, "t_ns");
	c_n = column(cols, "periods");
	c_min = column(cols, "wake_min_ns");
	c_mean = column(cols, "wake_mean_ns");
	c_max = column(cols, "wake_max_ns");
	c_int = column(cols, "interval_max_ns");
	c_x = column(cols, "xruns");
	c_ph = column(cols, "phase");
	json_array_foreach(rows, i, row)
	{
		struct al_dwindow *w = &s->w[s->n];
		const json_t *ph = c_ph >= 0 ? json_array_get(row, (size_t)c_ph) : NULL;

		if (!json_is_array(row))
			continue;
		w->t_ns = cell(row, c_t);
		w->periods = cell(row, c_n);
		if (w->periods < 0)
			w->periods = 0;
		if (w->periods) {
			w->wake_min_ns = cell(row, c_min);
			w->wake_mean_ns = cell(row, c_mean);
			w->wake_max_ns = cell(row, c_max);
			w->interval_max_ns = cell(row, c_int);
		}
		w->xruns = cell(row, c_x);
		w->phase = json_is_string(ph) ? json_string_value(ph) : NULL;
		s->n++;
	}
	return 0;
}

void
al_dseries_free(struct al_dseries *s)
{
	free(s->w);
	memset(s, 0, sizeof(*s));
}
