/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The MTDM estimator on synthetic loops: the test signal, delayed by a
 * known fractional delay (a Kaiser-windowed sinc, which knows nothing of
 * the tones), scaled, offset and with noise added, must read back within
 * 0.01 frame; inversion, silence, noise and garbage must be recognised.
 */
#include <errno.h>
#include <float.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "roundtrip/mtdm.h"

#define RATE 48000
#define BLOCK 256
#define SETTLE_FRAMES (3 * RATE / 2) /* 1.5 s of signal after it arrives */
#define TAPS_HALF 64                 /* fractional-delay filter: 128 taps */
#define MAX_DELAY 50001
#define SIGNAL_FRAMES 200000 /* > MAX_DELAY + SETTLE_FRAMES + taps; 1 s at 192 kHz */

static float *signal_out; /* the estimator's output, generated once */

/* Deterministic noise: xorshift64* and Box-Muller. */
static uint64_t rng_state;

static double
rng_uniform(void)
{
	rng_state ^= rng_state >> 12;
	rng_state ^= rng_state << 25;
	rng_state ^= rng_state >> 27;
	return ((rng_state * 2685821657736338717ULL) >> 11) * (1.0 / 9007199254740992.0);
}

static double
rng_gauss(void)
{
	double u1 = rng_uniform(), u2 = rng_uniform();

	if (u1 < 1e-300)
		u1 = 1e-300;
	return sqrt(-2.0 * log(u1)) * cos(2.0 * M_PI * u2);
}

static double
bessel_i0(double x)
{
	double sum = 1.0, term = 1.0;
	int k;

	for (k = 1; k < 60; k++) {
		term *= (x / (2.0 * k)) * (x / (2.0 * k));
		sum += term;
	}
	return sum;
}

/* h[j + TAPS_HALF - 1] for j = -(TAPS_HALF-1) .. TAPS_HALF: x(n - mu) */
static void
fractional_delay_taps(double mu, double h[2 * TAPS_HALF])
{
	const double beta = 12.0;
	int j;

	for (j = -(TAPS_HALF - 1); j <= TAPS_HALF; j++) {
		double t = j - mu, r = t / TAPS_HALF;
		double sinc = fabs(t) < 1e-12 ? 1.0 : sin(M_PI * t) / (M_PI * t);
		double w = fabs(r) >= 1.0 ? 0.0
					  : bessel_i0(beta * sqrt(1.0 - r * r)) / bessel_i0(beta);

		h[j + TAPS_HALF - 1] = sinc * w;
	}
}

static int
setup_signal(void **state)
{
	struct al_mtdm *gen = calloc(1, sizeof(*gen));
	size_t i;

	(void)state;
	signal_out = calloc(SIGNAL_FRAMES, sizeof(float));
	if (!gen || !signal_out || al_mtdm_init(gen, RATE))
		return -1;
	for (i = 0; i + BLOCK <= SIGNAL_FRAMES; i += BLOCK)
		al_mtdm_process(gen, NULL, signal_out + i, BLOCK);
	free(gen);
	return 0;
}

static int
teardown_signal(void **state)
{
	(void)state;
	free(signal_out);
	return 0;
}

static float
out_at(long n)
{
	return n < 0 || n >= SIGNAL_FRAMES ? 0.0f : signal_out[n];
}

struct loop {
	double delay_frames;
	double gain;       /* negative: inverted */
	double dc;
	double noise_db;   /* noise RMS relative to the signal RMS; 0: none */
	uint64_t seed;
};

/*
 * Run the loop through a fresh estimator for the delay plus 1.5 s; the
 * last 0.5 s of readings (one per block) go into worst/last.
 */
