/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside src/trace: the decoded events kept in a history ring, and the
 * analysis that turns the events of one window into an explanation. The
 * analysis is pure (no tracefs), so the unit tests and the fuzz target
 * drive it with made-up event sequences.
 */
#ifndef AL_TRACE_PRIVATE_H
#define AL_TRACE_PRIVATE_H

#ifndef AL_TRACE_PRIVATE_ALLOWED
#error "trace-private.h is for src/trace and its tests only"
/*
 * al_trace_explain's names (names.c): the timer causes as "0x<addr>" from
 * timer_addr[] (al_trace_symbolize names them after the run); tasks
 * charged without a comm, from /proc/PID/comm while they exist, else
 * "pid-N".
 */
void al__trace_name_timers(struct al_spike *out, const uint64_t *timer_addr);
void al__trace_name_tasks(struct al_spike *out);

#endif

#include <stddef.h>
#include <stdint.h>

#include "core/result.h"

enum al_tev_type {
	AL_TEV_SWITCH = 1,     /* pid: next_pid, name: next_comm, prev_pid, prev_name */
	AL_TEV_WAKING,         /* pid, name: the woken task */
	AL_TEV_WAKEUP,         /* pid, name: the woken task */
	AL_TEV_IRQ_ENTRY,      /* pid: irq number, name: handler */
	AL_TEV_IRQ_EXIT,       /* pid: irq number */
	AL_TEV_SOFTIRQ_ENTRY,  /* pid: vector */
	AL_TEV_SOFTIRQ_EXIT,   /* pid: vector */
	AL_TEV_TIMER_ENTRY,    /* addr: callback function */
	AL_TEV_TIMER_EXIT,
	AL_TEV_VEC_ENTRY,      /* an x86 IRQ vector; name: "local_timer", ... */
	AL_TEV_VEC_EXIT,
	AL_TEV_IRQOFF,         /* preemptirq:irq_disable */
	AL_TEV_IRQON,
	AL_TEV_PREEMPTOFF,
	AL_TEV_PREEMPTON,
	AL_TEV_LOST,           /* the kernel dropped events before this time */
	AL_TEV_TYPES
};

/* One decoded event. prev_pid is common_pid for all but SWITCH. */
struct al_tev {
	int64_t ts_ns;
	uint64_t addr;
	int32_t pid;
	int32_t prev_pid;
	uint8_t type;
	char name[32];
	char prev_name[16];
};

/* Oldest-first ring of events; when full the oldest is overwritten. */
struct al_tev_ring {
	struct al_tev *ev;
	size_t cap;
	size_t head;          /* index of the next write */
	size_t n;
	uint64_t evicted;     /* events overwritten since the start */
};

static inline const struct al_tev *
al__tev_at(const struct al_tev_ring *r, size_t i)
{
	return &r->ev[(r->head + r->cap - r->n + i) % r->cap];
}

/* Append one event (after the newest). */
void al__tev_push(struct al_tev_ring *r, const struct al_tev *e);

/* Softirq vector -> "NET_RX", ...; "softirq-<n>" for unknown ones (buf). */
const char *al__softirq_name(int vec, char *buf, size_t size);

/*
 * Explain the delay of tid woken at to_ns for the boundary from_ns from the
 * events in r (non-decreasing times; out-of-order ones are treated as
 * happening at the last time seen). Every nanosecond of [from_ns, end],
 * end = the last switch to tid in the window (else to_ns), is charged to
 * exactly one context: the task on the CPU, or the innermost IRQ, softirq,
 * vector or timer callback running on top of it; irqs-off and preempt-off
 * sections are added on top (they overlap the rest). Timer causes carry
 * their callback address in *timer_addr[i] (0 for others), for the caller
 * to name. O(r->n) time, no allocation.
 * Returns 0, -EINVAL (to_ns < from_ns) or -ENODATA (no event in or after
 * the window: nothing was recorded for it).
 */
int al__trace_analyze(const struct al_tev_ring *r, int64_t from_ns, int64_t to_ns, int tid,
		      struct al_spike *out, uint64_t timer_addr[AL_SPIKE_CAUSES]);

/*
 * al_trace_explain's names (names.c): the timer causes as "0x<addr>" from
 * timer_addr[] (al_trace_symbolize names them after the run); tasks
 * charged without a comm, from /proc/PID/comm while they exist, else
 * "pid-N".
 */
void al__trace_name_timers(struct al_spike *out, const uint64_t *timer_addr);
void al__trace_name_tasks(struct al_spike *out);

#endif
