/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat.roundtrip/1 from a result (report/roundtrip-doc.h), no server:
 * a valid JACK-like loop, a PipeWire one (no nominal latency: null, never
 * 0), a stream that stopped, and the line that says why there is no delay;
 * the text, the summary and that line from the document, byte for byte,
 * case by case.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "doc/doc.h"
#include "report/roundtrip-doc.h"

/* A settled, valid loop of 256 frames at 48 kHz, two readings. */
static void
fill(struct al_roundtrip_result *x, const char *backend, const char *server, bool known)
{
	static struct al_roundtrip_reading rd[2];

	memset(x, 0, sizeof(*x));
	memset(rd, 0, sizeof(rd));
	snprintf(x->backend, sizeof(x->backend), "%s", backend);
	snprintf(x->uuid, sizeof(x->uuid), "0b7f3c1e-5a2d-4f6e-9c3b-2d1e8a7f6c54");
	snprintf(x->cmdline, sizeof(x->cmdline), "audiolat roundtrip --self-loop");
	x->self_loop = true;
	x->info.rate_hz = 48000;
	x->info.period_frames = 256;
	x->info.latency_known = known;
	x->info.jackd_io = known;
	snprintf(x->info.server, sizeof(x->info.server), "%s", server);
	snprintf(x->info.in_name, sizeof(x->info.in_name), "audiolat-roundtrip:out");
	snprintf(x->info.out_name, sizeof(x->info.out_name), "audiolat-roundtrip:in");
	snprintf(x->info.format, sizeof(x->info.format), "float");
	for (int i = 0; i < 2; i++) {
		rd[i].t_ns = (i + 1) * 250000000LL;
		rd[i].r.status = AL_MTDM_VALID;
		rd[i].r.delay_frames = 256.0;
		rd[i].r.level = 1.0;
	}
	x->rd = rd;
	x->n_rd = 2;
	x->s.status = AL_MTDM_VALID;
	x->s.settled_at_ns = 250000000LL;
	x->s.n_settled = x->s.n_valid = 2;
	x->s.delay_frames = x->s.min_frames = x->s.max_frames = 256.0;
	x->s.level = 1.0;
	x->nominal_frames = known ? 0.0 : NAN;
	x->extra_frames = 256.0 - x->nominal_frames;
	x->io_frames = known ? 128 : -1;
}

static void
jack_loop(void **state)
{
	struct al_roundtrip_result x;
	json_t *d;
	char why[200];

	(void)state;
	fill(&x, "jack", "JACK", true);
	d = al_report_roundtrip_json(&x);
	assert_non_null(d);
	assert_string_equal(al_doc_str(d, "schema", ""), AL_SCHEMA_ROUNDTRIP);
	assert_string_equal(al_doc_str(d, "uuid", ""), "0b7f3c1e-5a2d-4f6e-9c3b-2d1e8a7f6c54");
	assert_true(al_doc_bool(d, "valid", false));
	assert_true(al_doc_real(d, "delay_frames", 0) == 256.0);
	assert_true(fabs(al_doc_real(d, "delay_ms", 0) - 5.3333333) < 1e-6);
	assert_int_equal(al_doc_int(d, "nominal.capture_frames", -1), 0);
	assert_true(json_is_real(al_doc_get(d, "nominal.total_frames")));
	assert_true(al_doc_real(d, "extra_frames", 0) == 256.0);
	assert_int_equal(al_doc_int(d, "jackd_io_frames", -1), 128);
	assert_true(json_is_null(al_doc_get(d, "reason")));
	assert_int_equal(json_array_size(json_object_get(d, "readings")), 2);
	assert_string_equal(al_doc_str(d, "server", ""), "JACK");
	assert_true(json_is_null(al_doc_get(d, "stream_errno")));
	assert_null(al_report_roundtrip_failure(d, why, sizeof(why)));
	json_decref(d);
}

