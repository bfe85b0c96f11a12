/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The flight recorder's controller side (src/run/spikes.c, compiled in):
 * which late wake-ups are suspected and queued, the explanations kept
 * (the worst AL_SPIKES_MAX), their rate limit and their times relative to
 * the run. The flight recorder itself (src/trace) is answered here: an
 * explanation names one cause, the mark's own wake-up.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "run/spikes.h"
#include "trace/trace.h"

#define MS AL_NS_PER_MS

static struct al_trace *fake = (struct al_trace *)&fake;
static bool armed;
static int explained, closed;

int
al_trace_open(struct al_trace **out, int cpu, size_t buffer_kb, char *err, size_t err_size)
{
	(void)cpu;
	(void)buffer_kb;
	(void)err;
	(void)err_size;
	*out = fake;
	return 0;
}

int
al_trace_follow(struct al_trace *t, pid_t tid)
{
	(void)t;
	(void)tid;
	return 0;
}

int
al_trace_arm(struct al_trace *t, bool rich)
{
	(void)t;
	armed = rich;
	return 0;
}

bool
al_trace_armed(const struct al_trace *t)
{
	(void)t;
	return armed;
}

int
al_trace_explain(struct al_trace *t, int64_t from_ns, int64_t to_ns, pid_t tid,
		 struct al_spike *out)
{
	(void)t;
	(void)tid;
	explained++;
	out->n_causes = 1;
	snprintf(out->causes[0].kind, sizeof(out->causes[0].kind), "task");
	out->causes[0].duration_ns = to_ns - from_ns;
	return 0;
}

int
al_trace_symbolize(struct al_spike *spikes, int n)
{
	(void)spikes;
	(void)n;
	return 0;
}

void
al_trace_close(struct al_trace *t)
{
	(void)t;
	closed++;
}

static struct al_spikes s;
static struct al_result r;

/* a threshold of 4 ms; the run started at 1000 s */
static int
setup(void **state)
{
	char err[64];

	(void)state;
	memset(&r, 0, sizeof(r));
	r.start_mono_ns = 1000 * AL_NS_PER_SEC;
	armed = false;
	explained = closed = 0;
	return al_spikes_open(&s, 0, 4 * MS, err, sizeof(err));
}

static void
suspects_and_marks(void **state)
{
	int64_t b = r.start_mono_ns + 10 * MS;

	(void)state;
	/* 3/4 of the threshold (3 ms) or less: nothing; later: suspected; past 4 ms: queued */
	al_spikes_mark(&s, b, b + 2900 * AL_NS_PER_US);
	assert_int_equal(atomic_load(&s.suspect_ns), 0);
	al_spikes_mark(&s, b, b + 3500 * AL_NS_PER_US);
	assert_int_equal(atomic_load(&s.suspect_ns), b + 3500 * AL_NS_PER_US);
	assert_int_equal(atomic_load(&s.idx.head), 0);
	al_spikes_mark(&s, b, b + 4100 * AL_NS_PER_US);
	assert_int_equal(atomic_load(&s.idx.head), 1);
	/* the suspect arms the rich events */
	al_spikes_service(&s, &r);
	assert_true(armed);
	assert_int_equal(r.n_spikes, 1);
	assert_int_equal(r.spikes[0].latency_ns, 4100 * AL_NS_PER_US);
	al_spikes_finish(&s, &r);
	/* times from the run's start */
	assert_int_equal(r.spikes[0].t_ns, 10 * MS);
	assert_int_equal(closed, 1);
}

static void
rate_limited(void **state)
{
	int64_t b = r.start_mono_ns;

	(void)state;
	/* two at once: the first explained, the second within the interval only counted */
	al_spikes_mark(&s, b + 10 * MS, b + 15 * MS);
	al_spikes_mark(&s, b + 20 * MS, b + 30 * MS);
	al_spikes_service(&s, &r);
	assert_int_equal(explained, 1);
	assert_int_equal(r.n_spikes, 1);
	assert_int_equal(r.spikes_dropped, 1);
	assert_int_equal(r.spikes[0].latency_ns, 5 * MS);
	/* the last ones are explained at the end, whatever the interval */
	al_spikes_mark(&s, b + 40 * MS, b + 46 * MS);
	al_spikes_finish(&s, &r);
	assert_int_equal(explained, 2);
	assert_int_equal(r.n_spikes, 2);
	assert_int_equal(r.spikes[1].t_ns, 40 * MS);
	assert_int_equal(r.spikes[1].latency_ns, 6 * MS);
}

static void
worst_are_kept(void **state)
{
	int64_t b = r.start_mono_ns, lat;
	int i, k, n = AL_SPIKES_MAX + 5;
	bool seen[AL_SPIKES_MAX + 5] = { false };

	(void)state;
	/* more spikes than are kept, 5..5+n ms late, in a shuffled order */
	for (i = 0; i < n; i++) {
		k = (i * 7) % n;
		al_spikes_mark(&s, b + i * 100 * MS, b + i * 100 * MS + (5 + k) * MS);
		s.next_explain_ns = 0; /* no rate limit here */
		al_spikes_service(&s, &r);
	}
	al_spikes_finish(&s, &r);
	assert_int_equal(r.n_spikes, AL_SPIKES_MAX);
	assert_int_equal(r.spikes_dropped, 5);
	for (i = 0; i < r.n_spikes; i++) {
		lat = r.spikes[i].latency_ns / MS - 5;
		assert_true(lat >= 5 && lat < n);
		assert_false(seen[lat]);
		seen[lat] = true;
	}
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(suspects_and_marks, setup),
		cmocka_unit_test_setup(rate_limited, setup),
		cmocka_unit_test_setup(worst_are_kept, setup),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
