/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ALSA backend's setup, off the hot path: the hardware and software
 * parameters of a PCM, opening it (alsa-lib's errors as errnos), the check
 * that what the device gave is close to the request, the sine generators
 * chosen once at open, and the device list. alsa.c has the stream itself.
 */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <alsa/asoundlib.h>

#include "core/clock.h"
#include "core/text.h"
#include "alsa-private.h"

/* Sine generators, one per sample format; chosen once at open. */
static inline double
next_sample(struct alsa *a)
{
	double v = TONE_AMPLITUDE * sin(a->phase);

	a->phase += a->phase_inc;
	if (a->phase >= 2 * M_PI)
		a->phase -= 2 * M_PI;
	return v;
}

static void
fill_s16(struct alsa *a, void *dst, snd_pcm_uframes_t frames)
{
	int16_t *p = dst;

	for (snd_pcm_uframes_t i = 0; i < frames; i++) {
		int16_t v = (int16_t)lrint(next_sample(a) * 32767.0);

		for (unsigned int c = 0; c < a->channels; c++)
			*p++ = v;
	}
}

/* S32, and S24 in a 32-bit container: full scale is a->i32_full */
static void
fill_i32(struct alsa *a, void *dst, snd_pcm_uframes_t frames)
{
	int32_t *p = dst;

	for (snd_pcm_uframes_t i = 0; i < frames; i++) {
		int32_t v = (int32_t)lrint(next_sample(a) * a->i32_full);

		for (unsigned int c = 0; c < a->channels; c++)
			*p++ = v;
	}
}

static void
fill_s24_3le(struct alsa *a, void *dst, snd_pcm_uframes_t frames)
{
	uint8_t *p = dst;

	for (snd_pcm_uframes_t i = 0; i < frames; i++) {
		int32_t v = (int32_t)lrint(next_sample(a) * 8388607.0);

		for (unsigned int c = 0; c < a->channels; c++) {
			*p++ = (uint8_t)(v & 0xff);
			*p++ = (uint8_t)((v >> 8) & 0xff);
			*p++ = (uint8_t)((v >> 16) & 0xff);
		}
	}
}

static void
fill_float(struct alsa *a, void *dst, snd_pcm_uframes_t frames)
{
	float *p = dst;

	for (snd_pcm_uframes_t i = 0; i < frames; i++) {
		float v = (float)next_sample(a);

		for (unsigned int c = 0; c < a->channels; c++)
			*p++ = v;
	}
}

static const struct {
	snd_pcm_format_t format;
	fill_fn fill;
	double i32_full;          /* fill_i32's full scale */
} formats[] = {
	{ SND_PCM_FORMAT_S16, fill_s16, 0 },
	{ SND_PCM_FORMAT_S32, fill_i32, 2147483647.0 },
	{ SND_PCM_FORMAT_FLOAT, fill_float, 0 },
	{ SND_PCM_FORMAT_S24_3LE, fill_s24_3le, 0 },
	{ SND_PCM_FORMAT_S24, fill_i32, 8388607.0 },
};

const char *
al__alsa_stream_name(const struct al_config *cfg)
{
	return cfg->duplex ? "duplex" : cfg->capture ? "capture" : "playback";
}

/*
 * The sample format: the first PCM's (follow), else the first of ours the
 * device takes, with its fill function and range. < 0: none.
 */
static int
set_format(struct alsa *a, snd_pcm_t *pcm, snd_pcm_hw_params_t *hw, const struct al_config *cfg,
	   bool follow)
{
	int rc = -EINVAL;

	if (follow)
		return snd_pcm_hw_params_set_format(pcm, hw, a->format);
	for (size_t i = 0; i < sizeof(formats) / sizeof(formats[0]) && rc < 0; i++) {
		if (snd_pcm_hw_params_test_format(pcm, hw, formats[i].format) == 0) {
			rc = snd_pcm_hw_params_set_format(pcm, hw, formats[i].format);
			a->format = formats[i].format;
			a->fill = cfg->tone_hz ? formats[i].fill : NULL;
			a->i32_full = formats[i].i32_full;
		}
	}
	return rc;
}

/* Configure one PCM; on the second PCM of a duplex pair, take the first one's answer. */
int
al__alsa_set_hw(struct alsa *a, snd_pcm_t *pcm, const struct al_config *cfg, bool follow)
{
	snd_pcm_access_t access = a->mmap ? SND_PCM_ACCESS_MMAP_INTERLEAVED
					  : SND_PCM_ACCESS_RW_INTERLEAVED;
	snd_pcm_hw_params_t *hw;
	snd_pcm_uframes_t period, buffer;
	unsigned int rate, periods;
	int rc, dir = 0;

	rc = snd_pcm_hw_params_malloc(&hw);
	if (rc < 0)
		return rc;
	rc = snd_pcm_hw_params_any(pcm, hw);
	if (rc < 0) {
		snprintf(a->error, sizeof(a->error), "%.64s: no configuration at all: %s", a->device,
			 snd_strerror(rc));
		rc = -ENOTSUP;
		goto out;
	}
	rc = snd_pcm_hw_params_set_access(pcm, hw, access);
	if (rc < 0) {
		snprintf(a->error, sizeof(a->error), "%.64s: no %s access%s", a->device,
			 snd_pcm_access_name(access), a->mmap ? "" : " (try --mmap)");
		rc = -ENOTSUP;
		goto out;
	}
	rc = set_format(a, pcm, hw, cfg, follow);
	if (rc < 0) {
		snprintf(a->error, sizeof(a->error), "%.64s: none of the sample formats S16, S32, "
			 "FLOAT, S24_3LE, S24 (use a plug: device)", a->device);
		rc = -ENOTSUP;
		goto out;
	}
	if (follow) {
		rc = snd_pcm_hw_params_set_channels(pcm, hw, a->channels);
	} else {
		a->channels = 2;
		rc = snd_pcm_hw_params_set_channels_near(pcm, hw, &a->channels);
	}
	if (rc < 0) {
		snprintf(a->error, sizeof(a->error), "%.64s: no channel count near 2", a->device);
		rc = -ENOTSUP;
		goto out;
	}
	rate = follow ? (unsigned int)a->rate_hz : (unsigned int)cfg->rate_hz;
	rc = snd_pcm_hw_params_set_rate_near(pcm, hw, &rate, &dir);
	if (rc < 0) {
		snprintf(a->error, sizeof(a->error), "%.64s: no rate near %u Hz", a->device, rate);
		rc = -ENOTSUP;
		goto out;
	}
	period = follow ? a->period_frames : (snd_pcm_uframes_t)cfg->period_frames;
	dir = 0;
	rc = snd_pcm_hw_params_set_period_size_near(pcm, hw, &period, &dir);
	if (rc >= 0) {
		periods = follow ? (unsigned int)(a->buffer_frames / a->period_frames)
				 : (unsigned int)cfg->periods;
		dir = 0;
		rc = snd_pcm_hw_params_set_periods_near(pcm, hw, &periods, &dir);
		if (rc < 0) {
			buffer = period * (follow ? a->buffer_frames / a->period_frames
						  : (snd_pcm_uframes_t)cfg->periods);
			rc = snd_pcm_hw_params_set_buffer_size_near(pcm, hw, &buffer);
		}
	}
	if (rc >= 0)
		rc = snd_pcm_hw_params(pcm, hw);
	if (rc < 0) {
		snprintf(a->error, sizeof(a->error), "%.64s: no period and buffer size near %lld x %d "
			 "frames: %s", a->device, (long long)cfg->period_frames, cfg->periods,
			 snd_strerror(rc));
		rc = rc == -EBUSY ? -EBUSY : -ENOTSUP;
		goto out;
	}
	snd_pcm_hw_params_get_rate(hw, &rate, &dir);
	snd_pcm_hw_params_get_period_size(hw, &period, &dir);
	snd_pcm_hw_params_get_buffer_size(hw, &buffer);
	if (follow && (rate != a->rate_hz || period != a->period_frames ||
		       buffer != a->buffer_frames)) {
		snprintf(a->error, sizeof(a->error), "%.64s: capture and playback differ (%u Hz, "
			 "%lu/%lu frames against %lld Hz, %lu/%lu)", a->device, rate, period, buffer,
			 (long long)a->rate_hz, a->period_frames, a->buffer_frames);
		rc = -ENOTSUP;
		goto out;
	}
	a->rate_hz = rate;
	a->period_frames = period;
	a->buffer_frames = buffer;
	rc = 0;
out:
	snd_pcm_hw_params_free(hw);
	return rc;
}

int
al__alsa_set_sw(struct alsa *a, snd_pcm_t *pcm)
{
	snd_pcm_sw_params_t *sw;
	snd_pcm_uframes_t boundary;
	int rc;

	rc = snd_pcm_sw_params_malloc(&sw);
	if (rc < 0)
		return rc;
	rc = snd_pcm_sw_params_current(pcm, sw);
	if (rc >= 0)
		rc = snd_pcm_sw_params_get_boundary(sw, &boundary);
	/* started by us after the prefill; stopped by the device when it runs dry */
	if (rc >= 0)
		rc = snd_pcm_sw_params_set_start_threshold(pcm, sw, boundary);
	if (rc >= 0)
		rc = snd_pcm_sw_params_set_stop_threshold(pcm, sw, a->buffer_frames);
	if (rc >= 0)
		rc = snd_pcm_sw_params_set_avail_min(pcm, sw, a->period_frames);
	if (rc >= 0)
		rc = snd_pcm_sw_params_set_tstamp_mode(pcm, sw, SND_PCM_TSTAMP_ENABLE);
	/* stamps on CLOCK_MONOTONIC where the PCM allows; checked at every status anyway */
	if (rc >= 0)
		snd_pcm_sw_params_set_tstamp_type(pcm, sw, SND_PCM_TSTAMP_TYPE_MONOTONIC);
	if (rc >= 0)
		rc = snd_pcm_sw_params(pcm, sw);
	if (rc < 0)
		snprintf(a->error, sizeof(a->error), "%.64s: software parameters: %s", a->device,
			 snd_strerror(rc));
	snd_pcm_sw_params_free(sw);
	return rc < 0 ? -ENOTSUP : 0;
}

int
al__alsa_open_pcm(struct alsa *a, snd_pcm_t **pcm, snd_pcm_stream_t stream)
{
	int rc = snd_pcm_open(pcm, a->device, stream, SND_PCM_NONBLOCK);

	if (rc >= 0)
		return 0;
	*pcm = NULL;
	snprintf(a->error, sizeof(a->error), "%.64s: cannot open for %s: %s", a->device,
		 stream == SND_PCM_STREAM_PLAYBACK ? "playback" : "capture", snd_strerror(rc));
	return al__alsa_open_errno(rc);
}

int
al__alsa_open_errno(int rc)
{
	switch (rc) {
	case -ENOENT:
	case -ENODEV:
	case -ENXIO:
	case -EINVAL: /* alsa-lib's answer for a card that does not exist (hw:77,0) */
		return -ENOENT;
	case -EBUSY:
	case -EAGAIN:
		return -EBUSY;
	case -EACCES:
	case -EPERM:
		return -EACCES;
	default:
		return rc;
	}
}

/* Refuse what is not close to the request, unless --nearest. */
int
al__alsa_check_close(struct alsa *a, int64_t rate_hz, int64_t period_frames, int periods)
{
	int64_t got_periods = (int64_t)(a->buffer_frames / a->period_frames);
	int64_t drate = a->rate_hz - rate_hz, dperiod = (int64_t)a->period_frames - period_frames;

	if (drate < 0)
		drate = -drate;
	if (dperiod < 0)
		dperiod = -dperiod;
	/* 0.5 % of the rate, 10 % of the period, the number of periods exactly */
	if (drate * 200 <= rate_hz && dperiod * 10 <= period_frames && got_periods == periods &&
	    a->buffer_frames % a->period_frames == 0)
		return 0;
	snprintf(a->error, sizeof(a->error), "%.64s gave %lld Hz, %lld x %lu frames (buffer %lu) "
		 "for %lld Hz, %d x %lld frames; --nearest takes it", a->device,
		 (long long)a->rate_hz, (long long)got_periods, a->period_frames, a->buffer_frames,
		 (long long)rate_hz, periods, (long long)period_frames);
	return -ERANGE;
}

/* The hint's text on one line: "Default Audio Device\nfoo" -> "Default Audio Device, foo". */
static void
one_line(const char *in, char *out, size_t size)
{
	size_t i;

	snprintf(out, size, "%s", in ? in : "");
	for (i = 0; out[i]; i++)
		if (out[i] == '\n')
			out[i] = i + 1 < size && out[i + 1] ? ';' : ' ';
}

int
al__alsa_list(al_device_emit_fn emit, void *ud)
{
	void **hints, **h;
	char desc[256];
	int rc;

	snd_lib_error_set_handler(al_text_discard);
	rc = snd_device_name_hint(-1, "pcm", &hints);
	if (rc < 0)
		return rc;
	for (h = hints; *h; h++) {
		char *name = snd_device_name_get_hint(*h, "NAME");
		char *d = snd_device_name_get_hint(*h, "DESC");
		char *io = snd_device_name_get_hint(*h, "IOID");

		one_line(d, desc, sizeof(desc));
		if (name)
			emit(ud, &(struct al_device){
					 .kind = "alsa-pcm",
					 .name = name,
					 .description = desc,
					 .detail = io ? (!strcmp(io, "Input") ? "capture" : "playback")
						      : "playback,capture",
				 });
		free(name);
		free(d);
		free(io);
	}
	snd_device_name_free_hint(hints);
	return 0;
}
