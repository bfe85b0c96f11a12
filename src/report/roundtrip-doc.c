/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat roundtrip's document and text (roundtrip-doc.h, docs/roundtrip.md). */
#include <errno.h>
#include <inttypes.h>
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

	return json_pack("{s:I, s:I, s:s, s:o, s:o, s:o, s:b, s:b}", "t_ns", (json_int_t)r->t_ns,
			 "xruns", (json_int_t)r->xruns,
			 "status", al_mtdm_status_name(r->r.status), "delay_frames",
			 num_or_null(ok, r->r.delay_frames), "error",
			 num_or_null(r->r.status != AL_MTDM_NO_SIGNAL, r->r.error), "level",
			 num_or_null(true, r->r.level), "inverted", ok && r->r.inverted, "settled",
			 x->s.settled_at_ns >= 0 && r->t_ns >= x->s.settled_at_ns);
}

/*
 * When the xruns were and when the loop was linked, on the readings'
 * clock (ns from the first reading's zero; the link is made before it).
 */
static void
xrun_times_json(json_t *doc, const struct al_roundtrip_result *x)
{
	uint32_t kept = x->st.xruns < AL_DUPLEX_XRUN_TIMES ? x->st.xruns : AL_DUPLEX_XRUN_TIMES;
	json_t *ev = json_array();
	uint32_t i;

	for (i = 0; ev && i < kept; i++) {
		int64_t at = x->st.xrun_at_ns[i];

		json_array_append_new(ev, at ? json_pack("{s:I}", "t_ns", (json_int_t)(at - x->t0_ns))
					     : json_pack("{s:n}", "t_ns"));
	}
	json_object_set_new(doc, "xrun_events", ev ? ev : json_null());
	json_object_set_new(doc, "xrun_events_dropped", json_integer(x->st.xruns - kept));
	json_object_set_new(doc, "linked_at_ns", x->st.linked_at_ns && x->t0_ns ?
			    json_integer(x->st.linked_at_ns - x->t0_ns) : json_null());
}

/* What the loop ran at, as given and as the backend opened it. */
static void
loop_json(json_t *doc, const struct al_roundtrip_result *x)
{
	const struct al_duplex_info *in = &x->info;

	json_object_set_new(doc, "backend", json_string(x->backend));
	json_object_set_new(doc, "server", in->server[0] ? json_string(in->server) : json_null());
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
	json_object_set_new(doc, "stream_errno", x->stream_err ? json_integer(-x->stream_err)
							 : json_null());
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
	json_object_set_new(doc, "no_signal_readings", json_integer((json_int_t)s->n_no_signal));
	json_object_set_new(doc, "unstable_readings", json_integer((json_int_t)s->n_unstable));
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
	xrun_times_json(doc, x);
	json_object_set_new(doc, "bad_samples", json_integer(x->n_rd ?
				  (json_int_t)x->rd[x->n_rd - 1].r.bad_frames : 0));
	for (i = 0; i < x->n_rd; i++)
		json_array_append_new(rd, reading_json(x, &x->rd[i]));
	json_object_set_new(doc, "readings", rd);
	json_object_set_new(doc, "uuid", x->uuid[0] ? json_string(x->uuid) : json_null());
	return doc;
}

/* The errno the stream stopped with, 0 when it ran to the end. */
static int
stream_errno(const json_t *doc)
{
	return (int)al_doc_int(doc, "stream_errno", 0);
}

