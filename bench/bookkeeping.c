/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The cost of audiolat's per-period bookkeeping: everything the measure
 * loop does besides the sleep and the busy work (the card arithmetic, the
 * two clock reads around the work, the histogram and counter updates).
 * Prints ns per period, the best of several rounds, for periods that are
 * all on time, then with a missed period every 100th (an overrun of the
 * work) and with a stall swallowing 150 periods every 10000th: what the
 * per-period correction (charging the missed ones) adds.
 */
#include <stdio.h>
#include <stdlib.h>

#include "backend/simcard.h"
#include "core/clock.h"
#include "core/result.h"

#define PERIOD_NS 1000000 /* 48 frames at 48 kHz */

static int periods = 2000000; /* argv[1]: fewer for callgrind */

/* ns per period over PERIODS: every `every`-th period (0: none) has `missed` missed after it */
static double
bookkeeping(struct al_result *r, int every, int64_t missed)
{
	struct al_simcard card;
	struct al_write_info wi;
	struct al_sample s;
	int64_t best_ns = INT64_MAX, t0, t1, prev = 0, b, w, fake_ns;
	int round, i;

	for (round = 0; round < 5; round++) {
		al_simcard_init(&card, 48000, 48, 3);
		al_simcard_start(&card, 0);
		r->start_mono_ns = 0;
		t0 = al_clock_now_ns();
		for (i = 0; i < periods; i++) {
			int64_t m = every && i % every == every - 1 ? missed : 0;

			b = al_simcard_next_boundary_ns(&card);
			fake_ns = b + 7000 + (i & 1023); /* a fake wake-up 7..8 us late */
			w = al_clock_now_ns();   /* stands for the two reads around the work */
			w = al_clock_now_ns() - w;
			al_simcard_write(&card, fake_ns + w, &wi);
			s = (struct al_sample){ .boundary_ns = b, .wake_ns = fake_ns,
						.prev_wake_ns = prev, .work_ns = w,
						.seen_ns = fake_ns + w + m * PERIOD_NS,
						.margin_ns = wi.margin_ns,
						.missed = m,
						.xrun_start_ns = wi.xrun_start_ns,
						.xrun_ns = wi.xrun_ns, .lost_periods = wi.lost_periods };
			al_result_record(r, &s);
			r->n_spans = 0; /* the time series' spans: a long run would fill them */
			prev = fake_ns;
		}
		t1 = al_clock_now_ns();
		if (t1 - t0 < best_ns)
			best_ns = t1 - t0;
	}
	return (double)best_ns / periods;
}

int
main(int argc, char **argv)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 48,
				 .periods = 3, .cpu_load_pct = 0, .duration_ns = 3600 * AL_NS_PER_SEC };
	static struct al_result r;
	double steady, overrun, stall;

	if (argc > 1)
		periods = atoi(argv[1]) > 0 ? atoi(argv[1]) : periods;
	if (al_result_alloc(&r, &cfg, 1, 1024))
		return 1;
	steady = bookkeeping(&r, 0, 0);
	if (argc > 2) { /* steady only (to count its instructions) */
		printf("bookkeeping: %.1f ns per period on time\n", steady);
		al_result_free(&r);
		return 0;
	}
	overrun = bookkeeping(&r, 100, 1);
	stall = bookkeeping(&r, 10000, 150);
	printf("bookkeeping: %.1f ns per period on time; %.1f with a missed period every 100th "
	       "(+%.1f); %.1f with 150 missed every 10000th (+%.1f) (best of 5 x %d periods)\n",
	       steady, overrun, overrun - steady, stall, stall - steady, periods);
	al_result_free(&r);
	return 0;
}
