/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * core/spsc.h, the indices of every single-producer, single-consumer ring
 * of audiolat: the wrap of the free-running indices, full and empty, and a
 * stress run of two threads (built with ThreadSanitizer, which reports a
 * missing release/acquire pair as a data race on the slots): every item
 * arrives once, in order, with the contents written before its push.
 */
#include <pthread.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "core/spsc.h"

#define N 8 /* slots: a power of two */

struct item {
	uint64_t seq;
	uint64_t check; /* seq * 3 + 1: written before the push */
};

struct ring {
	struct item buf[N];
	struct al_spsc idx;
	_Atomic int done;
	uint64_t count;
	uint64_t full; /* the producer found no room */
};

static void
empty_full_and_wrap(void **state)
{
	struct ring r;
	uint32_t i = 0, first, n;

	(void)state;
	al_spsc_init(&r.idx);
	/* near the 2^32 wrap of the free-running indices */
	atomic_store(&r.idx.head, UINT32_MAX - 2);
	atomic_store(&r.idx.tail, UINT32_MAX - 2);
	assert_int_equal(al_spsc_ready(&r.idx, &first), 0);
	for (n = 0; n < N; n++) {
		assert_true(al_spsc_slot(&r.idx, N, &i));
		assert_int_equal(i, (UINT32_MAX - 2 + n) & (N - 1));
		r.buf[i].seq = n;
		al_spsc_push(&r.idx);
	}
	assert_false(al_spsc_slot(&r.idx, N, &i)); /* full */
	n = al_spsc_ready(&r.idx, &first);
	assert_int_equal(n, N);
	assert_int_equal(first, UINT32_MAX - 2);
	for (i = 0; i < n; i++)
		assert_int_equal(r.buf[(first + i) & (N - 1)].seq, i);
	al_spsc_pop(&r.idx, 3);
	assert_int_equal(al_spsc_ready(&r.idx, &first), N - 3);
	assert_true(al_spsc_slot(&r.idx, N, &i)); /* room again */
	al_spsc_pop(&r.idx, N - 3);
	assert_int_equal(al_spsc_ready(&r.idx, &first), 0);
}

/*
 * Enough items for many wraps of the 8 slots; both sides yield the CPU when
 * the ring is full or empty, so a loaded 2-core machine (the parallel phase
 * of make test) still runs the two threads in turn instead of spinning out
 * each other's time slices.
 */
#define ITEMS 40000

static void *
producer(void *arg)
{
	struct ring *r = arg;
	uint64_t seq = 0;
	uint32_t i;

	while (seq < ITEMS) {
		if (!al_spsc_slot(&r->idx, N, &i)) {
			r->full++;
			sched_yield();
			continue;
		}
		r->buf[i] = (struct item){ seq, seq * 3 + 1 };
		al_spsc_push(&r->idx);
		seq++;
	}
	atomic_store_explicit(&r->done, 1, memory_order_release);
	return NULL;
}

static void
two_threads(void **state)
{
	struct ring r = { 0 };
	pthread_t t;
	uint64_t want = 0, bad = 0;
	uint32_t first, n, k;
	int done;

	(void)state;
	al_spsc_init(&r.idx);
	atomic_init(&r.done, 0);
	assert_int_equal(pthread_create(&t, NULL, producer, &r), 0);
	do {
		done = atomic_load_explicit(&r.done, memory_order_acquire);
		n = al_spsc_ready(&r.idx, &first);
		for (k = 0; k < n; k++) {
			const struct item *it = &r.buf[(first + k) & (N - 1)];

			if (it->seq != want || it->check != want * 3 + 1)
				bad++;
			want++;
		}
		al_spsc_pop(&r.idx, n);
		if (!n)
			sched_yield();
	} while (!done || n);
	pthread_join(t, NULL);
	print_message("# %llu items, the producer found the ring full %llu times\n",
		      (unsigned long long)want, (unsigned long long)r.full);
	assert_int_equal(bad, 0);
	assert_int_equal(want, ITEMS);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(empty_full_and_wrap),
	    cmocka_unit_test(two_threads),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
