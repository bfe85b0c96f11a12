/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rt.h"
#include "core/units.h"
#include "core/url.h"
#include "roundtrip.h"

/* The hot path: the backend's audio thread, every period. */
static void
process(void *ctx, const float *in, float *out, uint32_t nframes)
{
	al_mtdm_process(ctx, in, out, nframes);
}

static bool
stopped(const struct al_roundtrip_opts *o)
{
	return o->stop_requested && *o->stop_requested;
}

/* Sample the loop every 250 ms until the end, the stop flag or a dead stream. */
static int
measure(const struct al_roundtrip_opts *o, struct al_roundtrip_result *x, struct al_mtdm *m,
	void *priv)
{
	int64_t t0 = al_clock_now_ns(), next = t0 + AL_ROUNDTRIP_READING_NS;
	int64_t end = t0 + o->duration_ns;
	/* a stream that processed nothing for this long stalls (two periods + a reading) */
	int64_t stall_ns = AL_ROUNDTRIP_READING_NS +
			   2 * al_frames_to_ns(x->info.period_frames, x->info.rate_hz);
	int64_t moved_ns = t0;
	uint64_t frames = 0;

	x->t0_ns = t0;
	x->cap_rd = (size_t)(o->duration_ns / AL_ROUNDTRIP_READING_NS) + 2;
	x->rd = calloc(x->cap_rd, sizeof(*x->rd));
	if (!x->rd)
		return -ENOMEM;
	while (!stopped(o)) {
		struct al_roundtrip_reading *r;
		int64_t now;

		al_clock_sleep_until_ns(next < end ? next : end);
		if (stopped(o))
			break;
		now = al_clock_now_ns();
		o->ops->status(priv, &x->st);
		if (x->st.err) {
			x->stream_err = x->st.err;
			break;
		}
		if (x->n_rd < x->cap_rd) {
			r = &x->rd[x->n_rd++];
			r->t_ns = now - t0;
			r->xruns = x->st.xruns;
			al_mtdm_read(m, &r->r);
			if (r->r.frames != frames) {
				frames = r->r.frames;
				moved_ns = now;
			} else if (now - moved_ns > stall_ns) {
				r->r.status = AL_MTDM_NO_SIGNAL; /* old news */
			}
			if (o->reading)
				o->reading(o->ud, &r->r, x->info.rate_hz);
		}
		if (now >= end)
			break;
		while (next <= now)
			next += AL_ROUNDTRIP_READING_NS;
	}
	x->interrupted = stopped(o);
	x->ran_ns = al_clock_now_ns() - t0;
	return 0;
}

static int
fail(struct al_roundtrip_result *x, enum al_roundtrip_stage at, int rc)
{
	x->failed_at = at;
	return rc;
}

void
al_roundtrip_opts_init(struct al_roundtrip_opts *o)
{
	*o = (struct al_roundtrip_opts){
		.cfg = { .rate_hz = 48000, .period_frames = 256, .periods = 2, .priority = 70 },
		.duration_ns = 5 * AL_NS_PER_SEC,
	};
}

int
al_roundtrip_run(const struct al_roundtrip_opts *o, struct al_roundtrip_result *x)
{
	struct al_mtdm *m = NULL;
	struct al_rt rt;
	void *priv = NULL;
	bool opened = false, started = false;
	int rc;

	memset(x, 0, sizeof(*x));
	snprintf(x->backend, sizeof(x->backend), "%s", o->ops->name);
	x->device = o->cfg.device;
	x->capture_device = o->cfg.capture_device;
	x->self_loop = o->cfg.self_loop;
	if (al_uuid_random(x->uuid))
		x->uuid[0] = '\0'; /* no random bytes: no id */
	al_rt_init(&rt);
	priv = calloc(1, o->ops->priv_size);
	m = calloc(1, sizeof(*m));
	if (!priv || !m) {
		rc = fail(x, AL_ROUNDTRIP_MEMORY, -ENOMEM);
		goto out;
	}
	rc = o->ops->open(priv, &o->cfg, &x->info, x->why, sizeof(x->why));
	if (rc) {
		fail(x, AL_ROUNDTRIP_OPEN, rc);
		goto out;
	}
	opened = true;
	/* init writes the whole estimator (its sine table): prefaulted */
	if (al_mtdm_init(m, x->info.rate_hz)) {
		snprintf(x->why, sizeof(x->why), "unusable rate %u Hz", x->info.rate_hz);
		rc = fail(x, AL_ROUNDTRIP_RATE, -EDOM); /* the server's rate: not a usage error */
		goto out;
	}
	x->memory_locked = al_rt_lock_memory(&rt) == 0;
	x->started_at_ns = al_clock_realtime_ns();
	rc = o->ops->start(priv, process, m, x->why, sizeof(x->why));
	if (rc) {
		if (!x->why[0])
			snprintf(x->why, sizeof(x->why), "%s", strerror(-rc));
		fail(x, AL_ROUNDTRIP_START, rc);
		goto out;
	}
	started = true;
	rc = measure(o, x, m, priv);
	if (rc) {
		fail(x, AL_ROUNDTRIP_MEASURE, rc);
		goto out;
	}
	/* the last status: JACK's latencies are settled by now */
	if (!x->stream_err)
		o->ops->status(priv, &x->st);
	o->ops->stop(priv);
	started = false;

	al_roundtrip_summarize(x->rd, x->n_rd, &x->s);
	x->nominal_frames = x->info.latency_known ? (double)x->st.capture_latency_frames +
							    x->st.playback_latency_frames
						  : NAN;
	x->extra_frames = x->s.delay_frames - x->nominal_frames;
	/* the extra rounded to whole frames, half each way (assumes symmetry) */
	x->io_frames = x->info.jackd_io && x->extra_frames > -0.5 ? lround(x->extra_frames) / 2 : -1;
out:
	if (started)
		o->ops->stop(priv);
	if (opened)
		o->ops->close(priv);
	al_rt_restore(&rt);
	free(m);
	free(priv);
	return rc;
}

void
al_roundtrip_result_free(struct al_roundtrip_result *x)
{
	free(x->rd);
	x->rd = NULL;
	x->n_rd = 0;
}
