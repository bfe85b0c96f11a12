/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi's text (midi.h): what is measured and the live status
 * line, from the result as it runs; the figures and the summary line of
 * analyze, record and loop from their document (audiolat.midi/1,
 * midi-loop/1), as the text and summary reporters print them for `midi`
 * and `show`; send's and thru's lines (they have no document).
 */
#include <inttypes.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "core/text.h"
#include "core/units.h"
#include "doc/doc.h"
#include "midi.h"
#include "report.h"
#include "status.h"

#define HIST_ROWS 24
#define HIST_BAR 40

/* The name a text from a document may be printed under: control characters become '?'. */
static const char *
safe(const char *s, char *buf, size_t size)
{
	al_text_term_safe(s, buf, size, size);
	return buf;
}

static void
describe_filter(const json_t *cfg, char *buf, size_t size)
{
	static const char *const what[] = { "note-on (velocity > 0)",
					     "note-off (or note-on with velocity 0)",
					     "channel message or sysex" };
	char ch[24] = "every channel";
	int events;

	if (al_midi_select_parse(al_doc_str(cfg, "events", ""), &events))
		events = AL_MIDI_SEL_ALL;
	if (al_doc_int(cfg, "channel", 0))
		snprintf(ch, sizeof(ch), "channel %d", (int)al_doc_int(cfg, "channel", 0));
	snprintf(buf, size, "%s, %s", what[events], ch);
}

static const char *
dur(int64_t v_ns, char *buf, size_t size)
{
	al_format_duration(v_ns, buf, size);
	return buf;
}

/* The duration at path in o ("0 ns" when the document has none: nothing measured). */
static const char *
dur_at(const json_t *o, const char *path, char *buf, size_t size)
{
	return dur(al_doc_int(o, path, 0), buf, size);
}

/* A row's count in the document: a non-negative integer, else none. */
static uint64_t
row_count(const json_t *c)
{
	return json_is_integer(c) && json_integer_value(c) > 0 ? (uint64_t)json_integer_value(c) : 0;
}

/* The rows at key of o (the document's histogram_rows: round steps, exact counts), if any. */
static void
print_hist(FILE *f, const json_t *o, const char *key, const char *title)
{
	const json_t *rows = json_object_get(o, key), *counts = json_object_get(rows, "counts"), *c;
	int64_t start_ns = al_doc_int(rows, "start_ns", 0), step_ns = al_doc_int(rows, "step_ns", 0);
	uint64_t max = 0, total = 0;
	size_t i;
	int bar;
	char a[32], b[32];

	if (!json_array_size(counts) || step_ns <= 0)
		return;
	json_array_foreach(counts, i, c) {
		total += row_count(c);
		if (row_count(c) > max)
			max = row_count(c);
	}
	fprintf(f, "\n%s (%llu):\n", title, (unsigned long long)total);
	json_array_foreach(counts, i, c) {
		__int128 lo = (__int128)start_ns + (__int128)i * step_ns, hi = lo + step_ns;

		bar = max ? (int)((row_count(c) * HIST_BAR + max - 1) / max) : 0;
		fprintf(f, "  %11s .. %-11s |%-*.*s %llu\n",
			dur(lo > INT64_MAX ? INT64_MAX : (int64_t)lo, a, sizeof(a)),
			dur(hi > INT64_MAX ? INT64_MAX : (int64_t)hi, b, sizeof(b)), HIST_BAR, bar,
			"########################################", (unsigned long long)row_count(c));
	}
}

/* The delta figures of o (the document, or one of its phases). */
static void
print_delta_stats(FILE *f, const json_t *o, const char *indent)
{
	char a[32], b[32], c[32], d[32], e[32];

	fprintf(f, "%sdeltas: min %s, mean %s, max %s, stddev %s, p99 %s\n", indent,
		dur_at(o, "delta_min_ns", a, sizeof(a)), dur_at(o, "delta_mean_ns", b, sizeof(b)),
		dur_at(o, "delta_max_ns", c, sizeof(c)), dur_at(o, "delta_stddev_ns", d, sizeof(d)),
		dur_at(o, "delta_p99_ns", e, sizeof(e)));
	fprintf(f, "%sjitter: max delta - interval %s; max |delta - interval| %s; "
		   "mean |delta - interval| %s\n", indent, dur_at(o, "jitter_max_ns", a, sizeof(a)),
		dur_at(o, "jitter_abs_max_ns", b, sizeof(b)),
		dur_at(o, "jitter_mean_abs_ns", c, sizeof(c)));
}

