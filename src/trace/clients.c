/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JACK blame's analysis (clients.h, docs/jack.md): the events of the
 * clients' threads and of the IRQs, softirqs and vector interrupts on
 * their CPUs, replayed in time order (clients-tracefs.c records and reads
 * them), make each thread's runs; matched to the server's cycles, a run
 * that had not ended by its cycle's deadline makes that cycle late and its
 * client a cause, and what held its CPU (tasks, IRQs, softirqs) causes
 * beside it. No tracefs call here.
 */
#define AL_TRACE_PRIVATE_ALLOWED
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "clients-private.h"
#include "clients.h"
#include "trace-private.h"

uint64_t
al_clients_events(const struct al_clients *c)
{
	return c ? c->events : 0;
}

int
al__clients_node_of(struct al_clients *c, const struct al_task *t)
{
	struct al_graph_node *n;
	int i;

	for (i = 0; i < c->g.n_nodes; i++)
		if (!strcmp(c->g.nodes[i].name, t->client))
			return i;
	if (c->g.n_nodes >= AL_GRAPH_NODES) {
		c->g.nodes_dropped++;
		return -1;
	}
	n = &c->g.nodes[c->g.n_nodes];
	memset(n, 0, sizeof(*n));
	n->id = (uint32_t)t->pid;
	snprintf(n->name, sizeof(n->name), "%s", t->client);
	n->self = t->self;
	if (t->self)
		c->g.self_id = (uint32_t)t->pid;
	al_hist_init(&n->wait_ns);
	al_hist_init(&n->busy_ns);
	return c->g.n_nodes++;
}

void
al_clients_cycle(struct al_clients *c, int64_t boundary_ns, int64_t period_ns)
{
	if (!c || period_ns <= 0)
		return;
	if (c->n_cycles && c->cycles[(c->n_cycles - 1) % CYCLES_RING].boundary_ns >= boundary_ns)
		return;
	c->cycles[c->n_cycles++ % CYCLES_RING] = (struct cycle){ boundary_ns, period_ns };
	c->g.cycles++;
}

/* The cycle a thread woken at wake_ns ran for: the last boundary at or before it (a little slack). */
static const struct cycle *
cycle_of(const struct al_clients *c, int64_t wake_ns)
{
	uint64_t lo, hi, kept = c->n_cycles < CYCLES_RING ? c->n_cycles : CYCLES_RING;
	const struct cycle *cy;

	if (!kept)
		return NULL;
	lo = c->n_cycles - kept;
	hi = c->n_cycles;
	/* the first whose boundary is past wake + slack */
	while (lo < hi) {
		uint64_t mid = lo + (hi - lo) / 2;

		cy = &c->cycles[mid % CYCLES_RING];
		if (cy->boundary_ns <= wake_ns + cy->period_ns / EARLY_DIV)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo == c->n_cycles - kept)
		return NULL; /* before every cycle kept */
	cy = &c->cycles[(lo - 1) % CYCLES_RING];
	/* a wake-up more than a cycle after the last boundary: no cycle of ours (yet) */
	if (wake_ns - cy->boundary_ns > 2 * cy->period_ns)
		return NULL;
	return cy;
}

/* The late cycle that began at boundary_ns, kept in the order they began. */
static struct al_late_cycle *
late_of(struct al_graph *g, const struct cycle *cy)
{
	struct al_late_cycle *lc;
	size_t i = g->n_late;

	while (i > 0 && g->late[i - 1].start_ns > cy->boundary_ns)
		i--;
	if (i > 0 && g->late[i - 1].start_ns == cy->boundary_ns)
		return &g->late[i - 1];
	if (g->n_late >= AL_GRAPH_LATE_MAX) {
		g->late_dropped++;
		return NULL;
	}
	memmove(&g->late[i + 1], &g->late[i], (g->n_late - i) * sizeof(g->late[0]));
	g->n_late++;
	g->incomplete++;
	lc = &g->late[i];
	memset(lc, 0, sizeof(*lc));
	lc->start_ns = cy->boundary_ns;
	lc->due_ns = cy->boundary_ns;
	lc->quantum_ns = cy->period_ns;
	lc->kind = AL_LATE_OVERRUN;
	return lc;
}

/*
 * A client woken more than half a period after the boundary: the server
 * began the cycle (or signalled the graph) late. The driver is a cause,
 * begun by the earliest such wake-up seen.
 */
