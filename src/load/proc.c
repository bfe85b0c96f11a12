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

/*
 * Each started load's word on its ready pipe (ready_fds[i], closed here),
 * all within READY_TIMEOUT_MS: 0, or -errno with the first one's failure
 * in err.
 */
static int
wait_all_ready(struct al_load_set *s, int *ready_fds, char *err, size_t err_size)
{
	int64_t deadline_ns = al_clock_now_ns() + READY_TIMEOUT_MS * AL_NS_PER_MS;
	int i, r;

	for (i = 0; i < s->n; i++) {
		struct al_load_run *run = &s->runs[i];

		r = wait_ready(ready_fds[i], deadline_ns);
		close(ready_fds[i]);
		ready_fds[i] = -1;
		/* a setup failure; later ones (a worker's) are for poll and stop */
		if (r == -EIO && atomic_load(&run->shm->state) == AL_LOAD_FAILED) {
			snprintf(err, err_size, "%s: %s", run->item.ops->name, run->shm->error);
			r = atomic_load(&run->shm->error_code);
			return r >= 0 ? -EIO : r;
		}
		if (r) {
			run_check(run);
			if (!run->reaped || !run_error(run, false, err, err_size))
				snprintf(err, err_size, "%s: the load did not start: %s",
					 run->item.ops->name, strerror(-r));
			return r;
		}
	}
	return 0;
}

int
al_load_phase_start(const struct al_phase_spec *ph, const struct al_load_opts *o,
		    struct al_load_set **out, char *err, size_t err_size)
{
	int ready_fds[AL_LOAD_PHASE_LOADS], pfd[2], i, r = 0;
	struct al_load_set *s;
	pid_t controller = getpid();

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
			al__load_supervisor_main(&run->item, &s->opts, run->shm, pfd[1], controller);
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

	r = wait_all_ready(s, ready_fds, err, err_size);
	if (r)
		goto fail;
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
