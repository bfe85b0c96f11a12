/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Starting, watching and killing loads: one supervisor process per load,
 * leader of its own process group, with the workers as its children.
 *
 * controller (audiolat) --fork--> supervisor "al-NAME" (pgid = its pid)
 *                                   SIGTERM (also PDEATHSIG) -> kills every
 *                                   descendant (also those that left the
 *                                   group), then its group
 *                                   child subreaper (orphans stay ours)
 *                                   --fork--> workers "al-NAME" (PDEATHSIG SIGKILL)
 *                                               (hackbench: --fork--> senders, receivers)
 */
#define AL_LOAD_PRIVATE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "load-private.h"

#define RUNNING_MAX 64           /* loads running at once, over all sets */
#define READY_TIMEOUT_MS 10000
#define READY_FD 3
#define STOP_GRACE_NS (2 * AL_NS_PER_SEC) /* a supervisor's sweep, then SIGKILL */

struct al_load_run {
	struct al_load_item item;
	pid_t pid;                   /* the supervisor = the process group */
	struct al_load_shm *shm;
	bool reaped;
	int status;
	int slot;                    /* in running_pgid[] */
};

struct al_load_set {
	int n;
	struct al_load_run runs[AL_LOAD_PHASE_LOADS];
	struct al_load_opts opts;
	struct al_phase_spec spec;
	int64_t start_ns;
	bool stopping;
};

/* Process groups of the running loads, for al_load_kill_all() (signal context). */
static volatile sig_atomic_t running_pgid[RUNNING_MAX];
static volatile sig_atomic_t killed_all;

void
al_load_kill_all(void)
{
	int i, saved = errno;

	killed_all = 1;
	for (i = 0; i < RUNNING_MAX; i++) {
		pid_t pg = running_pgid[i];

		/* the supervisor (the group's leader) kills its descendants and group */
		if (pg > 0)
			kill(pg, SIGTERM);
	}
	errno = saved;
}

static int
register_pgid(pid_t pg)
{
	int i;

	for (i = 0; i < RUNNING_MAX; i++) {
		if (!running_pgid[i]) {
			running_pgid[i] = pg;
			return i;
		}
	}
	return -1;
}

static void
unregister_slot(int slot)
{
	if (slot >= 0)
		running_pgid[slot] = 0;
}

/* ---- in the supervisor and the workers ---- */

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

static __attribute__((noreturn)) void
supervisor_main(const struct al_load_item *item, const struct al_load_opts *o,
		struct al_load_shm *shm, int ready_fd, pid_t controller)
{
	const struct al_load_ops *ops = item->ops;
	struct al_load_ctx ctx = {
		.opts = o, .arg = item->arg, .shm = shm,
	};
	struct sigaction sa = { .sa_handler = die_with_group };
	pid_t self, *workers;
	int i, n, alive, st, fd;

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

	/* fds: 0 and 1 from /dev/null, 2 kept, the ready pipe at 3, nothing else */
	if (ready_fd != READY_FD) {
		dup2(ready_fd, READY_FD);
		close(ready_fd);
	}
	close_fds_from(READY_FD + 1);
	fd = open("/dev/null", O_RDWR);
	if (fd >= 0) {
		dup2(fd, 0);
		dup2(fd, 1);
		if (fd > 2 && fd != READY_FD)
			close(fd);
	}

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
			close(READY_FD);
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
	ready(READY_FD, 'r');

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
	st = AL_LOAD_RUNNING;
	atomic_compare_exchange_strong(&shm->state, &st, AL_LOAD_DONE);
	kill(0, SIGKILL); /* leftovers of the group, and us */
	_exit(0);

fail_ready:
	ready(READY_FD, 'e');
	kill(0, SIGKILL);
	_exit(1);
}

/* ---- in the controller ---- */

/*
 * Stop a load: SIGTERM to its supervisor, which kills every descendant
 * (those that left the group too) and then its group; after
 * STOP_GRACE_NS, or when the supervisor cannot run, SIGKILL to the group.
 */
static void
run_kill_reap(struct al_load_run *run)
{
	int64_t deadline_ns;
	pid_t r;

	if (run->pid <= 0)
		return;
	if (!run->reaped) {
		kill(run->pid, SIGTERM);
		deadline_ns = al_clock_now_ns() + STOP_GRACE_NS;
		do {
			r = waitpid(run->pid, &run->status, WNOHANG);
			if (r == run->pid)
				break;
			al_clock_sleep_until_ns(al_clock_now_ns() + 2 * AL_NS_PER_MS);
		} while ((r == 0 || (r < 0 && errno == EINTR)) && al_clock_now_ns() < deadline_ns);
		kill(-run->pid, SIGKILL);
		if (r != run->pid)
			while (waitpid(run->pid, &run->status, 0) < 0 && errno == EINTR)
				;
		run->reaped = true;
	}
	unregister_slot(run->slot);
	run->slot = -1;
}