static void
late_start(struct al_clients *c, struct al_late_cycle *lc, int64_t late_ns)
{
	int k;

	for (k = 0; k < lc->n_causes && !lc->causes[k].driver; k++)
		;
	if (k < lc->n_causes) {
		if (late_ns < lc->causes[k].wait_ns)
			lc->causes[k].wait_ns = late_ns;
		return;
	}
	lc->kind |= AL_LATE_START;
	c->g.late_starts++;
	lc->n_blamed++;
	if (lc->n_causes >= AL_GRAPH_CAUSES)
		return;
	lc->causes[lc->n_causes] = (struct al_graph_cause){
		.status = AL_NODE_TRIGGERED, .wait_ns = late_ns, .driver = true,
	};
	lc->n_causes++; /* named after the server by al_clients_blame() */
}

/* ns more of what held th's CPU in this run (a task by pid, an IRQ or softirq by id and name). */
static void
pre_add(struct thr *th, int kind, int id, const char *name, int64_t ns)
{
	int i;

	for (i = 0; i < th->n_pre; i++)
		if (th->pre[i].kind == kind && th->pre[i].pid == id &&
		    (kind == AL_CAUSE_TASK || !strcmp(th->pre[i].comm, name)))
			break;
	if (i == th->n_pre) {
		if (th->n_pre == PREEMPTORS)
			return;
		th->pre[i] = (struct preemptor){ .kind = kind, .pid = id };
		snprintf(th->pre[i].comm, sizeof(th->pre[i].comm), "%s", name);
		th->n_pre++;
	}
	th->pre[i].ns += ns;
}

/*
 * th was off its CPU since th->off_ns, held by th->off_pid: count it in
 * the run, less what the IRQs and softirqs on that CPU took meanwhile
 * (charged to them).
 */
static void
preempted_until(struct thr *th, int64_t ts_ns)
{
	int64_t ns = ts_ns - th->off_ns - th->off_irq_ns;

	th->off_irq_ns = 0;
	if (th->off_pid <= 0 || ns <= 0)
		return; /* idle, or nothing */
	pre_add(th, AL_CAUSE_TASK, th->off_pid, th->off_comm, ns);
}

/* The CPU whose IRQs and softirqs hold th up now: its own, the one woken onto, -1. */
static int
thr_cpu(const struct thr *th)
{
	if (th->state == T_WOKEN || th->state == T_RUNNING)
		return th->cpu;
	return th->state == T_PREEMPTED ? th->off_cpu : -1;
}

static struct cpu_irqs *
cpu_of(struct al_clients *c, int cpu)
{
	return cpu >= 0 && cpu < CPUS_MAX ? &c->cpus[cpu] : NULL;
}

/*
 * The innermost section open on cpu, up to ts_ns: charged to each thread
 * that waits for that CPU or runs on it (since it began to, irq_mark_ns).
 * Called before anything changes on the CPU or in such a thread's state.
 */
static void
irq_charge(struct al_clients *c, int cpu, int64_t ts_ns)
{
	struct cpu_irqs *ci = cpu_of(c, cpu);
	const struct section *sec;
	int64_t from_ns;
	int i;

	if (!ci)
		return;
	if (ci->depth > 0 && ts_ns > ci->since_ns) {
		sec = &ci->s[ci->depth - 1];
		for (i = 0; i < c->n_thr; i++) {
			struct thr *th = &c->thr[i];

			from_ns = ci->since_ns > th->irq_mark_ns ? ci->since_ns : th->irq_mark_ns;
			if (thr_cpu(th) != cpu || ts_ns <= from_ns)
				continue;
			pre_add(th, sec->kind, sec->id, sec->name, ts_ns - from_ns);
			if (th->state == T_PREEMPTED)
				th->off_irq_ns += ts_ns - from_ns;
			th->irq_mark_ns = ts_ns;
		}
	}
	if (ts_ns > ci->since_ns)
		ci->since_ns = ts_ns;
}

/* An IRQ, softirq or vector entered or left on its CPU. */
static void
irq_event(struct al_clients *c, const struct cev *e)
{
	struct cpu_irqs *ci = cpu_of(c, e->cpu);
	struct section *sec;
	char vbuf[16];
	int i, id = e->type == EV_VEC || e->type == EV_VEC_EXIT ? -1 : e->a;

	if (!ci)
		return;
	irq_charge(c, e->cpu, e->ts_ns);
	if (e->type == EV_IRQ || e->type == EV_SOFTIRQ || e->type == EV_VEC) {
		if (ci->depth == SECTIONS) {
			ci->ignored++;
			return;
		}
		sec = &ci->s[ci->depth++];
		sec->kind = e->type == EV_SOFTIRQ ? AL_CAUSE_SOFTIRQ : AL_CAUSE_IRQ;
		sec->id = id;
		sec->exit = (uint8_t)(e->type + 1);
		snprintf(sec->name, sizeof(sec->name), "%s",
			 e->type == EV_SOFTIRQ ? al__softirq_name(e->a, vbuf, sizeof(vbuf)) : e->comm);
		return;
	}
	if (ci->ignored) {
		ci->ignored--;
		return;
	}
	/* the innermost it ends (and what was left open above it); an exit without entry: none */
	for (i = ci->depth; i > 0; i--)
		if (ci->s[i - 1].exit == e->type && ci->s[i - 1].id == id &&
		    (id >= 0 || !strcmp(ci->s[i - 1].name, e->comm))) {
			ci->depth = i - 1;
			return;
		}
}

