/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PipeWire backend: a pw_filter with DSP ports (playback, --capture,
 * --duplex) whose process callback runs in PipeWire's data thread
 * (PW_FILTER_FLAG_RT_PROCESS) and is the audio thread, as the JACK
 * backend's process callback is. Rate and quantum are the graph's, read
 * from the driver's clock every cycle (docs/pipewire.md).
 *
 * Per cycle, read at callback entry (the driver rewrites the position for
 * its next cycle while a late node still runs): the boundary is the
 * driver's clock.nsec, when the driver's cycle was due (a null sink: its
 * timer's nominal expiry; an ALSA driver: its estimate of when the
 * hardware reached the cycle's position), on CLOCK_MONOTONIC (checked
 * against our clocks, mapped when it is on another); the wake-up at
 * callback entry; the run driver's busy work; silence (or a sine) on the
 * output ports; the time left until the driver's next_nsec (margin).
 * clock.position says how many cycles ran without us: missed periods
 * charged to the cycle that finally ran us, and one xrun event from the
 * first cycle not served until we ran again, on our clock (the position
 * is checked against our own wake-ups: a driver change restarts it). A
 * change of clock.duration or rate (clock.force-quantum) is reported with
 * the cycle: the run driver splits the statistics there. clock.delay and
 * rate_diff go with every cycle into the time series.
 *
 * Our own main loop (pw_thread_loop) keeps the registry (nodes, ports,
 * the default sink and source), links our ports to the target node (-D,
 * else the default) through the link factory, and, for --blame, is the
 * profiler's client (pipewire-blame.c). The server going away ends the
 * run through the core's error event.
 */
#include <errno.h>
#include <math.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* (the extensions need pipewire.h first) */
#include <pipewire/pipewire.h>
#include <pipewire/extensions/metadata.h>
#include <pipewire/extensions/profiler.h>
#include <pipewire/filter.h>
#include <spa/node/io.h>
#include <spa/utils/result.h>

#define AL_PIPEWIRE_PRIVATE
#include "core/clock.h"
#include "pcmtime.h"
#include "pipewire-private.h"
#include "pipewire.h"

#define PREROLL_CYCLES 8        /* cycles before open returns: the quantum is known */
#define STALE_MAX_NS (10 * AL_NS_PER_SEC) /* a clock.nsec older than this: not a cycle's */
#define EARLY_SLACK_NS (AL_NS_PER_MS) /* a clock.nsec this far after our wake-up: not ours */
#define BLAME_TAIL_NS (1500 * AL_NS_PER_MS) /* the profiler's last batch, waited for at stop */
#define TONE_AMPLITUDE 0.25f    /* -12 dBFS */


/* --- the connection (pipewire-graph.c) ---------------------------------- */

/* The server went away (the loop thread): a run in progress ends. */
static void
on_dead(void *owner)
{
	struct pwb *b = owner;

	if (atomic_load(&b->armed) && b->h && b->h->fail)
		b->h->fail(b->h->ctx, -ECONNRESET);
}

static void
disconnect(struct pwb *b)
{
	if (b->g.loop)
		pw_thread_loop_lock(b->g.loop);
	if (b->filter) {
		spa_hook_remove(&b->filter_listener);
		pw_filter_destroy(b->filter);
	}
	b->filter = NULL;
	pwb_blame_fini(&b->blame);
	if (b->g.loop)
		pw_thread_loop_unlock(b->g.loop);
	pwg_disconnect(&b->g);
}

/* pwg_connect() with the profiler when --blame wants it: 0 with the loop locked. */
static int
connect_server(struct pwb *b)
{
	int rc;

	b->g.blame = b->want_blame ? &b->blame : NULL;
	b->g.on_dead = on_dead;
	b->g.owner = b;
	rc = pwg_connect(&b->g);
	if (rc)
		pwb_blame_fini(&b->blame);
	return rc;
}


/* --- the data thread (the clock arithmetic: pipewire-clock.c) -------------- */

