/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <signal.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "core/units.h"
#include "action.h"

extern char **environ;

static int
signal_of(const char *s)
{
	static const struct { const char *name; int sig; } names[] = {
		{ "HUP", SIGHUP }, { "INT", SIGINT }, { "QUIT", SIGQUIT }, { "USR1", SIGUSR1 },
		{ "USR2", SIGUSR2 }, { "TERM", SIGTERM }, { "ALRM", SIGALRM }, { "CONT", SIGCONT },
	};
	long v;

	if (!strncmp(s, "SIG", 3))
		s += 3;
	for (size_t i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		if (!strcmp(s, names[i].name))
			return names[i].sig;
	if (!al_parse_long(s, 1, SIGRTMAX, &v))
		return (int)v;
	return -1;
}

int
al_action_parse(struct al_action *a, const char *spec)
{
	memset(a, 0, sizeof(*a));
	if (!strcmp(spec, "trace")) {
		a->kind = AL_ACTION_TRACE;
	} else if (!strncmp(spec, "exec:", 5) && spec[5]) {
		a->kind = AL_ACTION_EXEC;
		a->exec_cmd = spec + 5;
	} else if (!strncmp(spec, "signal:", 7) && (a->signo = signal_of(spec + 7)) > 0) {
		a->kind = AL_ACTION_SIGNAL;
	} else {
		memset(a, 0, sizeof(*a));
		return -EINVAL;
	}
	a->spec = spec;
	return 0;
}

int
al_action_check(const struct al_action *a, int64_t threshold_ns, bool trace, char *err,
		size_t err_size)
{
	if (a->kind == AL_ACTION_TRACE && !trace)
		snprintf(err, err_size, "--on-threshold trace: needs --trace");
	else if (threshold_ns && a->kind == AL_ACTION_NONE)
		snprintf(err, err_size, "--threshold: needs --on-threshold");
	else
		return 0;
	return -EINVAL;
}

void
al_action_reap(struct al_action *a)
{
	for (int i = 0; i < AL_ACTION_CHILDREN; i++)
		if (a->children[i] > 0 && waitpid(a->children[i], NULL, WNOHANG) == a->children[i])
			a->children[i] = 0;
}

static int
run_exec(struct al_action *a, const struct al_monitor_event *ev, int64_t started_at_ns)
{
	char v[6][96], iso[40], **envp;
	char *argv[] = { "sh", "-c", (char *)a->exec_cmd, NULL };
	size_t n = 0, i;
	int slot = -1, rc;
	pid_t pid;

	al_action_reap(a);
	for (i = 0; i < AL_ACTION_CHILDREN; i++)
		if (a->children[i] <= 0)
			slot = (int)i;
	if (slot < 0)
		return -EBUSY;
	while (environ[n])
		n++;
	envp = calloc(n + 7, sizeof(*envp));
	if (!envp)
		return -ENOMEM;
	for (i = 0; i < n; i++)
		envp[i] = environ[i];
	al_clock_format_iso(started_at_ns + ev->t_ns, iso, sizeof(iso));
	snprintf(v[0], sizeof(v[0]), "AUDIOLAT_EVENT=%s", ev->xrun ? "xrun" : "latency");
	snprintf(v[1], sizeof(v[1]), "AUDIOLAT_EVENT_T_NS=%lld", (long long)ev->t_ns);
	snprintf(v[2], sizeof(v[2]), "AUDIOLAT_EVENT_TIME=%s", iso);
	snprintf(v[3], sizeof(v[3]), "AUDIOLAT_EVENT_LATENCY_NS=%lld", (long long)ev->latency_ns);
	snprintf(v[4], sizeof(v[4]), "AUDIOLAT_EVENT_XRUN_NS=%lld",
		 (long long)(ev->xrun ? ev->xrun_ns : 0));
	snprintf(v[5], sizeof(v[5]), "AUDIOLAT_EVENT_SUPPRESSED=%llu",
		 (unsigned long long)ev->suppressed);
	for (i = 0; i < 6; i++)
		envp[n + i] = v[i];
	envp[n + 6] = NULL;
	/* posix_spawn: no copy of a large, locked address space */
	rc = posix_spawn(&pid, "/bin/sh", NULL, NULL, argv, envp);
	if (rc == 0)
		a->children[slot] = pid;
	free(envp);
	return -rc;
}

int
al_action_run(struct al_action *a, const struct al_monitor_event *ev, int64_t started_at_ns)
{
	switch (a->kind) {
	case AL_ACTION_EXEC:
		return run_exec(a, ev, started_at_ns);
	case AL_ACTION_SIGNAL:
		kill(getppid(), a->signo);
		return 0;
	case AL_ACTION_TRACE:
		return 1; /* the flight recorder explained it (a spike): saved now */
	default:
		return 0;
	}
}
