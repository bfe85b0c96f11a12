/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --trace (and --blame) on a server without a profiler (JACK): the
 * server's other clients followed in the flight recorder
 * (src/trace/clients.h), their threads from the backend (ops->tasks),
 * the server's cycles from our own (a lock-free single-producer ring the
 * audio thread writes every boundary to), read by the controller; after
 * the run the blame is the result's graph (core/graph.h), as PipeWire's.
 */
#ifndef AL_RUN_CLIENTS_H
#define AL_RUN_CLIENTS_H

#include <stdatomic.h>
#include <stdint.h>

#include "backend/backend.h"
#include "core/result.h"
#include "core/spsc.h"

#define AL_CYCLE_RING 1024 /* power of two: 5 s of 5 ms cycles between two ticks */

struct al_clients;

struct al_run_clients {
	struct al_clients *rec;       /* NULL: not following */
	const struct al_backend_ops *ops;
	void *priv;
	unsigned gen;                 /* the backend's set of threads last followed */
	int64_t period_ns;
	char note[160];               /* why there is none */
	int64_t ring[AL_CYCLE_RING];  /* boundaries: the audio thread to the controller */
	struct al_spsc idx;
	_Atomic uint64_t overflow;
};

/* Hot path: one boundary. No allocation, no syscall. */
static inline void
al_run_clients_mark(struct al_run_clients *c, int64_t boundary_ns)
{
	uint32_t i;

	if (!c->rec)
		return;
	if (!al_spsc_slot(&c->idx, AL_CYCLE_RING, &i)) {
		atomic_fetch_add_explicit(&c->overflow, 1, memory_order_relaxed);
		return;
	}
	c->ring[i] = boundary_ns;
	al_spsc_push(&c->idx);
}

/* Open the recorder (root); on failure *err says why and c->rec stays NULL. */
int al_run_clients_open(struct al_run_clients *c, const struct al_backend_ops *ops, void *priv,
			int64_t period_ns, char *err, size_t err_size);

/* Controller tick: the cycles, clients that joined, the kernel's events. */
void al_run_clients_service(struct al_run_clients *c);

/*
 * After the run, before the backend closes: r->graph (allocated here),
 * times relative to r->start_mono_ns; close the recorder.
 */
void al_run_clients_finish(struct al_run_clients *c, struct al_result *r);

#endif
