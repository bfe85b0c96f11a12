/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * A load's supervisor process and its workers (proc.c starts it): its own
 * process group, the load's scheduling for the workers and SCHED_OTHER for
 * itself, fds closed, a death signal from the controller, and the whole
 * group killed when a worker fails or the controller goes.
 */
#define AL_LOAD_PRIVATE
#include <errno.h>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include "load-private.h"

/* struct linux_dirent64, for getdents64 (glibc's readdir is not async-signal-safe) */
struct dirent64_raw {
	uint64_t d_ino;
	int64_t d_off;
	unsigned short d_reclen;
	unsigned char d_type;
	char d_name[];
};

/* "1234" -> 1234; 0 for anything else. Async-signal-safe. */
static pid_t
pid_of_name(const char *s)
{
	pid_t v = 0;

	if (!*s)
		return 0;
	for (; *s; s++) {
		if (*s < '0' || *s > '9' || v > 100000000)
			return 0;
		v = v * 10 + (*s - '0');
	}
	return v;
}

/*
 * The parent of pid from /proc/PID/stat ("PID (COMM) S PPID ...", COMM may
 * hold spaces and parentheses), and its state letter; 0 when unreadable.
 * Async-signal-safe: open, read, close and hand-made number formatting.
 */
static pid_t
ppid_of(pid_t pid, char *state)
{
	char path[32] = "/proc/", digits[12], buf[512], *p, *close_paren = NULL;
	int nd = 0, fd, i = 6;
	ssize_t n;
	pid_t ppid = 0;

	do
		digits[nd++] = (char)('0' + pid % 10);
	while ((pid /= 10) && nd < 11);
	while (nd)
		path[i++] = digits[--nd];
	memcpy(path + i, "/stat", 6);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return 0;
	n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return 0;
	buf[n] = '\0';
	for (p = buf; *p; p++)
		if (*p == ')')
			close_paren = p;
	if (!close_paren || close_paren[1] != ' ' || !close_paren[2] || close_paren[3] != ' ')
		return 0;
	*state = close_paren[2];
	for (p = close_paren + 4; *p >= '0' && *p <= '9'; p++)
		ppid = ppid * 10 + (*p - '0');
	return ppid;
}

#define SWEEP_MARKS_MAX 8192
#define SWEEP_ROUNDS_MAX 200

/*
 * Kill every descendant of this process, wherever it went: a command that
 * left the process group (timeout(1) makes its own; setsid) is out of
 * reach of kill(0, ...), but it stays our descendant, and as a child
 * subreaper we inherit the orphans of whatever we kill. Rounds over /proc
 * until none is left alive. Async-signal-safe (it runs in the SIGTERM
 * handler): static memory, getdents64, open/read, kill, waitpid, nanosleep.
 */
