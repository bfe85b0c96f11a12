/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Axis ticks, tick labels and scales of the report's plots. */
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <cmocka.h>

#include "compare/ci.h"
#include "html/svg.h"

static void
assert_ticks(const double *got, int n, const double *want, int n_want)
{
	int i;

	assert_int_equal(n, n_want);
	for (i = 0; i < n; i++)
		assert_true(fabs(got[i] - want[i]) <= 1e-9 * fmax(1, fabs(want[i])));
}

static void
linear_known(void **state)
{
	double t[AL_TICKS_MAX];

	(void)state;
	assert_ticks(t, al_ticks_linear(0, 10, 8, t, AL_TICKS_MAX), (double[]){0, 2, 4, 6, 8, 10},
		     6);
	assert_ticks(t, al_ticks_linear(0, 1.05, 6, t, AL_TICKS_MAX),
		     (double[]){0, 0.2, 0.4, 0.6, 0.8, 1.0}, 6);
	assert_ticks(t, al_ticks_linear(-3, 7, 6, t, AL_TICKS_MAX), (double[]){-2, 0, 2, 4, 6}, 5);
	assert_ticks(t, al_ticks_linear(0, 3600, 8, t, AL_TICKS_MAX),
		     (double[]){0, 500, 1000, 1500, 2000, 2500, 3000, 3500}, 8);
	/* a run of 10 s: ticks every 2 s */
	assert_ticks(t, al_ticks_linear(0, 10.0001, 8, t, AL_TICKS_MAX),
		     (double[]){0, 2, 4, 6, 8, 10}, 6);
	/* cap honoured */
	assert_int_equal(al_ticks_linear(0, 10, 8, t, 3), 3);
}

static void
linear_refuses_bad_ranges(void **state)
{
	double t[AL_TICKS_MAX];

	(void)state;
	assert_int_equal(al_ticks_linear(5, 5, 8, t, AL_TICKS_MAX), 0);
	assert_int_equal(al_ticks_linear(6, 5, 8, t, AL_TICKS_MAX), 0);
	assert_int_equal(al_ticks_linear(NAN, 5, 8, t, AL_TICKS_MAX), 0);
	assert_int_equal(al_ticks_linear(0, INFINITY, 8, t, AL_TICKS_MAX), 0);
	assert_int_equal(al_ticks_linear(0, 1, 1, t, AL_TICKS_MAX), 0);
}

/* Any range: ticks inside it, ascending, evenly spaced by 1, 2 or 5 x 10^k. */
static void
linear_properties(void **state)
{
	struct al_rng rng;
	double t[AL_TICKS_MAX];
	int k, i, n;

	(void)state;
	al_rng_seed(&rng, 7);
	for (k = 0; k < 5000; k++) {
		/* spans from 1e-4 to 1e7, starting within 10 spans of 0 */
		double span = al_rng_uniform(&rng) * pow(10, (int)(al_rng_next(&rng) % 12) - 4);
		double lo = (al_rng_uniform(&rng) - 0.5) * 20 * span, hi = lo + span;
		int max = 2 + (int)(al_rng_next(&rng) % 10);
		double step, m;

		if (!(hi > lo))
			continue;
		n = al_ticks_linear(lo, hi, max, t, AL_TICKS_MAX);
		assert_true(n >= 1 && n <= max);
		for (i = 0; i < n; i++)
			assert_true(t[i] >= lo - 1e-9 * fabs(lo) - 1e-300 &&
				    t[i] <= hi + 1e-9 * fabs(hi) + 1e-300);
		if (n < 2)
			continue;
		step = t[1] - t[0];
		assert_true(step > 0);
		for (i = 2; i < n; i++)
			assert_true(fabs(t[i] - t[i - 1] - step) <= 1e-6 * step);
		m = step / pow(10, floor(log10(step) + 1e-9));
		assert_true(fabs(m - 1) < 1e-6 || fabs(m - 2) < 1e-6 || fabs(m - 5) < 1e-6);
	}
}

