/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat midi: the text report, the summary line and the JSON documents. */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/units.h"
#include "report/report.h"
#include "cli.h"
#include "cli-store.h"
#include "midi-out.h"

#define HIST_ROWS 24
#define HIST_BAR 40

void
midi_report_warn(struct midi_report *r, const char *fmt, ...)
{
	va_list ap;

	if (r->n_warnings >= AL_WARN_MAX)
		return;
	va_start(ap, fmt);
	vsnprintf(r->warnings[r->n_warnings++], AL_WARN_LEN, fmt, ap);
	va_end(ap);
}

void
midi_describe_filter(const struct al_midi_filter *f, char *buf, size_t size)
{
	static const char *const what[] = { "note-on (velocity > 0)",
					     "note-off (or note-on with velocity 0)",
					     "channel message or sysex" };
	char ch[24] = "every channel";

	if (f->channel)
		snprintf(ch, sizeof(ch), "channel %d", f->channel);
	snprintf(buf, size, "%s, %s", what[f->events >= 0 && f->events <= 2 ? f->events : 2], ch);
}

static const char *
dur(int64_t v_ns, char *buf, size_t size)
{
	al_format_duration(v_ns, buf, size);
	return buf;
}

void
midi_print_hist(FILE *f, const struct al_midi_linhist *lh, const char *title)
{
	uint64_t max = 0, total = 0;
	int i, bar;
	char a[32], b[32];

	if (!lh->rows)
		return;
	for (i = 0; i < lh->rows; i++) {
		total += lh->count[i];
		if (lh->count[i] > max)
			max = lh->count[i];
	}
	fprintf(f, "\n%s (%llu):\n", title, (unsigned long long)total);
	for (i = 0; i < lh->rows; i++) {
		__int128 lo = (__int128)lh->start_ns + (__int128)i * lh->step_ns, hi = lo + lh->step_ns;

		bar = (int)((lh->count[i] * HIST_BAR + max - 1) / max);
		fprintf(f, "  %11s .. %-11s |%-*.*s %llu\n",
			dur(lo > INT64_MAX ? INT64_MAX : (int64_t)lo, a, sizeof(a)),
			dur(hi > INT64_MAX ? INT64_MAX : (int64_t)hi, b, sizeof(b)), HIST_BAR, bar,
			"########################################", (unsigned long long)lh->count[i]);
	}
}

static void
print_delta_stats(FILE *f, const struct al_midi_stats *st, const char *indent)
{
	char a[32], b[32], c[32], d[32], e[32];

	fprintf(f, "%sdeltas: min %s, mean %s, max %s, stddev %s, p99 %s\n", indent,
		dur(st->delta.min_ns, a, sizeof(a)), dur(st->delta.mean_ns, b, sizeof(b)),
		dur(st->delta.max_ns, c, sizeof(c)), dur(st->delta.stddev_ns, d, sizeof(d)),
		dur(st->delta.p99_ns, e, sizeof(e)));
	fprintf(f, "%sjitter: max delta - interval %s; max |delta - interval| %s; "
		   "mean |delta - interval| %s\n", indent, dur(st->jitter_max_ns, a, sizeof(a)),
		dur(st->jitter_abs_max_ns, b, sizeof(b)), dur(st->jitter_mean_abs_ns, c, sizeof(c)));
}

