/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * rt-migrate, re-implemented from the description of rt-tests'
 * rt-migrate-test: N SCHED_FIFO threads (--workers, default one more than
 * the load CPUs) at staggered priorities (--rt-prio for the lowest, one
 * more for each next) wake together at start + k x period
 * (clock_nanosleep TIMER_ABSTIME on CLOCK_MONOTONIC), busy-run for the
 * run time and sleep again. More runnable real-time threads than CPUs at
 * every period: the scheduler pushes and pulls them across the CPUs
 * (migrations, IPIs, run-queue locks), in bursts.
 *
 * A run is wall-clock time from the thread's wake-up (time it is
 * preempted counts) and never goes past the start of its next period, so
 * each thread takes at most run/period of a CPU and the check keeps
 * threads x run below CPUs x period: the CPUs always have time left for
 * other tasks (the supervisor among them), whether RT throttling is on or
 * off. A thread that wakes after one or more of its next periods began
 * counts them as missed and runs in the current one.
 *
 * The load's one worker process runs the threads: --load-policy and
 * --load-nice apply to it (it only waits), never to the threads, which are
 * created SCHED_FIFO at their own priorities (or the load fails).
 *
 * Counters: 0 thread-periods run, 1 CPU changes seen, 2 periods missed,
 * 3 priority inversions, 4 the highest thread's worst wake latency (ns).
 */
#define AL_LOAD_PRIVATE
#include <errno.h>
#include <limits.h>
#include <pthread.h>
#include <sched.h>
#include <semaphore.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "core/clock.h"
#include "load-private.h"

#define THREAD_STACK_BYTES (64 * 1024)
#define START_DELAY_NS (10 * AL_NS_PER_MS)   /* the first wake-up, after the threads start */
#define INVERSION_MAX_TOL_NS AL_NS_PER_MS    /* start skew ignored: min(run, 1 ms) */
#define PRIO_MAX 99

enum { C_PERIODS, C_MIGRATIONS, C_MISSED, C_INVERSIONS, C_TOP_WAKE_MAX };

#define NO_PERMISSION_HINT " (needs root, CAP_SYS_NICE or an rtprio limit)"

struct rtm;

struct rtm_thread {
	struct rtm *m;
	int index;                   /* 0: the lowest priority */
	int prio;
	pthread_t thread;
	int result;                  /* 0 or -errno, when it ended */
};

struct rtm {
	struct al_load_shm *shm;
	int n;
	int64_t period_ns, run_ns, tol_ns;
	int64_t start_ns;            /* the first period, set before the barrier opens */
	pthread_barrier_t barrier;   /* the threads and the runner */
	sem_t ended;                 /* posted by a thread that ends (fails) */
	/* per thread, its last start: the period (high 32 bits), the wake latency in ns (low 32) */
	_Atomic uint64_t *started;
	struct rtm_thread *t;
};

static int
rtm_threads(const struct al_load_opts *o)
{
	return o->workers > 0 ? o->workers : al__load_ncpus(o) + 1;
}

static int64_t
rtm_run_ns(const struct al_load_opts *o)
{
	return o->rt_run_ns > 0 ? o->rt_run_ns : o->rt_period_ns * o->rt_run_pct / 100;
}

/* "20ms", "1500us": the exact time in its largest whole unit, as the options take it. */
static void
format_time(int64_t t_ns, char *buf, size_t size)
{
	if (t_ns % AL_NS_PER_SEC == 0)
		snprintf(buf, size, "%llds", (long long)(t_ns / AL_NS_PER_SEC));
	else if (t_ns % AL_NS_PER_MS == 0)
		snprintf(buf, size, "%lldms", (long long)(t_ns / AL_NS_PER_MS));
	else if (t_ns % AL_NS_PER_US == 0)
		snprintf(buf, size, "%lldus", (long long)(t_ns / AL_NS_PER_US));
	else
		snprintf(buf, size, "%lldns", (long long)t_ns);
}

static int
rtm_check(const struct al_load_opts *o, char *err, size_t err_size)
{
	int n = rtm_threads(o), cpus = al__load_ncpus(o);
	int64_t run_ns = rtm_run_ns(o);
	char run[32], period[32];

	format_time(run_ns, run, sizeof(run));
	format_time(o->rt_period_ns, period, sizeof(period));
	if (run_ns >= o->rt_period_ns) {
		snprintf(err, err_size, "--rt-run: %s is not shorter than --rt-period %s", run,
			 period);
		return -EINVAL;
	}
	if (o->rt_prio + n - 1 > PRIO_MAX) {
		snprintf(err, err_size,
			 "--rt-prio: %d threads from priority %d go past %d (lower --rt-prio or --workers)",
			 n, o->rt_prio, PRIO_MAX);
		return -EINVAL;
	}
	if ((int64_t)n * run_ns >= (int64_t)cpus * o->rt_period_ns) {
		snprintf(err, err_size,
			 "--rt-run: %d threads x %s every %s leave the %d load CPU%s no time for other tasks (lower --rt-run or --workers)",
			 n, run, period, cpus, cpus == 1 ? "" : "s");
		return -EINVAL;
	}
	return 0;
}

