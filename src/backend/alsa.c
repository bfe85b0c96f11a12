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
#include "core/text.h"
#include "alsa-private.h"
#include "pcmtime.h"

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

	snd_lib_error_set_handler(al_text_discard);
	snprintf(a->device, sizeof(a->device), "%s", cfg->device[0] ? cfg->device : "default");
	a->mmap = cfg->mmap;
	if (!cfg->capture) {
		rc = al__alsa_open_pcm(a, &a->play, SND_PCM_STREAM_PLAYBACK);
		if (rc)
			goto err;
	}
	if (cfg->capture || cfg->duplex) {
		rc = al__alsa_open_pcm(a, &a->cap, SND_PCM_STREAM_CAPTURE);
		if (rc)
			goto err;
	}
	a->main = a->play ? a->play : a->cap;
	a->ready_events = a->play ? POLLOUT : POLLIN;
	rc = al__alsa_set_hw(a, a->main, cfg, false);
	if (!rc && a->play && a->cap)
		rc = al__alsa_set_hw(a, a->cap, cfg, true);
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
		rc = al__alsa_check_close(a, ask_rate_hz, ask_period_frames, ask_periods);
		if (rc)
			goto err;
	}
	rc = al__alsa_set_sw(a, a->main);
	if (!rc && a->play && a->cap)
		rc = al__alsa_set_sw(a, a->cap);
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
		 a->device, al__alsa_stream_name(cfg),
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

/*
 * Hot path: write frames of silence (or the sine) into the playback buffer,
 * or take frames from the capture buffer (and drop them).
 */
