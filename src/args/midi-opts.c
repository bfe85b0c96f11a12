/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat midi's options (midi-opts.h): each subcommand's table, its whole --help. */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "core/clock.h"
#include "common-opts.h"
#include "midi-opts.h"

/* the options the setter sees (the others are stored by the table) */
enum {
	OPT_API = 256,
	OPT_RATE,
	OPT_CHANNEL,
	OPT_EVENTS,
	OPT_INTERVAL,
	OPT_LOAD_OPT, /* one of al_load_optdefs, by its long name */
};

/* Each option once (its name, type, unit, where it goes); the subcommands word its help. */
#define TO(f_) AL_OPT_TO(struct al_midi_cli, f_)
#define O_API(h) { .id = OPT_API, .name = "api", .type = AL_OPT_SPEC, .arg = "API", .help = (h) }
#define O_PORT(h) { .name = "port", .type = AL_OPT_SPEC, .arg = "P", .help = (h), TO(cfg.port) }
#define O_OUT(h) { .name = "out", .type = AL_OPT_SPEC, .arg = "P", .help = (h), TO(cfg.out) }
#define O_IN(h) { .name = "in", .type = AL_OPT_SPEC, .arg = "Q", .help = (h), TO(cfg.in) }
#define O_SERVER { .name = "server", .type = AL_OPT_SPEC, .arg = "NAME", TO(cfg.server), \
		   .help = "the JACK server (default $JACK_DEFAULT_SERVER)" }
#define O_CHANNEL(h) { .id = OPT_CHANNEL, .name = "channel", .type = AL_OPT_INT, .arg = "N", \
		       .min = 1, .max = 16, .help = (h) }
#define O_EVENTS(h) { .id = OPT_EVENTS, .name = "events", .type = AL_OPT_SPEC, .arg = "SEL", \
		      .help = (h) }
#define O_INTERVAL(h) { .id = OPT_INTERVAL, .name = "interval", .type = AL_OPT_SPEC, \
			.arg = "TIME|auto", .help = (h) }
#define O_MS(name_, f_, h) { .name = (name_), .type = AL_OPT_TIME, .arg = "TIME", \
			     .unit_ns = AL_NS_PER_MS, .help = (h), TO(f_) }
#define O_NO_HIST(h) { .name = "no-histogram", .type = AL_OPT_FLAG, .help = (h), TO(no_histogram) }
#define H_API "jack (default), rawmidi (hw:C,D), seq (client:port)"
#define H_JITTER "exit 3 when max |delta - interval| exceeds TIME"

static const struct al_optdef analyze_opts[] = {
	AL_OPT_TEXT("usage: audiolat midi analyze FILE.mid [options]\n"
		    "\n"
		    "Read a Standard MIDI File (format 0, 1 or 2, plain or RIFF RMID) and report the\n"
		    "delta times between its events: count, interval, min/mean/max/stddev/p99, the\n"
		    "largest delta minus the interval (the jitter figure of the rawmidi framing\n"
		    "patch), the largest |delta - interval|, a histogram, and the file's tick: no\n"
		    "recording shows timing finer than one tick.\n"
		    "\n"),
	AL_OPT_TEXT("options:\n"),
	O_INTERVAL("the expected interval (100ms; bare = ms); auto\n"
		   "(default) takes the median delta"),
	O_EVENTS("note-on (default: note-on with velocity > 0),\n"
		 "note-off (or note-on with velocity 0), all\n"
		 "(every channel message and sysex)"),
	O_CHANNEL("only MIDI channel N (1..16)"),
	O_MS("max-jitter", cfg.max_jitter_ns, H_JITTER),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.midi/1 JSON document (- = stdout)", TO(json_path)),
	O_NO_HIST("leave out the histogram"),
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "only the summary line", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 the file cannot be read or is not a valid MIDI file\n"
		    "(one line with the byte offset), 2 usage error, 3 --max-jitter exceeded\n"),
	AL_OPT_END,
};

