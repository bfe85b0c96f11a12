/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Graph blame: which node of a sound server's graph made a cycle late.
 * Pure arithmetic on what a profiler reported (PipeWire's profiler module,
 * docs/pipewire.md); no server headers, so the unit tests feed it the
 * sequences seen in the wild.
 *
 * The input is one point per driver cycle: the driver's clock (when the
 * cycle was due, its quantum) and, for the driver and every follower, when
 * it was signalled (its inputs ready), woke and finished, and its status
 * when the point was taken. A point is taken when the graph completed, or
 * when the driver's next cycle came and found it incomplete; then a node
 * still running has no finish yet: its run stays open until a later point
 * shows it finished (a node that overran its cycle is seen finishing in
 * the next one, where its "awake" is no longer its own). So a run is from
 * the awake of the point that first saw it running to the first finish
 * after it: WAIT = awake - signal, BUSY = finish - awake, as pw-top's
 * columns, but for the runs that overran too.
 *
 * A cycle is late when it began late (the driver woke more than
 * late_start_ns after the cycle was due: its timer, or the server, was
 * held up) or did not complete by its deadline (due + quantum). The nodes
 * blamed for a cycle that did not complete are those still running at the
 * deadline (woke, not finished) and those signalled but not yet awake
 * (waiting for a CPU); a node not yet signalled was waiting for another
 * and is not blamed. A cycle that began late is the driver's: a node that
 * ran in it, its WAIT and BUSY within one quantum, crossed the deadline
 * only by the driver's lateness and is not blamed either.
 *
 * A run is closed at the finish the node's next run carries (0.3.65
 * writes a run's finish before the next awake) when that run is seen
 * first, else at the next finish seen, but never past the next run's
 * awake. A cycle was due at the clock's time, or whole quanta before it:
 * the last such time before its start (up to an eighth of a quantum,
 * 500 us at most, earlier: a driver's estimate).
 */
#ifndef AL_CORE_GRAPH_H
#define AL_CORE_GRAPH_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "hist.h"

#define AL_GRAPH_NAME 64
#define AL_GRAPH_NODES 32         /* nodes kept with their histograms */
#define AL_GRAPH_POINT_FOLLOWERS 64
#define AL_GRAPH_CAUSES 4         /* causes kept per late cycle */
#define AL_GRAPH_LATE_MAX 4096    /* late cycles kept */
#define AL_GRAPH_PENDING 16       /* late cycles waiting for a cause's finish */

/* A node's state in a point (PipeWire's activation status). */
enum al_node_status {
	AL_NODE_NOT_TRIGGERED = 0, /* waiting for its inputs */
	AL_NODE_TRIGGERED = 1,     /* signalled, not yet running */
	AL_NODE_AWAKE = 2,         /* running */
	AL_NODE_FINISHED = 3,
	AL_NODE_INACTIVE = 4,
	/* not a node: a task that held a node's CPU while it ran (JACK blame, docs/jack.md) */
	AL_NODE_PREEMPTING = 5,
};

const char *al_node_status_name(int status);

/* What a cause is: a task (every node, and the tasks preempting a JACK client), or an
 * interrupt that held a JACK client's CPU (docs/jack.md). */
enum al_cause_kind {
	AL_CAUSE_TASK = 0,
	AL_CAUSE_IRQ = 1,      /* id: the IRQ number (-1: an x86 vector), name: its handler */
	AL_CAUSE_SOFTIRQ = 2,  /* id: the vector, name: "NET_RX", ... */
};

const char *al_cause_kind_name(int kind);

/* One node in one point: times on CLOCK_MONOTONIC, 0 when never. */
struct al_graph_block {
	uint32_t id;
	const char *name;
	int64_t prev_signal_ns;
	int64_t signal_ns;
	int64_t awake_ns;
	int64_t finish_ns;
	int status;
};

/* One point of the profiler: one driver cycle. */
struct al_graph_point {
	uint32_t xrun_count;       /* the driver's xrun counter */
	int64_t clock_nsec;        /* when the clock's current cycle was due */
	int64_t position;          /* the clock's position, frames */
	int64_t duration_frames;   /* the quantum */
	int64_t rate_hz;
	double rate_diff;
	int64_t delay_frames;
	struct al_graph_block driver;
	struct al_graph_block followers[AL_GRAPH_POINT_FOLLOWERS];
	int n_followers;
};

/* Why a node is blamed for a late cycle. */
struct al_graph_cause {
	uint32_t id;
	char name[AL_GRAPH_NAME];
	int status;            /* at the deadline: AWAKE (running), TRIGGERED (waiting for a CPU) */
	int64_t wait_ns;       /* awake - signal of the run; -1: it had not woken */
	int64_t busy_ns;       /* finish - awake of the run; at least this when busy_open */
	bool busy_open;        /* its finish was not seen (the run ended first) */
	bool self;             /* the measuring node itself */
	bool driver;           /* the driver (a cycle that began late) */
	int kind;              /* AL_CAUSE_* */
};

enum al_late_kind {
	AL_LATE_OVERRUN = 1,   /* did not complete by its deadline */
	AL_LATE_START = 2,     /* the driver began it late */
};

struct al_late_cycle {
	int64_t start_ns;      /* when the driver began it (absolute; relative to the run in a result) */
	int64_t due_ns;        /* when it was due, the same */
	int64_t quantum_ns;
	int64_t end_ns;        /* when it completed, the same; 0: not seen */
	int64_t late_ns;       /* past its deadline (overrun), or begun after due (start) */
	int kind;              /* AL_LATE_* bits */
	uint32_t driver_xruns; /* the driver's xrun counter moved by this much with it */
	int n_causes;          /* causes[], the longest busy first */
	struct al_graph_cause causes[AL_GRAPH_CAUSES];
	uint64_t n_blamed;     /* causes found, causes[] holds the first AL_GRAPH_CAUSES */
};

struct al_graph_node {
	uint32_t id;
	char name[AL_GRAPH_NAME];
	bool driver;
	bool self;
	uint64_t runs;         /* runs measured (WAIT and BUSY samples) */
	uint64_t unfinished;   /* points where it had not finished (pw-top's ERR, for it) */
	uint64_t blamed;       /* late cycles it was a cause of */
	struct al_hist wait_ns;
	struct al_hist busy_ns;
	/* the analysis */
	int64_t seen_awake_ns;  /* the last awake counted (a run is counted once) */
	int64_t open_awake_ns;  /* a run seen running, its finish not seen yet; 0: none */
	int64_t open_signal_ns;
};

struct al_graph {
	bool active;                /* a profiler answered */
	char source[32];            /* "pipewire-profiler" */
	char note[200];             /* why there is no blame, or what limits it; "" */
	uint32_t self_id;           /* the measuring node (0: unknown) */
	uint32_t driver_id;
	char driver_name[AL_GRAPH_NAME];
	int64_t t0_ns, t1_ns;       /* cycles begun in [t0, t1) count; t1 0: open */
	int64_t late_start_ns;      /* a driver this late is late */
	uint64_t points;            /* points of our driver in the window */
	uint64_t other_points;      /* points of drivers that do not drive us */
	uint64_t cycles;            /* distinct cycles among them */
	uint64_t incomplete;        /* cycles that did not complete by their deadline */
	uint64_t late_starts;       /* cycles the driver began late */
	uint64_t driver_xruns;      /* the driver's xrun counter, moved by */
	uint64_t nodes_dropped;     /* nodes past AL_GRAPH_NODES (not kept) */
	uint64_t late_dropped;      /* late cycles past the array */
	struct al_hist driver_start_ns; /* each cycle: the driver's start - when it was due */
	struct al_graph_node nodes[AL_GRAPH_NODES];
	int n_nodes;
	struct al_late_cycle late[AL_GRAPH_LATE_MAX];
	size_t n_late;
	/* the analysis */
	bool have_xrun_count;
	uint32_t last_xrun_count;
	int64_t last_start_ns;      /* the last cycle counted */
	int64_t max_span_ns;        /* the longest late cycle, start to end (al_graph_finish) */
	size_t pending[AL_GRAPH_PENDING]; /* late cycles whose causes still run */
	int n_pending;
};

/*
 * Start an analysis (g is large: allocate it). self_id: the measuring node;
 * late_start_ns: how late a driver may begin a cycle before it is late.
 */
void al_graph_init(struct al_graph *g, uint32_t self_id, int64_t late_start_ns);

/* Count only cycles begun in [t0_ns, t1_ns) (t1_ns 0: no end yet). */
void al_graph_window(struct al_graph *g, int64_t t0_ns, int64_t t1_ns);

/* One profiler point, in the order they came. */
void al_graph_add_point(struct al_graph *g, const struct al_graph_point *p);

/* The end: runs still open stay "at least" so long; times become relative to base_ns. */
void al_graph_finish(struct al_graph *g, int64_t base_ns);

/*
 * The late cycles (relative times, after al_graph_finish) that may
 * overlap [from_ns, to_ns]: late[*first], ... the return value of them;
 * al_graph_late_overlaps() says which do.
 */
size_t al_graph_late_between(const struct al_graph *g, int64_t from_ns, int64_t to_ns,
			     size_t *first);
bool al_graph_late_overlaps(const struct al_late_cycle *lc, int64_t from_ns, int64_t to_ns);

/* The node of that id, NULL when not kept. */
const struct al_graph_node *al_graph_node_of(const struct al_graph *g, uint32_t id);

#endif