static int
move_frames(struct alsa *a, bool capture, snd_pcm_uframes_t frames)
{
	snd_pcm_t *pcm = capture ? a->cap : a->play;
	int64_t *moved = capture ? &a->cap_frames : &a->play_frames;
	snd_pcm_sframes_t n;

	while (frames > 0 && !a->mmap) {
		if (capture) {
			n = snd_pcm_readi(pcm, a->buf,
					  frames < a->buffer_frames ? frames : a->buffer_frames);
		} else {
			if (a->fill)
				a->fill(a, a->buf, frames);
			n = snd_pcm_writei(pcm, a->buf, frames);
		}
		if (n == -EAGAIN)
			return 0;
		if (n < 0)
			return (int)n;
		frames -= (snd_pcm_uframes_t)n;
		*moved += n;
	}
	while (frames > 0) {
		const snd_pcm_channel_area_t *areas;
		snd_pcm_uframes_t offset, size = frames;
		int rc = snd_pcm_mmap_begin(pcm, &areas, &offset, &size);

		if (rc < 0)
			return rc;
		if (!size)
			return 0;
		if (!capture && a->fill)
			a->fill(a, (char *)areas[0].addr + (areas[0].first + offset * areas[0].step) / 8,
				size);
		else if (!capture)
			snd_pcm_areas_silence(areas, offset, a->channels, size, a->format);
		n = snd_pcm_mmap_commit(pcm, offset, size);
		if (n < 0)
			return (int)n;
		frames -= (snd_pcm_uframes_t)n;
		*moved += n;
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
		rc = move_frames(a, false, a->buffer_frames);
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
	/*
	 * The first start only: a sound server takes its time to start a
	 * stream, and until it first consumes, a device standing still is not
	 * an xrun. Not after a recovery (start_stream again): the device was
	 * playing, and a device still after it is the same dropout going on
	 * (PipeWire's plugin restarted 10 ms before a 171 ms stall stood
	 * still through it, and the stall read no xrun at all).
	 */
	a->consuming = false;
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
	int64_t frame, lost, from_ns = 0;
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
		if (stamp_ns < w->wake_ns) {
			w->boundary_ns = stamp_ns -
					 frames_ns(a, avail - (snd_pcm_sframes_t)a->period_frames);
			a->bound_stamp++;
			return 0;
		}
		/*
		 * The pointer's stamp is no older than our wake-up (ioplug
		 * stamps the call, however many periods are free: a late wake
		 * finds more than one): when the device's frame clock freed
		 * the oldest free period, by the grid.
		 */
		frame = a->play ? a->play_frames - (int64_t)a->buffer_frames : a->cap_frames;
		w->boundary_ns = al_grid_boundary(&a->grid, frame + (int64_t)a->period_frames,
						  w->wake_ns);
		a->bound_grid++;
		/*
		 * What the device holds (frame + avail) behind its line by
		 * whole periods it never delivered (pcm_jack left out of a
		 * JACK cycle): the line moves, the periods are an xrun.
		 */
		lost = al_grid_behind(&a->grid, frame + (int64_t)avail, (int64_t)a->period_frames,
				      w->wake_ns, &from_ns);
		if (lost) {
			w->boundary_ns += llround(al_grid_frame_ns(&a->grid) *
						  (double)(lost * (int64_t)a->period_frames));
			a->slip_periods += lost;
			if (a->slip_periods == lost)
				a->slip_from_ns = from_ns;
		}
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

/*
 * Hot path, recording only: the overruns a PCM did not report. Full since
 * empty_ns, and for longer than a period: a PCM that drops what it has no
 * room for instead (alsa-lib's ioplug: plug:jack, pipewire), so its frame
 * count no longer tells the device's time; from when the buffer filled
 * until now. (A cycle later than a period after empty_ns found no room: no
 * false xrun, whatever the device's cycles; a drop of the last period
 * before now may go unseen.) Or the device stood still: it delivered less
 * since the last read than the time passed, by more than the buffer lasts
 * (a plugin whose own thread was stopped with ours, pcm_jack's JACK
 * client, or that its server left out of its cycles): the frames of that
 * time were never captured.
 */
static void
capture_account(struct alsa *a, snd_pcm_sframes_t avail, int64_t now_ns, struct al_write_info *wi)
{
	int64_t got_ns, still_ns;

	if ((snd_pcm_uframes_t)avail >= a->buffer_frames && now_ns - a->empty_ns > a->period_ns) {
		account_xrun(a, a->empty_ns, now_ns - a->empty_ns, wi);
		return;
	}
	if (!a->last_write_ns)
		return; /* no read yet */
	got_ns = frames_ns(a, (int64_t)avail - a->queued_frames);
	still_ns = now_ns - a->last_write_ns - got_ns;
	if (still_ns > a->buffer_ns)
		account_xrun(a, a->last_write_ns + got_ns, still_ns, wi);
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
	if (!a->play) {
		/* the margin is the room left before the buffer overflows (none: an overrun) */
		wi->margin_ns = frames_ns(a, (int64_t)(a->buffer_frames - (snd_pcm_uframes_t)avail));
		capture_account(a, avail, now_ns, wi);
	}
	left = (snd_pcm_uframes_t)avail % a->period_frames;
	rc = move_frames(a, true, (snd_pcm_uframes_t)avail - left);
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
	/* (after a drop: every boundary passed by the end of the work, counted by the driver) */
	wi->missed_known = !wi->xrun_start_ns;
	if (!a->play) {
		/* our account: the buffer is full (overruns) at empty_ns */
		a->last_write_ns = now_ns; /* the last read, and what it left */
		a->queued_frames = (int64_t)left;
		a->last_ok_ns = al_clock_now_ns();
		a->empty_ns = now_ns + frames_ns(a, (int64_t)(a->buffer_frames - left));
		a->next_due_ns = a->empty_ns - a->buffer_ns + a->period_ns;
	}
	return 0;
}

/* One write (capture: read) of the whole periods there is room for; an xrun's recovery. */
static int
write_periods(struct alsa *a, int64_t now_ns, struct al_write_info *wi)
{
	snd_pcm_sframes_t avail;
	snd_pcm_uframes_t n, queued;
	int rc;

	wi->margin_ns = INT64_MAX;
	wi->xrun_start_ns = 0;
	wi->xrun_ns = 0;
	wi->lost_periods = 0;
	wi->xrun_source = AL_XRUN_DEVICE; /* (the run's wi lives on: not the last account's) */
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
	rc = move_frames(a, false, n);
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
alsa_write(void *priv, int64_t now_ns, struct al_write_info *wi)
{
	struct alsa *a = priv;
	int rc = write_periods(a, now_ns, wi);

	/*
	 * The periods the device's frame count lost (alsa_wait): one xrun of
	 * our account's, unless this write found one itself (that one
	 * restarted the stream or the line: it stands for both).
	 */
	if (rc >= 0 && a->slip_periods && !wi->xrun_start_ns) {
		wi->xrun_start_ns = a->slip_from_ns;
		wi->xrun_ns = a->slip_periods * a->period_ns;
		wi->lost_periods = a->slip_periods;
		wi->xrun_source = AL_XRUN_ACCOUNT;
		a->xrun_account++;
	}
	a->slip_periods = 0;
	return rc;
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
	/* (most boundaries from the grid or our account: an ioplug PCM, no stamps) */
	out->bound_fitted = out->bound_estimated > a->bound_stamp;
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
	.list = al__alsa_list,
};

const char *
al_alsa_lib_version(void)
{
	return snd_asoundlib_version();
}
