/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat roundtrip's options and --help (roundtrip-opts.h). */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "common-opts.h"
#include "roundtrip-opts.h"

enum { OPT_FIXED = 256 }; /* the device's own rate, period ...: a backend without a server */

#define TO(f_) AL_OPT_TO(struct cli_roundtrip_opts, f_)

const struct al_optdef cli_roundtrip_optdefs[] = {
	AL_OPT_TEXT("usage: audiolat roundtrip [-b jack|pipewire|alsa] [options]\n"
		    "\n"
		    "Play a sum of 13 sine tones on an output, capture it back on an input through\n"
		    "a loop (a cable from an output jack to an input jack, or --self-loop inside\n"
		    "JACK or PipeWire) and measure the total delay of the loop to about 1/1000 of a\n"
		    "frame from the tones' phases (multi-tone delay measurement, as jack_delay and\n"
		    "jack_iodelay do). Prints the delay every 250 ms on a terminal, then the mean,\n"
		    "min, max and stddev of the readings after the signal settled, the nominal\n"
		    "buffering the backend reports, the extra latency beyond it (converters,\n"
		    "driver), and the jackd -I/-O values that would compensate it.\n"
		    "\n"
		    "loop:\n"),
	{ .name = "backend", .short_name = 'b', .type = AL_OPT_SPEC, .arg = "NAME", TO(backend),
	  .help = "jack (default), pipewire or alsa" },
	{ .name = "device", .short_name = 'D', .type = AL_OPT_SPEC, .arg = "NAME",
	  TO(ro.cfg.device),
	  .help = "jack: server name (default: $JACK_DEFAULT_SERVER or\n"
		  "'default'); pipewire: the node the cable goes through\n"
		  "(plays into it, captures from its monitor or itself;\n"
		  "default: the default sink); alsa: playback PCM\n"
		  "(default 'default')" },
	{ .id = OPT_FIXED, .name = "capture-device", .short_name = 'C', .type = AL_OPT_SPEC,
	  .arg = "NAME", TO(ro.cfg.capture_device),
	  .help = "alsa: capture PCM (default: the -D device)" },
	{ .name = "self-loop", .type = AL_OPT_FLAG, TO(ro.cfg.self_loop),
	  .help = "jack, pipewire: connect our output to our own input\n"
		  "inside the graph, no cable (the graph's own delay)" },
	{ .name = "in", .type = AL_OPT_SPEC, .arg = "PORT", TO(ro.cfg.in_port),
	  .help = "jack, pipewire: the port the cable comes back on\n"
		  "(jack: the first physical capture port; pipewire:\n"
		  "NODE:PORT as pw-link names it, default -D's first)" },
	{ .name = "out", .type = AL_OPT_SPEC, .arg = "PORT", TO(ro.cfg.out_port),
	  .help = "jack, pipewire: the port to play on (jack: the first\n"
		  "physical playback port; pipewire: -D's first input)" },
	{ .id = OPT_FIXED, .name = "rate", .short_name = 'r', .type = AL_OPT_INT, .arg = "HZ",
	  .min = 8000, .max = 768000, TO(ro.cfg.rate_hz),
	  .help = "alsa: sample rate (default 48000; a server: its own)" },
	{ .id = OPT_FIXED, .name = "period", .short_name = 'P', .type = AL_OPT_INT, .arg = "FRAMES",
	  .min = 16, .max = 65536, TO(ro.cfg.period_frames),
	  .help = "alsa: frames per period (default 256)" },
	{ .id = OPT_FIXED, .name = "periods", .short_name = 'n', .type = AL_OPT_INT, .arg = "N",
	  .min = 2, .max = 64, TO(ro.cfg.periods),
	  .help = "alsa: periods in the buffer, >= 2 (default 2)" },
	CLI_SHARED_AS(CLI_OPT_PRIORITY, NULL,
		      "alsa: SCHED_FIFO priority of the audio thread, 0 =\n"
		      "SCHED_OTHER (default 70; falls back to 0 if not permitted)",
		      TO(ro.cfg.priority)),
	AL_OPT_TEXT("run:\n"),
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL,
		      "how long (default 5s, at least 2s; ns, us, ms, s, m, h;\n"
		      "bare = s)", TO(ro.duration_ns)),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL,
		      "write the audiolat.roundtrip/1 JSON document (- = stdout,\n"
		      "and no text)", TO(json_path)),
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "no live readings and only the summary line", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "Readings count from 1 s after the first valid one. The result is 'no signal'\n"
		    "(nothing comes back), or 'unstable' (the tones disagree, or the settled readings\n"
		    "spread over more than 1 frame, flip polarity or drop out) instead of a number.\n"
		    "\n"
		    "exit status: 0 a valid delay, 1 no signal, unstable readings or a runtime\n"
		    "error, 2 usage error, 4 backend, server or device unavailable\n"),
	AL_OPT_END,
};

/* What the table cannot store itself: which device option came last, -d's floor. */
static int
rt_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct cli_roundtrip_opts *o = ctx;

	switch (h->id) {
	case OPT_FIXED:
	case CLI_OPT_PRIORITY:
		al_opt_label(h->def, o->fixed_opt, sizeof(o->fixed_opt));
		break;
	case CLI_OPT_DURATION:
		if (h->value < AL_ROUNDTRIP_MIN_NS)
			return snprintf(err, err_size, "-d/--duration: '%s' is too short: at least "
					"2s (readings settle for 1 s after the signal appears)", h->arg),
			       -EINVAL;
		break;
	}
	return 0;
}

int
cli_roundtrip_parse(int argc, char **argv, struct cli_roundtrip_opts *o, char *err, size_t err_size)
{
	int first, rc;

	memset(o, 0, sizeof(*o));
	o->backend = "jack";
	al_roundtrip_opts_init(&o->ro);
	rc = al_opts_parse(cli_roundtrip_optdefs, argc, argv, rt_set, o, &first, NULL, err,
			   err_size);
	if (rc || o->help)
		return rc;
	if (first < argc)
		return snprintf(err, err_size, "unexpected argument '%s'", argv[first]), -EINVAL;
	rc = al_backend_check_duplex(o->backend, &o->ro.cfg, o->fixed_opt[0] ? o->fixed_opt : NULL,
				     &o->be, err, err_size);
	if (!rc)
		o->ro.ops = o->be->duplex;
	return rc;
}
