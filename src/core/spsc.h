/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The indices of a single-producer, single-consumer ring: one thread (the
 * audio thread, a process callback) adds, one other thread takes; neither
 * waits nor locks. The ring's slots are the user's own array of a power of
 * two size; this holds only where the two ends are, and the one set of
 * memory orders every ring of audiolat uses:
 *
 *   the producer reads its head (relaxed: only it writes it) and the
 *   consumer's tail (acquire: the consumer is done with the slots below
 *   it), writes the slot, then publishes head + 1 (release: the slot's
 *   contents are visible before the index that says it is there);
 *   the consumer, the other way round (head acquire, tail release).
 *
 * Indices run freely and wrap at 2^32; a slot is index & (size - 1), so
 * size must be a power of two no larger than 2^31. Full: the producer's
 * add fails (the caller counts what it dropped), never blocks.
 *
 *	uint32_t i;
 *	if (al_spsc_slot(&r->idx, N, &i)) { r->buf[i] = x; al_spsc_push(&r->idx); }
 *	...
 *	uint32_t first, n = al_spsc_ready(&r->idx, &first);   (in the consumer)
 *	for (k = 0; k < n; k++) use(r->buf[(first + k) & (N - 1)]);
 *	al_spsc_pop(&r->idx, n);
 */
#ifndef AL_CORE_SPSC_H
#define AL_CORE_SPSC_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>

struct al_spsc {
	_Atomic uint32_t head; /* written by the producer only */
	_Atomic uint32_t tail; /* written by the consumer only */
};

static inline void
al_spsc_init(struct al_spsc *r)
{
	atomic_init(&r->head, 0);
	atomic_init(&r->tail, 0);
}

/* Producer: the slot the next item goes to; false when the ring is full. */
static inline bool
al_spsc_slot(struct al_spsc *r, uint32_t size, uint32_t *slot)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_acquire);

	if (head - tail >= size)
		return false;
	*slot = head & (size - 1);
	return true;
}

/* Producer: the item written to al_spsc_slot()'s slot is there. */
static inline void
al_spsc_push(struct al_spsc *r)
{
	uint32_t head = atomic_load_explicit(&r->head, memory_order_relaxed);

	atomic_store_explicit(&r->head, head + 1, memory_order_release);
}

/* Consumer: how many items are there, the oldest at index *first. */
static inline uint32_t
al_spsc_ready(struct al_spsc *r, uint32_t *first)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);
	uint32_t head = atomic_load_explicit(&r->head, memory_order_acquire);

	*first = tail;
	return head - tail;
}

/* Consumer: the n oldest items were used; their slots are the producer's again. */
static inline void
al_spsc_pop(struct al_spsc *r, uint32_t n)
{
	uint32_t tail = atomic_load_explicit(&r->tail, memory_order_relaxed);

	atomic_store_explicit(&r->tail, tail + n, memory_order_release);
}

#endif