/*
 * In the supervisor: may this process run SCHED_FIFO at the highest
 * priority the threads need? Tried on itself and undone, so that a
 * missing permission fails the start with one line (the threads would
 * otherwise fail only once they run).
 */
static int
rtm_setup(struct al_load_ctx *c)
{
	const struct al_load_opts *o = c->opts;
	int top = o->rt_prio + rtm_threads(o) - 1, policy, r;
	struct sched_param sp = { .sched_priority = top }, old;

	policy = sched_getscheduler(0);
	if (policy < 0 || sched_getparam(0, &old))
		return al_load_fail(c->shm, -errno, "sched_getscheduler: %s", strerror(errno));
	if (sched_setscheduler(0, SCHED_FIFO, &sp)) {
		r = errno;
		return al_load_fail(c->shm, -r, "SCHED_FIFO priority %d: %s%s", top, strerror(r),
				    r == EPERM ? NO_PERMISSION_HINT : "");
	}
	/* back to the --load-policy the worker inherits */
	if (sched_setscheduler(0, policy, &old))
		return al_load_fail(c->shm, -errno, "--load-policy: cannot set it back: %s",
				    strerror(errno));
	return 0;
}

/* Count a CPU change since the last look. */
static inline void
note_cpu(struct al_load_shm *shm, int *last_cpu)
{
	int cpu = sched_getcpu();

	if (cpu < 0)
		return;
	if (*last_cpu >= 0 && cpu != *last_cpu)
		al__load_add(shm, C_MIGRATIONS, 1);
	*last_cpu = cpu;
}

/*
 * Did a lower-priority thread start in this period more than tol_ns
 * before this one (which was asleep, runnable from the period's start)?
 */
static bool
started_after_lower(const struct rtm *m, int index, uint32_t period, int64_t late_ns)
{
	uint64_t v;
	int j;

	for (j = 0; j < index; j++) {
		v = atomic_load_explicit(&m->started[j], memory_order_relaxed);
		if ((uint32_t)(v >> 32) == period && late_ns - (int64_t)(uint32_t)v > m->tol_ns)
			return true;
	}
	return false;
}

static int
thread_loop(struct rtm_thread *t)
{
	const struct rtm *m = t->m;
	struct al_load_shm *shm = m->shm;
	bool top = t->index == m->n - 1;
	int64_t k = 0, due_ns, now_ns, late_ns, end_ns, missed, prev_end_ns = 0;
	struct sched_param sp;
	struct timespec ts;
	int last_cpu = -1, policy, r;

	/* created SCHED_FIFO: never run as anything else */
	r = pthread_getschedparam(pthread_self(), &policy, &sp);
	if (r)
		return al_load_fail(shm, -r, "pthread_getschedparam: %s", strerror(r));
	if (policy != SCHED_FIFO || sp.sched_priority != t->prio)
		return al_load_fail(shm, -EPERM,
				    "thread %d runs with policy %d priority %d, not SCHED_FIFO %d",
				    t->index, policy, sp.sched_priority, t->prio);
	for (;;) {
		due_ns = m->start_ns + k * m->period_ns;
		ts = al_ns_to_timespec(due_ns);
		r = clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		if (r == EINTR)
			continue;
		if (r)
			return al_load_fail(shm, -r, "clock_nanosleep: %s", strerror(r));
		now_ns = al_clock_now_ns();
		if (k == 0)
			al__load_work_started(shm);
		late_ns = now_ns > due_ns ? now_ns - due_ns : 0;
		if (top)
			al__load_max(shm, C_TOP_WAKE_MAX, (uint64_t)late_ns);
		/* later periods began before this one's wake-up: missed, run in the current one */
		missed = late_ns / m->period_ns;
		if (missed) {
			al__load_add(shm, C_MISSED, (uint64_t)missed);
			k += missed;
			due_ns += missed * m->period_ns;
			late_ns -= missed * m->period_ns;
		} else if (prev_end_ns < due_ns &&
			   started_after_lower(m, t->index, (uint32_t)k, late_ns)) {
			al__load_add(shm, C_INVERSIONS, 1);
		}
		atomic_store_explicit(&m->started[t->index],
				      (uint64_t)(uint32_t)k << 32 | (uint32_t)late_ns,
				      memory_order_relaxed);
		al__load_add(shm, C_PERIODS, 1);
		note_cpu(shm, &last_cpu);
		/* busy: run_ns from the wake-up, never into the next period */
		end_ns = now_ns + m->run_ns;
		if (end_ns > due_ns + m->period_ns)
			end_ns = due_ns + m->period_ns;
		while (now_ns < end_ns) {
			note_cpu(shm, &last_cpu);
			now_ns = al_clock_now_ns();
		}
		prev_end_ns = now_ns;
		k++;
	}
	return 0;
}

