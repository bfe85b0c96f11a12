/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The unprivileged evidence behind a cause, sampled beside the run (why-sampler.h). */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "core/clock.h"
#include "why-sampler.h"

#define IRQ_BUF (256 * 1024)
#define SAMPLE_MAX_NS (50 * AL_NS_PER_MS) /* the longest interval slow_down() makes */
/* the side thread's stack: take() and drain() keep their buffers in x */
#define WHY_STACK_BYTES (256 * 1024)
#define BASE_SAMPLES 512 /* the recent samples whose median rate is the expected one */

int
al_why_run_init(struct al_why_run *x, struct al_result *r, int64_t period_ns,
		int64_t threshold_ns)
{
	memset(x, 0, sizeof(*x));
	al_spsc_init(&x->idx);
	x->fd_schedstat = x->fd_stat = x->fd_status = x->fd_pstat = x->fd_irq = x->fd_softirq = -1;
	x->period_ns = period_ns;
	x->work_avg_ns = -1;
	x->xrun_event = -1;
	x->threshold_ns = threshold_ns > 0 ? threshold_ns : period_ns;
	x->sample_ns = AL_WHY_SAMPLE_NS_DEFAULT;
	x->samples = calloc(AL_WHY_SAMPLES, sizeof(*x->samples));
	x->buf_size = IRQ_BUF;
	x->buf = malloc(x->buf_size);
	r->why = calloc(1, sizeof(*r->why));
	if (!x->samples || !x->buf || !r->why) {
		free(r->why);
		r->why = NULL;
		al_why_run_free(x);
		return -ENOMEM;
	}
	r->why->threshold_ns = x->threshold_ns;
	r->why->sample_ns = x->sample_ns;
	x->w = r->why;
	return 0;
}

/* Read fd from its start into buf (NUL-terminated); its length or -1. */
static ssize_t
read_at0(int fd, char *buf, size_t size)
{
	ssize_t n;

	if (fd < 0)
		return -1;
	n = pread(fd, buf, size - 1, 0);
	if (n < 0)
		return -1;
	buf[n] = '\0';
	return n;
}

/* The number after "key:" in a /proc status text, or -1. */
static int64_t
status_field(const char *text, const char *key)
{
	const char *p = strstr(text, key);

	return p ? strtoll(p + strlen(key), NULL, 10) : -1;
}

/* Column cpu (0-based) of every row of /proc/interrupts or /proc/softirqs, summed; -1. */
static int64_t
column_sum(char *text, int cpu)
{
	int64_t sum = 0;
	char *line, *save = NULL, *end;
	bool first = true;

	for (line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		char *p = strchr(line, ':');
		long long v = 0;
		int col;

		if (first) { /* the header: "CPU0 CPU1 ..." */
			first = false;
			continue;
		}
		if (!p)
			continue;
		p++;
		for (col = 0; col <= cpu; col++) {
			v = strtoll(p, &end, 10);
			if (end == p)
				break;
			p = end;
		}
		if (col > cpu)
			sum += v;
	}
	return sum;
}

