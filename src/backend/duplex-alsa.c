/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ALSA duplex stream: a playback PCM and a capture PCM with the same rate
 * and period, linked when the driver allows it, the playback buffer
 * prefilled with silence. One thread (SCHED_FIFO when permitted) waits
 * for a captured period, hands it to the callback with the period to
 * play, and writes that. The signal goes out on every playback channel;
 * capture channel 0 is read. Playback and capture must run on one clock
 * (one card, or one JACK server through the jack plugin). An xrun
 * restarts both streams (counted: the loop delay may change).
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <alsa/asoundlib.h>

#include "core/rt.h"
#include "core/text.h"
#include "alsa.h"
#include "alsa-private.h"

#define DEFAULT_DEVICE "default"
#define STALL_TIMEOUT_MS 2000 /* no period for this long: the stream died */
#define STACK_PREFAULT_BYTES (64 * 1024)

struct da {
	snd_pcm_t *play, *cap;
	snd_pcm_format_t play_fmt, cap_fmt;
	unsigned play_ch, cap_ch;
	snd_pcm_uframes_t period, buffer;
	bool linked;
	int priority;
	void *play_buf, *cap_buf; /* one interleaved period each */
	float *in, *out;          /* one mono period each */
	al_duplex_fn fn;
	void *ctx;
	pthread_t thread;
	bool thread_started;
	atomic_bool stop;
	atomic_int err;
	atomic_uint_least64_t periods;
	atomic_uint xruns;
	struct al_duplex_xrun_times xrun_times;
	atomic_uint restarts;
};

static const snd_pcm_format_t formats[] = {
	SND_PCM_FORMAT_FLOAT, SND_PCM_FORMAT_S32, SND_PCM_FORMAT_S16,
};

static void
say(char *why, size_t size, const char *what, const char *dev, int rc)
{
	if (why && size)
		snprintf(why, size, "%s '%s': %s", what, dev, snd_strerror(rc));
}

/* Configure one direction; the first call decides rate and period. */
static int
setup(snd_pcm_t *pcm, unsigned *rate, snd_pcm_uframes_t *period, unsigned *periods,
      snd_pcm_format_t *fmt, unsigned *channels, snd_pcm_uframes_t *buffer)
{
	snd_pcm_hw_params_t *hw;
	snd_pcm_sw_params_t *sw;
	snd_pcm_uframes_t boundary;
	unsigned ch = 1;
	size_t i;
	int dir = 0, rc;

	snd_pcm_hw_params_alloca(&hw);
	snd_pcm_sw_params_alloca(&sw);
	rc = snd_pcm_hw_params_any(pcm, hw);
	if (rc < 0)
		return rc;
	rc = snd_pcm_hw_params_set_access(pcm, hw, SND_PCM_ACCESS_RW_INTERLEAVED);
	if (rc < 0)
		return rc;
	rc = -EINVAL;
	for (i = 0; i < sizeof(formats) / sizeof(formats[0]); i++) {
		if (snd_pcm_hw_params_test_format(pcm, hw, formats[i]) == 0) {
			rc = snd_pcm_hw_params_set_format(pcm, hw, formats[i]);
			*fmt = formats[i];
			break;
		}
	}
	if (rc < 0)
		return rc;
	rc = snd_pcm_hw_params_set_channels_near(pcm, hw, &ch);
	if (rc < 0)
		return rc;
	*channels = ch;
	rc = snd_pcm_hw_params_set_rate_near(pcm, hw, rate, &dir);
	if (rc < 0)
		return rc;
	rc = snd_pcm_hw_params_set_period_size_near(pcm, hw, period, &dir);
	if (rc < 0)
		return rc;
	rc = snd_pcm_hw_params_set_periods_near(pcm, hw, periods, &dir);
	if (rc < 0)
		return rc;
	rc = snd_pcm_hw_params(pcm, hw);
	if (rc < 0)
		return rc;
	snd_pcm_hw_params_get_period_size(hw, period, &dir);
	snd_pcm_hw_params_get_buffer_size(hw, buffer);
	snd_pcm_hw_params_get_rate(hw, rate, &dir);

	rc = snd_pcm_sw_params_current(pcm, sw);
	if (rc < 0)
		return rc;
	snd_pcm_sw_params_get_boundary(sw, &boundary);
	/* started by hand, never by a write or read */
	if ((rc = snd_pcm_sw_params_set_start_threshold(pcm, sw, boundary)) < 0 ||
	    (rc = snd_pcm_sw_params_set_avail_min(pcm, sw, *period)) < 0 ||
	    (rc = snd_pcm_sw_params(pcm, sw)) < 0)
		return rc;
	return 0;
}

