/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * hackbench, re-implemented from its published description: G groups of
 * F receivers and F senders. Each receiver owns one channel (a Unix
 * stream socket pair, or a pipe with --pipe); each sender writes L
 * messages of S bytes to every receiver of its group, so a receiver reads
 * F x L messages. Workers are processes (default) or threads. All workers
 * report ready, then wait for one byte on a shared wake pipe; a run is
 * timed from that byte until the last worker is reaped.
 *
 * One load worker (the runner) repeats runs until stopped, or until
 * hb_runs runs are done. Counters: 0 runs, 1 ns of all runs, 2 messages.
 */
#define AL_LOAD_PRIVATE
#include <errno.h>
#include <limits.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <unistd.h>

#include "core/clock.h"
#include "load-private.h"

#define THREAD_STACK_BYTES (64 * 1024)

struct hb_task {
	bool sender;
	int in_fd;              /* receiver: its channel */
	const int *out_fds;     /* sender: the group's channels */
	int n_fds;
	int loops;
	int datasize;
	int ready_fd;
	int wake_fd;
	char *buf;              /* threads: allocated by the runner, outside the timing */
	pthread_t thread;
	pid_t pid;
	int result;             /* threads: 0 or -errno */
};

static int
wait_wake(const struct hb_task *t)
{
	struct pollfd pfd = { .fd = t->wake_fd, .events = POLLIN };
	char c = 'r';

	if (write(t->ready_fd, &c, 1) != 1)
		return -errno;
	while (poll(&pfd, 1, -1) < 0)
		if (errno != EINTR)
			return -errno;
	return 0;
}

static int
sender(const struct hb_task *t, char *buf)
{
	int i, j, r;
	size_t done;
	ssize_t w;

	r = wait_wake(t);
	if (r)
		return r;
	for (i = 0; i < t->loops; i++) {
		for (j = 0; j < t->n_fds; j++) {
			for (done = 0; done < (size_t)t->datasize; done += (size_t)w) {
				w = write(t->out_fds[j], buf + done, (size_t)t->datasize - done);
				if (w < 0 && errno == EINTR)
					w = 0;
				else if (w < 0)
					return -errno;
			}
		}
	}
	return 0;
}

static int
receiver(const struct hb_task *t, char *buf)
{
	size_t total = (size_t)t->n_fds * (size_t)t->loops * (size_t)t->datasize, done = 0, want;
	ssize_t n;
	int r;

	r = wait_wake(t);
	if (r)
		return r;
	while (done < total) {
		/* one message (or the rest of one) per read, as hackbench does */
		want = (size_t)t->datasize - done % (size_t)t->datasize;
		n = read(t->in_fd, buf, want);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return -EPIPE;
		done += (size_t)n;
	}
	return 0;
}

static int
task_run(struct hb_task *t)
{
	char *buf = t->buf ? t->buf : malloc((size_t)t->datasize);
	int r;

	if (!buf)
		return -ENOMEM;
	memset(buf, 'h', (size_t)t->datasize);
	r = t->sender ? sender(t, buf) : receiver(t, buf);
	if (!t->buf)
		free(buf);
	return r;
}

static void *
task_thread(void *arg)
{
	struct hb_task *t = arg;

	t->result = task_run(t);
	return NULL;
}

struct hb_run {
	int groups, fds;
	struct hb_task *tasks;   /* groups * 2 * fds */
	int *chan;               /* groups * fds * 2: [g][i][0] read end, [g][i][1] write end */
	int *out_fds;            /* groups * fds: write ends per group */
	int n_started;
	int ready[2], wake[2];
};

static void
close_fd(int *fd)
{
	if (*fd >= 0)
		close(*fd);
	*fd = -1;
}

static int
open_group(struct al_load_ctx *c, struct hb_run *h, int g)
{
	int i, sv[2], r;

	for (i = 0; i < h->fds; i++) {
		int *ch = &h->chan[(g * h->fds + i) * 2];

		r = c->opts->hb_pipe ? pipe(sv) : socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
		if (r)
			return al_load_fail(c->shm, -errno, "%s: %s",
					    c->opts->hb_pipe ? "pipe" : "socketpair", strerror(errno));
		ch[0] = sv[0];
		ch[1] = sv[1];
		h->out_fds[g * h->fds + i] = sv[1];
	}
	return 0;
}

