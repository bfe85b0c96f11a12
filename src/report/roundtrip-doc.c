/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat roundtrip's document and text (roundtrip-doc.h, docs/roundtrip.md). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <string.h>

#include "doc/doc.h"
#include "roundtrip-doc.h"
#include "status.h"

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

static bool
valid(const struct al_roundtrip_result *x)
{
	return x->s.status == AL_MTDM_VALID && !x->stream_err;
}

static json_t *
num_or_null(bool ok, double v)
{
	return ok && isfinite(v) ? json_real(v) : json_null();
}

static json_t *
reading_json(const struct al_roundtrip_result *x, const struct al_roundtrip_reading *r)
{
	bool ok = r->r.status == AL_MTDM_VALID;

	return json_pack("{s:I, s:s, s:o, s:o, s:o, s:b, s:b}", "t_ns", (json_int_t)r->t_ns,
			 "status", al_mtdm_status_name(r->r.status), "delay_frames",
			 num_or_null(ok, r->r.delay_frames), "error",
			 num_or_null(r->r.status != AL_MTDM_NO_SIGNAL, r->r.error), "level",
			 num_or_null(true, r->r.level), "inverted", ok && r->r.inverted, "settled",
			 x->s.settled_at_ns >= 0 && r->t_ns >= x->s.settled_at_ns);
}

/* What the loop ran at, as given and as the backend opened it. */
static void
loop_json(json_t *doc, const struct al_roundtrip_result *x)
{
	const struct al_duplex_info *in = &x->info;

	json_object_set_new(doc, "backend", json_string(x->backend));
	json_object_set_new(doc, "device", al_json_text(x->device));
	json_object_set_new(doc, "capture_device", al_json_text(x->capture_device));
	json_object_set_new(doc, "self_loop", json_boolean(x->self_loop));
	json_object_set_new(doc, "in", al_json_text(in->in_name));
	json_object_set_new(doc, "out", al_json_text(in->out_name));
	json_object_set_new(doc, "format", json_string(in->format));
	json_object_set_new(doc, "rate", json_integer(in->rate_hz));
	json_object_set_new(doc, "period_frames", json_integer(in->period_frames));
	json_object_set_new(doc, "periods", in->periods ? json_integer(in->periods) : json_null());
	json_object_set_new(doc, "linked", json_boolean(in->linked));
	json_object_set_new(doc, "realtime", json_boolean(x->st.realtime));
	json_object_set_new(doc, "memory_locked", json_boolean(x->memory_locked));
}

/* The verdict and the delay's figures. */
static void
delay_json(json_t *doc, const struct al_roundtrip_result *x)
{
	const struct al_roundtrip_summary *s = &x->s;
	bool ok = valid(x), has = s->n_valid > 0, known = x->info.latency_known;
	double rate = x->info.rate_hz;
	char reason[160];

	if (x->stream_err)
		snprintf(reason, sizeof(reason), "the stream stopped during the run: %s",
			 strerror(-x->stream_err));
	else
		snprintf(reason, sizeof(reason), "%s", al_roundtrip_why_text(s->why));
	json_object_set_new(doc, "status", json_string(x->stream_err ? "error"
						       : al_mtdm_status_name(s->status)));
	json_object_set_new(doc, "valid", json_boolean(ok));
	json_object_set_new(doc, "reason", ok ? json_null() : json_string(reason));
	json_object_set_new(doc, "delay_frames", num_or_null(ok, s->delay_frames));
	json_object_set_new(doc, "delay_ms", num_or_null(ok, s->delay_frames * 1000.0 / rate));
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
	json_object_set_new(doc, "nominal",
			    json_pack("{s:o, s:o, s:o}", "capture_frames",
				      known ? json_integer(x->st.capture_latency_frames) : json_null(),
				      "playback_frames",
				      known ? json_integer(x->st.playback_latency_frames) : json_null(),
				      "total_frames", num_or_null(known, x->nominal_frames)));
	json_object_set_new(doc, "extra_frames", num_or_null(ok, x->extra_frames));
	json_object_set_new(doc, "extra_ms", num_or_null(ok, x->extra_frames * 1000.0 / rate));
	json_object_set_new(doc, "jackd_io_frames", ok && x->io_frames >= 0 ?
				  json_integer(x->io_frames) : json_null());
}