/* The preroll, once: -p and -a on the data thread, which PipeWire made. */
static void
adjust_thread(struct pwb *b)
{
	struct sched_param sp = { 0 };
	int policy = 0;

	pthread_getschedparam(pthread_self(), &policy, &sp);
	/* PipeWire's RT module sets SCHED_RESET_ON_FORK with it */
	policy &= ~SCHED_RESET_ON_FORK;
	b->prio_before_policy = policy;
	b->prio_before = policy == SCHED_FIFO || policy == SCHED_RR ? sp.sched_priority : 0;
	if (b->want_priority >= 0) {
		struct sched_param want = { .sched_priority = b->want_priority };

		b->prio_errno = pthread_setschedparam(pthread_self(),
						      b->want_priority ? SCHED_FIFO : SCHED_OTHER, &want);
	}
	pthread_getschedparam(pthread_self(), &policy, &sp);
	policy &= ~SCHED_RESET_ON_FORK;
	b->prio_after = policy == SCHED_FIFO || policy == SCHED_RR ? sp.sched_priority : 0;
	if (b->want_cpu >= 0) {
		cpu_set_t set;

		CPU_ZERO(&set);
		CPU_SET(b->want_cpu, &set);
		b->cpu_errno = pthread_setaffinity_np(pthread_self(), sizeof(set), &set);
		b->cpu_pinned = !b->cpu_errno;
	}
}

/* Hot path: silence or the sine on our output ports. */
static void
fill_outputs(struct pwb *b, uint32_t n)
{
	float *out0 = b->n_out ? pw_filter_get_dsp_buffer(b->out[0], n) : NULL;
	int i;

	if (!out0)
		return;
	if (b->phase_inc > 0) {
		for (uint32_t f = 0; f < n; f++) {
			out0[f] = TONE_AMPLITUDE * sinf(b->phase);
			b->phase += b->phase_inc;
			if (b->phase >= 2 * (float)M_PI)
				b->phase -= 2 * (float)M_PI;
		}
	} else {
		memset(out0, 0, n * sizeof(float));
	}
	for (i = 1; i < b->n_out; i++) {
		float *o = pw_filter_get_dsp_buffer(b->out[i], n);

		if (o)
			memcpy(o, out0, n * sizeof(float));
	}
}

