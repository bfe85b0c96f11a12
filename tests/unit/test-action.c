/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor's threshold actions (src/run/action.c): what
 * --on-threshold takes, what it needs of the run, and the environment an
 * exec: command gets for an event (written by the command to a file).
 */
#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "run/action.h"

static void
parse(void **state)
{
	struct al_action a;

	(void)state;
	assert_int_equal(al_action_parse(&a, "trace"), 0);
	assert_int_equal(a.kind, AL_ACTION_TRACE);
	assert_int_equal(al_action_parse(&a, "exec:echo hi"), 0);
	assert_int_equal(a.kind, AL_ACTION_EXEC);
	assert_string_equal(a.exec_cmd, "echo hi");
	assert_string_equal(a.spec, "exec:echo hi");
	assert_int_equal(al_action_parse(&a, "signal:USR1"), 0);
	assert_int_equal(a.kind, AL_ACTION_SIGNAL);
	assert_int_equal(a.signo, SIGUSR1);
	assert_int_equal(al_action_parse(&a, "signal:SIGUSR2"), 0);
	assert_int_equal(a.signo, SIGUSR2);
	assert_int_equal(al_action_parse(&a, "signal:1"), 0);
	assert_int_equal(a.signo, SIGHUP);
	assert_int_equal(al_action_parse(&a, "signal:SIGCONT"), 0);
	assert_int_equal(a.signo, SIGCONT);

	assert_int_equal(al_action_parse(&a, "exec:"), -EINVAL);
	assert_int_equal(al_action_parse(&a, "signal:0"), -EINVAL);
	assert_int_equal(al_action_parse(&a, "signal:NOSUCH"), -EINVAL);
	assert_int_equal(al_action_parse(&a, "signal:99999"), -EINVAL);
	assert_int_equal(al_action_parse(&a, "nosuch"), -EINVAL);
	assert_int_equal(a.kind, AL_ACTION_NONE);
	assert_null(a.spec);
}

static void
check(void **state)
{
	struct al_action none = { 0 }, tr;
	char err[128] = "";

	(void)state;
	assert_int_equal(al_action_parse(&tr, "trace"), 0);
	/* nothing asked, nothing needed */
	assert_int_equal(al_action_check(&none, 0, false, err, sizeof(err)), 0);
	assert_int_equal(al_action_check(&tr, 0, true, err, sizeof(err)), 0);
	assert_int_equal(al_action_check(&tr, 0, false, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--on-threshold trace: needs --trace");
	assert_int_equal(al_action_check(&none, 5 * AL_NS_PER_MS, false, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--threshold: needs --on-threshold");
}

/* Run one exec: action for ev and wait for it; its output (one line) in line. */
static int
exec_event(const struct al_monitor_event *ev, int64_t started_at_ns, char *line, size_t size)
{
	static char spec[512];
	char path[] = "/tmp/audiolat-test-action.XXXXXX";
	struct al_action a;
	FILE *f;
	int fd, rc, st, i;

	fd = mkstemp(path);
	assert_true(fd >= 0);
	close(fd);
	snprintf(spec, sizeof(spec),
		 "exec:echo \"$AUDIOLAT_EVENT $AUDIOLAT_EVENT_T_NS $AUDIOLAT_EVENT_LATENCY_NS "
		 "$AUDIOLAT_EVENT_XRUN_NS $AUDIOLAT_EVENT_SUPPRESSED $AUDIOLAT_EVENT_TIME\" >'%s'",
		 path);
	assert_int_equal(al_action_parse(&a, spec), 0);
	rc = al_action_run(&a, ev, started_at_ns);
	for (i = 0; i < AL_ACTION_CHILDREN; i++)
		if (a.children[i] > 0) {
			assert_int_equal(waitpid(a.children[i], &st, 0), a.children[i]);
			assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
		}
	line[0] = '\0';
	f = fopen(path, "re");
	assert_non_null(f);
	if (!fgets(line, (int)size, f))
		line[0] = '\0';
	line[strcspn(line, "\n")] = '\0';
	fclose(f);
	unlink(path);
	return rc;
}

static void
exec_environment(void **state)
{
	/* 2026-01-02T03:04:05Z, and the event 1.5 s after it */
	const int64_t started = 1767323045LL * AL_NS_PER_SEC;
	struct al_monitor_event lat = { .t_ns = 1500 * AL_NS_PER_MS, .latency_ns = 7000000,
					.xrun = false, .xrun_ns = 123, .suppressed = 4 };
	struct al_monitor_event xr = { .t_ns = 2 * AL_NS_PER_SEC, .latency_ns = 9000000,
				       .xrun = true, .xrun_ns = 300000000 };
	char line[256];

	(void)state;
	assert_int_equal(exec_event(&lat, started, line, sizeof(line)), 0);
	assert_string_equal(line, "latency 1500000000 7000000 0 4 2026-01-02T03:04:06.500Z");
	assert_int_equal(exec_event(&xr, started, line, sizeof(line)), 0);
	assert_string_equal(line, "xrun 2000000000 9000000 300000000 0 2026-01-02T03:04:07.000Z");
}

static void
busy_and_trace(void **state)
{
	struct al_monitor_event ev = { .t_ns = 1, .latency_ns = 2 };
	struct al_action a;
	int i, st;

	(void)state;
	/* the commands that still run hold their slots: the next one is skipped */
	/* exec: the pid is the sleep, killed below (a shell may fork it) */
	assert_int_equal(al_action_parse(&a, "exec:exec sleep 30"), 0);
	for (i = 0; i < AL_ACTION_CHILDREN; i++)
		assert_int_equal(al_action_run(&a, &ev, 0), 0);
	assert_int_equal(al_action_run(&a, &ev, 0), -EBUSY);
	/* one that ended frees its slot */
	kill(a.children[3], SIGKILL);
	assert_int_equal(waitpid(a.children[3], &st, 0), a.children[3]);
	a.children[3] = 0;
	assert_int_equal(al_action_run(&a, &ev, 0), 0);
	for (i = 0; i < AL_ACTION_CHILDREN; i++) {
		assert_true(a.children[i] > 0);
		kill(a.children[i], SIGKILL);
		waitpid(a.children[i], &st, 0);
	}

	/* trace: a checkpoint now */
	assert_int_equal(al_action_parse(&a, "trace"), 0);
	assert_int_equal(al_action_run(&a, &ev, 0), 1);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(parse),
		cmocka_unit_test(check),
		cmocka_unit_test(exec_environment),
		cmocka_unit_test(busy_and_trace),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
