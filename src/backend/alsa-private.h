/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The ALSA backend's state, shared by alsa.c (the stream) and alsa-setup.c (its setup). */
#ifndef AL_BACKEND_ALSA_PRIVATE_H
#define AL_BACKEND_ALSA_PRIVATE_H

#include <poll.h>
#include <stdbool.h>
#include <stdint.h>

#include <alsa/asoundlib.h>

#include "core/grid.h"
#include "alsa.h"

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
	int64_t last_write_ns;    /* the clock of the last write (capture: read), 0: none yet */
	int64_t queued_frames;    /* queued after it (capture: left unread) */
	bool consuming;           /* the device consumed since the stream first started */
	int64_t play_frames;      /* written since the stream (re)started */
	int64_t cap_frames;       /* read since the stream (re)started */
	struct al_grid grid;      /* the device's frame clock fitted to the wake-ups (core/grid.h) */
	int64_t slip_periods;     /* periods its frame count lost (al_grid_behind), for the next write */
	int64_t slip_from_ns;     /* when the first of them was due */

	/* for info() */
	uint64_t stamp_seen[4];   /* status stamps by enum al_stamp_base */
	uint64_t bound_stamp, bound_grid, bound_account; /* how boundaries were found */
	uint64_t xrun_stamped, xrun_fallback, xrun_account;
	const char *xrun_reject;
	char device[128];
	char detail[200];
	char error[200];
};

/* alsa-setup.c */
/* alsa-lib reports through this; library code never prints. */
const char *al__alsa_stream_name(const struct al_config *cfg);
/* Configure one PCM; on the second PCM of a duplex pair, take the first one's answer. */
int al__alsa_set_hw(struct alsa *a, snd_pcm_t *pcm, const struct al_config *cfg, bool follow);
int al__alsa_set_sw(struct alsa *a, snd_pcm_t *pcm);
/* snd_pcm_open, non-blocking; alsa-lib's error as -ENOENT, -EBUSY, -EACCES or itself */
int al__alsa_open_pcm(struct alsa *a, snd_pcm_t **pcm, snd_pcm_stream_t stream);
/* snd_pcm_open's error as the backends say it (a card that does not exist: -ENOENT) */
int al__alsa_open_errno(int rc);
/* Refuse what is not close to the request, unless --nearest. */
int al__alsa_check_close(struct alsa *a, int64_t rate_hz, int64_t period_frames, int periods);
int al__alsa_list(al_device_emit_fn emit, void *ud);

#endif
