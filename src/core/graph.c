/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Graph blame (graph.h): the runs of each node and the late cycles, from profiler points. */
#include <stdio.h>
#include <string.h>

#include "clock.h"
#include "graph.h"

/* how long before its clock's time a cycle may begin: a driver's estimate of it */
#define START_SLACK_NS (500 * AL_NS_PER_US)

const char *
al_node_status_name(int status)
{
	switch (status) {
	case AL_NODE_NOT_TRIGGERED:
		return "waiting";   /* for its inputs */
	case AL_NODE_TRIGGERED:
		return "triggered"; /* signalled, not running */
	case AL_NODE_AWAKE:
		return "running";
	case AL_NODE_FINISHED:
		return "finished";
	case AL_NODE_INACTIVE:
		return "inactive";
	case AL_NODE_PREEMPTING:
		return "preempting";
	default:
		return "unknown";
	}
}

const char *
al_cause_kind_name(int kind)
{
	return kind == AL_CAUSE_IRQ ? "irq" : kind == AL_CAUSE_SOFTIRQ ? "softirq" : "task";
}

void
al_graph_init(struct al_graph *g, uint32_t self_id, int64_t late_start_ns)
{
	memset(g, 0, sizeof(*g));
	g->self_id = self_id;
	g->late_start_ns = late_start_ns > 0 ? late_start_ns : AL_NS_PER_MS;
	al_hist_init(&g->driver_start_ns);
}

void
al_graph_window(struct al_graph *g, int64_t t0_ns, int64_t t1_ns)
{
	g->t0_ns = t0_ns;
	g->t1_ns = t1_ns;
}

static struct al_graph_node *
node_of(struct al_graph *g, const struct al_graph_block *b)
{
	struct al_graph_node *n;
	int i;

	for (i = 0; i < g->n_nodes; i++)
		if (g->nodes[i].id == b->id)
			return &g->nodes[i];
	if (g->n_nodes >= AL_GRAPH_NODES) {
		g->nodes_dropped++;
		return NULL;
	}
	n = &g->nodes[g->n_nodes++];
	memset(n, 0, sizeof(*n));
	n->id = b->id;
	snprintf(n->name, sizeof(n->name), "%s", b->name ? b->name : "");
	n->self = g->self_id && b->id == g->self_id;
	al_hist_init(&n->wait_ns);
	al_hist_init(&n->busy_ns);
	return n;
}

const struct al_graph_node *
al_graph_node_of(const struct al_graph *g, uint32_t id)
{
	int i;

	for (i = 0; i < g->n_nodes; i++)
		if (g->nodes[i].id == id)
			return &g->nodes[i];
	return NULL;
}

static bool
in_window(const struct al_graph *g, int64_t t_ns)
{
	return t_ns >= g->t0_ns && (!g->t1_ns || t_ns < g->t1_ns);
}

/* A run of node n closed: its histograms, and the late cycles waiting for its finish. */
static void
run_closed(struct al_graph *g, struct al_graph_node *n, int64_t signal_ns, int64_t awake_ns,
	   int64_t finish_ns, bool count)
{
	int i, k;

	if (count) {
		if (signal_ns > 0 && awake_ns >= signal_ns)
			al_hist_add(&n->wait_ns, awake_ns - signal_ns);
		al_hist_add(&n->busy_ns, finish_ns - awake_ns);
		n->runs++;
	}
	for (i = 0; i < g->n_pending;) {
		struct al_late_cycle *lc = &g->late[g->pending[i]];
		bool open = false;

		for (k = 0; k < lc->n_causes; k++) {
			struct al_graph_cause *c = &lc->causes[k];

			if (c->id == n->id && c->busy_open) {
				c->busy_ns = finish_ns - awake_ns;
				c->busy_open = false;
				if (finish_ns - (lc->due_ns + lc->quantum_ns) > lc->late_ns)
					lc->late_ns = finish_ns - (lc->due_ns + lc->quantum_ns);
			}
			open |= lc->causes[k].busy_open;
		}
		if (!open)
			g->pending[i] = g->pending[--g->n_pending];
		else
			i++;
	}
}