static void
close_group(struct hb_run *h, int g)
{
	int i;

	for (i = 0; i < h->fds * 2; i++)
		close_fd(&h->chan[g * h->fds * 2 + i]);
}

static int
start_task(struct al_load_ctx *c, struct hb_run *h, struct hb_task *t, pid_t runner)
{
	pthread_attr_t attr;
	int r;

	if (c->opts->hb_threads) {
		/* the runner's heap: no per-thread malloc arena to set up and trim */
		t->buf = malloc((size_t)t->datasize);
		if (!t->buf)
			return al_load_fail(c->shm, -ENOMEM, "out of memory");
		pthread_attr_init(&attr);
		pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES > PTHREAD_STACK_MIN ?
							 THREAD_STACK_BYTES : PTHREAD_STACK_MIN);
		r = pthread_create(&t->thread, &attr, task_thread, t);
		pthread_attr_destroy(&attr);
		if (r) {
			free(t->buf);
			t->buf = NULL;
			return al_load_fail(c->shm, -r, "pthread_create: %s", strerror(r));
		}
		return 0;
	}
	t->pid = fork();
	if (t->pid < 0)
		return al_load_fail(c->shm, -errno, "fork: %s", strerror(errno));
	if (t->pid == 0) {
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != runner)
			_exit(1);
		/* keep only what this task uses open: less to tear down */
		close(h->ready[0]);
		close(h->wake[1]);
		_exit(task_run(t) ? 1 : 0);
	}
	return 0;
}

/* Reap the started tasks; 0, or the first failure. */
static int
reap(struct al_load_ctx *c, struct hb_run *h, bool kill_them)
{
	int i, st, r = 0;

	for (i = 0; i < h->n_started; i++) {
		struct hb_task *t = &h->tasks[i];

		if (c->opts->hb_threads) {
			if (kill_them)
				continue; /* the runner exits; threads go with it */
			pthread_join(t->thread, NULL);
			if (t->result && !r)
				r = al_load_fail(c->shm, t->result, "%s thread: %s",
						 t->sender ? "sender" : "receiver",
						 strerror(-t->result));
			continue;
		}
		if (kill_them)
			kill(t->pid, SIGKILL);
		while (waitpid(t->pid, &st, 0) < 0 && errno == EINTR)
			;
		if (!kill_them && !r && !(WIFEXITED(st) && WEXITSTATUS(st) == 0))
			r = al_load_fail(c->shm, -EIO, "%s %d %s %d", t->sender ? "sender" : "receiver",
					 (int)t->pid, WIFEXITED(st) ? "exited with status" : "killed by signal",
					 WIFEXITED(st) ? WEXITSTATUS(st) : WTERMSIG(st));
	}
	return r;
}

/* One timed run; *t_ns gets its time. */
static int
hb_one_run(struct al_load_ctx *c, struct hb_run *h, int64_t *t_ns)
{
	const struct al_load_opts *o = c->opts;
	int g, i, n_tasks = h->groups * h->fds * 2, r = 0;
	pid_t runner = getpid();
	int64_t t0_ns;
	char byte;
	ssize_t n;

	h->n_started = 0;
	if (pipe(h->ready) || pipe(h->wake))
		return al_load_fail(c->shm, -errno, "pipe: %s", strerror(errno));
	for (g = 0; g < h->groups && !r; g++) {
		r = open_group(c, h, g);
		for (i = 0; i < h->fds * 2 && !r; i++) {
			struct hb_task *t = &h->tasks[h->n_started];

			memset(t, 0, sizeof(*t));
			t->sender = i >= h->fds;
			t->in_fd = t->sender ? -1 : h->chan[(g * h->fds + i) * 2];
			t->out_fds = &h->out_fds[g * h->fds];
			t->n_fds = h->fds;
			t->loops = o->hb_loops;
			t->datasize = o->hb_datasize;
			t->ready_fd = h->ready[1];
			t->wake_fd = h->wake[0];
			r = start_task(c, h, t, runner);
			if (!r)
				h->n_started++;
		}
		if (!o->hb_threads)
			close_group(h, g);
	}
	/* everyone ready? */
	for (i = 0; i < h->n_started && !r;) {
		n = read(h->ready[0], &byte, 1);
		if (n == 1)
			i++;
		else if (!(n < 0 && errno == EINTR))
			r = al_load_fail(c->shm, -EIO, "a worker died before the start");
	}
	if (r) {
		reap(c, h, true);
		goto out;
	}
	t0_ns = al_clock_now_ns();
	al__load_work_started(c->shm);
	if (write(h->wake[1], "w", 1) != 1) {
		r = al_load_fail(c->shm, -errno, "wake: %s", strerror(errno));
		reap(c, h, true);
		goto out;
	}
	r = reap(c, h, false);
	*t_ns = al_clock_now_ns() - t0_ns;
	(void)n_tasks;
out:
	for (i = 0; i < h->n_started; i++) {
		free(h->tasks[i].buf);
		h->tasks[i].buf = NULL;
	}
	for (g = 0; g < h->groups; g++)
		close_group(h, g);
	close_fd(&h->ready[0]);
	close_fd(&h->ready[1]);
	close_fd(&h->wake[0]);
	close_fd(&h->wake[1]);
	return r;
}

