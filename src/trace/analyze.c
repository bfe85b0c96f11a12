/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The analysis of one late wake-up, in the spirit of rtla timerlat's
 * auto-analysis: replay the CPU's events from the last context switch
 * before the period boundary, keep a stack of what runs (the task, and
 * IRQs, softirqs, vectors and timer callbacks on top of it), and charge
 * the time between events to whatever was on top of the stack.
 */
#define AL_TRACE_PRIVATE_ALLOWED
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "trace-private.h"

enum src_kind { K_TASK, K_SELF, K_IDLE, K_IRQ, K_SOFTIRQ, K_TIMER, K_IRQOFF, K_PREEMPTOFF, K_OTHER };

static const char *const kind_names[] = {
	[K_TASK] = "task",       [K_SELF] = "self",       [K_IDLE] = "idle",
	[K_IRQ] = "irq",         [K_SOFTIRQ] = "softirq", [K_TIMER] = "timer",
	[K_IRQOFF] = "irqoff",   [K_PREEMPTOFF] = "preemptoff", [K_OTHER] = "other",
};

#define SOURCES_MAX 64
#define STACK_MAX 16
#define LOOKAHEAD_MAX 4096

struct source {
	enum src_kind kind;
	int pid;
	uint64_t addr;
	char name[32];
	int64_t duration_ns;
};

/* What runs: the task at depth 0, interrupt-like contexts above it. */
struct ctx {
	enum src_kind kind;
	int pid;
	uint64_t addr;
	char name[32];
	uint8_t exit_type;    /* the event that ends this context */
};

struct state {
	int64_t from_ns, end_ns;
	int tid;
	struct source src[SOURCES_MAX + 1]; /* + "other", appended at the end */
	int n_src;
	struct source other;
	struct ctx stack[STACK_MAX];
	int depth;            /* entries above the task */
	int ignored;          /* pushes past STACK_MAX, popped first */
};

void
al__tev_push(struct al_tev_ring *r, const struct al_tev *e)
{
	r->ev[r->head] = *e;
	r->head = (r->head + 1) % r->cap;
	if (r->n < r->cap)
		r->n++;
	else
		r->evicted++;
}

const char *
al__softirq_name(int vec, char *buf, size_t size)
{
	static const char *const names[] = { "HI",      "TIMER",   "NET_TX", "NET_RX",
					     "BLOCK",   "IRQ_POLL", "TASKLET", "SCHED",
					     "HRTIMER", "RCU" };

	if (vec >= 0 && vec < (int)(sizeof(names) / sizeof(names[0])))
		return names[vec];
	snprintf(buf, size, "softirq-%d", vec);
	return buf;
}

static void
copy_name(char *dst, size_t size, const char *src)
{
	size_t n = strnlen(src, size - 1);

	memcpy(dst, src, n);
	dst[n] = '\0';
}

static void
set_task(struct ctx *c, const struct state *st, int pid, const char *comm)
{
	memset(c, 0, sizeof(*c));
	c->pid = pid;
	c->kind = pid == st->tid ? K_SELF : pid == 0 ? K_IDLE : K_TASK;
	copy_name(c->name, sizeof(c->name), comm);
}

static struct source *
find_source(struct state *st, enum src_kind kind, int pid, uint64_t addr, const char *name)
{
	struct source *s;
	int i;

	for (i = 0; i < st->n_src; i++) {
		s = &st->src[i];
		if (s->kind != kind || s->pid != pid || s->addr != addr)
			continue;
		/* tasks keep their first comm (exec may change it); others differ by name */
		if (kind == K_TASK || kind == K_SELF || kind == K_IDLE) {
			if (!s->name[0]) /* charged before its comm was seen */
				copy_name(s->name, sizeof(s->name), name);
			return s;
		}
		if (!strncmp(s->name, name, sizeof(s->name)))
			return s;
	}
	if (st->n_src == SOURCES_MAX)
		return &st->other;
	s = &st->src[st->n_src++];
	s->kind = kind;
	s->pid = pid;
	s->addr = addr;
	copy_name(s->name, sizeof(s->name), name);
	s->duration_ns = 0;
	return s;
}

