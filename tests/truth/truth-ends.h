/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The slow client's and the slow filter's ends: when, in each cycle it spun
 * in, it let the graph go on, from the cycle's start (the last TRUTH_ENDS
 * kept, from the process thread), and their median, printed once at exit.
 */
#ifndef TRUTH_ENDS_H
#define TRUTH_ENDS_H

#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TRUTH_ENDS 8192 /* 43 s of 256 frames at 48 kHz */

struct truth_ends {
	int64_t ns[TRUTH_ENDS];
	int64_t sorted[TRUTH_ENDS];
	atomic_ullong n;
};

/* the process thread: one cycle's end */
static inline void
truth_ends_add(struct truth_ends *e, int64_t end_ns)
{
	e->ns[atomic_fetch_add(&e->n, 1) % TRUTH_ENDS] = end_ns;
}

static inline int
truth_ends_cmp(const void *a, const void *b)
{
	int64_t x = *(const int64_t *)a, y = *(const int64_t *)b;

	return (x > y) - (x < y);
}

/* the median of the ends kept into f, then a newline ("null": none) */
static inline void
truth_ends_print_p50(FILE *f, struct truth_ends *e)
{
	unsigned long long n = atomic_load(&e->n);
	size_t kept = n < TRUTH_ENDS ? (size_t)n : TRUTH_ENDS;

	memcpy(e->sorted, e->ns, kept * sizeof(*e->sorted));
	qsort(e->sorted, kept, sizeof(*e->sorted), truth_ends_cmp);
	if (kept)
		fprintf(f, "%lld\n", (long long)e->sorted[kept / 2]);
	else
		fprintf(f, "null\n");
}

#endif
