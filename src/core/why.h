/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why did it drop out (docs/why.md): a cause for every xrun and every
 * period later than a threshold, from evidence anyone can read without
 * root. A side thread (src/run/why-sampler.c) samples the audio thread's
 * /proc/self/task/TID files and its CPU's lines of /proc/stat,
 * /proc/interrupts and /proc/softirqs; each event is given the difference
 * between the samples that bracket it, and classified here from that alone.
 * The classes, and the evidence that decides each:
 *
 *   stopped       the thread was seen stopped (SIGSTOP, a debugger)
 *   preempted     run-queue wait covers half the lateness or more, the
 *                 thread being real-time: only a task of equal or higher
 *                 priority (or an IRQ thread) holds it; but when the
 *                 thread itself had used its CPU to within 5 points of the
 *                 kernel's limit for real-time threads over the second up to it
 *                 (sched_rt_runtime_us), the kernel throttled it: own-work
 *   late-wake     the same with the thread at SCHED_OTHER: the fair
 *                 scheduler woke it late
 *   host          the CPU's steal covers half the lateness (a VM's host)
 *   page-fault    the thread took a major fault in the window, or minor
 *                 ones that at 10 us each would cover the lateness (one
 *                 stray fault is no cause of a late period)
 *   own-work      the period's own work took longer than the period, and
 *                 no more than 1.1 times what it usually takes (audiolat's
 *                 work is the same every period): the budget is too small.
 *                 Work slowed beyond that, with nothing else to show, is
 *                 time taken from a running thread: unattributed, saying so
 *   irq           the CPU took interrupts or softirqs at 4 times its rate
 *                 and more, or their time covers half the lateness
 *   device        an xrun while the thread was on time and within budget:
 *                 the device or the server stopped
 *   unattributed  none of these
 *
 * Nothing here reads the machine: al_why_classify(), al_why_explain() and
 * al_why_verdict() work on the numbers given (unit-tested).
 */
#ifndef AL_CORE_WHY_H
#define AL_CORE_WHY_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum al_why_class {
	AL_WHY_STOPPED = 0,
	AL_WHY_PREEMPTED,
	AL_WHY_LATE_WAKE,
	AL_WHY_HOST,
	AL_WHY_PAGE_FAULT,
	AL_WHY_OWN_WORK,
	AL_WHY_IRQ,
	AL_WHY_DEVICE,
	AL_WHY_UNATTRIBUTED,
	AL_WHY_CLASSES
};

/* "preempted", "late-wake", ...; NULL for an unknown value */
const char *al_why_class_name(enum al_why_class c);
/* the class of a name, or -1 */
int al_why_class_of(const char *name);

/*
 * What the samples bracketing an event say about it: differences over
 * window_ns (the samples' span, which holds the event). -1: not known
 * (the file was not readable here).
 */
struct al_why_evidence {
	int64_t window_ns;
	int64_t wait_ns;       /* run-queue wait of the thread (schedstat) */
	int64_t cpu_ns;        /* CPU time the thread ran (schedstat) */
	int64_t vcsw;          /* voluntary switches (/proc/.../status) */
	int64_t ivcsw;         /* involuntary switches: preempted while running */
	int64_t minflt;        /* minor page faults (/proc/.../stat) */
	int64_t majflt;
	int64_t steal_ns;      /* the CPU's steal (/proc/stat, in USER_HZ ticks) */
	int64_t irq_ns;        /* the CPU's irq + softirq time (/proc/stat, ticks) */
	int64_t irqs;          /* interrupts the CPU took (/proc/interrupts) */
	int64_t irqs_expected; /* ... at the CPU's rate over the run so far */
	int64_t softirqs;      /* softirqs it ran (/proc/softirqs) */
	int64_t softirqs_expected;
	int busy_pct;          /* the thread's share of its CPU over the second (half at least) up to the sample after it, %, -1 */
	int rt_limit_pct;      /* what real-time threads may take of a CPU (sched_rt_runtime_us), -1: no limit */
	bool stopped;          /* a sample saw the thread stopped (state T or t) */
	int cpu;               /* the CPU the thread last ran on, -1 */
	int policy;            /* SCHED_OTHER 0, SCHED_FIFO 1, SCHED_RR 2, ...; -1 */
	int priority;          /* its real-time priority, 0 */
};