/*
 * The tasks, IRQs and softirqs that held the thread's CPU longest in its
 * run (two): causes of their own. When the cycle's causes are full, one
 * takes the place of the shortest such cause kept (of any thread) if it
 * held its CPU longer: those kept are the longest.
 */
static void
add_preemptors(struct al_late_cycle *lc, const struct thr *th)
{
	const struct preemptor *best;
	bool used[PREEMPTORS] = { false };
	int i, k, r;

	for (r = 0; r < 2; r++) {
		best = NULL;
		for (i = 0; i < th->n_pre; i++)
			if (!used[i] && th->pre[i].ns >= PREEMPT_MIN_NS && (!best || th->pre[i].ns > best->ns))
				best = &th->pre[i];
		if (!best)
			return;
		used[best - th->pre] = true;
		for (k = 0; k < lc->n_causes; k++)
			if (lc->causes[k].status == AL_NODE_PREEMPTING && lc->causes[k].kind == best->kind &&
			    (int)lc->causes[k].id == best->pid &&
			    (best->kind == AL_CAUSE_TASK || !strcmp(lc->causes[k].name, best->comm)))
				break;
		if (k < lc->n_causes) {
			if (best->ns > lc->causes[k].busy_ns)
				lc->causes[k].busy_ns = best->ns;
			continue;
		}
		lc->n_blamed++;
		if (lc->n_causes < AL_GRAPH_CAUSES) {
			k = lc->n_causes++;
		} else {
			/* full: in place of the shortest of what held a CPU, when this held it longer */
			for (i = 0, k = -1; i < lc->n_causes; i++)
				if (lc->causes[i].status == AL_NODE_PREEMPTING &&
				    (k < 0 || lc->causes[i].busy_ns < lc->causes[k].busy_ns))
					k = i;
			if (k < 0 || lc->causes[k].busy_ns >= best->ns)
				continue;
		}
		lc->causes[k] = (struct al_graph_cause){
			.id = (uint32_t)best->pid, .status = AL_NODE_PREEMPTING, .wait_ns = -1,
			.busy_ns = best->ns, .kind = best->kind,
		};
		snprintf(lc->causes[k].name, sizeof(lc->causes[0].name), "%s", best->comm);
	}
}

