/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JSON: the audiolat.run/2 document of a result (docs/json.md), and the
 * JSON reporter, which writes a document as --json does.
 */
#include <errno.h>
#include <math.h>
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
json_t *
al_json_text(const char *s)
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

/* NAN (not measured) is null. */
static json_t *
json_real_or_null(double v)
{
	return isfinite(v) ? json_real(v) : json_null();
}

json_t *
al_json_summary(const struct al_hist *h)
{
	struct al_summary s;

	al_stats_summarize(h, &s);
	if (!s.count)
		return json_pack("{s:i, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:i, s:i, s:i}",
				 "count", 0, "min", "mean", "stddev", "p50", "p90", "p99", "p999",
				 "p9999", "max", "overflow", 0, "underflow", 0, "negative", 0);
	return json_pack("{s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I}",
			 "count", (json_int_t)s.count, "min", (json_int_t)s.min_ns, "mean",
			 (json_int_t)s.mean_ns, "stddev", (json_int_t)s.stddev_ns, "p50",
			 (json_int_t)s.p50_ns, "p90", (json_int_t)s.p90_ns, "p99",
			 (json_int_t)s.p99_ns, "p999", (json_int_t)s.p999_ns, "p9999",
			 (json_int_t)s.p9999_ns, "max", (json_int_t)s.max_ns, "overflow",
			 (json_int_t)h->overflow, "underflow", (json_int_t)h->underflow, "negative",
			 (json_int_t)h->negative);
}

static void
append_bucket(void *ud, int64_t low_ns, int64_t high_ns, uint64_t count)
{
	json_array_append_new(ud, json_pack("[I, I, I]", (json_int_t)low_ns, (json_int_t)high_ns,
					    (json_int_t)count));
}

json_t *
al_json_histogram(const struct al_hist *h)
{
	json_t *buckets = json_array();

	al_hist_foreach(h, append_bucket, buckets);
	return json_pack("{s:I, s:I, s:I, s:I, s:o}", "count", (json_int_t)h->count, "overflow",
			 (json_int_t)h->overflow, "underflow", (json_int_t)h->underflow, "negative",
			 (json_int_t)h->negative, "buckets", buckets);
}

static json_t *
stats_json(const struct al_result *r, const struct al_period_stats *st)
{
	json_t *o = json_pack(
		"{s:I, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:o, s:o}", "periods",
		(json_int_t)st->periods, "wakeups", (json_int_t)st->wakeups, "missed_periods",
		(json_int_t)st->missed_periods, "xruns", (json_int_t)st->xruns, "lost_periods",
		(json_int_t)st->lost_periods, "xrun_ns", (json_int_t)st->xrun_ns,
		"wake_latency_ns", al_json_summary(&st->wake_ns), "wake_latency_per_wakeup_ns",
		al_json_summary(&st->wakeup_ns), "interval_ns", al_json_summary(&st->interval_ns),
		"work_ns", al_json_summary(&st->work_ns));

	if (!o)
		return NULL;
	json_object_set_new(o, "max_latency_pct_of_buffer",
			    json_real_or_null(al_stats_max_latency_pct(st, r->buffer_ns)));
	json_object_set_new(o, "max_interval_pct_of_buffer",
			    json_real_or_null(al_stats_max_interval_pct(st, r->buffer_ns)));
	json_object_set_new(o, "within_1ms_pct", json_real_or_null(al_stats_within_pct(st, 1)));
	json_object_set_new(o, "within_2ms_pct", json_real_or_null(al_stats_within_pct(st, 2)));
	json_object_set_new(o, "within_1ms_pct_per_wakeup",
			    json_real_or_null(al_stats_within_pct_per_wakeup(st, 1)));
	json_object_set_new(o, "within_2ms_pct_per_wakeup",
			    json_real_or_null(al_stats_within_pct_per_wakeup(st, 2)));
	json_object_set_new(o, "min_margin_ns", json_ns_or_null(st->min_margin_ns, INT64_MAX));
	json_object_set_new(o, "histogram",
			    json_pack("{s:o, s:o, s:o}", "wake_latency_ns",
				      al_json_histogram(&st->wake_ns), "wake_latency_per_wakeup_ns",
				      al_json_histogram(&st->wakeup_ns), "interval_ns",
				      al_json_histogram(&st->interval_ns)));
	return o;
}