static void
print_source(FILE *f, const struct midi_report *r)
{
	const struct al_smf *smf = r->smf;
	char a[32], b[32];

	if (smf) {
		fprintf(f, "file: %s (%zu bytes%s): format %d, %d track%s, ", r->o->file, r->file_bytes,
			smf->rmid ? ", RIFF RMID" : "", smf->format, smf->n_tracks,
			smf->n_tracks == 1 ? "" : "s");
		if (smf->ppq)
			fprintf(f, "%d ticks per quarter note\n", smf->ppq);
		else
			fprintf(f, "SMPTE %s fps x %d ticks per frame\n",
				smf->smpte_fps == 29 ? "29.97" : smf->smpte_fps == 30 ? "30" :
				smf->smpte_fps == 25 ? "25" : "24", smf->ticks_per_frame);
		return;
	}
	if (!strcmp(r->kind, "record"))
		fprintf(f, "received %llu message%s, %llu dropped, %llu xrun%s\n",
			(unsigned long long)r->received, r->received == 1 ? "" : "s",
			(unsigned long long)r->cnt.dropped, (unsigned long long)r->cnt.xruns,
			r->cnt.xruns == 1 ? "" : "s");
	else
		fprintf(f, "%llu xrun%s, %llu message%s dropped\n", (unsigned long long)r->cnt.xruns,
			r->cnt.xruns == 1 ? "" : "s", (unsigned long long)r->cnt.dropped,
			r->cnt.dropped == 1 ? "" : "s");
	if (r->o->api == AL_MIDI_API_JACK)
		fprintf(f, "timestamps: %s: frames on the server's cycle starts (CLOCK_MONOTONIC; "
			"JACK's clock %s, not used)\n",
			r->info.timestamp_source, r->info.jack_clock);
	else if (r->info.timestamp_source[0])
		fprintf(f, "timestamps: %s\n", r->info.timestamp_source);
	if (r->wake.count)
		fprintf(f, "jack: the process callback woke %s after the cycle start on average, "
			   "%s at most (%llu cycles)\n", dur(r->wake.mean_ns, a, sizeof(a)),
			dur(r->wake.max_ns, b, sizeof(b)), (unsigned long long)r->wake.count);
}

void
midi_print_stats(FILE *f, const struct midi_report *r)
{
	const struct al_midi_stats *st = r->st;
	char a[32], filt[96];
	size_t i;

	print_source(f, r);
	if (r->tick_ns)
		fprintf(f, "resolution: 1 tick = %s: %s\n", dur(r->tick_ns, a, sizeof(a)),
			r->smf ? "the file cannot show timing finer than that (arecordmidi's default, "
				 "384 ticks at 120 bpm, is 1.302 ms)"
			       : "times are kept to it (as in the -o file)");
	midi_describe_filter(&r->o->filter, filt, sizeof(filt));
	fprintf(f, "events: %llu %s\n", (unsigned long long)st->events, filt);
	if (!st->deltas) {
		fprintf(f, "deltas: none (fewer than two events)\n");
	} else {
		fprintf(f, "interval: %s (%s)\n", dur(st->interval_ns, a, sizeof(a)),
			!st->interval_auto ? "given"
			: st->interval_mode ? "the commonest non-zero delta: the median was 0, "
					      "events came bunched"
					    : "the median delta");
		print_delta_stats(f, st, "");
		if (!r->o->no_histogram) {
			midi_print_hist(f, &st->delta_lin, "histogram of the deltas");
			midi_print_hist(f, &st->jitter_lin, "histogram of |delta - interval|");
		}
	}
	if (r->n_phases > 1 || (r->n_phases == 1 && strcmp(r->phases[0].load, "none"))) {
		fprintf(f, "\nphases:\n");
		for (i = 0; i < r->n_phases; i++) {
			const struct midi_phase *ph = &r->phases[i];

			fprintf(f, "  %s: %.1f .. %.1f s, %llu events%s\n", ph->name,
				(double)ph->start_ns / 1e9, (double)ph->end_ns / 1e9,
				ph->st ? (unsigned long long)ph->st->events : 0ULL,
				ph->error[0] ? " (a load failed)" : "");
			if (ph->st && ph->st->deltas)
				print_delta_stats(f, ph->st, "    ");
		}
	}
	if (r->smf_written)
		fprintf(f, "\nwrote %s (1 tick = 1 us): audiolat midi analyze %s%s%s gives these "
			   "figures\n", r->smf_written, r->smf_written,
			r->o->interval_ns ? " --interval " : "",
			r->o->interval_ns ? dur(r->o->interval_ns, a, sizeof(a)) : "");
	for (i = 0; i < (size_t)r->n_warnings; i++)
		fprintf(f, "warning: %s\n", r->warnings[i]);
}

