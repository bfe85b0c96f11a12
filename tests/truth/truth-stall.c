/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * truth-stall PID MS: a fault of known size for the truth matrix. Stops
 * PID (SIGSTOP) for MS milliseconds and continues it (SIGCONT); prints
 * what really happened, on one line:
 *   stop_real_ns=N stall_ns=N
 * stop_real_ns is CLOCK_REALTIME at the stop (to place the xrun in the
 * run), stall_ns the CLOCK_MONOTONIC time from the stop to the continue.
 */
#include <errno.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
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
	struct timespec until;
	int64_t real_ns, t0_ns, t1_ns, want_ns;
	char *end;
	long pid, ms;

	if (argc != 3) {
		fprintf(stderr, "usage: truth-stall PID MS\n");
		return 2;
	}
	pid = strtol(argv[1], &end, 10);
	if (*end || pid <= 1)
		return 2;
	ms = strtol(argv[2], &end, 10);
	if (*end || ms <= 0 || ms > 60000)
		return 2;
	want_ns = (int64_t)ms * 1000000;
	real_ns = ns(CLOCK_REALTIME);
	t0_ns = ns(CLOCK_MONOTONIC);
	if (kill((pid_t)pid, SIGSTOP)) {
		perror("truth-stall: SIGSTOP");
		return 1;
	}
	until.tv_sec = (time_t)((t0_ns + want_ns) / 1000000000);
	until.tv_nsec = (long)((t0_ns + want_ns) % 1000000000);
	while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
		;
	t1_ns = ns(CLOCK_MONOTONIC);
	if (kill((pid_t)pid, SIGCONT)) {
		perror("truth-stall: SIGCONT");
		return 1;
	}
	printf("stop_real_ns=%lld stall_ns=%lld\n", (long long)real_ns, (long long)(t1_ns - t0_ns));
	return 0;
}
