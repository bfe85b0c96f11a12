/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi: MIDI timing. analyze reads a Standard MIDI File, send
 * plays a 10 Hz test stream, record receives and times one, loop measures
 * the round trip through a cable or a JACK connection, thru is a JACK MIDI
 * thru client (for loops and benchmarks).
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/units.h"
#include "core/url.h"
#include "cli.h"
#include "commands.h"
#include "midi-live.h"
#include "midi-out.h"

#define SMF_MAX_BYTES (64 * 1024 * 1024)

enum sub { SUB_ANALYZE = 1, SUB_SEND = 2, SUB_RECORD = 4, SUB_LOOP = 8, SUB_THRU = 16 };

enum {
	OPT_JSON = 256,
	OPT_API,
	OPT_PORT,
	OPT_OUT,
	OPT_IN,
	OPT_SERVER,
	OPT_RATE,
	OPT_CHANNEL,
	OPT_EVENTS,
	OPT_INTERVAL,
	OPT_MAX_JITTER,
	OPT_MAX_LATENCY,
	OPT_TIMEOUT,
	OPT_GAP,
	OPT_LOAD,
	OPT_LABEL,
	OPT_DB,
	OPT_NO_DB,
	OPT_NO_HISTOGRAM,
	OPT_LOAD_BASE = 512, /* + index into al_load_optdefs */
};

struct optdef {
	struct option o;
	unsigned subs;           /* where it is allowed */
	const char *name;        /* for messages: "-d/--duration" */
};

#define ALL (SUB_ANALYZE | SUB_SEND | SUB_RECORD | SUB_LOOP | SUB_THRU)
#define LIVE (SUB_SEND | SUB_RECORD | SUB_LOOP | SUB_THRU)
#define STATS (SUB_ANALYZE | SUB_RECORD | SUB_LOOP)

static const struct optdef optdefs[] = {
	{ { "help", no_argument, NULL, 'h' }, ALL, "-h/--help" },
	{ { "quiet", no_argument, NULL, 'q' }, ALL, "-q/--quiet" },
	{ { "duration", required_argument, NULL, 'd' }, LIVE, "-d/--duration" },
	{ { "priority", required_argument, NULL, 'p' }, SUB_SEND | SUB_RECORD | SUB_LOOP, "-p/--priority" },
	{ { "output", required_argument, NULL, 'o' }, SUB_RECORD, "-o/--output" },
	{ { "count", required_argument, NULL, 'n' }, SUB_LOOP, "-n/--count" },
	{ { "json", required_argument, NULL, OPT_JSON }, STATS, "--json" },
	{ { "api", required_argument, NULL, OPT_API }, LIVE, "--api" },
	{ { "port", required_argument, NULL, OPT_PORT }, SUB_SEND | SUB_RECORD, "--port" },
	{ { "out", required_argument, NULL, OPT_OUT }, SUB_LOOP | SUB_THRU, "--out" },
	{ { "in", required_argument, NULL, OPT_IN }, SUB_LOOP | SUB_THRU, "--in" },
	{ { "server", required_argument, NULL, OPT_SERVER }, LIVE, "--server" },
	{ { "rate", required_argument, NULL, OPT_RATE }, SUB_SEND, "--rate" },
	{ { "channel", required_argument, NULL, OPT_CHANNEL }, SUB_ANALYZE | SUB_SEND | SUB_RECORD,
	  "--channel" },
	{ { "events", required_argument, NULL, OPT_EVENTS }, SUB_ANALYZE | SUB_RECORD, "--events" },
	{ { "interval", required_argument, NULL, OPT_INTERVAL }, SUB_ANALYZE | SUB_RECORD, "--interval" },
	{ { "max-jitter", required_argument, NULL, OPT_MAX_JITTER }, STATS, "--max-jitter" },
	{ { "max-latency", required_argument, NULL, OPT_MAX_LATENCY }, SUB_LOOP, "--max-latency" },
	{ { "timeout", required_argument, NULL, OPT_TIMEOUT }, SUB_LOOP, "--timeout" },
	{ { "gap", required_argument, NULL, OPT_GAP }, SUB_LOOP, "--gap" },
	{ { "load", required_argument, NULL, OPT_LOAD }, SUB_RECORD | SUB_LOOP, "--load" },
	{ { "label", required_argument, NULL, OPT_LABEL }, SUB_RECORD | SUB_LOOP, "--label" },
	{ { "db", required_argument, NULL, OPT_DB }, SUB_RECORD | SUB_LOOP, "--db" },
	{ { "no-db", no_argument, NULL, OPT_NO_DB }, SUB_RECORD | SUB_LOOP, "--no-db" },
	{ { "no-histogram", no_argument, NULL, OPT_NO_HISTOGRAM }, STATS, "--no-histogram" },
};