static void
run_loop(const struct loop *l, struct al_mtdm_result *last, double *worst_err_frames)
{
	struct al_mtdm *m = calloc(1, sizeof(*m));
	double h[2 * TAPS_HALF];
	long whole = (long)floor(l->delay_frames);
	double mu = l->delay_frames - whole;
	/* RMS of 0.2 sin + 12 x 0.01 sin */
	double noise_rms = l->noise_db ? sqrt(0.02 + 12 * 0.00005) * fabs(l->gain) *
						 pow(10.0, l->noise_db / 20.0) : 0.0;
	long total = whole + SETTLE_FRAMES, n;
	float in[BLOCK], out[BLOCK];
	int i;

	assert_non_null(m);
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	fractional_delay_taps(mu, h);
	rng_state = l->seed ? l->seed : 0x9e3779b97f4a7c15ULL;
	*worst_err_frames = 0.0;
	for (n = 0; n < total; n += BLOCK) {
		for (i = 0; i < BLOCK; i++) {
			double acc = 0.0;
			int j;

			for (j = -(TAPS_HALF - 1); j <= TAPS_HALF; j++)
				acc += h[j + TAPS_HALF - 1] * out_at(n + i - whole - j);
			acc = l->gain * acc + l->dc;
			if (noise_rms)
				acc += noise_rms * rng_gauss();
			in[i] = (float)acc;
		}
		al_mtdm_process(m, in, out, BLOCK);
		/* the output is the same stream the generator made */
		assert_true(out[0] == signal_out[n]);
		if (n >= total - RATE / 2) {
			double e;

			al_mtdm_read(m, last);
			assert_int_equal(last->status, AL_MTDM_VALID);
			e = fabs(last->delay_frames - l->delay_frames);
			if (e > *worst_err_frames)
				*worst_err_frames = e;
		}
	}
	free(m);
}

static const double delays[] = { 0.0, 0.25, 1.5, 127.3, 4096.77, 29999.9, 50000.5 };

static void
check_delays(double gain, double dc, double noise_db)
{
	size_t i;

	for (i = 0; i < sizeof(delays) / sizeof(delays[0]); i++) {
		struct loop l = {
			.delay_frames = delays[i], .gain = gain, .dc = dc,
			.noise_db = noise_db, .seed = i + 1,
		};
		struct al_mtdm_result r;
		double worst;

		run_loop(&l, &r, &worst);
		print_message("# delay %.2f gain %.2f dc %.2f noise %.0f dB: read %.5f error %.5f "
			      "(worst over 0.5 s %.5f) level %.3f residual %.4f\n",
			      l.delay_frames, gain, dc, noise_db, r.delay_frames,
			      fabs(r.delay_frames - l.delay_frames), worst, r.level, r.error);
		assert_true(worst < 0.01);
		assert_false(r.inverted);
		assert_true(fabs(r.level - fabs(gain)) < 0.05 * fabs(gain));
		assert_true(r.error < 0.05);
		assert_int_equal(r.bad_frames, 0);
	}
}

static void
test_clean_unity(void **state)
{
	(void)state;
	check_delays(1.0, 0.0, 0.0);
}

static void
test_noisy_low_gain(void **state)
{
	(void)state;
	check_delays(0.1, 0.05, -40.0);
}

static void
test_noisy_high_gain(void **state)
{
	(void)state;
	check_delays(2.0, -0.1, -40.0);
}

static void
test_inverted(void **state)
{
	static const double inv_delays[] = { 0.0, 1.5, 127.3, 29999.9 };
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(inv_delays) / sizeof(inv_delays[0]); i++) {
		struct loop l = {
			.delay_frames = inv_delays[i], .gain = i & 1 ? -0.1 : -1.0,
			.dc = 0.02, .noise_db = -40.0, .seed = 100 + i,
		};
		struct al_mtdm_result r;
		double worst;

		run_loop(&l, &r, &worst);
		print_message("# inverted delay %.2f: read %.5f\n", l.delay_frames, r.delay_frames);
		assert_true(r.inverted);
		assert_true(worst < 0.01);
	}
}

static void
test_other_rates(void **state)
{
	static const uint32_t rates[] = { 44100, 96000, 192000 };
	size_t i;

	(void)state;
	/* the signal is the same sequence at any rate; only the filters change */
	for (i = 0; i < 3; i++) {
		struct al_mtdm *m = calloc(1, sizeof(*m));
		struct al_mtdm_result r;
		float in[BLOCK], out[BLOCK];
		long n, total = 1000 + (long)rates[i];
		int k;

		assert_non_null(m);
		assert_int_equal(al_mtdm_init(m, rates[i]), 0);
		for (n = 0; n < total; n += BLOCK) {
			for (k = 0; k < BLOCK; k++)
				in[k] = out_at(n + k - 1000);
			al_mtdm_process(m, in, out, BLOCK);
		}
		al_mtdm_read(m, &r);
		assert_int_equal(r.status, AL_MTDM_VALID);
		assert_true(fabs(r.delay_frames - 1000.0) < 0.01);
		free(m);
	}
}

