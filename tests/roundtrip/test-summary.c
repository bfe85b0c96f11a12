/* SPDX-License-Identifier: GPL-2.0-or-later */
/* From readings to a verdict: settling, spread, dropouts, polarity. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "roundtrip/summary.h"

#define MS 1000000LL
#define N 20

static struct al_roundtrip_reading rd[N];

/* N readings every 250 ms, all valid at delay d (+ a small wobble) */
static void
fill(double d)
{
	int i;

	memset(rd, 0, sizeof(rd));
	for (i = 0; i < N; i++) {
		rd[i].t_ns = (i + 1) * 250 * MS;
		rd[i].r.status = AL_MTDM_VALID;
		rd[i].r.delay_frames = d + (i % 2 ? 0.001 : -0.001);
		rd[i].r.error = 0.001 * i;
		rd[i].r.level = 0.5;
	}
}

static void
test_steady(void **state)
{
	struct al_roundtrip_summary s;

	(void)state;
	fill(256.0);
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_VALID);
	assert_int_equal(s.why, AL_ROUNDTRIP_OK);
	/* first valid at 250 ms, settled from 1250 ms: readings 5..20 */
	assert_int_equal(s.settled_at_ns, 1250 * MS);
	assert_int_equal(s.n_settled, 16);
	assert_int_equal(s.n_valid, 16);
	assert_true(fabs(s.delay_frames - 256.0) < 1e-9);
	assert_true(fabs(s.min_frames - 255.999) < 1e-9);
	assert_true(fabs(s.max_frames - 256.001) < 1e-9);
	/* 8 at -0.001 and 8 at +0.001 around the mean: sample stddev */
	assert_true(fabs(s.stddev_frames - 0.001 * sqrt(16.0 / 15.0)) < 1e-9);
	assert_true(fabs(s.worst_error - 0.019) < 1e-12);
	assert_true(fabs(s.level - 0.5) < 1e-12);
	assert_false(s.inverted);
}

static void
test_settling_ignores_early_readings(void **state)
{
	struct al_roundtrip_summary s;
	int i;

	(void)state;
	fill(1000.5);
	/* nothing for 1 s (a long loop), then a wrong early reading */
	for (i = 0; i < 4; i++)
		rd[i].r.status = AL_MTDM_NO_SIGNAL;
	rd[4].r.delay_frames = 980.0;
	rd[5].r.status = AL_MTDM_UNSTABLE;
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_VALID);
	assert_int_equal(s.settled_at_ns, 2250 * MS);
	assert_int_equal(s.n_settled, 12);
	assert_true(fabs(s.delay_frames - 1000.5) < 1e-9);
}

static void
test_never_valid(void **state)
{
	struct al_roundtrip_summary s;
	int i;

	(void)state;
	fill(0.0);
	for (i = 0; i < N; i++)
		rd[i].r.status = AL_MTDM_NO_SIGNAL;
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_NO_SIGNAL);
	assert_int_equal(s.why, AL_ROUNDTRIP_NEVER_VALID);
	assert_int_equal(s.settled_at_ns, -1);
	rd[N - 1].r.status = AL_MTDM_UNSTABLE;
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_UNSTABLE);
	al_roundtrip_summarize(rd, 0, &s);
	assert_int_equal(s.status, AL_MTDM_NO_SIGNAL);
	assert_int_equal(s.n_readings, 0);
}

static void
test_not_settled(void **state)
{
	struct al_roundtrip_summary s;

	(void)state;
	fill(64.0);
	al_roundtrip_summarize(rd, 4, &s); /* 1 s of readings */
	assert_int_equal(s.status, AL_MTDM_UNSTABLE);
	assert_int_equal(s.why, AL_ROUNDTRIP_NOT_SETTLED);
}

static void
test_dropout(void **state)
{
	struct al_roundtrip_summary s;
	int i;

	(void)state;
	fill(512.0);
	rd[12].r.status = AL_MTDM_NO_SIGNAL;
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_UNSTABLE);
	assert_int_equal(s.why, AL_ROUNDTRIP_LOST);
	assert_int_equal(s.n_no_signal, 1);
	assert_int_equal(s.n_valid, 15);
	/* the signal went away for good after settling: no signal */
	for (i = 4; i < N; i++)
		rd[i].r.status = AL_MTDM_NO_SIGNAL;
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_NO_SIGNAL);
	assert_int_equal(s.why, AL_ROUNDTRIP_LOST);
}

static void
test_spread(void **state)
{
	/* a jump of one period halfway (an xrun moved the streams); a step just over a frame */
	static const double steps[] = { 256.0, 1.5 };
	struct al_roundtrip_summary s;
	size_t k;
	int i;

	(void)state;
	for (k = 0; k < sizeof(steps) / sizeof(steps[0]); k++) {
		fill(512.0);
		for (i = 10; i < N; i++)
			rd[i].r.delay_frames += steps[k];
		al_roundtrip_summarize(rd, N, &s);
		assert_int_equal(s.status, AL_MTDM_UNSTABLE);
		assert_int_equal(s.why, AL_ROUNDTRIP_SPREAD);
		assert_true(s.max_frames - s.min_frames > steps[k] - 0.01);
	}
	/* a slow drift of 0.9 frame is still one number */
	fill(512.0);
	for (i = 0; i < N; i++)
		rd[i].r.delay_frames = 512.0 + 0.9 * i / (N - 1);
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_VALID);
}

static void
test_polarity(void **state)
{
	struct al_roundtrip_summary s;
	int i;

	(void)state;
	fill(100.0);
	for (i = 0; i < N; i++)
		rd[i].r.inverted = true;
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_VALID);
	assert_true(s.inverted);
	rd[15].r.inverted = false;
	al_roundtrip_summarize(rd, N, &s);
	assert_int_equal(s.status, AL_MTDM_UNSTABLE);
	assert_int_equal(s.why, AL_ROUNDTRIP_POLARITY);
}

static void
test_why_text(void **state)
{
	int w;

	(void)state;
	for (w = AL_ROUNDTRIP_OK; w <= AL_ROUNDTRIP_POLARITY; w++)
		assert_string_not_equal(al_roundtrip_why_text((enum al_roundtrip_why)w), "?");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_steady),
		cmocka_unit_test(test_settling_ignores_early_readings),
		cmocka_unit_test(test_never_valid),
		cmocka_unit_test(test_not_settled),
		cmocka_unit_test(test_dropout),
		cmocka_unit_test(test_spread),
		cmocka_unit_test(test_polarity),
		cmocka_unit_test(test_why_text),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
