/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Does audiolat's bookkeeping after a wake-up make the next wake-up late?
 * One SCHED_FIFO thread sleeps to absolute 1 ms deadlines (cyclictest's
 * loop, clock_nanosleep TIMER_ABSTIME) and, in alternating blocks of 500
 * periods, books each wake-up either as cyclictest does (one counter of a
 * 1 us histogram) or as audiolat does (al_result_record: three log
 * histograms of 70 KB, the time series, the counters). Both blocks' wake
 * latencies go into plain 100 ns histograms; their p50 and p99 side by side
 * say what the bookkeeping costs the next wake-up (caches, TLB), on this
 * machine, in one run.
 * usage: bench-wake-effect [SECONDS] [CPU]   (root: SCHED_FIFO 80)
 */
#include <pthread.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#include "core/clock.h"
#include "core/result.h"

#define PERIOD_NS 1000000LL
#define BLOCK 500
#define BIN_NS 100
#define BINS 1000000 /* 100 ns each: 100 ms */

static uint64_t light[BINS], heavy[BINS]; /* wake latency of each kind, 100 ns bins */
static uint64_t ct_hist[BINS / 10];       /* cyclictest's own bookkeeping: 1 us bins */
static struct al_result r;

static double
pct(const uint64_t *h, double q)
{
	uint64_t n = 0, seen = 0, rank;
	int i;

	for (i = 0; i < BINS; i++)
		n += h[i];
	rank = (uint64_t)(q * (double)n);
	if ((double)rank < q * (double)n)
		rank++;
	for (i = 0; i < BINS; i++) {
		seen += h[i];
		if (seen >= rank)
			return i * BIN_NS / 1000.0;
	}
	return BINS * BIN_NS / 1000.0;
}

int
main(int argc, char **argv)
{
	struct al_config cfg = { .backend = "sim", .rate_hz = 48000, .period_frames = 48,
				 .periods = 3, .duration_ns = 600 * AL_NS_PER_SEC };
	struct sched_param sp = { .sched_priority = 80 };
	int secs = argc > 1 ? atoi(argv[1]) : 60, cpu = argc > 2 ? atoi(argv[2]) : -1;
	int64_t next, now, lat, prev = 0;
	long i, n;
	cpu_set_t set;

	if (al_result_alloc(&r, &cfg, 1, 1024))
		return 1;
	mlockall(MCL_CURRENT | MCL_FUTURE);
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("SCHED_FIFO");
		return 4;
	}
	if (cpu >= 0) {
		CPU_ZERO(&set);
		CPU_SET(cpu, &set);
		sched_setaffinity(0, sizeof(set), &set);
	}
	n = (long)secs * 1000;
	r.start_mono_ns = next = al_clock_now_ns() + PERIOD_NS;
	for (i = 0; i < n; i++) {
		bool audiolat = (i / BLOCK) % 2;

		al_clock_sleep_until_ns(next);
		now = al_clock_now_ns();
		lat = now - next;
		(audiolat ? heavy : light)[lat / BIN_NS < BINS ? lat / BIN_NS : BINS - 1]++;
		if (audiolat) {
			struct al_sample s = { .boundary_ns = next, .wake_ns = now, .prev_wake_ns = prev,
					       .work_ns = 0, .seen_ns = now, .margin_ns = PERIOD_NS };

			al_result_record(&r, &s);
		} else {
			ct_hist[lat / 1000 < BINS / 10 ? lat / 1000 : BINS / 10 - 1]++;
		}
		prev = now;
		next += PERIOD_NS;
	}
	printf("wake latency after cyclictest's bookkeeping: p50 %.1f us, p99 %.1f us\n",
	       pct(light, 0.5), pct(light, 0.99));
	printf("wake latency after audiolat's bookkeeping:   p50 %.1f us, p99 %.1f us\n",
	       pct(heavy, 0.5), pct(heavy, 0.99));
	printf("(%ld periods of 1 ms in blocks of %d, alternating)\n", n, BLOCK);
	al_result_free(&r);
	return 0;
}
