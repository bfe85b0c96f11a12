/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What pipewire.c (the stream) and pipewire-blame.c (the profiler) share.
 * Only for those two files.
 */
#ifndef AL_BACKEND_PIPEWIRE_PRIVATE_H
#define AL_BACKEND_PIPEWIRE_PRIVATE_H

#ifndef AL_PIPEWIRE_PRIVATE
#error "pipewire-private.h is for pipewire.c and pipewire-blame.c only"
#endif

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include <pipewire/pipewire.h>

#include "core/graph.h"

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

#endif
