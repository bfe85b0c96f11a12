/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest's threads as an audiolat.run/2 document, and back
 * (docs/interchange.md). The document's wake latencies are cyclictest's,
 * per wake-up (cyclictest never counts the periods a late wake-up passed
 * over): total holds the threads together, source.threads each one. What
 * cyclictest does not measure (xruns, periods, the audio configuration,
 * intervals, work) is null.
 */
#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <stdint.h>
#include <string.h>
#include <time.h>

#include "core/text.h"
#include "cyclictest.h"
#include "ix-common.h"

const struct al_ct_ours al_ct_ours[] = {
	{ "label", "label", true },
	{ "started_at", "started_at", true },
	{ "duration_ns", "duration_ns", false },
	{ "backend", "config.backend", true },
	{ "device", "config.device", true },
	{ "rate", "config.rate", false },
	{ "period_frames", "config.period_frames", false },
	{ "periods", "config.periods", false },
	{ "period_ns", "config.period_ns", false },
	{ "buffer_ns", "config.buffer_ns", false },
	{ "hostname", "system.hostname", true },
	{ "kernel_release", "system.kernel_release", true },
	{ "preempt", "system.preempt", true },
	{ "periods_due", "total.periods", false },
	{ "missed_periods", "total.missed_periods", false },
	{ "xruns", "total.xruns", false },
	{ "lost_periods", "total.lost_periods", false },
	{ "xrun_ns", "total.xrun_ns", false },
	{ NULL, NULL, false },
};

const struct al_ct_ours *
al_ct_ours_find(const char *key)
{
	for (const struct al_ct_ours *o = al_ct_ours; o->key; o++)
		if (!strcmp(o->key, key))
			return o;
	return NULL;
}

void
al_ct_run_free(struct al_ct_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		al_dhist_free(&r->t[i].h);
		free(r->t[i].ovf_cycles);
	}
	free(r->t);
	json_decref(r->audiolat);
	json_decref(r->meta);
	memset(r, 0, sizeof(*r));
}

int
al_ct_run_threads(struct al_ct_run *r, size_t n)
{
	for (size_t i = 0; i < r->n; i++) {
		al_dhist_free(&r->t[i].h);
		free(r->t[i].ovf_cycles);
	}
	free(r->t);
	r->n = 0;
	r->t = calloc(n ? n : 1, sizeof(*r->t));
	if (!r->t)
		return -ENOMEM;
	r->n = n;
	for (size_t i = 0; i < n; i++) {
		r->t[i].mean_ns = INT64_MIN;
		r->t[i].cpu = -1;
	}
	return 0;
}

int
al_ct_add_bucket(struct al_ct_thread *t, int64_t us, uint64_t count)
{
	struct al_dbucket b = { us * AL_CT_NS_PER_US, (us + 1) * AL_CT_NS_PER_US, count };
	struct al_dbucket *v = al_ix_push(t->h.b, &t->h.n, &t->cap, sizeof(b), &b);

	if (v)
		t->h.b = v;
	return v ? 0 : -ENOMEM;
}

int
al_ct_add_ovf_cycle(struct al_ct_thread *t, uint64_t cycle)
{
	uint64_t *v = al_ix_push(t->ovf_cycles, &t->n_ovf, &t->cap_ovf, sizeof(cycle), &cycle);

	if (v)
		t->ovf_cycles = v;
	return v ? 0 : -ENOMEM;
}

/* Set v at a dotted path of o whose parent exists ("config.backend"); v is stolen. */
static void
set_path(json_t *o, const char *path, json_t *v)
{
	const char *dot = strrchr(path, '.');
	char parent[64];

	if (dot && (size_t)(dot - path) < sizeof(parent)) {
		memcpy(parent, path, (size_t)(dot - path));
		parent[dot - path] = '\0';
		o = al_doc_get(o, parent);
	}
	if (json_is_object(o))
		json_object_set_new(o, dot ? dot + 1 : path, v);
	else
		json_decref(v);
}

