/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The audiolat.run/2 document of a result (docs/json.md). */
#include <errno.h>
#include <math.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/stats.h"
#include "doc.h"
#include "run-doc.h"
#include "tail-doc.h"
#include "why-doc.h"

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
			    al_json_real_or_null(al_stats_max_latency_pct(st, r->buffer_ns)));
	json_object_set_new(o, "max_interval_pct_of_buffer",
			    al_json_real_or_null(al_stats_max_interval_pct(st, r->buffer_ns)));
	json_object_set_new(o, "within_1ms_pct", al_json_real_or_null(al_stats_within_pct(st, 1)));
	json_object_set_new(o, "within_2ms_pct", al_json_real_or_null(al_stats_within_pct(st, 2)));
	json_object_set_new(o, "within_1ms_pct_per_wakeup",
			    al_json_real_or_null(al_stats_within_pct_per_wakeup(st, 1)));
	json_object_set_new(o, "within_2ms_pct_per_wakeup",
			    al_json_real_or_null(al_stats_within_pct_per_wakeup(st, 2)));
	json_object_set_new(o, "min_margin_ns", al_json_int_or_null(st->min_margin_ns, INT64_MAX));
	json_object_set_new(o, "server_xruns", json_integer((json_int_t)st->server_xruns));
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
			 "s:o, s:b, s:b, s:o, s:o, s:o}",
			 "backend", al_json_text(c->backend), "device", al_json_text(c->device[0] ? c->device : NULL), "rate",
			 (json_int_t)c->rate_hz, "period_frames", (json_int_t)c->period_frames,
			 "periods", c->periods, "buffer_frames",
			 (json_int_t)(c->period_frames * c->periods), "period_ns",
			 (json_int_t)r->period_ns, "buffer_ns", (json_int_t)r->buffer_ns,
			 "cpu_load_pct", c->cpu_load_pct, "priority", c->priority, "affinity",
			 c->affinity_cpu < 0 ? json_null() : json_integer(c->affinity_cpu),
			 "duration_ns", (json_int_t)c->duration_ns, "dma_latency_us",
			 c->dma_latency_us < 0 ? json_null() : json_integer(c->dma_latency_us),
			 "max_latency_ns", al_json_int_or_null(c->max_latency_ns, 0), "fail_on_xrun",
			 c->fail_on_xrun, "fail_on_server_xrun", c->fail_on_server_xrun, "load",
			 al_json_text(c->load_spec[0] ? c->load_spec : NULL),
			 "window_ns", al_json_int_or_null(c->window_ns, 0), "label",
			 al_json_text(c->label[0] ? c->label : NULL));
}