/* Analyze's file; record's and loop's port: what came in, the timestamps. */
static void
print_source(FILE *f, const json_t *doc)
{
	const json_t *src = json_object_get(doc, "source");
	char a[32], b[32], name[PATH_MAX];
	int64_t fps = al_doc_int(src, "smpte_fps", 0), n;

	if (!strcmp(al_doc_str(doc, "config.backend", ""), "file")) {
		n = al_doc_int(src, "tracks", 0);
		fprintf(f, "file: %s (%" PRId64 " bytes%s): format %d, %" PRId64 " track%s, ",
			safe(al_doc_str(src, "file", ""), name, sizeof(name)), al_doc_int(src, "bytes", 0),
			al_doc_bool(src, "rmid", false) ? ", RIFF RMID" : "",
			(int)al_doc_int(src, "format", 0), n, n == 1 ? "" : "s");
		if (al_doc_int(src, "ticks_per_quarter", 0))
			fprintf(f, "%d ticks per quarter note\n",
				(int)al_doc_int(src, "ticks_per_quarter", 0));
		else
			fprintf(f, "SMPTE %s fps x %d ticks per frame\n",
				fps == 29 ? "29.97" : fps == 30 ? "30" : fps == 25 ? "25" : "24",
				(int)al_doc_int(src, "ticks_per_frame", 0));
		return;
	}
	if (!strcmp(al_doc_str(doc, "kind", ""), "record")) {
		n = al_doc_int(src, "received", 0);
		fprintf(f, "received %" PRId64 " message%s, %" PRId64 " dropped, %" PRId64 " xrun%s\n",
			n, n == 1 ? "" : "s", al_doc_int(src, "dropped", 0), al_doc_int(src, "xruns", 0),
			al_doc_int(src, "xruns", 0) == 1 ? "" : "s");
	} else {
		n = al_doc_int(src, "dropped", 0);
		fprintf(f, "%" PRId64 " xrun%s, %" PRId64 " message%s dropped\n",
			al_doc_int(src, "xruns", 0), al_doc_int(src, "xruns", 0) == 1 ? "" : "s", n,
			n == 1 ? "" : "s");
	}
	if (!strcmp(al_doc_str(src, "api", ""), "jack"))
		fprintf(f, "timestamps: %s: frames on the server's cycle starts (CLOCK_MONOTONIC; "
			"JACK's clock %s, not used)\n",
			safe(al_doc_str(src, "timestamp_source", ""), name, sizeof(name)),
			safe(al_doc_str(src, "jack_clock", ""), a, sizeof(a)));
	else if (al_doc_str(src, "timestamp_source", NULL))
		fprintf(f, "timestamps: %s\n",
			safe(al_doc_str(src, "timestamp_source", ""), name, sizeof(name)));
	if (al_doc_int(src, "callback_wake_ns.count", 0))
		fprintf(f, "jack: the process callback woke %s after the cycle start on average, "
			   "%s at most (%" PRId64 " cycles)\n",
			dur_at(src, "callback_wake_ns.mean", a, sizeof(a)),
			dur_at(src, "callback_wake_ns.max", b, sizeof(b)),
			al_doc_int(src, "callback_wake_ns.count", 0));
}

/* Load phases: more than one, or one with a load. */
static bool
has_phases(const json_t *doc)
{
	const json_t *ph = json_object_get(doc, "phases");

	return json_array_size(ph) > 1 ||
	       (json_array_size(ph) == 1 &&
		strcmp(al_doc_str(json_array_get(ph, 0), "load", ""), "none"));
}

static void
print_warnings(FILE *f, const json_t *doc)
{
	const json_t *w;
	char buf[AL_WARN_LEN * 4];
	size_t i;

	json_array_foreach(json_object_get(doc, "warnings"), i, w)
		fprintf(f, "warning: %s\n", safe(json_string_value(w), buf, sizeof(buf)));
}