/* PipeWire tells our ports no latency: nominal and extra were not measured. */
static void
pipewire_loop(void **state)
{
	struct al_roundtrip_result x;
	json_t *d;
	char buf[4096];
	FILE *f;

	(void)state;
	fill(&x, "pipewire", "PipeWire", false);
	d = al_report_roundtrip_json(&x);
	assert_non_null(d);
	assert_true(json_is_null(al_doc_get(d, "nominal.capture_frames")));
	assert_true(json_is_null(al_doc_get(d, "nominal.playback_frames")));
	assert_true(json_is_null(al_doc_get(d, "nominal.total_frames")));
	assert_true(json_is_null(al_doc_get(d, "extra_frames")));
	assert_true(json_is_null(al_doc_get(d, "extra_ms")));
	assert_true(json_is_null(al_doc_get(d, "jackd_io_frames")));
	assert_true(al_doc_real(d, "delay_frames", 0) == 256.0);
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	al_report_roundtrip_text(f, d);
	al_report_roundtrip_summary(f, d);
	fclose(f);
	json_decref(d);
	assert_non_null(strstr(buf, "nominal    not reported (PipeWire told our ports no latency)"));
	assert_non_null(strstr(buf, "the delay is PipeWire's one-cycle delay"));
	assert_non_null(strstr(buf, " extra_frames=- "));
	assert_null(strstr(buf, "nan"));
	assert_null(strstr(buf, "jackd"));
}

/* The stream stopped: status error, the delay null, one line that says why. */
static void
stopped(void **state)
{
	struct al_roundtrip_result x;
	json_t *d;
	char why[200];

	(void)state;
	fill(&x, "pipewire", "PipeWire", false);
	x.stream_err = -ENOLINK;
	d = al_report_roundtrip_json(&x);
	assert_string_equal(al_doc_str(d, "status", ""), "error");
	assert_false(al_doc_bool(d, "valid", true));
	assert_true(json_is_null(al_doc_get(d, "delay_frames")));
	assert_non_null(strstr(al_doc_str(d, "reason", ""), "the stream stopped during the run"));
	assert_int_equal(al_doc_int(d, "stream_errno", 0), ENOLINK);
	assert_non_null(al_report_roundtrip_failure(d, why, sizeof(why)));
	assert_non_null(strstr(why, "a link of the loop went away"));
	json_decref(d);
	x.stream_err = -ENOTCONN;
	d = al_report_roundtrip_json(&x);
	al_report_roundtrip_failure(d, why, sizeof(why));
	assert_non_null(strstr(why, "the PipeWire server went away"));
	json_decref(d);
}

/* ---- the text, the summary and the failure line, case by case ---- */

/* Not a self-loop: our output plays on out, our input captures from in. */
static void
cable(struct al_roundtrip_result *x, const char *out, const char *in)
{
	x->self_loop = false;
	snprintf(x->info.out_name, sizeof(x->info.out_name), "%s", out);
	snprintf(x->info.in_name, sizeof(x->info.in_name), "%s", in);
}

/* A JACK loop through a card: nominal 768, extra 3.2345 (-I/-O 1 each). */
static void
c_jack(struct al_roundtrip_result *x)
{
	fill(x, "jack", "JACK", true);
	cable(x, "system:playback_1", "system:capture_1");
	x->st.capture_latency_frames = 256;
	x->st.playback_latency_frames = 512;
	x->s.delay_frames = 771.2345;
	x->s.min_frames = 771.23441;
	x->s.max_frames = 771.23462;
	x->s.stddev_frames = 0.0000123;
	x->s.worst_error = 0.0123;
	x->s.level = 0.5;
	x->st.xruns = 2;
	x->nominal_frames = 768.0;
	x->extra_frames = x->s.delay_frames - x->nominal_frames;
	x->io_frames = 1;
}

static void
c_jack_self_loop(struct al_roundtrip_result *x)
{
	fill(x, "jack", "JACK", true);
}

