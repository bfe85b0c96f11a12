/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Stopping loads, in the controller's own process (no PDEATHSIG of an
 * audiolat that exits cleans up for it): after al_load_phase_stop()
 * nothing of the load's process group is left, also when its supervisor
 * cannot run (stopped) and only the group's SIGKILL after the grace
 * reaches the command's children; a command that runs the whole phase
 * was started once (0 restarts); the phase driver's start and end times.
 */
#include <dirent.h>
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
#include <time.h>
#include <unistd.h>
#include <cmocka.h>

#include "core/clock.h"
#include "load/load.h"
#include "load/phases.h"
#include "phase-metric.h"

#define MS AL_NS_PER_MS

/* The state letter, parent and process group of pid from /proc; false when gone. */
static bool
proc_stat(pid_t pid, char *state, pid_t *ppid, pid_t *pgrp)
{
	char path[64], buf[512], *p;
	FILE *f;
	int pp, pg;
	size_t n;

	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	f = fopen(path, "re");
	if (!f)
		return false;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	fclose(f);
	buf[n] = '\0';
	p = strrchr(buf, ')');
	if (!p || sscanf(p + 1, " %c %d %d", state, &pp, &pg) != 3)
		return false;
	*ppid = pp;
	*pgrp = pg;
	return true;
}

/* The live (not zombie) processes whose group is pg, or whose parent is ppid (0: any). */
static int
count_procs(pid_t pg, pid_t ppid, pid_t *first)
{
	struct dirent *de;
	DIR *d = opendir("/proc");
	int n = 0;

	assert_non_null(d);
	while ((de = readdir(d))) {
		pid_t pid = (pid_t)atoi(de->d_name), pp, g;
		char st;

		if (pid <= 0 || !proc_stat(pid, &st, &pp, &g) || st == 'Z')
			continue;
		if ((pg && g == pg) || (ppid && pp == ppid)) {
			if (first && !n)
				*first = pid;
			n++;
		}
	}
	closedir(d);
	return n;
}

static int
group_alive(pid_t pg)
{
	return count_procs(pg, 0, NULL);
}

/* Wait (polled every 10 ms, up to t_ns) until the group has at least min live processes
 * (min > 0) or none (min == 0). */
static bool
wait_group(pid_t pg, int min, int64_t t_ns)
{
	int64_t end_ns = al_clock_now_ns() + t_ns;

	for (;;) {
		int n = group_alive(pg);

		if (min ? n >= min : n == 0)
			return true;
		if (al_clock_now_ns() >= end_ns)
			return false;
		al_clock_sleep_until_ns(al_clock_now_ns() + 10 * MS);
	}
}

/* Nothing of group pg is left (waited for up to 5 s); what is, is killed and fails the test. */
static void
assert_group_gone(pid_t pg, const char *when)
{
	if (wait_group(pg, 0, 5 * AL_NS_PER_SEC))
		return;
	kill(-pg, SIGKILL);
	fail_msg("%s: %d processes of the load's group %d live on", when, group_alive(pg), (int)pg);
}

/*
 * A cmd load whose sh forks a sleep (no PDEATHSIG of its own): the
 * supervisor (the group's leader, our one child), its worker, sh and the
 * sleep run in the group before this returns; *pg is the group.
 */
static struct al_load_set *
start_sleeper(struct al_phase_spec **phases, struct al_load_opts *o, pid_t *pg)
{
	struct al_load_set *set;
	char err[256];
	size_t n;

	al_load_opts_init(o);
	assert_int_equal(al_load_spec_parse("cmd:'sleep 30; true'", 0, phases, &n, err,
					    sizeof(err)), 0);
	if (al_load_phase_start(&(*phases)[0], o, &set, err, sizeof(err)))
		fail_msg("start: %s", err);
	*pg = 0;
	assert_int_equal(count_procs(0, getpid(), pg), 1);
	assert_true(*pg > 0);
	if (!wait_group(*pg, 4, 5 * AL_NS_PER_SEC))
		fail_msg("the load's group %d has %d processes, not 4", (int)*pg, group_alive(*pg));
	return set;
}