static void
run_free(struct al_load_run *run)
{
	run_kill_reap(run);
	if (run->shm)
		munmap(run->shm, sizeof(*run->shm));
	run->shm = NULL;
}

/*
 * Why a reaped supervisor is a failure, in err; 0 when it is none:
 * finished on its own, or killed by us.
 */
static int
run_error(const struct al_load_run *run, bool stopping, char *err, size_t err_size)
{
	const char *name = run->item.ops->name;
	int state = atomic_load(&run->shm->state);

	/* FAILED is stored after the text: a text in the making is not read */
	if (state == AL_LOAD_FAILED) {
		snprintf(err, err_size, "%s: %s", name, run->shm->error);
		return -EIO;
	}
	if (state == AL_LOAD_DONE)
		return 0;
	if (!run->reaped || stopping || killed_all)
		return 0;
	if (WIFSIGNALED(run->status))
		snprintf(err, err_size, "%s: killed by signal %d (%s)", name,
			 WTERMSIG(run->status), strsignal(WTERMSIG(run->status)));
	else
		snprintf(err, err_size, "%s: ended early with status %d", name,
			 WEXITSTATUS(run->status));
	return -EIO;
}

static void
run_check(struct al_load_run *run)
{
	pid_t r;

	if (run->reaped || run->pid <= 0)
		return;
	do
		r = waitpid(run->pid, &run->status, WNOHANG);
	while (r < 0 && errno == EINTR);
	if (r == run->pid) {
		run->reaped = true;
		unregister_slot(run->slot);
		run->slot = -1;
	}
}

static int
wait_ready(int fd, int64_t deadline_ns)
{
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char c;
	ssize_t n;
	int r;

	for (;;) {
		int64_t left_ms = (deadline_ns - al_clock_now_ns()) / AL_NS_PER_MS;

		if (left_ms <= 0)
			return -ETIMEDOUT;
		r = poll(&pfd, 1, (int)left_ms);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			continue;
		n = read(fd, &c, 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n == 1)
			return c == 'r' ? 0 : -EIO;
		return -EPIPE;
	}
}

int
al_load_phase_start(const struct al_phase_spec *ph, const struct al_load_opts *o,
		    struct al_load_set **out, char *err, size_t err_size)
{
	int ready_fds[AL_LOAD_PHASE_LOADS], pfd[2], i, r = 0;
	struct al_load_set *s;
	pid_t controller = getpid();
	int64_t deadline_ns;

	if (err_size)
		err[0] = 0;
	*out = NULL;
	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, err_size, "loads: out of memory");
		return -ENOMEM;
	}
	s->opts = *o;
	s->spec = *ph;
	/*
	 * sizes from memory and the CPU count (the supervisors undo a pinning
	 * of ours) are fixed once, so the description is exact
	 */
	s->opts.file_size_bytes = al_load_file_size_bytes(o);
	s->opts.mem_bytes = al__load_mem_bytes(o);
	s->opts.ncpus = al__load_ncpus(o);
	for (i = 0; i < AL_LOAD_PHASE_LOADS; i++) {
		ready_fds[i] = -1;
		s->runs[i].slot = -1;
	}
	killed_all = 0;
	s->start_ns = al_clock_now_ns();

	for (i = 0; i < ph->n_loads; i++) {
		struct al_load_run *run = &s->runs[s->n];
		pid_t pid;

		if (al_load_workers(ph->loads[i].ops, o) <= 0)
			continue;
		run->item = ph->loads[i];
		run->shm = mmap(NULL, sizeof(*run->shm), PROT_READ | PROT_WRITE,
				MAP_SHARED | MAP_ANONYMOUS, -1, 0);
		if (run->shm == MAP_FAILED) {
			run->shm = NULL;
			r = -errno;
			snprintf(err, err_size, "%s: mmap: %s", run->item.ops->name, strerror(-r));
			goto fail;
		}
		memset(run->shm, 0, sizeof(*run->shm));
		if (pipe2(pfd, O_CLOEXEC)) {
			r = -errno;
			snprintf(err, err_size, "%s: pipe: %s", run->item.ops->name, strerror(-r));
			goto fail;
		}
		pid = fork();
		if (pid < 0) {
			r = -errno;
			close(pfd[0]);
			close(pfd[1]);
			snprintf(err, err_size, "%s: fork: %s", run->item.ops->name, strerror(-r));
			goto fail;
		}
		if (pid == 0) {
			close(pfd[0]);
			supervisor_main(&run->item, &s->opts, run->shm, pfd[1], controller);
		}
		s->n++;
		setpgid(pid, pid); /* also done by the child; whichever runs first */
		run->pid = pid;
		run->slot = register_pgid(pid);
		close(pfd[1]);
		ready_fds[s->n - 1] = pfd[0];
		if (run->slot < 0) {
			r = -EMFILE;
			snprintf(err, err_size, "%s: more than %d loads running", run->item.ops->name,
				 RUNNING_MAX);
			goto fail;
		}
	}

	deadline_ns = al_clock_now_ns() + READY_TIMEOUT_MS * AL_NS_PER_MS;
	for (i = 0; i < s->n; i++) {
		struct al_load_run *run = &s->runs[i];

		r = wait_ready(ready_fds[i], deadline_ns);
		close(ready_fds[i]);
		ready_fds[i] = -1;
		/* a setup failure; later ones (a worker's) are for poll and stop */
		if (r == -EIO && atomic_load(&run->shm->state) == AL_LOAD_FAILED) {
			snprintf(err, err_size, "%s: %s", run->item.ops->name, run->shm->error);
			r = atomic_load(&run->shm->error_code);
			if (r >= 0)
				r = -EIO;
			goto fail;
		}
		if (r) {
			run_check(run);
			if (run->reaped && run_error(run, false, err, err_size))
				;
			else
				snprintf(err, err_size, "%s: the load did not start: %s",
					 run->item.ops->name, strerror(-r));
			goto fail;
		}
	}
	*out = s;
	return 0;