/* The node's part of one point: its runs (once each), how often it had not finished. */
static void
follower_runs(struct al_graph *g, const struct al_graph_block *b, bool count)
{
	struct al_graph_node *n = node_of(g, b);

	if (!n)
		return;
	if (b->status != AL_NODE_FINISHED && b->status != AL_NODE_INACTIVE && count)
		n->unfinished++;
	if (b->status == AL_NODE_AWAKE) {
		/*
		 * Running again, a later run than the open one: that one
		 * ended before this awake, at the finish the point still
		 * carries when it lies between (0.3.65 writes a run's finish
		 * before the next awake). Closed at the next finish seen, it
		 * would take in the runs between (a 1.2 ms run read 7.8 ms
		 * beside a late start on the VM).
		 */
		if (n->open_awake_ns && b->awake_ns > n->open_awake_ns) {
			int64_t a_ns = n->open_awake_ns;
			int64_t f_ns = b->finish_ns > a_ns && b->finish_ns <= b->awake_ns ? b->finish_ns
											: b->awake_ns;

			n->open_awake_ns = 0;
			n->seen_awake_ns = a_ns;
			run_closed(g, n, n->open_signal_ns, a_ns, f_ns, count);
		}
		/* running when the point was taken: open until a finish after it is seen */
		if (b->awake_ns > 0 && !n->open_awake_ns && b->awake_ns > n->seen_awake_ns) {
			n->open_awake_ns = b->awake_ns;
			n->open_signal_ns = b->signal_ns;
		}
		return;
	}
	if (b->status != AL_NODE_FINISHED)
		return;
	if (n->open_awake_ns && b->finish_ns > n->open_awake_ns) {
		/*
		 * The run that overran: it began where it was seen running and
		 * ends at the first finish after it -- or, when this point
		 * shows a later run (its awake after the open one's), by that
		 * run's awake: the finish is the later run's.
		 */
		int64_t a_ns = n->open_awake_ns;
		int64_t f_ns = b->awake_ns > a_ns && b->awake_ns < b->finish_ns ? b->awake_ns
									     : b->finish_ns;

		n->open_awake_ns = 0;
		n->seen_awake_ns = a_ns;
		run_closed(g, n, n->open_signal_ns, a_ns, f_ns, count);
		if (b->awake_ns > a_ns && b->awake_ns < b->finish_ns) {
			/* ... and the later run is a run of its own */
			n->seen_awake_ns = b->awake_ns;
			run_closed(g, n, b->signal_ns, b->awake_ns, b->finish_ns, count);
		}
		return;
	}
	if (b->awake_ns > n->seen_awake_ns && b->finish_ns >= b->awake_ns && b->awake_ns > 0) {
		n->seen_awake_ns = b->awake_ns;
		run_closed(g, n, b->signal_ns, b->awake_ns, b->finish_ns, count);
	}
}

/*
 * Was this follower a cause of the cycle that was due to end at
 * deadline_ns and began at start_ns? Running at the deadline (woke before
 * it, not finished by it), or signalled before it and not yet awake.
 */
static bool
is_cause(const struct al_graph_block *b, int64_t start_ns, int64_t deadline_ns, bool complete)
{
	bool signalled = b->signal_ns >= start_ns && b->signal_ns <= deadline_ns;

	if (!complete)
		return (b->status == AL_NODE_AWAKE && b->awake_ns <= deadline_ns) ||
		       (b->status == AL_NODE_TRIGGERED && b->signal_ns <= deadline_ns);
	/* a point of a cycle that completed late: who finished after the deadline */
	if (b->status != AL_NODE_FINISHED || b->finish_ns <= deadline_ns)
		return false;
	return (b->awake_ns >= start_ns && b->awake_ns <= deadline_ns) ||
	       (signalled && b->awake_ns > deadline_ns);
}

static struct al_late_cycle *
late_of(struct al_graph *g, int64_t start_ns, int64_t due_ns, int64_t quantum_ns)
{
	struct al_late_cycle *lc;

	if (g->n_late && g->late[g->n_late - 1].start_ns == start_ns)
		return &g->late[g->n_late - 1];
	if (g->n_late >= AL_GRAPH_LATE_MAX) {
		g->late_dropped++;
		return NULL;
	}
	lc = &g->late[g->n_late++];
	memset(lc, 0, sizeof(*lc));
	lc->start_ns = start_ns;
	lc->due_ns = due_ns;
	lc->quantum_ns = quantum_ns;
	return lc;
}

