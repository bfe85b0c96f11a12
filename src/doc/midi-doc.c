/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The documents of audiolat midi (docs/json.md): audiolat.midi/1 of
 * analyze and record, audiolat.midi-loop/1 of loop, from the result
 * (core/midi-result.h) on src/doc's envelope and histogram block.
 */
#include "core/clock.h"
#include "doc.h"
#include "midi-doc.h"

static const char *
kind_name(int kind)
{
	static const char *const names[] = { "analyze", "send", "record", "loop", "thru" };

	return kind >= 0 && kind <= AL_MIDI_THRU ? names[kind] : "?";
}


static json_t *
jns(int64_t v, bool valid)
{
	return valid ? json_integer(v) : json_null();
}

static json_t *
summary_json(const struct al_midi_summary *s)
{
	bool v = s->count > 0;
	json_t *o = json_object();

	json_object_set_new(o, "count", json_integer((json_int_t)s->count));
	json_object_set_new(o, "min", jns(s->min_ns, v));
	json_object_set_new(o, "mean", jns(s->mean_ns, v));
	json_object_set_new(o, "median", jns(s->median_ns, v));
	json_object_set_new(o, "p99", jns(s->p99_ns, v));
	json_object_set_new(o, "max", jns(s->max_ns, v));
	json_object_set_new(o, "stddev", jns(s->stddev_ns, v));
	return o;
}

/* [t_ns, deltas, delta_min_ns, delta_max_ns] per window with deltas in it. */
static json_t *
timeline_json(const struct al_midi_stats *st)
{
	json_t *rows = json_array();
	size_t k;

	for (k = 0; k < st->n_timeline; k++) {
		const struct al_midi_window *w = &st->timeline[k];

		if (w->deltas)
			json_array_append_new(rows, json_pack("[I, i, I, I]", (json_int_t)w->t_ns,
							      (int)w->deltas,
							      (json_int_t)w->delta_min_ns,
							      (json_int_t)w->delta_max_ns));
	}
	return json_pack("{s:I, s:[s, s, s, s], s:o}", "window_ns",
			 (json_int_t)st->timeline_window_ns, "columns", "t_ns", "deltas",
			 "delta_min_ns", "delta_max_ns", "rows", rows);
}

/* The rows a histogram is printed in (round steps, exact counts); null when there is nothing. */
static json_t *
rows_json(const struct al_midi_linhist *lh)
{
	json_t *counts;
	int i;

	if (!lh || !lh->rows)
		return json_null();
	counts = json_array();
	for (i = 0; i < lh->rows; i++)
		json_array_append_new(counts, json_integer((json_int_t)lh->count[i]));
	return json_pack("{s:I, s:I, s:o}", "start_ns", (json_int_t)lh->start_ns, "step_ns",
			 (json_int_t)lh->step_ns, "counts", counts);
}

/* The delta figures, flat into o (the fields the issue names). */
static void
stats_into(json_t *o, const struct al_midi_stats *st, bool with_hist)
{
	bool v = st->deltas > 0;

	json_object_set_new(o, "events", json_integer((json_int_t)st->events));
	json_object_set_new(o, "deltas", json_integer((json_int_t)st->deltas));
	json_object_set_new(o, "interval_ns", jns(st->interval_ns, v || !st->interval_auto));
	json_object_set_new(o, "interval_auto", json_boolean(st->interval_auto));
	json_object_set_new(o, "interval_from",
			    json_string(!st->interval_auto ? "given"
					: st->interval_mode ? "mode" : "median"));
	json_object_set_new(o, "delta_min_ns", jns(st->delta.min_ns, v));
	json_object_set_new(o, "delta_max_ns", jns(st->delta.max_ns, v));
	json_object_set_new(o, "delta_mean_ns", jns(st->delta.mean_ns, v));
	json_object_set_new(o, "delta_median_ns", jns(st->delta.median_ns, v));
	json_object_set_new(o, "delta_stddev_ns", jns(st->delta.stddev_ns, v));
	json_object_set_new(o, "delta_p99_ns", jns(st->delta.p99_ns, v));
	json_object_set_new(o, "jitter_max_ns", jns(st->jitter_max_ns, v));
	json_object_set_new(o, "jitter_abs_max_ns", jns(st->jitter_abs_max_ns, v));
	json_object_set_new(o, "jitter_mean_abs_ns", jns(st->jitter_mean_abs_ns, v));
	if (with_hist) {
		json_object_set_new(o, "histogram", al_json_histogram(&st->hist));
		json_object_set_new(o, "jitter_histogram", al_json_histogram(&st->jitter_hist));
		json_object_set_new(o, "histogram_rows", rows_json(&st->delta_lin));
		json_object_set_new(o, "jitter_histogram_rows", rows_json(&st->jitter_lin));
		json_object_set_new(o, "timeline", timeline_json(st));
	}
}

