/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "backend/backend.h"
#include "core/clock.h"
#include "core/rt.h"
#include "core/sysinfo.h"
#include "core/url.h"
#include "load/phases.h"
#include "trace/trace.h"
#include "busy.h"
#include "clients.h"
#include "spikes.h"
#include "why-sampler.h"
#include "run.h"

#define XRUN_EVENTS_MAX 65536
#define RT_STACK_PREFAULT (256 * 1024)
#define LOAD_POLL_NS (100 * AL_NS_PER_MS)
#define FINISHED_POLL_NS (50 * AL_NS_PER_MS)

struct run_ctx {
	const struct al_run_opts *o;
	const struct al_backend_ops *ops;
	void *priv;
	struct al_result *r;
	int64_t work_target_ns;
	atomic_int ready;     /* audio thread calibrated */
	atomic_int go;        /* controller: start the stream */
	atomic_bool stop;     /* controller: end the loop */
	atomic_int started;   /* audio thread: stream running, r->start_mono_ns valid */
	atomic_int finished;  /* audio thread left its loop */
	int thread_rc;
	int mlock_rc;         /* mlockall's -errno, 0: memory locked */
	atomic_int cb_error;  /* a callback-mode backend's stream died (-errno) */
	int64_t prev_wake_ns; /* audio thread only */
	bool callback;        /* the backend delivers periods from its own thread */
	struct al_period_hooks hooks; /* callback-mode backends */
	struct al_spikes spikes;      /* --trace */
	struct al_run_clients clients; /* --trace, --blame: the server's other clients (JACK) */
	struct al_why_run *why;       /* the evidence of causes (o->why), NULL */
	struct al_khist *khist;       /* --trace: the kernel's wake-to-run histogram, NULL */
	int64_t next_fault_ns;        /* o->fault_pages: audio thread only */
};

#define FAULT_EVERY_NS (100 * AL_NS_PER_MS)
#define FAULT_CHUNK_PAGES 128 /* a mapping too small for a huge page: one fault per page */

/*
 * --fault-pages: touch n fresh pages (a fault of known kind on the hot
 * path, on purpose), in mappings of FAULT_CHUNK_PAGES so that no
 * transparent huge page can serve them: exactly n minor faults.
 */
static void
touch_fresh_pages(int n)
{
	long page = sysconf(_SC_PAGESIZE);

	while (n > 0) {
		int k = n < FAULT_CHUNK_PAGES ? n : FAULT_CHUNK_PAGES;
		size_t len = (size_t)k * (size_t)page;
		volatile char *p = mmap(NULL, len, PROT_READ | PROT_WRITE,
					MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);

		if (p == MAP_FAILED)
			return;
		madvise((void *)p, len, MADV_NOHUGEPAGE);
		for (int i = 0; i < k; i++)
			p[(size_t)i * (size_t)page] = 1;
		munmap((void *)p, len);
		n -= k;
	}
}

/* Hot path: the period's busy work; returns the clock after it. */
static int64_t
period_work(void *ctx, int64_t *start_ns)
{
	struct run_ctx *c = ctx;

	*start_ns = al_clock_now_ns();
	al_busy_run(c->r->cpu_load_loops);
	if (c->o->fault_pages > 0 && *start_ns >= c->next_fault_ns) {
		/* at the first period after each 100 ms of the stream, the first excepted */
		if (c->next_fault_ns)
			touch_fresh_pages(c->o->fault_pages);
		else
			c->next_fault_ns = c->r->start_mono_ns;
		while (c->next_fault_ns <= *start_ns)
			c->next_fault_ns += FAULT_EVERY_NS;
	}
	return al_clock_now_ns();
}