/* The thread's schedstat, stat and status; the CPU's /proc/stat line, interrupts, softirqs. */
static void
sample(struct al_why_run *x, struct al_why_sample *s)
{
	char text[4096], key[16];
	long long a, b;
	char *p;

	memset(s, 0, sizeof(*s));
	s->run_ns = s->wait_ns = s->vcsw = s->ivcsw = s->minflt = s->majflt = -1;
	s->steal_ticks = s->irq_ticks = s->irqs = s->softirqs = -1;
	s->cpu = s->policy = -1;
	s->t_ns = al_clock_now_ns();
	if (read_at0(x->fd_schedstat, text, sizeof(text)) > 0 &&
	    sscanf(text, "%lld %lld", &a, &b) == 2)
		s->run_ns = a, s->wait_ns = b;
	if (read_at0(x->fd_stat, text, sizeof(text)) > 0 && (p = strrchr(text, ')'))) {
		/* after "comm)": state(3) ... minflt(10) majflt(12) ... processor(39) rt_priority(40) policy(41) */
		char state = '?';
		long long f[42] = { 0 };
		int i = 4;
		char *q = p + 2, *end;

		state = *q;
		q++;
		for (; i < 42; i++) {
			f[i] = strtoll(q, &end, 10);
			if (end == q)
				break;
			q = end;
		}
		if (i == 42) {
			s->stopped = state == 'T' || state == 't';
			s->minflt = f[10];
			s->majflt = f[12];
			s->cpu = (int)f[39];
			s->priority = (int)f[40];
			s->policy = (int)f[41];
		}
	}
	if (read_at0(x->fd_status, text, sizeof(text)) > 0) {
		s->vcsw = status_field(text, "\nvoluntary_ctxt_switches:");
		s->ivcsw = status_field(text, "\nnonvoluntary_ctxt_switches:");
	}
	if (s->cpu >= 0 && read_at0(x->fd_pstat, x->buf, x->buf_size) > 0) {
		long long v[8];

		snprintf(key, sizeof(key), "\ncpu%d ", s->cpu);
		p = strstr(x->buf, key);
		if (p && sscanf(p + strlen(key), "%lld %lld %lld %lld %lld %lld %lld %lld", &v[0],
				&v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) == 8) {
			s->irq_ticks = v[5] + v[6];
			s->steal_ticks = v[7];
		}
	}
	if (s->cpu >= 0 && read_at0(x->fd_irq, x->buf, x->buf_size) > 0)
		s->irqs = column_sum(x->buf, s->cpu);
	if (s->cpu >= 0 && read_at0(x->fd_softirq, x->buf, x->buf_size) > 0)
		s->softirqs = column_sum(x->buf, s->cpu);
}

static int64_t
diff(int64_t a, int64_t b)
{
	return a >= 0 && b >= 0 && b >= a ? b - a : -1;
}