/* All threads as one histogram: their buckets added up, the mean weighted by their counts. */
static int
merged(const struct al_ct_run *r, struct al_ct_thread *all)
{
	uint64_t *dense = calloc((size_t)(r->buckets > 0 ? r->buckets : 1), sizeof(*dense));
	__int128 sum = 0;
	bool mean = true;
	int rc = 0;

	memset(all, 0, sizeof(*all));
	if (!dense)
		return -ENOMEM;
	all->h.min_ns = INT64_MAX;
	all->h.max_ns = INT64_MIN;
	for (size_t i = 0; i < r->n; i++) {
		const struct al_ct_thread *t = &r->t[i];

		for (size_t k = 0; k < t->h.n; k++)
			dense[t->h.b[k].low_ns / AL_CT_NS_PER_US] += t->h.b[k].count;
		all->h.count += t->h.count;
		all->h.overflow += t->h.overflow;
		if (!t->h.count)
			continue;
		all->h.min_ns = t->h.min_ns < all->h.min_ns ? t->h.min_ns : all->h.min_ns;
		all->h.max_ns = t->h.max_ns > all->h.max_ns ? t->h.max_ns : all->h.max_ns;
		if (t->mean_ns == INT64_MIN)
			mean = false;
		sum += (__int128)t->mean_ns * (__int128)t->h.count;
	}
	for (int64_t us = 0; !rc && us < r->buckets; us++)
		if (dense[us])
			rc = al_ct_add_bucket(all, us, dense[us]);
	free(dense);
	if (!all->h.count)
		all->h.min_ns = all->h.max_ns = 0;
	all->mean_ns = mean && all->h.count ? (int64_t)(sum / (__int128)all->h.count) : INT64_MIN;
	return rc;
}

/* cyclictest's start_time ("Sun, 06 Dec 2026 03:07:38 +0000") as our started_at; null. */
static json_t *
started_at(const json_t *meta)
{
	const char *s = json_string_value(json_object_get(meta, "start_time"));
	struct tm tm;
	const char *end;
	time_t t;

	if (!s)
		return json_null();
	int off_min;

	memset(&tm, 0, sizeof(tm));
	end = strptime(s, "%a, %d %b %Y %H:%M:%S ", &tm);
	/* the offset by hand: strptime's %z does not set tm_gmtoff everywhere */
	if (!end || (end[0] != '+' && end[0] != '-') || strlen(end) != 5 ||
	    strspn(end + 1, "0123456789") != 4)
		return json_null();
	off_min = ((end[1] - '0') * 10 + (end[2] - '0')) * 60 + (end[3] - '0') * 10 + (end[4] - '0');
	t = timegm(&tm) - (end[0] == '-' ? -1 : 1) * (time_t)off_min * 60;
	/* (a year past 2262 is no time in ns on 64 bits: found by fuzz-ct-json) */
	if (t < 0 || t > INT64_MAX / 1000000000)
		return json_null();
	return al_doc_time((int64_t)t * 1000000000);
}

/* --json's sysinfo as our system block (what it does not say is null). */
static json_t *
system_json(const json_t *meta)
{
	const json_t *si = json_object_get(meta, "sysinfo");
	bool rt = json_integer_value(json_object_get(si, "realtime")) == 1;

	return json_pack("{s:O?, s:O?, s:O?, s:O?, s:O?, s:o, s:o, s:n, s:n, s:n, s:n}", "sysname",
			 json_object_get(si, "sysname"), "hostname", json_object_get(si, "nodename"),
			 "kernel_release", json_object_get(si, "release"), "kernel_version",
			 json_object_get(si, "version"), "machine", json_object_get(si, "machine"),
			 "preempt", rt ? json_string("PREEMPT_RT") : json_null(), "preempt_source",
			 rt ? json_string("cyclictest: sysinfo.realtime") : json_null(), "cpu_model",
			 "cpus", "clocksource", "checks");
}