/* Hot path: one cycle of the graph. */
static void
on_process(void *data, struct spa_io_position *position)
{
	struct pwb *b = data;
	int64_t wake_ns = al_clock_now_ns(), frames, rate, period_ns, nsec_ns, next_ns, t0_ns, t1_ns;
	struct al_write_info wi = { 0 };
	struct spa_io_clock clk;
	struct al_wake w;
	uint64_t cycles;
	int i;

	if (!position)
		return;
	/* at once: a driver that began its next cycle rewrites it */
	clk = position->clock;
	frames = (int64_t)clk.duration;
	rate = clk.rate.denom;
	if (!atomic_load_explicit(&b->armed, memory_order_acquire)) {
		fill_outputs(b, (uint32_t)frames);
		if (atomic_load_explicit(&b->prio_state, memory_order_relaxed) == 0) {
			adjust_thread(b);
			pwb_classify_clock(b, (int64_t)clk.nsec, wake_ns);
			atomic_store_explicit(&b->prio_state, 1, memory_order_release);
		}
		atomic_store_explicit(&b->preroll_frames, frames, memory_order_relaxed);
		atomic_store_explicit(&b->preroll_rate, rate, memory_order_relaxed);
		atomic_fetch_add_explicit(&b->preroll, 1, memory_order_release);
		return;
	}
	if (frames <= 0 || rate <= 0) {
		/* no clock: nothing to measure against */
		fill_outputs(b, (uint32_t)(frames > 0 ? frames : 0));
		return;
	}
	w.wake_ns = wake_ns;
	period_ns = al_frames_to_ns(frames, rate);
	if (rate != b->rate_hz) {
		b->rate_hz = rate;
		al_grid_start(&b->grid, rate);
	}
	/*
	 * The boundary: when the driver's cycle was due, on our clock (a
	 * driver held up and catching up gives its cycles' nominal times:
	 * they were due then). A stamp on no clock of ours, or after our
	 * wake-up: the frame clock fitted to our wake-ups stands in
	 * (core/grid.h).
	 */
	nsec_ns = b->base == AL_STAMP_MONOTONIC ? (int64_t)clk.nsec
		  : b->base == AL_STAMP_REALTIME ? (int64_t)clk.nsec + b->base_offset_ns : 0;
	if (nsec_ns && (nsec_ns > wake_ns + EARLY_SLACK_NS || wake_ns - nsec_ns > STALE_MAX_NS))
		nsec_ns = 0;
	cycles = pwb_cycles_since(b, &clk, frames, wake_ns, nsec_ns, period_ns);
	b->frames += (int64_t)cycles * frames;
	if (nsec_ns) {
		w.boundary_ns = nsec_ns;
		b->bound_clock++;
	} else {
		w.boundary_ns = al_grid_boundary(&b->grid, b->frames, wake_ns);
		b->bound_grid++;
	}
	next_ns = b->base == AL_STAMP_MONOTONIC ? (int64_t)clk.next_nsec
		  : b->base == AL_STAMP_REALTIME ? (int64_t)clk.next_nsec + b->base_offset_ns : 0;
	if (next_ns <= w.boundary_ns || next_ns > w.boundary_ns + 2 * period_ns)
		next_ns = w.boundary_ns + period_ns;

	pwb_account_xrun(b, &clk, cycles, wake_ns, w.boundary_ns, period_ns, &wi);
	if (b->have_prev && (frames != b->prev_frames || rate != b->prev_rate))
		b->quantum_changes++;
	wi.period_frames = frames;
	wi.rate_hz = rate;
	wi.clock_valid = true;
	wi.delay_frames = clk.delay;
	wi.rate_diff = clk.rate_diff;
	if (frames < b->min_frames || !b->min_frames)
		b->min_frames = frames;
	if (frames > b->max_frames)
		b->max_frames = frames;

	t1_ns = b->h->work(b->h->ctx, &t0_ns);
	for (i = 0; i < b->n_in; i++) {
		volatile float *in = pw_filter_get_dsp_buffer(b->in[i], (uint32_t)frames);

		if (in)
			(void)in[0];
	}
	fill_outputs(b, (uint32_t)frames);
	wi.margin_ns = next_ns - al_clock_now_ns();

	pwb_remember_cycle(b, &clk, w.boundary_ns, wake_ns, nsec_ns);
	b->h->record(b->h->ctx, &w, t0_ns, t1_ns, &wi);
}

static void
on_filter_state(void *data, enum pw_filter_state old, enum pw_filter_state state,
		const char *error)
{
	struct pwb *b = data;

	(void)old;
	if (state == PW_FILTER_STATE_ERROR) {
		if (!b->g.error[0])
			snprintf(b->g.error, sizeof(b->g.error), "PipeWire: the filter failed: %s",
				 error ? error : "unknown error");
		atomic_store(&b->g.dead, 1);
		if (atomic_load(&b->armed) && b->h && b->h->fail)
			b->h->fail(b->h->ctx, -ECONNRESET);
	}
	pw_thread_loop_signal(b->g.loop, false);
}

static const struct pw_filter_events filter_events = {
	PW_VERSION_FILTER_EVENTS,
	.state_changed = on_filter_state,
	.process = on_process,
};

/* --- open: the filter, its ports, its links ------------------------------- */

static int
pw_probe(const struct al_config *cfg)
{
	if (cfg->mmap || (cfg->capture && cfg->duplex) || (cfg->tone_hz && cfg->capture))
		return -EINVAL;
	return 0;
}


/* Our n output ports to peer's inputs (out), or peer's outputs to our inputs: the links asked for. */
static int
link_direction(struct pwb *b, const struct pw_obj_node *peer, int n, bool out)
{
	const struct pw_obj_port *ours, *theirs;
	int i, want = 0;

	for (i = 0; peer && i < n; i++) {
		ours = pwg_node_port(&b->g, b->self_id, out, i);
		theirs = pwg_node_port(&b->g, peer->id, !out, i);
		if (!ours || !theirs)
			continue;
		if (out)
			pwg_link(&b->g, b->self_id, ours->id, peer->id, theirs->id);
		else
			pwg_link(&b->g, peer->id, theirs->id, b->self_id, ours->id);
		want++;
	}
	return want;
}