static const struct al_optdef send_opts[] = {
	AL_OPT_TEXT("usage: audiolat midi send [--api jack|rawmidi|seq] --port P [options]\n"
		    "\n"
		    "Send note-on / note-off pairs (note 60) at exact absolute times: note-on at\n"
		    "start + k / RATE, note-off half an interval later, from a thread sleeping with\n"
		    "clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC. JACK: the messages keep\n"
		    "their times to a frame, one period later.\n"
		    "\n"),
	AL_OPT_TEXT("options:\n"),
	O_API(H_API),
	O_PORT("where to send (jack: an input port such as\n"
	       "audiolat-midi:in; omitted: connect audiolat-send:out\n"
	       "yourself)"),
	O_SERVER,
	{ .id = OPT_RATE, .name = "rate", .type = AL_OPT_SPEC, .arg = "HZ",
	  .help = "note-ons per second (default 10)" },
	O_CHANNEL("MIDI channel 1..16 (default 1)"),
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL, "how long (bare = s; default until interrupted)", TO(cfg.duration_ns)),
	CLI_SHARED_AS(CLI_OPT_PRIORITY, NULL, "SCHED_FIFO priority of the sending thread (default 0:\n"
					      "SCHED_OTHER)", TO(cfg.prio)),
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "only the summary line", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 4 API, server or device\n"
		    "unavailable\n"),
	AL_OPT_END,
};

#define LOAD_TEXT "load (docs/loads.md):\n"

static const struct al_optdef record_opts[] = {
	AL_OPT_TEXT("usage: audiolat midi record [--api jack|rawmidi|seq] --port P [options]\n"
		    "\n"
		    "Receive MIDI, timestamp every message, and report the delta times as analyze\n"
		    "does, live on a terminal. Timestamps: jack, the event's frame on the server's\n"
		    "frame counter fitted to its cycle starts on CLOCK_MONOTONIC (no JACK clock\n"
		    "mapped); rawmidi, the kernel's framing stamps (Linux 5.14,\n"
		    "alsa-lib 1.2.7.2) or else the read time; seq, a real-time queue. Times are\n"
		    "kept to 1 us, the tick of the -o file: analyze reads it back to the same\n"
		    "figures.\n"
		    "\n"),
	AL_OPT_TEXT("options:\n"),
	O_API(H_API),
	O_PORT("where to receive from (jack: an output port; omitted:\n"
	       "connect to audiolat-record:in yourself)"),
	O_SERVER,
	O_INTERVAL("the expected interval (100ms; bare = ms; default\n"
		   "auto: the median delta)"),
	O_EVENTS("note-on (default), note-off, all"),
	O_CHANNEL("only MIDI channel N (1..16)"),
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL, "how long (bare = s; default: the --load phases, else\n"
					      "until interrupted)", TO(cfg.duration_ns)),
	{ .name = "output", .short_name = 'o', .type = AL_OPT_SPEC, .arg = "FILE", TO(cfg.smf_path),
	  .help = "write what was received as a MIDI file (1 tick = 1 us)" },
	CLI_SHARED_AS(CLI_OPT_PRIORITY, NULL, "SCHED_FIFO priority of the reader thread (rawmidi, seq;\n"
					      "default 0: SCHED_OTHER)", TO(cfg.prio)),
	O_MS("max-jitter", cfg.max_jitter_ns, H_JITTER),
	AL_OPT_TEXT(LOAD_TEXT),
	CLI_SHARED_AS(CLI_OPT_LOAD, NULL, "run load phases meanwhile (hackbench:60s, ...)", TO(cfg.load_spec)),
	AL_OPT_LONGS(OPT_LOAD_OPT, al_load_optdefs, "      --load-policy, --load-nice, --load-cpus, ...: the load options of\n"
				    "                        audiolat load, by their long names\n"),
	AL_OPT_TEXT("output:\n"),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.midi/1 JSON document (- = stdout)", TO(json_path)),
	CLI_SHARED_AS(CLI_OPT_LABEL, NULL, "name the result", TO(cfg.label)),
	CLI_SHARED_AS(CLI_OPT_DB, NULL, "save the result here (default\n"
					"$XDG_DATA_HOME/audiolat/results.db)", TO(db_path)),
	CLI_SHARED(CLI_OPT_NO_DB, TO(no_db)),
	O_NO_HIST("leave out the histogram"),
	CLI_SHARED(CLI_OPT_QUIET, TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 3 --max-jitter exceeded,\n"
		    "4 API, server or device unavailable\n"),
	AL_OPT_END,
};