#define N_OPTDEFS (sizeof(optdefs) / sizeof(optdefs[0]))
#define LONG_OPTS_MAX 64

static const char help_main[] =
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

static const char help_analyze[] =
	"usage: audiolat midi analyze FILE.mid [options]\n"
	"\n"
	"Read a Standard MIDI File (format 0, 1 or 2, plain or RIFF RMID) and report the\n"
	"delta times between its events: count, interval, min/mean/max/stddev/p99, the\n"
	"largest delta minus the interval (the jitter figure of the rawmidi framing\n"
	"patch), the largest |delta - interval|, a histogram, and the file's tick: no\n"
	"recording shows timing finer than one tick.\n"
	"\n"
	"options:\n"
	"      --interval TIME|auto  the expected interval (100ms; bare = ms); auto\n"
	"                            (default) takes the median delta\n"
	"      --events SEL          note-on (default: note-on with velocity > 0),\n"
	"                            note-off (or note-on with velocity 0), all\n"
	"                            (every channel message and sysex)\n"
	"      --channel N           only MIDI channel N (1..16)\n"
	"      --max-jitter TIME     exit 3 when max |delta - interval| exceeds TIME\n"
	"      --json FILE|-         write the audiolat.midi/1 JSON document (- = stdout)\n"
	"      --no-histogram        leave out the histogram\n"
	"  -q, --quiet               only the summary line\n"
	"  -h, --help                this text\n"
	"\n"
	"exit status: 0 done, 1 the file cannot be read or is not a valid MIDI file\n"
	"(one line with the byte offset), 2 usage error, 3 --max-jitter exceeded\n";

static const char help_send[] =
	"usage: audiolat midi send [--api jack|rawmidi|seq] --port P [options]\n"
	"\n"
	"Send note-on / note-off pairs (note 60) at exact absolute times: note-on at\n"
	"start + k / RATE, note-off half an interval later, from a thread sleeping with\n"
	"clock_nanosleep(TIMER_ABSTIME) on CLOCK_MONOTONIC. JACK: the messages keep\n"
	"their times to a frame, one period later.\n"
	"\n"
	"options:\n"
	"      --api API         jack (default), rawmidi (hw:C,D), seq (client:port)\n"
	"      --port P          where to send (jack: an input port such as\n"
	"                        audiolat-midi:in; omitted: connect audiolat-send:out\n"
	"                        yourself)\n"
	"      --server NAME     the JACK server (default $JACK_DEFAULT_SERVER)\n"
	"      --rate HZ         note-ons per second (default 10)\n"
	"      --channel N       MIDI channel 1..16 (default 1)\n"
	"  -d, --duration TIME   how long (bare = s; default until interrupted)\n"
	"  -p, --priority PRIO   SCHED_FIFO priority of the sending thread (default 0:\n"
	"                        SCHED_OTHER)\n"
	"  -q, --quiet           only the summary line\n"
	"  -h, --help            this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error, 2 usage error, 4 API, server or device\n"
	"unavailable\n";