#define AL_WHY_TEXT 240
#define AL_WHY_EVENTS_MAX 512   /* events kept with their evidence; the rest counted */

/*
 * With --trace (root, tracefs): what the kernel's trace names for the
 * event, the top cause of the spike that overlaps it most (the thread's
 * own time left out). kind[0] == '\0': none.
 */
struct al_why_traced {
	char kind[12];         /* task, irq, softirq, timer, idle, ... (al_cause) */
	char name[32];         /* comm, IRQ handler, softirq, timer function */
	int pid;               /* task pid; IRQ number; softirq vector; -1 */
	int64_t duration_ns;   /* what it held of the CPU in the spike's window */
};

struct al_why_event {
	int64_t t_ns;          /* the period boundary or the xrun's start (relative to the run start) */
	int64_t size_ns;       /* how late the period was served, or how long the xrun lasted */
	int64_t late_ns;       /* the period's wake-up - its boundary */
	int64_t work_ns;       /* the period's own work, -1 */
	int64_t budget_ns;     /* what the work usually takes (its running average), -1 */
	int64_t periods;       /* periods it cost (missed, lost) */
	bool xrun;
	enum al_why_class cls;
	struct al_why_evidence ev;
	char because[AL_WHY_TEXT]; /* al_why_explain() */
	struct al_why_traced traced;
};

/*
 * The verdict of a run (docs/why.md): suitable for buffer_frames at
 * rate_hz (the smallest whole number of periods that none of its late
 * periods would have overrun: the latest a period was served plus the
 * period it writes; no more than the buffer it ran when that made no
 * xrun) with margin_ns to spare at the buffer it ran (0 at least), or not
 * suitable: xruns (or periods whose own work overran it: no buffer helps
 * those), the dominant class and its share of the events.
 */
struct al_why_verdict {
	bool suitable;
	int64_t buffer_frames;
	int64_t rate_hz;
	int64_t margin_ns;
	uint64_t xruns;
	int dominant;          /* enum al_why_class, -1 when no event */
	double dominant_share; /* of the classified events, 0..1 */
	char line[AL_WHY_TEXT];
	char advice[3][AL_WHY_TEXT];
	int n_advice;
};

/* What a run's evidence collection made (al_result.why, NULL when not collected). */
struct al_why {
	int64_t threshold_ns;  /* a period served later than this is an event */
	int64_t sample_ns;     /* the side thread's sampling interval */
	uint64_t total;        /* events seen (kept or not) */
	uint64_t dropped;      /* of them, not classified (the marks' ring was full) */
	uint64_t count[AL_WHY_CLASSES]; /* classified events per class, kept or not */
	struct al_why_event events[AL_WHY_EVENTS_MAX];
	size_t n_events;
	bool has_steal, has_irqs, has_schedstat; /* which sources were readable */
	char note[160];        /* why some evidence was missing, "" */
	struct al_why_verdict verdict;
};

/* Decide e->cls from e's numbers (period_ns: the run's period). */
enum al_why_class al_why_classify(const struct al_why_event *e, int64_t period_ns);

/* One line saying what the evidence of e shows, into e->because. */
void al_why_explain(struct al_why_event *e, int64_t period_ns);

/*
 * Name what held the CPU in each event from --trace's explained spikes
 * (core/result.h's al_spike, t_ns relative to the run start like the
 * events'): the spike overlapping the event's window (its period before
 * to its end) most, its longest cause that is not the thread itself. The
 * class stays the evidence's; the name goes into traced and the because
 * line. Returns the number of events named.
 */
struct al_spike;
size_t al_why_name_from_trace(struct al_why *w, const struct al_spike *spikes, int n_spikes,
			      int64_t period_ns);

/*
 * The run's verdict: max_served_ns is the latest any period was served
 * after its boundary (the per-period wake latency's max, missed periods
 * included; -1 not known), xruns the run's events of ours. Fills
 * w->verdict; advice from the dominant class (memlock_ok, rtprio_ok: what
 * the system checks said, for the advice that names them).
 */
void al_why_verdict(struct al_why *w, int64_t period_frames, int64_t rate_hz, int periods,
		    int64_t max_served_ns, uint64_t xruns, bool memlock_ok, bool rtprio_ok);

#endif