/* The part of [a, b] inside the window. */
static int64_t
overlap(const struct state *st, int64_t a, int64_t b)
{
	if (a < st->from_ns)
		a = st->from_ns;
	if (b > st->end_ns)
		b = st->end_ns;
	return b > a ? b - a : 0;
}

static void
charge(struct state *st, const struct ctx *c, int64_t a, int64_t b)
{
	int64_t d = overlap(st, a, b);

	if (d)
		find_source(st, c->kind, c->pid, c->addr, c->name)->duration_ns += d;
}

static void
charge_overlay(struct state *st, enum src_kind kind, const char *name, int64_t a, int64_t b)
{
	int64_t d = overlap(st, a, b);
	int64_t window_ns = st->end_ns - st->from_ns;
	struct source *src;

	if (!d)
		return;
	/*
	 * Sections of one kind never overlap each other in a sane trace; a
	 * damaged one (out-of-order stamps) must still not exceed the window.
	 */
	src = find_source(st, kind, -1, 0, name);
	src->duration_ns = src->duration_ns + d > window_ns ? window_ns : src->duration_ns + d;
}

static void
push(struct state *st, enum src_kind kind, int pid, uint64_t addr, const char *name,
     uint8_t exit_type)
{
	struct ctx *c;

	if (st->depth == STACK_MAX - 1) {
		st->ignored++;
		return;
	}
	c = &st->stack[++st->depth];
	c->kind = kind;
	c->pid = pid;
	c->addr = addr;
	c->exit_type = exit_type;
	copy_name(c->name, sizeof(c->name), name);
}

/* End the innermost context that this exit event ends (and anything left open above it). */
static void
pop(struct state *st, uint8_t exit_type)
{
	int i;

	if (st->ignored) {
		st->ignored--;
		return;
	}
	for (i = st->depth; i >= 1; i--)
		if (st->stack[i].exit_type == exit_type) {
			st->depth = i - 1;
			return;
		}
	/* an exit without its entry (it was before the replay): nothing to end */
}

static int
cmp_source(const void *a, const void *b)
{
	const struct source *x = a, *y = b;

	if (x->duration_ns != y->duration_ns)
		return x->duration_ns > y->duration_ns ? -1 : 1;
	if (x->kind != y->kind)
		return x->kind < y->kind ? -1 : 1;
	if (x->pid != y->pid)
		return x->pid < y->pid ? -1 : 1;
	return strncmp(x->name, y->name, sizeof(x->name));
}

/*
 * The waking (or wakeup) of pid among the events before event i, back to
 * the last switch: one IRQ often wakes several tasks, so the last waking
 * seen need not be the task that then ran. NULL when there is none.
 */
static const struct al_tev *
woken_since_switch(const struct al_tev_ring *r, size_t i, int pid)
{
	const struct al_tev *e;
	size_t n;

	for (n = 0; i-- > 0 && n < LOOKAHEAD_MAX; n++) {
		e = al__tev_at(r, i);
		if (e->type == AL_TEV_SWITCH || e->type == AL_TEV_LOST)
			return NULL;
		if ((e->type == AL_TEV_WAKING || e->type == AL_TEV_WAKEUP) && e->pid == pid)
			return e;
	}
	return NULL;
}

/*
 * An event says another task runs (common_pid) than the last switch did:
 * the kernel did not deliver a switch (it happens: an idle CPU switching
 * to a woken RT task, seen on 6.18). Whatever was open ended with the old
 * task. The switch happened somewhere since the previous event: right
 * after it when the new task had been woken by then (it then ran at
 * once), else it is charged to the old task up to now. Returns the time
 * charged up to.
 */
static int64_t
missed_switch(const struct al_tev_ring *r, size_t i, struct state *st, const struct al_tev *e,
	      int64_t last_ns)
{
	const struct al_tev *woke = woken_since_switch(r, i, e->prev_pid);
	bool woken = woke && woke->ts_ns <= last_ns;

	if (!woken && e->ts_ns > last_ns) {
		charge(st, &st->stack[st->depth], last_ns, e->ts_ns);
		last_ns = e->ts_ns;
	}
	st->depth = 0;
	st->ignored = 0;
	set_task(&st->stack[0], st, e->prev_pid,
		 e->type == AL_TEV_SWITCH ? e->prev_name : woke ? woke->name : "");
	return last_ns;
}