/* No delay: why, and what the readings were. */
static void
text_none(FILE *f, const json_t *doc)
{
	int64_t n_settled = al_doc_int(doc, "settled_readings", 0);
	int64_t n_valid = al_doc_int(doc, "valid_readings", 0);
	int err = stream_errno(doc);

	if (err) {
		fprintf(f, "  delay        none: the stream stopped during the run (%s)\n",
			strerror(err));
		return;
	}
	fprintf(f, "  delay        none: %s: %s\n",
		!strcmp(al_doc_str(doc, "status", ""), "no-signal") ? "no signal" : "unstable",
		al_doc_str(doc, "reason", ""));
	if (n_settled)
		fprintf(f, "  readings     %" PRId64 " after settling: %" PRId64 " valid, %" PRId64
			" no signal, %" PRId64 " unstable\n", n_settled, n_valid,
			al_doc_int(doc, "no_signal_readings", 0),
			al_doc_int(doc, "unstable_readings", 0));
	if (n_valid)
		fprintf(f, "  valid ones   min %.3f, max %.3f frames, stddev %.4f frames\n",
			al_doc_real(doc, "min_frames", NAN), al_doc_real(doc, "max_frames", NAN),
			al_doc_real(doc, "stddev_frames", NAN));
	fprintf(f, "  xruns        %" PRId64 "\n", al_doc_int(doc, "xruns", 0));
}

/* The delay, its spread, its error and the loop's gain. */
static void
text_delay(FILE *f, const json_t *doc)
{
	fprintf(f, "  delay      %11.3f frames %9.3f ms   (mean of %" PRId64 " readings after "
		"settling)\n", al_doc_real(doc, "delay_frames", NAN),
		al_doc_real(doc, "delay_ms", NAN), al_doc_int(doc, "valid_readings", 0));
	fprintf(f, "  min / max  %12.4f / %.4f frames, stddev %.6f frames\n",
		al_doc_real(doc, "min_frames", NAN), al_doc_real(doc, "max_frames", NAN),
		al_doc_real(doc, "stddev_frames", NAN));
	fprintf(f, "  error      %11.4f          (worst tone residual; above %.2f a reading is "
		"rejected)\n", al_doc_real(doc, "error", NAN), AL_MTDM_MAX_ERROR);
	fprintf(f, "  level      %11.1f dB       loop gain, polarity %s\n",
		to_db(al_doc_real(doc, "level", NAN)), al_doc_bool(doc, "inverted", false) ?
		"INVERTED (the loop flips the signal)" : "normal");
}

/* What the extra is, and what would compensate it. */
static void
text_extra(FILE *f, const json_t *doc)
{
	int64_t io_frames = al_doc_int(doc, "jackd_io_frames", -1);

	if (al_doc_bool(doc, "self_loop", false))
		fprintf(f, "  self-loop: no converters in the loop; the extra is %s's one-cycle delay\n"
			"             of a connection that feeds back into the same client\n",
			al_doc_str(doc, "server", "JACK"));
	else if (io_frames >= 0)
		fprintf(f, "  jackd      -I %" PRId64 " -O %" PRId64
			" would compensate it (assumes input and output\n"
			"             share the extra evenly)\n", io_frames, io_frames);
	else
		fprintf(f, "  jackd      the reported latency exceeds the measured delay by %.0f "
			"frames:\n             lower -I/-O if they are set\n",
			-al_doc_real(doc, "extra_frames", NAN));
}

