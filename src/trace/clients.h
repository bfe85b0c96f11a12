/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flight recorder for a server's other clients (JACK blame,
 * docs/jack.md): a second ftrace instance of our own, on every CPU, with
 * sched_switch and sched_waking filtered in the kernel to the threads
 * followed (core/tasks.h) and, for sched_switch, to every switch of a
 * real-time task (what can hold a real-time client off its CPU), and the
 * IRQ, softirq and x86 vector events of the CPUs those threads may run on.
 * From their events, the runs of each thread (woken -> on the CPU ->
 * blocked again); against the server's cycles (the boundaries the run
 * driver hands over) a run that had not ended by its cycle's deadline
 * makes that cycle late and its client a cause, and the tasks, IRQs and
 * softirqs that held its CPU in that run causes beside it. The result is
 * core/graph.h's (the same fields as PipeWire's profiler gives: a node
 * per client, WAIT = on the CPU - woken, BUSY = blocked - on the CPU).
 *
 * Lifecycle (never on the real-time path; one thread at a time):
 *
 *	al_clients_open(&c, 0, err, sizeof(err))    before the stream starts
 *	al_clients_follow(c, tasks, n)              at start and when clients join
 *	al_clients_cycle(c, boundary_ns, period_ns) each cycle of ours, in order
 *	al_clients_read(c, now_ns)                  every tick of the controller
 *	al_clients_read(c, 0)                       after the run: all that is left
 *	al_clients_blame(c, g, base_ns)             then
 *	al_clients_close(c)                         on every exit path
 */
#ifndef AL_TRACE_CLIENTS_H
#define AL_TRACE_CLIENTS_H

#include <stddef.h>
#include <stdint.h>

#include "core/graph.h"
#include "core/tasks.h"

struct al_clients;

/* Per-CPU buffer when buffer_kb is 0 (the events are filtered: few). */
#define AL_CLIENTS_BUFFER_KB_DEFAULT 1024

/*
 * As root: an ftrace instance "audiolat-<pid>-clients" on every CPU,
 * trace_clock mono, following nobody yet (al_clients_follow enables the
 * events).
 * 0, or -errno with one line in err (as al_trace_open: -EPERM, -ENOENT,
 * -ENOTSUP, -ENOMEM).
 */
int al_clients_open(struct al_clients **out, size_t buffer_kb, char *err, size_t err_size);

/*
 * Follow these threads (replacing the set; at most AL_TASKS_MAX): the
 * event filters are rewritten. Threads followed before keep their runs.
 * 0 or -errno.
 */
int al_clients_follow(struct al_clients *c, const struct al_task *tasks, int n);

/*
 * One cycle of the server, as our client saw it: when it was due
 * (boundary_ns) and its period. In the order they came; a ring keeps the
 * last few seconds.
 */
void al_clients_cycle(struct al_clients *c, int64_t boundary_ns, int64_t period_ns);

/*
 * Read the kernel's events so far and close the runs that ended more than
 * a little before now_ns (events of several CPUs come in any order within
 * that). 0, or -EIO.
 */
int al_clients_read(struct al_clients *c, int64_t now_ns);

/*
 * After the run (after a last al_clients_read(c, 0), which this does not
 * call: the analysis links no tracefs): the blame into g (zeroed
 * by the caller): a node per client followed, the late cycles and their
 * causes, times relative to base_ns. server names the graph's driver.
 */
void al_clients_blame(struct al_clients *c, struct al_graph *g, const char *server,
		      int64_t base_ns);

/* Events decoded so far; runs closed; events lost (kernel pages). */
uint64_t al_clients_events(const struct al_clients *c);

/* Stop tracing and remove the instance. Safe with NULL. */
void al_clients_close(struct al_clients *c);

#endif