static const char help_record[] =
	"usage: audiolat midi record [--api jack|rawmidi|seq] --port P [options]\n"
	"\n"
	"Receive MIDI, timestamp every message, and report the delta times as analyze\n"
	"does, live on a terminal. Timestamps: jack, the event's frame on the server's\n"
	"frame counter fitted to its cycle starts on CLOCK_MONOTONIC (no JACK clock\n"
	"mapped); rawmidi, the kernel's framing stamps (Linux 5.14,\n"
	"alsa-lib 1.2.7.2) or else the read time; seq, a real-time queue. Times are\n"
	"kept to 1 us, the tick of the -o file: analyze reads it back to the same\n"
	"figures.\n"
	"\n"
	"options:\n"
	"      --api API         jack (default), rawmidi (hw:C,D), seq (client:port)\n"
	"      --port P          where to receive from (jack: an output port; omitted:\n"
	"                        connect to audiolat-record:in yourself)\n"
	"      --server NAME     the JACK server (default $JACK_DEFAULT_SERVER)\n"
	"      --interval TIME|auto  the expected interval (100ms; bare = ms; default\n"
	"                        auto: the median delta)\n"
	"      --events SEL      note-on (default), note-off, all\n"
	"      --channel N       only MIDI channel N (1..16)\n"
	"  -d, --duration TIME   how long (bare = s; default: the --load phases, else\n"
	"                        until interrupted)\n"
	"  -o, --output FILE     write what was received as a MIDI file (1 tick = 1 us)\n"
	"  -p, --priority PRIO   SCHED_FIFO priority of the reader thread (rawmidi, seq;\n"
	"                        default 0: SCHED_OTHER)\n"
	"      --max-jitter TIME exit 3 when max |delta - interval| exceeds TIME\n"
	"load (docs/loads.md):\n"
	"      --load SPEC       run load phases meanwhile (hackbench:60s, ...)\n"
	"      --load-policy, --load-nice, --load-cpus, ...: the load options of\n"
	"                        audiolat load, by their long names\n"
	"output:\n"
	"      --json FILE|-     write the audiolat.midi/1 JSON document (- = stdout)\n"
	"      --label TEXT      name the result\n"
	"      --db PATH         save the result here (default\n"
	"                        $XDG_DATA_HOME/audiolat/results.db)\n"
	"      --no-db           do not save the result\n"
	"      --no-histogram    leave out the histogram\n"
	"  -q, --quiet           no status line, only the summary line\n"
	"  -h, --help            this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error, 2 usage error, 3 --max-jitter exceeded,\n"
	"4 API, server or device unavailable\n";

static const char help_loop[] =
	"usage: audiolat midi loop [--api jack|rawmidi|seq] --out P --in Q [options]\n"
	"\n"
	"Measure the round trip of MIDI messages out through P and back in through Q\n"
	"(a cable, or a JACK connection through a thru client): one message in flight,\n"
	"alternating note-on / note-off so running status cannot shorten them. Reports\n"
	"min, mean, p99 and max latency, peak-to-peak and mean absolute jitter, and\n"
	"lost messages. JACK: frames on the server's cycle starts (CLOCK_MONOTONIC);\n"
	"probes at a random place in the period, like jack_midi_latency_test.\n"
	"\n"
	"options:\n"
	"      --api API         jack (default), rawmidi (hw:C,D), seq (client:port)\n"
	"      --out P           where the probes go\n"
	"      --in Q            where they come back from\n"
	"      --server NAME     the JACK server (default $JACK_DEFAULT_SERVER)\n"
	"  -d, --duration TIME   how long (bare = s; default 10s, or the --load phases)\n"
	"  -n, --count N         stop after N probes\n"
	"      --timeout TIME    no echo after TIME: lost (bare = ms; default 1s)\n"
	"      --gap TIME        pause after each echo (bare = ms; default none)\n"
	"  -p, --priority PRIO   SCHED_FIFO priority of the prober thread (rawmidi,\n"
	"                        seq; default 0)\n"
	"      --max-latency TIME  exit 3 when the max latency exceeds TIME\n"
	"      --max-jitter TIME exit 3 when the peak-to-peak jitter exceeds TIME\n"
	"load (docs/loads.md):\n"
	"      --load SPEC       run load phases meanwhile\n"
	"      --load-policy, ...: the load options of audiolat load\n"
	"output:\n"
	"      --json FILE|-     write the audiolat.midi-loop/1 JSON document\n"
	"      --label TEXT, --db PATH, --no-db, --no-histogram, -q/--quiet\n"
	"  -h, --help            this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error, 2 usage error, 3 threshold exceeded,\n"
	"4 API, server or device unavailable\n";

static const char help_thru[] =
	"usage: audiolat midi thru --in P --out Q [--server NAME] [-d TIME]\n"
	"\n"
	"A JACK MIDI thru client (audiolat-thru:in -> audiolat-thru:out): every event\n"
	"goes out in the cycle it came in, at the same frame. --in and --out connect\n"
	"it (omitted: connect it yourself). Runs until interrupted or for -d.\n"
	"\n"
	"exit status: 0 done, 1 runtime error, 2 usage error, 4 no JACK server\n";