/* Our ports to the target's, as a player (a recorder) would. 0, or -ENOENT. */
static int
link_ports(struct pwb *b, const struct al_config *cfg, const struct pw_obj_node *play,
	   const struct pw_obj_node *rec)
{
	int want = link_direction(b, play, b->n_out, true) + link_direction(b, rec, b->n_in, false);

	(void)cfg;
	if (!want)
		return -ENOENT;
	pwg_sync(&b->g);
	pwg_wait(&b->g, NULL, &b->g.links_bound, want - atomic_load(&b->g.links_failed));
	return 0;
}

/* PWB_PORTS_MAX mono float ports of one direction, "out_N" or "in_N": 0 or -errno. */
static int
add_direction(struct pwb *b, enum pw_direction dir, struct pwb_port **ports, int *n)
{
	const char *prefix = dir == PW_DIRECTION_OUTPUT ? "out" : "in";
	char name[16];
	int i;

	for (i = 0; i < PWB_PORTS_MAX; i++) {
		snprintf(name, sizeof(name), "%s_%d", prefix, i + 1);
		ports[i] = pw_filter_add_port(b->filter, dir, PW_FILTER_PORT_FLAG_MAP_BUFFERS,
					      sizeof(struct pwb_port),
					      pw_properties_new(PW_KEY_FORMAT_DSP,
								"32 bit float mono audio",
								PW_KEY_PORT_NAME, name, NULL),
					      NULL, 0);
		if (!ports[i])
			return -errno;
		ports[i]->index = i;
		(*n)++;
	}
	return 0;
}

static int
add_ports(struct pwb *b, const struct al_config *cfg)
{
	int rc = 0;

	if (!cfg->capture)
		rc = add_direction(b, PW_DIRECTION_OUTPUT, b->out, &b->n_out);
	if (!rc && (cfg->capture || cfg->duplex))
		rc = add_direction(b, PW_DIRECTION_INPUT, b->in, &b->n_in);
	return rc;
}

static bool
own_ports_known(struct pwb *b)
{
	int i, n = 0;

	b->self_id = pw_filter_get_node_id(b->filter);
	if (b->self_id == SPA_ID_INVALID)
		return false;
	for (i = 0; i < b->g.n_ports; i++)
		n += b->g.ports[i].node_id == b->self_id;
	return n >= b->n_out + b->n_in;
}

/* Our node: its properties (-D's target, PIPEWIRE_LATENCY), its events. 0 or -errno. */
static int
make_filter(struct pwb *b, const char *name, const char *category)
{
	char latency[32];
	int rc;

	b->filter = pw_filter_new(b->g.core, name,
				  pw_properties_new(PW_KEY_MEDIA_TYPE, "Audio",
						    PW_KEY_MEDIA_CATEGORY, category,
						    PW_KEY_MEDIA_ROLE, "DSP",
						    PW_KEY_NODE_NAME, name,
						    /* we link ourselves; scheduled even unlinked */
						    PW_KEY_NODE_AUTOCONNECT, "false",
						    PW_KEY_NODE_ALWAYS_PROCESS, "true",
						    NULL));
	if (!b->filter) {
		rc = -errno;
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: no filter: %s", strerror(-rc));
		return rc ? rc : -EIO;
	}
	if (b->target[0])
		pw_filter_update_properties(b->filter, NULL,
					    &SPA_DICT_INIT(&SPA_DICT_ITEM_INIT(PW_KEY_TARGET_OBJECT,
									       b->target), 1));
	/* PIPEWIRE_LATENCY, as any client honours it: otherwise the graph's quantum */
	if (getenv("PIPEWIRE_LATENCY") && *getenv("PIPEWIRE_LATENCY")) {
		snprintf(latency, sizeof(latency), "%s", getenv("PIPEWIRE_LATENCY"));
		pw_filter_update_properties(b->filter, NULL,
					    &SPA_DICT_INIT(&SPA_DICT_ITEM_INIT(PW_KEY_NODE_LATENCY,
									       latency), 1));
	}
	pw_filter_add_listener(b->filter, &b->filter_listener, &filter_events, b);
	return 0;
}