static void
kill_descendants(void)
{
	static pid_t marked[SWEEP_MARKS_MAX];
	static char dents[8192];
	struct timespec pause = { 0, 2 * 1000 * 1000 };
	int n_marked = 1, round, found, dfd, i, j;
	pid_t pid, ppid;
	long n, off;
	char state;

	marked[0] = getpid();
	for (round = 0; round < SWEEP_ROUNDS_MAX; round++) {
		found = 0;
		dfd = open("/proc", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		if (dfd < 0)
			return;
		while ((n = syscall(SYS_getdents64, dfd, dents, sizeof(dents))) > 0) {
			for (off = 0; off < n;) {
				struct dirent64_raw *d = (struct dirent64_raw *)(dents + off);

				off += d->d_reclen;
				pid = pid_of_name(d->d_name);
				if (pid <= 0 || pid == marked[0])
					continue;
				ppid = ppid_of(pid, &state);
				if (ppid <= 0 || state == 'Z')
					continue;
				for (i = 0; i < n_marked && marked[i] != ppid; i++)
					;
				if (i == n_marked)
					continue;
				for (j = 0; j < n_marked && marked[j] != pid; j++)
					;
				if (j == n_marked && n_marked < SWEEP_MARKS_MAX)
					marked[n_marked++] = pid;
				kill(pid, SIGKILL);
				found++;
			}
		}
		close(dfd);
		/* our children, and the orphans reparented to us */
		while (waitpid(-1, NULL, WNOHANG) > 0)
			;
		if (!found)
			return;
		nanosleep(&pause, NULL);
	}
}

/* SIGTERM (audiolat stops the load, or died: PDEATHSIG): every descendant, then the group. */
static void
die_with_group(int sig)
{
	(void)sig;
	kill_descendants();
	kill(0, SIGKILL);
	_exit(1);
}

static void
reset_signals(void)
{
	struct sigaction sa = { .sa_handler = SIG_DFL };
	sigset_t none;
	int sig;

	sigemptyset(&sa.sa_mask);
	for (sig = 1; sig < NSIG; sig++)
		if (sig != SIGKILL && sig != SIGSTOP)
			sigaction(sig, &sa, NULL);
	sigemptyset(&none);
	sigprocmask(SIG_SETMASK, &none, NULL);
}

static void
close_fds_from(int first)
{
#ifdef SYS_close_range
	if (syscall(SYS_close_range, (unsigned int)first, ~0U, 0) == 0)
		return;
#endif
	for (long fd = first, max = sysconf(_SC_OPEN_MAX); fd < (max > 0 ? max : 1024); fd++)
		close((int)fd);
}

/* Every CPU the machine has. */
static void
all_cpus(void)
{
	cpu_set_t all;
	long n = sysconf(_SC_NPROCESSORS_CONF);

	CPU_ZERO(&all);
	for (long c = 0; c < n && c < CPU_SETSIZE; c++)
		CPU_SET(c, &all);
	sched_setaffinity(0, sizeof(all), &all);
}

static int
apply_sched(const struct al_load_opts *o, struct al_load_shm *shm)
{
	struct sched_param sp = { .sched_priority = 0 };

	if (!o->cpus_all) {
		if (sched_setaffinity(0, sizeof(o->cpus), &o->cpus))
			return al_load_fail(shm, -errno, "--load-cpus %s: %s", o->cpus_text,
					    strerror(errno));
	} else {
		/* undo a pinning inherited from the controller */
		all_cpus();
	}
	if (o->policy == SCHED_RR || o->policy == SCHED_FIFO)
		sp.sched_priority = o->prio;
	if (sched_setscheduler(0, o->policy, &sp))
		return al_load_fail(shm, -errno, "--load-policy: cannot set it: %s%s",
				    strerror(errno),
				    errno == EPERM ? " (needs root, CAP_SYS_NICE or an rtprio limit)"
						   : "");
	if (setpriority(PRIO_PROCESS, 0, o->nice))
		return al_load_fail(shm, -errno, "--load-nice %d: %s", o->nice, strerror(errno));
	return 0;
}

/*
 * Back to every CPU at SCHED_OTHER. The CPUs first: dropped to SCHED_OTHER
 * while still pinned beside the real-time worker it left there, the
 * supervisor would wait for that worker to yield the CPU.
 */
static void
leave_load_sched(void)
{
	struct sched_param sp = { .sched_priority = 0 };

	all_cpus();
	sched_setscheduler(0, SCHED_OTHER, &sp);
	setpriority(PRIO_PROCESS, 0, 0);
}

/* Tell the controller the setup is done: 'r' ready, 'e' failed (error in shm). */
static void
ready(int fd, char c)
{
	ssize_t w;

	do
		w = write(fd, &c, 1);
	while (w < 0 && errno == EINTR);
	close(fd);
}

/* The supervisor's fds: 0 and 1 from /dev/null, 2 kept, the ready pipe at 3, nothing else. */
static void
supervisor_fds(int ready_fd)
{
	int fd;

	if (ready_fd != AL_LOAD_READY_FD) {
		dup2(ready_fd, AL_LOAD_READY_FD);
		close(ready_fd);
	}
	close_fds_from(AL_LOAD_READY_FD + 1);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		if (fd > 2 && fd != AL_LOAD_READY_FD)
			close(fd);
	}
}

