/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The ALSA PCM backend: playback (default), capture or duplex on any ALSA
 * PCM (hw:, plughw:, plug:jack, default, ...), read/write or mmap access.
 *
 * Every period: poll() until a period is free (or filled, for capture),
 * snd_pcm_status() for the state, avail and the stamp of the pointer, and
 * from them when the period boundary was (wait); then the run driver's busy
 * work; then write whole periods of silence or a sine (write). An xrun
 * (-EPIPE, the XRUN state, or a pointer past the buffer) is counted, its
 * duration taken as aplay does (now - trigger stamp) but validated
 * (pcmtime.h), and the stream recovered: prepare, refill, start.
 */
#include <errno.h>
#include <math.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <alsa/asoundlib.h>

#include "core/clock.h"
#include "alsa.h"
#include "pcmtime.h"

#define POLLFDS_MAX 16
/* no period for this long: the device (or the server behind a plugin) stopped */
#define STALL_MIN_NS (3 * AL_NS_PER_SEC)
#define TONE_AMPLITUDE 0.25 /* -12 dBFS */

struct alsa;
typedef void (*fill_fn)(struct alsa *a, void *dst, snd_pcm_uframes_t frames);

struct alsa {
	snd_pcm_t *play;          /* NULL for --capture */
	snd_pcm_t *cap;           /* --capture, --duplex */
	snd_pcm_t *main;          /* the stream waited on: play, or cap for --capture */
	bool linked;              /* duplex: cap starts and stops with play */
	snd_pcm_status_t *st;
	struct pollfd pfds[POLLFDS_MAX];
	int npfds;
	unsigned short ready_events; /* POLLOUT or POLLIN */

	snd_pcm_format_t format;
	unsigned int channels;
	int64_t rate_hz;
	snd_pcm_uframes_t period_frames;
	snd_pcm_uframes_t buffer_frames;
	int64_t period_ns;
	int64_t buffer_ns;
	int64_t stall_ns;
	size_t frame_bytes;
	void *buf;                /* buffer_frames of silence (or the sine, written per write) */
	bool mmap;
	fill_fn fill;             /* NULL: silence */
	double i32_full;          /* full scale of fill_i32 (S32, S24) */
	double phase, phase_inc;

	/* our account of the pointers, CLOCK_MONOTONIC */
	int64_t last_ok_ns;       /* last write that found the stream running */
	int64_t empty_ns;         /* when the audio queued then runs out (capture: the buffer fills) */
	int64_t next_due_ns;      /* when the next period is due by that account */
	int64_t last_write_ns;    /* the clock of the last write (playback), 0: none yet */
	int64_t queued_frames;    /* queued after it */
	bool consuming;           /* the device consumed since the stream (re)started */
	int64_t play_frames;      /* written since the stream (re)started */
	int64_t cap_frames;       /* read since the stream (re)started */
	struct al_grid grid;      /* the device's frame clock fitted to the wake-ups (core/grid.h) */

	/* for info() */
	uint64_t stamp_seen[4];   /* status stamps by enum al_stamp_base */
	uint64_t bound_stamp, bound_grid, bound_account; /* how boundaries were found */
	uint64_t xrun_stamped, xrun_fallback, xrun_account;
	const char *xrun_reject;
	char device[128];
	char detail[200];
	char error[200];
};

/* alsa-lib reports through this; library code never prints. */
static void
quiet_error(const char *file, int line, const char *function, int err, const char *fmt, ...)
{
	(void)file;
	(void)line;
	(void)function;
	(void)err;
	(void)fmt;
}

static int64_t
ts_ns(const snd_htimestamp_t *ts)
{
	return (int64_t)ts->tv_sec * AL_NS_PER_SEC + ts->tv_nsec;
}

static int64_t
frames_ns(struct alsa *a, int64_t frames)
{
	return frames >= 0 ? al_frames_to_ns(frames, a->rate_hz) : -al_frames_to_ns(-frames, a->rate_hz);
}

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

static const char *
stream_name(const struct al_config *cfg)
{
	return cfg->duplex ? "duplex" : cfg->capture ? "capture" : "playback";
}

