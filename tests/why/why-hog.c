/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * why-hog CPU PRIO SPIN_US EVERY_MS COUNT: a cause of known kind for
 * tests/why (docs/why.md, "preempted"). A SCHED_FIFO thread at PRIO,
 * pinned to CPU, spins SPIN_US microseconds every EVERY_MS milliseconds,
 * COUNT times: nothing of lower priority runs on CPU meanwhile. Prints one
 * line per spin, after the last (nothing is written while spinning):
 *   start_real_ns=N hog_ns=N
 * Exits 1 when it cannot get SCHED_FIFO or the CPU.
 */
#ifndef _GNU_SOURCE
#define _GNU_SOURCE
#endif
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <time.h>

#define SPINS_MAX 100000

static int64_t
ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

static long
arg(const char *s, long lo, long hi)
{
	char *end;
	long v = strtol(s, &end, 10);

	return *end || end == s || v < lo || v > hi ? -1 : v;
}

int
main(int argc, char **argv)
{
	static int64_t real_ns[SPINS_MAX], hog_ns[SPINS_MAX];
	struct sched_param sp = { 0 };
	long cpu, prio, spin_us, every_ms, count;
	int64_t next_ns, t0_ns, now_ns;
	cpu_set_t set;

	if (argc != 6) {
		fprintf(stderr, "usage: why-hog CPU PRIO SPIN_US EVERY_MS COUNT\n");
		return 2;
	}
	cpu = arg(argv[1], 0, CPU_SETSIZE - 1);
	prio = arg(argv[2], 1, 99);
	spin_us = arg(argv[3], 1, 10000000);
	every_ms = arg(argv[4], 1, 100000);
	count = arg(argv[5], 1, SPINS_MAX);
	if (cpu < 0 || prio < 0 || spin_us < 0 || every_ms < 0 || count < 0)
		return 2;
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("why-hog: CPU");
		return 1;
	}
	sp.sched_priority = (int)prio;
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("why-hog: SCHED_FIFO");
		return 1;
	}
	next_ns = ns(CLOCK_MONOTONIC) + every_ms * 1000000LL;
	for (long i = 0; i < count; i++) {
		struct timespec ts = { next_ns / 1000000000, next_ns % 1000000000 };

		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL) == EINTR)
			;
		real_ns[i] = ns(CLOCK_REALTIME);
		t0_ns = ns(CLOCK_MONOTONIC);
		do
			now_ns = ns(CLOCK_MONOTONIC);
		while (now_ns - t0_ns < spin_us * 1000LL);
		hog_ns[i] = now_ns - t0_ns;
		next_ns += every_ms * 1000000LL;
	}
	for (long i = 0; i < count; i++)
		printf("start_real_ns=%lld hog_ns=%lld\n", (long long)real_ns[i], (long long)hog_ns[i]);
	return 0;
}