static const char *
help_of(unsigned sub)
{
	switch (sub) {
	case SUB_ANALYZE:
		return help_analyze;
	case SUB_SEND:
		return help_send;
	case SUB_RECORD:
		return help_record;
	case SUB_LOOP:
		return help_loop;
	case SUB_THRU:
		return help_thru;
	default:
		return help_main;
	}
}

static int
bad(char *err, size_t size, const char *fmt, ...) __attribute__((format(printf, 3, 4)));

static int
bad(char *err, size_t size, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(err, size, fmt, ap);
	va_end(ap);
	return AL_EXIT_USAGE;
}

static int
dur(const char *opt, const char *arg, int64_t unit_ns, int64_t *out, char *err, size_t size)
{
	int rc = al_parse_duration_ns(arg, unit_ns, out);

	if (rc == -ERANGE)
		return bad(err, size, "%s: '%s' is too large", opt, arg);
	if (rc)
		return bad(err, size, "%s: '%s' is not a duration (a number with ns, us, ms, s, m or h)",
			   opt, arg);
	if (*out <= 0)
		return bad(err, size, "%s: '%s' must be longer than zero", opt, arg);
	return 0;
}

static int
num(const char *opt, const char *arg, long min, long max, long *out, char *err, size_t size)
{
	int rc = al_parse_long(arg, min, max, out);

	if (rc == -EINVAL)
		return bad(err, size, "%s: '%s' is not a whole number", opt, arg);
	if (rc)
		return bad(err, size, "%s: '%s' is not in %ld..%ld", opt, arg, min, max);
	return 0;
}

/* A positive decimal number ("10", "2.5"), whole string. */
static int
rate(const char *opt, const char *arg, double *out, char *err, size_t size)
{
	char *end;
	double v;

	if (!*arg || (*arg != '.' && (*arg < '0' || *arg > '9')))
		return bad(err, size, "%s: '%s' is not a number", opt, arg);
	v = strtod(arg, &end);
	if (*end || !isfinite(v))
		return bad(err, size, "%s: '%s' is not a number", opt, arg);
	if (v < 0.01 || v > 1000)
		return bad(err, size, "%s: '%s' is not in 0.01..1000 Hz", opt, arg);
	*out = v;
	return 0;
}

static void
join_cmdline(int argc, char **argv, char *buf, size_t size)
{
	size_t used;
	int i;

	used = (size_t)snprintf(buf, size, "audiolat midi");
	for (i = 0; i < argc && used < size; i++)
		used += (size_t)snprintf(buf + used, size - used, " %s", argv[i]);
	al_url_redact(buf, buf, size); /* a --db URL's password is never stored */
}

