/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <string.h>

#include "core/clock.h"
#include "trace/trace.h"
#include "spikes.h"

/* at most one explanation per interval: reading the buffer costs tens of ms */
#define EXPLAIN_INTERVAL_NS (20 * AL_NS_PER_MS)

int
al_spikes_open(struct al_spikes *s, int cpu, int64_t threshold_ns, char *err, size_t err_size)
{
	int rc;

	memset(s, 0, sizeof(*s));
	s->threshold_ns = threshold_ns;
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

void
al_spikes_service(struct al_spikes *s, struct al_result *r)
{
	uint32_t tail, head;
	struct al_spike sp;
	int64_t now_ns;

	if (!s->trace)
		return;
	tail = atomic_load_explicit(&s->tail, memory_order_relaxed);
	head = atomic_load_explicit(&s->head, memory_order_acquire);
	for (; tail != head; tail++) {
		const struct al_spike_mark m = s->ring[tail & (AL_SPIKE_RING - 1)];

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
	atomic_store_explicit(&s->tail, tail, memory_order_release);
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
