/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Device time stamps and xrun durations, validated. Pure arithmetic on
 * times passed in (no ALSA or JACK headers), so the unit tests feed it the
 * bad stamps seen in the wild: zero trigger stamps (aplay printing the time
 * since the epoch, alsa-utils #298), negative durations (jack2 #307),
 * 76-hour delays (jackclient-python #105), stamps on mixed clocks, and
 * trigger stamps a plugin never updates at an xrun (alsa-lib's ioplug, which
 * pcm_jack uses, stamps only start and stop).
 */
#ifndef AL_BACKEND_PCMTIME_H
#define AL_BACKEND_PCMTIME_H

#include <stdbool.h>
#include <stdint.h>

#include "core/grid.h" /* the period grid for boundaries a device does not stamp */

/* The clock a device stamp is on, found by comparing it with ours. */
enum al_stamp_base {
	AL_STAMP_NONE,      /* zero: no stamp */
	AL_STAMP_MONOTONIC, /* CLOCK_MONOTONIC (what audiolat uses) */
	AL_STAMP_REALTIME,  /* CLOCK_REALTIME (gettimeofday) */
	AL_STAMP_UNKNOWN,   /* near neither */
};

/* How close a "now" stamp must be to one of our clocks to be on it. */
#define AL_STAMP_NOW_TOLERANCE_NS (2 * 1000000000LL)

/*
 * Which clock is stamp_ns (a device's "now", taken between our reads) on?
 * mono_ns and real_ns are CLOCK_MONOTONIC and CLOCK_REALTIME read together.
 */
enum al_stamp_base al_stamp_classify(int64_t stamp_ns, int64_t mono_ns, int64_t real_ns);

/* "monotonic", "realtime", "none", "unknown". */
const char *al_stamp_base_name(enum al_stamp_base base);

/* A stamp on base as CLOCK_MONOTONIC ns (using the offset of our two reads); 0 for NONE/UNKNOWN. */
int64_t al_stamp_to_mono(int64_t stamp_ns, enum al_stamp_base base, int64_t mono_ns,
			 int64_t real_ns);

/* What is known when a device reports an xrun. */
struct al_xrun_stamps {
	int64_t now_mono_ns;     /* CLOCK_MONOTONIC read right after the status */
	int64_t now_real_ns;     /* CLOCK_REALTIME read with it */
	int64_t status_ns;       /* the status "now" stamp (device clock), 0: none */
	int64_t trigger_ns;      /* the status trigger stamp (device clock), 0: none */
	int64_t last_ok_ns;      /* CLOCK_MONOTONIC: the last write that found the stream running */
	int64_t empty_ns;        /* CLOCK_MONOTONIC: when the audio queued then ran out (the pointers) */
	int64_t period_ns;
};

/* The validated answer. */
struct al_xrun_duration {
	int64_t start_ns;        /* CLOCK_MONOTONIC: when the device ran dry (at the latest) */
	int64_t duration_ns;     /* "at least" this long, >= 0 */
	int64_t lost_periods;    /* >= 1 */
	bool from_stamps;        /* false: the pointer fallback was used */
	const char *reject;      /* why the stamps were rejected (static text), NULL when used */
};

/* Longest believable xrun: longer ones are clock confusion, not starvation. */
#define AL_XRUN_MAX_NS (3600LL * 1000000000LL)

/*
 * aplay's "at least now - trigger", validated: the trigger stamp must be
 * set, on the same clock as the status stamp (both MONOTONIC, or both
 * REALTIME), not after now, not before the last write that found the
 * stream running (a stale stamp: the xrun came after that write), and
 * give a duration above zero and below AL_XRUN_MAX_NS. Otherwise the
 * duration falls back to the pointers: from when the audio queued at the
 * last write ran out (empty_ns) until now.
 */
void al_xrun_duration(const struct al_xrun_stamps *s, struct al_xrun_duration *out);

#endif