static int
cmp64(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/*
 * The median rate over the recent sample intervals, per second (irqs:
 * which 0, softirqs 1), -1: a rate, not a count per interval, since an
 * interval lasts longer when the sampler was held off the CPU.
 */
static int64_t
median_rate(const struct al_why_run *x, int which)
{
	int64_t d[BASE_SAMPLES];
	uint64_t i, first = x->n_samples > BASE_SAMPLES ? x->n_samples - BASE_SAMPLES : 0;
	int n = 0;

	for (i = first + 1; i < x->n_samples; i++) {
		const struct al_why_sample *a = &x->samples[(i - 1) & (AL_WHY_SAMPLES - 1)];
		const struct al_why_sample *b = &x->samples[i & (AL_WHY_SAMPLES - 1)];
		int64_t v = which ? diff(a->softirqs, b->softirqs) : diff(a->irqs, b->irqs);

		if (v >= 0 && a->cpu == b->cpu && b->t_ns > a->t_ns)
			d[n++] = v * AL_NS_PER_SEC / (b->t_ns - a->t_ns);
	}
	if (!n)
		return -1;
	qsort(d, (size_t)n, sizeof(d[0]), cmp64);
	return d[n / 2];
}

/* Ticks of USER_HZ to ns. */
static int64_t
ticks_ns(const struct al_why_run *x, int64_t ticks)
{
	return ticks < 0 || x->ticks_per_s <= 0 ? -1 : ticks * (AL_NS_PER_SEC / x->ticks_per_s);
}

/* Classify mark m from the samples around [start, end] and keep or count it. */
static void
classify(struct al_why_run *x, const struct al_why_mark *m)
{
	struct al_why *w = x->w;
	struct al_why_event e = { 0 };
	struct al_why_evidence *v = &e.ev;
	/* from the period before: its work, preempted or overrun, is what made this one late */
	int64_t start = m->boundary_ns - x->period_ns, end = m->seen_ns;
	uint64_t i, lo, hi, oldest = x->n_samples > AL_WHY_SAMPLES ? x->n_samples - AL_WHY_SAMPLES : 0;
	const struct al_why_sample *a, *b;
	int64_t rate;

	if (m->xrun_start_ns > 0 && m->xrun_start_ns < start)
		start = m->xrun_start_ns;
	if (m->xrun_start_ns > 0 && m->xrun_start_ns + m->xrun_ns > end)
		end = m->xrun_start_ns + m->xrun_ns;
	lo = oldest;
	hi = x->n_samples - 1;
	for (i = oldest; i < x->n_samples; i++) {
		const struct al_why_sample *s = &x->samples[i & (AL_WHY_SAMPLES - 1)];

		if (s->t_ns <= start)
			lo = i;
		if (s->t_ns >= end) {
			hi = i;
			break;
		}
	}
	a = &x->samples[lo & (AL_WHY_SAMPLES - 1)];
	b = &x->samples[hi & (AL_WHY_SAMPLES - 1)];
	v->window_ns = b->t_ns - a->t_ns;
	v->wait_ns = diff(a->wait_ns, b->wait_ns);
	v->cpu_ns = diff(a->run_ns, b->run_ns);
	v->vcsw = diff(a->vcsw, b->vcsw);
	v->ivcsw = diff(a->ivcsw, b->ivcsw);
	v->minflt = diff(a->minflt, b->minflt);
	v->majflt = diff(a->majflt, b->majflt);
	v->cpu = b->cpu;
	v->policy = b->policy;
	v->priority = b->priority;
	v->steal_ns = v->irq_ns = v->irqs = v->softirqs = -1;
	v->irqs_expected = v->softirqs_expected = -1;
	if (a->cpu == b->cpu) { /* the CPU's lines say nothing when the thread moved */
		v->steal_ns = ticks_ns(x, diff(a->steal_ticks, b->steal_ticks));
		v->irq_ns = ticks_ns(x, diff(a->irq_ticks, b->irq_ticks));
		v->irqs = diff(a->irqs, b->irqs);
		v->softirqs = diff(a->softirqs, b->softirqs);
		if (!x->rates_known) { /* once per batch of marks: the samples have not moved */
			x->rate[0] = median_rate(x, 0);
			x->rate[1] = median_rate(x, 1);
			x->rates_known = true;
		}
		if ((rate = x->rate[0]) >= 0)
			v->irqs_expected = rate * v->window_ns / AL_NS_PER_SEC;
		if ((rate = x->rate[1]) >= 0)
			v->softirqs_expected = rate * v->window_ns / AL_NS_PER_SEC;
	}
	/* the thread's share of its CPU over the second up to the sample after the event */
	v->busy_pct = -1;
	v->rt_limit_pct = x->rt_limit_pct;
	{
		uint64_t k = hi;

		while (k > oldest &&
		       b->t_ns - x->samples[(k - 1) & (AL_WHY_SAMPLES - 1)].t_ns <= AL_NS_PER_SEC)
			k--;
		const struct al_why_sample *o = &x->samples[k & (AL_WHY_SAMPLES - 1)];
		int64_t ran = diff(o->run_ns, b->run_ns);

		if (ran >= 0 && b->t_ns - o->t_ns >= AL_NS_PER_SEC / 2)
			v->busy_pct = (int)(100 * ran / (b->t_ns - o->t_ns));
	}
	for (i = lo; i <= hi && !v->stopped; i++)
		v->stopped = x->samples[i & (AL_WHY_SAMPLES - 1)].stopped;
	e.t_ns = (m->xrun_start_ns > 0 && m->xrun_start_ns < m->boundary_ns ? m->xrun_start_ns
									   : m->boundary_ns) -
		 atomic_load_explicit(&x->origin_ns, memory_order_relaxed);
	e.late_ns = m->wake_ns - m->boundary_ns;
	e.work_ns = m->work_ns;
	e.budget_ns = m->work_avg_ns;
	e.periods = m->periods;
	e.xrun = m->xrun_ns > 0;
	/* how late it was served: its wake-up, or its write past the next boundary, or its xrun */
	e.size_ns = e.late_ns;
	if (m->work_ns > x->period_ns && m->seen_ns - m->boundary_ns - x->period_ns > e.size_ns)
		e.size_ns = m->seen_ns - m->boundary_ns - x->period_ns;
	if (e.xrun && m->xrun_ns > e.size_ns)
		e.size_ns = m->xrun_ns;
	e.cls = al_why_classify(&e, x->period_ns);
	al_why_explain(&e, x->period_ns);
	w->total++;
	/* read while the run goes on (the monitor's metrics: al_why_counts) */
	__atomic_fetch_add(&w->count[e.cls], 1, __ATOMIC_RELAXED);
	if (w->n_events < AL_WHY_EVENTS_MAX)
		w->events[w->n_events++] = e;
	if (v->wait_ns >= 0)
		w->has_schedstat = true;
	if (v->steal_ns >= 0)
		w->has_steal = true;
	if (v->irqs >= 0)
		w->has_irqs = true;
}

/* Classify the marks a sample now covers (all of them when final). */
static void
drain(struct al_why_run *x, bool final)
{
	uint32_t first, k, ready = al_spsc_ready(&x->idx, &first);
	int64_t last = x->n_samples ? x->samples[(x->n_samples - 1) & (AL_WHY_SAMPLES - 1)].t_ns : 0;

	x->rates_known = false; /* the samples moved since the last batch */

	for (k = 0; k < ready; k++) {
		const struct al_why_mark *m = &x->marks[(first + k) & (AL_WHY_MARKS - 1)];
		int64_t end = m->seen_ns;

		if (m->xrun_start_ns > 0 && m->xrun_start_ns + m->xrun_ns > end)
			end = m->xrun_start_ns + m->xrun_ns;
		if (!final && end >= last)
			break;
		if (m->xrun_ns > 0 && m->xrun_start_ns < x->xrun_end_ns) {
			/* the same starvation seen again (one stall is one event): it grows */
			if (m->xrun_start_ns + m->xrun_ns > x->xrun_end_ns) {
				if (x->xrun_event >= 0)
					x->w->events[x->xrun_event].size_ns +=
						m->xrun_start_ns + m->xrun_ns - x->xrun_end_ns;
				x->xrun_end_ns = m->xrun_start_ns + m->xrun_ns;
			}
			continue;
		}
		if (m->xrun_ns > 0) {
			x->xrun_end_ns = m->xrun_start_ns + m->xrun_ns;
			x->xrun_event = x->w->n_events < AL_WHY_EVENTS_MAX ? (long)x->w->n_events : -1;
		}
		if (x->n_samples)
			classify(x, m);
		else
			x->w->dropped++, x->w->total++;
	}
	al_spsc_pop(&x->idx, k);
}

static void
open_files(struct al_why_run *x, pid_t tid)
{
	char path[64];

	snprintf(path, sizeof(path), "/proc/self/task/%d/schedstat", (int)tid);
	x->fd_schedstat = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", (int)tid);
	x->fd_stat = open(path, O_RDONLY | O_CLOEXEC);
	snprintf(path, sizeof(path), "/proc/self/task/%d/status", (int)tid);
	x->fd_status = open(path, O_RDONLY | O_CLOEXEC);
	x->fd_pstat = open("/proc/stat", O_RDONLY | O_CLOEXEC);
	x->fd_irq = open("/proc/interrupts", O_RDONLY | O_CLOEXEC);
	x->fd_softirq = open("/proc/softirqs", O_RDONLY | O_CLOEXEC);
	if (x->fd_schedstat < 0 || x->fd_stat < 0)
		snprintf(x->w->note, sizeof(x->w->note),
			 "the thread's /proc/self/task/%d files were not readable: no run-queue "
			 "wait or faults", (int)tid);
}

static void
take(struct al_why_run *x)
{
	sample(x, &x->samples[x->n_samples & (AL_WHY_SAMPLES - 1)]);
	x->n_samples++;
}

/* this thread's CPU time */
static int64_t
thread_cpu_ns(void)
{
	struct timespec ts;

	if (clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts))
		return 0;
	return (int64_t)ts.tv_sec * AL_NS_PER_SEC + ts.tv_nsec;
}