static void
pw_close(void *priv)
{
	disconnect(priv);
}

static int
pw_open(void *priv, struct al_config *cfg)
{
	struct pwb *b = priv;
	struct pw_obj_node *play = NULL, *rec = NULL;
	const char *category = cfg->duplex ? "Duplex" : cfg->capture ? "Capture" : "Playback";
	char name[64];
	int rc, i;

	b->want_priority = cfg->priority;
	b->want_cpu = cfg->affinity_cpu;
	b->want_blame = cfg->blame >= 0;
	b->need_blame = cfg->blame > 0;
	if (b->want_blame && (rc = pwb_blame_init(&b->blame)))
		return rc;
	rc = connect_server(b);
	if (rc)
		return rc;
	if (b->need_blame && !b->blame.bound) {
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: --blame: %.160s",
			 b->blame.note[0] ? b->blame.note
					  : "the server has no profiler (libpipewire-module-profiler)");
		pw_thread_loop_unlock(b->g.loop);
		disconnect(b);
		return -ENOTSUP;
	}
	/* the target: -D, else the default sink (source); a recorder of a sink takes its monitor */
	if (!cfg->capture)
		play = pwg_target(&b->g, cfg->device, false);
	if (cfg->capture || cfg->duplex)
		rec = pwg_target(&b->g, cfg->device, true);
	if (cfg->device[0] && !play && !rec) {
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: no node '%.64s'", cfg->device);
		pw_thread_loop_unlock(b->g.loop);
		disconnect(b);
		return -ENODEV;
	}
	snprintf(b->target, sizeof(b->target), "%s", play ? play->name : rec ? rec->name : "");

	snprintf(name, sizeof(name), "audiolat-%d", (int)getpid());
	rc = make_filter(b, name, category);
	if (rc)
		goto fail;
	b->phase_inc = 2 * (float)M_PI * (float)cfg->tone_hz / 48000.0f;
	rc = add_ports(b, cfg);
	if (rc || pw_filter_connect(b->filter, PW_FILTER_FLAG_RT_PROCESS, NULL, 0) < 0) {
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: cannot add ports or connect the filter");
		rc = rc ? rc : -EIO;
		goto fail;
	}
	/* our node and its ports in the registry */
	for (i = 0; i < 50 && !own_ports_known(b) && !atomic_load(&b->g.dead); i++)
		pwg_sync(&b->g);
	if (!own_ports_known(b)) {
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: our node's ports did not appear");
		rc = -EIO;
		goto fail;
	}
	if ((play || rec) && link_ports(b, cfg, play, rec))
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: node '%.64s' has no ports to link to",
			 b->target);
	if (atomic_load(&b->g.links_failed))
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: %d of our links to '%.64s' failed",
			 atomic_load(&b->g.links_failed), b->target);
	/* a few cycles: the graph's quantum and rate, the data thread adjusted */
	if (!pwg_wait(&b->g, NULL, &b->preroll, PREROLL_CYCLES)) {
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: our node was not scheduled in %d s "
			 "(no driver?)", PWG_WAIT_S);
		rc = atomic_load(&b->g.dead) ? -ECONNRESET : -ETIMEDOUT;
		goto fail;
	}
	pw_thread_loop_unlock(b->g.loop);

	b->period_frames = atomic_load(&b->preroll_frames);
	b->rate_hz = atomic_load(&b->preroll_rate);
	if (b->rate_hz <= 0 || b->period_frames <= 0) {
		snprintf(b->g.error, sizeof(b->g.error), "PipeWire: the driver's clock gives rate %lld, "
			 "quantum %lld", (long long)b->rate_hz, (long long)b->period_frames);
		disconnect(b);
		return -EIO;
	}
	b->phase_inc = 2 * (float)M_PI * (float)cfg->tone_hz / (float)b->rate_hz;
	/* the server decides: record what it runs */
	cfg->rate_hz = b->rate_hz;
	cfg->period_frames = b->period_frames;
	/* a graph cycle's output is played in the next one */
	cfg->periods = 2;
	cfg->channels = b->n_out ? b->n_out : b->n_in;
	snprintf(cfg->format, sizeof(cfg->format), "FLOAT");
	snprintf(cfg->device, sizeof(cfg->device), "%s", b->target);
	snprintf(b->detail, sizeof(b->detail), "PipeWire %.16s (library %.16s): node %.24s (id %u), "
		 "%s, %lld Hz, quantum %lld, linked to '%.48s'", b->g.server_version,
		 pw_get_library_version(), name, b->self_id,
		 cfg->duplex ? "duplex" : cfg->capture ? "capture" : "playback",
		 (long long)b->rate_hz, (long long)b->period_frames,
		 b->target[0] ? b->target : "nothing");
	return 0;