static json_t *
phase_json(const struct al_result *r, const struct al_phase *ph)
{
	json_t *o = stats_json(r, &ph->stats);

	/* names and units of metrics are ours (ASCII); names of phases may not be */
	json_object_set_new(o, "name", al_json_text(ph->name));
	json_object_set_new(o, "load", al_json_text(ph->load));
	json_object_set_new(o, "start_ns", json_integer(ph->start_ns));
	json_object_set_new(o, "end_ns", json_integer(ph->end_ns));
	json_object_set_new(o, "throughput", al_json_throughput(ph->throughput, ph->n_throughput));
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
			row = json_pack("[I, i, I, I, I, o, i, o, i, o, o]", (json_int_t)(i * r->window_ns),
					(int)w->periods, (json_int_t)w->wake_min_ns,
					(json_int_t)(w->wake_sum_ns / w->periods),
					(json_int_t)w->wake_max_ns,
					w->wakeups > 1 || w->interval_max_ns
						? json_integer(w->interval_max_ns) : json_null(),
					(int)w->xruns, al_json_text(r->phases[w->phase].name),
					(int)w->wakeups,
					w->clock_n ? json_integer((json_int_t)(w->delay_sum_frames /
									   (int64_t)w->clock_n))
						   : json_null(),
					w->clock_n ? json_real(w->rate_diff_sum / w->clock_n) : json_null());
		else /* no period was due in this window: the stream was stopped */
			row = json_pack("[I, i, n, n, n, n, i, n, i, n, n]", (json_int_t)(i * r->window_ns),
					0, (int)w->xruns, 0);
		json_array_append_new(rows, row);
	}
	return json_pack("{s:I, s:[s, s, s, s, s, s, s, s, s, s, s], s:o, s:I, s:I}", "window_ns",
			 (json_int_t)r->window_ns, "columns", "t_ns", "periods", "wake_min_ns",
			 "wake_mean_ns", "wake_max_ns", "interval_max_ns", "xruns", "phase",
			 "wakeups", "delay_frames", "rate_diff", "rows", rows, "periods_dropped", (json_int_t)r->windows_dropped,
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
	json_object_set_new(o, "requested_rate", al_json_int_or_null(c->req_rate_hz, 0));
	json_object_set_new(o, "requested_period_frames", al_json_int_or_null(c->req_period_frames, 0));
	json_object_set_new(o, "requested_periods", al_json_int_or_null(c->req_periods, 0));
	json_object_set_new(o, "blame", c->blame ? json_boolean(c->blame > 0) : json_null());
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
				       al_json_int_or_null(s->woken_ns, -1), "switched_in_ns",
				       al_json_int_or_null(s->switched_in_ns, -1), "truncated",
				       s->truncated, "causes", causes));
	}
	return arr;
}

/* One cause of a late cycle (graph blame, docs/pipewire.md). */
static json_t *
cause_json(const struct al_graph_cause *c)
{
	return json_pack("{s:i, s:o, s:s, s:o, s:I, s:b, s:b, s:b, s:s}", "id", (int)c->id, "name",
			 al_json_text(c->name),
			 "state", c->driver ? "late-start" : al_node_status_name(c->status),
			 "wait_ns", al_json_int_or_null(c->wait_ns, -1), "busy_ns", (json_int_t)c->busy_ns,
			 "busy_at_least", c->busy_open, "self", c->self, "driver", c->driver, "kind",
			 al_cause_kind_name(c->kind));
}

static json_t *
late_json(const struct al_late_cycle *lc)
{
	json_t *causes = json_array(), *kind = json_array();
	int k;

	for (k = 0; k < lc->n_causes; k++)
		json_array_append_new(causes, cause_json(&lc->causes[k]));
	if (lc->kind & AL_LATE_OVERRUN)
		json_array_append_new(kind, json_string("overrun"));
	if (lc->kind & AL_LATE_START)
		json_array_append_new(kind, json_string("late-start"));
	return json_pack("{s:I, s:I, s:I, s:o, s:I, s:o, s:i, s:o, s:I}", "t_ns",
			 (json_int_t)lc->start_ns, "due_ns", (json_int_t)lc->due_ns, "quantum_ns",
			 (json_int_t)lc->quantum_ns, "end_ns", al_json_int_or_null(lc->end_ns, 0),
			 "late_ns", (json_int_t)lc->late_ns, "kind", kind, "driver_xruns",
			 (int)lc->driver_xruns, "causes", causes, "causes_found",
			 (json_int_t)lc->n_blamed);
}

/*
 * The causes of one xrun: of the late cycles overlapping it, one entry per
 * node (its longest busy). null without graph blame.
 */
/*
 * How a blamed cause was seen (docs/json.md): the PipeWire profiler's
 * per-node timings, or the clients' threads in ftrace (sched_switch).
 */
static const char *
blame_evidence(const struct al_graph *g)
{
	if (!strcmp(g->source, "jack-trace"))
		return "trace: sched_switch";
	if (!strcmp(g->source, "pipewire-profiler"))
		return "profiler";
	return "none";
}