/*
 * The sampler takes at most 2 % of a CPU: a sample (and the marks it
 * classified) that cost more than 2 % of the interval lengthens it, up to
 * SAMPLE_MAX_NS (a slow machine, an emulated one: the qemu guest's single
 * CPU under TCG, where 5 ms left little of what the audio thread left for
 * the rest). The longest interval used is the one reported.
 */
static void
slow_down(struct al_why_run *x, int64_t cost_ns)
{
	if (cost_ns * 50 <= x->sample_ns || x->sample_ns >= SAMPLE_MAX_NS)
		return;
	x->sample_ns = cost_ns * 50 < SAMPLE_MAX_NS ? cost_ns * 50 : SAMPLE_MAX_NS;
	if (x->sample_ns > x->w->sample_ns)
		x->w->sample_ns = x->sample_ns;
}

static void *
sampler(void *arg)
{
	struct al_why_run *x = arg;
	pid_t tid = 0;
	int64_t next = al_clock_now_ns();

	while (!atomic_load(&x->stop)) {
		/* (the measured thread's first period comes after the stream started) */
		if (!tid && atomic_load(&x->origin_ns) && (tid = atomic_load(&x->tid)))
			open_files(x, tid);
		if (tid) {
			int64_t cpu0_ns = thread_cpu_ns();

			take(x);
			drain(x, false);
			slow_down(x, thread_cpu_ns() - cpu0_ns);
		}
		next += x->sample_ns;
		if (next < al_clock_now_ns())
			next = al_clock_now_ns() + x->sample_ns;
		al_clock_sleep_until_ns(next);
	}
	if (!tid && atomic_load(&x->origin_ns) && (tid = atomic_load(&x->tid)))
		open_files(x, tid);
	if (tid)
		take(x);
	drain(x, true);
	return NULL;
}

