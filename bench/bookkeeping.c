/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cost of audiolat's per-period bookkeeping: everything the measure
 * loop does besides the sleep and the busy work (the card arithmetic, the
 * two clock reads around the work, the histogram and counter updates).
 * Prints ns per period, the best of several rounds.
 */
#include <stdio.h>

#include "backend/simcard.h"
#include "core/clock.h"
#include "core/result.h"

#define PERIODS 2000000

int
main(void)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 48,
				 .periods = 3, .cpu_load_pct = 0 };
	static struct al_result r;
	struct al_simcard card;
	struct al_write_info wi;
	struct al_sample s;
	int64_t best_ns = INT64_MAX, t0, t1, prev = 0, b, w, fake_ns;
	int round, i;

	if (al_result_alloc(&r, &cfg, 1, 1024))
		return 1;
	for (round = 0; round < 5; round++) {
		al_simcard_init(&card, 48000, 48, 3);
		al_simcard_start(&card, 0);
		fake_ns = 0;
		t0 = al_clock_now_ns();
		for (i = 0; i < PERIODS; i++) {
			b = al_simcard_next_boundary_ns(&card);
			fake_ns = b + 7000 + (i & 1023); /* a fake wake-up 7..8 us late */
			w = al_clock_now_ns();   /* stands for the two reads around the work */
			w = al_clock_now_ns() - w;
			al_simcard_write(&card, fake_ns + w, &wi);
			s = (struct al_sample){ .boundary_ns = b, .wake_ns = fake_ns,
						.prev_wake_ns = prev, .work_ns = w,
						.margin_ns = wi.margin_ns,
						.missed = (fake_ns - b) / 1000000,
						.xrun_start_ns = wi.xrun_start_ns,
						.xrun_ns = wi.xrun_ns, .lost_periods = wi.lost_periods };
			al_result_record(&r, &s);
			prev = fake_ns;
		}
		t1 = al_clock_now_ns();
		if (t1 - t0 < best_ns)
			best_ns = t1 - t0;
	}
	printf("bookkeeping: %.1f ns per period (best of 5 x %d periods; %llu periods recorded)\n",
	       (double)best_ns / PERIODS, PERIODS,
	       (unsigned long long)r.phases[0].stats.periods);
	al_result_free(&r);
	return 0;
}
