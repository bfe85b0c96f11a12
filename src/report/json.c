/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/stats.h"
#include "json-check.h"
#include "report.h"

/*
 * A JSON string from text that came from outside (hostnames, command
 * lines, device names): bytes that are not valid UTF-8 become '?', so one
 * odd byte never costs the whole document.
 */
static json_t *
jstr(const char *s)
{
	json_t *j;
	char *copy;
	size_t i;

	if (!s)
		return json_null();
	j = json_string(s);
	if (j)
		return j;
	copy = strdup(s);
	if (!copy)
		return NULL;
	for (i = 0; copy[i]; i++)
		if ((unsigned char)copy[i] >= 0x80 || (copy[i] < 0x20 && copy[i] != '\t'))
			copy[i] = '?';
	j = json_string(copy);
	free(copy);
	return j;
}

static json_t *
json_ns_or_null(int64_t v_ns, int64_t none)
{
	return v_ns == none ? json_null() : json_integer(v_ns);
}

static json_t *
summary_json(const struct al_hist *h)
{
	struct al_summary s;

	al_stats_summarize(h, &s);
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "count", (json_int_t)s.count, "min", (json_int_t)s.min_ns, "mean",
			 (json_int_t)s.mean_ns, "stddev", (json_int_t)s.stddev_ns, "p50",
			 (json_int_t)s.p50_ns, "p90", (json_int_t)s.p90_ns, "p99",
			 (json_int_t)s.p99_ns, "p999", (json_int_t)s.p999_ns, "p9999",
			 (json_int_t)s.p9999_ns, "max", (json_int_t)s.max_ns, "overflow",
			 (json_int_t)h->overflow);
}

/* Sparse: [[low_ns, high_ns, count], ...] for the non-empty buckets. */
static json_t *
histogram_json(const struct al_hist *h)
{
	json_t *buckets = json_array();
	int i;

	for (i = 0; i < AL_HIST_BUCKETS; i++)
		if (h->buckets[i])
			json_array_append_new(buckets,
					      json_pack("[I, I, I]", (json_int_t)al_hist_bucket_low(i),
							(json_int_t)al_hist_bucket_high(i),
							(json_int_t)h->buckets[i]));
	return json_pack("{s:I, s:I, s:I, s:o}", "count", (json_int_t)h->count, "overflow",
			 (json_int_t)h->overflow, "underflow", (json_int_t)h->underflow, "buckets",
			 buckets);
}

static json_t *
stats_json(const struct al_result *r, const struct al_period_stats *st)
{
	return json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:f, s:f, s:f, s:o, s:{s:o, s:o}}",
		"periods", (json_int_t)st->periods, "missed_periods",
		(json_int_t)st->missed_periods, "xruns", (json_int_t)st->xruns, "lost_periods",
		(json_int_t)st->lost_periods, "xrun_ns", (json_int_t)st->xrun_ns,
		"wake_latency_ns", summary_json(&st->wake_ns), "interval_ns",
		summary_json(&st->interval_ns), "work_ns", summary_json(&st->work_ns),
		"max_interval_pct_of_buffer", al_stats_max_interval_pct(st, r->buffer_ns),
		"within_1ms_pct", al_stats_within_pct(st, 1), "within_2ms_pct",
		al_stats_within_pct(st, 2), "min_margin_ns",
		json_ns_or_null(st->min_margin_ns, INT64_MAX), "histogram", "wake_latency_ns",
		histogram_json(&st->wake_ns), "interval_ns", histogram_json(&st->interval_ns));
}

static json_t *
config_json(const struct al_result *r)
{
	const struct al_config *c = &r->cfg;

	return json_pack("{s:o, s:o, s:I, s:I, s:i, s:I, s:I, s:I, s:i, s:i, s:o, s:I, s:o, "
			 "s:o, s:b, s:o, s:o}",
			 "backend", jstr(c->backend), "device", jstr(c->device[0] ? c->device : NULL), "rate",
			 (json_int_t)c->rate_hz, "period_frames", (json_int_t)c->period_frames,
			 "periods", c->periods, "buffer_frames",
			 (json_int_t)(c->period_frames * c->periods), "period_ns",
			 (json_int_t)r->period_ns, "buffer_ns", (json_int_t)r->buffer_ns,
			 "cpu_load_pct", c->cpu_load_pct, "priority", c->priority, "affinity",
			 c->affinity_cpu < 0 ? json_null() : json_integer(c->affinity_cpu),
			 "duration_ns", (json_int_t)c->duration_ns, "dma_latency_us",
			 c->dma_latency_us < 0 ? json_null() : json_integer(c->dma_latency_us),
			 "max_latency_ns", json_ns_or_null(c->max_latency_ns, 0), "fail_on_xrun",
			 c->fail_on_xrun, "load", jstr(c->load_spec[0] ? c->load_spec : NULL),
			 "window_ns", json_ns_or_null(c->window_ns, 0));
}

