/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat roundtrip: the delay of an audio loop (out -> cable or graph ->
 * in) by multi-tone delay measurement, with sub-sample accuracy; the part
 * of it that the nominal buffering does not explain; the jackd -I/-O that
 * would account for it. docs/roundtrip.md.
 */
#include <errno.h>
#include <getopt.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "backend/backend.h"
#include "backend/duplex.h"
#include "core/clock.h"
#include "core/rt.h"
#include "core/units.h"
#include "doc/doc.h"
#include "roundtrip/mtdm.h"
#include "roundtrip/summary.h"
#include "cli.h"
#include "commands.h"

#define READING_NS (250 * AL_NS_PER_MS)
#define DEFAULT_DURATION_NS (5 * AL_NS_PER_SEC)
#define MIN_DURATION_NS (2 * AL_NS_PER_SEC)
#define CMD "roundtrip"

enum {
	OPT_JSON = 256,
	OPT_SELF_LOOP,
	OPT_IN,
	OPT_OUT,
};

static const struct option long_opts[] = {
	{ "backend", required_argument, NULL, 'b' },
	{ "device", required_argument, NULL, 'D' },
	{ "capture-device", required_argument, NULL, 'C' },
	{ "self-loop", no_argument, NULL, OPT_SELF_LOOP },
	{ "in", required_argument, NULL, OPT_IN },
	{ "out", required_argument, NULL, OPT_OUT },
	{ "rate", required_argument, NULL, 'r' },
	{ "period", required_argument, NULL, 'P' },
	{ "periods", required_argument, NULL, 'n' },
	{ "priority", required_argument, NULL, 'p' },
	{ "duration", required_argument, NULL, 'd' },
	{ "json", required_argument, NULL, OPT_JSON },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char roundtrip_help[] =
	"usage: audiolat roundtrip [-b jack|alsa] [options]\n"
	"\n"
	"Play a sum of 13 sine tones on an output, capture it back on an input through\n"
	"a loop (a cable from an output jack to an input jack, or --self-loop inside\n"
	"JACK) and measure the total delay of the loop to about 1/1000 of a frame from\n"
	"the tones' phases (multi-tone delay measurement, as jack_delay and\n"
	"jack_iodelay do). Prints the delay every 250 ms on a terminal, then the mean,\n"
	"min, max and stddev of the readings after the signal settled, the nominal\n"
	"buffering the backend reports, the extra latency beyond it (converters,\n"
	"driver), and the jackd -I/-O values that would compensate it.\n"
	"\n"
	"loop:\n"
	"  -b, --backend NAME     jack (default) or alsa\n"
	"  -D, --device NAME      jack: server name (default: $JACK_DEFAULT_SERVER or\n"
	"                         'default'); alsa: playback PCM (default 'default')\n"
	"  -C, --capture-device NAME  alsa: capture PCM (default: the -D device)\n"
	"      --self-loop        jack: connect our output to our own input inside JACK,\n"
	"                         no cable (measures the graph's own delay)\n"
	"      --in PORT          jack: the capture port the cable comes back on\n"
	"                         (default: the first physical capture port)\n"
	"      --out PORT         jack: the playback port to play on (default: the first\n"
	"                         physical playback port)\n"
	"  -r, --rate HZ          alsa: sample rate (default 48000; jack: the server's)\n"
	"  -P, --period FRAMES    alsa: frames per period (default 256)\n"
	"  -n, --periods N        alsa: periods in the buffer, >= 2 (default 2)\n"
	"  -p, --priority PRIO    alsa: SCHED_FIFO priority of the audio thread, 0 =\n"
	"                         SCHED_OTHER (default 70; falls back to 0 if not permitted)\n"
	"run:\n"
	"  -d, --duration TIME    how long (default 5s, at least 2s; ns, us, ms, s, m, h;\n"
	"                         bare = s)\n"
	"      --json FILE|-      write the audiolat.roundtrip/1 JSON document (- = stdout,\n"
	"                         and no text)\n"
	"  -q, --quiet            no live readings and only the summary line\n"
	"  -h, --help             this text\n"
	"\n"
	"Readings count from 1 s after the first valid one. The result is 'no signal'\n"
	"(nothing comes back), or 'unstable' (the tones disagree, or the settled readings\n"
	"spread over more than 1 frame, flip polarity or drop out) instead of a number.\n"
	"\n"
	"exit status: 0 a valid delay, 1 no signal, unstable readings or a runtime\n"
	"error, 2 usage error, 4 backend, server or device unavailable\n";

struct rt_opts {
	const char *backend;
	const struct al_backend_ops *be; /* -b, resolved once */
	const char *device;
	const char *capture_device;
	const char *in_port;
	const char *out_port;
	const char *json_path;
	bool self_loop;
	bool quiet;
	bool help;
	long rate_hz, period_frames, periods, priority;
	const char *alsa_opt; /* the last of -C -r -P -n -p given, for the error */
	int64_t duration_ns;
};

/* "alsa or jack": the backends with a duplex stream, for -b's error. */
static const char *
duplex_backends(void)
{
	static char names[128];
	size_t i, len = 0, n = 0;

	names[0] = '\0';
	for (i = 0; al_backends[i]; i++)
		if (al_backends[i]->duplex && len + 1 < sizeof(names))
			len += (size_t)snprintf(names + len, sizeof(names) - len, "%s%s",
						n++ ? " or " : "", al_backends[i]->name);
	return n ? names : "a backend with a duplex stream";
}

static int
parse_args(int argc, char **argv, struct rt_opts *o)
{
	int c, rc;

	memset(o, 0, sizeof(*o));
	o->backend = "jack";
	o->rate_hz = 48000;
	o->period_frames = 256;
	o->periods = 2;
	o->priority = 70;
	o->duration_ns = DEFAULT_DURATION_NS;
	optind = 1;
	opterr = 0;
	while ((c = getopt_long(argc, argv, ":b:D:C:r:P:n:p:d:qh", long_opts, NULL)) != -1) {
		switch (c) {
		case 'b':
			o->backend = optarg;
			break;
		case 'D':
			o->device = optarg;
			break;
		case 'C':
			o->capture_device = optarg;
			o->alsa_opt = "-C/--capture-device";
			break;
		case OPT_SELF_LOOP:
			o->self_loop = true;
			break;
		case OPT_IN:
			o->in_port = optarg;
			break;
		case OPT_OUT:
			o->out_port = optarg;
			break;
		case 'r':
			if ((rc = cli_opt_long("-r/--rate", optarg, 8000, 768000, &o->rate_hz)))
				return rc;
			o->alsa_opt = "-r/--rate";
			break;
		case 'P':
			if ((rc = cli_opt_long("-P/--period", optarg, 16, 65536, &o->period_frames)))
				return rc;
			o->alsa_opt = "-P/--period";
			break;
		case 'n':
			if ((rc = cli_opt_long("-n/--periods", optarg, 2, 64, &o->periods)))
				return rc;
			o->alsa_opt = "-n/--periods";
			break;
		case 'p':
			if ((rc = cli_opt_long("-p/--priority", optarg, 0, 99, &o->priority)))
				return rc;
			o->alsa_opt = "-p/--priority";
			break;
		case 'd':
			if ((rc = cli_opt_duration("-d/--duration", optarg, AL_NS_PER_SEC,
						   &o->duration_ns)))
				return rc;
			if (o->duration_ns < MIN_DURATION_NS)
				return cli_usage_error(CMD, "-d/--duration: '%s' is too short: at least "
					"2s (readings settle for 1 s after the signal appears)", optarg);
			break;
		case OPT_JSON:
			o->json_path = optarg;
			break;
		case 'q':
			o->quiet = true;
			break;
		case 'h':
			o->help = true;
			return 0;
		case ':':
			return cli_usage_error(CMD, "%s needs an argument", argv[optind - 1]);
		default:
			return cli_usage_error(CMD, "unknown option '%s'", argv[optind - 1]);
		}
	}
	if (optind < argc)
		return cli_usage_error(CMD, "unexpected argument '%s'", argv[optind]);
	o->be = al_backend_find(o->backend);
	/* an unbuilt backend says so (exit 4) */
	if (!o->be || (!o->be->unavailable && !o->be->duplex))
		return cli_usage_error(CMD, "-b/--backend: '%s' is not %s", o->backend,
				       duplex_backends());
	/* a server's client: the server's rate and period, its ports */
	if (al_backend_can(o->be, AL_CAP_CALLBACK)) {
		if (o->alsa_opt)
			return cli_usage_error(CMD, "%s: only with -b alsa (JACK runs at the "
					       "server's rate and period)", o->alsa_opt);
		if (o->self_loop && (o->in_port || o->out_port))
			return cli_usage_error(CMD, "--self-loop: not with --in/--out (the loop "
					       "is inside the client)");
	} else {
		if (o->self_loop)
			return cli_usage_error(CMD, "--self-loop: only with -b jack");
		if (o->in_port || o->out_port)
			return cli_usage_error(CMD, "%s: only with -b jack (use -D and -C)",
					       o->in_port ? "--in" : "--out");
	}
	return 0;
}

static void
process(void *ctx, const float *in, float *out, uint32_t nframes)
{
	al_mtdm_process(ctx, in, out, nframes);
}

static double
to_db(double gain)
{
	/* rounded to 0.1 dB, and never "-0.0" */
	return gain > 0.0 ? round(200.0 * log10(gain)) / 10.0 + 0.0 : -INFINITY;
}

/* no "-0.000" */
static double
z(double v)
{
	return fabs(v) < 0.0005 ? 0.0 : v;
}

static void
status_line(const struct al_mtdm_result *r, uint32_t rate_hz)
{
	if (r->status == AL_MTDM_VALID)
		fprintf(stderr, "\r\033[K%s%11.3f frames %9.3f ms   error %.3f",
			r->inverted ? "Inv " : "    ", r->delay_frames,
			r->delay_frames * 1000.0 / rate_hz, r->error);
	else if (r->status == AL_MTDM_NO_SIGNAL)
		fprintf(stderr, "\r\033[K    no signal (level %.0f dB)", to_db(r->level));
	else
		fprintf(stderr, "\r\033[K    unstable (error %.2f, tone levels differ up to %.1fx)",
			r->error, r->level_spread);
	fflush(stderr);
}

struct run {
	struct rt_opts o;
	const struct al_duplex_ops *ops;
	struct al_duplex_info info;
	struct al_duplex_status st;
	struct al_roundtrip_reading *rd;
	size_t n_rd, cap_rd;
	struct al_roundtrip_summary s;
	int64_t started_at_ns;   /* wall clock */
	int64_t ran_ns;
	bool memory_locked;
	bool interrupted;        /* SIGINT/SIGTERM/SIGHUP ended the run early */
	int stream_err;          /* -errno: the stream died */
	/* derived */
	double nominal_frames;
	double extra_frames;
	long io_frames;          /* jackd -I/-O each; -1: none */
};

static json_t *
num_or_null(bool ok, double v)
{
	return ok && isfinite(v) ? json_real(v) : json_null();
}

static json_t *
str_or_null(const char *s)
{
	return s ? json_string(s) : json_null();
}

static json_t *
build_json(const struct run *x, int argc, char **argv)
{
	const struct al_roundtrip_summary *s = &x->s;
	bool valid = s->status == AL_MTDM_VALID && !x->stream_err;
	bool has = s->n_valid > 0;
	char reason[160];
	double rate = x->info.rate_hz;
	char iso[40];
	json_t *doc = json_object(), *rd = json_array(), *nom = json_object();
	char cmdline[1024];
	size_t i, used;
	int a;

	if (!doc || !rd || !nom) {
		json_decref(doc);
		json_decref(rd);
		json_decref(nom);
		return NULL;
	}
	used = (size_t)snprintf(cmdline, sizeof(cmdline), "audiolat");
	for (a = 0; a < argc && used < sizeof(cmdline); a++)
		used += (size_t)snprintf(cmdline + used, sizeof(cmdline) - used, " %s", argv[a]);
	al_clock_format_iso(x->started_at_ns, iso, sizeof(iso));
	json_object_set_new(doc, "schema", json_string(AL_SCHEMA_ROUNDTRIP));
	json_object_set_new(doc, "tool_version", json_string(AL_VERSION));
	json_object_set_new(doc, "cmdline", json_string(cmdline));
	json_object_set_new(doc, "started_at", json_string(iso));
	json_object_set_new(doc, "duration_ns", json_integer(x->ran_ns));
	json_object_set_new(doc, "interrupted", json_boolean(x->interrupted));
	json_object_set_new(doc, "backend", json_string(x->o.backend));
	json_object_set_new(doc, "device", str_or_null(x->o.device));
	json_object_set_new(doc, "capture_device", str_or_null(x->o.capture_device));
	json_object_set_new(doc, "self_loop", json_boolean(x->o.self_loop));
	json_object_set_new(doc, "in", json_string(x->info.in_name));
	json_object_set_new(doc, "out", json_string(x->info.out_name));
	json_object_set_new(doc, "format", json_string(x->info.format));
	json_object_set_new(doc, "rate", json_integer(x->info.rate_hz));
	json_object_set_new(doc, "period_frames", json_integer(x->info.period_frames));
	json_object_set_new(doc, "periods", x->info.periods ? json_integer(x->info.periods)
							     : json_null());
	json_object_set_new(doc, "linked", json_boolean(x->info.linked));
	json_object_set_new(doc, "realtime", json_boolean(x->st.realtime));
	json_object_set_new(doc, "memory_locked", json_boolean(x->memory_locked));
	if (x->stream_err)
		snprintf(reason, sizeof(reason), "the stream stopped during the run: %s",
			 strerror(-x->stream_err));
	else
		snprintf(reason, sizeof(reason), "%s", al_roundtrip_why_text(s->why));
	json_object_set_new(doc, "status", json_string(x->stream_err ? "error"
						       : al_mtdm_status_name(s->status)));
	json_object_set_new(doc, "valid", json_boolean(valid));
	json_object_set_new(doc, "reason", valid ? json_null() : json_string(reason));
	json_object_set_new(doc, "delay_frames", num_or_null(valid, s->delay_frames));
	json_object_set_new(doc, "delay_ms", num_or_null(valid, s->delay_frames * 1000.0 / rate));
	json_object_set_new(doc, "min_frames", num_or_null(has, s->min_frames));
	json_object_set_new(doc, "max_frames", num_or_null(has, s->max_frames));
	json_object_set_new(doc, "stddev_frames", num_or_null(has, s->stddev_frames));
	json_object_set_new(doc, "error", num_or_null(has, s->worst_error));
	json_object_set_new(doc, "level", num_or_null(has, s->level));
	json_object_set_new(doc, "inverted", json_boolean(s->inverted));
	json_object_set_new(doc, "settled_at_ns", s->settled_at_ns >= 0 ?
				  json_integer(s->settled_at_ns) : json_null());
	json_object_set_new(doc, "settled_readings", json_integer((json_int_t)s->n_settled));
	json_object_set_new(doc, "valid_readings", json_integer((json_int_t)s->n_valid));
	json_object_set_new(nom, "capture_frames", json_integer(x->st.capture_latency_frames));
	json_object_set_new(nom, "playback_frames", json_integer(x->st.playback_latency_frames));
	json_object_set_new(nom, "total_frames", json_real(x->nominal_frames));
	json_object_set_new(doc, "nominal", nom);
	json_object_set_new(doc, "extra_frames", num_or_null(valid, x->extra_frames));
	json_object_set_new(doc, "extra_ms", num_or_null(valid, x->extra_frames * 1000.0 / rate));
	json_object_set_new(doc, "jackd_io_frames", valid && x->io_frames >= 0 ?
				  json_integer(x->io_frames) : json_null());
	json_object_set_new(doc, "xruns", json_integer(x->st.xruns));
	json_object_set_new(doc, "restarts", json_integer(x->st.restarts));
	json_object_set_new(doc, "bad_samples", json_integer(x->n_rd ?
				  (json_int_t)x->rd[x->n_rd - 1].r.bad_frames : 0));
	for (i = 0; i < x->n_rd; i++) {
		const struct al_roundtrip_reading *r = &x->rd[i];
		bool ok = r->r.status == AL_MTDM_VALID;

		json_array_append_new(rd, json_pack("{s:I, s:s, s:o, s:o, s:o, s:b, s:b}",
			"t_ns", (json_int_t)r->t_ns,
			"status", al_mtdm_status_name(r->r.status),
			"delay_frames", num_or_null(ok, r->r.delay_frames),
			"error", num_or_null(r->r.status != AL_MTDM_NO_SIGNAL, r->r.error),
			"level", num_or_null(true, r->r.level),
			"inverted", ok && r->r.inverted,
			"settled", s->settled_at_ns >= 0 && r->t_ns >= s->settled_at_ns));
	}
	json_object_set_new(doc, "readings", rd);
	return doc;
}

static void
print_text(const struct run *x)
{
	const struct al_roundtrip_summary *s = &x->s;
	double rate = x->info.rate_hz;
	bool jack = al_backend_can(x->o.be, AL_CAP_CALLBACK);

	printf("roundtrip: %s, %u Hz, period %u frames", x->o.backend, x->info.rate_hz,
	       x->info.period_frames);
	if (x->info.periods)
		printf(" x %u", x->info.periods);
	printf("%s\n  plays on %s, captures from %s\n", x->o.self_loop ? ", self-loop" : "",
	       x->info.out_name, x->info.in_name);
	if (x->stream_err) {
		printf("  delay        none: the stream stopped during the run (%s)\n",
		       strerror(-x->stream_err));
		return;
	}
	if (s->status != AL_MTDM_VALID) {
		printf("  delay        none: %s: %s\n", s->status == AL_MTDM_NO_SIGNAL ?
		       "no signal" : "unstable", al_roundtrip_why_text(s->why));
		if (s->n_settled)
			printf("  readings     %zu after settling: %zu valid, %zu no signal, "
			       "%zu unstable\n", s->n_settled, s->n_valid, s->n_no_signal,
			       s->n_unstable);
		if (s->n_valid)
			printf("  valid ones   min %.3f, max %.3f frames, stddev %.4f frames\n",
			       s->min_frames, s->max_frames, s->stddev_frames);
		printf("  xruns        %u\n", x->st.xruns);
		return;
	}
	printf("  delay      %11.3f frames %9.3f ms   (mean of %zu readings after settling)\n",
	       s->delay_frames, s->delay_frames * 1000.0 / rate, s->n_valid);
	printf("  min / max  %12.4f / %.4f frames, stddev %.6f frames\n", s->min_frames,
	       s->max_frames, s->stddev_frames);
	printf("  error      %11.4f          (worst tone residual; above %.2f a reading is rejected)\n",
	       s->worst_error, AL_MTDM_MAX_ERROR);
	printf("  level      %11.1f dB       loop gain, polarity %s\n", to_db(s->level),
	       s->inverted ? "INVERTED (the loop flips the signal)" : "normal");
	printf("  nominal    %11.3f frames   (capture %u + playback %u: %s)\n",
	       x->nominal_frames, x->st.capture_latency_frames, x->st.playback_latency_frames,
	       jack ? "the ports' latency as JACK reports it" :
		      "one period read + the rest of the prefilled playback buffer");
	printf("  extra      %11.3f frames %9.3f ms   (beyond the nominal buffering)\n",
	       z(x->extra_frames), z(x->extra_frames * 1000.0 / rate));
	if (x->o.self_loop)
		printf("  self-loop: no converters in the loop; the extra is JACK's one-cycle delay\n"
		       "             of a connection that feeds back into the same client\n");
	else if (x->io_frames >= 0)
		printf("  jackd      -I %ld -O %ld would compensate it (assumes input and output\n"
		       "             share the extra evenly)\n", x->io_frames, x->io_frames);
	else
		printf("  jackd      the reported latency exceeds the measured delay by %.0f frames:\n"
		       "             lower -I/-O if they are set\n", -x->extra_frames);
	printf("  xruns      %u%s\n", x->st.xruns, x->st.restarts ? " (streams restarted)" : "");
}

static void
print_summary_line(const struct run *x)
{
	const struct al_roundtrip_summary *s = &x->s;
	bool valid = s->status == AL_MTDM_VALID && !x->stream_err;

	printf("summary: backend=%s rate=%u period=%u", x->o.backend, x->info.rate_hz,
	       x->info.period_frames);
	if (valid)
		printf(" delay_frames=%.3f delay_ms=%.3f min_frames=%.3f max_frames=%.3f "
		       "stddev_frames=%.4f inverted=%s extra_frames=%.3f", s->delay_frames,
		       s->delay_frames * 1000.0 / x->info.rate_hz, s->min_frames, s->max_frames,
		       s->stddev_frames, s->inverted ? "yes" : "no", z(x->extra_frames));
	printf(" readings=%zu xruns=%u result=%s\n", s->n_settled, x->st.xruns,
	       x->stream_err ? "error" : al_mtdm_status_name(s->status));
}

/* Sample the loop every 250 ms until the end, a signal or a dead stream. */
static int
measure(struct run *x, struct al_mtdm *m, void *priv)
{
	bool json_stdout = x->o.json_path && !strcmp(x->o.json_path, "-");
	bool live = cli_status_wanted(x->o.quiet) && !json_stdout;
	int64_t t0 = al_clock_now_ns(), next = t0 + READING_NS, end = t0 + x->o.duration_ns;
	/* a stream that processed nothing for this long stalls (two periods + a reading) */
	int64_t stall_ns = READING_NS + 2 * al_frames_to_ns(x->info.period_frames, x->info.rate_hz);
	int64_t moved_ns = t0;
	uint64_t frames = 0;

	x->cap_rd = (size_t)(x->o.duration_ns / READING_NS) + 2;
	x->rd = calloc(x->cap_rd, sizeof(*x->rd));
	if (!x->rd)
		return -ENOMEM;
	while (!cli_stop_requested) {
		struct al_roundtrip_reading *r;
		int64_t now;

		al_clock_sleep_until_ns(next < end ? next : end);
		if (cli_stop_requested)
			break;
		now = al_clock_now_ns();
		x->ops->status(priv, &x->st);
		if (x->st.err) {
			x->stream_err = x->st.err;
			break;
		}
		if (x->n_rd < x->cap_rd) {
			r = &x->rd[x->n_rd++];
			r->t_ns = now - t0;
			al_mtdm_read(m, &r->r);
			if (r->r.frames != frames) {
				frames = r->r.frames;
				moved_ns = now;
			} else if (now - moved_ns > stall_ns) {
				r->r.status = AL_MTDM_NO_SIGNAL; /* old news */
			}
			if (live)
				status_line(&r->r, x->info.rate_hz);
		}
		if (now >= end)
			break;
		while (next <= now)
			next += READING_NS;
	}
	if (live)
		fprintf(stderr, "\r\033[K");
	x->interrupted = cli_stop_requested;
	x->ran_ns = al_clock_now_ns() - t0;
	return 0;
}

int
cmd_roundtrip(int argc, char **argv)
{
	struct al_duplex_config cfg;
	struct run x;
	struct al_mtdm *m = NULL;
	struct al_rt rt;
	void *priv = NULL;
	char why[256] = "";
	bool json_stdout, opened = false, started = false;
	int rc, exit_code = AL_EXIT_OK;

	memset(&x, 0, sizeof(x));
	rc = parse_args(argc, argv, &x.o);
	if (rc)
		return rc;
	if (x.o.help) {
		fputs(roundtrip_help, stdout);
		return AL_EXIT_OK;
	}
	json_stdout = x.o.json_path && !strcmp(x.o.json_path, "-");
	if (x.o.be->unavailable)
		return cli_cmd_error(AL_EXIT_UNAVAILABLE, CMD, "%s: %s", x.o.backend,
				     x.o.be->unavailable);
	x.ops = x.o.be->duplex;

	memset(&cfg, 0, sizeof(cfg));
	cfg.device = x.o.device;
	cfg.capture_device = x.o.capture_device;
	cfg.in_port = x.o.in_port;
	cfg.out_port = x.o.out_port;
	cfg.self_loop = x.o.self_loop;
	cfg.rate_hz = (uint32_t)x.o.rate_hz;
	cfg.period_frames = (uint32_t)x.o.period_frames;
	cfg.periods = (uint32_t)x.o.periods;
	cfg.priority = (int)x.o.priority;

	al_rt_init(&rt);
	priv = calloc(1, x.ops->priv_size);
	m = calloc(1, sizeof(*m));
	if (!priv || !m) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "%s", strerror(ENOMEM));
		goto out;
	}
	rc = x.ops->open(priv, &cfg, &x.info, why, sizeof(why));
	if (rc) {
		exit_code = cli_fault(CMD, rc, x.o.backend, why, NULL);
		goto out;
	}
	opened = true;
	/* init writes the whole estimator (its sine table): prefaulted */
	if (al_mtdm_init(m, x.info.rate_hz)) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "%s: unusable rate %u Hz",
					  x.o.backend, x.info.rate_hz);
		goto out;
	}
	x.memory_locked = al_rt_lock_memory(&rt) == 0;
	cli_catch_stop_signals();
	x.started_at_ns = al_clock_realtime_ns();
	rc = x.ops->start(priv, process, m, why, sizeof(why));
	if (rc) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "%s: %s", x.o.backend,
					  *why ? why : strerror(-rc));
		goto out;
	}
	started = true;
	rc = measure(&x, m, priv);
	if (rc) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "%s", strerror(-rc));
		goto out;
	}
	/* the last status: JACK's latencies are settled by now */
	if (!x.stream_err)
		x.ops->status(priv, &x.st);
	x.ops->stop(priv);
	started = false;

	al_roundtrip_summarize(x.rd, x.n_rd, &x.s);
	x.nominal_frames = (double)x.st.capture_latency_frames + x.st.playback_latency_frames;
	x.extra_frames = x.s.delay_frames - x.nominal_frames;
	/* the extra rounded to whole frames, half each way (assumes symmetry) */
	x.io_frames = x.extra_frames > -0.5 ? lround(x.extra_frames) / 2 : -1;

	if (!json_stdout) {
		if (!x.o.quiet)
			print_text(&x);
		print_summary_line(&x);
		fflush(stdout);
	}
	if (x.o.json_path) {
		json_t *doc = build_json(&x, argc, argv);
		int wrc = doc ? al_doc_write(x.o.json_path, doc, 0) : -ENOMEM;

		json_decref(doc);
		if (wrc)
			exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "--json %s: %s",
						  x.o.json_path, strerror(-wrc));
	}
	if (x.stream_err) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "%s: the stream stopped during the "
					  "run (%s)%s", x.o.backend, strerror(-x.stream_err),
					  al_backend_can(x.o.be, AL_CAP_CALLBACK)
						  ? ": the JACK server went away" :
					  "");
	} else if (x.s.status == AL_MTDM_NO_SIGNAL) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "no signal: %s; check the loop "
					  "(%s -> %s)", al_roundtrip_why_text(x.s.why),
					  x.info.out_name, x.info.in_name);
	} else if (x.s.status != AL_MTDM_VALID) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "unstable: %s",
					  al_roundtrip_why_text(x.s.why));
	}
out:
	if (started)
		x.ops->stop(priv);
	if (opened)
		x.ops->close(priv);
	al_rt_restore(&rt);
	free(x.rd);
	free(m);
	free(priv);
	return exit_code;
}