static json_t *
xrun_blame_json(const struct al_result *r, const struct al_xrun_event *ev)
{
	const struct al_graph *g = r->graph;
	struct al_graph_cause best[AL_GRAPH_CAUSES * 4];
	int64_t p_ns = r->period_ns > 0 ? r->period_ns : 1;
	size_t first, n, i;
	int nb = 0, k, j;
	json_t *arr;

	if (!g || !g->active)
		return json_null();
	n = al_graph_late_between(g, ev->t_ns - p_ns, ev->t_ns + ev->duration_ns, &first);
	for (i = first; i < first + n; i++) {
		const struct al_late_cycle *lc = &g->late[i];

		if (!al_graph_late_overlaps(lc, ev->t_ns - p_ns, ev->t_ns + ev->duration_ns))
			continue;
		for (k = 0; k < lc->n_causes; k++) {
			for (j = 0; j < nb && (best[j].id != lc->causes[k].id ||
					       best[j].kind != lc->causes[k].kind); j++)
				;
			if (j == nb && nb < (int)(sizeof(best) / sizeof(best[0])))
				best[nb++] = lc->causes[k];
			else if (j < nb && lc->causes[k].busy_ns > best[j].busy_ns)
				best[j] = lc->causes[k];
		}
	}
	arr = json_array();
	for (j = 0; j < nb; j++) {
		json_t *c = cause_json(&best[j]);
		/* the share of the event its busy time covers (a cause of a late
		 * cycle tied to the event by time, not by a proven chain) */
		double share = ev->duration_ns > 0 ? (double)best[j].busy_ns / (double)ev->duration_ns
						    : 0.0;

		json_object_set_new(c, "evidence", json_string(blame_evidence(g)));
		json_object_set_new(c, "matched_by", json_string("overlap"));
		json_object_set_new(c, "share", json_real(share > 1.0 ? 1.0 : share));
		json_array_append_new(arr, c);
	}
	return arr;
}

static json_t *
graph_node_json(const struct al_graph_node *n)
{
	return json_pack("{s:i, s:o, s:b, s:b, s:I, s:I, s:I, s:o, s:o, s:{s:o, s:o}}", "id",
			 (int)n->id, "name", al_json_text(n->name), "driver", n->driver, "self",
			 n->self, "runs", (json_int_t)n->runs, "unfinished", (json_int_t)n->unfinished,
			 "blamed", (json_int_t)n->blamed, "wait_ns", al_json_summary(&n->wait_ns),
			 "busy_ns", al_json_summary(&n->busy_ns), "histogram", "wait_ns",
			 al_json_histogram(&n->wait_ns), "busy_ns", al_json_histogram(&n->busy_ns));
}

/* Graph blame: the profiler's nodes and the late cycles; null when not asked or not there. */
static json_t *
graph_json(const struct al_result *r)
{
	const struct al_graph *g = r->graph;
	json_t *nodes, *late;
	size_t i;

	if (!g)
		return json_null();
	nodes = json_array();
	for (i = 0; i < (size_t)g->n_nodes; i++)
		json_array_append_new(nodes, graph_node_json(&g->nodes[i]));
	late = json_array();
	for (i = 0; i < g->n_late; i++)
		json_array_append_new(late, late_json(&g->late[i]));
	return json_pack("{s:b, s:o, s:o, s:o, s:o, s:I, s:I, s:I, s:I, s:I, s:o, s:o, s:I, s:o, s:I}",
			 "active", g->active, "source", al_json_text(g->source[0] ? g->source : NULL),
			 "note", al_json_text(g->note[0] ? g->note : NULL),
			 "self_id", g->self_id ? json_integer(g->self_id) : json_null(), "driver",
			 g->active ? json_pack("{s:i, s:o}", "id", (int)g->driver_id, "name",
					       al_json_text(g->driver_name))
				   : json_null(),
			 "cycles", (json_int_t)g->cycles, "incomplete", (json_int_t)g->incomplete,
			 "late_starts", (json_int_t)g->late_starts, "driver_xruns",
			 (json_int_t)g->driver_xruns, "other_points", (json_int_t)g->other_points,
			 "driver_start_ns", al_json_summary(&g->driver_start_ns), "nodes", nodes,
			 "nodes_dropped", (json_int_t)g->nodes_dropped, "late_cycles", late,
			 "late_cycles_dropped", (json_int_t)g->late_dropped);
}

