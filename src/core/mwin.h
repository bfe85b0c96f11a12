/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The monitor's statistics (audiolat monitor, docs/monitor.md): windows of
 * a fixed length (1 min and 5 min; 1 s and 5 s for tests) with a coarse
 * histogram each, a cumulative histogram readable while the audio thread
 * writes it, and a bounded archive of closed windows. Memory is fixed when
 * they are made, however long the monitor runs.
 *
 * Every period due is one sample (docs/truth.md): a period's own wake-up
 * counts wake-up - boundary in the window its boundary was due in; the
 * periods a stall swallowed (al_sample_spans) count serve - due each, in
 * the windows they were due in, at a cost bounded by the windows and
 * buckets they cross, never by their number.
 *
 * The buckets are Prometheus's: bucket i counts values v with
 * al_mw_le_ns[i - 1] < v <= al_mw_le_ns[i] (bucket 0: v <= al_mw_le_ns[0],
 * negative values included; the last: above every bound, +Inf).
 */
#ifndef AL_CORE_MWIN_H
#define AL_CORE_MWIN_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

#include "result.h"

#define AL_MW_BOUNDS 20
#define AL_MW_BUCKETS (AL_MW_BOUNDS + 1)

/* The upper bounds (inclusive) of the buckets: 5 us .. 10 s, 1-2-5 steps. */
extern const int64_t al_mw_le_ns[AL_MW_BOUNDS];

/* The bucket of a value. */
int al_mw_bucket_of(int64_t v_ns);

/* One window: [start_ns, start_ns + len_ns) of the stream (relative to its start). */
struct al_mw {
	int64_t start_ns;
	int64_t len_ns;
	uint64_t periods;       /* periods due in it */
	uint64_t wakeups;       /* of them, served by a wake-up of their own */
	uint64_t missed;        /* of them, swallowed by a stall */
	uint64_t xruns;         /* xrun events that began in it */
	uint64_t lost_periods;  /* of those events */
	int64_t wake_min_ns;    /* per period due; INT64_MAX when no period was due */
	int64_t wake_max_ns;    /* INT64_MIN when no period was due */
	int64_t wake_sum_ns;    /* saturating */
	int64_t interval_max_ns; /* longest wake-up to wake-up, 0: none */
	uint64_t buckets[AL_MW_BUCKETS]; /* per period due, not cumulative */
};

void al_mw_init(struct al_mw *w, int64_t start_ns, int64_t len_ns);
void al_mw_add(struct al_mw *w, int64_t v_ns);
/* first, first + step, ..., n values (step >= 1): cost of the buckets, not of n. */
void al_mw_add_run(struct al_mw *w, int64_t first_ns, int64_t step_ns, uint64_t n);
/* b into a (a's start and length span both). */
void al_mw_merge(struct al_mw *a, const struct al_mw *b);

/*
 * The cumulative figures since the start, written by the audio thread
 * only (relaxed atomics: plain stores on x86-64, no lock), read at any
 * time by another (a scrape may see one period's fields half counted;
 * count its buckets for a consistent _count).
 */
struct al_mw_live {
	_Atomic uint64_t wake_buckets[AL_MW_BUCKETS];
	_Atomic int64_t wake_sum_ns;
	_Atomic int64_t wake_max_ns;
	_Atomic uint64_t interval_buckets[AL_MW_BUCKETS];
	_Atomic int64_t interval_sum_ns;
	_Atomic uint64_t periods;
	_Atomic uint64_t wakeups;
	_Atomic uint64_t missed;
	_Atomic uint64_t xruns;
	_Atomic uint64_t lost_periods;
};

/* A plain copy of the live figures (the reader's). */
struct al_mw_totals {
	uint64_t wake_buckets[AL_MW_BUCKETS];
	int64_t wake_sum_ns;
	int64_t wake_max_ns;     /* INT64_MIN: no period yet */
	uint64_t interval_buckets[AL_MW_BUCKETS];
	int64_t interval_sum_ns;
	uint64_t periods, wakeups, missed, xruns, lost_periods;
};

void al_mw_live_init(struct al_mw_live *l);
void al_mw_live_read(const struct al_mw_live *l, struct al_mw_totals *t);

/*
 * The windows the audio thread is writing: a ring of AL_MW_RING slots of
 * len_ns each, window k covering [k * len_ns, (k + 1) * len_ns) of the
 * stream. The audio thread writes window `head` and the ones after it that
 * a stall's periods were due in, then publishes the newest as head
 * (release): every window below head is closed and is read by one other
 * thread (al_mw_ring_take). A stall longer than the ring's span charges the
 * periods of the windows it would overwrite to the cumulative figures
 * only, and those windows are counted as lost.
 */
#define AL_MW_RING 64

struct al_mw_ring {
	int64_t len_ns;
	int64_t start_mono_ns;     /* the stream start (set before the first period) */
	_Atomic uint64_t head;     /* the window being written; all below are closed */
	_Atomic uint64_t pending;  /* the newest window the audio thread is about to write */
	uint64_t cur;              /* the audio thread's own copy of head */
	uint64_t skipped;          /* periods of windows a stall overran (the audio thread's) */
	struct al_mw slot[AL_MW_RING];
	uint64_t taken;            /* the reader's: the next window to take */
	uint64_t lost;             /* the reader's: windows overwritten before taken */
};

void al_mw_ring_init(struct al_mw_ring *ring, int64_t len_ns);

/*
 * Hot path (the audio thread): one period into the ring and into live
 * (NULL: the ring only). period_ns is the stream's period.
 */
void al_mw_record(struct al_mw_ring *ring, struct al_mw_live *live, const struct al_sample *s,
		  int64_t period_ns);

/*
 * The reader: copy the next closed window into *w; 1 when one was taken, 0
 * when none is closed yet. all: after the audio thread has stopped, the
 * window it was writing too (once).
 */
int al_mw_ring_take(struct al_mw_ring *ring, struct al_mw *w, int all);

/*
 * An archive of closed windows in order, at most cap of them. When it is
 * full, neighbours are merged in pairs (each window then covers twice the
 * time): the whole span stays, at half the resolution, in the same memory.
 */
struct al_mw_series {
	int64_t len_ns;        /* the length of the windows kept (doubles at each merge) */
	size_t cap;
	size_t n;
	unsigned merges;
	struct al_mw *w;
};

/* 0 or -ENOMEM (cap >= 2, even). */
int al_mw_series_init(struct al_mw_series *s, int64_t len_ns, size_t cap);
void al_mw_series_free(struct al_mw_series *s);
/*
 * A closed window (in order, no longer than len_ns) into the archive: into
 * the last window when it falls in its time, else into a new one.
 */
void al_mw_series_push(struct al_mw_series *s, const struct al_mw *w);

#endif