/* analyze, record: the source, the deltas, their histograms, the phases, the warnings. */
static void
stats_text(FILE *f, const json_t *doc, const struct al_report_input *in)
{
	const json_t *ph;
	bool file = !strcmp(al_doc_str(doc, "config.backend", ""), "file");
	bool hist = !in->no_histogram;
	char a[32], b[32], filt[96], name[PATH_MAX];
	const char *from = al_doc_str(doc, "interval_from", "");
	size_t i;

	print_source(f, doc);
	if (al_doc_int(doc, "tick_ns", 0))
		fprintf(f, "resolution: 1 tick = %s: %s\n", dur_at(doc, "tick_ns", a, sizeof(a)),
			file ? "the file cannot show timing finer than that (arecordmidi's default, "
			       "384 ticks at 120 bpm, is 1.302 ms)"
			     : "times are kept to it (as in the -o file)");
	describe_filter(json_object_get(doc, "config"), filt, sizeof(filt));
	fprintf(f, "events: %" PRId64 " %s\n", al_doc_int(doc, "events", 0), filt);
	if (!al_doc_int(doc, "deltas", 0)) {
		fprintf(f, "deltas: none (fewer than two events)\n");
	} else {
		fprintf(f, "interval: %s (%s)\n", dur_at(doc, "interval_ns", a, sizeof(a)),
			!strcmp(from, "given") ? "given"
			: !strcmp(from, "mode") ? "the commonest non-zero delta: the median was 0, "
						  "events came bunched"
						: "the median delta");
		print_delta_stats(f, doc, "");
		if (hist) {
			print_hist(f, doc, "histogram_rows", "histogram of the deltas");
			print_hist(f, doc, "jitter_histogram_rows", "histogram of |delta - interval|");
		}
	}
	if (has_phases(doc)) {
		fprintf(f, "\nphases:\n");
		json_array_foreach(json_object_get(doc, "phases"), i, ph) {
			fprintf(f, "  %s: %.1f .. %.1f s, %" PRId64 " events%s\n",
				safe(al_doc_str(ph, "name", ""), name, sizeof(name)),
				(double)al_doc_int(ph, "start_ns", 0) / 1e9,
				(double)al_doc_int(ph, "end_ns", 0) / 1e9, al_doc_int(ph, "events", 0),
				al_doc_str(ph, "error", NULL) ? " (a load failed)" : "");
			if (al_doc_int(ph, "deltas", 0))
				print_delta_stats(f, ph, "    ");
		}
	}
	if (al_doc_str(doc, "source.smf_written", NULL))
		fprintf(f, "\nwrote %s (1 tick = 1 us): audiolat midi analyze %s%s%s gives these "
			   "figures\n", safe(al_doc_str(doc, "source.smf_written", ""), name, sizeof(name)),
			name, al_doc_int(doc, "config.interval_ns", 0) ? " --interval " : "",
			al_doc_int(doc, "config.interval_ns", 0) ? dur_at(doc, "config.interval_ns", b,
									  sizeof(b)) : "");
	print_warnings(f, doc);
}

/* loop: the probes, the latencies, their histogram, the phases, the warnings. */
static void
loop_text(FILE *f, const json_t *doc, const struct al_report_input *in)
{
	const json_t *ph;
	char a[32], b[32], c[32], d[32], e[32], name[AL_NAME_MAX * 4];
	size_t i;

	print_source(f, doc);
	fprintf(f, "probes: %" PRId64 " sent, %" PRId64 " echoed, %" PRId64 " lost, %" PRId64
		   " unexpected messages\n", al_doc_int(doc, "sent", 0), al_doc_int(doc, "echoed", 0),
		al_doc_int(doc, "lost", 0), al_doc_int(doc, "unexpected", 0));
	if (!json_is_integer(json_object_get(doc, "latency_min_ns"))) {
		fprintf(f, "latency: none measured\n");
	} else {
		fprintf(f, "latency: min %s, mean %s, p99 %s, max %s\n",
			dur_at(doc, "latency_min_ns", a, sizeof(a)),
			dur_at(doc, "latency_mean_ns", b, sizeof(b)),
			dur_at(doc, "latency_p99_ns", c, sizeof(c)),
			dur_at(doc, "latency_max_ns", d, sizeof(d)));
		fprintf(f, "jitter: peak-to-peak %s, mean absolute %s, stddev %s\n",
			dur_at(doc, "jitter_peak_ns", a, sizeof(a)),
			dur_at(doc, "jitter_mean_abs_ns", b, sizeof(b)),
			dur_at(doc, "latency_stddev_ns", c, sizeof(c)));
		if (!strcmp(al_doc_str(doc, "source.api", ""), "jack")) {
			fprintf(f, "frames: %d .. %d (%u frames a period)\n",
				(int)al_doc_int(doc, "latency_frames_min", 0),
				(int)al_doc_int(doc, "latency_frames_max", 0),
				(unsigned)al_doc_int(doc, "source.period_frames", 0));
			fprintf(f, "wall clock (callback to callback): min %s, mean %s, p99 %s, max %s; "
				   "peak-to-peak %s\n", dur_at(doc, "wall_latency_ns.min", a, sizeof(a)),
				dur_at(doc, "wall_latency_ns.mean", b, sizeof(b)),
				dur_at(doc, "wall_latency_ns.p99", c, sizeof(c)),
				dur_at(doc, "wall_latency_ns.max", d, sizeof(d)),
				dur(al_doc_int(doc, "wall_latency_ns.max", 0) -
				    al_doc_int(doc, "wall_latency_ns.min", 0), e, sizeof(e)));
		}
		if (!in->no_histogram)
			print_hist(f, doc, "histogram_rows", "histogram of the latencies");
	}
	if (has_phases(doc)) {
		fprintf(f, "\nphases:\n");
		json_array_foreach(json_object_get(doc, "phases"), i, ph)
			fprintf(f, "  %s: %" PRId64 " echoed, %" PRId64 " lost, latency min %s mean %s "
				   "max %s\n", safe(al_doc_str(ph, "name", ""), name, sizeof(name)),
				al_doc_int(ph, "echoed", 0), al_doc_int(ph, "lost", 0),
				dur_at(ph, "latency_ns.min", a, sizeof(a)),
				dur_at(ph, "latency_ns.mean", b, sizeof(b)),
				dur_at(ph, "latency_ns.max", c, sizeof(c)));
	}
	print_warnings(f, doc);
}