static json_t *
port_json(const struct al_midi_result *r)
{
	const struct al_midi_config *o = &r->cfg;
	json_t *p = json_object();
	bool jack = o->api == AL_MIDI_API_JACK;

	json_object_set_new(p, "api", json_string(al_midi_api_name(o->api)));
	json_object_set_new(p, "in", al_json_text(r->info.in_name[0] ? r->info.in_name : NULL));
	json_object_set_new(p, "out", al_json_text(r->info.out_name[0] ? r->info.out_name : NULL));
	json_object_set_new(p, "timestamp_source", al_json_text(r->info.timestamp_source[0]
								? r->info.timestamp_source : NULL));
	json_object_set_new(p, "timestamp_note", al_json_text(r->info.timestamp_note[0]
							      ? r->info.timestamp_note : NULL));
	if (jack) {
		json_object_set_new(p, "rate", json_integer(r->info.rate_hz));
		json_object_set_new(p, "period_frames", json_integer(r->info.period_frames));
		json_object_set_new(p, "server_realtime", json_boolean(r->info.server_realtime));
		json_object_set_new(p, "jack_clock", json_string(r->info.jack_clock));
		json_object_set_new(p, "clock_monotonic", json_boolean(r->info.clock_monotonic));
		json_object_set_new(p, "clock_offset_ns", json_integer(r->info.clock_offset_ns));
		json_object_set_new(p, "cycles", json_integer((json_int_t)r->cnt.cycles));
		json_object_set_new(p, "irregular_cycles", json_integer((json_int_t)r->cnt.irregular));
		json_object_set_new(p, "replayed_events", json_integer((json_int_t)r->cnt.replayed));
	} else {
		static const char *const jack_only[] = { "rate", "period_frames", "server_realtime",
							 "jack_clock", "clock_monotonic",
							 "clock_offset_ns", "cycles", "irregular_cycles",
							 "replayed_events" };

		for (size_t i = 0; i < sizeof(jack_only) / sizeof(jack_only[0]); i++)
			json_object_set_new(p, jack_only[i], json_null());
	}
	json_object_set_new(p, "xruns", json_integer((json_int_t)r->cnt.xruns));
	json_object_set_new(p, "dropped", json_integer((json_int_t)r->cnt.dropped));
	json_object_set_new(p, "ignored", json_integer((json_int_t)r->cnt.ignored));
	json_object_set_new(p, "callback_wake_ns", r->wake.count ? summary_json(&r->wake) : json_null());
	return p;
}

static json_t *
phases_json(const struct al_midi_result *r, bool loop)
{
	json_t *a = json_array(), *p;
	size_t i;

	for (i = 0; i < r->n_phases; i++) {
		const struct al_midi_phase_result *ph = &r->phases[i];

		p = json_object();
		json_object_set_new(p, "name", al_json_text(ph->name));
		json_object_set_new(p, "load", al_json_text(ph->load));
		json_object_set_new(p, "start_ns", json_integer(ph->start_ns));
		json_object_set_new(p, "end_ns", json_integer(ph->end_ns));
		json_object_set_new(p, "error", al_json_text(ph->error[0] ? ph->error : NULL));
		json_object_set_new(p, "throughput",
				    al_json_throughput(ph->throughput, ph->n_throughput));
		if (loop) {
			json_object_set_new(p, "echoed", json_integer((json_int_t)ph->lat.count));
			json_object_set_new(p, "lost", json_integer((json_int_t)ph->lost));
			json_object_set_new(p, "latency_ns", summary_json(&ph->lat));
		} else if (ph->st) {
			stats_into(p, ph->st, false);
		}
		json_array_append_new(a, p);
	}
	return a;
}

