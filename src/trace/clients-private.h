/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside src/trace: JACK blame's state (clients.h), shared by the analysis
 * of the events (clients.c: pure, driven by the unit test and the fuzz
 * target with made-up events) and the tracefs side that records and reads
 * them (clients-tracefs.c).
 */
#ifndef AL_TRACE_CLIENTS_PRIVATE_H
#define AL_TRACE_CLIENTS_PRIVATE_H

#ifndef AL_TRACE_PRIVATE_ALLOWED
#error "clients-private.h is for src/trace and its tests only"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "core/clock.h"
#include "core/graph.h"
#include "core/tasks.h"

struct tracefs_instance;
struct tep_handle;
struct tep_format_field;

#define CLIENTS_SUFFIX "-clients"
#define CYCLES_RING 4096            /* ~20 s of 5 ms cycles */
#define EVENTS_PENDING (256 * 1024) /* events read, not yet replayed */
/* events of several CPUs come in any order within this: replayed only when older */
#define HOLD_NS (100 * AL_NS_PER_MS)
/* a thread woken this far (of a period) before a boundary is the boundary's */
#define EARLY_DIV 4
#define FILTER_MAX 4096

enum { EV_SWITCH = 1, EV_WAKING, EV_IRQ, EV_IRQ_EXIT, EV_SOFTIRQ, EV_SOFTIRQ_EXIT, EV_VEC,
       EV_VEC_EXIT, EV_TYPES };

#define CEV_NAME 24

struct cev {
	int64_t ts_ns;
	int64_t prev_state;
	int32_t a;        /* switch: prev_pid; waking: pid; irq: its number; softirq: vector */
	int32_t b;        /* switch: next_pid */
	uint8_t type;
	int16_t cpu;
	int16_t target;   /* waking: the CPU it was woken onto (-1: not known) */
	char comm[CEV_NAME]; /* switch: next_comm; irq: the handler; vector: "local_timer" */
	uint64_t seq;     /* the order it was read in */
};

/*
 * The IRQ, softirq and vector sections open on one CPU (innermost last):
 * the time of the innermost is charged to a followed thread waiting for
 * that CPU or running on it. A switch on the CPU closes them all (none
 * spans one): an exit that was lost costs at most until then.
 */
#define CPUS_MAX 256
#define SECTIONS 4

struct section {
	int kind;          /* AL_CAUSE_IRQ, AL_CAUSE_SOFTIRQ */
	int id;            /* the IRQ number or softirq vector; -1: a vector interrupt */
	uint8_t exit;      /* the event that ends it */
	char name[CEV_NAME];
};

struct cpu_irqs {
	struct section s[SECTIONS];
	int depth;
	int ignored;       /* entries past SECTIONS, ended first */
	int64_t since_ns;  /* the innermost charged up to */
};

/* x86's vector interrupts recorded (they bypass irq_handler_entry): clients-tracefs.c */
#define N_VECTORS 7

enum { T_BLOCKED = 0, T_WOKEN, T_RUNNING, T_PREEMPTED };

#define PREEMPTORS 8          /* the tasks, IRQs and softirqs that held a thread's CPU, per run */
#define PREEMPT_MIN_NS (100 * AL_NS_PER_US) /* less is not named */

struct preemptor {
	int kind;           /* AL_CAUSE_* */
	int pid;            /* a task's pid; the IRQ number, softirq vector (-1: a vector) */
	char comm[CEV_NAME];
	int64_t ns;
};

struct thr {
	struct al_task task;
	int node;           /* index in g.nodes, -1: none */
	int state;
	int64_t wake_ns, awake_ns;
	bool seen;          /* an event of it was replayed */
	int64_t off_ns;     /* preempted: off its CPU since, and the task there since */
	int off_pid;        /* ... holding that CPU now */
	char off_comm[16];
	int off_cpu;
	int64_t off_irq_ns; /* ... of that, the IRQs' and softirqs' (charged to them) */
	int cpu;            /* running: its CPU; woken: the CPU it was woken onto (-1) */
	int64_t irq_mark_ns; /* the sections on its CPU charged to it up to */
	struct preemptor pre[PREEMPTORS]; /* this run's */
	int n_pre;
};

struct cycle {
	int64_t boundary_ns;
	int64_t period_ns;
};

struct al_clients {
	struct tracefs_instance *inst;
	char name[64];
	struct tep_handle *tep;
	int switch_id, waking_id;
	struct tep_format_field *f_prev_pid, *f_next_pid, *f_prev_state, *f_pid, *f_next_comm,
		*f_target;
	int ev_id[EV_TYPES];    /* the irq events' ids (-1: the kernel has none) */
	struct tep_format_field *f_irq, *f_irq_name, *f_irq_exit, *f_vec, *f_vec_exit;
	int vec_id[N_VECTORS][2]; /* entry, exit; -1: none */
	bool irqs;              /* the irq events are recorded */
	FILE *dump;             /* $AUDIOLAT_CLIENTS_DUMP: the events replayed, NULL */
	bool enabled;
	struct thr thr[AL_TASKS_MAX];
	int n_thr;
	struct cpu_irqs cpus[CPUS_MAX];
	struct cycle cycles[CYCLES_RING];
	uint64_t n_cycles;      /* pushed so far */
	struct cev *pend;       /* read, not yet replayed */
	size_t n_pend;
	uint64_t events, dropped, disordered, runs, runs_unmatched;
	int64_t last_ts_ns;
	struct al_graph g;      /* filled as runs close */
	/* the late cycle each node was last blamed in: a node counts once per cycle,
	 * whichever of its threads, even when the cycle's causes are full */
	bool node_blamed[AL_GRAPH_NODES];
	int64_t node_blamed_start_ns[AL_GRAPH_NODES];
};

/* The node of a client (one per client name), created on first use; -1: none kept. */
int al__clients_node_of(struct al_clients *c, const struct al_task *t);

/*
 * The events read (c->pend), sorted, replayed up to a little before
 * now_ns (0: all): those of several CPUs come in any order within HOLD_NS.
 */
void al__clients_replay_pending(struct al_clients *c, int64_t now_ns);

#endif
