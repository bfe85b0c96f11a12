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

#include "mtdm.h"

/* Readings count once this long after the first valid one (12 time constants). */
#define AL_ROUNDTRIP_SETTLE_NS 1000000000LL
/* Settled readings further apart than this (max - min) are unstable. */
#define AL_ROUNDTRIP_MAX_SPREAD_FRAMES 1.0

struct al_roundtrip_reading {
	int64_t t_ns;                /* since the stream started */
	struct al_mtdm_result r;
};

enum al_roundtrip_why {
	AL_ROUNDTRIP_OK = 0,
	AL_ROUNDTRIP_NEVER_VALID,    /* no valid reading in the whole run */
	AL_ROUNDTRIP_NOT_SETTLED,    /* valid, but the run ended before it settled */
	AL_ROUNDTRIP_LOST,           /* settled readings that are not valid */
	AL_ROUNDTRIP_SPREAD,         /* settled readings too far apart */
	AL_ROUNDTRIP_POLARITY,       /* settled readings disagree about polarity */
};

struct al_roundtrip_summary {
	enum al_mtdm_status status;  /* VALID, or what went wrong */
	enum al_roundtrip_why why;
	int64_t settled_at_ns;       /* -1: never */
	size_t n_readings;
	size_t n_settled;            /* readings at or after settled_at_ns */
	size_t n_valid;              /* of those, valid */
	size_t n_no_signal;
	size_t n_unstable;
	double delay_frames;         /* mean of the settled valid readings */
	double min_frames, max_frames, stddev_frames;
	double worst_error;          /* largest digit residual among them */
	double level;                /* mean loop gain */
	bool inverted;
};

void al_roundtrip_summarize(const struct al_roundtrip_reading *rd, size_t n,
			    struct al_roundtrip_summary *s);

/* One line: "no signal on the input", "readings spread over 3.2 frames", ... */
const char *al_roundtrip_why_text(enum al_roundtrip_why why);

#endif