/* Pure: argv (argv[0] the subcommand) -> o, or AL_EXIT_USAGE with one line in err. */
static int
parse_args(unsigned sub, int argc, char **argv, struct midi_opts *o, char *err, size_t err_size)
{
	struct option long_opts[LONG_OPTS_MAX];
	char shorts[] = ":hqd:p:o:n:", msg[256];
	const struct optdef *d;
	size_t i, n = 0;
	long v;
	int opt, rc;

	memset(o, 0, sizeof(*o));
	o->sub = argv[0];
	o->api = AL_MIDI_API_JACK;
	o->rate_hz = 10;
	o->send_channel = 1;
	o->filter.events = AL_MIDI_SEL_NOTE_ON;
	al_load_opts_init(&o->load_opts);
	join_cmdline(argc, argv, o->cmdline, sizeof(o->cmdline));
	err[0] = '\0';
	for (i = 0; i < N_OPTDEFS; i++)
		long_opts[n++] = optdefs[i].o;
	for (i = 0; al_load_optdefs[i].name && n + 1 < LONG_OPTS_MAX; i++)
		long_opts[n++] = (struct option){ al_load_optdefs[i].name,
						  al_load_optdefs[i].has_arg ? required_argument
									     : no_argument,
						  NULL, OPT_LOAD_BASE + (int)i };
	long_opts[n] = (struct option){ NULL, 0, NULL, 0 };

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, shorts, long_opts, NULL)) != -1) {
		if (opt == ':')
			return bad(err, err_size, "option %s: needs a value", argv[optind - 1]);
		if (opt == '?') {
			if (optopt > 0 && optopt < 256)
				return bad(err, err_size, "unknown option '-%c'", optopt);
			return bad(err, err_size, "unknown option '%s'", argv[optind - 1]);
		}
		if (opt >= OPT_LOAD_BASE) {
			if (!(sub & (SUB_RECORD | SUB_LOOP)))
				return bad(err, err_size, "--%s: not an option of midi %s",
					   al_load_optdefs[opt - OPT_LOAD_BASE].name, o->sub);
			rc = al_load_opt_set(&o->load_opts, al_load_optdefs[opt - OPT_LOAD_BASE].name,
					     optarg, msg, sizeof(msg));
			if (rc)
				return bad(err, err_size, "%s", msg);
			continue;
		}
		for (d = optdefs; d < optdefs + N_OPTDEFS && d->o.val != opt; d++)
			;
		if (d == optdefs + N_OPTDEFS)
			return bad(err, err_size, "unknown option '-%c'", opt);
		if (!(d->subs & sub))
			return bad(err, err_size, "%s: not an option of midi %s", d->name, o->sub);
		rc = 0;
		switch (opt) {
		case 'h':
			o->help = true;
			return 0;
		case 'q':
			o->quiet = true;
			break;
		case 'd':
			rc = dur(d->name, optarg, AL_NS_PER_SEC, &o->duration_ns, err, err_size);
			break;
		case 'p':
			rc = num(d->name, optarg, 0, 99, &v, err, err_size);
			o->prio = (int)v;
			break;
		case 'o':
			o->smf_path = optarg;
			break;
		case 'n':
			rc = num(d->name, optarg, 1, 100000000, &o->count, err, err_size);
			break;
		case OPT_JSON:
			o->json_path = optarg;
			break;
		case OPT_API:
			if (al_midi_api_parse(optarg, &o->api))
				return bad(err, err_size, "--api: '%s' is not jack, rawmidi or seq", optarg);
			break;
		case OPT_PORT:
			o->port = optarg;
			break;
		case OPT_OUT:
			o->out = optarg;
			break;
		case OPT_IN:
			o->in = optarg;
			break;
		case OPT_SERVER:
			o->server = optarg;
			break;
		case OPT_RATE:
			rc = rate(d->name, optarg, &o->rate_hz, err, err_size);
			break;
		case OPT_CHANNEL:
			rc = num(d->name, optarg, 1, 16, &v, err, err_size);
			o->send_channel = (int)v;
			o->filter.channel = (int)v;
			o->channel_given = true;
			break;
		case OPT_EVENTS:
			if (al_midi_select_parse(optarg, &o->filter.events))
				return bad(err, err_size, "--events: '%s' is not note-on, note-off or all",
					   optarg);
			break;
		case OPT_INTERVAL:
			if (!strcmp(optarg, "auto"))
				o->interval_ns = 0;
			else
				rc = dur(d->name, optarg, AL_NS_PER_MS, &o->interval_ns, err, err_size);
			break;
		case OPT_MAX_JITTER:
			rc = dur(d->name, optarg, AL_NS_PER_MS, &o->max_jitter_ns, err, err_size);
			break;
		case OPT_MAX_LATENCY:
			rc = dur(d->name, optarg, AL_NS_PER_MS, &o->max_latency_ns, err, err_size);
			break;
		case OPT_TIMEOUT:
			rc = dur(d->name, optarg, AL_NS_PER_MS, &o->timeout_ns, err, err_size);
			break;
		case OPT_GAP:
			rc = dur(d->name, optarg, AL_NS_PER_MS, &o->gap_ns, err, err_size);
			break;
		case OPT_LOAD:
			o->load_spec = optarg;
			break;
		case OPT_LABEL:
			if (strlen(optarg) > 200)
				return bad(err, err_size, "--label: longer than 200 characters");
			o->label = optarg;
			break;
		case OPT_DB:
			o->db_path = optarg;
			break;
		case OPT_NO_DB:
			o->no_db = true;
			break;
		case OPT_NO_HISTOGRAM:
			o->no_histogram = true;
			break;
		default:
			break;
		}
		if (rc)
			return rc;
	}
	if (sub == SUB_ANALYZE) {
		if (optind >= argc)
			return bad(err, err_size, "a MIDI file is needed (audiolat midi analyze FILE.mid)");
		o->file = argv[optind++];
	}
	if (optind < argc)
		return bad(err, err_size, "unexpected argument '%s'", argv[optind]);
	if ((sub & (SUB_SEND | SUB_RECORD)) && !o->port && o->api != AL_MIDI_API_JACK)
		return bad(err, err_size, "--port: %s needs a port (%s)", al_midi_api_name(o->api),
			   o->api == AL_MIDI_API_RAWMIDI ? "hw:CARD,DEVICE" : "client:port");
	if (sub == SUB_LOOP && (!o->out || !o->in) && o->api != AL_MIDI_API_JACK)
		return bad(err, err_size, "--out and --in: %s needs both", al_midi_api_name(o->api));
	if (sub == SUB_THRU && o->api != AL_MIDI_API_JACK)
		return bad(err, err_size, "--api: thru is a JACK client; use --api jack");
	if (o->server && o->api != AL_MIDI_API_JACK)
		return bad(err, err_size, "--server: only with --api jack");
	if (sub == SUB_SEND && o->filter.events != AL_MIDI_SEL_NOTE_ON)
		return bad(err, err_size, "--events: not an option of midi send");
	return 0;
}