json_t *
al_report_roundtrip_json(const struct al_roundtrip_result *x)
{
	json_t *doc = al_doc_new(AL_SCHEMA_ROUNDTRIP, NULL), *rd = json_array();
	size_t i;

	if (!doc || !rd) {
		json_decref(doc);
		json_decref(rd);
		return NULL;
	}
	json_object_set_new(doc, "cmdline", al_json_text(x->cmdline));
	json_object_set_new(doc, "started_at", al_doc_time(x->started_at_ns));
	json_object_set_new(doc, "duration_ns", json_integer(x->ran_ns));
	json_object_set_new(doc, "interrupted", json_boolean(x->interrupted));
	loop_json(doc, x);
	delay_json(doc, x);
	json_object_set_new(doc, "xruns", json_integer(x->st.xruns));
	json_object_set_new(doc, "restarts", json_integer(x->st.restarts));
	json_object_set_new(doc, "bad_samples", json_integer(x->n_rd ?
				  (json_int_t)x->rd[x->n_rd - 1].r.bad_frames : 0));
	for (i = 0; i < x->n_rd; i++)
		json_array_append_new(rd, reading_json(x, &x->rd[i]));
	json_object_set_new(doc, "readings", rd);
	json_object_set_new(doc, "uuid", x->uuid[0] ? json_string(x->uuid) : json_null());
	return doc;
}

/* No delay: why, and what the readings were. */
static void
text_none(FILE *f, const struct al_roundtrip_result *x)
{
	const struct al_roundtrip_summary *s = &x->s;

	if (x->stream_err) {
		fprintf(f, "  delay        none: the stream stopped during the run (%s)\n",
			strerror(-x->stream_err));
		return;
	}
	fprintf(f, "  delay        none: %s: %s\n", s->status == AL_MTDM_NO_SIGNAL ?
		"no signal" : "unstable", al_roundtrip_why_text(s->why));
	if (s->n_settled)
		fprintf(f, "  readings     %zu after settling: %zu valid, %zu no signal, "
			"%zu unstable\n", s->n_settled, s->n_valid, s->n_no_signal, s->n_unstable);
	if (s->n_valid)
		fprintf(f, "  valid ones   min %.3f, max %.3f frames, stddev %.4f frames\n",
			s->min_frames, s->max_frames, s->stddev_frames);
	fprintf(f, "  xruns        %u\n", x->st.xruns);
}

/* What the extra is, and what would compensate it. */
static void
text_extra(FILE *f, const struct al_roundtrip_result *x)
{
	const char *srv = x->info.server[0] ? x->info.server : "JACK";

	if (x->self_loop)
		fprintf(f, "  self-loop: no converters in the loop; the extra is %s's one-cycle delay\n"
			"             of a connection that feeds back into the same client\n", srv);
	else if (x->io_frames >= 0)
		fprintf(f, "  jackd      -I %ld -O %ld would compensate it (assumes input and output\n"
			"             share the extra evenly)\n", x->io_frames, x->io_frames);
	else
		fprintf(f, "  jackd      the reported latency exceeds the measured delay by %.0f "
			"frames:\n             lower -I/-O if they are set\n", -x->extra_frames);
}

