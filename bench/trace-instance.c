/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Hold the flight recorder's ftrace instance (src/trace) on one CPU while
 * a command runs, so its parts can be measured on any command (bench/trace.sh
 * measures `audiolat run --trace` itself):
 *
 *	bench-trace-instance [-c CPU] [-b KB] [-e MS] [-A] -- COMMAND [ARGS...]
 *
 * -e MS: also read the trace out every MS milliseconds (what explaining
 * spikes costs; default 0: never, the instance only records).
 * -A: record the rich set of events all along (armed), not the base set.
 * Exit: the command's status; 4 when tracing is unavailable (one line).
 */
#include <errno.h>
#include <stdbool.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/units.h"
#include "trace/trace.h"

int
main(int argc, char **argv)
{
	long cpu = 1, kb = 0, every_ms = 0;
	struct al_trace *t;
	struct al_spike s;
	char err[256];
	int opt, rc, status = 0;
	bool armed = false;
	pid_t child;

	while ((opt = getopt(argc, argv, "+c:b:e:A")) != -1) {
		long *dst = opt == 'c' ? &cpu : opt == 'b' ? &kb : opt == 'e' ? &every_ms : NULL;

		if (opt == 'A') {
			armed = true;
			continue;
		}
		if (!dst || al_parse_long(optarg, 0, 1 << 20, dst)) {
			fprintf(stderr, "usage: bench-trace-instance [-c CPU] [-b KB] [-e MS] [-A] -- COMMAND...\n");
			return 2;
		}
	}
	if (optind >= argc) {
		fprintf(stderr, "usage: bench-trace-instance [-c CPU] [-b KB] [-e MS] [-A] -- COMMAND...\n");
		return 2;
	}
	rc = al_trace_open(&t, (int)cpu, (size_t)kb, err, sizeof(err));
	if (rc) {
		fprintf(stderr, "bench-trace-instance: %s\n", err);
		return 4;
	}
	if (armed && (rc = al_trace_arm(t, true))) {
		fprintf(stderr, "bench-trace-instance: arming the rich events: %s\n", strerror(-rc));
		al_trace_close(t);
		return 1;
	}
	/* the command gets ^C; we wait for it and clean up */
	signal(SIGINT, SIG_IGN);
	signal(SIGTERM, SIG_IGN);
	child = fork();
	if (child == 0) {
		signal(SIGINT, SIG_DFL);
		signal(SIGTERM, SIG_DFL);
		execvp(argv[optind], argv + optind);
		fprintf(stderr, "bench-trace-instance: %s: %s\n", argv[optind], strerror(errno));
		_exit(127);
	}
	if (child < 0) {
		fprintf(stderr, "bench-trace-instance: fork: %s\n", strerror(errno));
		al_trace_close(t);
		return 1;
	}
	while ((rc = waitpid(child, &status, every_ms ? WNOHANG : 0)) == 0 ||
	       (rc < 0 && errno == EINTR)) {
		int64_t now = al_clock_now_ns();

		/* read everything recorded so far, as explaining a spike would */
		al_trace_explain(t, now - every_ms * AL_NS_PER_MS, now, 0, &s);
		al_clock_sleep_until_ns(now + every_ms * AL_NS_PER_MS);
	}
	al_trace_close(t);
	if (rc < 0)
		return 1;
	return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status);
}
