/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A cause per xrun and late period, from unprivileged evidence (why.h, docs/why.md). */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "result.h"
#include "why.h"

static const char *const class_names[AL_WHY_CLASSES] = {
	[AL_WHY_STOPPED] = "stopped",
	[AL_WHY_PREEMPTED] = "preempted",
	[AL_WHY_LATE_WAKE] = "late-wake",
	[AL_WHY_HOST] = "host",
	[AL_WHY_PAGE_FAULT] = "page-fault",
	[AL_WHY_OWN_WORK] = "own-work",
	[AL_WHY_IRQ] = "irq",
	[AL_WHY_DEVICE] = "device",
	[AL_WHY_UNATTRIBUTED] = "unattributed",
};

const char *
al_why_class_name(enum al_why_class c)
{
	return (unsigned)c < AL_WHY_CLASSES ? class_names[c] : NULL;
}

int
al_why_class_of(const char *name)
{
	for (int i = 0; name && i < AL_WHY_CLASSES; i++)
		if (!strcmp(name, class_names[i]))
			return i;
	return -1;
}

/* n is known and covers half of size or more */
static bool
covers(int64_t n, int64_t size_ns)
{
	return n >= 0 && size_ns > 0 && 2 * n >= size_ns;
}

/* many more than expected: 4 times the rate, and at least 20 more */
static bool
storm(int64_t n, int64_t expected)
{
	return n >= 0 && expected >= 0 && n >= 4 * expected && n - expected >= 20;
}

/*
 * Page faults that can have cost half the lateness: a major fault (I/O)
 * can; minor ones at FAULT_NS each at most (a fresh page zeroed and
 * mapped: about 6 us each on the 2-CPU VM, 400 in 2.4 ms), so one stray
 * fault in a window late by milliseconds is not its cause.
 */
#define FAULT_NS 10000LL

static bool
faults_cover(const struct al_why_evidence *v, int64_t size_ns)
{
	return v->majflt > 0 || (v->minflt > 0 && covers(v->minflt * FAULT_NS, size_ns));
}

/*
 * The work as the thread usually does it: within 10 % of its running
 * average (audiolat's work is the same loop every period; the jack
 * control's p99 is 1.08 times its median). A work over the period and
 * within this is the budget's fault; an 80 % load cannot get there (0.8 *
 * 1.1 < 1), whatever the host takes from it. At 1.25 times, an 82 % load
 * stretched by a host's hiccup of 20 % of a period could read as own-work
 * (the likeliest reading of CI's failure at 3db681e; its log named no class).
 */
static bool
usual_work(int64_t work_ns, int64_t usual_ns)
{
	return usual_ns < 0 || 10 * work_ns <= 11 * usual_ns;
}

/* a real-time thread that ran up to the kernel's limit: RT throttling */
static bool
throttled(const struct al_why_evidence *v)
{
	return v->rt_limit_pct > 0 && v->busy_pct >= 0 && v->busy_pct + 5 >= v->rt_limit_pct;
}

enum al_why_class
al_why_classify(const struct al_why_event *e, int64_t period_ns)
{
	const struct al_why_evidence *v = &e->ev;
	int64_t size = e->size_ns;

	if (v->stopped)
		return AL_WHY_STOPPED;
	if (covers(v->wait_ns, size) && (v->policy == 1 || v->policy == 2) &&
	    throttled(v))
		return AL_WHY_OWN_WORK;
	if (covers(v->wait_ns, size))
		return v->policy == 1 || v->policy == 2 ? AL_WHY_PREEMPTED : AL_WHY_LATE_WAKE;
	if (covers(v->steal_ns, size))
		return AL_WHY_HOST;
	if (faults_cover(v, size))
		return AL_WHY_PAGE_FAULT;
	if (e->work_ns > period_ns && period_ns > 0 && usual_work(e->work_ns, e->budget_ns))
		return AL_WHY_OWN_WORK;
	if (storm(v->irqs, v->irqs_expected) || storm(v->softirqs, v->softirqs_expected) ||
	    covers(v->irq_ns, size))
		return AL_WHY_IRQ;
	/* the thread woke within a period of its boundary and worked within budget */
	if (e->xrun && e->late_ns >= 0 && e->late_ns < period_ns &&
	    (e->work_ns < 0 || e->work_ns <= period_ns))
		return AL_WHY_DEVICE;
	return AL_WHY_UNATTRIBUTED;
}