/* "config": what was asked */
static json_t *
config_json(const struct al_midi_config *o)
{
	bool loop = o->kind == AL_MIDI_LOOP, live = o->kind != AL_MIDI_ANALYZE;
	json_t *cfg = json_object();

	json_object_set_new(cfg, "backend", json_string(live ? al_midi_api_name(o->api) : "file"));
	if (loop) {
		json_object_set_new(cfg, "out", al_json_text(o->out));
		json_object_set_new(cfg, "in", al_json_text(o->in));
		json_object_set_new(cfg, "timeout_ns", json_integer(o->timeout_ns ? o->timeout_ns
										 : AL_NS_PER_SEC));
		json_object_set_new(cfg, "gap_ns", json_integer(o->gap_ns));
		json_object_set_new(cfg, "count", o->count ? json_integer(o->count) : json_null());
		json_object_set_new(cfg, "max_latency_ns", jns(o->max_latency_ns, o->max_latency_ns));
	} else {
		json_object_set_new(cfg, live ? "port" : "file", al_json_text(live ? o->port : o->file));
		json_object_set_new(cfg, "events", json_string(al_midi_select_name(o->filter.events)));
		json_object_set_new(cfg, "channel", o->filter.channel ? json_integer(o->filter.channel)
								       : json_null());
		json_object_set_new(cfg, "interval_ns", jns(o->interval_ns, o->interval_ns));
	}
	json_object_set_new(cfg, "max_jitter_ns", jns(o->max_jitter_ns, o->max_jitter_ns));
	if (live) {
		json_object_set_new(cfg, "server", al_json_text(o->server));
		json_object_set_new(cfg, "priority", json_integer(o->prio));
		json_object_set_new(cfg, "duration_ns", jns(o->duration_ns, o->duration_ns));
		json_object_set_new(cfg, "load", al_json_text(o->load_spec));
	}
	return cfg;
}

/* "source" of analyze: the file's header */
static json_t *
file_json(const struct al_midi_result *r)
{
	const struct al_midi_config *o = &r->cfg;
	const struct al_midi_file_info *smf = &r->file;
	json_t *src = json_object();

	json_object_set_new(src, "file", al_json_text(o->file));
	json_object_set_new(src, "bytes", json_integer((json_int_t)smf->bytes));
	json_object_set_new(src, "rmid", json_boolean(smf->rmid));
	json_object_set_new(src, "format", json_integer(smf->format));
	json_object_set_new(src, "tracks", json_integer(smf->n_tracks));
	json_object_set_new(src, "division", json_integer(smf->division));
	if (smf->ppq) {
		json_object_set_new(src, "ticks_per_quarter", json_integer(smf->ppq));
		json_object_set_new(src, "smpte_fps", json_null());
		json_object_set_new(src, "ticks_per_frame", json_null());
	} else {
		json_object_set_new(src, "ticks_per_quarter", json_null());
		json_object_set_new(src, "smpte_fps", json_integer(smf->smpte_fps));
		json_object_set_new(src, "ticks_per_frame", json_integer(smf->ticks_per_frame));
	}
	json_object_set_new(src, "tempo_events", json_integer((json_int_t)smf->n_tempos));
	json_object_set_new(src, "file_events", json_integer((json_int_t)smf->n_events));
	json_object_set_new(src, "file_duration_ns", json_integer(smf->duration_ns));
	json_object_set_new(src, "tick_ns_min", json_integer(smf->tick_ns_min));
	return src;
}