static json_t *
stats_json(const struct al_ct_thread *all)
{
	json_t *o = al_ix_total_null(), *hists = json_object_get(o, "histogram");
	json_t *lat = al_dhist_summary_json(&all->h, all->mean_ns, INT64_MIN);
	json_t *hist = al_dhist_json(&all->h);

	/* the same summary and histogram twice: cyclictest's view is per wake-up */
	if (!o || !lat || !hist ||
	    json_object_set_new(o, "wakeups", json_integer((json_int_t)all->h.count)) ||
	    json_object_set(o, "wake_latency_ns", lat) ||
	    json_object_set(o, "wake_latency_per_wakeup_ns", lat) ||
	    json_object_set(hists, "wake_latency_ns", hist) ||
	    json_object_set(hists, "wake_latency_per_wakeup_ns", hist)) {
		json_decref(o);
		o = NULL;
	}
	json_decref(lat);
	json_decref(hist);
	return o;
}

static json_t *
thread_json(const struct al_ct_thread *t, size_t i)
{
	json_t *cycles = json_array();

	for (size_t k = 0; cycles && k < t->n_ovf; k++)
		json_array_append_new(cycles, json_integer((json_int_t)t->ovf_cycles[k]));
	return json_pack("{s:I, s:o, s:o, s:o, s:o, s:I}", "thread", (json_int_t)i, "cpu",
			 t->cpu >= 0 ? json_integer(t->cpu) : json_null(), "wake_latency_ns",
			 al_dhist_summary_json(&t->h, t->mean_ns, INT64_MIN), "histogram",
			 al_dhist_json(&t->h), "overflow_cycles", cycles, "overflow_cycles_others",
			 (json_int_t)t->ovf_others);
}

json_t *
al_ct_doc(const struct al_ct_run *r, const char *format, const char *file)
{
	json_t *doc = NULL, *threads, *src, *v;
	struct al_ct_thread all;

	if (merged(r, &all))
		goto out;
	threads = json_array();
	for (size_t i = 0; threads && i < r->n; i++)
		json_array_append_new(threads, thread_json(&r->t[i], i));
	src = json_pack("{s:s, s:s, s:o, s:O?, s:O?, s:O?, s:O?, s:s, s:I, s:b, s:o}", "tool",
			"cyclictest", "format", format, "file", al_json_text(al_ix_basename(file)),
			"version", json_object_get(r->meta, "version"), "cmdline",
			json_object_get(r->meta, "cmdline"), "start_time",
			json_object_get(r->meta, "start_time"), "end_time",
			json_object_get(r->meta, "end_time"), "unit", "us", "histogram_buckets",
			(json_int_t)r->buckets, "histofall", r->histofall, "threads", threads);
	doc = al_ix_doc_new(system_json(r->meta), started_at(r->meta), stats_json(&all));
	if (!doc || !src) {
		json_decref(src);
		goto fail;
	}
	/* audiolat's own figures of a run exported before (# audiolat.KEY:) */
	for (const struct al_ct_ours *o = al_ct_ours; o->key; o++)
		if ((v = json_object_get(r->audiolat, o->key)))
			set_path(doc, o->path, json_incref(v));
	json_object_set(al_doc_get(doc, "config"), "label", json_object_get(doc, "label"));
	json_object_set_new(doc, "source", src);
	if (json_is_object(json_object_get(doc, "total")) &&
	    json_is_object(json_object_get(doc, "config")) &&
	    json_is_object(json_object_get(doc, "system")))
		goto out;
fail:
	json_decref(doc);
	doc = NULL;
out:
	al_dhist_free(&all.h);
	return doc;
}

/* One thread of doc's: its histogram and summary at hist_path and sum_path of o. */
static int
thread_of(const json_t *o, const char *hist_path, const char *sum_path, struct al_ct_thread *t)
{
	const json_t *sum = al_doc_get(o, sum_path);
	const json_t *mean = json_object_get(sum, "mean");

	if (al_dhist_from_json(al_doc_get(o, hist_path), sum, &t->h))
		return -ENOMEM;
	t->mean_ns = json_is_integer(mean) ? json_integer_value(mean) : INT64_MIN;
	return 0;
}