static json_t *
config_json(const struct al_result *r)
{
	const struct al_config *c = &r->cfg;

	return json_pack("{s:o, s:o, s:I, s:I, s:i, s:I, s:I, s:I, s:i, s:i, s:o, s:I, s:o, "
			 "s:o, s:b, s:o, s:o, s:o}",
			 "backend", al_json_text(c->backend), "device", al_json_text(c->device[0] ? c->device : NULL), "rate",
			 (json_int_t)c->rate_hz, "period_frames", (json_int_t)c->period_frames,
			 "periods", c->periods, "buffer_frames",
			 (json_int_t)(c->period_frames * c->periods), "period_ns",
			 (json_int_t)r->period_ns, "buffer_ns", (json_int_t)r->buffer_ns,
			 "cpu_load_pct", c->cpu_load_pct, "priority", c->priority, "affinity",
			 c->affinity_cpu < 0 ? json_null() : json_integer(c->affinity_cpu),
			 "duration_ns", (json_int_t)c->duration_ns, "dma_latency_us",
			 c->dma_latency_us < 0 ? json_null() : json_integer(c->dma_latency_us),
			 "max_latency_ns", json_ns_or_null(c->max_latency_ns, 0), "fail_on_xrun",
			 c->fail_on_xrun, "load", al_json_text(c->load_spec[0] ? c->load_spec : NULL),
			 "window_ns", json_ns_or_null(c->window_ns, 0), "label",
			 al_json_text(c->label[0] ? c->label : NULL));
}

