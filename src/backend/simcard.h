/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The simulated sound card: a playback buffer drained at exactly rate_hz
 * frames per second of CLOCK_MONOTONIC from the moment it starts, full.
 * Pure arithmetic on times passed in, so tests drive it with a fake clock.
 */
#ifndef AL_BACKEND_SIMCARD_H
#define AL_BACKEND_SIMCARD_H

#include <stdint.h>

#include "backend.h"

struct al_simcard {
	int64_t rate_hz;
	int64_t period_frames;
	int64_t buffer_frames;
	int64_t start_ns;       /* when the stream (re)started */
	int64_t written_frames; /* since start_ns, the initial fill included */
};

void al_simcard_init(struct al_simcard *c, int64_t rate_hz, int64_t period_frames, int periods);
/* Start (or restart after an xrun) with a full buffer at now_ns. */
void al_simcard_start(struct al_simcard *c, int64_t now_ns);
/* When the next period of space is free. */
int64_t al_simcard_next_boundary_ns(const struct al_simcard *c);
/* When the queued audio runs out if nothing more is written. */
int64_t al_simcard_empty_ns(const struct al_simcard *c);
/*
 * Write at now_ns: if the card ran dry before now_ns, report the xrun
 * (start, duration, lost periods) and restart the stream full at now_ns;
 * otherwise write whole periods until the buffer is full.
 */
void al_simcard_write(struct al_simcard *c, int64_t now_ns, struct al_write_info *wi);

#endif
