/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The period grid: a device's frame clock fitted to the earliest wake-ups (grid.h). */
#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "grid.h"

void
al_grid_start(struct al_grid *g, int64_t rate_hz)
{
	double drift = g->rate_hz == rate_hz ? g->drift : 0;

	memset(g, 0, sizeof(*g));
	g->rate_hz = rate_hz;
	g->drift = drift;
}

/* ns per frame on our clock */
static double
frame_ns(const struct al_grid *g)
{
	return 1e9 / (double)g->rate_hz * (1.0 + g->drift);
}

static int
cmp_double(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x > y) - (x < y);
}

/*
 * A block closed: the drift from the slopes between blocks a second apart
 * in one segment (a jump is lateness, not drift), the offset from the
 * blocks' lower envelope.
 */
static void
fit(struct al_grid *g)
{
	double slopes[AL_GRID_BLOCKS], nominal = 1e9 / (double)g->rate_hz, best;
	int n = g->n_blocks, m = 0, i;
	/* blocks in time order: the oldest is next_block when the ring is full */
	int first = n < AL_GRID_BLOCKS ? 0 : g->next_block;
	const struct al_grid_point *b = g->blocks;

	/*
	 * Pairs within a segment, as far apart as half the window (the least
	 * noise), or a second; when there are none at all, every block jumped
	 * from the last: a clock far off the nominal rate (or the drift not
	 * known yet), and then every pair a second apart counts. The drift
	 * changes only with AL_GRID_MIN_PAIRS pairs or more (3: 7 blocks),
	 * their median: one pair is two blocks, and one block whose every
	 * wake-up came late (a host busy for a quarter second) tilts the line
	 * by that lateness a second. Until then the drift from before a
	 * restart, or none, is kept.
	 */
	for (int pass = 0; pass < 3 && m < AL_GRID_MIN_PAIRS; pass++) {
		int h = pass == 0 ? n / 2 : AL_GRID_PAIR_BLOCKS;

		if (h < AL_GRID_PAIR_BLOCKS)
			continue;
		m = 0;
		for (i = 0; i + h < n; i++) {
			const struct al_grid_point *p = &b[(first + i) % AL_GRID_BLOCKS];
			const struct al_grid_point *q = &b[(first + i + h) % AL_GRID_BLOCKS];

			if ((pass == 2 || q->segment == p->segment) && q->frame > p->frame)
				slopes[m++] = (q->resid_ns - p->resid_ns) / (double)(q->frame - p->frame);
		}
	}
	if (m >= AL_GRID_MIN_PAIRS) {
		qsort(slopes, (size_t)m, sizeof(slopes[0]), cmp_double);
		g->drift = (m % 2 ? slopes[m / 2] : (slopes[m / 2 - 1] + slopes[m / 2]) / 2) / nominal;
		if (g->drift > AL_GRID_MAX_DRIFT)
			g->drift = AL_GRID_MAX_DRIFT;
		if (g->drift < -AL_GRID_MAX_DRIFT)
			g->drift = -AL_GRID_MAX_DRIFT;
	}
	/* the lower envelope under that slope: residuals are against the nominal line */
	best = INFINITY;
	for (i = 0; i < n; i++) {
		const struct al_grid_point *p = &b[i];
		double v = p->resid_ns - g->drift * nominal * (double)p->frame;

		if (v < best)
			best = v;
	}
	g->offset_ns = best;
	g->fitted = true;
}

/* Close the current block: a new segment when its point jumped off the previous block's line. */
static void
close_block(struct al_grid *g)
{
	double nominal = 1e9 / (double)g->rate_hz;
	struct al_grid_point *pt = &g->block_min;

	pt->segment = 0;
	if (g->n_blocks) {
		const struct al_grid_point *prev =
			&g->blocks[(g->next_block + AL_GRID_BLOCKS - 1) % AL_GRID_BLOCKS];
		double expect = prev->resid_ns + g->drift * nominal * (double)(pt->frame - prev->frame);

		pt->segment = prev->segment + (fabs(pt->resid_ns - expect) > (double)AL_GRID_JUMP_NS);
	}
	g->blocks[g->next_block] = *pt;
	g->next_block = (g->next_block + 1) % AL_GRID_BLOCKS;
	if (g->n_blocks < AL_GRID_BLOCKS)
		g->n_blocks++;
	g->block_any = false;
	fit(g);
}

int64_t
al_grid_boundary(struct al_grid *g, int64_t frame, int64_t wake_ns)
{
	double nominal, resid, t;
	struct al_grid_point pt;

	if (g->rate_hz <= 0)
		return wake_ns;
	if (!g->started) {
		g->started = true;
		g->f0 = frame;
		g->t0_ns = wake_ns;
		g->block_start_ns = wake_ns;
	}
	nominal = 1e9 / (double)g->rate_hz;
	pt.frame = frame - g->f0;
	pt.resid_ns = (double)(wake_ns - g->t0_ns) - nominal * (double)pt.frame;
	/* this wake-up's boundary by the fit so far */
	if (!g->fitted && (!g->block_any || pt.resid_ns - g->drift * nominal * (double)pt.frame <
						   g->offset_ns))
		g->offset_ns = pt.resid_ns - g->drift * nominal * (double)pt.frame;
	t = (double)g->t0_ns + g->offset_ns + frame_ns(g) * (double)pt.frame;
	/* the block's earliest wake-up (against the nominal line), for the next fit */
	resid = pt.resid_ns - g->drift * nominal * (double)pt.frame;
	if (!g->block_any ||
	    resid < g->block_min.resid_ns - g->drift * nominal * (double)g->block_min.frame) {
		g->block_min = pt;
		g->block_any = true;
	}
	if (wake_ns - g->block_start_ns >= AL_GRID_BLOCK_NS) {
		g->block_start_ns = wake_ns;
		close_block(g);
	}
	return (int64_t)llround(t);
}

double
al_grid_frame_ns(const struct al_grid *g)
{
	return g->rate_hz > 0 ? frame_ns(g) : 0;
}

/* T(frame) by the fit so far */
static double
line_ns(const struct al_grid *g, int64_t frame)
{
	return (double)g->t0_ns + g->offset_ns + frame_ns(g) * (double)(frame - g->f0);
}

int64_t
al_grid_behind(struct al_grid *g, int64_t dev_frame, int64_t period_frames, int64_t wake_ns,
	       int64_t *lost_from_ns)
{
	double period_ns, late_ns;
	int64_t k;

	if (g->rate_hz <= 0 || !g->fitted || period_frames <= 0) {
		g->behind_n = 0;
		return 0;
	}
	period_ns = frame_ns(g) * (double)period_frames;
	/* how long the period after what the device holds has been due */
	late_ns = (double)wake_ns - line_ns(g, dev_frame + period_frames) + period_ns / 8;
	if (late_ns < 0) {
		g->behind_n = 0;
		return 0;
	}
	k = 1 + (int64_t)(late_ns / period_ns);
	if (!g->behind_n || k < g->behind_periods)
		g->behind_periods = k;
	if (!g->behind_n)
		g->behind_from_ns = llround(line_ns(g, dev_frame));
	if (++g->behind_n < AL_GRID_BEHIND_WAKES)
		return 0;
	/* those frames were never counted: every later one comes k periods later on the line */
	k = g->behind_periods;
	g->f0 -= k * period_frames;
	g->behind_n = 0;
	*lost_from_ns = g->behind_from_ns;
	return k;
}