static const struct al_optdef loop_opts[] = {
	AL_OPT_TEXT("usage: audiolat midi loop [--api jack|rawmidi|seq] --out P --in Q [options]\n"
		    "\n"
		    "Measure the round trip of MIDI messages out through P and back in through Q\n"
		    "(a cable, or a JACK connection through a thru client): one message in flight,\n"
		    "alternating note-on / note-off so running status cannot shorten them. Reports\n"
		    "min, mean, p99 and max latency, peak-to-peak and mean absolute jitter, and\n"
		    "lost messages. JACK: frames on the server's cycle starts (CLOCK_MONOTONIC);\n"
		    "probes at a random place in the period, like jack_midi_latency_test.\n"
		    "\n"),
	AL_OPT_TEXT("options:\n"),
	O_API(H_API),
	O_OUT("where the probes go"),
	O_IN("where they come back from"),
	O_SERVER,
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL, "how long (bare = s; default 10s, or the --load phases)", TO(cfg.duration_ns)),
	{ .name = "count", .short_name = 'n', .type = AL_OPT_INT, .arg = "N",
	  .min = 1, .max = 100000000, TO(cfg.count), .help = "stop after N probes" },
	O_MS("timeout", cfg.timeout_ns, "no echo after TIME: lost (bare = ms; default 1s)"),
	O_MS("gap", cfg.gap_ns, "pause after each echo (bare = ms; default none)"),
	CLI_SHARED_AS(CLI_OPT_PRIORITY, NULL, "SCHED_FIFO priority of the prober thread (rawmidi,\n"
					      "seq; default 0)", TO(cfg.prio)),
	O_MS("max-latency", cfg.max_latency_ns, "exit 3 when the max latency exceeds TIME"),
	O_MS("max-jitter", cfg.max_jitter_ns, "exit 3 when the peak-to-peak jitter exceeds TIME"),
	AL_OPT_TEXT(LOAD_TEXT),
	CLI_SHARED_AS(CLI_OPT_LOAD, NULL, "run load phases meanwhile", TO(cfg.load_spec)),
	AL_OPT_LONGS(OPT_LOAD_OPT, al_load_optdefs, "      --load-policy, ...: the load options of audiolat load\n"),
	AL_OPT_TEXT("output:\n"),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.midi-loop/1 JSON document", TO(json_path)),
	AL_OPT_TEXT("      --label TEXT, --db PATH, --no-db, --no-histogram, -q/--quiet\n"),
	CLI_SHARED_HIDDEN(CLI_OPT_LABEL, TO(cfg.label)),
	CLI_SHARED_HIDDEN(CLI_OPT_DB, TO(db_path)),
	CLI_SHARED_HIDDEN(CLI_OPT_NO_DB, TO(no_db)),
	O_NO_HIST(NULL),
	CLI_SHARED_HIDDEN(CLI_OPT_QUIET, TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 3 threshold exceeded,\n"
		    "4 API, server or device unavailable\n"),
	AL_OPT_END,
};

static const struct al_optdef thru_opts[] = {
	AL_OPT_TEXT("usage: audiolat midi thru --in P --out Q [--server NAME] [-d TIME]\n"
		    "\n"
		    "A JACK MIDI thru client (audiolat-thru:in -> audiolat-thru:out): every event\n"
		    "goes out in the cycle it came in, at the same frame. --in and --out connect\n"
		    "it (omitted: connect it yourself). Runs until interrupted or for -d.\n"
		    "\n"),
	AL_OPT_TEXT("options:\n"),
	O_API(NULL),
	O_IN("connect audiolat-thru:in to Q (a JACK output port)"),
	O_OUT("connect audiolat-thru:out to P (a JACK input port)"),
	O_SERVER,
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL, "how long (bare = s; default until interrupted)", TO(cfg.duration_ns)),
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "only the summary line", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 4 no JACK server\n"),
	AL_OPT_END,
};

static const struct {
	const char *name;
	const struct al_optdef *opts; /* its options and its whole --help */
	int col;             /* of --help's option list */
} subs[AL_MIDI_N_SUBS] = {
	[AL_MIDI_SUB_ANALYZE] = { "analyze", analyze_opts, 28 },
	[AL_MIDI_SUB_SEND] = { "send", send_opts, 24 },
	[AL_MIDI_SUB_RECORD] = { "record", record_opts, 24 },
	[AL_MIDI_SUB_LOOP] = { "loop", loop_opts, 24 },
	[AL_MIDI_SUB_THRU] = { "thru", thru_opts, 24 },
};

const char al_midi_help[] =
	"usage: audiolat midi analyze FILE.mid [options]\n"
	"       audiolat midi send [--api API] --port P [--rate HZ] [-d TIME] [options]\n"
	"       audiolat midi record [--api API] --port P [--interval TIME|auto] [-d TIME]\n"
	"                            [-o OUT.mid] [--json FILE|-] [--load SPEC] [options]\n"
	"       audiolat midi loop [--api API] --out P --in Q [-d TIME|-n N] [options]\n"
	"       audiolat midi thru --in P --out Q [-d TIME]      (JACK)\n"
	"       audiolat midi SUBCOMMAND --help\n"
	"\n"
	"MIDI timing: how far the delta times of a MIDI stream stray from its interval\n"
	"(a recording, or one received live), and the round-trip latency of a loop.\n"
	"APIs: jack (JACK MIDI, the default), rawmidi (ALSA hw:C,D, kernel framing\n"
	"timestamps), seq (ALSA sequencer client:port, real-time queue stamps).\n"
	"\n"
	"exit status: 0 done, 1 runtime error (a bad file among them), 2 usage error,\n"
	"3 threshold exceeded, 4 MIDI API, server or device unavailable\n";