/* Where the period changed (a server's quantum or rate), and the statistics of each stretch. */
static void
segments_json(json_t *root, const struct al_result *r)
{
	json_t *changes = json_array(), *segs;
	size_t i;

	for (i = 0; i < r->n_period_changes; i++) {
		const struct al_period_change *c = &r->period_changes[i];

		json_array_append_new(changes,
				      json_pack("{s:I, s:I, s:I, s:I, s:I}", "t_ns", (json_int_t)c->t_ns,
						"period_frames", (json_int_t)c->to_frames, "rate",
						(json_int_t)c->to_rate_hz, "from_period_frames",
						(json_int_t)c->from_frames, "from_rate",
						(json_int_t)c->from_rate_hz));
	}
	json_object_set_new(root, "period_changes", changes);
	json_object_set_new(root, "period_changes_dropped",
			    json_integer((json_int_t)r->period_changes_dropped));
	if (r->n_segments < 2) {
		json_object_set_new(root, "segments", json_null());
		return;
	}
	segs = json_array();
	for (i = 0; i < r->n_segments; i++) {
		const struct al_segment *sg = &r->segments[i];
		json_t *o = stats_json(r, &sg->stats);

		json_object_set_new(o, "start_ns", json_integer(sg->start_ns));
		json_object_set_new(o, "end_ns", json_integer(sg->end_ns));
		json_object_set_new(o, "period_frames", json_integer(sg->period_frames));
		json_object_set_new(o, "rate", json_integer(sg->rate_hz));
		json_object_set_new(o, "period_ns", json_integer(sg->period_ns));
		json_array_append_new(segs, o);
	}
	json_object_set_new(root, "segments", segs);
}

/* One xrun event (or a server's notification): when, how long, who saw it. */
/* Each scope's tail beyond the run (tail-doc.h): "total" and every phase. */
static void
tail_blocks(json_t *root)
{
	json_t *total = json_object_get(root, "total"), *ph;
	size_t i;

	if (total)
		json_object_set_new(total, "tail", al_doc_tail_json(root, total));
	json_array_foreach(json_object_get(root, "phases"), i, ph)
		json_object_set_new(ph, "tail", al_doc_tail_json(root, ph));
}

static json_t *
xrun_event_json(const struct al_result *r, const struct al_xrun_event *e)
{
	json_t *seen = json_array();

	for (int k = 0; k < AL_XRUN_SOURCES; k++)
		if (e->seen_by & (1u << k))
			json_array_append_new(seen, json_string(al_xrun_source_name(k)));
	return json_pack("{s:I, s:I, s:I, s:o, s:s, s:o}", "t_ns", (json_int_t)e->t_ns, "duration_ns",
			 (json_int_t)e->duration_ns, "lost_periods", (json_int_t)e->lost_periods,
			 "phase", al_json_text(r->phases[e->phase].name), "source",
			 al_xrun_source_name(e->source), "seen_by", seen);
}

/*
 * --trace: the kernel's own wake-to-run histogram beside ours (docs/json.md);
 * null when --trace was not asked; its figures null when it was not made.
 */
static json_t *
kwake_json(const struct al_kernel_wake *k)
{
	if (!k)
		return json_null();
	if (!k->measured)
		return json_pack("{s:s, s:b, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:n, s:s}", "source",
				 "tracefs hist: sched_waking -> sched_switch", "measured", false,
				 "count", "dropped", "p50_ns", "p99_ns", "max_ns", "ours_count",
				 "ours_max_ns", "ours_p50_ns", "agree", "note", k->note);
	return json_pack("{s:s, s:b, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:I, s:b, s:o}", "source",
			 "tracefs hist: sched_waking -> sched_switch", "measured", true, "count",
			 (json_int_t)k->count, "dropped", (json_int_t)k->dropped, "p50_ns",
			 (json_int_t)k->p50_ns, "p99_ns", (json_int_t)k->p99_ns, "max_ns",
			 (json_int_t)k->max_ns, "ours_count", (json_int_t)k->ours_count,
			 "ours_max_ns", (json_int_t)k->ours_max_ns, "ours_p50_ns",
			 (json_int_t)k->ours_p50_ns, "agree", k->agree, "note",
			 k->note[0] ? json_string(k->note) : json_null());
}