static void
to_float(const struct da *d)
{
	snd_pcm_uframes_t i;
	unsigned ch = d->cap_ch;

	switch (d->cap_fmt) {
	case SND_PCM_FORMAT_FLOAT:
		for (i = 0; i < d->period; i++)
			d->in[i] = ((const float *)d->cap_buf)[i * ch];
		break;
	case SND_PCM_FORMAT_S32:
		for (i = 0; i < d->period; i++)
			d->in[i] = (float)(((const int32_t *)d->cap_buf)[i * ch] / 2147483648.0);
		break;
	default:
		for (i = 0; i < d->period; i++)
			d->in[i] = ((const int16_t *)d->cap_buf)[i * ch] / 32768.0f;
		break;
	}
}

static void
from_float(const struct da *d)
{
	snd_pcm_uframes_t i;
	unsigned c, ch = d->play_ch;

	for (i = 0; i < d->period; i++) {
		double x = d->out[i];

		x = x > 1.0 ? 1.0 : x < -1.0 ? -1.0 : x == x ? x : 0.0;
		for (c = 0; c < ch; c++) {
			switch (d->play_fmt) {
			case SND_PCM_FORMAT_FLOAT:
				((float *)d->play_buf)[i * ch + c] = (float)x;
				break;
			case SND_PCM_FORMAT_S32:
				((int32_t *)d->play_buf)[i * ch + c] =
					(int32_t)lrint(x * 2147483647.0);
				break;
			default:
				((int16_t *)d->play_buf)[i * ch + c] = (int16_t)lrint(x * 32767.0);
				break;
			}
		}
	}
}

/*
 * Move one period: play_buf out to the playback stream, or the capture
 * stream into cap_buf. 0, 1 on an xrun, 2 when stopped, or -errno.
 * Capture waits in 100 ms slices to see the stop flag; playback waits once.
 */
static int
xfer_period(struct da *d, bool capture)
{
	snd_pcm_t *pcm = capture ? d->cap : d->play;
	char *buf = capture ? d->cap_buf : d->play_buf;
	int slice_ms = capture ? 100 : STALL_TIMEOUT_MS, waited_ms = 0;
	size_t frame_bytes = snd_pcm_frames_to_bytes(pcm, 1);
	snd_pcm_uframes_t done = 0;

	while (done < d->period) {
		snd_pcm_sframes_t n;
		int w = snd_pcm_wait(pcm, slice_ms);

		if (capture && atomic_load_explicit(&d->stop, memory_order_relaxed))
			return 2;
		if (w == -EPIPE || w == -ESTRPIPE)
			return 1;
		if (w == 0) {
			waited_ms += slice_ms;
			if (waited_ms >= STALL_TIMEOUT_MS)
				return -ETIMEDOUT;
			continue;
		}
		if (w < 0 && w != -EINTR)
			return w;
		n = capture ? snd_pcm_readi(pcm, buf + done * frame_bytes, d->period - done)
			    : snd_pcm_writei(pcm, buf + done * frame_bytes, d->period - done);
		if (n == -EPIPE || n == -ESTRPIPE)
			return 1;
		if (n == -EAGAIN || n == -EINTR)
			continue;
		if (n < 0)
			return (int)n;
		done += (snd_pcm_uframes_t)n;
	}
	return 0;
}

