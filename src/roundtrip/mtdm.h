/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Multi-tone delay measurement (MTDM): the round-trip delay of an audio
 * loop with sub-sample accuracy (docs/roundtrip.md).
 *
 * al_mtdm_process() plays a sum of 13 sine tones into out and correlates
 * in with each tone; each tone's phase lag, low-pass filtered, yields one
 * more binary digit of the delay, the highest tone (rate / 16) its
 * fraction. The delay range is 0 .. 65536 frames.
 *
 * Threads: one thread (the audio callback) calls al_mtdm_process(); one
 * other thread may call al_mtdm_read() at any time. process() publishes
 * its filter state through a wait-free triple buffer; it allocates
 * nothing, locks nothing and makes no system call.
 */
#ifndef AL_ROUNDTRIP_MTDM_H
#define AL_ROUNDTRIP_MTDM_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

#include "core/roundtrip.h" /* the readings as plain data: al_mtdm_result */

#define AL_MTDM_TONES 13
/* The delay wraps at this many frames (16 x 4096). */
#define AL_MTDM_RANGE_FRAMES 65536
/* Loop gain on the master tone below which there is "no signal" (-60 dB). */
#define AL_MTDM_MIN_LEVEL 0.001
/* Input samples beyond +-this (and NaN, Inf) are counted and read as 0. */
#define AL_MTDM_MAX_INPUT 1.0e6f

/* The filtered correlations, as published by process(). */
struct al_mtdm_state {
	double re[AL_MTDM_TONES];
	double im[AL_MTDM_TONES];
	uint64_t frames;
	uint64_t bad_frames;
};

/* Large (about 270 KiB, a sine table): allocate it, don't put it on a stack. */
struct al_mtdm {
	uint32_t rate_hz;
	double coef;                      /* low-pass coefficient per 16-frame step */
	uint16_t phase[AL_MTDM_TONES];    /* 16-bit phase accumulators */
	unsigned step;                    /* frames into the current 16-frame sum */
	double acc_re[AL_MTDM_TONES];     /* correlation over the current 16 frames */
	double acc_im[AL_MTDM_TONES];
	double lp1_re[AL_MTDM_TONES];     /* first low-pass stage */
	double lp1_im[AL_MTDM_TONES];
	double lp2_re[AL_MTDM_TONES];     /* second stage: what is published */
	double lp2_im[AL_MTDM_TONES];
	uint64_t frames;
	uint64_t bad_frames;
	struct al_mtdm_state slot[3];     /* triple buffer */
	unsigned back;                    /* writer's slot */
	unsigned front;                   /* reader's slot */
	atomic_uint middle;               /* slot index | AL_MTDM_FRESH */
	float sine[65536];                /* sin(2 pi i / 65536) */
};

/*
 * Reset m for a stream at rate_hz (the filters' 80 ms time constant is
 * kept in seconds). 0, or -EINVAL for a rate outside 1000..768000.
 */
int al_mtdm_init(struct al_mtdm *m, uint32_t rate_hz);

/*
 * HOT: generate nframes of the test signal into out and demodulate in.
 * in[i] is read before out[i] is written, so in may alias out; either may
 * be NULL (nothing captured: zeros; nothing to play).
 */
void al_mtdm_process(struct al_mtdm *m, const float *in, float *out, uint32_t nframes);

/* The latest published state (one reader thread at a time). */
void al_mtdm_read(struct al_mtdm *m, struct al_mtdm_result *r);

/* Resolve a state into a reading (pure). */
void al_mtdm_resolve(const struct al_mtdm_state *s, struct al_mtdm_result *r);

#endif