/* Configure one PCM; on the second PCM of a duplex pair, take the first one's answer. */
static int
set_hw(struct alsa *a, snd_pcm_t *pcm, const struct al_config *cfg, bool follow)
{
	snd_pcm_access_t access = a->mmap ? SND_PCM_ACCESS_MMAP_INTERLEAVED
					  : SND_PCM_ACCESS_RW_INTERLEAVED;
	snd_pcm_hw_params_t *hw;
	snd_pcm_uframes_t period, buffer;
	unsigned int rate, periods;
	size_t i;
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
	if (follow) {
		rc = snd_pcm_hw_params_set_format(pcm, hw, a->format);
	} else {
		rc = -EINVAL;
		for (i = 0; i < sizeof(formats) / sizeof(formats[0]) && rc < 0; i++) {
			if (snd_pcm_hw_params_test_format(pcm, hw, formats[i].format) == 0) {
				rc = snd_pcm_hw_params_set_format(pcm, hw, formats[i].format);
				a->format = formats[i].format;
				a->fill = cfg->tone_hz ? formats[i].fill : NULL;
				a->i32_full = formats[i].i32_full;
			}
		}
	}
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

static int
set_sw(struct alsa *a, snd_pcm_t *pcm)
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

static int
open_pcm(struct alsa *a, snd_pcm_t **pcm, snd_pcm_stream_t stream)
{
	int rc = snd_pcm_open(pcm, a->device, stream, SND_PCM_NONBLOCK);

	if (rc >= 0)
		return 0;
	*pcm = NULL;
	snprintf(a->error, sizeof(a->error), "%.64s: cannot open for %s: %s", a->device,
		 stream == SND_PCM_STREAM_PLAYBACK ? "playback" : "capture", snd_strerror(rc));
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
static int
check_close(struct alsa *a, int64_t rate_hz, int64_t period_frames, int periods)
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

static void
alsa_close(void *priv)
{
	struct alsa *a = priv;

	if (a->linked)
		snd_pcm_unlink(a->cap);
	if (a->play)
		snd_pcm_close(a->play);
	if (a->cap)
		snd_pcm_close(a->cap);
	if (a->st)
		snd_pcm_status_free(a->st);
	free(a->buf);
	a->play = a->cap = a->main = NULL;
	a->st = NULL;
	a->buf = NULL;
	a->linked = false;
}

static int
alsa_open(void *priv, struct al_config *cfg)
{
	struct alsa *a = priv;
	int64_t ask_rate_hz = cfg->rate_hz, ask_period_frames = cfg->period_frames;
	int ask_periods = cfg->periods;
	int rc, n;

	snd_lib_error_set_handler(quiet_error);
	snprintf(a->device, sizeof(a->device), "%s", cfg->device[0] ? cfg->device : "default");
	a->mmap = cfg->mmap;
	if (!cfg->capture) {
		rc = open_pcm(a, &a->play, SND_PCM_STREAM_PLAYBACK);
		if (rc)
			goto err;
	}
	if (cfg->capture || cfg->duplex) {
		rc = open_pcm(a, &a->cap, SND_PCM_STREAM_CAPTURE);
		if (rc)
			goto err;
	}
	a->main = a->play ? a->play : a->cap;
	a->ready_events = a->play ? POLLOUT : POLLIN;
	rc = set_hw(a, a->main, cfg, false);
	if (!rc && a->play && a->cap)
		rc = set_hw(a, a->cap, cfg, true);
	if (rc)
		goto err;
	/* what the device gave goes into the result, even when refused */
	cfg->rate_hz = a->rate_hz;
	cfg->period_frames = (int64_t)a->period_frames;
	cfg->periods = (int)(a->buffer_frames / a->period_frames);
	cfg->channels = (int)a->channels;
	snprintf(cfg->format, sizeof(cfg->format), "%s", snd_pcm_format_name(a->format));
	snprintf(cfg->device, sizeof(cfg->device), "%s", a->device);
	if (!cfg->nearest) {
		rc = check_close(a, ask_rate_hz, ask_period_frames, ask_periods);
		if (rc)
			goto err;
	}
	rc = set_sw(a, a->main);
	if (!rc && a->play && a->cap)
		rc = set_sw(a, a->cap);
	if (rc)
		goto err;
	if (a->play && a->cap)
		a->linked = snd_pcm_link(a->cap, a->play) == 0;

	n = snd_pcm_poll_descriptors_count(a->main);
	if (n <= 0 || n > POLLFDS_MAX) {
		snprintf(a->error, sizeof(a->error), "%.64s: %d poll descriptors", a->device, n);
		rc = -ENOTSUP;
		goto err;
	}
	a->npfds = snd_pcm_poll_descriptors(a->main, a->pfds, (unsigned int)n);
	rc = snd_pcm_status_malloc(&a->st);
	if (rc < 0)
		goto err;
	a->frame_bytes = (size_t)snd_pcm_format_physical_width(a->format) / 8 * a->channels;
	a->buf = malloc(a->buffer_frames * a->frame_bytes);
	if (!a->buf) {
		rc = -ENOMEM;
		goto err;
	}
	snd_pcm_format_set_silence(a->format, a->buf,
				   (unsigned int)(a->buffer_frames * a->channels));
	a->period_ns = al_frames_to_ns((int64_t)a->period_frames, a->rate_hz);
	a->buffer_ns = al_frames_to_ns((int64_t)a->buffer_frames, a->rate_hz);
	a->stall_ns = 8 * a->buffer_ns > STALL_MIN_NS ? 8 * a->buffer_ns : STALL_MIN_NS;
	a->phase_inc = 2 * M_PI * cfg->tone_hz / (double)a->rate_hz;
	snprintf(a->detail, sizeof(a->detail), "%s: %s, %s, %s, %u ch, %lld Hz, %lu x %lu frames%s",
		 a->device, stream_name(cfg),
		 snd_pcm_access_name(a->mmap ? SND_PCM_ACCESS_MMAP_INTERLEAVED
					     : SND_PCM_ACCESS_RW_INTERLEAVED),
		 snd_pcm_format_name(a->format), a->channels, (long long)a->rate_hz,
		 a->buffer_frames / a->period_frames, a->period_frames,
		 a->play && a->cap ? (a->linked ? ", linked" : ", not linked") : "");
	return 0;
err:
	alsa_close(a);
	return rc < 0 ? rc : -EIO;
}

/* Hot path: write frames of silence (or the sine) into the playback buffer. */
static int
put_frames(struct alsa *a, snd_pcm_uframes_t frames)
{
	snd_pcm_sframes_t n;

	if (!a->mmap) {
		while (frames > 0) {
			if (a->fill)
				a->fill(a, a->buf, frames);
			n = snd_pcm_writei(a->play, a->buf, frames);
			if (n == -EAGAIN)
				return 0;
			if (n < 0)
				return (int)n;
			frames -= (snd_pcm_uframes_t)n;
			a->play_frames += n;
		}
		return 0;
	}
	while (frames > 0) {
		const snd_pcm_channel_area_t *areas;
		snd_pcm_uframes_t offset, size = frames;
		int rc = snd_pcm_mmap_begin(a->play, &areas, &offset, &size);

		if (rc < 0)
			return rc;
		if (!size)
			return 0;
		if (a->fill)
			a->fill(a, (char *)areas[0].addr + (areas[0].first + offset * areas[0].step) / 8,
				size);
		else
			snd_pcm_areas_silence(areas, offset, a->channels, size, a->format);
		n = snd_pcm_mmap_commit(a->play, offset, size);
		if (n < 0)
			return (int)n;
		frames -= (snd_pcm_uframes_t)n;
		a->play_frames += n;
	}
	return 0;
}

/* Hot path: take frames from the capture buffer (and drop them). */
static int
take_frames(struct alsa *a, snd_pcm_uframes_t frames)
{
	snd_pcm_sframes_t n;

	if (!a->mmap) {
		while (frames > 0) {
			n = snd_pcm_readi(a->cap, a->buf,
					  frames < a->buffer_frames ? frames : a->buffer_frames);
			if (n == -EAGAIN)
				return 0;
			if (n < 0)
				return (int)n;
			frames -= (snd_pcm_uframes_t)n;
			a->cap_frames += n;
		}
		return 0;
	}
	while (frames > 0) {
		const snd_pcm_channel_area_t *areas;
		snd_pcm_uframes_t offset, size = frames;
		int rc = snd_pcm_mmap_begin(a->cap, &areas, &offset, &size);

		if (rc < 0)
			return rc;
		if (!size)
			return 0;
		n = snd_pcm_mmap_commit(a->cap, offset, size);
		if (n < 0)
			return (int)n;
		a->cap_frames += n;
		frames -= (snd_pcm_uframes_t)n;
	}
	return 0;
}

/* Start (or restart after an xrun) with a full playback buffer. */
static int
start_stream(struct alsa *a)
{
	int rc;

	a->play_frames = a->cap_frames = 0;
	al_grid_start(&a->grid, a->rate_hz);
	if (a->play) {
		rc = put_frames(a, a->buffer_frames);
		if (rc < 0)
			return rc;
	}
	rc = snd_pcm_start(a->main);
	if (rc < 0)
		return rc;
	if (a->play && a->cap && !a->linked) {
		rc = snd_pcm_start(a->cap);
		if (rc < 0)
			return rc;
	}
	a->last_ok_ns = al_clock_now_ns();
	a->empty_ns = a->last_ok_ns + a->buffer_ns;
	a->next_due_ns = a->last_ok_ns + a->period_ns;
	a->last_write_ns = a->play ? a->last_ok_ns : 0;
	a->queued_frames = (int64_t)a->buffer_frames;
	a->consuming = false;
	return 0;
}

static int
alsa_start(void *priv, int64_t *start_ns)
{
	struct alsa *a = priv;
	int rc;

	if (a->play)
		rc = snd_pcm_prepare(a->play);
	else
		rc = snd_pcm_prepare(a->cap);
	if (rc >= 0 && a->play && a->cap && !a->linked)
		rc = snd_pcm_prepare(a->cap);
	if (rc >= 0)
		rc = start_stream(a);
	if (rc < 0)
		return rc;
	*start_ns = a->last_ok_ns;
	return 0;
}

static int
alsa_wait(void *priv, struct al_wake *w)
{
	struct alsa *a = priv;
	int64_t deadline_ns = al_clock_now_ns() + a->stall_ns, now_ns, stamp_ns, mono_ns, real_ns;
	snd_pcm_sframes_t avail = 0;
	enum al_stamp_base base;
	snd_pcm_state_t state;
	snd_htimestamp_t ts;
	struct timespec rt;
	unsigned short rev;
	int n, rc;

	for (;;) {
		now_ns = al_clock_now_ns();
		if (now_ns >= deadline_ns)
			return -ETIMEDOUT;
		n = poll(a->pfds, (nfds_t)a->npfds,
			 (int)((deadline_ns - now_ns + AL_NS_PER_MS - 1) / AL_NS_PER_MS));
		if (n < 0 && errno != EINTR)
			return -errno;
		if (n <= 0)
			continue;
		rev = 0;
		rc = snd_pcm_poll_descriptors_revents(a->main, a->pfds, (unsigned int)a->npfds, &rev);
		if (rc < 0)
			return rc;
		w->wake_ns = al_clock_now_ns();
		if (rev & (POLLERR | POLLNVAL | POLLHUP)) {
			/* an xrun (or a device gone): write() finds out which */
			w->boundary_ns = a->next_due_ns < w->wake_ns ? a->next_due_ns : w->wake_ns;
			return 0;
		}
		if (!(rev & a->ready_events))
			continue;
		rc = snd_pcm_status(a->main, a->st);
		mono_ns = al_clock_now_ns();
		clock_gettime(CLOCK_REALTIME, &rt);
		real_ns = (int64_t)rt.tv_sec * AL_NS_PER_SEC + rt.tv_nsec;
		if (rc < 0)
			return rc;
		state = snd_pcm_status_get_state(a->st);
		avail = snd_pcm_status_get_avail(a->st);
		if (state == SND_PCM_STATE_RUNNING && avail < (snd_pcm_sframes_t)a->period_frames)
			continue; /* woken before a whole period was there */
		break;
	}
	snd_pcm_status_get_htstamp(a->st, &ts);
	stamp_ns = ts_ns(&ts);
	base = al_stamp_classify(stamp_ns, mono_ns, real_ns);
	a->stamp_seen[base]++;
	/*
	 * The boundary: when the pointer had freed one period, i.e. the
	 * stamp of the pointer position minus the frames freed beyond one
	 * period. Without a usable stamp (or stopped), our own account.
	 */
	w->boundary_ns = 0;
	if (state == SND_PCM_STATE_RUNNING &&
	    (base == AL_STAMP_MONOTONIC || base == AL_STAMP_REALTIME)) {
		stamp_ns = al_stamp_to_mono(stamp_ns, base, mono_ns, real_ns);
		w->boundary_ns = stamp_ns - frames_ns(a, avail - (snd_pcm_sframes_t)a->period_frames);
		if (w->boundary_ns < w->wake_ns) {
			a->bound_stamp++;
			return 0;
		}
		/*
		 * The pointer is no newer than our wake-up (ioplug stamps the
		 * call): when the device's frame clock freed the oldest free
		 * period, by the grid.
		 */
		w->boundary_ns = al_grid_boundary(&a->grid,
						  a->play ? a->play_frames - (int64_t)a->buffer_frames +
								    (int64_t)a->period_frames
							  : a->cap_frames + (int64_t)a->period_frames,
						  w->wake_ns);
		a->bound_grid++;
		return 0;
	}
	w->boundary_ns = a->next_due_ns < w->wake_ns ? a->next_due_ns : w->wake_ns;
	a->bound_account++;
	return 0;
}

/* The xrun: its validated duration, then prepare, refill, start. */
static int
recover(struct alsa *a, snd_pcm_t *pcm, int err, struct al_write_info *wi)
{
	struct al_xrun_stamps xs = {
		.last_ok_ns = a->last_ok_ns,
		.empty_ns = a->empty_ns,
		.period_ns = a->period_ns,
	};
	struct al_xrun_duration d;
	snd_htimestamp_t ts;
	struct timespec rt;
	int rc;

	if (snd_pcm_status(pcm, a->st) >= 0) {
		snd_pcm_status_get_htstamp(a->st, &ts);
		xs.status_ns = ts_ns(&ts);
		snd_pcm_status_get_trigger_htstamp(a->st, &ts);
		xs.trigger_ns = ts_ns(&ts);
	}
	xs.now_mono_ns = al_clock_now_ns();
	clock_gettime(CLOCK_REALTIME, &rt);
	xs.now_real_ns = (int64_t)rt.tv_sec * AL_NS_PER_SEC + rt.tv_nsec;
	al_xrun_duration(&xs, &d);
	if (d.from_stamps) {
		a->xrun_stamped++;
	} else {
		a->xrun_fallback++;
		a->xrun_reject = d.reject;
	}
	wi->xrun_start_ns = d.start_ns > 0 ? d.start_ns : xs.now_mono_ns;
	wi->xrun_ns = d.duration_ns;
	wi->lost_periods = d.lost_periods;
	wi->margin_ns = 0;

	if (err == -ESTRPIPE) {
		while ((rc = snd_pcm_resume(pcm)) == -EAGAIN)
			al_clock_sleep_until_ns(al_clock_now_ns() + AL_NS_PER_MS);
		if (rc >= 0)
			return 0;
	}
	if (a->linked || !(a->play && a->cap)) {
		rc = snd_pcm_prepare(a->main);
	} else {
		rc = snd_pcm_drop(a->play);
		if (rc >= 0)
			rc = snd_pcm_drop(a->cap);
		if (rc >= 0)
			rc = snd_pcm_prepare(a->play);
		if (rc >= 0)
			rc = snd_pcm_prepare(a->cap);
	}
	if (rc < 0)
		return rc;
	return start_stream(a);
}

static bool
is_xrun(snd_pcm_sframes_t rc)
{
	return rc == -EPIPE || rc == -ESTRPIPE;
}

/* Capture side: read the whole periods there are; 0, 1 (overrun, recovered), -errno. */
static int
capture_side(struct alsa *a, int64_t now_ns, struct al_write_info *wi)
{
	snd_pcm_sframes_t avail = snd_pcm_avail(a->cap);
	snd_pcm_uframes_t left;
	int rc;

	if (avail >= 0 && (snd_pcm_uframes_t)avail > a->buffer_frames)
		avail = -EPIPE;
	if (is_xrun(avail)) {
		rc = recover(a, a->cap, (int)avail, wi);
		return rc < 0 ? rc : 1;
	}
	if (avail < 0)
		return (int)avail;
	/* capture: the margin is the room left before the buffer overflows */
	if (!a->play)
		wi->margin_ns = frames_ns(a, (int64_t)(a->buffer_frames - (snd_pcm_uframes_t)avail));
	left = (snd_pcm_uframes_t)avail % a->period_frames;
	rc = take_frames(a, (snd_pcm_uframes_t)avail - left);
	if (is_xrun(rc)) {
		rc = recover(a, a->cap, rc, wi);
		return rc < 0 ? rc : 1;
	}
	if (rc < 0)
		return rc;
	/* the periods read beyond the one waited for had no wake-up of their own */
	wi->missed = (int64_t)((snd_pcm_uframes_t)avail / a->period_frames) - 1;
	if (wi->missed < 0)
		wi->missed = 0;
	wi->missed_known = true;
	if (!a->play) {
		/* our account: the buffer is full (overruns) at empty_ns */
		a->last_ok_ns = al_clock_now_ns();
		a->empty_ns = now_ns + frames_ns(a, (int64_t)(a->buffer_frames - left));
		a->next_due_ns = a->empty_ns - a->buffer_ns + a->period_ns;
	}
	return 0;
}

/* Hot path: an xrun our account found (the PCM said nothing): from start_ns, dur_ns long. */
static void
account_xrun(struct alsa *a, int64_t start_ns, int64_t dur_ns, struct al_write_info *wi)
{
	wi->xrun_start_ns = start_ns;
	wi->xrun_ns = dur_ns;
	wi->lost_periods = (dur_ns + a->period_ns - 1) / a->period_ns;
	wi->xrun_source = AL_XRUN_ACCOUNT;
	wi->margin_ns = 0;
	a->xrun_account++;
	/* the device resumes where our write puts it: a new frame clock */
	al_grid_start(&a->grid, a->rate_hz);
}

static int
alsa_write(void *priv, int64_t now_ns, struct al_write_info *wi)
{
	struct alsa *a = priv;
	snd_pcm_sframes_t avail;
	snd_pcm_uframes_t n, queued;
	int rc;

	wi->margin_ns = INT64_MAX;
	wi->xrun_start_ns = 0;
	wi->xrun_ns = 0;
	wi->lost_periods = 0;
	wi->missed_known = false;
	if (a->cap) {
		rc = capture_side(a, now_ns, wi);
		if (rc < 0)
			return rc;
		if (rc > 0 || !a->play)
			return 0;
	}
	avail = snd_pcm_avail(a->play);
	/* a pointer past the buffer: the device played what was not written */
	if (avail >= 0 && (snd_pcm_uframes_t)avail > a->buffer_frames)
		avail = -EPIPE;
	if (is_xrun(avail))
		return recover(a, a->play, (int)avail, wi);
	if (avail < 0)
		return (int)avail;
	queued = a->buffer_frames - (snd_pcm_uframes_t)avail;
	wi->margin_ns = frames_ns(a, (int64_t)queued);
	if (!queued && now_ns - a->empty_ns > a->period_ns) {
		/*
		 * Drained and dry since empty_ns, yet no xrun reported: a PCM
		 * that plays silence instead (alsa-lib's ioplug: plug:jack,
		 * pulse, pipewire) or a driver that noticed nothing. Our
		 * account says how long: from when the audio queued at the
		 * last write ran out until now (less up to a period: the
		 * pointer moves in the device's steps).
		 */
		account_xrun(a, a->empty_ns, now_ns - a->empty_ns, wi);
	} else if (a->last_write_ns && a->consuming) {
		/*
		 * The device stood still: it consumed less since the last
		 * write than the time passed, by more than the buffer lasts
		 * (no device consumes in steps that coarse). A plugin whose
		 * own thread was stopped with ours (pcm_jack's JACK client):
		 * its server played silence meanwhile. (Not before it first
		 * consumed: a sound server takes its time to start a stream,
		 * and the audio is late then, not lost.)
		 */
		int64_t used_ns = frames_ns(a, a->queued_frames - (int64_t)queued);
		int64_t still_ns = now_ns - a->last_write_ns - used_ns;

		if (still_ns > a->buffer_ns)
			account_xrun(a, a->last_write_ns + used_ns, still_ns, wi);
	}
	n = (snd_pcm_uframes_t)avail - (snd_pcm_uframes_t)avail % a->period_frames;
	rc = put_frames(a, n);
	if (is_xrun(rc))
		return recover(a, a->play, rc, wi);
	if (rc < 0)
		return rc;
	/*
	 * The periods filled beyond the one waited for came free without a
	 * wake-up of their own (after a starvation: every boundary it passed).
	 */
	wi->missed = n / a->period_frames > 1 ? (int64_t)(n / a->period_frames) - 1 : 0;
	wi->missed_known = !wi->xrun_start_ns;
	/* our account: the queued audio runs out at empty_ns */
	a->last_ok_ns = al_clock_now_ns();
	a->empty_ns = now_ns + frames_ns(a, (int64_t)(queued + n));
	a->next_due_ns = a->empty_ns - a->buffer_ns + a->period_ns;
	if ((int64_t)queued < a->queued_frames)
		a->consuming = true;
	a->last_write_ns = now_ns;
	a->queued_frames = (int64_t)(queued + n);
	return 0;
}

static int
alsa_stop(void *priv)
{
	struct alsa *a = priv;

	if (a->play)
		snd_pcm_drop(a->play);
	if (a->cap && !a->linked)
		snd_pcm_drop(a->cap);
	return 0;
}

static void
alsa_info(void *priv, struct al_backend_info *out)
{
	struct alsa *a = priv;
	enum al_stamp_base best = AL_STAMP_NONE;

	snprintf(out->detail, sizeof(out->detail), "%s", a->detail);
	snprintf(out->error, sizeof(out->error), "%s", a->error);
	for (int b = AL_STAMP_NONE; b <= AL_STAMP_UNKNOWN; b++)
		if (a->stamp_seen[b] > a->stamp_seen[best])
			best = (enum al_stamp_base)b;
	if (a->stamp_seen[best])
		snprintf(out->clock, sizeof(out->clock), "stamps on %s%s; boundaries: %llu stamp, "
			 "%llu grid, %llu account", al_stamp_base_name(best),
			 best == AL_STAMP_REALTIME ? " (mapped)" : "",
			 (unsigned long long)a->bound_stamp, (unsigned long long)a->bound_grid,
			 (unsigned long long)a->bound_account);
	out->xrun_stamped = a->xrun_stamped;
	out->xrun_fallback = a->xrun_fallback;
	snprintf(out->xrun_reject, sizeof(out->xrun_reject), "%s",
		 a->xrun_reject ? a->xrun_reject : "");
	out->bound_total = a->bound_stamp + a->bound_grid + a->bound_account;
	out->bound_estimated = a->bound_grid + a->bound_account;
	if (a->bound_grid)
		snprintf(out->bound_note, sizeof(out->bound_note),
			 "the device stamps only the call: a frame clock fitted to the wake-ups, "
			 "drift %+.1f ppm", a->grid.drift * 1e6);
	else if (a->bound_account)
		snprintf(out->bound_note, sizeof(out->bound_note),
			 "no usable stamp: our account of the pointers");
	if (a->bound_grid)
		snprintf(out->negative_note, sizeof(out->negative_note),
			 "the frame clock, fitted to the earliest wake-ups as the run goes, ran "
			 "late of a wake-up");
	else
		snprintf(out->negative_note, sizeof(out->negative_note),
			 "the device's stamp came after our clock read (a stamp on the period "
			 "interrupt's clock)");
	if (a->xrun_account) {
		size_t len = strlen(out->detail);

		snprintf(out->detail + len, sizeof(out->detail) - len,
			 "; %llu xrun(s) from our account (the PCM reported none)",
			 (unsigned long long)a->xrun_account);
	}
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

static int
alsa_list(al_device_emit_fn emit, void *ud)
{
	void **hints, **h;
	char desc[256];
	int rc;

	snd_lib_error_set_handler(quiet_error);
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

const struct al_backend_ops al_backend_alsa = {
	.name = "alsa",
	.summary = "an ALSA PCM (hw:, plughw:, plug:jack, default, ...) through alsa-lib",
	.caps = AL_CAP_CAPTURE | AL_CAP_DUPLEX | AL_CAP_MMAP | AL_CAP_TONE | AL_CAP_NEAREST |
		AL_CAP_DEVICE,
	.duplex = &al_duplex_alsa,
	.priv_size = sizeof(struct alsa),
	.open = alsa_open,
	.start = alsa_start,
	.wait = alsa_wait,
	.write = alsa_write,
	.stop = alsa_stop,
	.close = alsa_close,
	.info = alsa_info,
	.list = alsa_list,
};

const char *
al_alsa_lib_version(void)
{
	return snd_asoundlib_version();
}
