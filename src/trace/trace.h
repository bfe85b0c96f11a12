/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flight recorder: an ftrace instance of our own on the measured CPU,
 * read out after a late wake-up to name what delayed it (docs/trace.md).
 *
 * Lifecycle (none of it on the real-time path):
 *
 *	al_trace_open(&t, cpu, 0, err, sizeof(err))  before the audio thread starts
 *	... the audio thread runs, pinned to cpu ...
 *	al_trace_follow(t, tid) the measured thread: its own wake-up is filtered out
 *	al_trace_arm(t, true)  when a spike is suspected: record the rich set too
 *	                       (and the thread's wake-up)
 *	al_trace_arm(t, false) when none was for a while: the base set only
 *	al_trace_explain(t, boundary_ns, wake_ns, tid, &spike)  per late period,
 *	                                                        from another thread
 *	al_trace_close(t)                             on every exit path
 *
 * One struct al_trace is used by one thread at a time. Times are
 * CLOCK_MONOTONIC ns (al_clock_now_ns()): the instance uses trace_clock
 * "mono".
 */
#ifndef AL_TRACE_TRACE_H
#define AL_TRACE_TRACE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/result.h"

struct al_trace;

/* The per-CPU ring buffer of the traced CPU when buffer_kb is 0. */
#define AL_TRACE_BUFFER_KB_DEFAULT 1024
#define AL_TRACE_BUFFER_KB_MIN 64
#define AL_TRACE_BUFFER_KB_MAX (256 * 1024)
/* Instances are named AL_TRACE_PREFIX "<pid>" (a second one "<pid>-<n>"). */
#define AL_TRACE_PREFIX "audiolat-"

/*
 * As root: create an ftrace instance of our own (never the global
 * buffer), trace_clock "mono", a fixed per-CPU buffer of buffer_kb on cpu
 * (0: AL_TRACE_BUFFER_KB_DEFAULT; the other CPUs get the minimum), tracing
 * limited to cpu (tracing_cpumask), in overwrite mode (the newest events
 * are kept), recording the base set of events: sched_switch,
 * sched_waking, irq_handler_entry/exit and softirq_entry/exit (of these
 * only sched_waking and sched_switch fire on every wake-up of a periodic
 * thread). The rich set (al_trace_arm) is decoded from the start but not
 * recorded. Mounts tracefs when it is not mounted (and unmounts it at
 * close). Removes the instances that processes now dead left behind
 * (killed with SIGKILL).
 *
 * Returns 0 and *out, or -errno with one line in err (*out NULL):
 * -EPERM not root (tracefs not writable); -ENOENT no tracefs;
 * -ENOTSUP the kernel lacks instances or a required event;
 * -EINVAL bad cpu or buffer_kb; -ENOMEM; other errors of tracefs.
 */
int al_trace_open(struct al_trace **out, int cpu, size_t buffer_kb, char *err, size_t err_size);

/*
 * Off the real-time path (tracefs writes; each flips a static key, which
 * IPIs every CPU once): also record (rich true) or stop recording the rich
 * set of events, where the kernel has them: sched_wakeup,
 * hrtimer_expire_entry/exit, the x86 IRQ vector entry/exit events
 * (local_timer, reschedule, call_function, irq_work, ...) and preemptirq
 * irq_disable/enable, preempt_disable/enable. Windows recorded unarmed
 * lack them: a timer callback's or a vector interrupt's time is charged
 * to what it interrupted, irqs-off and preempt-off sections are not seen.
 * Returns 0 or the first -errno (the events that could be switched are).
 */
int al_trace_arm(struct al_trace *t, bool rich);
bool al_trace_armed(const struct al_trace *t);

/*
 * Off the real-time path: while not armed, leave the wake-up of thread tid
 * (the measured one) out of the recording with filters in the kernel: its
 * sched_waking, and the sched_switch to it from idle. Those are the events
 * a periodic thread pays for on every wake-up (the first write into the
 * ring buffer after an idle period costs about 1 us here, whichever event
 * it is). Unarmed explanations then lack woken_ns, switched_in_ns when the
 * thread came from idle, and charge the thread's own running past a
 * boundary after it came from idle to idle instead of self; causes of other
 * tasks, IRQs and softirqs are unchanged. Arming removes the filters,
 * disarming puts them back. Returns 0 or -errno.
 */
int al_trace_follow(struct al_trace *t, pid_t tid);

/*
 * Off the real-time path: read the traced CPU's events out of the kernel
 * (into a history of about twice the buffer, so overlapping windows and
 * calls in any order work while their events are still kept) and explain
 * the delay of thread tid, whose period began at from_ns and which woke
 * at to_ns. Fills out:
 *   t_ns = from_ns (absolute: the caller rebases it to the run start),
 *   latency_ns = to_ns - from_ns,
 *   woken_ns / switched_in_ns: the last sched_waking (else sched_wakeup)
 *     of tid and the last sched_switch to tid in the window, relative to
 *     from_ns, -1 when not seen,
 *   causes: what held the CPU from from_ns until tid got it (or to_ns),
 *     each nanosecond charged once to the task running or the innermost
 *     IRQ/softirq/timer callback on top of it, longest first, at most
 *     AL_SPIKE_CAUSES; irqoff/preemptoff sections overlap the others,
 *   truncated: events were lost in or before the window.
 * Bounded: reads at most about twice the buffer per call, then works on
 * the fixed-size history; no allocation. The calling thread runs off the
 * traced CPU meanwhile (when its affinity allows another CPU; restored).
 * Returns 0; -ENODATA when nothing was recorded for the window (too old,
 * or not yet read: call it after to_ns); -EINVAL; -EIO on a read error.
 */
int al_trace_explain(struct al_trace *t, int64_t from_ns, int64_t to_ns, pid_t tid,
		     struct al_spike *out);

/*
 * Name the timer callbacks of spikes[0..n) ("0xffffffff8123abcd" as
 * al_trace_explain leaves them) from /proc/kallsyms, in one pass: call it
 * once after the run, not per spike (the file is large and slow to read).
 * Addresses it cannot find stay as they are. Returns 0 or -errno.
 */
int al_trace_symbolize(struct al_spike *spikes, int n);

/*
 * Stop tracing, remove the instance (every setting was the instance's)
 * and unmount tracefs if al_trace_open mounted it. Safe with NULL and on a
 * half-opened trace; never leaves the instance behind.
 */
void al_trace_close(struct al_trace *t);

/* The instance's name ("audiolat-1234"). */
const char *al_trace_name(const struct al_trace *t);

/* Events decoded and pages the kernel reported events missing from, so far. */
uint64_t al_trace_events(const struct al_trace *t);
uint64_t al_trace_lost_pages(const struct al_trace *t);

/*
 * The kernel's own wake-to-run histogram of thread tid (khist.c): as
 * root, where the kernel has hist triggers and synthetic events (the qemu
 * guest's Debian kernel; not this VM's), an instance of ours with
 * triggers from sched_waking of tid to the sched_switch onto it, counting
 * the microseconds between by value. Made paused: al_khist_count(true)
 * from the stream start, (false) at its end. Off the real-time path.
 * Returns 0 and *out, or -errno with one line in err: -ENOTSUP the kernel
 * lacks them; -EPERM; -ENOENT no tracefs; others of tracefs.
 */
struct al_khist;
struct al_kernel_wake;
int al_khist_open(struct al_khist **out, pid_t tid, char *err, size_t err_size);
int al_khist_count(struct al_khist *h, bool on);
/* What the kernel counted (out->measured true, its count, p50, p99, max); 0 or -errno. */
int al_khist_read(struct al_khist *h, struct al_kernel_wake *out);
/*
 * khist-parse.c: the hist file's text[0..len) (entries "{ lat_us: N }
 * hitcount: M" in ascending keys, then its totals) into out: measured,
 * count (the hitcounts' sum), dropped, p50/p99/max in ns. 0; -EPROTO for
 * anything else (out zeroed).
 */
int al_khist_parse(const char *text, size_t len, struct al_kernel_wake *out);
/* The triggers, the instance and the synthetic event removed; safe with NULL. */
void al_khist_close(struct al_khist *h);

#endif