/* After lost events: who runs is what the next switch switches away from. */
static void
after_gap(const struct al_tev_ring *r, struct state *st, size_t i)
{
	const struct al_tev *e;
	size_t n;

	for (n = 0; i < r->n && n < LOOKAHEAD_MAX; i++, n++) {
		e = al__tev_at(r, i);
		if (e->type == AL_TEV_SWITCH) {
			set_task(&st->stack[0], st, e->prev_pid, e->prev_name);
			return;
		}
		if (e->ts_ns > st->end_ns)
			break;
	}
	/* no switch soon: the task the next event interrupted (prev_pid is common_pid) */
	if (i < r->n && al__tev_at(r, i)->type != AL_TEV_LOST)
		set_task(&st->stack[0], st, al__tev_at(r, i)->prev_pid, "");
}

/* The first event at or after t_ns (r->n when none); times are non-decreasing. */
static size_t
lower_bound(const struct al_tev_ring *r, int64_t t_ns)
{
	size_t lo = 0, hi = r->n, mid;

	while (lo < hi) {
		mid = lo + (hi - lo) / 2;
		if (al__tev_at(r, mid)->ts_ns < t_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	return lo;
}

/*
 * Where to start the replay, and who ran then: the last switch at or
 * before the boundary (first is the first event after it).
 */
static size_t
replay_start(const struct al_tev_ring *r, struct state *st, size_t first, bool *known)
{
	const struct al_tev *e;
	size_t i;

	for (i = first; i-- > 0;) {
		e = al__tev_at(r, i);
		if (e->type == AL_TEV_SWITCH) {
			*known = true;
			set_task(&st->stack[0], st, e->pid, e->name);
			return i + 1;
		}
	}
	*known = false;
	/* no switch before the boundary: the first switch says who ran until then */
	for (i = first; i < r->n; i++) {
		e = al__tev_at(r, i);
		if (e->type == AL_TEV_SWITCH) {
			set_task(&st->stack[0], st, e->prev_pid, e->prev_name);
			return 0;
		}
	}
	e = al__tev_at(r, 0);
	set_task(&st->stack[0], st, e->prev_pid, "");
	return 0;
}

/* When thread tid was woken (its waking, else its wakeup) and switched in, in [from, to]. */
static void
find_wake(const struct al_tev_ring *r, size_t first, int64_t from_ns, int64_t to_ns, int tid,
	  int64_t *woken_ns, int64_t *switched_ns)
{
	int64_t woken = -1, wakeup = -1, switched = -1;
	const struct al_tev *e;
	size_t i;

	for (i = first; i < r->n; i++) {
		e = al__tev_at(r, i);
		if (e->ts_ns > to_ns)
			break;
		if (e->ts_ns < from_ns) /* out of order */
			continue;
		if (e->type == AL_TEV_SWITCH && e->pid == tid)
			switched = e->ts_ns;
	}
	for (i = first; i < r->n; i++) {
		e = al__tev_at(r, i);
		if (e->ts_ns > (switched >= 0 ? switched : to_ns))
			break;
		if (e->ts_ns < from_ns)
			continue;
		if (e->type == AL_TEV_WAKING && e->pid == tid)
			woken = e->ts_ns;
		else if (e->type == AL_TEV_WAKEUP && e->pid == tid)
			wakeup = e->ts_ns;
	}
	*woken_ns = woken >= 0 ? woken : wakeup;
	*switched_ns = switched;
}

/* Event i (e) in the replay: what runs on the CPU from now, the open overlays. */
static void
replay_event(const struct al_tev_ring *r, struct state *st, size_t i, const struct al_tev *e,
	     int64_t *irqoff_ns, int64_t *preemptoff_ns)
{
	char vbuf[16];

	switch (e->type) {
	case AL_TEV_SWITCH:
		st->depth = 0;
		st->ignored = 0;
		set_task(&st->stack[0], st, e->pid, e->name);
		break;
	case AL_TEV_IRQ_ENTRY:
		push(st, K_IRQ, e->pid, 0, e->name, AL_TEV_IRQ_EXIT);
		break;
	case AL_TEV_SOFTIRQ_ENTRY:
		push(st, K_SOFTIRQ, e->pid, 0, al__softirq_name(e->pid, vbuf, sizeof(vbuf)),
		     AL_TEV_SOFTIRQ_EXIT);
		break;
	case AL_TEV_VEC_ENTRY:
		push(st, K_IRQ, -1, 0, e->name, AL_TEV_VEC_EXIT);
		break;
	case AL_TEV_TIMER_ENTRY:
		push(st, K_TIMER, -1, e->addr, "", AL_TEV_TIMER_EXIT);
		break;
	case AL_TEV_IRQ_EXIT:
	case AL_TEV_SOFTIRQ_EXIT:
	case AL_TEV_VEC_EXIT:
	case AL_TEV_TIMER_EXIT:
		pop(st, e->type);
		break;
	case AL_TEV_IRQOFF:
		if (*irqoff_ns < 0)
			*irqoff_ns = e->ts_ns;
		break;
	case AL_TEV_IRQON:
		if (*irqoff_ns >= 0)
			charge_overlay(st, K_IRQOFF, "irqs-off", *irqoff_ns, e->ts_ns);
		*irqoff_ns = -1;
		break;
	case AL_TEV_PREEMPTOFF:
		if (*preemptoff_ns < 0)
			*preemptoff_ns = e->ts_ns;
		break;
	case AL_TEV_PREEMPTON:
		if (*preemptoff_ns >= 0)
			charge_overlay(st, K_PREEMPTOFF, "preempt-off", *preemptoff_ns,
				       e->ts_ns);
		*preemptoff_ns = -1;
		break;
	case AL_TEV_LOST:
		/* what runs after the gap: nothing open before it, the next switch's prev */
		st->depth = 0;
		st->ignored = 0;
		*irqoff_ns = *preemptoff_ns = -1;
		after_gap(r, st, i + 1);
		break;
	default:
		break;
	}
}

/*
 * Tasks charged before any event named them (after a missed switch or a
 * gap, or at the replay's start): the switch away from them, which comes
 * later, or a waking names them (events [from, to) of the ring).
 */
static void
name_tasks_from(const struct al_tev_ring *r, struct state *st, size_t from, size_t to)
{
	const struct al_tev *e;
	int k, left = 0;
	size_t i;

	for (k = 0; k < st->n_src; k++)
		left += st->src[k].kind == K_TASK && !st->src[k].name[0];
	for (i = from; left && i < to && i < r->n; i++) {
		e = al__tev_at(r, i);
		for (k = 0; k < st->n_src; k++) {
			struct source *s = &st->src[k];
			const char *name = NULL;

			if (s->kind != K_TASK || s->name[0])
				continue;
			if (e->type == AL_TEV_SWITCH && e->prev_pid == s->pid)
				name = e->prev_name;
			else if ((e->type == AL_TEV_SWITCH || e->type == AL_TEV_WAKING ||
				  e->type == AL_TEV_WAKEUP) && e->pid == s->pid)
				name = e->name;
			if (name && name[0]) {
				copy_name(s->name, sizeof(s->name), name);
				left--;
			}
		}
	}
}

/* The sources charged, longest first, into out's causes (and the timers' addresses). */
static void
emit_causes(struct state *st, struct al_spike *out, uint64_t timer_addr[AL_SPIKE_CAUSES])
{
	int k;

	qsort(st->src, (size_t)st->n_src, sizeof(st->src[0]), cmp_source);
	for (k = 0; k < st->n_src && out->n_causes < AL_SPIKE_CAUSES; k++) {
		const struct source *s = &st->src[k];
		struct al_cause *c;

		if (!s->duration_ns)
			continue;
		c = &out->causes[out->n_causes];
		copy_name(c->kind, sizeof(c->kind), kind_names[s->kind]);
		copy_name(c->name, sizeof(c->name), s->name);
		c->pid = s->pid;
		c->duration_ns = s->duration_ns;
		timer_addr[out->n_causes] = s->kind == K_TIMER ? s->addr : 0;
		out->n_causes++;
	}
}

int
al__trace_analyze(const struct al_tev_ring *r, int64_t from_ns, int64_t to_ns, int tid,
		  struct al_spike *out, uint64_t timer_addr[AL_SPIKE_CAUSES])
{
	int64_t last_ns, woken, switched, irqoff_ns = -1, preemptoff_ns = -1;
	struct state stbuf, *st = &stbuf;
	const struct al_tev *e;
	size_t i, start, first;
	bool known;

	memset(out, 0, sizeof(*out));
	memset(timer_addr, 0, sizeof(uint64_t) * AL_SPIKE_CAUSES);
	out->t_ns = from_ns;
	out->latency_ns = to_ns - from_ns;
	out->woken_ns = -1;
	out->switched_in_ns = -1;
	if (to_ns < from_ns)
		return -EINVAL;
	/* nothing recorded after the boundary yet, or the window is older than the history */
	if (!r->n || al__tev_at(r, r->n - 1)->ts_ns < from_ns || al__tev_at(r, 0)->ts_ns > to_ns)
		return -ENODATA;

	/* pass 1: when the thread was woken and when it got the CPU */
	first = lower_bound(r, from_ns);
	find_wake(r, first, from_ns, to_ns, tid, &woken, &switched);
	out->woken_ns = woken >= 0 ? woken - from_ns : -1;
	out->switched_in_ns = switched >= 0 ? switched - from_ns : -1;

	/* pass 2: replay and charge */
	memset(st, 0, sizeof(*st));
	st->from_ns = from_ns;
	st->end_ns = switched >= 0 ? switched : to_ns;
	st->tid = tid;
	st->other.kind = K_OTHER;
	st->other.pid = -1;
	start = replay_start(r, st, first, &known);
	last_ns = start ? al__tev_at(r, start - 1)->ts_ns : al__tev_at(r, 0)->ts_ns;
	if (!known && (r->evicted || last_ns > from_ns))
		out->truncated = true;
	for (i = start; i < r->n; i++) {
		e = al__tev_at(r, i);
		if (e->type == AL_TEV_LOST) {
			/* events were lost since the previous one: that time is nobody's */
			if (e->ts_ns >= from_ns && last_ns <= st->end_ns)
				out->truncated = true;
			if (e->ts_ns > last_ns)
				last_ns = e->ts_ns;
		} else {
			/* (a switch's prev_pid is the task it leaves: the one running too) */
			if (e->prev_pid != st->stack[0].pid)
				last_ns = missed_switch(r, i, st, e, last_ns);
			if (e->ts_ns > last_ns) {
				charge(st, &st->stack[st->depth], last_ns, e->ts_ns);
				last_ns = e->ts_ns;
			}
		}
		if (last_ns > st->end_ns)
			break;
		replay_event(r, st, i, e, &irqoff_ns, &preemptoff_ns);
	}
	if (last_ns < st->end_ns)
		charge(st, &st->stack[st->depth], last_ns, st->end_ns);
	if (irqoff_ns >= 0)
		charge_overlay(st, K_IRQOFF, "irqs-off", irqoff_ns, st->end_ns);
	if (preemptoff_ns >= 0)
		charge_overlay(st, K_PREEMPTOFF, "preempt-off", preemptoff_ns, st->end_ns);
	name_tasks_from(r, st, start > LOOKAHEAD_MAX ? start - LOOKAHEAD_MAX : 0, i + LOOKAHEAD_MAX);
	if (st->other.duration_ns) {
		copy_name(st->other.name, sizeof(st->other.name), "(more sources)");
		st->src[st->n_src++] = st->other;
	}

	if (out->truncated && !st->n_src)
		return -ENODATA; /* the window fell into lost events */
	emit_causes(st, out, timer_addr);
	return 0;
}
