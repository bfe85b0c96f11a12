/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "core/clock.h"
#include "trace/trace.h"
#include "spikes.h"

/* at most one explanation per interval: reading the buffer costs tens of ms */
#define EXPLAIN_INTERVAL_NS (20 * AL_NS_PER_MS)
/*
 * A wake-up later than 3/4 of the threshold arms the rich events for this
 * long. Half the threshold armed them nearly all the time on the shared VM
 * (1 to 3 wake-ups past 0.75 ms every 5 s at a 1.5 ms threshold, against
 * 0 to 2 past 1.125 ms), and a 10 s hold kept them on from the first.
 */
#define ARM_HOLD_NS (3 * AL_NS_PER_SEC)

int
al_spikes_open(struct al_spikes *s, int cpu, int64_t threshold_ns, char *err, size_t err_size)
{
	int rc;

	memset(s, 0, sizeof(*s));
	al_spsc_init(&s->idx);
	s->threshold_ns = threshold_ns;
	s->arm_ns = threshold_ns / 4 * 3;
	rc = al_trace_open(&s->trace, cpu, AL_TRACE_BUFFER_KB_DEFAULT, err, err_size);
	if (rc)
		s->trace = NULL;
	return rc;
}

/* Keep the worst AL_SPIKES_MAX: a new spike replaces the mildest kept one. */
static void
keep(struct al_result *r, const struct al_spike *sp)
{
	int i, mildest = 0;

	if (r->n_spikes < AL_SPIKES_MAX) {
		r->spikes[r->n_spikes++] = *sp;
		return;
	}
	for (i = 1; i < r->n_spikes; i++)
		if (r->spikes[i].latency_ns < r->spikes[mildest].latency_ns)
			mildest = i;
	r->spikes_dropped++;
	if (sp->latency_ns > r->spikes[mildest].latency_ns)
		r->spikes[mildest] = *sp;
}

/*
 * Once the audio thread runs: filter its own wake-up out (al_trace_follow).
 * A wake-up later than arm_ns since the last tick: record the rich events
 * from now on (the spike that follows is explained in full; the suspect
 * itself and a spike without a suspect before it, with the base set).
 */
static void
arm(struct al_spikes *s)
{
	int64_t suspect = atomic_load_explicit(&s->suspect_ns, memory_order_relaxed);
	int64_t now_ns = al_clock_now_ns();

	if (!s->followed && s->tid > 0) {
		al_trace_follow(s->trace, s->tid);
		s->followed = true;
	}
	if (suspect != s->suspect_seen_ns) {
		s->suspect_seen_ns = suspect;
		s->disarm_ns = now_ns + ARM_HOLD_NS;
		al_trace_arm(s->trace, true);
	} else if (al_trace_armed(s->trace) && now_ns >= s->disarm_ns) {
		al_trace_arm(s->trace, false);
	}
}

void
al_spikes_service(struct al_spikes *s, struct al_result *r)
{
	uint32_t first, k, ready;
	struct al_spike sp;
	int64_t now_ns;

	if (!s->trace)
		return;
	arm(s);
	ready = al_spsc_ready(&s->idx, &first);
	for (k = 0; k < ready; k++) {
		const struct al_spike_mark m = s->ring[(first + k) & (AL_SPIKE_RING - 1)];

		s->seen++;
		now_ns = al_clock_now_ns();
		if (now_ns < s->next_explain_ns) {
			r->spikes_dropped++; /* rate-limited: counted, not explained */
			continue;
		}
		memset(&sp, 0, sizeof(sp));
		if (al_trace_explain(s->trace, m.boundary_ns, m.wake_ns, s->tid, &sp)) {
			r->spikes_dropped++; /* the window was gone or unreadable */
			continue;
		}
		sp.t_ns = m.boundary_ns;
		sp.latency_ns = m.wake_ns - m.boundary_ns;
		keep(r, &sp);
		s->next_explain_ns = al_clock_now_ns() + EXPLAIN_INTERVAL_NS;
	}
	al_spsc_pop(&s->idx, ready);
}

void
al_spikes_finish(struct al_spikes *s, struct al_result *r)
{
	int i;

	if (!s->trace)
		return;
	s->next_explain_ns = 0;
	al_spikes_service(s, r);
	r->spikes_dropped += atomic_load(&s->overflow);
	al_trace_symbolize(r->spikes, r->n_spikes);
	for (i = 0; i < r->n_spikes; i++)
		r->spikes[i].t_ns -= r->start_mono_ns;
	al_trace_close(s->trace);
	s->trace = NULL;
}