static const char *
policy_name(int policy)
{
	switch (policy) {
	case 0: return "SCHED_OTHER";
	case 1: return "SCHED_FIFO";
	case 2: return "SCHED_RR";
	case 3: return "SCHED_BATCH";
	case 5: return "SCHED_IDLE";
	case 6: return "SCHED_DEADLINE";
	default: return "an unknown policy";
	}
}

static double
ms(int64_t ns)
{
	return (double)ns / 1e6;
}

/* "no evidence: ..." with the figures that were known */
static void
nothing_found(const struct al_why_event *e, char *b, size_t n)
{
	const struct al_why_evidence *v = &e->ev;
	size_t k = (size_t)snprintf(b, n, "no evidence in the %.1f ms around it:", ms(v->window_ns));

	if (k < n && v->wait_ns >= 0)
		k += (size_t)snprintf(b + k, n - k, " waited %.2f ms,", ms(v->wait_ns));
	if (k < n && v->cpu_ns >= 0)
		k += (size_t)snprintf(b + k, n - k, " ran %.2f ms,", ms(v->cpu_ns));
	if (k < n && v->minflt >= 0)
		k += (size_t)snprintf(b + k, n - k, " no fault,");
	if (k < n && v->steal_ns >= 0)
		k += (size_t)snprintf(b + k, n - k, " steal %.0f ms,", ms(v->steal_ns));
	if (k < n && v->irqs >= 0)
		k += (size_t)snprintf(b + k, n - k, " %lld interrupts,", (long long)v->irqs);
	if (k < n && k > 0 && b[k - 1] == ',')
		b[k - 1] = '\0';
}

void
al_why_explain(struct al_why_event *e, int64_t period_ns)
{
	const struct al_why_evidence *v = &e->ev;
	char *b = e->because;
	size_t n = sizeof(e->because);
	char cpu[24] = "its CPU";

	if (v->cpu >= 0)
		snprintf(cpu, sizeof(cpu), "CPU %d", v->cpu);
	switch (e->cls) {
	case AL_WHY_STOPPED:
		snprintf(b, n, "the thread was stopped (a signal or a debugger) during the %.2f ms",
			 ms(e->size_ns));
		break;
	case AL_WHY_PREEMPTED:
		snprintf(b, n, "waited %.2f ms to run on %s at %s %d: a task of equal or higher "
			 "priority held it (%lld involuntary switch%s)", ms(v->wait_ns), cpu,
			 policy_name(v->policy), v->priority, (long long)v->ivcsw,
			 v->ivcsw == 1 ? "" : "es");
		break;
	case AL_WHY_LATE_WAKE:
		snprintf(b, n, "waited %.2f ms to run on %s at %s: not real-time, the scheduler ran "
			 "others first", ms(v->wait_ns), cpu, policy_name(v->policy));
		break;
	case AL_WHY_HOST:
		snprintf(b, n, "the host took %s for %.0f ms (steal) while the thread was due",
			 cpu, ms(v->steal_ns));
		break;
	case AL_WHY_PAGE_FAULT:
		snprintf(b, n, "the thread faulted %lld pages (%lld minor, %lld major) in the %.1f ms "
			 "around it", (long long)(v->minflt + (v->majflt > 0 ? v->majflt : 0)),
			 (long long)v->minflt, (long long)(v->majflt > 0 ? v->majflt : 0),
			 ms(v->window_ns));
		break;
	case AL_WHY_OWN_WORK:
		if (throttled(v) && covers(v->wait_ns, e->size_ns))
			snprintf(b, n, "the kernel throttled it: it had run %d %% of %s over the second "
				 "before, at the limit for real-time threads (%d %%, "
				 "sched_rt_runtime_us), and then waited %.2f ms", v->busy_pct, cpu,
				 v->rt_limit_pct, ms(v->wait_ns));
		else
			snprintf(b, n, "its own work took %.2f ms of a %.2f ms period (used %.2f ms of CPU)",
			 ms(e->work_ns), ms(period_ns),
			 ms(v->cpu_ns));
		break;
	case AL_WHY_IRQ:
		snprintf(b, n, "%s took %lld interrupts and %lld softirqs (about %lld and %lld "
			 "expected)", cpu, (long long)v->irqs, (long long)v->softirqs,
			 (long long)v->irqs_expected, (long long)v->softirqs_expected);
		break;
	case AL_WHY_DEVICE:
		snprintf(b, n, "the thread woke %.2f ms after its boundary and worked within the "
			 "period: the device or the server stopped", ms(e->late_ns));
		break;
	default:
		if (v->window_ns <= 0)
			snprintf(b, n, "no evidence: no two samples of the thread bracket it (the "
				 "stream's first periods, or the sampler was held off the CPU)");
		else if (e->budget_ns > 0 && !usual_work(e->work_ns, e->budget_ns))
			snprintf(b, n, "its work took %.2f ms, %.1f times its usual %.2f ms, with no "
				 "wait, fault or interrupt burst to show for it: time taken from the "
				 "running thread (a VM's host, SMIs, the clock slowed)", ms(e->work_ns),
				 (double)e->work_ns / (double)e->budget_ns, ms(e->budget_ns));
		else
			nothing_found(e, b, n);
		break;
	}
}