/* ---- analyze ---- */

static int
read_file(const char *path, uint8_t **buf, size_t *len, char *err, size_t err_size)
{
	struct stat st;
	uint8_t *b;
	size_t n = 0;
	FILE *f;

	f = fopen(path, "rbe");
	if (!f)
		return snprintf(err, err_size, "%s: %s", path, strerror(errno)), -errno;
	if (fstat(fileno(f), &st) || !S_ISREG(st.st_mode)) {
		fclose(f);
		snprintf(err, err_size, "%s: not a regular file", path);
		return -EINVAL;
	}
	if (st.st_size > SMF_MAX_BYTES) {
		fclose(f);
		snprintf(err, err_size, "%s: %lld bytes, more than a MIDI file of %d MiB", path,
			 (long long)st.st_size, SMF_MAX_BYTES >> 20);
		return -EFBIG;
	}
	b = malloc(st.st_size ? (size_t)st.st_size : 1);
	if (!b) {
		fclose(f);
		snprintf(err, err_size, "%s: out of memory", path);
		return -ENOMEM;
	}
	n = fread(b, 1, (size_t)st.st_size, f);
	if (ferror(f)) {
		fclose(f);
		free(b);
		snprintf(err, err_size, "%s: read error", path);
		return -EIO;
	}
	fclose(f);
	*buf = b;
	*len = n;
	return 0;
}

static const char *
threshold_verdict(const struct midi_report *r)
{
	if (r->o->max_jitter_ns && r->st && r->st->deltas &&
	    r->st->jitter_abs_max_ns > r->o->max_jitter_ns)
		return "FAIL";
	return "PASS";
}

static int
cmd_analyze(struct midi_opts *o)
{
	struct midi_report r;
	struct al_smf_error serr;
	struct al_smf smf;
	char err[512], a[32], b[32];
	uint8_t *buf = NULL;
	size_t len = 0;
	int rc, exit_code;
	bool text = !(o->json_path && !strcmp(o->json_path, "-"));

	rc = read_file(o->file, &buf, &len, err, sizeof(err));
	if (rc)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "analyze: %s", err);
	rc = al_smf_parse(buf, len, &smf, &serr);
	if (rc) {
		free(buf);
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "analyze: %s: byte %zu: %s", o->file,
				     serr.offset, serr.msg);
	}
	memset(&r, 0, sizeof(r));
	r.kind = "analyze";
	r.o = o;
	r.smf = &smf;
	r.file_bytes = len;
	r.tick_ns = smf.tick_ns_max;
	r.st = malloc(sizeof(*r.st));
	if (!r.st || al_midi_analyze_smf(&smf, &o->filter, o->interval_ns, r.st)) {
		free(r.st);
		al_smf_free(&smf);
		free(buf);
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "analyze: out of memory");
	}
	al_sysinfo_read("/", &r.sys);
	r.started_at_ns = al_clock_realtime_ns();
	if (text && !o->quiet)
		midi_print_stats(stdout, &r);
	if (text)
		midi_summary_line(stdout, &r, threshold_verdict(&r));
	fflush(stdout);
	exit_code = midi_report_emit(&r, false);
	if (exit_code == AL_EXIT_OK && !strcmp(threshold_verdict(&r), "FAIL")) {
		al_format_duration(r.st->jitter_abs_max_ns, a, sizeof(a));
		al_format_duration(o->max_jitter_ns, b, sizeof(b));
		exit_code = cli_cmd_error(AL_EXIT_THRESHOLD, "midi",
					  "analyze: max |delta - interval| %s exceeds --max-jitter %s", a, b);
	}
	free(r.st);
	al_smf_free(&smf);
	free(buf);
	return exit_code;
}

