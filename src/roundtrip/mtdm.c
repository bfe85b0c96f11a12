/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Multi-tone delay measurement, written from the description of the method
 * (docs/roundtrip.md; after F. Adriaensen's jack_delay).
 *
 * Tone k advances a 16-bit phase accumulator by freq[k] per frame. The
 * master tone (freq 4096) repeats every 16 frames; tone k >= 1 runs at
 * odd / 2^k times the master's frequency, so its phase lag, once the
 * lower digits are known, tells whether bit k-1 of the delay counted in
 * master periods is 0 or 1.
 */
#include <errno.h>
#include <math.h>
#include <string.h>

#include "mtdm.h"

#define STEP_FRAMES 16
#define MASTER_FREQ 4096
#define TIME_CONSTANT_S 0.08
#define MAX_LEVEL_RATIO 3.0
#define FRESH 4u
/* A delay within this much below the wrap reads as a small negative one. */
#define NEGATIVE_FRAMES 64.0

static const uint16_t freq[AL_MTDM_TONES] = {
	4096, 2048, 3072, 2560, 2304, 2176, 1088, 1312, 1552, 1800, 3332, 3586, 3841,
};

static const float amp[AL_MTDM_TONES] = {
	0.20f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f,
	0.01f, 0.01f, 0.01f, 0.01f, 0.01f, 0.01f,
};

int
al_mtdm_init(struct al_mtdm *m, uint32_t rate_hz)
{
	unsigned i;

	if (rate_hz < 1000 || rate_hz > 768000)
		return -EINVAL;
	memset(m, 0, sizeof(*m));
	m->rate_hz = rate_hz;
	m->coef = STEP_FRAMES / (TIME_CONSTANT_S * rate_hz);
	for (i = 0; i < 65536; i++)
		m->sine[i] = (float)sin(2.0 * M_PI * i / 65536.0);
	m->back = 0;
	m->front = 2;
	atomic_init(&m->middle, 1u);
	return 0;
}

static void
publish(struct al_mtdm *m)
{
	struct al_mtdm_state *s = &m->slot[m->back];
	unsigned prev;

	memcpy(s->re, m->lp2_re, sizeof(s->re));
	memcpy(s->im, m->lp2_im, sizeof(s->im));
	s->frames = m->frames;
	s->bad_frames = m->bad_frames;
	prev = atomic_exchange_explicit(&m->middle, m->back | FRESH, memory_order_acq_rel);
	m->back = prev & 3u;
}

static void
filter_step(struct al_mtdm *m)
{
	double c = m->coef;
	unsigned k;

	for (k = 0; k < AL_MTDM_TONES; k++) {
		m->lp1_re[k] += c * (m->acc_re[k] - m->lp1_re[k]);
		m->lp1_im[k] += c * (m->acc_im[k] - m->lp1_im[k]);
		m->lp2_re[k] += c * (m->lp1_re[k] - m->lp2_re[k]);
		m->lp2_im[k] += c * (m->lp1_im[k] - m->lp2_im[k]);
		m->acc_re[k] = 0.0;
		m->acc_im[k] = 0.0;
	}
}

void
al_mtdm_process(struct al_mtdm *m, const float *in, float *out, uint32_t nframes)
{
	const float *sine = m->sine;
	uint32_t i;
	unsigned k;

	for (i = 0; i < nframes; i++) {
		float x = in ? in[i] : 0.0f;
		float y = 0.0f;

		/* NaN compares false: it lands here too */
		if (!(fabsf(x) <= AL_MTDM_MAX_INPUT)) {
			x = 0.0f;
			m->bad_frames++;
		}
		for (k = 0; k < AL_MTDM_TONES; k++) {
			uint16_t p = m->phase[k];
			float s = sine[p];
			float c = sine[(uint16_t)(p + 16384u)];

			y += amp[k] * s;
			m->acc_re[k] += (double)(x * s);
			m->acc_im[k] += (double)(x * c);
			m->phase[k] = (uint16_t)(p + freq[k]);
		}
		if (out)
			out[i] = y;
		if (++m->step == STEP_FRAMES) {
			m->step = 0;
			filter_step(m);
		}
	}
	m->frames += nframes;
	publish(m);
}

void
al_mtdm_read(struct al_mtdm *m, struct al_mtdm_result *r)
{
	if (atomic_load_explicit(&m->middle, memory_order_acquire) & FRESH) {
		unsigned prev = atomic_exchange_explicit(&m->middle, m->front,
							 memory_order_acq_rel);

		m->front = prev & 3u;
	}
	al_mtdm_resolve(&m->slot[m->front], r);
}

/* x mod 1, in [0, 1) */
static double
wrap1(double x)
{
	double w = x - floor(x);

	return w >= 1.0 ? 0.0 : w;
}

/*
 * Resolve the delay from the tones' phase lags (in cycles) for one
 * polarity. Returns the worst residual; *periods gets the master periods.
 */
static double
digits(const double lag[AL_MTDM_TONES], double *periods)
{
	double d = lag[0], worst = 0.0;
	uint32_t n = 0;
	unsigned k;

	for (k = 1; k < AL_MTDM_TONES; k++) {
		double pred = freq[k] * (n + d) / MASTER_FREQ;
		double t = 2.0 * wrap1(lag[k] - pred); /* ~0, 1 or 2 */
		double r = floor(t + 0.5);
		double e = fabs(t - r);

		if (!(t >= 0.0 && t <= 2.0)) { /* a NaN phase */
			worst = 0.5;
			continue;
		}
		if (e > worst)
			worst = e;
		if ((unsigned)r & 1u)
			n |= 1u << (k - 1);
	}
	*periods = n + d;
	return worst;
}

void
al_mtdm_resolve(const struct al_mtdm_state *s, struct al_mtdm_result *r)
{
	double lag[AL_MTDM_TONES], inv[AL_MTDM_TONES];
	double gain[AL_MTDM_TONES];
	double periods, periods_inv, err, err_inv, spread = 1.0;
	unsigned k;

	memset(r, 0, sizeof(*r));
	r->frames = s->frames;
	r->bad_frames = s->bad_frames;
	for (k = 0; k < AL_MTDM_TONES; k++) {
		/* the sums hold (gain * amp / 2) * 16 * (cos lag, -sin lag) */
		gain[k] = hypot(s->re[k], s->im[k]) / (8.0 * amp[k]);
		lag[k] = wrap1(atan2(-s->im[k], s->re[k]) / (2.0 * M_PI));
		inv[k] = wrap1(lag[k] + 0.5);
	}
	r->level = gain[0];
	if (!(gain[0] >= AL_MTDM_MIN_LEVEL) || !isfinite(gain[0])) {
		r->status = AL_MTDM_NO_SIGNAL;
		r->level_spread = NAN;
		r->error = NAN;
		return;
	}
	for (k = 1; k < AL_MTDM_TONES; k++) {
		double q = gain[k] / gain[0];

		q = q >= 1.0 ? q : 1.0 / q;
		if (!(q <= spread))
			spread = q;
	}
	r->level_spread = spread;

	err = digits(lag, &periods);
	err_inv = digits(inv, &periods_inv);
	if (err_inv < err) {
		err = err_inv;
		periods = periods_inv;
		r->inverted = true;
	}
	r->error = err;
	r->delay_frames = STEP_FRAMES * periods;
	if (r->delay_frames >= AL_MTDM_RANGE_FRAMES - NEGATIVE_FRAMES)
		r->delay_frames -= AL_MTDM_RANGE_FRAMES;
	if (!(err <= AL_MTDM_MAX_ERROR) || !(spread <= MAX_LEVEL_RATIO))
		r->status = AL_MTDM_UNSTABLE;
	else
		r->status = AL_MTDM_VALID;
}