static void
add_cause(struct al_graph *g, struct al_late_cycle *lc, const struct al_graph_cause *c)
{
	struct al_graph_node *n;
	int k;

	for (k = 0; k < lc->n_causes; k++)
		if (lc->causes[k].id == c->id && lc->causes[k].driver == c->driver) {
			/* seen again (incomplete, then completed): the later word on it */
			if (!c->busy_open || lc->causes[k].busy_open)
				lc->causes[k] = *c;
			return;
		}
	lc->n_blamed++;
	for (k = 0; k < g->n_nodes; k++) {
		n = &g->nodes[k];
		if (n->id == c->id)
			n->blamed++;
	}
	if (lc->n_causes < AL_GRAPH_CAUSES)
		lc->causes[lc->n_causes++] = *c;
}

static void
keep_pending(struct al_graph *g, const struct al_late_cycle *lc)
{
	size_t idx = (size_t)(lc - g->late);
	int i;

	for (i = 0; i < g->n_pending; i++)
		if (g->pending[i] == idx)
			return;
	if (g->n_pending < AL_GRAPH_PENDING)
		g->pending[g->n_pending++] = idx;
}

/* The followers that had not finished by the deadline of a late cycle: its causes. */
static void
charge_followers(struct al_graph *g, const struct al_graph_point *p, struct al_late_cycle *lc,
		 int64_t start_ns, int64_t deadline_ns, bool complete, bool late_start)
{
	int i;

	for (i = 0; i < p->n_followers; i++) {
		const struct al_graph_block *b = &p->followers[i];
		const struct al_graph_node *n;
		struct al_graph_cause c = { .id = b->id, .status = b->status };

		if (!is_cause(b, start_ns, deadline_ns, complete))
			continue;
		/*
		 * A cycle the driver began late (a driver catching up
		 * after its server stopped runs them back to back): a
		 * node still waiting for the CPU in it waited for the
		 * driver's lateness, not its own.
		 */
		if (late_start && b->status == AL_NODE_TRIGGERED)
			continue;
		snprintf(c.name, sizeof(c.name), "%s", b->name ? b->name : "");
		c.self = g->self_id && b->id == g->self_id;
		if (b->status == AL_NODE_TRIGGERED) {
			c.wait_ns = -1;
			c.busy_ns = 0;
			c.busy_open = true;
		} else if (!complete) {
			/* still running: its finish comes in a later point */
			c.wait_ns = b->signal_ns > 0 ? b->awake_ns - b->signal_ns : -1;
			c.busy_ns = deadline_ns - b->awake_ns;
			c.busy_open = true;
		} else {
			c.status = b->awake_ns > deadline_ns ? AL_NODE_TRIGGERED : AL_NODE_AWAKE;
			c.wait_ns = b->awake_ns - b->signal_ns;
			c.busy_ns = b->finish_ns - b->awake_ns;
			if (b->finish_ns - deadline_ns > lc->late_ns)
				lc->late_ns = b->finish_ns - deadline_ns;
		}
		/* an open run seen before this point: its true awake */
		n = al_graph_node_of(g, b->id);
		if (c.busy_open && n && n->open_awake_ns && b->status == AL_NODE_AWAKE) {
			c.wait_ns = n->open_signal_ns > 0 ? n->open_awake_ns - n->open_signal_ns
							  : -1;
			c.busy_ns = deadline_ns - n->open_awake_ns;
		}
		add_cause(g, lc, &c);
	}
}

/*
 * When a cycle that began at start_ns was due: the clock's time (nsec), or
 * the last whole quantum back from it that came before the start (give or
 * take a driver's estimate's slack). A cycle never starts much before it
 * was due; one begun 4.1 ms into a 5.3 ms cycle was read, by the nearest
 * quantum, as due 1.2 ms after it began: late 0, and no late start.
 */
static int64_t
cycle_due(int64_t nsec, int64_t start_ns, int64_t q_ns)
{
	int64_t slack_ns = q_ns / 8 < START_SLACK_NS ? q_ns / 8 : START_SLACK_NS;

	if (start_ns < nsec - slack_ns)
		nsec -= q_ns * ((nsec - slack_ns - start_ns + q_ns - 1) / q_ns);
	return nsec;
}

