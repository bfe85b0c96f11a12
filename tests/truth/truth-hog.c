/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * truth-hog CPU PRIO MS [DELAY_US]: a fault of known size for the truth
 * matrix. A SCHED_FIFO thread at PRIO, pinned to CPU, spins for MS
 * milliseconds: nothing of lower priority runs on that CPU meanwhile.
 * With DELAY_US it takes PRIO first, sleeps DELAY_US on the CPU it was
 * started on and only then moves to CPU: its arrival there is the delay
 * after it got PRIO, not after whenever a SCHED_OTHER start got a CPU
 * (on a CPU full of real-time threads, that moment follows their
 * schedule: tests/backend/jack-blame.sh spreads its hogs over a period
 * so). Prints what really happened, on one line:
 *   start_real_ns=N hog_ns=N
 * (CLOCK_REALTIME at the start, the CLOCK_MONOTONIC time it held the CPU).
 * Exits 1 when it cannot get SCHED_FIFO or the CPU (never a silent
 * SCHED_OTHER hog: that would be no fault of known size).
 */
#include <errno.h>
#include <sched.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int64_t
ns(clockid_t c)
{
	struct timespec ts;

	clock_gettime(c, &ts);
	return (int64_t)ts.tv_sec * 1000000000 + ts.tv_nsec;
}

int
main(int argc, char **argv)
{
	struct sched_param sp = { 0 };
	int64_t real_ns, t0_ns, now_ns, want_ns;
	cpu_set_t set;
	char *end;
	long cpu, prio, ms, delay_us = -1;

	if (argc != 4 && argc != 5) {
		fprintf(stderr, "usage: truth-hog CPU PRIO MS [DELAY_US]\n");
		return 2;
	}
	cpu = strtol(argv[1], &end, 10);
	if (*end || cpu < 0 || cpu >= CPU_SETSIZE)
		return 2;
	prio = strtol(argv[2], &end, 10);
	if (*end || prio < 1 || prio > 99)
		return 2;
	ms = strtol(argv[3], &end, 10);
	if (*end || ms <= 0 || ms > 5000)
		return 2;
	if (argc == 5) {
		delay_us = strtol(argv[4], &end, 10);
		if (*end || delay_us < 0 || delay_us > 10000000)
			return 2;
	}
	sp.sched_priority = (int)prio;
	if (delay_us >= 0) {
		struct timespec d = { delay_us / 1000000, delay_us % 1000000 * 1000 };

		if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
			perror("truth-hog: SCHED_FIFO");
			return 1;
		}
		while (clock_nanosleep(CLOCK_MONOTONIC, 0, &d, &d) == EINTR)
			;
	}
	CPU_ZERO(&set);
	CPU_SET((int)cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set)) {
		perror("truth-hog: CPU");
		return 1;
	}
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		perror("truth-hog: SCHED_FIFO");
		return 1;
	}
	want_ns = (int64_t)ms * 1000000;
	real_ns = ns(CLOCK_REALTIME);
	t0_ns = ns(CLOCK_MONOTONIC);
	do
		now_ns = ns(CLOCK_MONOTONIC);
	while (now_ns - t0_ns < want_ns);
	printf("start_real_ns=%lld hog_ns=%lld\n", (long long)real_ns, (long long)(now_ns - t0_ns));
	return 0;
}
