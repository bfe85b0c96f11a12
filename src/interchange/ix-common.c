/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every importer shares (ix-common.h): the error line, the envelope
 * of an imported run, a histogram of whole microseconds.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "ix-common.h"

int
al_ix_line_err(char *err, size_t err_size, int line, const char *fmt, ...)
{
	char what[256];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(what, sizeof(what), fmt, ap);
	va_end(ap);
	return al_text_err(err, err_size, -EINVAL, ":%d: %s", line > 0 ? line : 1, what);
}

const char *
al_ix_quoted(const char *s, const char *end, char buf[24])
{
	size_t i;

	for (i = 0; i < 20 && s + i < end && s[i] != '\n'; i++)
		buf[i] = (unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e ? '?' : s[i];
	buf[i] = '\0';
	return buf;
}

const char *
al_ix_basename(const char *file)
{
	const char *base = strrchr(file, '/');

	return base ? base + 1 : file;
}

/* The system block, every field null: what the file does not say. */
static json_t *
system_null(void)
{
	return json_pack("{s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n}", "sysname",
			 "hostname", "kernel_release", "kernel_version", "machine", "preempt",
			 "preempt_source", "cpu_model", "cpus", "clocksource", "checks");
}

json_t *
al_ix_doc_new(json_t *system, json_t *started_at, json_t *total)
{
	static const char *const tail[] = { "realtime", "priority", "memory_locked",
					    "dma_latency_us", "cpu_load_loops", "started_at",
					    "duration_ns", "interrupted", "total", "phases",
					    "xrun_events", "warnings", "timeseries", "uuid" };
	json_t *doc = al_doc_new(AL_SCHEMA_RUN, NULL);

	if (!system)
		system = system_null();
	if (!started_at)
		started_at = json_null();
	if (!doc || !system || !total)
		goto fail;
	json_object_set_new(doc, "cmdline", json_null());
	json_object_set_new(doc, "label", json_null());
	json_object_set_new(doc, "config",
			    json_pack("{s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, "
				      "s:n, s:n, s:n, s:n, s:n, s:n, s:n}",
				      "backend", "device", "rate", "period_frames", "periods",
				      "buffer_frames", "period_ns", "buffer_ns", "cpu_load_pct",
				      "priority", "affinity", "duration_ns", "dma_latency_us",
				      "max_latency_ns", "max_interval_ns", "fail_on_xrun",
				      "fail_on_server_xrun", "load", "label"));
	json_object_set_new(doc, "system", system);
	/* in the order audiolat's own runs have them: what only audiolat measures is null */
	for (size_t i = 0; i < sizeof(tail) / sizeof(tail[0]); i++) {
		json_t *v = json_null(); /* (a singleton: nothing to free) */

		if (!strcmp(tail[i], "started_at"))
			v = started_at;
		else if (!strcmp(tail[i], "total"))
			v = total;
		else if (!strcmp(tail[i], "phases") || !strcmp(tail[i], "warnings"))
			v = json_array();
		json_object_set_new(doc, tail[i], v);
	}
	if (json_is_object(json_object_get(doc, "config")) &&
	    json_is_array(json_object_get(doc, "phases")) &&
	    json_is_array(json_object_get(doc, "warnings")))
		return doc;
	json_decref(doc);
	return NULL;
fail:
	json_decref(doc);
	json_decref(system);
	json_decref(started_at);
	json_decref(total);
	return NULL;
}

json_t *
al_ix_total_null(void)
{
	return json_pack("{s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, "
			 "s:n, s:n, s:n, s:n, s:{s:n, s:n, s:n}}",
			 "periods", "wakeups", "missed_periods", "xruns", "server_xruns",
			 "lost_periods", "xrun_ns", "wake_latency_ns", "wake_latency_per_wakeup_ns",
			 "interval_ns", "work_ns", "max_latency_pct_of_buffer",
			 "max_interval_pct_of_buffer", "within_1ms_pct", "within_2ms_pct",
			 "within_1ms_pct_per_wakeup", "within_2ms_pct_per_wakeup", "min_margin_ns",
			 "histogram", "wake_latency_ns", "wake_latency_per_wakeup_ns",
			 "interval_ns");
}

void *
al_ix_push(void *v, size_t *n, size_t *cap, size_t size, const void *elem)
{
	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 64;
		void *p = realloc(v, c * size);

		if (!p)
			return NULL;
		v = p;
		*cap = c;
	}
	memcpy((char *)v + *n * size, elem, size);
	(*n)++;
	return v;
}

void
al_ix_us_free(struct al_ix_us *u)
{
	free(u->v);
	memset(u, 0, sizeof(*u));
}

int
al_ix_us_add(struct al_ix_us *u, int64_t us)
{
	int64_t *v = al_ix_push(u->v, &u->n, &u->cap, sizeof(us), &us);

	if (!v)
		return -ENOMEM;
	u->v = v;
	return 0;
}

static int
cmp_i64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

int
al_ix_us_hist(struct al_ix_us *u, struct al_dhist *h, int64_t *mean_ns)
{
	__int128 sum = 0;
	size_t i, n = 0;

	memset(h, 0, sizeof(*h));
	*mean_ns = INT64_MIN;
	if (!u->n)
		return 0;
	qsort(u->v, u->n, sizeof(*u->v), cmp_i64);
	for (i = 0; i < u->n; i++)
		n += !i || u->v[i] != u->v[i - 1];
	h->b = calloc(n, sizeof(*h->b));
	if (!h->b)
		return -ENOMEM;
	for (i = 0; i < u->n; i++) {
		int64_t us = u->v[i];

		if (!i || us != u->v[i - 1])
			h->b[h->n++] = (struct al_dbucket){ us * 1000, us * 1000 + 1000, 0 };
		h->b[h->n - 1].count++;
		sum += us;
	}
	h->count = u->n;
	h->min_ns = u->v[0] * 1000;
	h->max_ns = u->v[u->n - 1] * 1000;
	*mean_ns = (int64_t)(sum * 1000 / (__int128)u->n);
	return 0;
}

int
al_ix_us_json(struct al_ix_us *u, json_t **summary, json_t **hist)
{
	struct al_dhist h;
	int64_t mean;
	json_t *s, *b = NULL;

	if (al_ix_us_hist(u, &h, &mean))
		return -ENOMEM;
	s = al_dhist_summary_json(&h, mean, INT64_MIN);
	if (hist)
		b = al_dhist_json(&h);
	al_dhist_free(&h);
	if (!s || (hist && !b)) {
		json_decref(s);
		json_decref(b);
		return -ENOMEM;
	}
	*summary = s;
	if (hist)
		*hist = b;
	return 0;
}