static void *
thread_main(void *arg)
{
	struct rtm_thread *t = arg;

	pthread_barrier_wait(&t->m->barrier);
	t->result = thread_loop(t);
	sem_post(&t->m->ended);
	return NULL;
}

static int
start_thread(struct rtm *m, struct rtm_thread *t)
{
	struct sched_param sp = { .sched_priority = t->prio };
	pthread_attr_t attr;
	int r;

	r = pthread_attr_init(&attr);
	if (r)
		return al_load_fail(m->shm, -r, "pthread_attr_init: %s", strerror(r));
	pthread_attr_setstacksize(&attr, THREAD_STACK_BYTES > PTHREAD_STACK_MIN
						 ? THREAD_STACK_BYTES
						 : PTHREAD_STACK_MIN);
	r = pthread_attr_setinheritsched(&attr, PTHREAD_EXPLICIT_SCHED);
	if (!r)
		r = pthread_attr_setschedpolicy(&attr, SCHED_FIFO);
	if (!r)
		r = pthread_attr_setschedparam(&attr, &sp);
	if (!r)
		r = pthread_create(&t->thread, &attr, thread_main, t);
	pthread_attr_destroy(&attr);
	if (r)
		return al_load_fail(m->shm, -r, "SCHED_FIFO thread at priority %d: %s%s", t->prio,
				    strerror(r), r == EPERM ? NO_PERMISSION_HINT : "");
	return 0;
}

/*
 * The one worker: starts the threads, then waits until one of them fails.
 * Nothing is freed: the threads use it until the process exits.
 */
static int
rtm_worker(struct al_load_ctx *c)
{
	const struct al_load_opts *o = c->opts;
	struct rtm *m = calloc(1, sizeof(*m));
	int i, r;

	al__load_set_comm("rt-migrate");
	if (!m)
		return al_load_fail(c->shm, -ENOMEM, "out of memory");
	m->shm = c->shm;
	m->n = rtm_threads(o);
	m->period_ns = o->rt_period_ns;
	m->run_ns = rtm_run_ns(o);
	m->tol_ns = m->run_ns < INVERSION_MAX_TOL_NS ? m->run_ns : INVERSION_MAX_TOL_NS;
	m->t = calloc((size_t)m->n, sizeof(*m->t));
	m->started = calloc((size_t)m->n, sizeof(*m->started));
	if (!m->t || !m->started)
		return al_load_fail(c->shm, -ENOMEM, "out of memory");
	for (i = 0; i < m->n; i++)
		atomic_init(&m->started[i], UINT64_MAX); /* no period yet */
	r = pthread_barrier_init(&m->barrier, NULL, (unsigned int)m->n + 1);
	if (r)
		return al_load_fail(c->shm, -r, "pthread_barrier_init: %s", strerror(r));
	if (sem_init(&m->ended, 0, 0))
		return al_load_fail(c->shm, -errno, "sem_init: %s", strerror(errno));
	for (i = 0; i < m->n; i++) {
		m->t[i] = (struct rtm_thread){ .m = m, .index = i, .prio = o->rt_prio + i };
		r = start_thread(m, &m->t[i]);
		if (r)
			return r; /* the threads started so far die with this process */
	}
	m->start_ns = al_clock_now_ns() + START_DELAY_NS;
	pthread_barrier_wait(&m->barrier);
	while (sem_wait(&m->ended) && errno == EINTR)
		;
	for (i = 0; i < m->n; i++)
		if (m->t[i].result)
			return m->t[i].result;
	return al_load_fail(c->shm, -EIO, "a thread ended");
}

static void
rtm_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	int n = rtm_threads(o);

	(void)arg;
	snprintf(buf, size, "threads=%d prio=fifo:%d..%d period_ns=%lld run_ns=%lld", n, o->rt_prio,
		 o->rt_prio + n - 1, (long long)o->rt_period_ns, (long long)rtm_run_ns(o));
}

static int
rtm_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	if (max < 5)
		return 0;
	al__load_metric(&m[0], "periods_per_s", al__load_per_s(shm, C_PERIODS, work_ns), "1/s");
	al__load_metric(&m[1], "migrations", (double)al__load_get(shm, C_MIGRATIONS), "");
	al__load_metric(&m[2], "missed_periods", (double)al__load_get(shm, C_MISSED), "");
	al__load_metric(&m[3], "prio_inversions", (double)al__load_get(shm, C_INVERSIONS), "");
	al__load_metric(&m[4], "top_wake_max_ns", (double)al__load_get(shm, C_TOP_WAKE_MAX), "ns");
	return 5;
}

const struct al_load_ops al_load_rt_migrate = {
	.name = "rt-migrate",
	.summary = "CPUs+1 SCHED_FIFO threads at staggered priorities wake together and run (rt-migrate-test)",
	.option_names = "workers rt-period rt-run rt-prio",
	.metric_names = "periods_per_s migrations missed_periods prio_inversions top_wake_max_ns",
	.check = rtm_check,
	.setup = rtm_setup,
	.worker = rtm_worker,
	.describe = rtm_describe,
	.metrics = rtm_metrics,
};