fail:
	for (i = 0; i < AL_LOAD_PHASE_LOADS; i++) {
		if (ready_fds[i] >= 0)
			close(ready_fds[i]);
		run_free(&s->runs[i]);
	}
	free(s);
	return r ? r : -EIO;
}

int
al_load_phase_poll(struct al_load_set *s, char *err, size_t err_size)
{
	int i, done = 0, r = 0;

	if (err_size)
		err[0] = 0;
	if (!s)
		return 0;
	for (i = 0; i < s->n; i++) {
		struct al_load_run *run = &s->runs[i];

		run_check(run);
		if (!r && run_error(run, s->stopping, err, err_size))
			r = -EIO;
		if (run->reaped && atomic_load(&run->shm->state) == AL_LOAD_DONE)
			done++;
	}
	if (r)
		return r;
	return s->n > 0 && done == s->n ? 1 : 0;
}

int64_t
al_load_phase_elapsed_ns(const struct al_load_set *s)
{
	return s ? al_clock_now_ns() - s->start_ns : 0;
}

int
al_load_phase_stop(struct al_load_set *s, struct al_phase *ph)
{
	char e[AL_WARN_LEN];
	struct al_metric m[AL_PHASE_METRICS];
	int64_t stop_ns, work_start_ns, work_ns;
	bool failed[AL_LOAD_PHASE_LOADS] = { false };
	int i, j, k, r = 0;

	if (!s)
		return 0;
	/* failures before the stop count; our own kill does not */
	ph->error[0] = 0;
	for (i = 0; i < s->n; i++) {
		run_check(&s->runs[i]);
		failed[i] = run_error(&s->runs[i], false, e, sizeof(e)) != 0;
		if (failed[i])
			{
			if (*ph->error)
				al__append(ph->error, sizeof(ph->error), "; ");
			al__append(ph->error, sizeof(ph->error), e);
		}
	}
	stop_ns = al_clock_now_ns();
	s->stopping = true;
	/* every supervisor sweeps its descendants at once; run_kill_reap() waits */
	for (i = 0; i < s->n; i++)
		if (!s->runs[i].reaped)
			kill(s->runs[i].pid, SIGTERM);
	for (i = 0; i < s->n; i++) {
		run_kill_reap(&s->runs[i]);
		if (!failed[i] && atomic_load(&s->runs[i].shm->state) == AL_LOAD_FAILED) {
			failed[i] = true;
			run_error(&s->runs[i], true, e, sizeof(e));
			{
			if (*ph->error)
				al__append(ph->error, sizeof(ph->error), "; ");
			al__append(ph->error, sizeof(ph->error), e);
		}
		}
		if (failed[i])
			r = -EIO;
	}

	ph->n_throughput = 0;
	al_load_phase_describe(&s->spec, &s->opts, ph->load, sizeof(ph->load));

	for (i = 0; i < s->n; i++) {
		struct al_load_run *run = &s->runs[i];
		const struct al_load_ops *ops = run->item.ops;

		/* the time since the load's measured work began (0: it never did) */
		work_start_ns = atomic_load(&run->shm->work_start_ns);
		work_ns = work_start_ns && stop_ns > work_start_ns ? stop_ns - work_start_ns : 0;
		k = ops->metrics ? ops->metrics(run->shm, work_ns, m, AL_PHASE_METRICS) : 0;
		for (j = 0; j < k && ph->n_throughput < AL_PHASE_METRICS; j++) {
			struct al_metric *dst = &ph->throughput[ph->n_throughput++];

			*dst = m[j];
			if (s->n > 1) {
				/* several loads: "hackbench.messages_per_s" */
				dst->name[0] = 0;
				al__append(dst->name, sizeof(dst->name), ops->name);
				al__append(dst->name, sizeof(dst->name), ".");
				al__append(dst->name, sizeof(dst->name), m[j].name);
			}
		}
	}
	for (i = 0; i < s->n; i++)
		run_free(&s->runs[i]);
	free(s);
	return r;
}
