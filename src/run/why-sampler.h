/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The evidence behind a cause (core/why.h, docs/why.md), collected without
 * root. The audio thread (or a backend's process callback) marks each
 * period later than the threshold, each xrun and each period whose work
 * overran, in a lock-free ring: a few comparisons and one slot written,
 * nothing else. A side thread at SCHED_OTHER samples, every sample_ns,
 * the measured thread's /proc/self/task/TID/{schedstat,stat,status} and
 * its CPU's lines of /proc/stat, /proc/interrupts and /proc/softirqs (the
 * files kept open, read with pread); once a sample later than a mark
 * exists, the mark is classified from the difference of the samples that
 * bracket it.
 */
#ifndef AL_RUN_WHY_SAMPLER_H
#define AL_RUN_WHY_SAMPLER_H

#include <pthread.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/result.h"
#include "core/spsc.h"

#define AL_WHY_MARKS 2048    /* power of two */
#define AL_WHY_SAMPLES 4096  /* power of two: 20 s at 5 ms */
#define AL_WHY_SAMPLE_NS_DEFAULT (5 * 1000 * 1000LL)

struct al_why_mark {
	int64_t boundary_ns;   /* absolute */
	int64_t wake_ns;
	int64_t seen_ns;
	int64_t work_ns;
	int64_t xrun_start_ns; /* 0: no xrun */
	int64_t xrun_ns;
	int64_t periods;
	int64_t work_avg_ns;   /* the work's running average before this period, -1 */
};

struct al_why_sample {
	int64_t t_ns;
	int64_t run_ns, wait_ns;            /* schedstat, -1 */
	int64_t vcsw, ivcsw;                /* status, -1 */
	int64_t minflt, majflt;             /* stat, -1 */
	int64_t steal_ticks, irq_ticks;     /* /proc/stat, -1 */
	int64_t irqs, softirqs;             /* -1 */
	bool stopped;
	int cpu, policy, priority;
};

struct al_why_run {
	struct al_why *w;            /* NULL: not collecting */
	int64_t threshold_ns;
	int64_t period_ns;
	int64_t sample_ns;
	_Atomic int64_t origin_ns;   /* the run start (events are relative to it), 0 until it started */
	int64_t work_avg_ns;         /* the hot path's running average of the work, -1 */
	_Atomic pid_t tid;           /* the measured thread, 0 until its first period */
	/* the hot path to the side thread */
	struct al_why_mark marks[AL_WHY_MARKS];
	struct al_spsc idx;
	_Atomic uint64_t overflow;
	/* the side thread */
	pthread_t thread;
	bool started;
	atomic_bool stop;
	struct al_why_sample *samples; /* AL_WHY_SAMPLES */
	uint64_t n_samples;
	int fd_schedstat, fd_stat, fd_status, fd_pstat, fd_irq, fd_softirq;
	long ticks_per_s;
	int rt_limit_pct;            /* sched_rt_runtime_us of sched_rt_period_us, -1 none */
	char *buf;                   /* for /proc/interrupts */
	size_t buf_size;
	int64_t xrun_end_ns;         /* the end of the last xrun event (absolute), 0 */
	long xrun_event;             /* its index in w->events, -1: not kept */
	int64_t rate[2];             /* median interrupts, softirqs per second (drain's batch) */
	bool rates_known;
};

/*
 * Hot path: mark a period that is an event: one of its boundaries charged
 * more than the threshold (its own wake-up's, a missed one's) or an xrun.
 * No syscall, no allocation.
 */
static inline void
al_why_mark(struct al_why_run *x, const struct al_sample *s)
{
	int64_t late_ns = s->wake_ns - s->boundary_ns, charge_ns = late_ns;
	int64_t avg_ns;
	bool xrun;
	uint32_t i;

	if (!x->w)
		return;
	/*
	 * audiolat's work is the same loop every period: its usual duration,
	 * a running average (1/32) of what it took, is what a period's work
	 * is held to (core/why.h, own-work)
	 */
	avg_ns = x->work_avg_ns;
	if (s->work_ns >= 0)
		x->work_avg_ns = avg_ns < 0 ? s->work_ns : avg_ns + (s->work_ns - avg_ns) / 32;
	/* the latest charge of the period's boundaries (core/result.h): its own, a missed one's */
	if (s->missed > 0 && s->seen_ns - s->boundary_ns - x->period_ns > charge_ns)
		charge_ns = s->seen_ns - s->boundary_ns - x->period_ns;
	if (s->missed_before > 0)
		charge_ns = late_ns + s->missed_before * x->period_ns;
	/* a server's notification is no xrun of ours until the result matches it to a span */
	xrun = s->xrun_ns > 0 && s->xrun_source != AL_XRUN_SERVER;
	if (charge_ns <= x->threshold_ns && !xrun)
		return;
	if (!al_spsc_slot(&x->idx, AL_WHY_MARKS, &i)) {
		atomic_fetch_add_explicit(&x->overflow, 1, memory_order_relaxed);
		return;
	}
	x->marks[i] = (struct al_why_mark){
		.boundary_ns = s->boundary_ns - s->missed_before * x->period_ns,
		.wake_ns = s->wake_ns, .seen_ns = s->seen_ns, .work_ns = s->work_ns,
		.xrun_start_ns = xrun ? s->xrun_start_ns : 0, .xrun_ns = xrun ? s->xrun_ns : 0,
		.periods = s->missed + s->missed_before + (s->lost_periods > 0 ? s->lost_periods : 0),
		.work_avg_ns = avg_ns,
	};
	al_spsc_push(&x->idx);
}

/*
 * Prepare (allocate everything) for a run at period_ns: threshold_ns 0 is
 * one period. 0 or -ENOMEM. x->w is r->why (allocated here).
 */
int al_why_run_init(struct al_why_run *x, struct al_result *r, int64_t period_ns,
		    int64_t threshold_ns);

/*
 * Start the side thread, before the stream starts (its stack locked then,
 * not during the measurement); 0 or -errno (then nothing is collected).
 * It samples nothing until al_why_run_origin() says where the run began.
 */
int al_why_run_start(struct al_why_run *x);

/* The stream started at origin_ns (CLOCK_MONOTONIC): the side thread may sample. */
void al_why_run_origin(struct al_why_run *x, int64_t origin_ns);

/*
 * After the stream stopped: a last sample, every mark classified, the
 * side thread joined, the files closed.
 */
void al_why_run_stop(struct al_why_run *x);

/*
 * r->why's verdict (when r->why is set), once r's statistics are finished
 * and its system checks made (they name what the advice names).
 */
void al_why_run_verdict(struct al_result *r);

/* Everything freed but r->why (the result's). */
void al_why_run_free(struct al_why_run *x);

#endif
