/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cmd:'COMMAND': an external command run with /bin/sh -c, restarted when
 * it exits (at most 10 starts a second), until the phase ends. It runs in
 * the load's process group, killed as a whole at the end; stdin and
 * stdout are /dev/null, stderr is audiolat's. A command that cannot be
 * run at all (sh exits 126 or 127 the first time) fails the load.
 */
#define AL_LOAD_PRIVATE
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "load-private.h"

#define MIN_RUN_NS (100 * AL_NS_PER_MS)

static int
cmd_worker(struct al_load_ctx *c)
{
	int64_t t0_ns, t_ns;
	struct timespec ts;
	pid_t pid, self = getpid();
	uint64_t starts = 0;
	int st, code;

	al__load_set_comm("cmd");
	al__load_work_started(c->shm);
	for (;;) {
		t0_ns = al_clock_now_ns();
		pid = fork();
		if (pid < 0)
			return al_load_fail(c->shm, -errno, "fork: %s", strerror(errno));
		if (pid == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			if (getppid() != self)
				_exit(127);
			execl("/bin/sh", "sh", "-c", c->arg, (char *)NULL);
			_exit(127);
		}
		starts++;
		al__load_add(c->shm, 0, 1);
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		code = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
		if (code)
			al__load_add(c->shm, 1, 1);
		if (starts == 1 && (code == 126 || code == 127))
			return al_load_fail(c->shm, -ENOENT,
					    "'%s' could not be run (exit status %d: not found or not executable)",
					    c->arg, code);
		t_ns = al_clock_now_ns() - t0_ns;
		if (t_ns < MIN_RUN_NS) {
			ts = al_ns_to_timespec(MIN_RUN_NS - t_ns);
			nanosleep(&ts, NULL);
		}
	}
	return 0;
}

static void
cmd_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	(void)o;
	snprintf(buf, size, "command='%s'", arg);
}

static int
cmd_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	uint64_t starts = al__load_get(shm, 0);

	(void)work_ns;
	if (max < 2)
		return 0;
	al__load_metric(&m[0], "restarts", starts ? (double)(starts - 1) : 0, "");
	al__load_metric(&m[1], "failed_runs", (double)al__load_get(shm, 1), "");
	return 2;
}

const struct al_load_ops al_load_cmd = {
	.name = "cmd",
	.summary = "cmd:'COMMAND': run a command with /bin/sh -c, restarted when it exits",
	.option_names = "",
	.metric_names = "restarts failed_runs",
	.needs_arg = true,
	.worker = cmd_worker,
	.describe = cmd_describe,
	.metrics = cmd_metrics,
};