int
al_ct_from_doc(const json_t *doc, struct al_ct_run *r, char *err, size_t err_size)
{
	const json_t *src = json_object_get(doc, "source"), *th, *c;
	const json_t *threads = json_object_get(src, "threads");
	const char *hist = "total.histogram.wake_latency_per_wakeup_ns";
	const char *sum = "total.wake_latency_per_wakeup_ns";
	int64_t top = -1;
	size_t i, k;
	int rc;

	memset(r, 0, sizeof(*r));
	if (!al_doc_is_run(doc))
		return al_text_err(err, err_size, -EINVAL, "not an audiolat.run document (schema "
				   "%.40s)", al_doc_str(doc, "schema", "none"));
	if (!strcmp(al_doc_str(src, "tool", ""), "cyclictest") && json_array_size(threads) &&
	    json_array_size(threads) <= AL_CT_THREADS_MAX) {
		/* a cyclictest run: its threads again, as they were */
		rc = al_ct_run_threads(r, json_array_size(threads));
		json_array_foreach(threads, i, th) {
			c = json_object_get(th, "overflow_cycles");
			if (!rc)
				rc = thread_of(th, "histogram", "wake_latency_ns", &r->t[i]);
			for (k = 0; !rc && k < json_array_size(c); k++)
				if (json_integer_value(json_array_get(c, k)) >= 0)
					rc = al_ct_add_ovf_cycle(&r->t[i],
						(uint64_t)json_integer_value(json_array_get(c, k)));
			if (!rc && r->t[i].n_ovf > r->t[i].h.overflow)
				r->t[i].n_ovf = r->t[i].h.overflow;
			r->t[i].cpu = (int)al_doc_int(th, "cpu", -1);
		}
		r->histofall = al_doc_bool(src, "histofall", false);
		top = al_doc_int(src, "histogram_buckets", -1);
	} else {
		/* one of ours: its per-wake-up wake latency, cyclictest's figure (run/1: the only one) */
		if (!json_is_object(al_doc_get(doc, hist))) {
			hist = "total.histogram.wake_latency_ns";
			sum = "total.wake_latency_ns";
		}
		/* no wake latency at all (pw-profiler's): nothing to write, never a 0 */
		if (!json_is_object(al_doc_get(doc, hist)))
			return al_text_err(err, err_size, -ENODATA, "the run has no wake latency "
					   "histogram (%.40s does not measure it): nothing to write",
					   al_doc_str(src, "tool", "its tool"));
		rc = al_ct_run_threads(r, 1);
		if (!rc)
			rc = thread_of(doc, hist, sum, &r->t[0]);
	}
	if (rc)
		goto fail;
	if (top < 0 || top > AL_CT_BUCKETS_MAX) { /* as many buckets as the values need */
		top = 1;
		for (i = 0; i < r->n; i++) {
			const struct al_dhist *h = &r->t[i].h;
			int64_t last = h->n && h->b[h->n - 1].low_ns > 0
					       ? h->b[h->n - 1].low_ns / AL_CT_NS_PER_US + 1 : 1;

			top = last > top ? last : top;
		}
		top = top > AL_CT_BUCKETS_MAX ? AL_CT_BUCKETS_MAX : top;
	}
	r->buckets = top;
	/* audiolat's own figures, those the run has */
	r->audiolat = json_object();
	if (!r->audiolat) {
		rc = -ENOMEM;
		goto fail;
	}
	for (const struct al_ct_ours *o = al_ct_ours; o->key; o++) {
		const json_t *v = al_doc_get(doc, o->path);

		if (o->string ? json_is_string(v) : json_is_integer(v))
			json_object_set_new(r->audiolat, o->key, json_deep_copy(v));
	}
	return 0;
fail:
	al_ct_run_free(r);
	return al_text_err(err, err_size, rc, "out of memory");
}