fail:
	pw_thread_loop_unlock(b->g.loop);
	disconnect(b);
	return rc;
}

static int
pw_start_cb(void *priv, const struct al_period_hooks *h, int64_t *start_ns)
{
	struct pwb *b = priv;

	if (atomic_load(&b->g.dead))
		return -ECONNRESET;
	b->h = h;
	al_grid_start(&b->grid, b->rate_hz);
	*start_ns = al_clock_now_ns();
	pw_thread_loop_lock(b->g.loop);
	pwb_blame_window(&b->blame, b->self_id, *start_ns, 0);
	pw_thread_loop_unlock(b->g.loop);
	atomic_store_explicit(&b->armed, 1, memory_order_release);
	return 0;
}

static int
pw_stop(void *priv)
{
	struct pwb *b = priv;
	int64_t end_ns = al_clock_now_ns();

	atomic_store(&b->armed, 0);
	if (!b->g.loop)
		return 0;
	pw_thread_loop_lock(b->g.loop);
	if (b->blame.graph) {
		struct timespec until;

		pwb_blame_window(&b->blame, b->self_id, b->blame.graph->t0_ns, end_ns);
		/* the profiler sends what it gathered at least once a second: the last batch */
		pw_thread_loop_get_time(b->g.loop, &until, BLAME_TAIL_NS);
		while (b->blame.bound && !atomic_load(&b->g.dead) && b->blame.last_point_ns < end_ns) {
			struct timespec now;

			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > until.tv_sec ||
			    (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec))
				break;
			pw_thread_loop_get_time(b->g.loop, &now, 20 * SPA_NSEC_PER_MSEC);
			pw_thread_loop_timed_wait_full(b->g.loop, &now);
		}
	}
	if (b->filter && !atomic_load(&b->g.dead))
		pw_filter_set_active(b->filter, false);
	pw_thread_loop_unlock(b->g.loop);
	return 0;
}

static const char *
policy_name(int policy)
{
	return policy == SCHED_FIFO ? "SCHED_FIFO" : policy == SCHED_RR ? "SCHED_RR"
						   : "SCHED_OTHER";
}