static void
stop_leaves_nothing(void **state)
{
	struct al_phase_spec *phases;
	struct al_load_set *set;
	struct al_load_opts o;
	struct al_phase ph;
	char err[256];
	pid_t pg;

	(void)state;
	memset(&ph, 0, sizeof(ph));
	set = start_sleeper(&phases, &o, &pg);
	/* running: no failure, not done */
	assert_int_equal(al_load_phase_poll(set, err, sizeof(err)), 0);
	assert_int_equal(al_load_phase_stop(set, &ph), 0);
	assert_string_equal(ph.error, "");
	/* the command ran the whole phase: started once, never again */
	assert_true(metric(&ph, "restarts") == 0);
	assert_true(metric(&ph, "failed_runs") == 0);
	assert_group_gone(pg, "after the stop");
	al_load_spec_free(phases);
}

static void
stopped_supervisor_group_killed(void **state)
{
	struct al_phase_spec *phases;
	struct al_load_set *set;
	struct al_load_opts o;
	struct al_phase ph;
	pid_t pg;

	(void)state;
	memset(&ph, 0, sizeof(ph));
	set = start_sleeper(&phases, &o, &pg);
	/* the supervisor cannot sweep its descendants: after the grace, the group's SIGKILL */
	assert_int_equal(kill(pg, SIGSTOP), 0);
	assert_int_equal(al_load_phase_stop(set, &ph), 0);
	assert_group_gone(pg, "a stopped supervisor");
	al_load_spec_free(phases);
}

static void
phases_start_and_end(void **state)
{
	struct al_phase_spec *phases;
	struct al_phase ph[2];
	struct al_load_opts o;
	struct al_phase_driver d;
	char err[256];
	size_t n;
	int64_t origin_ns, after_ns;

	(void)state;
	memset(ph, 0, sizeof(ph));
	al_load_opts_init(&o);
	assert_int_equal(al_load_spec_parse("idle:200ms,idle:150ms", 0, &phases, &n, err,
					    sizeof(err)), 0);
	origin_ns = al_clock_now_ns();
	d = (struct al_phase_driver){
		.spec = phases, .n_spec = n, .load_opts = &o, .origin_ns = origin_ns,
		.tick_ns = 10 * MS, .phases = ph,
	};
	assert_int_equal(al_phase_driver_run(&d), 0);
	after_ns = al_clock_now_ns() - origin_ns;
	assert_int_equal(d.n_done, 2);
	assert_false(d.interrupted);
	assert_string_equal(ph[0].name, "idle");
	assert_string_equal(ph[0].load, "none");
	/* on the driver's origin, in order, each at least its time */
	assert_true(ph[0].start_ns >= 0);
	assert_true(ph[0].end_ns - ph[0].start_ns >= 200 * MS);
	assert_true(ph[1].start_ns >= ph[0].end_ns);
	assert_true(ph[1].end_ns - ph[1].start_ns >= 150 * MS);
	assert_true(ph[1].end_ns <= after_ns);
	assert_true(d.stopped_ns - origin_ns >= ph[1].start_ns + 150 * MS);
	al_load_spec_free(phases);
}

/*
 * A load whose setup fails (its directory went away after the check): the
 * start fails, and nothing of it is left (moved here from test-load-run.c).
 */
static void
setup_failure_fails_the_start(void **state)
{
	struct al_phase_spec *phases;
	struct al_load_set *set = (void *)1;
	struct al_load_opts o;
	char err[256];
	size_t n;

	(void)state;
	al_load_opts_init(&o);
	snprintf(o.dir, sizeof(o.dir), "/nonexistent/audiolat-load-stop");
	assert_int_equal(al_load_spec_parse("disk-read", 0, &phases, &n, err, sizeof(err)), 0);
	assert_true(al_load_phase_start(&phases[0], &o, &set, err, sizeof(err)) < 0);
	assert_null(set);
	assert_non_null(strstr(err, "disk-read: "));
	assert_int_equal(count_procs(0, getpid(), NULL), 0);
	al_load_spec_free(phases);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(stop_leaves_nothing),
		cmocka_unit_test(stopped_supervisor_group_killed),
		cmocka_unit_test(phases_start_and_end),
		cmocka_unit_test(setup_failure_fails_the_start),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