void
midi_print_loop(FILE *f, const struct midi_report *r)
{
	char a[32], b[32], c[32], d[32], e[32];
	size_t i;

	print_source(f, r);
	fprintf(f, "probes: %llu sent, %llu echoed, %llu lost, %llu unexpected messages\n",
		(unsigned long long)r->sent, (unsigned long long)r->echoed,
		(unsigned long long)r->lost, (unsigned long long)r->cnt.unexpected);
	if (!r->lat.count) {
		fprintf(f, "latency: none measured\n");
	} else {
		fprintf(f, "latency: min %s, mean %s, p99 %s, max %s\n",
			dur(r->lat.min_ns, a, sizeof(a)), dur(r->lat.mean_ns, b, sizeof(b)),
			dur(r->lat.p99_ns, c, sizeof(c)), dur(r->lat.max_ns, d, sizeof(d)));
		fprintf(f, "jitter: peak-to-peak %s, mean absolute %s, stddev %s\n",
			dur(r->lat.max_ns - r->lat.min_ns, a, sizeof(a)),
			dur(r->lat.mean_abs_dev_ns, b, sizeof(b)), dur(r->lat.stddev_ns, c, sizeof(c)));
		if (r->o->api == AL_MIDI_API_JACK) {
			fprintf(f, "frames: %d .. %d (%u frames a period)\n", r->frames_min,
				r->frames_max, r->info.period_frames);
			fprintf(f, "wall clock (callback to callback): min %s, mean %s, p99 %s, max %s; "
				   "peak-to-peak %s\n", dur(r->wall.min_ns, a, sizeof(a)),
				dur(r->wall.mean_ns, b, sizeof(b)), dur(r->wall.p99_ns, c, sizeof(c)),
				dur(r->wall.max_ns, d, sizeof(d)),
				dur(r->wall.max_ns - r->wall.min_ns, e, sizeof(e)));
		}
		if (!r->o->no_histogram)
			midi_print_hist(f, &r->lat_lin, "histogram of the latencies");
	}
	if (r->n_phases > 1 || (r->n_phases == 1 && strcmp(r->phases[0].load, "none"))) {
		fprintf(f, "\nphases:\n");
		for (i = 0; i < r->n_phases; i++) {
			const struct midi_phase *ph = &r->phases[i];

			fprintf(f, "  %s: %llu echoed, %llu lost, latency min %s mean %s max %s\n",
				ph->name, (unsigned long long)ph->lat.count,
				(unsigned long long)ph->lost, dur(ph->lat.min_ns, a, sizeof(a)),
				dur(ph->lat.mean_ns, b, sizeof(b)), dur(ph->lat.max_ns, c, sizeof(c)));
		}
	}
	for (i = 0; i < (size_t)r->n_warnings; i++)
		fprintf(f, "warning: %s\n", r->warnings[i]);
}

