/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The calibrated busy loop that stands in for a synthesizer computing a
 * period of audio (latencytest's "cpu load"). The loop count is fixed
 * before the run; how long it really takes is what gets measured.
 */
#ifndef AL_RUN_BUSY_H
#define AL_RUN_BUSY_H

#include <stdint.h>

/* Iterations of al_busy_run() that take target_ns on this CPU, unloaded. */
int64_t al_busy_calibrate(int64_t target_ns);
void al_busy_run(int64_t loops);

#endif