/* Hot path: account one period. */
static void
period_record(void *ctx, const struct al_wake *w, int64_t work_start_ns, int64_t work_end_ns,
	      const struct al_write_info *wi)
{
	struct run_ctx *c = ctx;
	struct al_sample s = {
		.boundary_ns = w->boundary_ns,
		.wake_ns = w->wake_ns,
		.prev_wake_ns = c->prev_wake_ns,
		.work_ns = work_end_ns - work_start_ns,
		.seen_ns = work_end_ns,
		.margin_ns = wi->margin_ns,
		.missed_before = wi->missed_before,
		/*
		 * The boundaries after ours that will get no wake-up: what the
		 * backend filled beyond this period, or (an xrun's restart)
		 * every boundary passed by the end of the work. A callback
		 * backend's server counts them (missed_before of the next cycle).
		 */
		.missed = c->callback ? 0
			  : wi->missed_known ? wi->missed
			  : work_end_ns > w->boundary_ns
				  ? (work_end_ns - w->boundary_ns) / c->r->period_ns
				  : 0,
		.xrun_start_ns = wi->xrun_start_ns,
		.xrun_ns = wi->xrun_ns,
		.lost_periods = wi->lost_periods,
		.xrun_source = wi->xrun_source,
		.period_frames = wi->period_frames,
		.rate_hz = wi->rate_hz,
		.clock_valid = wi->clock_valid,
		.delay_frames = wi->delay_frames,
		.rate_diff = wi->rate_diff,
	};

	/* the run ended: what a backend's thread still delivers is not part of it */
	if (atomic_load_explicit(&c->stop, memory_order_relaxed))
		return;
	al_result_record(c->r, &s);
	if (c->o->tap)
		c->o->tap(c->o->hook_ud, &s, c->r);
	al_spikes_mark(&c->spikes, w->boundary_ns, w->wake_ns);
	if (c->why) {
		if (!atomic_load_explicit(&c->why->tid, memory_order_relaxed))
			atomic_store(&c->why->tid, gettid()); /* once: the thread that measures */
		al_why_mark(c->why, &s);
	}
	al_run_clients_mark(&c->clients, w->boundary_ns);
	c->prev_wake_ns = w->wake_ns;
}

/* Any thread: a callback-mode backend lost its stream (the server went away). */
static void
period_fail(void *ctx, int err)
{
	struct run_ctx *c = ctx;

	atomic_store(&c->cb_error, err ? err : -EIO);
}

/* The measurement hot path: wait, work, write, record. Nothing else. */
static int
measure_loop(struct run_ctx *c)
{
	const struct al_backend_ops *ops = c->ops;
	int64_t t0_ns, t1_ns;
	/*
	 * zeroed once: what a wait/write backend does not set stays 0
	 * (period_frames, rate_hz, clock_valid: the period is the one it opened)
	 */
	struct al_write_info wi = { 0 };
	struct al_wake w;
	int rc;

	while (!atomic_load_explicit(&c->stop, memory_order_relaxed)) {
		rc = ops->wait(c->priv, &w);
		if (rc)
			return rc;
		t1_ns = period_work(c, &t0_ns);
		rc = ops->write(c->priv, t1_ns, &wi);
		if (rc)
			return rc;
		period_record(c, &w, t0_ns, t1_ns, &wi);
	}
	return 0;
}

static void *
audio_thread(void *arg)
{
	struct run_ctx *c = arg;
	int64_t start_ns;
	int rc;

	al_rt_prefault_stack(RT_STACK_PREFAULT);
	c->spikes.tid = gettid(); /* whom --trace follows */
	c->r->cpu_load_loops = al_busy_calibrate(c->work_target_ns);
	atomic_store(&c->ready, 1);
	while (!atomic_load(&c->go) && !atomic_load(&c->stop))
		al_clock_sleep_until_ns(al_clock_now_ns() + AL_NS_PER_MS);
	if (atomic_load(&c->stop)) {
		c->thread_rc = 0;
		goto out;
	}
	if (c->ops->start_cb) {
		/* the backend's own thread measures; this one only waits */
		c->hooks = (struct al_period_hooks){ period_work, period_record, c, period_fail };
		rc = c->ops->start_cb(c->priv, &c->hooks, &c->r->start_mono_ns);
		if (rc) {
			c->thread_rc = rc;
			goto out;
		}
		atomic_store(&c->started, 1);
		while (!atomic_load(&c->stop) && !atomic_load(&c->cb_error))
			al_clock_sleep_until_ns(al_clock_now_ns() + 10 * AL_NS_PER_MS);
		c->thread_rc = atomic_load(&c->cb_error);
		goto out;
	}
	rc = c->ops->start(c->priv, &start_ns);
	if (rc) {
		c->thread_rc = rc;
		goto out;
	}
	c->r->start_mono_ns = start_ns;
	atomic_store(&c->started, 1);
	c->thread_rc = measure_loop(c);
out:
	atomic_store(&c->finished, 1);
	return NULL;
}