/* ---- send ---- */

static int
cmd_send(struct midi_opts *o)
{
	struct al_midi_port_cfg cfg = {
		.api = o->api, .mode = AL_MIDI_MODE_SEND, .out = o->port, .server = o->server,
		.client_name = "audiolat-send",
	};
	struct al_midi_sender_stats st;
	struct al_midi_port_counters c;
	struct al_midi_port_info info;
	struct al_midi_sender *snd = NULL;
	struct al_midi_port *port;
	int64_t start_ns, end_ns = 0, now_ns;
	char err[256], late[32];
	bool status = cli_status_wanted(o->quiet), failed = false;
	int rc;

	rc = al_midi_port_open(&cfg, &port, &info, err, sizeof(err));
	if (rc)
		return midi_port_error(o, rc, err);
	cli_catch_stop_signals();
	if (!o->quiet) {
		printf("sending note-on/note-off pairs at %g Hz on channel %d to %s (%s%s%s)\n",
		       o->rate_hz, o->send_channel, o->port ? o->port : info.out_name,
		       al_midi_api_name(o->api), info.out_name[0] && o->port ? ", from " : "",
		       o->port ? info.out_name : "");
		fflush(stdout);
	}
	/* the first note a little later, so the receiver sees it whole */
	start_ns = al_clock_now_ns() + 50 * AL_NS_PER_MS;
	if (o->duration_ns)
		end_ns = start_ns + o->duration_ns;
	rc = al_midi_sender_start(port, o->rate_hz, start_ns, o->prio, o->send_channel, &snd);
	if (rc) {
		al_midi_port_close(port);
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "send: cannot start the sender: %s",
				     strerror(-rc));
	}
	while (!cli_stop_requested) {
		now_ns = al_clock_now_ns();
		if (end_ns && now_ns >= end_ns)
			break;
		if (al_midi_port_status(port, err, sizeof(err))) {
			failed = true;
			break;
		}
		if (status) {
			al_midi_sender_stats(snd, &st);
			fprintf(stderr, "\r\033[K[%6.1f s] sent=%llu", (double)(now_ns - start_ns) / 1e9,
				(unsigned long long)st.sent);
			fflush(stderr);
		}
		al_clock_sleep_until_ns(end_ns && end_ns - now_ns < 100 * AL_NS_PER_MS
						? end_ns : now_ns + 100 * AL_NS_PER_MS);
	}
	/* the figures after the thread stopped: no message is sent after them */
	al_midi_sender_stop(snd, &st);
	/* JACK: let the last messages go out before the port closes */
	if (o->api == AL_MIDI_API_JACK && !failed)
		al_clock_sleep_until_ns(al_clock_now_ns() + 100 * AL_NS_PER_MS);
	al_midi_port_stop(port);
	al_midi_port_counters(port, &c);
	al_midi_port_close(port);
	if (status)
		fprintf(stderr, "\r\033[K");
	al_format_duration(st.late_max_ns, late, sizeof(late));
	if (!o->quiet)
		printf("sent %llu messages; the sending thread woke at most %s late%s\n",
		       (unsigned long long)st.sent, late,
		       o->prio && !st.realtime ? " (no SCHED_FIFO: not permitted)" : "");
	printf("summary: api=%s rate_hz=%g sent=%llu errors=%llu late=%llu dropped=%llu "
	       "wake_late_max_ns=%lld interrupted=%s result=%s\n",
	       al_midi_api_name(o->api), o->rate_hz, (unsigned long long)st.sent,
	       (unsigned long long)st.errors, (unsigned long long)c.late,
	       (unsigned long long)c.dropped, (long long)st.late_max_ns,
	       cli_stop_requested ? "yes" : "no", failed || st.errors ? "error" : "ok");
	fflush(stdout);
	if (failed)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "send: %s", err);
	if (st.errors)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "send: %llu messages could not be sent",
				     (unsigned long long)st.errors);
	return AL_EXIT_OK;
}