static void
log_known(void **state)
{
	double t[AL_TICKS_MAX];

	(void)state;
	assert_ticks(t, al_ticks_log(1e3, 1e7, t, AL_TICKS_MAX),
		     (double[]){1e3, 1e4, 1e5, 1e6, 1e7}, 5);
	/* fewer than three decades: 2x and 5x too */
	assert_ticks(t, al_ticks_log(10, 500, t, AL_TICKS_MAX),
		     (double[]){10, 20, 50, 100, 200, 500}, 6);
	assert_ticks(t, al_ticks_log(0.001, 1, t, AL_TICKS_MAX), (double[]){0.001, 0.01, 0.1, 1},
		     4);
	assert_ticks(t, al_ticks_log(300, 4000, t, AL_TICKS_MAX), (double[]){500, 1000, 2000}, 3);
	assert_int_equal(al_ticks_log(0, 10, t, AL_TICKS_MAX), 0);
	assert_int_equal(al_ticks_log(-1, 10, t, AL_TICKS_MAX), 0);
	assert_int_equal(al_ticks_log(10, 10, t, AL_TICKS_MAX), 0);
	assert_int_equal(al_ticks_log(1, 1e300, t, 4), 4);
}

static void
labels_have_units(void **state)
{
	char b[48];

	(void)state;
	al_fmt_ns(0, b, sizeof(b));
	assert_string_equal(b, "0");
	al_fmt_ns(500, b, sizeof(b));
	assert_string_equal(b, "500 ns");
	al_fmt_ns(20000, b, sizeof(b));
	assert_string_equal(b, "20 µs");
	al_fmt_ns(1.5e6, b, sizeof(b));
	assert_string_equal(b, "1.5 ms");
	al_fmt_ns(1333333, b, sizeof(b));
	assert_string_equal(b, "1.33 ms");
	al_fmt_ns(2e9, b, sizeof(b));
	assert_string_equal(b, "2 s");
	al_fmt_ns(-3000, b, sizeof(b));
	assert_string_equal(b, "-3 µs");
	al_fmt_time_s(30, 60, b, sizeof(b));
	assert_string_equal(b, "30 s");
	al_fmt_time_s(120, 600, b, sizeof(b));
	assert_string_equal(b, "2 min");
	al_fmt_time_s(5400, 36000, b, sizeof(b));
	assert_string_equal(b, "1.5 h");
	al_fmt_time_s(0, 36000, b, sizeof(b));
	assert_string_equal(b, "0");
	al_fmt_count(5, b, sizeof(b));
	assert_string_equal(b, "5");
	al_fmt_count(20000, b, sizeof(b));
	assert_string_equal(b, "20k");
	al_fmt_count(1e6, b, sizeof(b));
	assert_string_equal(b, "1M");
	al_fmt_fraction(1, b, sizeof(b));
	assert_string_equal(b, "100 %");
	al_fmt_fraction(0.001, b, sizeof(b));
	assert_string_equal(b, "0.1 %");
}

static void
scales_map_and_clamp(void **state)
{
	struct al_scale lin = {.lo = 0, .hi = 10, .p0 = 100, .p1 = 300};
	struct al_scale lg = {.lo = 1e3, .hi = 1e6, .p0 = 400, .p1 = 100, .log = true};

	(void)state;
	assert_true(fabs(al_scale_px(&lin, 0) - 100) < 1e-9);
	assert_true(fabs(al_scale_px(&lin, 5) - 200) < 1e-9);
	assert_true(fabs(al_scale_px(&lin, 10) - 300) < 1e-9);
	assert_true(fabs(al_scale_px(&lin, -5) - 100) < 1e-9); /* clamped */
	assert_true(fabs(al_scale_px(&lin, 50) - 300) < 1e-9);
	assert_true(fabs(al_scale_px(&lin, NAN) - 100) < 1e-9);
	assert_true(fabs(al_scale_px(&lg, 1e3) - 400) < 1e-9);
	assert_true(fabs(al_scale_px(&lg, 1e4) - 300) < 1e-9); /* one decade in three */
	assert_true(fabs(al_scale_px(&lg, 1e6) - 100) < 1e-9);
	assert_true(fabs(al_scale_px(&lg, 0) - 400) < 1e-9); /* log of 0: the bottom */
	assert_true(fabs(al_scale_px(&lg, -1) - 400) < 1e-9);
	assert_true(fabs(al_scale_px(&lg, 1e9) - 100) < 1e-9);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(linear_known),	 cmocka_unit_test(linear_refuses_bad_ranges),
	    cmocka_unit_test(linear_properties), cmocka_unit_test(log_known),
	    cmocka_unit_test(labels_have_units), cmocka_unit_test(scales_map_and_clamp),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