/* The driver began lc late_ns after it was due: the cause, once. */
static void
driver_started_late(struct al_graph *g, struct al_late_cycle *lc, const struct al_graph_block *d,
		    int64_t late_ns)
{
	struct al_graph_cause c = { .id = d->id, .status = AL_NODE_TRIGGERED, .wait_ns = late_ns,
				    .driver = true };

	if (lc->kind & AL_LATE_START)
		return;
	snprintf(c.name, sizeof(c.name), "%s", d->name ? d->name : "");
	lc->kind |= AL_LATE_START;
	if (late_ns > lc->late_ns && !(lc->kind & AL_LATE_OVERRUN))
		lc->late_ns = late_ns;
	g->late_starts++;
	add_cause(g, lc, &c);
}

void
al_graph_add_point(struct al_graph *g, const struct al_graph_point *p)
{
	const struct al_graph_block *d = &p->driver;
	int64_t q_ns, start_ns, due_ns, deadline_ns, end_ns = 0;
	bool ours = !g->self_id || d->id == g->self_id, complete, count, new_cycle, late_start;
	struct al_late_cycle *lc = NULL;
	uint32_t xruns = 0;
	int i;

	for (i = 0; i < p->n_followers && !ours; i++)
		ours = p->followers[i].id == g->self_id;
	if (!ours || p->rate_hz <= 0 || p->duration_frames <= 0) {
		g->other_points++;
		return;
	}
	g->active = true;
	g->driver_id = d->id;
	snprintf(g->driver_name, sizeof(g->driver_name), "%s", d->name ? d->name : "");
	q_ns = al_frames_to_ns(p->duration_frames, p->rate_hz);
	/*
	 * The cycle the point describes. Completed: it began at the driver's
	 * signal and the graph completed at the driver's awake (its finish is
	 * its own processing after that). Not completed when the driver's next
	 * cycle came (0.3.65 marks that point with prev_signal == signal): the
	 * driver's finish is when it began the unfinished one, its signal and
	 * awake the last completed one's.
	 */
	complete = !(d->prev_signal_ns == d->signal_ns && d->finish_ns > d->awake_ns);
	start_ns = complete ? d->signal_ns : d->finish_ns;
	if (complete)
		end_ns = d->awake_ns;
	due_ns = cycle_due(p->clock_nsec, start_ns, q_ns);
	deadline_ns = due_ns + q_ns;
	late_start = start_ns - due_ns > g->late_start_ns;
	count = in_window(g, start_ns);
	new_cycle = start_ns > g->last_start_ns;
	if (count)
		g->points++;
	if (count && g->have_xrun_count && p->xrun_count != g->last_xrun_count)
		xruns = p->xrun_count - g->last_xrun_count;
	g->have_xrun_count = true;
	g->last_xrun_count = p->xrun_count;

	for (i = 0; i < p->n_followers; i++)
		follower_runs(g, &p->followers[i], count);
	if (new_cycle)
		g->last_start_ns = start_ns;
	if (!count)
		return;
	if (new_cycle) {
		g->cycles++;
		al_hist_add(&g->driver_start_ns, start_ns - due_ns);
	}
	/* the driver's own runs: its graph (signal to awake) and its processing */
	if (complete) {
		struct al_graph_node *dn = node_of(g, d);

		if (dn) {
			dn->driver = true;
			if (d->signal_ns > dn->seen_awake_ns && d->awake_ns >= d->signal_ns) {
				dn->seen_awake_ns = d->signal_ns;
				run_closed(g, dn, d->signal_ns, d->awake_ns,
					   d->finish_ns >= d->awake_ns ? d->finish_ns : d->awake_ns, true);
			}
		}
	}

	if (!complete || end_ns > deadline_ns || xruns) {
		lc = late_of(g, start_ns, due_ns, q_ns);
		if (lc) {
			if (new_cycle || !(lc->kind & AL_LATE_OVERRUN))
				g->incomplete += !complete || end_ns > deadline_ns;
			if (!complete || end_ns > deadline_ns)
				lc->kind |= AL_LATE_OVERRUN;
			lc->driver_xruns += xruns;
			if (complete && end_ns > deadline_ns && end_ns - deadline_ns > lc->late_ns)
				lc->late_ns = end_ns - deadline_ns;
			if (complete)
				lc->end_ns = end_ns;
			charge_followers(g, p, lc, start_ns, deadline_ns, complete, late_start);
		}
	}
	if (late_start) {
		if (!lc)
			lc = late_of(g, start_ns, due_ns, q_ns);
		if (lc)
			driver_started_late(g, lc, d, start_ns - due_ns);
	}
	if (lc) {
		for (i = 0; i < lc->n_causes; i++)
			if (lc->causes[i].busy_open && !lc->causes[i].driver)
				keep_pending(g, lc);
	}
	g->driver_xruns += xruns;
}