/* what to try against the dominant class */
static void
advise(struct al_why *w, int cls, bool memlock_ok, bool rtprio_ok)
{
	struct al_why_verdict *v = &w->verdict;
	const char *a = NULL, *b = NULL;

	switch (cls) {
	case AL_WHY_STOPPED:
		a = "the process was stopped: a signal (SIGSTOP, ^Z) or a debugger, not the system";
		break;
	case AL_WHY_PREEMPTED:
		a = "a task of equal or higher real-time priority ran on the audio CPU: find it with "
		    "--trace (root) or `ps -eLo rtprio,comm | sort -n`, lower it or move it off the "
		    "CPU (taskset), or raise -p above it";
		b = "IRQ threads run at SCHED_FIFO 50: keep the audio thread above the ones that "
		    "are not the sound card's";
		break;
	case AL_WHY_LATE_WAKE:
		a = rtprio_ok ? "the audio thread ran at SCHED_OTHER: run it at SCHED_FIFO (-p 80)"
			      : "the audio thread ran at SCHED_OTHER: allow real-time priority (an "
				"rtprio limit in /etc/security/limits.d, the audio group)";
		break;
	case AL_WHY_HOST:
		a = "the hypervisor took the CPU (steal): on a VM, pin and dedicate the vCPUs; on "
		    "bare metal this cannot happen";
		break;
	case AL_WHY_PAGE_FAULT:
		a = memlock_ok ? "the audio thread touched memory not yet mapped: allocate and touch "
				 "it before the stream starts"
			       : "memory was not locked: allow it (a memlock limit in "
				 "/etc/security/limits.d) so mlockall() succeeds";
		break;
	case AL_WHY_OWN_WORK:
		a = "the period's own work took longer than the period: a larger period (-P), or "
		    "less work per period";
		break;
	case AL_WHY_IRQ:
		a = "interrupts flooded the audio CPU: move them to another CPU "
		    "(/proc/irq/N/smp_affinity, irqbalance) or pin the audio thread away (-a)";
		break;
	case AL_WHY_DEVICE:
		a = "the thread was on time: the device or the server stopped (another client's "
		    "overrun, the driver); look at the server's xruns and its other clients";
		break;
	case AL_WHY_UNATTRIBUTED:
		a = "no unprivileged evidence explains it: run again with --trace as root";
		break;
	default:
		break;
	}
	if (a)
		snprintf(v->advice[v->n_advice++], sizeof(v->advice[0]), "%s", a);
	if (b)
		snprintf(v->advice[v->n_advice++], sizeof(v->advice[0]), "%s", b);
}