static json_t *
system_json(const struct al_result *r)
{
	const struct al_sysinfo *s = &r->sys;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o}", "sysname",
			 jstr(s->sysname), "hostname", jstr(s->nodename), "kernel_release",
			 jstr(s->release), "kernel_version", jstr(s->version), "machine",
			 jstr(s->machine), "preempt", jstr(s->preempt), "preempt_source",
			 jstr(s->preempt_source), "cpu_model", jstr(s->cpu_model), "cpus",
			 s->cpus, "clocksource", jstr(s->clocksource), "checks",
			 r->n_checks ? al_json_checks(r->checks, r->n_checks) : json_null());
}

static json_t *
phase_json(const struct al_result *r, const struct al_phase *ph)
{
	json_t *o = stats_json(r, &ph->stats), *tp = json_object();
	int i;

	for (i = 0; i < ph->n_throughput; i++)
		json_object_set_new(tp, ph->throughput[i].name,
				    json_pack("{s:f, s:s}", "value", ph->throughput[i].value,
					      "unit", ph->throughput[i].unit));
	/* names and units of metrics are ours (ASCII); names of phases may not be */
	json_object_set_new(o, "name", jstr(ph->name));
	json_object_set_new(o, "load", jstr(ph->load));
	json_object_set_new(o, "start_ns", json_integer(ph->start_ns));
	json_object_set_new(o, "end_ns", json_integer(ph->end_ns));
	json_object_set_new(o, "throughput", tp);
	json_object_set_new(o, "error", jstr(ph->error[0] ? ph->error : NULL));
	return o;
}

/* Compact rows: [t_ns, periods, wake_min_ns, wake_mean_ns, wake_max_ns, interval_max_ns, xruns, phase] */
static json_t *
timeseries_json(const struct al_result *r)
{
	json_t *rows = json_array();
	size_t i;

	for (i = 0; i < r->n_windows; i++) {
		const struct al_window *w = &r->windows[i];
		json_t *row;

		if (w->periods)
			row = json_pack("[I, i, I, I, I, I, i, o]", (json_int_t)(i * r->window_ns),
					(int)w->periods, (json_int_t)w->wake_min_ns,
					(json_int_t)(w->wake_sum_ns / w->periods),
					(json_int_t)w->wake_max_ns, (json_int_t)w->interval_max_ns,
					(int)w->xruns, jstr(r->phases[w->phase].name));
		else /* nothing woke in this window: the thread was stalled */
			row = json_pack("[I, i, n, n, n, n, i, n]", (json_int_t)(i * r->window_ns), 0,
					0);
		json_array_append_new(rows, row);
	}
	return json_pack("{s:I, s:[s, s, s, s, s, s, s, s], s:o, s:I}", "window_ns",
			 (json_int_t)r->window_ns, "columns", "t_ns", "periods", "wake_min_ns",
			 "wake_mean_ns", "wake_max_ns", "interval_max_ns", "xruns", "phase", "rows",
			 rows, "periods_dropped", (json_int_t)r->windows_dropped);
}

json_t *
al_report_json(const struct al_result *r)
{
	size_t n_ev = atomic_load(&r->n_xrun_events), i;
	json_t *root, *phases, *events, *warnings;
	char started[40];

	al_clock_format_iso(r->started_at_ns, started, sizeof(started));
	phases = json_array();
	for (i = 0; i < r->n_phases; i++)
		json_array_append_new(phases, phase_json(r, &r->phases[i]));
	events = json_array();
	for (i = 0; i < n_ev; i++)
		json_array_append_new(
			events, json_pack("{s:I, s:I, s:I, s:o}", "t_ns",
					  (json_int_t)r->xrun_events[i].t_ns, "duration_ns",
					  (json_int_t)r->xrun_events[i].duration_ns,
					  "lost_periods", (json_int_t)r->xrun_events[i].lost_periods,
					  "phase", jstr(r->phases[r->xrun_events[i].phase].name)));
	warnings = json_array();
	for (i = 0; i < (size_t)r->n_warnings; i++)
		json_array_append_new(warnings, jstr(r->warnings[i]));
	root = json_pack("{s:s, s:s, s:o, s:o, s:o, s:b, s:i, s:b, s:o, s:I, s:s, s:I, s:b, "
			 "s:o, s:o, s:o, s:I, s:o, s:o}",
			 "schema", AL_SCHEMA_RUN, "tool_version", r->tool_version, "cmdline",
			 jstr(r->cmdline), "config", config_json(r), "system", system_json(r),
			 "realtime", r->realtime, "priority", r->priority, "memory_locked",
			 r->memory_locked, "dma_latency_us",
			 r->dma_latency_us < 0 ? json_null() : json_integer(r->dma_latency_us),
			 "cpu_load_loops", (json_int_t)r->cpu_load_loops, "started_at", started,
			 "duration_ns", (json_int_t)r->duration_ns, "interrupted", r->interrupted,
			 "total", stats_json(r, &r->total), "phases", phases, "xrun_events",
			 events, "xrun_events_dropped",
			 (json_int_t)atomic_load(&r->xrun_events_dropped), "warnings", warnings,
			 "timeseries", timeseries_json(r));
	return root;
}