static int
hb_worker(struct al_load_ctx *c)
{
	const struct al_load_opts *o = c->opts;
	struct hb_run h = { .groups = o->hb_groups, .fds = o->hb_fds };
	size_t n_tasks = (size_t)h.groups * (size_t)h.fds * 2, i;
	uint64_t messages = (uint64_t)h.groups * (uint64_t)h.fds * (uint64_t)h.fds *
			    (uint64_t)o->hb_loops;
	struct rlimit rl;
	int64_t t_ns = 0;
	int runs = 0, r;

	al__load_set_comm("hackbench");
	/* threads keep every channel open: allow as many fds as permitted */
	if (!getrlimit(RLIMIT_NOFILE, &rl) && rl.rlim_cur < rl.rlim_max) {
		rl.rlim_cur = rl.rlim_max;
		setrlimit(RLIMIT_NOFILE, &rl);
	}
	h.tasks = calloc(n_tasks, sizeof(*h.tasks));
	h.chan = malloc(n_tasks * sizeof(*h.chan));
	h.out_fds = calloc(n_tasks / 2, sizeof(*h.out_fds));
	if (!h.tasks || !h.chan || !h.out_fds)
		return al_load_fail(c->shm, -ENOMEM, "out of memory");
	for (i = 0; i < n_tasks; i++)
		h.chan[i] = -1;
	h.ready[0] = h.ready[1] = h.wake[0] = h.wake[1] = -1;
	for (;;) {
		r = hb_one_run(c, &h, &t_ns);
		if (r)
			return r;
		al__load_add(c->shm, 1, (uint64_t)t_ns);
		al__load_add(c->shm, 2, messages);
		al__load_add(c->shm, 0, 1);
		runs++;
		if (o->hb_runs > 0 && runs >= o->hb_runs)
			return 0;
	}
}

static void
hb_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	(void)arg;
	snprintf(buf, size, "groups=%d fds=%d loops=%d datasize=%d mode=%s ipc=%s", o->hb_groups,
		 o->hb_fds, o->hb_loops, o->hb_datasize, o->hb_threads ? "thread" : "process",
		 o->hb_pipe ? "pipe" : "socket");
}

static int
hb_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	uint64_t runs = al__load_get(shm, 0), run_ns = al__load_get(shm, 1);
	double s = (double)run_ns / AL_NS_PER_SEC;

	(void)work_ns;
	if (max < 3)
		return 0;
	/* over the completed runs only: a run cut short by the phase end has no time */
	al__load_metric(&m[0], "messages_per_s", al__load_per_s(shm, 2, (int64_t)run_ns),
			"1/s");
	al__load_metric(&m[1], "s_per_run", runs ? s / (double)runs : NAN, "s");
	al__load_metric(&m[2], "runs", (double)runs, "");
	return 3;
}

const struct al_load_ops al_load_hackbench = {
	.name = "hackbench",
	.summary = "groups of senders and receivers over Unix sockets or pipes (rt-tests hackbench)",
	.option_names = "groups fds loops datasize pipe threads process",
	.metric_names = "messages_per_s s_per_run runs",
	.worker = hb_worker,
	.describe = hb_describe,
	.metrics = hb_metrics,
};