static json_t *
system_json(const struct al_result *r)
{
	const struct al_sysinfo *s = &r->sys;

	return json_pack("{s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:o, s:i, s:o, s:o}", "sysname",
			 al_json_text(s->sysname), "hostname", al_json_text(s->nodename), "kernel_release",
			 al_json_text(s->release), "kernel_version", al_json_text(s->version), "machine",
			 al_json_text(s->machine), "preempt", al_json_text(s->preempt), "preempt_source",
			 al_json_text(s->preempt_source), "cpu_model", al_json_text(s->cpu_model), "cpus",
			 s->cpus, "clocksource", al_json_text(s->clocksource), "checks",
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
	json_object_set_new(o, "name", al_json_text(ph->name));
	json_object_set_new(o, "load", al_json_text(ph->load));
	json_object_set_new(o, "start_ns", json_integer(ph->start_ns));
	json_object_set_new(o, "end_ns", json_integer(ph->end_ns));
	json_object_set_new(o, "throughput", tp);
	json_object_set_new(o, "error", al_json_text(ph->error[0] ? ph->error : NULL));
	return o;
}

/*
 * Compact rows, per period due: [t_ns, periods, wake_min_ns, wake_mean_ns,
 * wake_max_ns, interval_max_ns, xruns, phase, wakeups].
 */
static json_t *
timeseries_json(const struct al_result *r)
{
	json_t *rows = json_array();
	size_t i;

	for (i = 0; i < r->n_windows; i++) {
		const struct al_window *w = &r->windows[i];
		json_t *row;

		if (w->periods)
			row = json_pack("[I, i, I, I, I, o, i, o, i]", (json_int_t)(i * r->window_ns),
					(int)w->periods, (json_int_t)w->wake_min_ns,
					(json_int_t)(w->wake_sum_ns / w->periods),
					(json_int_t)w->wake_max_ns,
					w->wakeups > 1 || w->interval_max_ns
						? json_integer(w->interval_max_ns) : json_null(),
					(int)w->xruns, al_json_text(r->phases[w->phase].name),
					(int)w->wakeups);
		else /* no period was due in this window: the stream was stopped */
			row = json_pack("[I, i, n, n, n, n, i, n, i]", (json_int_t)(i * r->window_ns), 0,
					(int)w->xruns, 0);
		json_array_append_new(rows, row);
	}
	return json_pack("{s:I, s:[s, s, s, s, s, s, s, s, s], s:o, s:I, s:I}", "window_ns",
			 (json_int_t)r->window_ns, "columns", "t_ns", "periods", "wake_min_ns",
			 "wake_mean_ns", "wake_max_ns", "interval_max_ns", "xruns", "phase",
			 "wakeups", "rows", rows, "periods_dropped", (json_int_t)r->windows_dropped,
			 "missed_runs_dropped", (json_int_t)r->spans_dropped);
}

/* The stream options of real devices, and what was asked before the device answered. */
static void
stream_config_json(json_t *o, const struct al_result *r)
{
	const struct al_config *c = &r->cfg;

	if (!o)
		return;
	json_object_set_new(o, "capture", json_boolean(c->capture));
	json_object_set_new(o, "duplex", json_boolean(c->duplex));
	json_object_set_new(o, "mmap", json_boolean(c->mmap));
	json_object_set_new(o, "nearest", json_boolean(c->nearest));
	json_object_set_new(o, "tone_hz", c->tone_hz ? json_integer(c->tone_hz) : json_null());
	json_object_set_new(o, "channels", c->channels ? json_integer(c->channels) : json_null());
	json_object_set_new(o, "format", al_json_text(c->format[0] ? c->format : NULL));
	json_object_set_new(o, "requested_rate", json_ns_or_null(c->req_rate_hz, 0));
	json_object_set_new(o, "requested_period_frames", json_ns_or_null(c->req_period_frames, 0));
	json_object_set_new(o, "requested_periods", json_ns_or_null(c->req_periods, 0));
}

/* What the backend saw: its setup, clocks, JACK's DSP load, where xrun durations came from. */
static json_t *
backend_json(const struct al_result *r)
{
	const struct al_backend_info *b = &r->backend;

	return json_pack("{s:o, s:o, s:o, s:o, s:{s:I, s:I, s:o}, s:{s:o, s:o, s:o}, s:o}",
			 "detail", al_json_text(b->detail[0] ? b->detail : NULL), "clock",
			 al_json_text(b->clock[0] ? b->clock : NULL), "dsp_load_mean_pct",
			 b->dsp_load_valid ? json_real(b->dsp_load_mean_pct) : json_null(),
			 "dsp_load_max_pct",
			 b->dsp_load_valid ? json_real(b->dsp_load_max_pct) : json_null(),
			 "xrun_durations", "from_stamps", (json_int_t)b->xrun_stamped, "fallback",
			 (json_int_t)b->xrun_fallback, "last_reject",
			 al_json_text(b->xrun_reject[0] ? b->xrun_reject : NULL), "boundaries",
			 "total", b->bound_total ? json_integer((json_int_t)b->bound_total) : json_null(),
			 "estimated",
			 b->bound_total ? json_integer((json_int_t)b->bound_estimated) : json_null(),
			 "how", al_json_text(b->bound_note[0] ? b->bound_note : NULL), "negative_cause",
			 al_json_text(b->negative_note[0] ? b->negative_note : NULL));
}

/*
 * The explained late wake-ups (--trace, docs/trace.md): times relative to
 * the boundary, pct of the latency per cause (overlapping kinds may make
 * the sum pass 100).
 */
static json_t *
spikes_json(const struct al_result *r)
{
	json_t *arr = json_array();
	int i, k;

	for (i = 0; i < r->n_spikes && i < AL_SPIKES_MAX; i++) {
		const struct al_spike *s = &r->spikes[i];
		json_t *causes = json_array();

		for (k = 0; k < s->n_causes && k < AL_SPIKE_CAUSES; k++) {
			const struct al_cause *c = &s->causes[k];

			json_array_append_new(
				causes, json_pack("{s:o, s:o, s:i, s:I, s:f}", "kind", al_json_text(c->kind),
						  "name", al_json_text(c->name), "pid", c->pid, "duration_ns",
						  (json_int_t)c->duration_ns, "pct",
						  s->latency_ns > 0 ? 100.0 * (double)c->duration_ns /
									      (double)s->latency_ns
								    : 0.0));
		}
		json_array_append_new(
			arr, json_pack("{s:I, s:I, s:o, s:o, s:b, s:o}", "t_ns", (json_int_t)s->t_ns,
				       "latency_ns", (json_int_t)s->latency_ns, "woken_ns",
				       json_ns_or_null(s->woken_ns, -1), "switched_in_ns",
				       json_ns_or_null(s->switched_in_ns, -1), "truncated",
				       s->truncated, "causes", causes));
	}
	return arr;
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
			events, json_pack("{s:I, s:I, s:I, s:o, s:s}", "t_ns",
					  (json_int_t)r->xrun_events[i].t_ns, "duration_ns",
					  (json_int_t)r->xrun_events[i].duration_ns,
					  "lost_periods", (json_int_t)r->xrun_events[i].lost_periods,
					  "phase", al_json_text(r->phases[r->xrun_events[i].phase].name),
					  "source", al_xrun_source_name(r->xrun_events[i].source)));
	warnings = json_array();
	for (i = 0; i < (size_t)r->n_warnings; i++)
		json_array_append_new(warnings, al_json_text(r->warnings[i]));
	root = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:i, s:b, s:o, s:I, s:s, s:I, s:b, "
			 "s:o, s:o, s:o, s:I, s:o, s:o}",
			 "schema", AL_SCHEMA_RUN, "tool_version", r->tool_version, "cmdline",
			 al_json_text(r->cmdline), "label", al_json_text(r->cfg.label[0] ? r->cfg.label : NULL),
			 "config", config_json(r), "system", system_json(r),
			 "realtime", r->realtime, "priority", r->priority, "memory_locked",
			 r->memory_locked, "dma_latency_us",
			 r->dma_latency_us < 0 ? json_null() : json_integer(r->dma_latency_us),
			 "cpu_load_loops", (json_int_t)r->cpu_load_loops, "started_at", started,
			 "duration_ns", (json_int_t)r->duration_ns, "interrupted", r->interrupted,
			 "total", stats_json(r, &r->total), "phases", phases, "xrun_events",
			 events, "xrun_events_dropped",
			 (json_int_t)atomic_load(&r->xrun_events_dropped), "warnings", warnings,
			 "timeseries", timeseries_json(r));
	stream_config_json(json_object_get(root, "config"), r);
	json_object_set_new(json_object_get(root, "config"), "max_interval_ns",
			    json_ns_or_null(r->cfg.max_interval_ns, 0));
	json_object_set_new(root, "backend", backend_json(r));
	json_object_set_new(root, "spikes", spikes_json(r));
	json_object_set_new(root, "spikes_dropped", json_integer((json_int_t)r->spikes_dropped));
	json_object_set_new(root, "uuid", r->uuid[0] ? json_string(r->uuid) : json_null());
	json_object_set_new(root, "trace_threshold_ns",
			    r->trace_threshold_ns ? json_integer(r->trace_threshold_ns) : json_null());
	return root;
}

static int
json_write(const struct al_report_input *in, FILE *f)
{
	const json_t *doc = in->compare ? in->compare : in->n == 1 ? in->docs[0].doc : NULL;

	if (!doc)
		return -EINVAL;
	if (json_dumpf(doc, f, JSON_INDENT(2)) || fputc('\n', f) == EOF)
		return ferror(f) ? -EIO : -ENOMEM;
	return ferror(f) ? -EIO : 0;
}

const struct al_reporter al_reporter_json = {
	.name = "json",
	.file_ext = "json",
	.summary = "the document itself (a run's, the comparison's), indented",
	.write = json_write,
};