json_t *
al_doc_run_json(const struct al_result *r)
{
	size_t n_ev = atomic_load(&r->n_xrun_events), n_server = atomic_load(&r->n_server_events), i;
	json_t *root, *phases, *events, *server, *warnings;
	char started[40];

	al_clock_format_iso(r->started_at_ns, started, sizeof(started));
	phases = json_array();
	for (i = 0; i < r->n_phases; i++)
		json_array_append_new(phases, phase_json(r, &r->phases[i]));
	events = json_array();
	for (i = 0; i < n_ev; i++) {
		json_t *ev = xrun_event_json(r, &r->xrun_events[i]);

		if (r->graph)
			json_object_set_new(ev, "blame", xrun_blame_json(r, &r->xrun_events[i]));
		json_array_append_new(events, ev);
	}
	server = json_array();
	for (i = 0; i < n_server; i++) {
		json_t *ev = xrun_event_json(r, &r->server_events[i]);

		/* whose the server's xrun was: the same blame as ours */
		if (r->graph)
			json_object_set_new(ev, "blame", xrun_blame_json(r, &r->server_events[i]));
		json_array_append_new(server, ev);
	}
	warnings = json_array();
	for (i = 0; i < (size_t)r->n_warnings; i++)
		json_array_append_new(warnings, al_json_text(r->warnings[i]));
	root = json_pack("{s:s, s:s, s:o, s:o, s:o, s:o, s:b, s:i, s:b, s:o, s:I, s:s, s:I, s:b, "
			 "s:o, s:o, s:o, s:I, s:o, s:o}",
			 "schema", AL_SCHEMA_RUN, "tool_version", r->tool_version, "cmdline",
			 al_json_text(r->cmdline), "label", al_json_text(r->cfg.label[0] ? r->cfg.label : NULL),
			 "config", config_json(r), "system", al_doc_system(&r->sys, r->checks, r->n_checks),
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
			    al_json_int_or_null(r->cfg.max_interval_ns, 0));
	json_object_set_new(json_object_get(root, "config"), "sim_tail",
			    r->cfg.sim_tail_p > 0
				? json_pack("{s:f, s:I, s:f}", "shape", r->cfg.sim_tail_xi, "scale_ns",
					    (json_int_t)r->cfg.sim_tail_sigma_ns, "probability",
					    r->cfg.sim_tail_p)
				: json_null());
	json_object_set_new(root, "boundary", json_string(r->backend.bound_fitted ? "fitted"
										    : "measured"));
	json_object_set_new(root, "server_reported", server);
	json_object_set_new(root, "server_reported_dropped",
			    json_integer((json_int_t)atomic_load(&r->server_events_dropped)));
	json_object_set_new(root, "backend", backend_json(r));
	json_object_set_new(root, "spikes", spikes_json(r));
	json_object_set_new(root, "spikes_dropped", json_integer((json_int_t)r->spikes_dropped));
	json_object_set_new(root, "uuid", r->uuid[0] ? json_string(r->uuid) : json_null());
	json_object_set_new(root, "trace_threshold_ns",
			    r->trace_threshold_ns ? json_integer(r->trace_threshold_ns) : json_null());
	segments_json(root, r);
	json_object_set_new(root, "graph", graph_json(r));
	json_object_set_new(root, "why", al_doc_why_json(r->why));
	json_object_set_new(root, "kernel_wake_to_run", kwake_json(r->kwake));
	tail_blocks(root);
	return root;
}