/* A run of thread th ended at finish_ns: its node's WAIT/BUSY; a late cycle when past the deadline. */
static void
run_closed(struct al_clients *c, struct thr *th, int64_t finish_ns)
{
	const struct cycle *cy = cycle_of(c, th->wake_ns);
	struct al_graph_node *n = th->node >= 0 ? &c->g.nodes[th->node] : NULL;
	struct al_late_cycle *lc;
	struct al_graph_cause cause;
	int64_t deadline_ns, held_ns, own_ns;
	int k;

	if (!cy || !n) {
		c->runs_unmatched++;
		return;
	}
	/* its switch in was not seen (lost, or before the filter): on the CPU since woken */
	if (th->awake_ns < th->wake_ns || th->awake_ns > finish_ns)
		th->awake_ns = th->wake_ns;
	c->runs++;
	n->runs++;
	al_hist_add(&n->wait_ns, th->awake_ns - th->wake_ns);
	al_hist_add(&n->busy_ns, finish_ns - th->awake_ns);
	deadline_ns = cy->boundary_ns + cy->period_ns;
	if (finish_ns <= deadline_ns)
		return;
	n->unfinished++;
	lc = late_of(&c->g, cy);
	if (!lc)
		return;
	if (finish_ns - deadline_ns > lc->late_ns)
		lc->late_ns = finish_ns - deadline_ns;
	if (!lc->end_ns || finish_ns > lc->end_ns)
		lc->end_ns = finish_ns;
	if (th->wake_ns - cy->boundary_ns > cy->period_ns / 2)
		late_start(c, lc, th->wake_ns - cy->boundary_ns);
	memset(&cause, 0, sizeof(cause));
	cause.id = n->id;
	snprintf(cause.name, sizeof(cause.name), "%s", n->name);
	/*
	 * running: on a CPU by the deadline, and its own run past it (woken
	 * when it was, its run alone would have ended late). A run that would
	 * have fitted after its wake-up but waited for a CPU first (a
	 * well-behaved client woken on time, kept off the CPU 2.8 ms by what
	 * the guest cannot see, a VM's steal) was late by that wait:
	 * triggered, with whatever held its CPU. Its own run is its time on
	 * the CPU: less what the trace saw hold its CPU meanwhile (jackd
	 * preempting the well-behaved client for 2.96 ms of its 2.87 ms
	 * "run", on a loaded VM).
	 */
	held_ns = 0;
	for (k = 0; k < th->n_pre; k++)
		held_ns += th->pre[k].ns;
	own_ns = finish_ns - th->awake_ns - held_ns;
	if (own_ns < 0)
		own_ns = 0;
	cause.status = th->awake_ns <= deadline_ns && th->wake_ns + own_ns > deadline_ns
			       ? AL_NODE_AWAKE
			       : AL_NODE_TRIGGERED;
	cause.wait_ns = th->awake_ns - th->wake_ns;
	cause.busy_ns = finish_ns - th->awake_ns;
	cause.self = n->self;
	for (k = 0; k < lc->n_causes; k++)
		if (lc->causes[k].id == cause.id && !strcmp(lc->causes[k].name, cause.name)) {
			if (cause.busy_ns > lc->causes[k].busy_ns)
				lc->causes[k] = cause;
			return;
		}
	lc->n_blamed++;
	if (!c->node_blamed[th->node] || c->node_blamed_start_ns[th->node] != lc->start_ns) {
		n->blamed++;
		c->node_blamed[th->node] = true;
		c->node_blamed_start_ns[th->node] = lc->start_ns;
	}
	if (lc->n_causes < AL_GRAPH_CAUSES)
		lc->causes[lc->n_causes++] = cause;
	add_preemptors(lc, th);
}

static struct thr *
thr_of(struct al_clients *c, int tid)
{
	int i;

	if (tid <= 0)
		return NULL;
	for (i = 0; i < c->n_thr; i++)
		if (c->thr[i].task.tid == tid)
			return &c->thr[i];
	return NULL;
}

/* th's state changes at ts_ns: what the sections of the CPU it paid for held it until then. */
static void
irq_flush(struct al_clients *c, struct thr *th, int64_t ts_ns)
{
	irq_charge(c, thr_cpu(th), ts_ns);
	th->irq_mark_ns = ts_ns;
}

static const char *const ev_names[EV_TYPES] = {
	[EV_SWITCH] = "switch", [EV_WAKING] = "waking", [EV_IRQ] = "irq", [EV_IRQ_EXIT] = "irq_exit",
	[EV_SOFTIRQ] = "softirq", [EV_SOFTIRQ_EXIT] = "softirq_exit", [EV_VEC] = "vector",
	[EV_VEC_EXIT] = "vector_exit",
};

/* A switch on e->cpu: the tasks and threads it concerns (replay()). */
static void
replay_switch(struct al_clients *c, const struct cev *e)
{
	struct cpu_irqs *ci = cpu_of(c, e->cpu);
	struct thr *th;

	/* no IRQ or softirq section spans a switch: those left open ended by now */
	irq_charge(c, e->cpu, e->ts_ns);
	if (ci)
		ci->depth = ci->ignored = 0;
	/*
	 * A switch on the CPU a preempted thread waits on (the filter keeps
	 * every switch of a real-time task): the task leaving held it until now.
	 */
	for (int i = 0; i < c->n_thr; i++) {
		struct thr *w = &c->thr[i];

		if (w->state != T_PREEMPTED || w->off_cpu != e->cpu || w->task.tid == e->b)
			continue;
		preempted_until(w, e->ts_ns);
		w->off_ns = e->ts_ns;
		w->off_pid = e->b;
		snprintf(w->off_comm, sizeof(w->off_comm), "%.15s", e->comm);
	}
	th = thr_of(c, e->a);
	if (th) {
		irq_flush(c, th, e->ts_ns);
		/* switched out: runnable (preempted, R/R+) or blocked (its cycle's work done) */
		if ((e->prev_state & 0xff) == 0) {
			th->state = T_PREEMPTED;
			th->off_ns = e->ts_ns;
			th->off_pid = e->b;
			th->off_cpu = e->cpu;
			th->off_irq_ns = 0;
			snprintf(th->off_comm, sizeof(th->off_comm), "%.15s", e->comm);
		} else if (th->seen && th->state != T_BLOCKED) {
			run_closed(c, th, e->ts_ns);
			th->state = T_BLOCKED;
		} else {
			th->state = T_BLOCKED;
		}
		th->seen = true;
	}
	th = thr_of(c, e->b);
	if (th) {
		irq_flush(c, th, e->ts_ns);
		if (th->state == T_WOKEN) {
			th->awake_ns = e->ts_ns;
		} else if (th->state == T_BLOCKED) {
			/* its waking was not seen (before the filter): from here */
			th->wake_ns = th->awake_ns = e->ts_ns;
			th->n_pre = 0;
		} else if (th->state == T_PREEMPTED) {
			preempted_until(th, e->ts_ns);
		}
		th->state = T_RUNNING;
		th->cpu = e->cpu;
		th->seen = true;
	}
}