/* ---- thru ---- */

static int
cmd_thru(struct midi_opts *o)
{
	struct al_midi_port_cfg cfg = {
		.api = AL_MIDI_API_JACK, .mode = AL_MIDI_MODE_THRU, .out = o->out, .in = o->in,
		.server = o->server, .client_name = "audiolat-thru",
	};
	struct al_midi_port_counters c;
	struct al_midi_port_info info;
	struct al_midi_port *port;
	int64_t end_ns = 0, now_ns;
	char err[256];
	bool failed = false;
	int rc;

	rc = al_midi_port_open(&cfg, &port, &info, err, sizeof(err));
	if (rc)
		return midi_port_error(o, rc, err);
	cli_catch_stop_signals();
	if (!o->quiet) {
		printf("thru: %s -> %s\n", info.in_name, info.out_name);
		fflush(stdout);
	}
	if (o->duration_ns)
		end_ns = al_clock_now_ns() + o->duration_ns;
	while (!cli_stop_requested) {
		now_ns = al_clock_now_ns();
		if (end_ns && now_ns >= end_ns)
			break;
		if (al_midi_port_status(port, err, sizeof(err))) {
			failed = true;
			break;
		}
		al_clock_sleep_until_ns(end_ns && end_ns - now_ns < 100 * AL_NS_PER_MS
						? end_ns : now_ns + 100 * AL_NS_PER_MS);
	}
	al_midi_port_stop(port);
	al_midi_port_counters(port, &c);
	al_midi_port_close(port);
	printf("summary: passed=%llu dropped=%llu xruns=%llu result=%s\n",
	       (unsigned long long)c.sent, (unsigned long long)c.dropped,
	       (unsigned long long)c.xruns, failed ? "error" : "ok");
	fflush(stdout);
	if (failed)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "thru: %s", err);
	return AL_EXIT_OK;
}

int
cmd_midi(int argc, char **argv)
{
	static const struct {
		const char *name;
		unsigned sub;
	} subs[] = {
		{ "analyze", SUB_ANALYZE }, { "send", SUB_SEND }, { "record", SUB_RECORD },
		{ "loop", SUB_LOOP }, { "thru", SUB_THRU },
	};
	struct midi_opts *o;
	unsigned sub = 0;
	char err[512];
	size_t i;
	int rc;

	if (argc < 2) {
		fputs(help_main, stderr);
		return AL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(help_main, stdout);
		return AL_EXIT_OK;
	}
	for (i = 0; i < sizeof(subs) / sizeof(subs[0]); i++)
		if (!strcmp(argv[1], subs[i].name))
			sub = subs[i].sub;
	if (!sub)
		return cli_usage_error("midi", "unknown subcommand '%s' (analyze, send, record, loop, thru)",
				       argv[1]);
	o = calloc(1, sizeof(*o));
	if (!o)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "out of memory");
	rc = parse_args(sub, argc - 1, argv + 1, o, err, sizeof(err));
	if (rc) {
		free(o);
		fprintf(stderr, "%s midi %s: %s\n", cli_progname, argv[1], err);
		fprintf(stderr, "Try '%s midi %s --help'.\n", cli_progname, argv[1]);
		return AL_EXIT_USAGE;
	}
	if (o->help) {
		fputs(help_of(sub), stdout);
		free(o);
		return AL_EXIT_OK;
	}
	if (sub != SUB_ANALYZE && al_midi_api_unavailable(o->api)) {
		rc = cli_cmd_error(AL_EXIT_UNAVAILABLE, "midi", "%s: --api %s: %s", o->sub,
				   al_midi_api_name(o->api), al_midi_api_unavailable(o->api));
		free(o);
		return rc;
	}
	switch (sub) {
	case SUB_ANALYZE:
		rc = cmd_analyze(o);
		break;
	case SUB_SEND:
		rc = cmd_send(o);
		break;
	case SUB_RECORD:
		rc = midi_record(o);
		break;
	case SUB_LOOP:
		rc = midi_loop(o);
		break;
	default:
		rc = cmd_thru(o);
		break;
	}
	free(o);
	return rc;
}
