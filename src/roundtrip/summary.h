/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * From a run's MTDM readings to one verdict: the delay with min, max and
 * stddev over the readings taken after the signal settled, or why there
 * is no number (no signal, unstable). Pure.
 */
#ifndef AL_ROUNDTRIP_SUMMARY_H
#define AL_ROUNDTRIP_SUMMARY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/roundtrip.h" /* al_roundtrip_reading, al_roundtrip_summary */
#include "mtdm.h"

/* Readings count once this long after the first valid one (12 time constants). */
#define AL_ROUNDTRIP_SETTLE_NS 1000000000LL
/* Settled readings further apart than this (max - min) are unstable. */
#define AL_ROUNDTRIP_MAX_SPREAD_FRAMES 1.0

void al_roundtrip_summarize(const struct al_roundtrip_reading *rd, size_t n,
			    struct al_roundtrip_summary *s);

#endif