/* in aliasing out, the buffer reused every call: the loop is one call long */
static void
test_aliased_buffer(void **state)
{
	struct al_mtdm *m = calloc(1, sizeof(*m));
	static float buf[BLOCK];
	struct al_mtdm_result r;
	int n;

	(void)state;
	assert_non_null(m);
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	for (n = 0; n < RATE * 2; n += BLOCK)
		al_mtdm_process(m, buf, buf, BLOCK);
	al_mtdm_read(m, &r);
	assert_int_equal(r.status, AL_MTDM_VALID);
	assert_true(fabs(r.delay_frames - BLOCK) < 0.001);
	assert_false(r.inverted);
	free(m);
}

static void
run_input(struct al_mtdm *m, float (*gen)(long n), long frames, struct al_mtdm_result *r)
{
	float in[BLOCK], out[BLOCK];
	long n;
	int k;

	for (n = 0; n < frames; n += BLOCK) {
		for (k = 0; k < BLOCK; k++)
			in[k] = gen(n + k);
		al_mtdm_process(m, in, out, BLOCK);
	}
	al_mtdm_read(m, r);
}

static float
gen_silence(long n)
{
	(void)n;
	return 0.0f;
}

static float
gen_faint(long n)
{
	return 1e-4f * out_at(n - 300);
}

static float
gen_uniform_noise(long n)
{
	(void)n;
	return (float)(0.6 * rng_uniform() - 0.3);
}

static float
gen_gauss_noise(long n)
{
	(void)n;
	return (float)(0.5 * rng_gauss());
}

/* a steady tone that is not ours, plus hum */
static float
gen_foreign_tone(long n)
{
	return (float)(0.3 * sin(2.0 * M_PI * 1000.0 * n / RATE) +
		       0.1 * sin(2.0 * M_PI * 50.0 * n / RATE));
}

static void
test_silence(void **state)
{
	struct al_mtdm *m = calloc(1, sizeof(*m));
	struct al_mtdm_result r;

	(void)state;
	assert_non_null(m);
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	al_mtdm_read(m, &r); /* nothing processed yet */
	assert_int_equal(r.status, AL_MTDM_NO_SIGNAL);
	assert_int_equal(r.frames, 0);
	run_input(m, gen_silence, RATE, &r);
	assert_int_equal(r.status, AL_MTDM_NO_SIGNAL);
	assert_true(r.frames >= RATE);
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	run_input(m, gen_faint, RATE, &r);
	assert_int_equal(r.status, AL_MTDM_NO_SIGNAL);
	/* NULL in: nothing captured */
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	al_mtdm_process(m, NULL, NULL, 4096);
	al_mtdm_read(m, &r);
	assert_int_equal(r.status, AL_MTDM_NO_SIGNAL);
	free(m);
}

static void
test_noise_not_valid(void **state)
{
	float (*gens[])(long) = { gen_uniform_noise, gen_gauss_noise, gen_foreign_tone };
	struct al_mtdm *m = calloc(1, sizeof(*m));
	struct al_mtdm_result r;
	unsigned seed, g;

	(void)state;
	assert_non_null(m);
	for (g = 0; g < 3; g++) {
		for (seed = 1; seed <= 4; seed++) {
			long t;

			rng_state = 0x1234567ULL * seed;
			assert_int_equal(al_mtdm_init(m, RATE), 0);
			/* every reading along the way, not just the last */
			for (t = 0; t < 4; t++) {
				run_input(m, gens[g], RATE / 4, &r);
				if (r.status == AL_MTDM_VALID)
					print_message("# generator %u seed %u: valid %.3f level %.4f "
						      "spread %.2f error %.3f\n", g, seed,
						      r.delay_frames, r.level, r.level_spread, r.error);
				assert_int_not_equal(r.status, AL_MTDM_VALID);
			}
		}
	}
	free(m);
}

static float
gen_garbage(long n)
{
	static const float g[] = { NAN, INFINITY, -INFINITY, 1e30f, -1e30f, FLT_MAX, -FLT_MAX,
				   FLT_MIN, 1e-45f, 3e7f };

	return g[n % 10];
}

