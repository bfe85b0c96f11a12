/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PipeWire stream's clock arithmetic (pipewire-private.h): which clock
 * the driver's clock.nsec is on, how many cycles ran without us (from the
 * position, checked against our wake-ups and the driver's own times), and
 * the one xrun event a stall or a held-up driver makes (docs/pipewire.md).
 * All of it runs on the data thread, in the process callback: arithmetic
 * only.
 */
#include <stdint.h>

#include <pipewire/pipewire.h>

#define AL_PIPEWIRE_PRIVATE
#include "core/clock.h"
#include "pipewire-private.h"

/* The clock.nsec's clock, from one reading beside ours (the preroll). */
void
pwb_classify_clock(struct pwb *b, int64_t nsec, int64_t mono_ns)
{
	int64_t real_ns = al_clock_realtime_ns();

	b->base = al_stamp_classify(nsec, mono_ns, real_ns);
	b->base_offset_ns = b->base == AL_STAMP_REALTIME ? mono_ns - real_ns : 0;
}

/*
 * Hot path: how many cycles the driver ran since our previous one (1:
 * none missed), from its position, as far as our own wake-ups agree.
 */
uint64_t
pwb_cycles_since(struct pwb *b, const struct spa_io_clock *clk, int64_t frames, int64_t wake_ns,
		 int64_t nsec_ns, int64_t period_ns)
{
	int64_t adv, by_time, cycles = 1;

	if (!b->have_prev)
		return 1;
	adv = (int64_t)(clk->position - b->prev_position);
#ifdef HAVE_SPA_IO_CLOCK_CYCLE
	/* a newer clock counts its cycles itself */
	if (clk->cycle > b->prev_cycle)
		adv = b->prev_frames + (int64_t)(clk->cycle - b->prev_cycle - 1) * frames;
#endif
	if (adv <= 0) {
		/* the position stood or went back: a new driver, or it restarted */
		b->restarts++;
		al_grid_start(&b->grid, b->rate_hz);
		return 1;
	}
	/* the previous cycle lasted its own quantum; the rest are this one's */
	if (adv > b->prev_frames)
		cycles = 1 + (adv - b->prev_frames + frames / 2) / frames;
	/*
	 * What passed by our wake-ups, or by the driver's own cycle times: a
	 * driver that was itself held up (its server stopped) catches up with
	 * cycles back to back, each at its nominal time, and runs us in fewer
	 * of them than it ran (PipeWire's libjack showed 3 periods in one).
	 */
	by_time = (wake_ns - b->prev_wake_ns + period_ns / 2) / period_ns;
	if (nsec_ns && b->prev_nsec_ns && nsec_ns > b->prev_nsec_ns &&
	    (nsec_ns - b->prev_nsec_ns + period_ns / 2) / period_ns > by_time)
		by_time = (nsec_ns - b->prev_nsec_ns + period_ns / 2) / period_ns;
	if (cycles > by_time + 1) {
		/* the position jumped with no time passed (a driver that started again) */
		b->counter_jumps++;
		cycles = by_time > 1 ? by_time : 1;
		al_grid_start(&b->grid, b->rate_hz);
	}
	return (uint64_t)cycles;
}

/*
 * Hot path: the xrun of this cycle, if it begins one. A stall: the driver
 * ran cycles - 1 cycles without us (missed periods, charged to this
 * cycle). Or a cycle we did not miss came more than a period after it was
 * due: the driver itself was held up (its server stopped, its timer late),
 * played nothing meanwhile, and now catches up with cycles back to back,
 * each late, running us in fewer of them than it runs. One event from the
 * first cycle not served (or the late one's due time) until we ran; the
 * cycles of the catch-up after it are its tail: charged, no new event.
 */
void
pwb_account_xrun(struct pwb *b, const struct spa_io_clock *clk, uint64_t cycles, int64_t wake_ns,
		 int64_t boundary_ns, int64_t period_ns, struct al_write_info *wi)
{
	int64_t late_ns = wake_ns - boundary_ns;

	if (cycles > 1)
		wi->missed_before = (int64_t)(cycles - 1);
	/*
	 * a cycle served more than a period late right after a stall is its
	 * catch-up (the graph waited for us), not the driver held up: seen as
	 * a stall's event of 170.6 ms and a driver's of 5.3 ms beginning 23 us
	 * after it, the stall's first cycle just under a period late
	 */
	bool driver_late = cycles == 1 && b->have_prev && late_ns > period_ns && !b->stall_tail;

	if ((cycles > 1 || driver_late) && !b->late_episode) {
		int64_t start_ns = cycles > 1 ? b->prev_boundary_ns + b->prev_period_ns : boundary_ns;

		wi->xrun_start_ns = start_ns < wake_ns ? start_ns : wake_ns;
		wi->xrun_ns = wake_ns - wi->xrun_start_ns;
		wi->lost_periods = wi->xrun_ns / period_ns > wi->missed_before ? wi->xrun_ns / period_ns
									  : wi->missed_before;
		wi->xrun_source = cycles > 1 ? AL_XRUN_COUNTER : AL_XRUN_DRIVER;
		if (cycles > 1)
			b->stalls++;
		else
			b->driver_late++;
	}
	if (late_ns > b->driver_late_max_ns && cycles == 1)
		b->driver_late_max_ns = late_ns;
#ifdef HAVE_SPA_IO_CLOCK_XRUN
	if (!wi->xrun_start_ns && b->have_prev && clk->xrun > b->prev_xrun_ns) {
		/* the driver counted an xrun of its own in a cycle we ran (its hardware) */
		wi->xrun_start_ns = boundary_ns;
		wi->xrun_ns = clk->xrun - b->prev_xrun_ns;
		wi->lost_periods = 0;
		wi->xrun_source = AL_XRUN_SERVER;
		b->server_xruns++;
	}
	b->prev_xrun_ns = clk->xrun;
#endif
	b->late_episode = late_ns > period_ns;
	/* the stall's tail: the cycles after it that still come half a period late or more */
	b->stall_tail = cycles > 1 || (b->stall_tail && late_ns > period_ns / 2);
	(void)clk;
}

/* Hot path: this cycle, for the next one's arithmetic. */
void
pwb_remember_cycle(struct pwb *b, const struct spa_io_clock *clk, int64_t boundary_ns,
		   int64_t wake_ns, int64_t nsec_ns)
{
	b->prev_position = clk->position;
#ifdef HAVE_SPA_IO_CLOCK_CYCLE
	b->prev_cycle = clk->cycle;
#endif
	b->prev_frames = (int64_t)clk->duration;
	b->prev_rate = clk->rate.denom;
	b->prev_boundary_ns = boundary_ns;
	b->prev_period_ns = al_frames_to_ns(b->prev_frames, b->prev_rate);
	b->prev_wake_ns = wake_ns;
	b->prev_nsec_ns = nsec_ns;
	b->have_prev = true;
}
