/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the PipeWire backend's files share: pipewire.c (the stream of
 * audiolat run), duplex-pipewire.c (roundtrip's duplex stream),
 * pipewire-graph.c (the connection, the registry, links, devices) and
 * pipewire-blame.c (the profiler). Only for those files.
 */
#ifndef AL_BACKEND_PIPEWIRE_PRIVATE_H
#define AL_BACKEND_PIPEWIRE_PRIVATE_H

#ifndef AL_PIPEWIRE_PRIVATE
#error "pipewire-private.h is for the pipewire*.c and duplex-pipewire.c files only"
#endif

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <pipewire/pipewire.h>
#include <pipewire/filter.h>
#include <spa/node/io.h>

#include "backend.h"
#include "core/graph.h"
#include "core/grid.h"
#include "pcmtime.h"

/*
 * The graph blame: a client of PipeWire's profiler (the interface pw-top
 * and pw-profiler use) on the backend's main loop, feeding the profiler's
 * points to core/graph.h. Everything here runs on the loop's thread (or
 * under its lock); nothing on the data thread.
 */
struct pwb_blame {
	struct pw_proxy *proxy;
	struct spa_hook listener;
	struct al_graph *graph;     /* allocated at open */
	struct al_graph_point *point; /* one point being parsed */
	uint32_t self_id;
	uint64_t batches;           /* profile events received */
	uint64_t bad_points;        /* points that would not parse */
	int64_t last_point_ns;      /* the latest cycle start seen, CLOCK_MONOTONIC */
	bool bound;
	bool loaded;                /* the profiler's protocol extension loaded in our context */
	char note[200];             /* why there is none */
	FILE *dump;                 /* $AUDIOLAT_PW_PROFILE_DUMP: the raw points, NULL */
};

/*
 * Bind the profiler global id (registry thread, under the loop lock).
 * 0, or -errno with b->note set.
 */
int pwb_blame_bind(struct pwb_blame *b, struct pw_registry *registry, uint32_t id);

/* Load the profiler's protocol extension into the context (before connecting). */
void pwb_blame_load(struct pwb_blame *b, struct pw_context *context);

/* Allocate the analysis; 0 or -ENOMEM. */
int pwb_blame_init(struct pwb_blame *b);

/* Count cycles begun in [t0, t1) (t1 0: open); the measuring node's id. */
void pwb_blame_window(struct pwb_blame *b, uint32_t self_id, int64_t t0_ns, int64_t t1_ns);

void pwb_blame_fini(struct pwb_blame *b);

/* --- the graph (pipewire-graph.c) ---------------------------------------- */

#define PWG_NODES_MAX 256
#define PWG_PORTS_MAX 1024
#define PWG_LINKS_MAX 4
#define PWG_WAIT_S 5                /* how long a step waits for the server */

struct pw_obj_node {
	uint32_t id;
	uint64_t serial;
	bool driver;
	char name[128];
	char desc[128];
	char media_class[48];
};

struct pw_obj_port {
	uint32_t id;
	uint32_t node_id;
	bool output;
	bool monitor;
	char name[64];
};

/*
 * A connection to the server and what its registry holds, kept by our own
 * main loop (pw_thread_loop); read under the loop's lock.
 */
struct pwg {
	struct pw_thread_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	struct pw_proxy *metadata;
	struct spa_hook metadata_listener;
	struct pw_proxy *links[PWG_LINKS_MAX];
	struct spa_hook link_listeners[PWG_LINKS_MAX];
	int n_links;
	atomic_int links_bound, links_failed, links_removed;
	bool inited;
	struct pw_obj_node *nodes;
	int n_nodes;
	struct pw_obj_port *ports;
	int n_ports;
	char default_sink[128], default_source[128];
	int sync_seq;
	bool synced;
	char server_name[64], server_version[32];
	atomic_int dead;            /* the server went away */
	char error[200];
	struct pwb_blame *blame;    /* non-NULL: load and bind the profiler (set before connect) */
	/* the connection died (on the loop thread): the owner's hook, may be NULL */
	void (*on_dead)(void *owner);
	void *owner;
};

/*
 * Reach the server: our loop, a context, the core, the registry, a round
 * trip. 0 with the loop locked, or -ECONNREFUSED (not running, or no
 * answer) / -errno with g->error set and everything undone.
 */
int pwg_connect(struct pwg *g);
/* Our links, the registry, the core, the loop (the owner's filter destroyed first). */
void pwg_disconnect(struct pwg *g);
/* Wait (the lock held) until *flag, *count >= want, the server's death or PWG_WAIT_S. */
bool pwg_wait(struct pwg *g, const bool *flag, const atomic_int *count, int want);
/* A round trip to the server: every global it had is in the registry. */
bool pwg_sync(struct pwg *g);
/* The node want names (its name, description, serial or id), or the default sink (source). */
struct pw_obj_node *pwg_target(struct pwg *g, const char *want, bool capture);
/* The k-th port of a node for a link: inputs for playback; outputs, a sink's monitors, for capture. */
const struct pw_obj_port *pwg_node_port(struct pwg *g, uint32_t node_id, bool output, int k);
/* The port "NODE:PORT" (as pw-link names it) in that direction, or NULL. */
const struct pw_obj_port *pwg_port_named(struct pwg *g, const char *name, bool output);
/* "NODE:PORT" of p. */
void pwg_port_label(struct pwg *g, const struct pw_obj_port *p, char *buf, size_t size);
/* Ask for a link out -> in (ours: gone with us); links_bound/links_failed count the answers. */
void pwg_link(struct pwg *g, uint32_t out_node, uint32_t out_port, uint32_t in_node,
	      uint32_t in_port);
/* audiolat devices -b pipewire: the server, its audio nodes and drivers. */
int pwg_list(al_device_emit_fn emit, void *ud);

/* --- the stream of audiolat run (pipewire.c, pipewire-clock.c) ------------ */

#define PWB_PORTS_MAX 2


struct pwb_port {
	int index;
};

struct pwb {
	struct pwg g;              /* the connection, the registry, our links */
	struct pw_filter *filter;
	struct spa_hook filter_listener;
	struct pwb_port *out[PWB_PORTS_MAX], *in[PWB_PORTS_MAX];
	int n_out, n_in;
	uint32_t self_id;
	struct pwb_blame blame;
	bool want_blame, need_blame;

	/* the data thread */
	const struct al_period_hooks *h;
	atomic_int armed;          /* start_cb ran: deliver periods */
	atomic_int preroll;        /* cycles seen before start_cb */
	_Atomic int64_t preroll_frames, preroll_rate;
	int want_priority, want_cpu; /* -p, -a: applied to the data thread in the preroll */
	atomic_int prio_state;     /* 0: not yet, 1: done */
	int prio_before_policy, prio_before, prio_after, prio_errno;
	bool cpu_pinned;
	int cpu_errno;
	enum al_stamp_base base;   /* the clock.nsec's clock (from the preroll) */
	int64_t base_offset_ns;    /* CLOCK_MONOTONIC - that clock */
	float phase, phase_inc;

	bool have_prev;
	uint64_t prev_position;
	int64_t prev_frames, prev_rate, prev_boundary_ns, prev_period_ns, prev_wake_ns, prev_nsec_ns;
	bool late_episode;         /* cycles served more than a period late: one event */
	bool stall_tail;           /* a stall's catch-up: its late cycles, no driver's event */
#ifdef HAVE_SPA_IO_CLOCK_CYCLE
	uint64_t prev_cycle;
#endif
#ifdef HAVE_SPA_IO_CLOCK_XRUN
	int64_t prev_xrun_ns;
#endif
	int64_t frames;            /* frames the server ran since our first cycle */
	struct al_grid grid;       /* the fallback: a frame clock fitted to our wake-ups */
	uint64_t stalls, counter_jumps, restarts, quantum_changes, server_xruns, driver_late;
	int64_t driver_late_max_ns; /* the latest a driver began a cycle (on its clock.nsec) */
	uint64_t bound_clock, bound_grid;
	int64_t min_frames, max_frames;

	int64_t rate_hz, period_frames;
	char target[128];          /* the node we link to ("" none) */
	char detail[240];
};

/* The clock.nsec's clock, from one reading beside ours (the preroll). */
void pwb_classify_clock(struct pwb *b, int64_t nsec, int64_t mono_ns);
/*
 * Hot path: how many cycles the driver ran since our previous one (1:
 * none missed), from its position, as far as our own wake-ups agree.
 */
uint64_t pwb_cycles_since(struct pwb *b, const struct spa_io_clock *clk, int64_t frames,
			  int64_t wake_ns, int64_t nsec_ns, int64_t period_ns);
/* Hot path: the xrun this cycle begins, if it begins one, into wi. */
void pwb_account_xrun(struct pwb *b, const struct spa_io_clock *clk, uint64_t cycles,
		      int64_t wake_ns, int64_t boundary_ns, int64_t period_ns,
		      struct al_write_info *wi);
/* Hot path: this cycle, for the next one's arithmetic. */
void pwb_remember_cycle(struct pwb *b, const struct spa_io_clock *clk, int64_t boundary_ns,
			int64_t wake_ns, int64_t nsec_ns);

#endif