void
al_why_verdict(struct al_why *w, int64_t period_frames, int64_t rate_hz, int periods,
	       int64_t max_served_ns, uint64_t xruns, bool memlock_ok, bool rtprio_ok)
{
	struct al_why_verdict *v = &w->verdict;
	int64_t period_ns = rate_hz > 0 ? al_frames_to_ns(period_frames, rate_hz) : 0;
	uint64_t classified = 0, best = 0;
	int64_t need_periods;

	memset(v, 0, sizeof(*v));
	v->rate_hz = rate_hz;
	v->xruns = xruns;
	v->dominant = -1;
	for (int c = 0; c < AL_WHY_CLASSES; c++) {
		classified += w->count[c];
		if (w->count[c] > best) {
			best = w->count[c];
			v->dominant = c;
		}
	}
	if (classified)
		v->dominant_share = (double)best / (double)classified;
	v->suitable = xruns == 0 && !w->count[AL_WHY_OWN_WORK] && max_served_ns >= 0 &&
		      period_ns > 0;
	if (period_ns > 0 && max_served_ns >= 0) {
		/* the latest period served, plus the period it writes, in whole periods */
		need_periods = (max_served_ns + period_ns + period_ns - 1) / period_ns;
		if (need_periods < 2)
			need_periods = 2;
		/* a run without xruns at its buffer needed no more (a callback's lateness is not a queue's) */
		if (xruns == 0 && periods >= 2 && need_periods > periods)
			need_periods = periods;
		v->buffer_frames = need_periods * period_frames;
		v->margin_ns = (int64_t)periods * period_ns - (max_served_ns + period_ns);
		if (v->margin_ns < 0)
			v->margin_ns = 0;
	}
	if (v->suitable)
		snprintf(v->line, sizeof(v->line),
			 "suitable for %lld frames at %lld Hz (%lld periods; %.2f ms to spare at "
			 "the %d it ran)", (long long)v->buffer_frames, (long long)rate_hz,
			 (long long)(v->buffer_frames / (period_frames > 0 ? period_frames : 1)),
			 (double)v->margin_ns / 1e6, periods);
	else if (v->dominant >= 0 && !xruns && w->count[AL_WHY_OWN_WORK])
		snprintf(v->line, sizeof(v->line),
			 "not suitable: the work overran the period %llu times (no buffer holds "
			 "that), dominant cause %s (%.0f %% of %llu events)",
			 (unsigned long long)w->count[AL_WHY_OWN_WORK], class_names[v->dominant],
			 100.0 * v->dominant_share, (unsigned long long)classified);
	else if (v->dominant >= 0)
		snprintf(v->line, sizeof(v->line),
			 "not suitable: %llu xruns, dominant cause %s (%.0f %% of %llu events)",
			 (unsigned long long)xruns, class_names[v->dominant],
			 100.0 * v->dominant_share, (unsigned long long)classified);
	else
		snprintf(v->line, sizeof(v->line), "not suitable: %llu xruns, no cause classified",
			 (unsigned long long)xruns);
	if (v->dominant >= 0 && !v->suitable)
		advise(w, v->dominant, memlock_ok, rtprio_ok);
}

static int64_t
overlap(int64_t a0, int64_t a1, int64_t b0, int64_t b1)
{
	int64_t lo = a0 > b0 ? a0 : b0, hi = a1 < b1 ? a1 : b1;

	return hi > lo ? hi - lo : 0;
}

size_t
al_why_name_from_trace(struct al_why *w, const struct al_spike *spikes, int n_spikes,
		       int64_t period_ns)
{
	size_t named = 0;

	if (!w || !spikes || n_spikes <= 0)
		return 0;
	for (size_t i = 0; i < w->n_events; i++) {
		struct al_why_event *e = &w->events[i];
		int64_t from = e->t_ns - period_ns, to = e->t_ns + (e->size_ns > 0 ? e->size_ns : 0);
		int64_t best = 0;
		const struct al_cause *top = NULL;

		for (int k = 0; k < n_spikes; k++) {
			const struct al_spike *sp = &spikes[k];
			int64_t o = overlap(from, to, sp->t_ns, sp->t_ns + sp->latency_ns);

			if (o <= best)
				continue;
			for (int c = 0; c < sp->n_causes && c < AL_SPIKE_CAUSES; c++) {
				if (!strcmp(sp->causes[c].kind, "self"))
					continue;
				best = o;
				top = &sp->causes[c];
				break;
			}
		}
		if (!top)
			continue;
		snprintf(e->traced.kind, sizeof(e->traced.kind), "%s", top->kind);
		snprintf(e->traced.name, sizeof(e->traced.name), "%s", top->name);
		e->traced.pid = top->pid;
		e->traced.duration_ns = top->duration_ns;
		char who[48];
		size_t len = strlen(e->because);

		if (!strcmp(top->kind, "task") && top->pid >= 0)
			snprintf(who, sizeof(who), "%.31s:%d", top->name, top->pid);
		else
			snprintf(who, sizeof(who), "%.31s", top->name);
		if (len + 1 < sizeof(e->because))
			snprintf(e->because + len, sizeof(e->because) - len,
				 "; traced: %s %s held the CPU %.2f ms", top->kind, who,
				 ms(top->duration_ns));
		named++;
	}
	return named;
}