/* Prefill the playback buffer with silence and start both directions. */
static int
start_streams(struct da *d)
{
	snd_pcm_uframes_t filled;
	int rc;

	memset(d->play_buf, 0, snd_pcm_frames_to_bytes(d->play, d->period));
	for (filled = 0; filled + d->period <= d->buffer; filled += d->period) {
		rc = xfer_period(d, false);
		if (rc)
			return rc < 0 ? rc : -EPIPE;
	}
	if (d->linked)
		return snd_pcm_start(d->play);
	rc = snd_pcm_start(d->cap);
	if (rc < 0)
		return rc;
	return snd_pcm_start(d->play);
}

static void
restart_prepare(struct da *d)
{
	snd_pcm_drop(d->play);
	snd_pcm_drop(d->cap);
	snd_pcm_prepare(d->play);
	if (!d->linked)
		snd_pcm_prepare(d->cap);
}

static void *
audio_thread(void *arg)
{
	struct da *d = arg;
	int rc = 0;

	al_rt_prefault_stack(STACK_PREFAULT_BYTES);
	while (!atomic_load(&d->stop)) {
		rc = start_streams(d);
		if (rc < 0)
			break;
		for (;;) {
			rc = xfer_period(d, true);
			if (rc)
				break;
			to_float(d);
			d->fn(d->ctx, d->in, d->out, (uint32_t)d->period);
			from_float(d);
			rc = xfer_period(d, false);
			if (rc)
				break;
			atomic_fetch_add_explicit(&d->periods, 1, memory_order_relaxed);
		}
		if (rc < 0 || rc == 2)
			break;
		atomic_fetch_add(&d->xruns, 1);
		al_duplex_xrun_seen(&d->xrun_times);
		atomic_fetch_add(&d->restarts, 1);
		restart_prepare(d);
		rc = 0;
	}
	if (rc < 0)
		atomic_store(&d->err, rc);
	return NULL;
}

static void da_close(void *priv);

static int
da_open(void *priv, const struct al_duplex_config *cfg, struct al_duplex_info *info,
	char *why, size_t why_size)
{
	struct da *d = priv;
	const char *pdev = cfg->device && *cfg->device ? cfg->device : DEFAULT_DEVICE;
	const char *cdev = cfg->capture_device && *cfg->capture_device ? cfg->capture_device : pdev;
	unsigned rate = cfg->rate_hz ? cfg->rate_hz : 48000, crate;
	unsigned periods = cfg->periods >= 2 ? cfg->periods : 2, cperiods;
	snd_pcm_uframes_t period = cfg->period_frames ? cfg->period_frames : 256, cperiod, cbuffer;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(info, 0, sizeof(*info));
	snd_lib_error_set_handler(al_text_discard); /* open() says why */
	d->priority = cfg->priority;
	rc = snd_pcm_open(&d->play, pdev, SND_PCM_STREAM_PLAYBACK, 0);
	if (rc < 0) {
		say(why, why_size, "cannot open playback PCM", pdev, rc);
		d->play = NULL;
		return al__alsa_open_errno(rc);
	}
	rc = snd_pcm_open(&d->cap, cdev, SND_PCM_STREAM_CAPTURE, 0);
	if (rc < 0) {
		say(why, why_size, "cannot open capture PCM", cdev, rc);
		d->cap = NULL;
		rc = al__alsa_open_errno(rc);
		goto fail;
	}
	/*
	 * Capture first: a jack plugin playback PCM connects its ports when it
	 * is prepared, so the capture side's ports must exist by then.
	 */
	rc = setup(d->cap, &rate, &period, &periods, &d->cap_fmt, &d->cap_ch, &cbuffer);
	if (rc < 0) {
		say(why, why_size, "cannot configure capture PCM", cdev, rc);
		goto fail;
	}
	crate = rate;
	cperiod = period;
	cperiods = periods;
	rc = setup(d->play, &crate, &cperiod, &cperiods, &d->play_fmt, &d->play_ch, &d->buffer);
	if (rc < 0) {
		say(why, why_size, "cannot configure playback PCM", pdev, rc);
		goto fail;
	}
	if (crate != rate || cperiod != period) {
		if (why && why_size)
			snprintf(why, why_size,
				 "playback '%s' runs at %u Hz / %lu frames, capture '%s' at %u Hz / %lu",
				 pdev, crate, (unsigned long)cperiod, cdev, rate, (unsigned long)period);
		rc = -ERANGE;
		goto fail;
	}
	d->period = period;
	d->linked = snd_pcm_link(d->cap, d->play) == 0;
	d->play_buf = calloc(d->period, snd_pcm_frames_to_bytes(d->play, 1));
	d->cap_buf = calloc(d->period, snd_pcm_frames_to_bytes(d->cap, 1));
	d->in = calloc(d->period, sizeof(float));
	d->out = calloc(d->period, sizeof(float));
	if (!d->play_buf || !d->cap_buf || !d->in || !d->out) {
		rc = -ENOMEM;
		goto fail;
	}
	info->rate_hz = rate;
	info->period_frames = (uint32_t)period;
	info->periods = (uint32_t)(d->buffer / period);
	info->capture_latency_frames = (uint32_t)period;
	info->playback_latency_frames = (uint32_t)(d->buffer - period);
	info->linked = d->linked;
	info->latency_known = true;
	info->jackd_io = true;
	snprintf(info->in_name, sizeof(info->in_name), "%s", cdev);
	snprintf(info->out_name, sizeof(info->out_name), "%s", pdev);
	snprintf(info->format, sizeof(info->format), "%s/%s", snd_pcm_format_name(d->play_fmt),
		 snd_pcm_format_name(d->cap_fmt));
	return 0;
fail:
	da_close(d);
	return rc;
}