/* One event, in time order: the thread's state; a run closes when it blocks. */
static void
replay(struct al_clients *c, const struct cev *e)
{
	struct thr *th;

	if (c->dump)
		fprintf(c->dump, "%lld %s %d %d %d %llx %s\n", (long long)e->ts_ns,
			e->type < EV_TYPES && ev_names[e->type] ? ev_names[e->type] : "?", e->cpu, e->a,
			e->b, (unsigned long long)e->prev_state, e->comm);
	if (e->type == EV_WAKING) {
		th = thr_of(c, e->a);
		if (th && th->state == T_BLOCKED) {
			irq_flush(c, th, e->ts_ns);
			th->state = T_WOKEN;
			th->wake_ns = e->ts_ns;
			th->cpu = e->target;
			th->n_pre = 0;
		}
		if (th)
			th->seen = true;
		return;
	}
	if (e->type == EV_SWITCH)
		replay_switch(c, e);
	else if (e->type > EV_WAKING && e->type < EV_TYPES)
		irq_event(c, e);
}

static int
cev_cmp(const void *a, const void *b)
{
	const struct cev *x = a, *y = b;

	/* the same nanosecond: in the order read (an IRQ's exit before the softirq it raised) */
	if (x->ts_ns != y->ts_ns)
		return x->ts_ns < y->ts_ns ? -1 : 1;
	return x->seq < y->seq ? -1 : x->seq > y->seq;
}

void
al__clients_replay_pending(struct al_clients *c, int64_t now_ns)
{
	size_t i, k;

	if (c->n_pend)
		qsort(c->pend, c->n_pend, sizeof(c->pend[0]), cev_cmp);
	for (i = 0; i < c->n_pend && (!now_ns || c->pend[i].ts_ns < now_ns - HOLD_NS); i++) {
		if (c->pend[i].ts_ns < c->last_ts_ns) {
			c->disordered++; /* older than what was replayed: its order is lost */
			continue;
		}
		c->last_ts_ns = c->pend[i].ts_ns;
		replay(c, &c->pend[i]);
	}
	for (k = 0; i < c->n_pend; i++, k++)
		c->pend[k] = c->pend[i];
	c->n_pend = k;
}

void
al_clients_blame(struct al_clients *c, struct al_graph *g, const char *server, int64_t base_ns)
{
	size_t len;
	int i;

	if (!c)
		return;
	memcpy(g, &c->g, sizeof(*g));
	snprintf(g->source, sizeof(g->source), "jack-trace");
	g->active = c->n_thr > 0 && c->runs > 0;
	snprintf(g->driver_name, sizeof(g->driver_name), "%s", server ? server : "");
	len = (size_t)snprintf(g->note, sizeof(g->note), "threads followed:");
	for (i = 0; i < c->n_thr && len < sizeof(g->note); i++)
		len += (size_t)snprintf(g->note + len, sizeof(g->note) - len, " %s (tid %d)",
					c->thr[i].task.client, c->thr[i].task.tid);
	if (!c->n_thr)
		snprintf(g->note, sizeof(g->note), "no thread of a client was found to follow");
	if ((c->dropped || c->disordered) && len < sizeof(g->note))
		snprintf(g->note + len, sizeof(g->note) - len, "; %llu events dropped, %llu out of order",
			 (unsigned long long)c->dropped, (unsigned long long)c->disordered);
	for (size_t l = 0; l < g->n_late; l++)
		for (i = 0; i < g->late[l].n_causes; i++)
			if (g->late[l].causes[i].driver)
				snprintf(g->late[l].causes[i].name, sizeof(g->late[l].causes[i].name),
					 "%s", g->driver_name);
	al_graph_finish(g, base_ns);
}
