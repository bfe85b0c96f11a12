/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/clock.h"
#include "simcard.h"

void
al_simcard_init(struct al_simcard *c, int64_t rate_hz, int64_t period_frames, int periods)
{
	c->rate_hz = rate_hz;
	c->period_frames = period_frames;
	c->buffer_frames = period_frames * periods;
	c->start_ns = 0;
	c->written_frames = 0;
}

void
al_simcard_start(struct al_simcard *c, int64_t now_ns)
{
	c->start_ns = now_ns;
	c->written_frames = c->buffer_frames;
}

int64_t
al_simcard_next_boundary_ns(const struct al_simcard *c)
{
	int64_t need = c->written_frames - c->buffer_frames + c->period_frames;

	return c->start_ns + al_frames_to_ns_ceil(need, c->rate_hz);
}

int64_t
al_simcard_empty_ns(const struct al_simcard *c)
{
	return c->start_ns + al_frames_to_ns_ceil(c->written_frames, c->rate_hz);
}

void
al_simcard_write(struct al_simcard *c, int64_t now_ns, struct al_write_info *wi)
{
	int64_t empty_ns = al_simcard_empty_ns(c);
	int64_t consumed, queued, space;

	wi->xrun_start_ns = 0;
	wi->xrun_ns = 0;
	wi->lost_periods = 0;
	wi->missed_known = false;
	if (now_ns > empty_ns) {
		/* starved since empty_ns: every period begun since then is lost */
		int64_t starved_frames = al_ns_to_frames(now_ns - empty_ns, c->rate_hz);

		wi->xrun_start_ns = empty_ns;
		wi->xrun_source = AL_XRUN_SIM;
		wi->xrun_ns = now_ns - empty_ns;
		wi->lost_periods = (starved_frames + c->period_frames) / c->period_frames;
		wi->margin_ns = 0;
		al_simcard_start(c, now_ns); /* prepare + refill + start */
		return;
	}
	consumed = al_ns_to_frames(now_ns - c->start_ns, c->rate_hz);
	queued = c->written_frames - consumed;
	wi->margin_ns = al_frames_to_ns(queued, c->rate_hz);
	space = c->buffer_frames - queued;
	c->written_frames += space / c->period_frames * c->period_frames;
	/* the waited-for period and any that came free during the work */
	wi->missed = space / c->period_frames > 1 ? space / c->period_frames - 1 : 0;
	wi->missed_known = true;
}
