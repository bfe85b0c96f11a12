/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cpu: N workers (default one per load CPU) run a fixed busy mix of
 * integer hashing, floating point and small-array memory work. Each
 * worker calibrates once how many mixes take about a millisecond and
 * adds to the shared counter per batch, so loops_per_s counts mixes.
 */
#define AL_LOAD_PRIVATE
#include <math.h>
#include <stdint.h>
#include <stdio.h>

#include "core/clock.h"
#include "load-private.h"

#define MIX_WORDS 512

static volatile uint64_t sink;

/* One mix: about a microsecond of mixed work on a modern CPU. */
static inline uint64_t
mix(uint64_t x, uint64_t *arr, double *acc)
{
	double f = *acc;
	int i;

	for (i = 0; i < 64; i++) {
		x ^= x << 13;
		x ^= x >> 7;
		x ^= x << 17;
		arr[x % MIX_WORDS] += x;
		f = f * 0.999999 + sqrt((double)(x & 0xffff));
	}
	*acc = f;
	return x;
}

static int
cpu_workers(const struct al_load_opts *o)
{
	return o->workers > 0 ? o->workers : al__load_ncpus(o);
}

static int
cpu_worker(struct al_load_ctx *c)
{
	uint64_t arr[MIX_WORDS] = { 0 }, x = 0x9e3779b97f4a7c15ULL + (uint64_t)c->index;
	uint64_t batch = 16, n;
	double acc = 0;
	int64_t t0_ns, t_ns;

	al__load_set_comm("cpu");
	/* calibrate: grow the batch until it takes >= 1 ms */
	for (;;) {
		t0_ns = al_clock_now_ns();
		for (n = 0; n < batch; n++)
			x = mix(x, arr, &acc);
		t_ns = al_clock_now_ns() - t0_ns;
		if (t_ns >= AL_NS_PER_MS || batch >= (1ULL << 40))
			break;
		batch *= 2;
	}
	al__load_work_started(c->shm);
	for (;;) {
		for (n = 0; n < batch; n++)
			x = mix(x, arr, &acc);
		al__load_add(c->shm, 0, batch);
		sink = x + (uint64_t)acc;
	}
	return 0;
}

static void
cpu_describe(const struct al_load_opts *o, const char *arg, char *buf, size_t size)
{
	(void)arg;
	snprintf(buf, size, "workers=%d", cpu_workers(o));
}

static int
cpu_metrics(const struct al_load_shm *shm, int64_t work_ns, struct al_metric *m, int max)
{
	if (max < 1)
		return 0;
	al__load_metric(&m[0], "loops_per_s", al__load_per_s(shm, 0, work_ns), "1/s");
	return 1;
}

const struct al_load_ops al_load_cpu = {
	.name = "cpu",
	.summary = "busy workers on a fixed integer/float/memory mix (default one per CPU)",
	.option_names = "workers",
	.metric_names = "loops_per_s",
	.workers = cpu_workers,
	.worker = cpu_worker,
	.describe = cpu_describe,
	.metrics = cpu_metrics,
};