void
al_report_roundtrip_text(FILE *f, const json_t *doc)
{
	const char *backend = al_doc_str(doc, "backend", "");
	const char *server = al_doc_str(doc, "server", NULL);
	int64_t periods = al_doc_int(doc, "periods", 0);
	char nominal[64];

	fprintf(f, "roundtrip: %s, %" PRId64 " Hz, period %" PRId64 " frames", backend,
		al_doc_int(doc, "rate", 0), al_doc_int(doc, "period_frames", 0));
	if (periods)
		fprintf(f, " x %" PRId64, periods);
	fprintf(f, "%s\n  plays on %s, captures from %s\n",
		al_doc_bool(doc, "self_loop", false) ? ", self-loop" : "",
		al_doc_str(doc, "out", ""), al_doc_str(doc, "in", ""));
	if (!al_doc_bool(doc, "valid", false)) {
		text_none(f, doc);
		return;
	}
	text_delay(f, doc);
	/* the nominal latency is null each when the backend reports none */
	if (!json_is_integer(al_doc_get(doc, "nominal.capture_frames"))) {
		fprintf(f, "  nominal    not reported (%s told our ports no latency), no extra\n",
			server ? server : backend);
		if (al_doc_bool(doc, "self_loop", false))
			fprintf(f, "  self-loop: no converters in the loop; the delay is %s's one-cycle "
				"delay\n             of a connection that feeds back into the same client\n",
				server ? server : backend);
		fprintf(f, "  xruns      %" PRId64 "\n", al_doc_int(doc, "xruns", 0));
		return;
	}
	if (server)
		snprintf(nominal, sizeof(nominal), "the ports' latency as %s reports it", server);
	else
		snprintf(nominal, sizeof(nominal), "%s",
			 "one period read + the rest of the prefilled playback buffer");
	fprintf(f, "  nominal    %11.3f frames   (capture %" PRId64 " + playback %" PRId64
		": %s)\n", al_doc_real(doc, "nominal.total_frames", NAN),
		al_doc_int(doc, "nominal.capture_frames", 0),
		al_doc_int(doc, "nominal.playback_frames", 0), nominal);
	fprintf(f, "  extra      %11.3f frames %9.3f ms   (beyond the nominal buffering)\n",
		z(al_doc_real(doc, "extra_frames", NAN)), z(al_doc_real(doc, "extra_ms", NAN)));
	text_extra(f, doc);
	fprintf(f, "  xruns      %" PRId64 "%s\n", al_doc_int(doc, "xruns", 0),
		al_doc_int(doc, "restarts", 0) ? " (streams restarted)" : "");
}

void
al_report_roundtrip_summary(FILE *f, const json_t *doc)
{
	bool ok = al_doc_bool(doc, "valid", false);
	double extra_frames = al_doc_real(doc, "extra_frames", NAN);

	fprintf(f, "summary: backend=%s rate=%" PRId64 " period=%" PRId64,
		al_doc_str(doc, "backend", ""), al_doc_int(doc, "rate", 0),
		al_doc_int(doc, "period_frames", 0));
	if (ok)
		fprintf(f, " delay_frames=%.3f delay_ms=%.3f min_frames=%.3f max_frames=%.3f "
			"stddev_frames=%.4f inverted=%s", al_doc_real(doc, "delay_frames", NAN),
			al_doc_real(doc, "delay_ms", NAN), al_doc_real(doc, "min_frames", NAN),
			al_doc_real(doc, "max_frames", NAN), al_doc_real(doc, "stddev_frames", NAN),
			al_doc_bool(doc, "inverted", false) ? "yes" : "no");
	if (ok && isfinite(extra_frames))
		fprintf(f, " extra_frames=%.3f", z(extra_frames));
	else if (ok)
		fprintf(f, " extra_frames=-");
	fprintf(f, " readings=%" PRId64 " xruns=%" PRId64 " result=%s\n",
		al_doc_int(doc, "settled_readings", 0), al_doc_int(doc, "xruns", 0),
		al_doc_str(doc, "status", ""));
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
al_report_roundtrip_failure(const json_t *doc, char *buf, size_t size)
{
	const char *backend = al_doc_str(doc, "backend", "");
	const char *server = al_doc_str(doc, "server", NULL);
	int err = stream_errno(doc);

	if (err == ENOLINK)
		snprintf(buf, size, "%s: the stream stopped during the run (%s): a link of the loop "
			 "went away", backend, strerror(err));
	else if (err)
		snprintf(buf, size, "%s: the stream stopped during the run (%s)%s%s%s", backend,
			 strerror(err), server ? ": the " : "", server ? server : "",
			 server ? " server went away" : "");
	else if (!strcmp(al_doc_str(doc, "status", ""), "no-signal"))
		snprintf(buf, size, "no signal: %s; check the loop (%s -> %s)",
			 al_doc_str(doc, "reason", ""), al_doc_str(doc, "out", ""),
			 al_doc_str(doc, "in", ""));
	else if (!al_doc_bool(doc, "valid", false))
		snprintf(buf, size, "unstable: %s", al_doc_str(doc, "reason", ""));
	else
		return NULL;
	return buf;
}