/*
 * --trace: an ftrace instance on the audio thread's CPU (pinned to the
 * last CPU if it was not). Failing that, one warning and no tracing.
 */
static void
trace_open(struct run_ctx *c, const struct al_run_opts *o)
{
	struct al_result *r = c->r;
	char err[AL_WARN_LEN];
	long ncpu;

	if (c->ops->tasks && r->cfg.blame >= 0) {
		/* the server's thread measures: its clients' threads are followed instead */
		if (al_run_clients_open(&c->clients, c->ops, c->priv, r->period_ns, err, sizeof(err)))
			al_result_warn(r, "%s: %s; running without tracing",
				       o->trace ? "--trace" : "--blame", err);
		return;
	}
	if (c->ops->start_cb) {
		al_result_warn(r, "--trace: not available with the %s backend (its thread is the "
			       "server's); running without tracing", c->ops->name);
		return;
	}
	if (r->cfg.affinity_cpu < 0) {
		ncpu = sysconf(_SC_NPROCESSORS_ONLN);
		r->cfg.affinity_cpu = ncpu > 0 ? (int)ncpu - 1 : 0;
		al_result_warn(r, "--trace: the audio thread is pinned to CPU %d (tracing follows "
			       "one CPU)", r->cfg.affinity_cpu);
	}
	if (al_spikes_open(&c->spikes, r->cfg.affinity_cpu,
			   o->trace_threshold_ns > 0 ? o->trace_threshold_ns : r->buffer_ns / 2,
			   err, sizeof(err)))
		al_result_warn(r, "--trace: %s; running without tracing", err);
	r->trace_threshold_ns = c->spikes.trace ? c->spikes.threshold_ns : 0;
}

/* mlockall refused: one warning (where start_audio_thread did not say it) */
static void
warn_mlock(struct run_ctx *c)
{
	bool limit = c->mlock_rc == -ENOMEM || c->mlock_rc == -EPERM;

	al_result_warn(c->r, "mlockall failed (%s); memory is not locked%s", strerror(-c->mlock_rc),
		       limit ? "; needs a memlock limit in " AL_RT_LIMITS_FILE : "");
	c->mlock_rc = 0;
}

/*
 * Start the audio thread at SCHED_FIFO, or SCHED_OTHER with one warning
 * naming the limits file (and memory not locked, when mlockall failed too).
 */
static int
start_audio_thread(struct run_ctx *c, pthread_t *thread)
{
	const struct al_config *cfg = &c->r->cfg;
	sigset_t all, old;
	int rc;

	/* signals go to the controlling thread only */
	sigfillset(&all);
	pthread_sigmask(SIG_BLOCK, &all, &old);
	rc = al_rt_thread_start(thread, audio_thread, c, cfg->priority, cfg->affinity_cpu);
	if (rc == -EPERM && cfg->priority > 0) {
		if (c->mlock_rc == -ENOMEM || c->mlock_rc == -EPERM)
			al_result_warn(c->r, "SCHED_FIFO priority %d not permitted, memory not locked: "
				       "measured at SCHED_OTHER; needs rtprio and memlock limits in "
				       AL_RT_LIMITS_FILE, cfg->priority);
		else
			al_result_warn(c->r, "SCHED_FIFO priority %d not permitted: measured at "
				       "SCHED_OTHER (not real-time); needs an rtprio limit in "
				       AL_RT_LIMITS_FILE, cfg->priority);
		if (c->mlock_rc == -ENOMEM || c->mlock_rc == -EPERM)
			c->mlock_rc = 0;
		rc = al_rt_thread_start(thread, audio_thread, c, 0, cfg->affinity_cpu);
	} else if (!rc && cfg->priority > 0) {
		c->r->realtime = true;
		c->r->priority = cfg->priority;
	}
	pthread_sigmask(SIG_SETMASK, &old, NULL);
	if (c->mlock_rc)
		warn_mlock(c);
	return rc;
}