static void
pw_info(void *priv, struct al_backend_info *out)
{
	struct pwb *b = priv;
	size_t len;

	snprintf(out->detail, sizeof(out->detail), "%s", b->detail);
	snprintf(out->error, sizeof(out->error), "%s", b->g.error);
	snprintf(out->clock, sizeof(out->clock), "clock.nsec on %s%s",
		 b->base == AL_STAMP_REALTIME ? "CLOCK_REALTIME, mapped onto CLOCK_MONOTONIC"
		 : b->base == AL_STAMP_MONOTONIC ? "CLOCK_MONOTONIC" : "no clock of ours",
		 b->base == AL_STAMP_MONOTONIC ? " (ours)" : "");
	if (!b->detail[0])
		return;
	if (atomic_load(&b->prio_state)) {
		out->rt_known = true;
		out->rt_priority = b->prio_after;
		len = strlen(out->detail);
		snprintf(out->detail + len, sizeof(out->detail) - len,
			 "; data thread %s %d from PipeWire's RT module%s%s",
			 policy_name(b->prio_before_policy), b->prio_before,
			 b->prio_errno ? ", -p refused: " : b->want_priority >= 0 ? ", -p applied" : "",
			 b->prio_errno ? strerror(b->prio_errno) : "");
	}
	out->bound_total = b->bound_clock + b->bound_grid;
	out->bound_estimated = b->bound_grid;
	if (b->bound_grid)
		snprintf(out->bound_note, sizeof(out->bound_note),
			 "the driver's clock.nsec was unusable %llu times (on no clock of ours, or "
			 "not of the cycle): a frame clock fitted to our wake-ups stood in",
			 (unsigned long long)b->bound_grid);
	else
		snprintf(out->bound_note, sizeof(out->bound_note),
			 "the driver's clock.nsec: when its cycle was due (none estimated)");
	snprintf(out->negative_note, sizeof(out->negative_note),
		 "a driver whose clock.nsec is an estimate (an ALSA driver's rate-matched clock) "
		 "can place it microseconds after our wake-up");
	if (b->stalls || b->counter_jumps || b->restarts || b->quantum_changes || b->server_xruns ||
	    b->driver_late) {
		len = strlen(out->detail);
		snprintf(out->detail + len, sizeof(out->detail) - len,
			 "; xruns: %llu stalls, %llu driver late (up to %.1f ms), %llu from the driver; "
			 "%llu position jumps, %llu restarts; quantum %lld..%lld (%llu changes)",
			 (unsigned long long)b->stalls, (unsigned long long)b->driver_late,
			 (double)b->driver_late_max_ns / AL_NS_PER_MS, (unsigned long long)b->server_xruns,
			 (unsigned long long)b->counter_jumps, (unsigned long long)b->restarts,
			 (long long)b->min_frames, (long long)b->max_frames,
			 (unsigned long long)b->quantum_changes);
	}
}

static int
pw_graph(void *priv, struct al_graph *g, int64_t start_mono_ns)
{
	struct pwb *b = priv;

	if (!b->want_blame)
		return -ENODATA;
	if (!b->blame.graph || !b->blame.graph->active) {
		snprintf(g->note, sizeof(g->note), "%s",
			 b->blame.note[0] ? b->blame.note
			 : b->blame.bound ? "the profiler sent nothing for our driver"
					  : "the server has no profiler (libpipewire-module-profiler "
					    "is not loaded)");
		return -ENODATA;
	}
	pw_thread_loop_lock(b->g.loop);
	*g = *b->blame.graph;
	pw_thread_loop_unlock(b->g.loop);
	al_graph_finish(g, start_mono_ns);
	if (b->blame.bad_points)
		snprintf(g->note, sizeof(g->note), "%llu profiler points would not parse",
			 (unsigned long long)b->blame.bad_points);
	return 0;
}


const char *
al_pipewire_lib_version(void)
{
	return pw_get_library_version();
}

const struct al_backend_ops al_backend_pipewire = {
	.name = "pipewire",
	.summary = "a pw_filter in PipeWire's graph, measured in its data thread; names the node that "
		   "made each cycle late (--blame)",
	.caps = AL_CAP_CAPTURE | AL_CAP_DUPLEX | AL_CAP_TONE | AL_CAP_NEAREST | AL_CAP_DEVICE |
		AL_CAP_CALLBACK | AL_CAP_BLAME,
	.duplex = &al_duplex_pipewire,
	.server_env = "PIPEWIRE_REMOTE",
	.server_name = "PipeWire",
	.priv_size = sizeof(struct pwb),
	.probe = pw_probe,
	.open = pw_open,
	.start_cb = pw_start_cb,
	.stop = pw_stop,
	.close = pw_close,
	.info = pw_info,
	.list = pwg_list,
	.graph = pw_graph,
};