void
midi_summary_line(FILE *f, const struct midi_report *r, const char *verdict)
{
	const struct al_midi_stats *st = r->st;

	if (!strcmp(r->kind, "loop")) {
		fprintf(f, "summary: api=%s sent=%llu echoed=%llu lost=%llu", al_midi_api_name(r->o->api),
			(unsigned long long)r->sent, (unsigned long long)r->echoed,
			(unsigned long long)r->lost);
		if (r->lat.count)
			fprintf(f, " latency_min_ns=%lld latency_mean_ns=%lld latency_p99_ns=%lld "
				   "latency_max_ns=%lld jitter_peak_ns=%lld jitter_mean_abs_ns=%lld",
				(long long)r->lat.min_ns, (long long)r->lat.mean_ns,
				(long long)r->lat.p99_ns, (long long)r->lat.max_ns,
				(long long)(r->lat.max_ns - r->lat.min_ns),
				(long long)r->lat.mean_abs_dev_ns);
		fprintf(f, " result=%s\n", verdict);
		return;
	}
	fprintf(f, "summary: source=%s events=%llu", r->smf ? "file" : al_midi_api_name(r->o->api),
		(unsigned long long)st->events);
	if (st->deltas)
		fprintf(f, " interval_ns=%lld delta_min_ns=%lld delta_mean_ns=%lld delta_max_ns=%lld "
			   "jitter_max_ns=%lld jitter_abs_max_ns=%lld",
			(long long)st->interval_ns, (long long)st->delta.min_ns,
			(long long)st->delta.mean_ns, (long long)st->delta.max_ns,
			(long long)st->jitter_max_ns, (long long)st->jitter_abs_max_ns);
	fprintf(f, " tick_ns=%lld result=%s\n", (long long)r->tick_ns, verdict);
}

/* ---- JSON ---- */

static json_t *
jstr(const char *s)
{
	return s ? json_string(s) : json_null();
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
		json_object_set_new(o, "timeline", timeline_json(st));
	}
}