json_t *
al_doc_midi_json(const struct al_midi_result *r)
{
	const struct al_midi_config *o = &r->cfg;
	bool loop = o->kind == AL_MIDI_LOOP, live = o->kind != AL_MIDI_ANALYZE;
	json_t *doc = al_doc_new(loop ? AL_SCHEMA_MIDI_LOOP : AL_SCHEMA_MIDI, kind_name(o->kind));
	json_t *w = json_array(), *src;
	int i;

	if (!doc || !w) {
		json_decref(doc);
		json_decref(w);
		return NULL;
	}
	json_object_set_new(doc, "cmdline", al_json_text(o->cmdline));
	json_object_set_new(doc, "label", al_json_text(o->label));
	json_object_set_new(doc, "started_at", al_doc_time(r->started_at_ns));
	json_object_set_new(doc, "duration_ns", live ? json_integer(r->duration_ns) : json_null());
	json_object_set_new(doc, "interrupted", json_boolean(r->interrupted));

	json_object_set_new(doc, "config", config_json(o));

	if (r->has_file) {
		src = file_json(r);
	} else {
		src = port_json(r);
		if (!loop) {
			json_object_set_new(src, "received", json_integer((json_int_t)r->received));
			json_object_set_new(src, "not_in_file", json_integer((json_int_t)r->not_in_file));
			json_object_set_new(src, "smf_written", al_json_text(r->smf_written));
		}
	}
	json_object_set_new(doc, "source", src);
	json_object_set_new(doc, "system", al_doc_system(&r->sys, NULL, -1));
	if (live) {
		json_object_set_new(doc, "realtime", json_boolean(r->realtime));
		json_object_set_new(doc, "priority", json_integer(r->realtime ? o->prio : 0));
		json_object_set_new(doc, "memory_locked", json_boolean(r->memory_locked));
	}

	if (loop) {
		bool v = r->lat.count > 0, jack = o->api == AL_MIDI_API_JACK;

		json_object_set_new(doc, "sent", json_integer((json_int_t)r->sent));
		json_object_set_new(doc, "echoed", json_integer((json_int_t)r->echoed));
		json_object_set_new(doc, "lost", json_integer((json_int_t)r->lost));
		json_object_set_new(doc, "unexpected", json_integer((json_int_t)r->cnt.unexpected));
		json_object_set_new(doc, "latency_min_ns", jns(r->lat.min_ns, v));
		json_object_set_new(doc, "latency_mean_ns", jns(r->lat.mean_ns, v));
		json_object_set_new(doc, "latency_median_ns", jns(r->lat.median_ns, v));
		json_object_set_new(doc, "latency_p99_ns", jns(r->lat.p99_ns, v));
		json_object_set_new(doc, "latency_max_ns", jns(r->lat.max_ns, v));
		json_object_set_new(doc, "latency_stddev_ns", jns(r->lat.stddev_ns, v));
		json_object_set_new(doc, "jitter_peak_ns", jns(r->lat.max_ns - r->lat.min_ns, v));
		json_object_set_new(doc, "jitter_mean_abs_ns", jns(r->lat.mean_abs_dev_ns, v));
		json_object_set_new(doc, "wall_latency_ns", summary_json(&r->wall));
		json_object_set_new(doc, "latency_frames_min", jns(r->frames_min, v && jack));
		json_object_set_new(doc, "latency_frames_max", jns(r->frames_max, v && jack));
		json_object_set_new(doc, "histogram", r->lat_hist ? al_json_histogram(r->lat_hist) : json_null());
		json_object_set_new(doc, "histogram_rows", rows_json(&r->lat_lin));
	} else {
		stats_into(doc, r->st, true);
		json_object_set_new(doc, "tick_ns", json_integer(r->tick_ns));
		json_object_set_new(doc, "resolution_note",
				    json_string(r->has_file ? "one tick of the file: no timing finer than "
							 "this can show in it"
						       : "times are kept to 1 us, the tick of the "
							 "-o file"));
	}
	if (live)
		json_object_set_new(doc, "phases", phases_json(r, loop));
	for (i = 0; i < r->n_warnings; i++)
		json_array_append_new(w, al_json_text(r->warnings[i]));
	json_object_set_new(doc, "warnings", w);
	json_object_set_new(doc, "uuid", r->uuid[0] ? json_string(r->uuid) : json_null());
	return doc;
}
