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

/*
 * The period grid, for boundaries the device does not stamp (alsa-lib's
 * ioplug plugins such as pcm_jack stamp the status call; an OSS driver's
 * pointer moves only at interrupts). The device's clock is a line through
 * its frame positions: frame f was consumed at T(f) = t0 + f * tau. A
 * wake-up that found frame f consumed came at or after T(f), so the line
 * is the lower envelope of the wake-ups, fitted over long windows:
 *  - tau starts at the nominal rate; the drift against CLOCK_MONOTONIC is
 *    the median slope between blocks a second apart (a block is a quarter
 *    second, its point its earliest wake-up; the last 32 s are kept) in
 *    the same segment: a block whose point jumps from the previous one by
 *    more than AL_GRID_JUMP_NS starts a new segment. A clock drifts by
 *    microseconds a second; a jump is lateness (a thread taking a slice of
 *    every period), and it does not tilt the line;
 *  - t0 is the earliest block point under that slope. During the first
 *    block (the first quarter second, none closed yet) it is the earliest
 *    wake-up so far; afterwards, never pulled by later wake-ups: a
 *    sustained lateness reads as lateness, not as a new grid.
 * A stream restart (an xrun, the account's starvation) starts a new line
 * with the drift kept. Pure arithmetic, constant memory and time per call.
 */
#define AL_GRID_BLOCKS 128
#define AL_GRID_BLOCK_NS (250 * 1000 * 1000LL)
#define AL_GRID_MAX_DRIFT 0.001 /* a clock this far off the nominal rate is not believed */
#define AL_GRID_PAIR_BLOCKS 4          /* blocks a slope spans: a second */
#define AL_GRID_JUMP_NS (100 * 1000LL) /* a block this far off the line starts a segment */

struct al_grid_point {
	int64_t frame;     /* relative to the line's first frame */
	double resid_ns;   /* wake-up - the nominal line there */
	int segment;       /* blocks of one segment lie on one line */
};

struct al_grid {
	int64_t rate_hz;
	bool started;
	int64_t f0;               /* the first frame of this line */
	int64_t t0_ns;            /* the first wake-up of this line: the nominal line starts here */
	double drift;             /* relative rate error against CLOCK_MONOTONIC (0: nominal) */
	double offset_ns;         /* the fitted line minus the nominal one at f0 */
	bool fitted;              /* a block closed: offset_ns is the fit's */
	int64_t block_start_ns;
	struct al_grid_point block_min; /* the current block's earliest wake-up */
	bool block_any;
	struct al_grid_point blocks[AL_GRID_BLOCKS]; /* ring of closed blocks */
	int n_blocks, next_block;
};

/* Start (or restart after an xrun) the grid of a rate_hz stream; the drift is kept. */
void al_grid_start(struct al_grid *g, int64_t rate_hz);

/*
 * The boundary of the period that became free when the device had
 * consumed frame (a count since the stream started; any origin that only
 * grows), for a wake-up at wake_ns: T(frame) by the fit, which this
 * wake-up then refines. May lie after wake_ns when the fit is off (a
 * negative wake latency).
 */
int64_t al_grid_boundary(struct al_grid *g, int64_t frame, int64_t wake_ns);

#endif