/* The reported latency is above the delay: no -I/-O. */
static void
c_jack_negative(struct al_roundtrip_result *x)
{
	c_jack(x);
	x->nominal_frames = 781.6345;
	x->st.playback_latency_frames = 525;
	x->extra_frames = x->s.delay_frames - x->nominal_frames;
	x->io_frames = -1;
}

/* An extra of -0.0002 frames prints 0.000, never -0.000. */
static void
c_jack_tiny(struct al_roundtrip_result *x)
{
	c_jack(x);
	x->s.delay_frames = 767.9998;
	x->extra_frames = x->s.delay_frames - x->nominal_frames;
	x->io_frames = 0;
}

/* ALSA: no server, 3 periods, an xrun that restarted the streams, inverted. */
static void
c_alsa(struct al_roundtrip_result *x)
{
	c_jack(x);
	snprintf(x->backend, sizeof(x->backend), "alsa");
	x->info.server[0] = '\0';
	cable(x, "hw:0", "hw:0");
	snprintf(x->info.format, sizeof(x->info.format), "S32_LE/S32_LE");
	x->info.periods = 3;
	x->info.linked = true;
	x->st.xruns = 1;
	x->st.restarts = 1;
	x->s.inverted = true;
}

/* A self-loop with a known latency and no server name: "JACK"'s cycle. */
static void
c_alsa_self_loop(struct al_roundtrip_result *x)
{
	fill(x, "alsa", "", true);
	x->info.periods = 2;
}

static void
c_pipewire_self_loop(struct al_roundtrip_result *x)
{
	fill(x, "pipewire", "PipeWire", false);
}

static void
c_pipewire(struct al_roundtrip_result *x)
{
	fill(x, "pipewire", "PipeWire", false);
	cable(x, "null-sink:playback_FL", "null-sink:monitor_FL");
}

/* No latency known and no server name: the backend's name instead. */
static void
c_unknown_no_server(struct al_roundtrip_result *x)
{
	fill(x, "sim", "", false);
}

/* No signal from the start: no reading ever valid, no xrun. */
static void
c_silent(struct al_roundtrip_result *x)
{
	c_jack(x);
	x->s.settled_at_ns = -1;
	x->s.level = 0.0;
	x->st.xruns = 0;
}

/* Settled readings 6.5 frames apart. */
static void
c_spread(struct al_roundtrip_result *x)
{
	c_jack(x);
	x->s.min_frames = 250.0;
	x->s.max_frames = 256.5;
	x->s.stddev_frames = 2.71828;
}

/*
 * How a case's run ended, over what its setup made: the stream's error,
 * and a verdict other than valid with its counts (0 and VALID leave them).
 */
struct ending {
	int stream_err;
	enum al_mtdm_status status;
	enum al_roundtrip_why why;
	size_t n_settled, n_valid, n_no_signal, n_unstable;
};

static void
end_as(struct al_roundtrip_result *x, const struct ending *e)
{
	x->stream_err = e->stream_err;
	if (e->status == AL_MTDM_VALID)
		return;
	x->s.status = e->status;
	x->s.why = e->why;
	x->s.n_settled = e->n_settled;
	x->s.n_valid = e->n_valid;
	x->s.n_no_signal = e->n_no_signal;
	x->s.n_unstable = e->n_unstable;
}

/* What the text, the summary and the failure line (NULL: none) of a case read. */
struct text_case {
	const char *name;
	void (*setup)(struct al_roundtrip_result *x);
	struct ending end;
	const char *text, *summary, *failure;
};