void
al_report_roundtrip_text(FILE *f, const struct al_roundtrip_result *x)
{
	const struct al_roundtrip_summary *s = &x->s;
	double rate = x->info.rate_hz;
	char nominal[64];

	fprintf(f, "roundtrip: %s, %u Hz, period %u frames", x->backend, x->info.rate_hz,
		x->info.period_frames);
	if (x->info.periods)
		fprintf(f, " x %u", x->info.periods);
	fprintf(f, "%s\n  plays on %s, captures from %s\n", x->self_loop ? ", self-loop" : "",
		x->info.out_name, x->info.in_name);
	if (!valid(x)) {
		text_none(f, x);
		return;
	}
	fprintf(f, "  delay      %11.3f frames %9.3f ms   (mean of %zu readings after settling)\n",
		s->delay_frames, s->delay_frames * 1000.0 / rate, s->n_valid);
	fprintf(f, "  min / max  %12.4f / %.4f frames, stddev %.6f frames\n", s->min_frames,
		s->max_frames, s->stddev_frames);
	fprintf(f, "  error      %11.4f          (worst tone residual; above %.2f a reading is "
		"rejected)\n", s->worst_error, AL_MTDM_MAX_ERROR);
	fprintf(f, "  level      %11.1f dB       loop gain, polarity %s\n", to_db(s->level),
		s->inverted ? "INVERTED (the loop flips the signal)" : "normal");
	if (!x->info.latency_known) {
		fprintf(f, "  nominal    not reported (%s told our ports no latency), no extra\n",
			x->info.server[0] ? x->info.server : x->backend);
		if (x->self_loop)
			fprintf(f, "  self-loop: no converters in the loop; the delay is %s's one-cycle "
				"delay\n             of a connection that feeds back into the same client\n",
				x->info.server[0] ? x->info.server : x->backend);
		fprintf(f, "  xruns      %u\n", x->st.xruns);
		return;
	}
	if (x->info.server[0])
		snprintf(nominal, sizeof(nominal), "the ports' latency as %s reports it",
			 x->info.server);
	else
		snprintf(nominal, sizeof(nominal), "%s",
			 "one period read + the rest of the prefilled playback buffer");
	fprintf(f, "  nominal    %11.3f frames   (capture %u + playback %u: %s)\n", x->nominal_frames,
		x->st.capture_latency_frames, x->st.playback_latency_frames, nominal);
	fprintf(f, "  extra      %11.3f frames %9.3f ms   (beyond the nominal buffering)\n",
		z(x->extra_frames), z(x->extra_frames * 1000.0 / rate));
	text_extra(f, x);
	fprintf(f, "  xruns      %u%s\n", x->st.xruns, x->st.restarts ? " (streams restarted)" : "");
}

void
al_report_roundtrip_summary(FILE *f, const struct al_roundtrip_result *x)
{
	const struct al_roundtrip_summary *s = &x->s;

	fprintf(f, "summary: backend=%s rate=%u period=%u", x->backend, x->info.rate_hz,
		x->info.period_frames);
	if (valid(x))
		fprintf(f, " delay_frames=%.3f delay_ms=%.3f min_frames=%.3f max_frames=%.3f "
			"stddev_frames=%.4f inverted=%s", s->delay_frames,
			s->delay_frames * 1000.0 / x->info.rate_hz, s->min_frames, s->max_frames,
			s->stddev_frames, s->inverted ? "yes" : "no");
	if (valid(x) && isfinite(x->extra_frames))
		fprintf(f, " extra_frames=%.3f", z(x->extra_frames));
	else if (valid(x))
		fprintf(f, " extra_frames=-");
	fprintf(f, " readings=%zu xruns=%u result=%s\n", s->n_settled, x->st.xruns,
		x->stream_err ? "error" : al_mtdm_status_name(s->status));
}

void
al_report_roundtrip_reading(FILE *f, const struct al_mtdm_result *r, uint32_t rate_hz)
{
	if (r->status == AL_MTDM_VALID)
		fprintf(f, AL_STATUS_CLEAR "%s%11.3f frames %9.3f ms   error %.3f", r->inverted ? "Inv " : "    ",
			r->delay_frames, r->delay_frames * 1000.0 / rate_hz, r->error);
	else if (r->status == AL_MTDM_NO_SIGNAL)
		fprintf(f, AL_STATUS_CLEAR "    no signal (level %.0f dB)", to_db(r->level));
	else
		fprintf(f, AL_STATUS_CLEAR "    unstable (error %.2f, tone levels differ up to %.1fx)", r->error,
			r->level_spread);
	fflush(f);
}

const char *
al_report_roundtrip_failure(const struct al_roundtrip_result *x, char *buf, size_t size)
{
	if (x->stream_err == -ENOLINK)
		snprintf(buf, size, "%s: the stream stopped during the run (%s): a link of the loop "
			 "went away", x->backend, strerror(-x->stream_err));
	else if (x->stream_err)
		snprintf(buf, size, "%s: the stream stopped during the run (%s)%s%s%s", x->backend,
			 strerror(-x->stream_err), x->info.server[0] ? ": the " : "",
			 x->info.server, x->info.server[0] ? " server went away" : "");
	else if (x->s.status == AL_MTDM_NO_SIGNAL)
		snprintf(buf, size, "no signal: %s; check the loop (%s -> %s)",
			 al_roundtrip_why_text(x->s.why), x->info.out_name, x->info.in_name);
	else if (x->s.status != AL_MTDM_VALID)
		snprintf(buf, size, "unstable: %s", al_roundtrip_why_text(x->s.why));
	else
		return NULL;
	return buf;
}
