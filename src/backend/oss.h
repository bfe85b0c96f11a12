/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_BACKEND_OSS_H
#define AL_BACKEND_OSS_H

#include <stdint.h>

#include "backend.h"

/* The OSS backend (oss.c): /dev/dsp, ALSA's OSS emulation or OSS itself. */
extern const struct al_backend_ops al_backend_oss;

/*
 * The SNDCTL_DSP_SETFRAGMENT argument for periods fragments of about
 * fragment_bytes: (periods << 16) | s, where 2^s is the power of two
 * nearest fragment_bytes (16 bytes .. 16 MiB; ties go up); periods is
 * clamped to 2..0x7fff. Pure, for the unit tests.
 */
int al_oss_fragment_arg(int64_t fragment_bytes, int periods);

#endif
