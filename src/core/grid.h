/* SPDX-License-Identifier: GPL-2.0-or-later */
#ifndef AL_CORE_GRID_H
#define AL_CORE_GRID_H

#include <stdbool.h>
#include <stdint.h>

/*
 * The period grid, for boundaries the device does not stamp (alsa-lib's
 * ioplug plugins such as pcm_jack stamp the status call; an OSS driver's
 * pointer moves only at interrupts). The device's clock is a line through
 * its frame positions: frame f was consumed at T(f) = t0 + f * tau. A
 * wake-up that found frame f consumed came at or after T(f), so the line
 * is the lower envelope of the wake-ups, fitted over long windows:
 *  - tau starts at the nominal rate; the drift against CLOCK_MONOTONIC is
 *    the median of AL_GRID_MIN_PAIRS or more slopes between blocks a
 *    second apart (a block is a quarter second, its point its earliest
 *    wake-up; the last 32 s are kept) in the same segment: a block
 *    whose point jumps from the previous one by more than
 *    AL_GRID_JUMP_NS starts a new segment. A clock drifts by
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
#define AL_GRID_MIN_PAIRS 3            /* slopes the drift needs: one late block is outvoted */
#define AL_GRID_JUMP_NS (100 * 1000LL) /* a block this far off the line starts a segment */
#define AL_GRID_BEHIND_WAKES 4         /* wake-ups in a row behind the line: periods lost */

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
	/* al_grid_behind(): wake-ups in a row that found the device behind the line */
	int behind_n;
	int64_t behind_periods;   /* the fewest whole periods behind among them */
	int64_t behind_from_ns;   /* when the first of those periods was due, on the line */
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

/* The fitted length of one frame in ns (the nominal one, drift applied). */
double al_grid_frame_ns(const struct al_grid *g);

/*
 * Whole periods the device's frame count fell behind its line, which
 * would read as lateness of every later period: a plugin whose thread its
 * server left out of a cycle (pcm_jack drops that cycle's audio and says
 * nothing) stood still for a period while time went on. dev_frame is what
 * the device holds at this wake-up, on the frame count al_grid_boundary()
 * takes (capture: frames read + avail; playback: written - queued). It is
 * behind by k >= 1 periods when the period after dev_frame was due on the
 * line k - 1 periods before wake_ns or earlier (less an eighth of a period)
 * and is not there; a lateness under 7/8 of a period never is. Behind at
 * AL_GRID_BEHIND_WAKES wake-ups in a row (a server's cycle late by more than
 * a period, on a card that catches up, is behind at one), the line moves
 * the fewest k of them later: returns k and *lost_from_ns, when the first
 * lost period was due; else 0. Constant time.
 */
int64_t al_grid_behind(struct al_grid *g, int64_t dev_frame, int64_t period_frames,
		       int64_t wake_ns, int64_t *lost_from_ns);

#endif
