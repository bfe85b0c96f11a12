/* SPDX-License-Identifier: GPL-2.0-or-later */
#include "core/clock.h"
#include "busy.h"

static volatile uint32_t busy_sink;

void
al_busy_run(int64_t loops)
{
	uint32_t x = 2463534242u;
	int64_t i;

	/* a xorshift generator: integer work a compiler cannot fold away */
	for (i = 0; i < loops; i++) {
		x ^= x << 13;
		x ^= x >> 17;
		x ^= x << 5;
	}
	busy_sink = x;
}

static int64_t
time_loops(int64_t loops)
{
	int64_t t0 = al_clock_now_ns();

	al_busy_run(loops);
	return al_clock_now_ns() - t0;
}

int64_t
al_busy_calibrate(int64_t target_ns)
{
	int64_t loops = 1000, best_ns, t_ns;
	int i;

	if (target_ns <= 0)
		return 0;
	/* grow until one trial takes at least 2 ms, so clock overhead is noise */
	while ((t_ns = time_loops(loops)) < 2 * AL_NS_PER_MS && loops < (1LL << 40))
		loops *= 2;
	/* the fastest of several trials is the unloaded speed */
	best_ns = t_ns;
	for (i = 0; i < 7; i++) {
		t_ns = time_loops(loops);
		if (t_ns < best_ns)
			best_ns = t_ns;
	}
	if (best_ns <= 0)
		best_ns = 1;
	return (int64_t)((__int128)loops * target_ns / best_ns);
}