/* The controller's tick: the audio thread left its loop (a stream that died) ends the run. */
static int
control_tick(void *ud, int64_t now_ns)
{
	struct run_ctx *c = ud;

	if (atomic_load(&c->finished))
		return -EIO;
	al_spikes_service(&c->spikes, c->r);
	al_run_clients_service(&c->clients);
	if (c->o->tick)
		c->o->tick(c->o->hook_ud, c->r, now_ns);
	return 0;
}

static void
control_status(void *ud, int64_t now_ns)
{
	struct run_ctx *c = ud;

	c->o->status(c->o->status_ud, c->r, now_ns - c->r->start_mono_ns);
}

static void
control_phase(void *ud, size_t i)
{
	struct run_ctx *c = ud;

	atomic_store(&c->r->live.phase, (int)i);
}

/*
 * --trace: the kernel's own wake-to-run histogram of the audio thread
 * (al_khist_open), made before the stream starts. r->kwake says why not
 * where it cannot be made (no hist triggers; a callback backend, whose
 * measuring thread is the server's client thread).
 */
static void
khist_open(struct run_ctx *c)
{
	struct al_result *r = c->r;
	int rc;

	if (!c->o->trace)
		return;
	r->kwake = calloc(1, sizeof(*r->kwake));
	if (!r->kwake)
		return;
	if (c->callback) {
		snprintf(r->kwake->note, sizeof(r->kwake->note),
			 "not made: the %s backend measures in its own callback thread",
			 c->ops->name);
		return;
	}
	rc = al_khist_open(&c->khist, c->spikes.tid, r->kwake->note, sizeof(r->kwake->note));
	if (rc)
		c->khist = NULL;
}

/* After the stream stopped: what the kernel counted, then its triggers removed. */
static void
khist_close(struct run_ctx *c)
{
	struct al_result *r = c->r;
	int rc;

	if (!c->khist)
		return;
	rc = al_khist_read(c->khist, r->kwake);
	if (rc)
		snprintf(r->kwake->note, sizeof(r->kwake->note), "the kernel's histogram: %s",
			 strerror(-rc));
	al_khist_close(c->khist);
	c->khist = NULL;
}

/* The controller: phases and their loads, status, the end of the run. Not real-time. */
static void
control(struct run_ctx *c)
{
	const struct al_run_opts *o = c->o;
	struct al_result *r = c->r;
	struct al_phase_driver d = {
		.spec = o->phases, .n_spec = o->n_phases, .load_opts = o->load_opts,
		.stop_requested = o->stop_requested,
		.tick = control_tick, .tick_ns = FINISHED_POLL_NS, .poll_ns = LOAD_POLL_NS,
		.status = o->status ? control_status : NULL, .status_ns = o->status_interval_ns,
		.phase_begin = control_phase, .ud = c, .phases = r->phases,
	};
	int64_t now_ns;

	while (!atomic_load(&c->ready))
		al_clock_sleep_until_ns(al_clock_now_ns() + AL_NS_PER_MS);
	khist_open(c);
	atomic_store(&c->go, 1);
	while (!atomic_load(&c->started) && !atomic_load(&c->finished))
		al_clock_sleep_until_ns(al_clock_now_ns() + 100 * AL_NS_PER_US);
	if (!atomic_load(&c->started))
		return;
	if (c->khist)
		al_khist_count(c->khist, true);
	/* started_at is the stream start, where every t_ns of the result counts from */
	now_ns = al_clock_now_ns();
	r->started_at_ns = al_clock_realtime_ns() - (now_ns - r->start_mono_ns);
	d.origin_ns = r->start_mono_ns;
	d.end_ns = r->start_mono_ns + r->cfg.duration_ns;
	if (c->why)
		al_why_run_origin(c->why, r->start_mono_ns);
	al_phase_driver_run(&d);
	r->interrupted = d.interrupted;
	/* an interrupted run keeps the phases it reached */
	r->n_phases = d.n_done;
	/* the end of the run: nothing after it is recorded (period_record) */
	atomic_store(&c->stop, true);
	if (c->khist)
		al_khist_count(c->khist, false);
	r->duration_ns = al_clock_now_ns() - r->start_mono_ns;
	if (d.n_done)
		r->phases[d.n_done - 1].end_ns = r->duration_ns;
}