static json_t *
port_json(const struct midi_report *r)
{
	const struct midi_opts *o = r->o;
	json_t *p = json_object();
	bool jack = o->api == AL_MIDI_API_JACK;

	json_object_set_new(p, "api", json_string(al_midi_api_name(o->api)));
	json_object_set_new(p, "in", r->info.in_name[0] ? json_string(r->info.in_name) : json_null());
	json_object_set_new(p, "out", r->info.out_name[0] ? json_string(r->info.out_name) : json_null());
	json_object_set_new(p, "timestamp_source", jstr(r->info.timestamp_source[0]
								? r->info.timestamp_source : NULL));
	json_object_set_new(p, "timestamp_note", jstr(r->info.timestamp_note[0]
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
	} else {
		static const char *const jack_only[] = { "rate", "period_frames", "server_realtime",
							 "jack_clock", "clock_monotonic",
							 "clock_offset_ns", "cycles", "irregular_cycles" };

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
phases_json(const struct midi_report *r, bool loop)
{
	json_t *a = json_array(), *p, *tp;
	size_t i;
	int k;

	for (i = 0; i < r->n_phases; i++) {
		const struct midi_phase *ph = &r->phases[i];

		p = json_object();
		tp = json_object();
		json_object_set_new(p, "name", json_string(ph->name));
		json_object_set_new(p, "load", json_string(ph->load));
		json_object_set_new(p, "start_ns", json_integer(ph->start_ns));
		json_object_set_new(p, "end_ns", json_integer(ph->end_ns));
		json_object_set_new(p, "error", ph->error[0] ? json_string(ph->error) : json_null());
		for (k = 0; k < ph->n_throughput; k++)
			json_object_set_new(tp, ph->throughput[k].name,
					    json_pack("{s:f, s:s}", "value", ph->throughput[k].value,
						      "unit", ph->throughput[k].unit));
		json_object_set_new(p, "throughput", tp);
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

json_t *
midi_report_json(const struct midi_report *r)
{
	const struct midi_opts *o = r->o;
	bool loop = !strcmp(r->kind, "loop"), live = strcmp(r->kind, "analyze") != 0;
	json_t *doc = al_doc_new(loop ? AL_SCHEMA_MIDI_LOOP : AL_SCHEMA_MIDI, r->kind);
	json_t *cfg = json_object(), *w = json_array(), *src;
	int i;

	if (!doc || !cfg || !w)
		return NULL;
	json_object_set_new(doc, "cmdline", al_json_text(o->cmdline));
	json_object_set_new(doc, "label", al_json_text(o->label));
	json_object_set_new(doc, "started_at", al_doc_time(r->started_at_ns));
	json_object_set_new(doc, "duration_ns", live ? json_integer(r->duration_ns) : json_null());
	json_object_set_new(doc, "interrupted", json_boolean(r->interrupted));

	json_object_set_new(cfg, "backend", json_string(live ? al_midi_api_name(o->api) : "file"));
	if (loop) {
		json_object_set_new(cfg, "out", jstr(o->out));
		json_object_set_new(cfg, "in", jstr(o->in));
		json_object_set_new(cfg, "timeout_ns", json_integer(o->timeout_ns ? o->timeout_ns
										 : AL_NS_PER_SEC));
		json_object_set_new(cfg, "gap_ns", json_integer(o->gap_ns));
		json_object_set_new(cfg, "count", o->count ? json_integer(o->count) : json_null());
		json_object_set_new(cfg, "max_latency_ns", jns(o->max_latency_ns, o->max_latency_ns));
	} else {
		json_object_set_new(cfg, live ? "port" : "file", jstr(live ? o->port : o->file));
		json_object_set_new(cfg, "events", json_string(al_midi_select_name(o->filter.events)));
		json_object_set_new(cfg, "channel", o->filter.channel ? json_integer(o->filter.channel)
								       : json_null());
		json_object_set_new(cfg, "interval_ns", jns(o->interval_ns, o->interval_ns));
	}
	json_object_set_new(cfg, "max_jitter_ns", jns(o->max_jitter_ns, o->max_jitter_ns));
	if (live) {
		json_object_set_new(cfg, "server", jstr(o->server));
		json_object_set_new(cfg, "priority", json_integer(o->prio));
		json_object_set_new(cfg, "duration_ns", jns(o->duration_ns, o->duration_ns));
		json_object_set_new(cfg, "load", jstr(o->load_spec));
	}
	json_object_set_new(doc, "config", cfg);

	if (r->smf) {
		const struct al_smf *smf = r->smf;

		src = json_object();
		json_object_set_new(src, "file", json_string(o->file));
		json_object_set_new(src, "bytes", json_integer((json_int_t)r->file_bytes));
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
	} else {
		src = port_json(r);
		if (!loop) {
			json_object_set_new(src, "received", json_integer((json_int_t)r->received));
			json_object_set_new(src, "not_in_file", json_integer((json_int_t)r->not_in_file));
			json_object_set_new(src, "smf_written", jstr(r->smf_written));
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
	} else {
		stats_into(doc, r->st, true);
		json_object_set_new(doc, "tick_ns", json_integer(r->tick_ns));
		json_object_set_new(doc, "resolution_note",
				    json_string(r->smf ? "one tick of the file: no timing finer than "
							 "this can show in it"
						       : "times are kept to 1 us, the tick of the "
							 "-o file"));
	}
	if (live)
		json_object_set_new(doc, "phases", phases_json(r, loop));
	for (i = 0; i < r->n_warnings; i++)
		json_array_append_new(w, json_string(r->warnings[i]));
	json_object_set_new(doc, "warnings", w);
	return doc;
}

int
midi_report_emit(const struct midi_report *r, bool save)
{
	const struct midi_opts *o = r->o;
	char *text = NULL;
	json_t *doc;
	int rc, exit_code = AL_EXIT_OK;

	save = save && !o->no_db;
	if (!o->json_path && !save)
		return AL_EXIT_OK;
	doc = midi_report_json(r);
	if (doc)
		text = al_doc_text(doc, JSON_PRESERVE_ORDER);
	json_decref(doc);
	if (!text)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: out of memory for the JSON", o->sub);
	if (o->json_path) {
		rc = al_doc_write_text(o->json_path, text);
		if (rc)
			exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: --json %s: %s", o->sub,
						  o->json_path, strerror(-rc));
	}
	/* the database gets the very bytes --json wrote */
	if (save && cli_store_save_result(o->db_path, text, o->quiet))
		exit_code = AL_EXIT_RUNTIME;
	free(text);
	return exit_code;
}