static float
gen_huge_noise(long n)
{
	(void)n;
	return (float)(1e5 * rng_gauss());
}

static float
gen_nan(long n)
{
	(void)n;
	return NAN;
}

/* the right signal with an occasional NaN: the glitches are read as 0 */
static float
gen_glitchy(long n)
{
	return n % 1000 == 7 ? NAN : out_at(n - 77);
}

static void
test_garbage(void **state)
{
	struct al_mtdm *m = calloc(1, sizeof(*m));
	struct al_mtdm_state s;
	struct al_mtdm_result r;

	(void)state;
	assert_non_null(m);
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	run_input(m, gen_garbage, RATE, &r);
	assert_int_not_equal(r.status, AL_MTDM_VALID);
	assert_true(r.bad_frames > 0);

	assert_int_equal(al_mtdm_init(m, RATE), 0);
	run_input(m, gen_nan, RATE, &r);
	assert_int_equal(r.status, AL_MTDM_NO_SIGNAL);
	assert_int_equal(r.bad_frames, r.frames);

	rng_state = 42;
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	run_input(m, gen_huge_noise, RATE, &r);
	assert_int_not_equal(r.status, AL_MTDM_VALID);

	/* the estimator recovers: garbage, then the signal */
	assert_int_equal(al_mtdm_init(m, RATE), 0);
	run_input(m, gen_glitchy, 2 * RATE, &r);
	assert_int_equal(r.status, AL_MTDM_VALID);
	assert_true(fabs(r.delay_frames - 77.0) < 0.01);
	assert_true(r.bad_frames > 0);

	/* resolve() itself on a poisoned state */
	memset(&s, 0, sizeof(s));
	s.re[0] = NAN;
	al_mtdm_resolve(&s, &r);
	assert_int_not_equal(r.status, AL_MTDM_VALID);
	s.re[0] = 1.0;
	s.re[5] = NAN;
	s.im[7] = INFINITY;
	al_mtdm_resolve(&s, &r);
	assert_int_not_equal(r.status, AL_MTDM_VALID);
	s.re[0] = INFINITY;
	al_mtdm_resolve(&s, &r);
	assert_int_not_equal(r.status, AL_MTDM_VALID);
	s.re[0] = DBL_MAX;
	s.re[5] = -DBL_MAX;
	s.im[7] = DBL_MAX;
	al_mtdm_resolve(&s, &r);
	assert_int_not_equal(r.status, AL_MTDM_VALID);
	free(m);
}

static void
test_init(void **state)
{
	struct al_mtdm *m = calloc(1, sizeof(*m));
	float out[64];
	float peak = 0.0f;
	int i, k;

	(void)state;
	assert_non_null(m);
	assert_int_equal(al_mtdm_init(m, 0), -EINVAL);
	assert_int_equal(al_mtdm_init(m, 999), -EINVAL);
	assert_int_equal(al_mtdm_init(m, 768001), -EINVAL);
	assert_int_equal(al_mtdm_init(m, 8000), 0);
	for (i = 0; i < 2000; i++) {
		al_mtdm_process(m, NULL, out, 64);
		for (k = 0; k < 64; k++)
			if (fabsf(out[k]) > peak)
				peak = fabsf(out[k]);
	}
	/* 0.2 + 12 x 0.01 at most: about -10 dBFS */
	assert_true(peak > 0.2f && peak <= 0.3201f);
	assert_string_equal(al_mtdm_status_name(AL_MTDM_VALID), "valid");
	assert_string_equal(al_mtdm_status_name(AL_MTDM_NO_SIGNAL), "no-signal");
	assert_string_equal(al_mtdm_status_name(AL_MTDM_UNSTABLE), "unstable");
	free(m);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_init),
		cmocka_unit_test(test_clean_unity),
		cmocka_unit_test(test_noisy_low_gain),
		cmocka_unit_test(test_noisy_high_gain),
		cmocka_unit_test(test_inverted),
		cmocka_unit_test(test_other_rates),
		cmocka_unit_test(test_aliased_buffer),
		cmocka_unit_test(test_silence),
		cmocka_unit_test(test_noise_not_valid),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, setup_signal, teardown_signal);
}