/* What the backend cannot do by its caps, and what none does; then its probe. 0 or -errno. */
static int
check_backend(struct run_ctx *c, const struct al_config *cfg)
{
	c->ops = c->o->backend;
	if (!c->ops)
		return -ENOENT;
	c->callback = c->ops->start_cb != NULL;
	if (c->ops->unavailable)
		return -ENOTSUP;
	if (al_backend_refuses(c->ops, cfg) || (cfg->capture && (cfg->duplex || cfg->tone_hz)) ||
	    (cfg->device[0] && !al_backend_can(c->ops, AL_CAP_DEVICE)))
		return -EINVAL;
	return c->ops->probe ? c->ops->probe(cfg) : 0;
}

/* The result allocated (the phases named, who and where) and the backend's state. */
static int
prepare(struct run_ctx *c)
{
	const struct al_run_opts *o = c->o;
	struct al_result *r = c->r;
	int rc;

	rc = al_result_alloc(r, &o->cfg, o->n_phases ? o->n_phases : 1, XRUN_EVENTS_MAX);
	if (rc)
		return rc;
	if (!o->n_phases)
		snprintf(r->phases[0].name, sizeof(r->phases[0].name), "idle");
	for (size_t i = 0; i < o->n_phases; i++)
		snprintf(r->phases[i].name, sizeof(r->phases[i].name), "%s", o->phases[i].name);
	snprintf(r->tool_version, sizeof(r->tool_version), "%s", AL_VERSION);
	if (al_uuid_random(r->uuid))
		r->uuid[0] = '\0'; /* the store makes one of the document's bytes */
	al_sysinfo_read("/", &r->sys);
	r->started_at_ns = al_clock_realtime_ns();
	c->priv = calloc(1, c->ops->priv_size ? c->ops->priv_size : 1);
	if (!c->priv) {
		al_result_free(r);
		return -ENOMEM;
	}
	return 0;
}

/* Memory locked, /dev/cpu_dma_latency set: what rt restores. */
static void
lock_down(struct run_ctx *c, struct al_rt *rt)
{
	const struct al_config *cfg = &c->o->cfg;
	struct al_result *r = c->r;
	int rc;

	al_rt_init(rt);
	/* its warning comes with SCHED_FIFO's (start_audio_thread): one, naming the limits */
	c->mlock_rc = al_rt_lock_memory(rt);
	r->memory_locked = rt->locked;
	if (cfg->dma_latency_us >= 0) {
		rc = al_rt_dma_latency_set(rt, cfg->dma_latency_us);
		if (rc)
			al_result_warn(r, "/dev/cpu_dma_latency: %s; not applied", strerror(-rc));
		r->dma_latency_us = rt->dma_latency_us;
	}
}

/* The backend opened (r->cfg what the device gave), the period's figures, --trace. */
static int
open_backend(struct run_ctx *c)
{
	const struct al_config *cfg = &c->o->cfg;
	struct al_result *r = c->r;
	int rc;

	/* the backend writes back what the device gave; the request stays beside it */
	r->cfg.req_rate_hz = cfg->rate_hz;
	r->cfg.req_period_frames = cfg->period_frames;
	r->cfg.req_periods = cfg->periods;
	rc = c->ops->open(c->priv, &r->cfg);
	if (rc) {
		if (c->mlock_rc)
			warn_mlock(c);
		if (c->ops->info)
			c->ops->info(c->priv, &r->backend);
		return rc;
	}
	r->period_ns = al_frames_to_ns(r->cfg.period_frames, r->cfg.rate_hz);
	r->buffer_ns = al_frames_to_ns(r->cfg.period_frames * r->cfg.periods, r->cfg.rate_hz);
	c->work_target_ns = r->period_ns * cfg->cpu_load_pct / 100;
	if (c->o->trace || (c->ops->tasks && cfg->blame > 0))
		trace_open(c, c->o);
	if (c->o->why) {
		c->why = calloc(1, sizeof(*c->why));
		if (!c->why || al_why_run_init(c->why, r, r->period_ns, c->o->why_threshold_ns)) {
			free(c->why);
			c->why = NULL;
			al_result_warn(r, "--why: out of memory; no causes collected");
		} else if (al_why_run_start(c->why)) {
			/* its thread started now: its stack locked before the measurement */
			al_result_warn(r, "--why: %s", r->why->note);
		}
	}
	return 0;
}