static int
da_start(void *priv, al_duplex_fn fn, void *ctx, char *why, size_t why_size)
{
	struct da *d = priv;
	int rc;

	d->fn = fn;
	d->ctx = ctx;
	atomic_store(&d->stop, false);
	rc = al_rt_thread_start(&d->thread, audio_thread, d, d->priority, -1);
	if (rc == -EPERM && d->priority > 0) {
		d->priority = 0;
		rc = al_rt_thread_start(&d->thread, audio_thread, d, 0, -1);
	}
	if (rc) {
		if (why && why_size)
			snprintf(why, why_size, "cannot start the audio thread: %s", strerror(-rc));
		return rc;
	}
	d->thread_started = true;
	return 0;
}

static void
da_status(void *priv, struct al_duplex_status *st)
{
	struct da *d = priv;

	memset(st, 0, sizeof(*st));
	st->err = atomic_load(&d->err);
	st->periods = atomic_load_explicit(&d->periods, memory_order_relaxed);
	st->xruns = atomic_load(&d->xruns);
	al_duplex_xrun_times_get(&d->xrun_times, st);
	st->restarts = atomic_load(&d->restarts);
	st->realtime = d->thread_started && d->priority > 0;
	st->capture_latency_frames = (uint32_t)d->period;
	st->playback_latency_frames = (uint32_t)(d->buffer - d->period);
}

static int
da_stop(void *priv)
{
	struct da *d = priv;

	atomic_store(&d->stop, true);
	if (d->thread_started)
		pthread_join(d->thread, NULL);
	d->thread_started = false;
	if (d->play)
		snd_pcm_drop(d->play);
	if (d->cap && !d->linked)
		snd_pcm_drop(d->cap);
	return 0;
}

static void
da_close(void *priv)
{
	struct da *d = priv;

	if (d->linked)
		snd_pcm_unlink(d->cap);
	if (d->cap)
		snd_pcm_close(d->cap);
	if (d->play)
		snd_pcm_close(d->play);
	free(d->play_buf);
	free(d->cap_buf);
	free(d->in);
	free(d->out);
	memset(d, 0, sizeof(*d));
}

const struct al_duplex_ops al_duplex_alsa = {
	.name = "alsa",
	.priv_size = sizeof(struct da),
	.open = da_open,
	.start = da_start,
	.status = da_status,
	.stop = da_stop,
	.close = da_close,
};