/* what real-time threads may take of a CPU, %; -1: no limit or not known */
static int
rt_limit_pct(void)
{
	long long runtime = -1, period = 0;
	FILE *f;

	if ((f = fopen("/proc/sys/kernel/sched_rt_runtime_us", "re"))) {
		if (fscanf(f, "%lld", &runtime) != 1)
			runtime = -1;
		fclose(f);
	}
	if ((f = fopen("/proc/sys/kernel/sched_rt_period_us", "re"))) {
		if (fscanf(f, "%lld", &period) != 1)
			period = 0;
		fclose(f);
	}
	return runtime >= 0 && period > 0 ? (int)(100 * runtime / period) : -1;
}

int
al_why_run_start(struct al_why_run *x)
{
	pthread_attr_t attr;
	sigset_t all, old;
	int rc;

	if (!x->w)
		return 0;
	x->ticks_per_s = sysconf(_SC_CLK_TCK);
	x->rt_limit_pct = rt_limit_pct();
	rc = -pthread_attr_init(&attr);
	if (!rc) {
		/*
		 * a small stack: the run's mlockall() populates all of it at
		 * the start (glibc's default, 8 MiB, took the qemu guest's CPU
		 * 200 ms)
		 */
		pthread_attr_setstacksize(&attr, WHY_STACK_BYTES);
		/* signals go to the controlling thread only, as the audio thread's do */
		sigfillset(&all);
		pthread_sigmask(SIG_BLOCK, &all, &old);
		rc = -pthread_create(&x->thread, &attr, sampler, x);
		pthread_sigmask(SIG_SETMASK, &old, NULL);
		pthread_attr_destroy(&attr);
	}
	x->started = rc == 0;
	if (rc)
		snprintf(x->w->note, sizeof(x->w->note), "the evidence thread did not start: %s",
			 strerror(-rc));
	return rc;
}

void
al_why_run_origin(struct al_why_run *x, int64_t origin_ns)
{
	atomic_store(&x->origin_ns, origin_ns);
}

void
al_why_run_stop(struct al_why_run *x)
{
	if (!x->w)
		return;
	if (x->started) {
		atomic_store(&x->stop, true);
		pthread_join(x->thread, NULL);
		x->started = false;
	}
	x->w->dropped += atomic_load(&x->overflow);
	x->w->total += atomic_load(&x->overflow);
	atomic_store(&x->overflow, 0);
	int *fds[] = { &x->fd_schedstat, &x->fd_stat, &x->fd_status,
		       &x->fd_pstat, &x->fd_irq, &x->fd_softirq };
	for (size_t i = 0; i < sizeof(fds) / sizeof(fds[0]); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

/* what the system checks said of id: not "ok" means a problem */
static bool
check_ok(const struct al_result *r, const char *id)
{
	for (int i = 0; i < r->n_checks; i++)
		if (!strcmp(r->checks[i].id, id))
			return !strcmp(r->checks[i].status, "ok");
	return true;
}

void
al_why_run_verdict(struct al_result *r)
{
	int64_t max_served = r->total.wake_ns.count ? r->total.wake_ns.max_ns : -1;

	if (!r->why)
		return;
	/* --trace: the spikes it explained name what held the CPU */
	al_why_name_from_trace(r->why, r->spikes, r->n_spikes, r->period_ns);
	al_why_verdict(r->why, r->cfg.period_frames, r->cfg.rate_hz, r->cfg.periods, max_served,
		       r->total.xruns, r->memory_locked && check_ok(r, "memlock"),
		       r->realtime || check_ok(r, "rtprio"));
}

void
al_why_run_free(struct al_why_run *x)
{
	al_why_run_stop(x);
	free(x->samples);
	free(x->buf);
	x->samples = NULL;
	x->buf = NULL;
	x->w = NULL;
}