/* The stream stopped: what the backend and the tracers know, then everything closed. */
static void
close_backend(struct run_ctx *c, struct al_rt *rt)
{
	struct al_result *r = c->r;

	al_spikes_finish(&c->spikes, r);
	al_run_clients_finish(&c->clients, r);
	khist_close(c);
	if (c->why)
		al_why_run_stop(c->why);
	c->ops->stop(c->priv);
	if (c->ops->info)
		c->ops->info(c->priv, &r->backend);
	if (c->ops->graph && atomic_load(&c->started)) {
		r->graph = calloc(1, sizeof(*r->graph));
		if (r->graph && c->ops->graph(c->priv, r->graph, r->start_mono_ns) &&
		    !r->graph->note[0]) {
			free(r->graph);
			r->graph = NULL;
		}
	}
	c->ops->close(c->priv);
	al_rt_restore(rt);
	free(c->priv);
	if (c->why)
		al_why_run_free(c->why);
	free(c->why);
	c->why = NULL;
}

/* The measured result finished: its statistics, the run's priority, what was not kept. */
static int
finish(struct run_ctx *c)
{
	struct al_result *r = c->r;

	al_result_finish(r);
	if (r->kwake)
		al_kernel_wake_judge(r->kwake, &r->total, r->backend.bound_fitted);
	if (r->backend.rt_known) {
		/* the backend's own thread measured: its priority is the run's */
		r->realtime = r->backend.rt_priority > 0;
		r->priority = r->backend.rt_priority;
	}
	if (r->segments_merged)
		al_result_warn(r, "the period changed %llu times more than the %d stretches kept: the "
			       "last one holds them", (unsigned long long)r->segments_merged,
			       AL_SEGMENTS_MAX);
	if (atomic_load(&r->xrun_events_dropped))
		al_result_warn(r, "%llu xrun events beyond the first %d were counted but not kept",
			       (unsigned long long)atomic_load(&r->xrun_events_dropped),
			       XRUN_EVENTS_MAX);
	if (c->thread_rc) {
		/* what was measured until the stream died is kept, marked */
		r->interrupted = true;
		al_result_warn(r, "the backend failed during the run: %s", strerror(-c->thread_rc));
	}
	return c->thread_rc;
}

int
al_run(const struct al_run_opts *o, struct al_result *r)
{
	struct run_ctx c = { .o = o, .r = r };
	pthread_t thread;
	struct al_rt rt;
	int rc;

	memset(r, 0, sizeof(*r));
	rc = check_backend(&c, &o->cfg);
	if (!rc)
		rc = prepare(&c);
	if (rc)
		return rc;
	lock_down(&c, &rt);
	rc = open_backend(&c);
	if (rc)
		goto err_restore;
	rc = start_audio_thread(&c, &thread);
	if (rc)
		goto err_close;
	control(&c);
	atomic_store(&c.stop, true);
	pthread_join(thread, NULL);
	close_backend(&c, &rt);
	if (!atomic_load(&c.started)) {
		rc = c.thread_rc ? c.thread_rc : -EIO;
		goto err_free;
	}
	return finish(&c);

err_close:
	al_spikes_finish(&c.spikes, r);
	al_run_clients_finish(&c.clients, r);
	if (c.why)
		al_why_run_free(c.why);
	free(c.why);
	c.ops->close(c.priv);
err_restore:
	al_rt_restore(&rt);
	free(c.priv);
err_free:
	al_result_free(r);
	return rc;
}
