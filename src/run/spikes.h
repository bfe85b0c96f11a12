/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * --trace: late wake-ups flagged by the audio thread (a lock-free
 * single-producer ring) and explained by the controller from the ftrace
 * flight recorder (src/trace), off the real-time path, rate-limited and
 * capped: the worst AL_SPIKES_MAX are kept, the rest counted.
 * The measured thread's own wake-up is filtered out of the recording
 * (al_trace_follow) and the recorder keeps its base set of events until a
 * wake-up is later than 3/4 of the threshold (a spike is suspected); then
 * the controller arms the rich set (and records the thread's wake-up), and
 * disarms it 3 s after the last suspect (spikes.c: ARM_HOLD_NS).
 */
#ifndef AL_RUN_SPIKES_H
#define AL_RUN_SPIKES_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <sys/types.h>

#include "core/result.h"
#include "core/spsc.h"

#define AL_SPIKE_RING 64 /* power of two */

struct al_trace;

struct al_spike_mark {
	int64_t boundary_ns;
	int64_t wake_ns;
};

struct al_spikes {
	struct al_trace *trace;     /* NULL: not tracing */
	int64_t threshold_ns;
	int64_t arm_ns;             /* later than this: suspected, arm (3/4 of the threshold) */
	int64_t suspect_seen_ns;    /* the controller's last suspect_ns */
	int64_t disarm_ns;          /* armed until then */
	pid_t tid;                  /* the measured thread */
	bool followed;              /* al_trace_follow(tid) done */
	int64_t next_explain_ns;    /* rate limit */
	uint64_t seen;              /* marks popped */
	struct al_spike_mark ring[AL_SPIKE_RING]; /* the audio thread to the controller */
	struct al_spsc idx;
	_Atomic uint64_t overflow;  /* marks the ring had no room for */
	_Atomic int64_t suspect_ns; /* audio thread: the last wake-up later than arm_ns */
};

/* Hot path: flag a late wake-up. No allocation, no syscall. */
static inline void
al_spikes_mark(struct al_spikes *s, int64_t boundary_ns, int64_t wake_ns)
{
	uint32_t i;

	if (!s->trace || wake_ns - boundary_ns <= s->arm_ns)
		return;
	atomic_store_explicit(&s->suspect_ns, wake_ns, memory_order_relaxed);
	if (wake_ns - boundary_ns <= s->threshold_ns)
		return;
	if (!al_spsc_slot(&s->idx, AL_SPIKE_RING, &i)) {
		atomic_fetch_add_explicit(&s->overflow, 1, memory_order_relaxed);
		return;
	}
	s->ring[i] = (struct al_spike_mark){ boundary_ns, wake_ns };
	al_spsc_push(&s->idx);
}

/*
 * Open the flight recorder on cpu; on failure *err says why in one line and
 * the run goes on untraced (s->trace stays NULL). Returns 0 or -errno.
 */
int al_spikes_open(struct al_spikes *s, int cpu, int64_t threshold_ns, char *err, size_t err_size);

/*
 * Controller: arm or disarm the rich events (suspect_ns), explain what the
 * ring holds (rate-limited) into r->spikes.
 */
void al_spikes_service(struct al_spikes *s, struct al_result *r);

/* After the run: last marks, timer names, times relative to the run start; close. */
void al_spikes_finish(struct al_spikes *s, struct al_result *r);

#endif