bool
al__midi_doc(const json_t *doc)
{
	const char *schema = al_doc_str(doc, "schema", "");

	return !strcmp(schema, AL_SCHEMA_MIDI) || !strcmp(schema, AL_SCHEMA_MIDI_LOOP);
}

void
al__midi_text(FILE *f, const json_t *doc, const struct al_report_input *in)
{
	if (!strcmp(al_doc_str(doc, "schema", ""), AL_SCHEMA_MIDI_LOOP))
		loop_text(f, doc, in);
	else
		stats_text(f, doc, in);
}

/* " key=N" for each of keys[0..n), the integers of doc under those names */
static void
kv(FILE *f, const json_t *doc, const char *const *keys, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		fprintf(f, " %s=%" PRId64, keys[i], al_doc_int(doc, keys[i], 0));
}

#define KV(f, doc, keys) kv((f), (doc), (keys), sizeof(keys) / sizeof((keys)[0]))

void
al__midi_summary(FILE *f, const json_t *doc, const char *verdict)
{
	static const char *const probes[] = { "sent", "echoed", "lost" };
	static const char *const latency[] = { "latency_min_ns", "latency_mean_ns",
					       "latency_p99_ns", "latency_max_ns",
					       "jitter_peak_ns", "jitter_mean_abs_ns" };
	static const char *const deltas[] = { "interval_ns", "delta_min_ns", "delta_mean_ns",
					      "delta_max_ns", "jitter_max_ns", "jitter_abs_max_ns" };
	static const char *const events[] = { "events" }, *const tick[] = { "tick_ns" };
	char api[32];

	safe(al_doc_str(doc, "config.backend", "?"), api, sizeof(api));
	if (!strcmp(al_doc_str(doc, "schema", ""), AL_SCHEMA_MIDI_LOOP)) {
		fprintf(f, "summary: api=%s", api);
		KV(f, doc, probes);
		if (json_is_integer(json_object_get(doc, "latency_min_ns")))
			KV(f, doc, latency);
	} else {
		fprintf(f, "summary: source=%s", api);
		KV(f, doc, events);
		if (al_doc_int(doc, "deltas", 0))
			KV(f, doc, deltas);
		KV(f, doc, tick);
	}
	fprintf(f, " result=%s\n", verdict);
}

void
al_midi_text_send_thru(FILE *f, const struct al_midi_result *r, bool verbose)
{
	const struct al_midi_config *o = &r->cfg;
	const struct al_midi_sender_stats *st = &r->sender;
	char late[32];

	if (o->kind == AL_MIDI_SEND) {
		if (verbose)
			fprintf(f, "sent %llu messages; the sending thread woke at most %s late%s\n",
			       (unsigned long long)st->sent, dur(st->late_max_ns, late, sizeof(late)),
			       o->prio && !st->realtime ? " (no SCHED_FIFO: not permitted)" : "");
		fprintf(f, "summary: api=%s rate_hz=%g sent=%llu errors=%llu late=%llu dropped=%llu "
			   "wake_late_max_ns=%lld interrupted=%s result=%s\n",
			al_midi_api_name(o->api), o->rate_hz, (unsigned long long)st->sent,
			(unsigned long long)st->errors, (unsigned long long)r->cnt.late,
			(unsigned long long)r->cnt.dropped, (long long)st->late_max_ns,
			r->interrupted ? "yes" : "no", r->failed ? "error" : "ok");
	} else {
		fprintf(f, "summary: passed=%llu dropped=%llu xruns=%llu result=%s\n",
			(unsigned long long)r->cnt.sent, (unsigned long long)r->cnt.dropped,
			(unsigned long long)r->cnt.xruns, r->failed ? "error" : "ok");
	}
}

