/* SPDX-License-Identifier: GPL-2.0-or-later */
/* fork: a fork/exit/wait storm. N workers (--workers, default 1). */
#define AL_LOAD_PRIVATE
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "load-private.h"

static int
fork_workers(const struct al_load_opts *o)
{
	return o->workers > 0 ? o->workers : 1;
}

static int
fork_worker(struct al_load_ctx *c)
{
	struct timespec pause = { 0, 1000000 };
	uint64_t n = 0;
	pid_t pid;
	int st;

	al__load_set_comm("fork");
	al__load_work_started(c->shm);
	for (;;) {
		pid = fork();
		if (pid == 0)
			_exit(0);
		if (pid < 0) {
			if (errno != EAGAIN && errno != ENOMEM)
				return al_load_fail(c->shm, -errno, "fork: %s", strerror(errno));
			al__load_add(c->shm, 1, 1);
			nanosleep(&pause, NULL);
			continue;
		}
		while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
			;
		if (++n % 16 == 0)
			al__load_add(c->shm, 0, 16);
	}
	return 0;
}

static void
fork_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	(void)arg;
	snprintf(buf, size, "workers=%d", fork_workers(o));
}

static int
fork_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	if (max < 2)
		return 0;
	al__load_metric(&m[0], "forks_per_s", al__load_per_s(shm, 0, work_ns), "1/s");
	al__load_metric(&m[1], "fork_failures", (double)al__load_get(shm, 1), "");
	return 2;
}

const struct al_load_ops al_load_fork = {
	.name = "fork",
	.summary = "fork, exit and wait as fast as possible",
	.option_names = "workers",
	.metric_names = "forks_per_s fork_failures",
	.workers = fork_workers,
	.worker = fork_worker,
	.describe = fork_describe,
	.metrics = fork_metrics,
};