/*
 * A cycle the driver began late: a node that woke in it and ran its WAIT
 * and BUSY within one quantum would have finished in time had the cycle
 * begun in time; it crossed the deadline by the driver's lateness (on the
 * VM, 1.2 ms of work from 4.7 ms into the cycle) and is not a cause.
 */
static void
drop_late_start_victims(struct al_graph *g, struct al_late_cycle *lc)
{
	int k = 0, i;

	while (k < lc->n_causes) {
		const struct al_graph_cause *c = &lc->causes[k];

		if (c->driver || c->status != AL_NODE_AWAKE || c->busy_open || c->wait_ns < 0 ||
		    c->wait_ns + c->busy_ns > lc->quantum_ns) {
			k++;
			continue;
		}
		for (i = 0; i < g->n_nodes; i++)
			if (g->nodes[i].id == c->id && g->nodes[i].blamed)
				g->nodes[i].blamed--;
		if (lc->n_blamed)
			lc->n_blamed--;
		lc->causes[k] = lc->causes[--lc->n_causes];
	}
}

/* Longest busy first; the driver's own (a late start) last. */
static void
sort_causes(struct al_late_cycle *lc)
{
	int i, k;

	for (i = 1; i < lc->n_causes; i++)
		for (k = i; k > 0; k--) {
			struct al_graph_cause *a = &lc->causes[k - 1], *b = &lc->causes[k];
			bool swap = a->driver != b->driver ? a->driver : b->busy_ns > a->busy_ns;

			struct al_graph_cause t;

			if (!swap)
				break;
			t = *a;
			*a = *b;
			*b = t;
		}
}

void
al_graph_finish(struct al_graph *g, int64_t base_ns)
{
	int64_t end_ns = g->t1_ns ? g->t1_ns : g->last_start_ns, span_ns;
	size_t i;
	int k;

	for (i = 0; i < g->n_late; i++) {
		struct al_late_cycle *lc = &g->late[i];

		for (k = 0; k < lc->n_causes; k++) {
			struct al_graph_cause *c = &lc->causes[k];
			const struct al_graph_node *n = al_graph_node_of(g, c->id);

			/* a run still open at the end: at least until then */
			if (c->busy_open && !c->driver && c->status == AL_NODE_AWAKE && n &&
			    n->open_awake_ns && end_ns > n->open_awake_ns)
				c->busy_ns = end_ns - n->open_awake_ns;
		}
		if (lc->kind & AL_LATE_START)
			drop_late_start_victims(g, lc);
		sort_causes(lc);
		span_ns = lc->due_ns + lc->quantum_ns + (lc->late_ns > 0 ? lc->late_ns : 0);
		if (lc->end_ns > span_ns)
			span_ns = lc->end_ns;
		if (span_ns - lc->start_ns > g->max_span_ns)
			g->max_span_ns = span_ns - lc->start_ns;
		lc->start_ns -= base_ns;
		lc->due_ns -= base_ns;
		if (lc->end_ns)
			lc->end_ns -= base_ns;
	}
	g->n_pending = 0;
}

bool
al_graph_late_overlaps(const struct al_late_cycle *lc, int64_t from_ns, int64_t to_ns)
{
	int64_t end_ns = lc->due_ns + lc->quantum_ns + (lc->late_ns > 0 ? lc->late_ns : 0);

	if (lc->end_ns > end_ns)
		end_ns = lc->end_ns;
	return lc->start_ns <= to_ns && end_ns >= from_ns;
}

size_t
al_graph_late_between(const struct al_graph *g, int64_t from_ns, int64_t to_ns, size_t *first)
{
	size_t lo = 0, hi = g->n_late, n = 0;
	int64_t from_start_ns = from_ns - g->max_span_ns;

	/* the late cycles lie in the order they began: the first that may reach from_ns */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;

		if (g->late[mid].start_ns < from_start_ns)
			lo = mid + 1;
		else
			hi = mid;
	}
	*first = lo;
	while (lo + n < g->n_late && g->late[lo + n].start_ns <= to_ns)
		n++;
	return n;
}