static const struct text_case text_cases[] = {
	{ "jack", c_jack, { 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay          771.235 frames    16.067 ms   (mean of 2 readings after settling)\n"
	  "  min / max      771.2344 / 771.2346 frames, stddev 0.000012 frames\n"
	  "  error           0.0123          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level             -6.0 dB       loop gain, polarity normal\n"
	  "  nominal        768.000 frames   (capture 256 + playback 512: the ports' latency as "
	  "JACK reports it)\n"
	  "  extra            3.235 frames     0.067 ms   (beyond the nominal buffering)\n"
	  "  jackd      -I 1 -O 1 would compensate it (assumes input and output\n"
	  "             share the extra evenly)\n"
	  "  xruns      2\n",
	  "summary: backend=jack rate=48000 period=256 delay_frames=771.235 delay_ms=16.067 "
	  "min_frames=771.234 max_frames=771.235 stddev_frames=0.0000 inverted=no "
	  "extra_frames=3.235 readings=2 xruns=2 result=valid\n",
	  NULL },
	{ "jack-self-loop", c_jack_self_loop, { 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames, self-loop\n"
	  "  plays on audiolat-roundtrip:in, captures from audiolat-roundtrip:out\n"
	  "  delay          256.000 frames     5.333 ms   (mean of 2 readings after settling)\n"
	  "  min / max      256.0000 / 256.0000 frames, stddev 0.000000 frames\n"
	  "  error           0.0000          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level              0.0 dB       loop gain, polarity normal\n"
	  "  nominal          0.000 frames   (capture 0 + playback 0: the ports' latency as JACK "
	  "reports it)\n"
	  "  extra          256.000 frames     5.333 ms   (beyond the nominal buffering)\n"
	  "  self-loop: no converters in the loop; the extra is JACK's one-cycle delay\n"
	  "             of a connection that feeds back into the same client\n"
	  "  xruns      0\n",
	  "summary: backend=jack rate=48000 period=256 delay_frames=256.000 delay_ms=5.333 "
	  "min_frames=256.000 max_frames=256.000 stddev_frames=0.0000 inverted=no "
	  "extra_frames=256.000 readings=2 xruns=0 result=valid\n",
	  NULL },
	{ "jack-negative", c_jack_negative, { 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay          771.235 frames    16.067 ms   (mean of 2 readings after settling)\n"
	  "  min / max      771.2344 / 771.2346 frames, stddev 0.000012 frames\n"
	  "  error           0.0123          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level             -6.0 dB       loop gain, polarity normal\n"
	  "  nominal        781.635 frames   (capture 256 + playback 525: the ports' latency as "
	  "JACK reports it)\n"
	  "  extra          -10.400 frames    -0.217 ms   (beyond the nominal buffering)\n"
	  "  jackd      the reported latency exceeds the measured delay by 10 frames:\n"
	  "             lower -I/-O if they are set\n"
	  "  xruns      2\n",
	  "summary: backend=jack rate=48000 period=256 delay_frames=771.235 delay_ms=16.067 "
	  "min_frames=771.234 max_frames=771.235 stddev_frames=0.0000 inverted=no "
	  "extra_frames=-10.400 readings=2 xruns=2 result=valid\n",
	  NULL },
	{ "jack-tiny", c_jack_tiny, { 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay          768.000 frames    16.000 ms   (mean of 2 readings after settling)\n"
	  "  min / max      771.2344 / 771.2346 frames, stddev 0.000012 frames\n"
	  "  error           0.0123          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level             -6.0 dB       loop gain, polarity normal\n"
	  "  nominal        768.000 frames   (capture 256 + playback 512: the ports' latency as "
	  "JACK reports it)\n"
	  "  extra            0.000 frames     0.000 ms   (beyond the nominal buffering)\n"
	  "  jackd      -I 0 -O 0 would compensate it (assumes input and output\n"
	  "             share the extra evenly)\n"
	  "  xruns      2\n",
	  "summary: backend=jack rate=48000 period=256 delay_frames=768.000 delay_ms=16.000 "
	  "min_frames=771.234 max_frames=771.235 stddev_frames=0.0000 inverted=no "
	  "extra_frames=0.000 readings=2 xruns=2 result=valid\n",
	  NULL },
	{ "alsa", c_alsa, { 0 },
	  "roundtrip: alsa, 48000 Hz, period 256 frames x 3\n"
	  "  plays on hw:0, captures from hw:0\n"
	  "  delay          771.235 frames    16.067 ms   (mean of 2 readings after settling)\n"
	  "  min / max      771.2344 / 771.2346 frames, stddev 0.000012 frames\n"
	  "  error           0.0123          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level             -6.0 dB       loop gain, polarity INVERTED (the loop flips the "
	  "signal)\n"
	  "  nominal        768.000 frames   (capture 256 + playback 512: one period read + the "
	  "rest of the prefilled playback buffer)\n"
	  "  extra            3.235 frames     0.067 ms   (beyond the nominal buffering)\n"
	  "  jackd      -I 1 -O 1 would compensate it (assumes input and output\n"
	  "             share the extra evenly)\n"
	  "  xruns      1 (streams restarted)\n",
	  "summary: backend=alsa rate=48000 period=256 delay_frames=771.235 delay_ms=16.067 "
	  "min_frames=771.234 max_frames=771.235 stddev_frames=0.0000 inverted=yes "
	  "extra_frames=3.235 readings=2 xruns=1 result=valid\n",
	  NULL },
	{ "alsa-self-loop", c_alsa_self_loop, { 0 },
	  "roundtrip: alsa, 48000 Hz, period 256 frames x 2, self-loop\n"
	  "  plays on audiolat-roundtrip:in, captures from audiolat-roundtrip:out\n"
	  "  delay          256.000 frames     5.333 ms   (mean of 2 readings after settling)\n"
	  "  min / max      256.0000 / 256.0000 frames, stddev 0.000000 frames\n"
	  "  error           0.0000          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level              0.0 dB       loop gain, polarity normal\n"
	  "  nominal          0.000 frames   (capture 0 + playback 0: one period read + the rest "
	  "of the prefilled playback buffer)\n"
	  "  extra          256.000 frames     5.333 ms   (beyond the nominal buffering)\n"
	  "  self-loop: no converters in the loop; the extra is JACK's one-cycle delay\n"
	  "             of a connection that feeds back into the same client\n"
	  "  xruns      0\n",
	  "summary: backend=alsa rate=48000 period=256 delay_frames=256.000 delay_ms=5.333 "
	  "min_frames=256.000 max_frames=256.000 stddev_frames=0.0000 inverted=no "
	  "extra_frames=256.000 readings=2 xruns=0 result=valid\n",
	  NULL },
	{ "pipewire-self-loop", c_pipewire_self_loop, { 0 },
	  "roundtrip: pipewire, 48000 Hz, period 256 frames, self-loop\n"
	  "  plays on audiolat-roundtrip:in, captures from audiolat-roundtrip:out\n"
	  "  delay          256.000 frames     5.333 ms   (mean of 2 readings after settling)\n"
	  "  min / max      256.0000 / 256.0000 frames, stddev 0.000000 frames\n"
	  "  error           0.0000          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level              0.0 dB       loop gain, polarity normal\n"
	  "  nominal    not reported (PipeWire told our ports no latency), no extra\n"
	  "  self-loop: no converters in the loop; the delay is PipeWire's one-cycle delay\n"
	  "             of a connection that feeds back into the same client\n"
	  "  xruns      0\n",
	  "summary: backend=pipewire rate=48000 period=256 delay_frames=256.000 delay_ms=5.333 "
	  "min_frames=256.000 max_frames=256.000 stddev_frames=0.0000 inverted=no extra_frames=- "
	  "readings=2 xruns=0 result=valid\n",
	  NULL },
	{ "pipewire", c_pipewire, { 0 },
	  "roundtrip: pipewire, 48000 Hz, period 256 frames\n"
	  "  plays on null-sink:playback_FL, captures from null-sink:monitor_FL\n"
	  "  delay          256.000 frames     5.333 ms   (mean of 2 readings after settling)\n"
	  "  min / max      256.0000 / 256.0000 frames, stddev 0.000000 frames\n"
	  "  error           0.0000          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level              0.0 dB       loop gain, polarity normal\n"
	  "  nominal    not reported (PipeWire told our ports no latency), no extra\n"
	  "  xruns      0\n",
	  "summary: backend=pipewire rate=48000 period=256 delay_frames=256.000 delay_ms=5.333 "
	  "min_frames=256.000 max_frames=256.000 stddev_frames=0.0000 inverted=no extra_frames=- "
	  "readings=2 xruns=0 result=valid\n",
	  NULL },
	{ "unknown-no-server", c_unknown_no_server, { 0 },
	  "roundtrip: sim, 48000 Hz, period 256 frames, self-loop\n"
	  "  plays on audiolat-roundtrip:in, captures from audiolat-roundtrip:out\n"
	  "  delay          256.000 frames     5.333 ms   (mean of 2 readings after settling)\n"
	  "  min / max      256.0000 / 256.0000 frames, stddev 0.000000 frames\n"
	  "  error           0.0000          (worst tone residual; above 0.25 a reading is "
	  "rejected)\n"
	  "  level              0.0 dB       loop gain, polarity normal\n"
	  "  nominal    not reported (sim told our ports no latency), no extra\n"
	  "  self-loop: no converters in the loop; the delay is sim's one-cycle delay\n"
	  "             of a connection that feeds back into the same client\n"
	  "  xruns      0\n",
	  "summary: backend=sim rate=48000 period=256 delay_frames=256.000 delay_ms=5.333 "
	  "min_frames=256.000 max_frames=256.000 stddev_frames=0.0000 inverted=no extra_frames=- "
	  "readings=2 xruns=0 result=valid\n",
	  NULL },
	{ "no-signal-never", c_silent,
	  { 0, AL_MTDM_NO_SIGNAL, AL_ROUNDTRIP_NEVER_VALID, 0, 0, 0, 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay        none: no signal: no valid reading in the whole run\n"
	  "  xruns        0\n",
	  "summary: backend=jack rate=48000 period=256 readings=0 xruns=0 result=no-signal\n",
	  "no signal: no valid reading in the whole run; check the loop (system:playback_1 -> "
	  "system:capture_1)" },
	{ "no-signal-lost", c_jack, { 0, AL_MTDM_NO_SIGNAL, AL_ROUNDTRIP_LOST, 4, 0, 4, 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay        none: no signal: some readings after settling were not valid\n"
	  "  readings     4 after settling: 0 valid, 4 no signal, 0 unstable\n"
	  "  xruns        2\n",
	  "summary: backend=jack rate=48000 period=256 readings=4 xruns=2 result=no-signal\n",
	  "no signal: some readings after settling were not valid; check the loop "
	  "(system:playback_1 -> system:capture_1)" },
	{ "unstable-spread", c_spread,
	  { 0, AL_MTDM_UNSTABLE, AL_ROUNDTRIP_SPREAD, 8, 8, 0, 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay        none: unstable: the readings after settling spread over more than 1 "
	  "frame\n"
	  "  readings     8 after settling: 8 valid, 0 no signal, 0 unstable\n"
	  "  valid ones   min 250.000, max 256.500 frames, stddev 2.7183 frames\n"
	  "  xruns        2\n",
	  "summary: backend=jack rate=48000 period=256 readings=8 xruns=2 result=unstable\n",
	  "unstable: the readings after settling spread over more than 1 frame" },
	{ "unstable-lost", c_jack, { 0, AL_MTDM_UNSTABLE, AL_ROUNDTRIP_LOST, 6, 3, 1, 2 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay        none: unstable: some readings after settling were not valid\n"
	  "  readings     6 after settling: 3 valid, 1 no signal, 2 unstable\n"
	  "  valid ones   min 771.234, max 771.235 frames, stddev 0.0000 frames\n"
	  "  xruns        2\n",
	  "summary: backend=jack rate=48000 period=256 readings=6 xruns=2 result=unstable\n",
	  "unstable: some readings after settling were not valid" },
	{ "not-settled", c_jack,
	  { 0, AL_MTDM_UNSTABLE, AL_ROUNDTRIP_NOT_SETTLED, 0, 0, 0, 0 },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay        none: unstable: the run ended before the readings settled (1 s after "
	  "the first valid one)\n"
	  "  xruns        2\n",
	  "summary: backend=jack rate=48000 period=256 readings=0 xruns=2 result=unstable\n",
	  "unstable: the run ended before the readings settled (1 s after the first valid one)" },
	{ "stopped-link", c_pipewire, { -ENOLINK },
	  "roundtrip: pipewire, 48000 Hz, period 256 frames\n"
	  "  plays on null-sink:playback_FL, captures from null-sink:monitor_FL\n"
	  "  delay        none: the stream stopped during the run (Link has been severed)\n",
	  "summary: backend=pipewire rate=48000 period=256 readings=2 xruns=0 result=error\n",
	  "pipewire: the stream stopped during the run (Link has been severed): a link of the "
	  "loop went away" },
	{ "stopped-server", c_jack, { -ENOTCONN },
	  "roundtrip: jack, 48000 Hz, period 256 frames\n"
	  "  plays on system:playback_1, captures from system:capture_1\n"
	  "  delay        none: the stream stopped during the run (Transport endpoint is not "
	  "connected)\n",
	  "summary: backend=jack rate=48000 period=256 readings=2 xruns=2 result=error\n",
	  "jack: the stream stopped during the run (Transport endpoint is not connected): the "
	  "JACK server went away" },
	{ "stopped-alsa", c_alsa, { -EIO },
	  "roundtrip: alsa, 48000 Hz, period 256 frames x 3\n"
	  "  plays on hw:0, captures from hw:0\n"
	  "  delay        none: the stream stopped during the run (Input/output error)\n",
	  "summary: backend=alsa rate=48000 period=256 readings=2 xruns=1 result=error\n",
	  "alsa: the stream stopped during the run (Input/output error)" },
};

/* got, what c rendered as what ("text", ...), is want (NULL: none); else c fails, named. */
static void
expect(const struct text_case *c, const char *what, const char *got, const char *want)
{
	if (got && want ? !strcmp(got, want) : got == want)
		return;
	print_error("%s: the %s differs\n", c->name, what);
	assert_string_equal(got ? got : "(none)", want ? want : "(none)");
}

/* What render printed, NUL-terminated (free it). */
static char *
render(void (*fn)(FILE *, const json_t *), const json_t *d)
{
	char *buf = NULL;
	size_t n;
	FILE *f = open_memstream(&buf, &n);

	assert_non_null(f);
	fn(f, d);
	assert_int_equal(fclose(f), 0);
	return buf;
}

/* Each case's text, summary and failure line from its document, byte for byte. */
static void
text_from_doc(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(text_cases) / sizeof(text_cases[0]); i++) {
		const struct text_case *c = &text_cases[i];
		struct al_roundtrip_result x;
		char *text, *summary, why[512];
		json_t *d;

		c->setup(&x);
		end_as(&x, &c->end);
		d = al_report_roundtrip_json(&x);
		assert_non_null(d);
		text = render(al_report_roundtrip_text, d);
		summary = render(al_report_roundtrip_summary, d);
		expect(c, "text", text, c->text);
		expect(c, "summary", summary, c->summary);
		expect(c, "failure line", al_report_roundtrip_failure(d, why, sizeof(why)),
		       c->failure);
		free(text);
		free(summary);
		json_decref(d);
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jack_loop),
		cmocka_unit_test(pipewire_loop),
		cmocka_unit_test(stopped),
		cmocka_unit_test(text_from_doc),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
