/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat.roundtrip/1 from a result (report/roundtrip-doc.h), no server:
 * a valid JACK-like loop, a PipeWire one (no nominal latency: null, never
 * 0), a stream that stopped, and the line that says why there is no delay.
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
	assert_null(al_report_roundtrip_failure(&x, why, sizeof(why)));
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
	json_decref(d);
	f = fmemopen(buf, sizeof(buf), "w");
	assert_non_null(f);
	al_report_roundtrip_text(f, &x);
	al_report_roundtrip_summary(f, &x);
	fclose(f);
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
	json_decref(d);
	assert_non_null(al_report_roundtrip_failure(&x, why, sizeof(why)));
	assert_non_null(strstr(why, "a link of the loop went away"));
	x.stream_err = -ENOTCONN;
	al_report_roundtrip_failure(&x, why, sizeof(why));
	assert_non_null(strstr(why, "the PipeWire server went away"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(jack_loop),
		cmocka_unit_test(pipewire_loop),
		cmocka_unit_test(stopped),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