/*
 * Wait for the n workers; one that exits with a failure or is killed is
 * the load's failure (in shm), and takes the group down with it.
 */
static void
reap_workers(struct al_load_shm *shm, const pid_t *workers, int n)
{
	int i, alive, st;

	for (alive = n; alive > 0;) {
		pid_t pid = waitpid(-1, &st, 0);

		if (pid < 0) {
			if (errno == EINTR)
				continue;
			break;
		}
		for (i = 0; i < n && workers[i] != pid; i++)
			;
		if (i == n)
			continue; /* an orphan of a cmd load, reparented to us */
		alive--;
		if (WIFEXITED(st) && WEXITSTATUS(st) == 0)
			continue;
		if (WIFEXITED(st))
			al_load_fail(shm, -EIO, "worker %d exited with status %d", (int)pid,
				     WEXITSTATUS(st));
		else
			al_load_fail(shm, -EINTR, "worker %d was killed by signal %d (%s)",
				     (int)pid, WTERMSIG(st), strsignal(WTERMSIG(st)));
		kill(0, SIGKILL);
	}
}

void
al__load_supervisor_main(const struct al_load_item *item, const struct al_load_opts *o,
		struct al_load_shm *shm, int ready_fd, pid_t controller)
{
	const struct al_load_ops *ops = item->ops;
	struct al_load_ctx ctx = {
		.opts = o, .arg = item->arg, .shm = shm,
	};
	struct sigaction sa = { .sa_handler = die_with_group };
	pid_t self, *workers;
	int i, n, st;

	setpgid(0, 0);
	reset_signals();
	sigemptyset(&sa.sa_mask);
	sigaction(SIGTERM, &sa, NULL);
	sigaction(SIGINT, &sa, NULL);
	sigaction(SIGHUP, &sa, NULL);
	prctl(PR_SET_PDEATHSIG, SIGTERM, 0, 0, 0);
	if (getppid() != controller)
		die_with_group(0);
	prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0);
	al__load_set_comm(ops->name);
	self = getpid();

	supervisor_fds(ready_fd);
	if (apply_sched(o, shm))
		goto fail_ready;
	n = al_load_workers(ops, o);
	ctx.n_workers = n;
	if (ops->setup && ops->setup(&ctx)) {
		if (!atomic_load(&shm->error_set))
			al_load_fail(shm, -EIO, "setup failed");
		goto fail_ready;
	}
	workers = calloc((size_t)n, sizeof(*workers));
	if (!workers) {
		al_load_fail(shm, -ENOMEM, "out of memory");
		goto fail_ready;
	}
	for (i = 0; i < n; i++) {
		workers[i] = fork();
		if (workers[i] < 0) {
			al_load_fail(shm, -errno, "fork: %s", strerror(errno));
			goto fail_ready;
		}
		if (workers[i] == 0) {
			prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
			if (getppid() != self)
				_exit(1);
			reset_signals();
			close(AL_LOAD_READY_FD);
			ctx.index = i;
			_exit(ops->worker(&ctx) ? 1 : 0);
		}
	}
	/*
	 * The workers have the load's scheduling; the supervisor itself goes
	 * back to SCHED_OTHER on every CPU, so that a real-time load that
	 * never yields its CPU cannot starve the one process that must kill it.
	 */
	leave_load_sched();
	/* a worker may have failed already: FAILED stays */
	st = AL_LOAD_STARTING;
	atomic_compare_exchange_strong(&shm->state, &st, AL_LOAD_RUNNING);
	ready(AL_LOAD_READY_FD, 'r');

	reap_workers(shm, workers, n);
	st = AL_LOAD_RUNNING;
	atomic_compare_exchange_strong(&shm->state, &st, AL_LOAD_DONE);
	kill(0, SIGKILL); /* leftovers of the group, and us */
	_exit(0);

fail_ready:
	ready(AL_LOAD_READY_FD, 'e');
	kill(0, SIGKILL);
	_exit(1);
}