void
al_midi_text_header(FILE *f, const struct al_midi_result *r)
{
	const struct al_midi_config *o = &r->cfg;
	const char *api = al_midi_api_name(o->api);

	switch (o->kind) {
	case AL_MIDI_SEND:
		fprintf(f, "sending note-on/note-off pairs at %g Hz on channel %d to %s (%s%s%s)\n",
			o->rate_hz, o->send_channel, o->port ? o->port : r->info.out_name, api,
			r->info.out_name[0] && o->port ? ", from " : "", o->port ? r->info.out_name : "");
		return;
	case AL_MIDI_THRU:
		fprintf(f, "thru: %s -> %s\n", r->info.in_name, r->info.out_name);
		return;
	case AL_MIDI_RECORD:
		if (o->port)
			fprintf(f, "recording from %s into %s (%s", o->port, r->info.in_name, api);
		else
			fprintf(f, "recording into %s (%s", r->info.in_name, api);
		break;
	default:
		fprintf(f, "loop: %s -> %s ... %s -> %s (%s", r->info.out_name,
			o->out ? o->out : "(connect it)", o->in ? o->in : "(connect it)",
			r->info.in_name, api);
		break;
	}
	if (o->api == AL_MIDI_API_JACK)
		fprintf(f, ", %u Hz, %u frames a period", r->info.rate_hz, r->info.period_frames);
	if (o->kind == AL_MIDI_LOOP) {
		fprintf(f, ")\n");
		return;
	}
	fprintf(f, ")%s\n", o->port ? "" : "; connect a MIDI source to it");
	if (r->planned_ns)
		fprintf(f, "duration: %.3f s\n", (double)r->planned_ns / AL_NS_PER_SEC);
	else
		fprintf(f, "duration: until interrupted (Ctrl-C)\n");
}

bool
al_midi_text_threshold(const struct al_midi_result *r, char *buf, size_t size)
{
	const struct al_midi_config *o = &r->cfg;
	char a[32], b[32];

	switch (r->threshold) {
	case AL_MIDI_THRESH_JITTER_ABS:
		snprintf(buf, size, "max |delta - interval| %s exceeds --max-jitter %s",
			 dur(r->st->jitter_abs_max_ns, a, sizeof(a)), dur(o->max_jitter_ns, b, sizeof(b)));
		return true;
	case AL_MIDI_THRESH_LATENCY:
		snprintf(buf, size, "max latency %s exceeds --max-latency %s",
			 dur(r->lat.max_ns, a, sizeof(a)), dur(o->max_latency_ns, b, sizeof(b)));
		return true;
	case AL_MIDI_THRESH_JITTER_PEAK:
		snprintf(buf, size, "peak-to-peak jitter %s exceeds --max-jitter %s",
			 dur(r->lat.max_ns - r->lat.min_ns, a, sizeof(a)), dur(o->max_jitter_ns, b, sizeof(b)));
		return true;
	default:
		return false;
	}
}

void
al_midi_text_status(FILE *f, const struct al_midi_live *v, bool interval_given)
{
	double t = (double)v->elapsed_ns / AL_NS_PER_SEC;
	char m[32], total[32] = "";

	dur(v->max_ns, m, sizeof(m));
	if (v->planned_ns)
		snprintf(total, sizeof(total), "/%.1f", (double)v->planned_ns / AL_NS_PER_SEC);
	if (v->kind == AL_MIDI_SEND)
		fprintf(f, AL_STATUS_CLEAR "[%6.1f s] sent=%llu", t, (unsigned long long)v->selected);
	else if (v->kind == AL_MIDI_LOOP)
		fprintf(f, AL_STATUS_CLEAR "[%6.1f%s s] probes=%llu lost=%llu max latency=%s", t, total,
			(unsigned long long)v->selected, (unsigned long long)v->lost, m);
	else
		fprintf(f, AL_STATUS_CLEAR "[%6.1f%s s] events=%llu %s=%s", t, total,
			(unsigned long long)v->selected,
			interval_given ? "max |delta-interval|" : "max delta", m);
	fflush(f);
}