/* An unknown option that another midi subcommand takes: say so */
static void
not_ours(enum al_midi_sub sub, const struct al_opts_result *res, char *err, size_t size)
{
	struct al_optdef d;
	char label[64];
	int s;

	if (res->fault != AL_OPTS_UNKNOWN)
		return;
	for (s = 0; s < AL_MIDI_N_SUBS; s++)
		if (s != (int)sub && !al_opts_find(subs[s].opts, res->tok, &d)) {
			snprintf(err, size, "%s: not an option of midi %s",
				 al_opt_label(&d, label, sizeof(label)), subs[sub].name);
			return;
		}
}

/* What the table cannot store itself (al_opts_parse has checked the value by its type). */
static int
midi_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct al_midi_cli *o = ctx;
	struct al_midi_config *c = &o->cfg;
	const char *a = h->arg;

	switch (h->id) {
	case OPT_LOAD_OPT:
		return al_load_opt_set(&o->load_opts, h->def->name, a, err, err_size) ? -EINVAL : 0;
	case OPT_API:
		if (al_midi_api_parse(a, &c->api))
			return snprintf(err, err_size, "--api: '%s' is not jack, rawmidi or seq", a),
			       -EINVAL;
		break;
	case OPT_RATE:
		return al_midi_rate_parse(a, &c->rate_hz, err, err_size);
	case OPT_CHANNEL:
		c->send_channel = c->filter.channel = (int)h->value;
		break;
	case OPT_EVENTS:
		if (al_midi_select_parse(a, &c->filter.events))
			return snprintf(err, err_size, "--events: '%s' is not note-on, note-off or all",
					a), -EINVAL;
		break;
	case OPT_INTERVAL: {
		const struct al_optdef ms = { .name = "interval", .type = AL_OPT_TIME,
					      .unit_ns = AL_NS_PER_MS };

		c->interval_ns = 0;
		return strcmp(a, "auto") ? al_opt_check(&ms, a, &c->interval_ns, err, err_size) : 0;
	}
	}
	return 0;
}

/* What the options cannot say alone: the arguments, then the API's needs. */
static int
check_args(enum al_midi_sub sub, int argc, char **argv, int first, struct al_midi_cli *o, char *err,
	   size_t err_size)
{
	if (sub == AL_MIDI_SUB_ANALYZE) {
		if (first >= argc)
			return snprintf(err, err_size, "a MIDI file is needed (audiolat midi analyze FILE.mid)"), -EINVAL;
		o->cfg.file = argv[first++];
	}
	if (first < argc)
		return snprintf(err, err_size, "unexpected argument '%s'", argv[first]), -EINVAL;
	return al_midi_config_check(&o->cfg, err, err_size);
}

int
al_midi_parse_args(enum al_midi_sub sub, int argc, char **argv, struct al_midi_cli *o, char *err,
		   size_t err_size)
{
	static const enum al_midi_kind kinds[AL_MIDI_N_SUBS] = {
		AL_MIDI_ANALYZE, AL_MIDI_SEND, AL_MIDI_RECORD, AL_MIDI_LOOP, AL_MIDI_THRU,
	};
	struct al_opts_result res;
	int first, rc;

	memset(o, 0, sizeof(*o));
	o->sub = argv[0];
	al_midi_config_init(&o->cfg, kinds[sub]);
	al_load_opts_init(&o->load_opts);
	rc = al_opts_parse(subs[sub].opts, argc, argv, midi_set, o, &first, &res, err, err_size);
	if (rc) {
		not_ours(sub, &res, err, err_size);
		return rc;
	}
	return o->help ? 0 : check_args(sub, argc, argv, first, o, err, err_size);
}

int
al_midi_sub_find(const char *name)
{
	int s;

	for (s = 0; s < AL_MIDI_N_SUBS; s++)
		if (!strcmp(name, subs[s].name))
			return s;
	return -1;
}

void
al_midi_sub_help(FILE *f, enum al_midi_sub sub)
{
	al_opts_help(f, subs[sub].opts, subs[sub].col);
}
