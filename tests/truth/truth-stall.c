/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * truth-stall PID MS: a fault of known size for the truth matrix. Stops
 * PID (SIGSTOP) for MS milliseconds and continues it (SIGCONT); prints
 * what really happened, on one line:
 *   stop_real_ns=N stop_delay_ns=N stall_ns=N stop_mono_ns=N
 * A thread stops only when it next runs (a sleeping one is woken to take
 * the signal), which a loaded machine delays by milliseconds: the stall
 * begins when every thread of PID is seen stopped (/proc/PID/task/<tid>/
 * stat, polled every 20 us), stop_delay_ns after the signal was sent
 * (not seen by the continue: from the signal). stop_real_ns is
 * CLOCK_REALTIME at that point (to place the xrun in the run), stall_ns the
 * CLOCK_MONOTONIC time from it to the continue (sent MS ms after the stop),
 * stop_mono_ns the same point on CLOCK_MONOTONIC. A PID not seen stopped
 * before the continue was due is exit status 3 and no line: no fault.
 *
 * truth-stall PID MS AT_NS EVERY_NS: the stop at AT_NS + k * EVERY_NS on
 * CLOCK_MONOTONIC, the first of them 1 ms or more ahead (a fault placed
 * against a running schedule: truth-midi.sh stops jackd half a period
 * before a cycle that carries one of its source's events).
 */
#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <stdbool.h>
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

/* true when every thread of pid is stopped ('T' or 't' in its stat; one that exited, Z or X, holds nothing up) */
static bool
all_stopped(long pid)
{
	char path[64], buf[512], *state;
	struct dirent *d;
	bool all = true, any = false;
	DIR *dir;
	FILE *f;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%ld/task", pid);
	dir = opendir(path);
	if (!dir)
		return false;
	while (all && (d = readdir(dir))) {
		if (d->d_name[0] == '.')
			continue;
		snprintf(path, sizeof(path), "/proc/%ld/task/%.20s/stat", pid, d->d_name);
		f = fopen(path, "r");
		if (!f)
			continue; /* the thread has gone */
		n = fread(buf, 1, sizeof(buf) - 1, f);
		fclose(f);
		buf[n] = '\0';
		state = strrchr(buf, ')');
		any = true;
		/* stopped, or a thread that has exited (it will not run again) */
		all = state && state[1] == ' ' && strchr("TtZX", state[2]) && state[2];
	}
	closedir(dir);
	return all && any;
}

int
main(int argc, char **argv)
{
	struct timespec until;
	int64_t real_ns, t0_ns, t1_ns, want_ns, stopped_ns, now_ns;
	char *end;
	long pid, ms;

	if (argc != 3 && argc != 5) {
		fprintf(stderr, "usage: truth-stall PID MS [AT_NS EVERY_NS]\n");
		return 2;
	}
	pid = strtol(argv[1], &end, 10);
	if (*end || pid <= 1)
		return 2;
	ms = strtol(argv[2], &end, 10);
	if (*end || ms <= 0 || ms > 60000)
		return 2;
	want_ns = (int64_t)ms * 1000000;
	if (argc == 5) {
		long long at_ns = strtoll(argv[3], &end, 10), every_ns;

		if (*end || at_ns <= 0)
			return 2;
		every_ns = strtoll(argv[4], &end, 10);
		if (*end || every_ns <= 0)
			return 2;
		now_ns = ns(CLOCK_MONOTONIC) + 1000000;
		if (at_ns < now_ns)
			at_ns += (now_ns - at_ns + every_ns - 1) / every_ns * every_ns;
		until.tv_sec = (time_t)(at_ns / 1000000000);
		until.tv_nsec = (long)(at_ns % 1000000000);
		while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &until, NULL) == EINTR)
			;
	}
	real_ns = ns(CLOCK_REALTIME);
	t0_ns = ns(CLOCK_MONOTONIC);
	if (kill((pid_t)pid, SIGSTOP)) {
		perror("truth-stall: SIGSTOP");
		return 1;
	}
	/* until every thread took the stop (at most until the continue is due) */
	stopped_ns = -1;
	while ((now_ns = ns(CLOCK_MONOTONIC)) < t0_ns + want_ns) {
		if (all_stopped(pid)) {
			/*
			 * the clock after the look that saw them all stopped:
			 * the last one stopped before it, so the stall lasted at
			 * least what is printed. The clock before the look can
			 * precede the last stop by the look's own time (reading
			 * every thread's stat, preempted on a loaded machine):
			 * so read, a 267.15 ms stall was 16 us longer than
			 * pwjack's event and a period, with a build beside.
			 */
			stopped_ns = ns(CLOCK_MONOTONIC);
			real_ns += stopped_ns - t0_ns;
			break;
		}
		nanosleep(&(struct timespec){ .tv_nsec = 20000 }, NULL);
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
	if (stopped_ns < 0) {
		/*
		 * no fault was planted: a thread that never ran to take the
		 * stop (one in a long system call: audiolat's main thread once
		 * populated an 8 MiB stack under mlockall for 200 ms in the
		 * qemu guest, and the pending stop died with the continue)
		 */
		fprintf(stderr, "truth-stall: PID %ld was not seen stopped in %ld ms\n", pid, ms);
		return 3;
	}
	printf("stop_real_ns=%lld stop_delay_ns=%lld stall_ns=%lld stop_mono_ns=%lld\n",
	       (long long)real_ns, (long long)(stopped_ns - t0_ns), (long long)(t1_ns - stopped_ns),
	       (long long)stopped_ns);
	return 0;
}
