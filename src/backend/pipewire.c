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

#define PORTS_MAX 2
#define NODES_MAX 256
#define OBJ_PORTS_MAX 1024
#define WAIT_S 5                /* how long open waits for the server, per step */
#define PREROLL_CYCLES 8        /* cycles before open returns: the quantum is known */
#define STALE_MAX_NS (10 * AL_NS_PER_SEC) /* a clock.nsec older than this: not a cycle's */
#define EARLY_SLACK_NS (AL_NS_PER_MS) /* a clock.nsec this far after our wake-up: not ours */
#define BLAME_TAIL_NS (1500 * AL_NS_PER_MS) /* the profiler's last batch, waited for at stop */
#define TONE_AMPLITUDE 0.25f    /* -12 dBFS */

struct pw_obj_node {
	uint32_t id;
	uint64_t serial;
	bool driver;
	char name[128];
	char desc[128];
	char media_class[48];
};

struct pw_obj_port {
	uint32_t id;
	uint32_t node_id;
	bool output;
	bool monitor;
	char name[64];
};

struct pwb_port {
	int index;
};

struct pwb {
	struct pw_thread_loop *loop;
	struct pw_context *context;
	struct pw_core *core;
	struct spa_hook core_listener;
	struct pw_registry *registry;
	struct spa_hook registry_listener;
	struct pw_proxy *metadata;
	struct spa_hook metadata_listener;
	struct pw_filter *filter;
	struct spa_hook filter_listener;
	struct pwb_port *out[PORTS_MAX], *in[PORTS_MAX];
	int n_out, n_in;
	struct pw_proxy *links[2 * PORTS_MAX];
	struct spa_hook link_listeners[2 * PORTS_MAX];
	int n_links;
	atomic_int links_bound, links_failed;
	bool inited;

	/* the registry, on the loop thread (or under its lock) */
	struct pw_obj_node *nodes;
	int n_nodes;
	struct pw_obj_port *ports;
	int n_ports;
	char default_sink[128], default_source[128];
	int sync_seq;
	bool synced;
	char server_name[64], server_version[32];
	uint32_t self_id;
	struct pwb_blame blame;
	bool want_blame, need_blame;

	/* the data thread */
	const struct al_period_hooks *h;
	atomic_int armed;          /* start_cb ran: deliver periods */
	atomic_int dead;           /* the server went away */
	atomic_int preroll;        /* cycles seen before start_cb */
	_Atomic int64_t preroll_frames, preroll_rate;
	int want_priority, want_cpu; /* -p, -a: applied to the data thread in the preroll */
	atomic_int prio_state;     /* 0: not yet, 1: done */
	int prio_before_policy, prio_before, prio_after, prio_errno;
	bool cpu_pinned;
	int cpu_errno;
	enum al_stamp_base base;   /* the clock.nsec's clock (from the preroll) */
	int64_t base_offset_ns;    /* CLOCK_MONOTONIC - that clock */
	float phase, phase_inc;

	bool have_prev;
	uint64_t prev_position;
	int64_t prev_frames, prev_rate, prev_boundary_ns, prev_period_ns, prev_wake_ns, prev_nsec_ns;
	bool late_episode;         /* cycles served more than a period late: one event */
#ifdef HAVE_SPA_IO_CLOCK_CYCLE
	uint64_t prev_cycle;
#endif
#ifdef HAVE_SPA_IO_CLOCK_XRUN
	int64_t prev_xrun_ns;
#endif
	int64_t frames;            /* frames the server ran since our first cycle */
	struct al_grid grid;       /* the fallback: a frame clock fitted to our wake-ups */
	uint64_t stalls, counter_jumps, restarts, quantum_changes, server_xruns, driver_late;
	int64_t driver_late_max_ns; /* the latest a driver began a cycle (on its clock.nsec) */
	uint64_t bound_clock, bound_grid;
	int64_t min_frames, max_frames;

	int64_t rate_hz, period_frames;
	char target[128];          /* the node we link to ("" none) */
	char detail[240];
	char error[200];
};

/* --- the registry ------------------------------------------------------ */

static const char *
dict_get(const struct spa_dict *props, const char *key)
{
	const char *v = props ? spa_dict_lookup(props, key) : NULL;

	return v ? v : "";
}

/* "{ \"name\": \"null-sink\" }": the name */
static void
json_name(const char *value, char *out, size_t size)
{
	const char *p = value ? strstr(value, "\"name\"") : NULL, *q;

	out[0] = '\0';
	if (!p || !(p = strchr(p + 6, '"')))
		return;
	q = strchr(p + 1, '"');
	if (!q)
		return;
	snprintf(out, size, "%.*s", (int)(q - p - 1), p + 1);
}

static int
on_metadata(void *data, uint32_t subject, const char *key, const char *type, const char *value)
{
	struct pwb *b = data;

	(void)type;
	if (subject != PW_ID_CORE || !key)
		return 0;
	if (!strcmp(key, "default.audio.sink"))
		json_name(value, b->default_sink, sizeof(b->default_sink));
	else if (!strcmp(key, "default.audio.source"))
		json_name(value, b->default_source, sizeof(b->default_source));
	return 0;
}

static const struct pw_metadata_events metadata_events = {
	PW_VERSION_METADATA_EVENTS,
	.property = on_metadata,
};

static void
on_global(void *data, uint32_t id, uint32_t permissions, const char *type, uint32_t version,
	  const struct spa_dict *props)
{
	struct pwb *b = data;

	(void)permissions;
	(void)version;
	if (!strcmp(type, PW_TYPE_INTERFACE_Node) && b->n_nodes < NODES_MAX) {
		struct pw_obj_node *n = &b->nodes[b->n_nodes++];

		memset(n, 0, sizeof(*n));
		n->id = id;
		n->serial = strtoull(dict_get(props, PW_KEY_OBJECT_SERIAL), NULL, 10);
		n->driver = !strcmp(dict_get(props, "node.driver"), "true");
		snprintf(n->name, sizeof(n->name), "%s", dict_get(props, PW_KEY_NODE_NAME));
		snprintf(n->desc, sizeof(n->desc), "%s", dict_get(props, PW_KEY_NODE_DESCRIPTION));
		snprintf(n->media_class, sizeof(n->media_class), "%s",
			 dict_get(props, PW_KEY_MEDIA_CLASS));
	} else if (!strcmp(type, PW_TYPE_INTERFACE_Port) && b->n_ports < OBJ_PORTS_MAX) {
		struct pw_obj_port *p = &b->ports[b->n_ports++];

		memset(p, 0, sizeof(*p));
		p->id = id;
		p->node_id = (uint32_t)strtoul(dict_get(props, PW_KEY_NODE_ID), NULL, 10);
		p->output = !strcmp(dict_get(props, PW_KEY_PORT_DIRECTION), "out");
		p->monitor = !strcmp(dict_get(props, PW_KEY_PORT_MONITOR), "true");
		snprintf(p->name, sizeof(p->name), "%s", dict_get(props, PW_KEY_PORT_NAME));
	} else if (!strcmp(type, PW_TYPE_INTERFACE_Metadata) && !b->metadata &&
		   !strcmp(dict_get(props, "metadata.name"), "default")) {
		b->metadata = pw_registry_bind(b->registry, id, PW_TYPE_INTERFACE_Metadata,
					       PW_VERSION_METADATA, 0);
		if (b->metadata)
			pw_metadata_add_listener((struct pw_metadata *)b->metadata,
						 &b->metadata_listener, &metadata_events, b);
	} else if (!strcmp(type, PW_TYPE_INTERFACE_Profiler) && b->want_blame) {
		pwb_blame_bind(&b->blame, b->registry, id);
	}
	pw_thread_loop_signal(b->loop, false);
}

static void
on_global_remove(void *data, uint32_t id)
{
	struct pwb *b = data;
	int i;

	for (i = 0; i < b->n_nodes; i++)
		if (b->nodes[i].id == id)
			b->nodes[i] = b->nodes[--b->n_nodes];
	for (i = 0; i < b->n_ports; i++)
		if (b->ports[i].id == id)
			b->ports[i] = b->ports[--b->n_ports];
}

static const struct pw_registry_events registry_events = {
	PW_VERSION_REGISTRY_EVENTS,
	.global = on_global,
	.global_remove = on_global_remove,
};

static void
on_core_info(void *data, const struct pw_core_info *info)
{
	struct pwb *b = data;

	snprintf(b->server_name, sizeof(b->server_name), "%s", info->name ? info->name : "");
	snprintf(b->server_version, sizeof(b->server_version), "%s",
		 info->version ? info->version : "");
}

static void
on_core_done(void *data, uint32_t id, int seq)
{
	struct pwb *b = data;

	if (id == PW_ID_CORE && seq == b->sync_seq) {
		b->synced = true;
		pw_thread_loop_signal(b->loop, false);
	}
}

static void
on_core_error(void *data, uint32_t id, int seq, int res, const char *message)
{
	struct pwb *b = data;

	(void)seq;
	if (id == PW_ID_CORE && res == -EPIPE) {
		/* the connection is gone: the server died or dropped us */
		atomic_store(&b->dead, 1);
		if (atomic_load(&b->armed) && b->h && b->h->fail)
			b->h->fail(b->h->ctx, -ECONNRESET);
		if (!b->error[0])
			snprintf(b->error, sizeof(b->error), "PipeWire: the server went away (%s)",
				 message ? message : "connection lost");
	}
	pw_thread_loop_signal(b->loop, false);
}

static const struct pw_core_events core_events = {
	PW_VERSION_CORE_EVENTS,
	.info = on_core_info,
	.done = on_core_done,
	.error = on_core_error,
};

/* Wait (the lock held) until *flag, the server's death or WAIT_S. */
static bool
wait_for(struct pwb *b, const bool *flag, const atomic_int *count, int want)
{
	struct timespec until;

	pw_thread_loop_get_time(b->loop, &until, WAIT_S * SPA_NSEC_PER_SEC);
	for (;;) {
		struct timespec step;

		if ((flag && *flag) || (count && atomic_load(count) >= want))
			return true;
		if (atomic_load(&b->dead))
			return false;
		/* the data thread cannot signal the loop: look every 10 ms */
		pw_thread_loop_get_time(b->loop, &step, 10 * SPA_NSEC_PER_MSEC);
		if (step.tv_sec > until.tv_sec ||
		    (step.tv_sec == until.tv_sec && step.tv_nsec >= until.tv_nsec))
			return (flag && *flag) || (count && atomic_load(count) >= want);
		pw_thread_loop_timed_wait_full(b->loop, &step);
	}
}

/* A round trip to the server: every global it had is in the registry. */
static bool
roundtrip(struct pwb *b)
{
	b->synced = false;
	b->sync_seq = pw_core_sync(b->core, PW_ID_CORE, b->sync_seq);
	return wait_for(b, &b->synced, NULL, 0);
}

static void
disconnect(struct pwb *b)
{
	int i;

	if (b->loop)
		pw_thread_loop_lock(b->loop);
	for (i = 0; i < b->n_links; i++)
		if (b->links[i]) {
			spa_hook_remove(&b->link_listeners[i]);
			pw_proxy_destroy(b->links[i]);
		}
	b->n_links = 0;
	if (b->filter) {
		spa_hook_remove(&b->filter_listener);
		pw_filter_destroy(b->filter);
	}
	b->filter = NULL;
	pwb_blame_fini(&b->blame);
	if (b->metadata) {
		spa_hook_remove(&b->metadata_listener);
		pw_proxy_destroy(b->metadata);
	}
	b->metadata = NULL;
	if (b->registry) {
		spa_hook_remove(&b->registry_listener);
		pw_proxy_destroy((struct pw_proxy *)b->registry);
	}
	b->registry = NULL;
	if (b->core) {
		spa_hook_remove(&b->core_listener);
		pw_core_disconnect(b->core);
	}
	b->core = NULL;
	if (b->loop)
		pw_thread_loop_unlock(b->loop);
	if (b->loop)
		pw_thread_loop_stop(b->loop);
	if (b->context)
		pw_context_destroy(b->context);
	b->context = NULL;
	if (b->loop)
		pw_thread_loop_destroy(b->loop);
	b->loop = NULL;
	free(b->nodes);
	free(b->ports);
	b->nodes = NULL;
	b->ports = NULL;
	if (b->inited)
		pw_deinit();
	b->inited = false;
}

/*
 * Reach the server: our loop, a context, the core, the registry, a round
 * trip. Returns 0 with the loop locked, or -ECONNREFUSED (not running, or
 * no answer) / -errno with b->error set and everything undone.
 */
static int
connect_server(struct pwb *b)
{
	const char *remote = getenv("PIPEWIRE_REMOTE");
	int err;

	pw_init(NULL, NULL);
	b->inited = true;
	b->nodes = calloc(NODES_MAX, sizeof(*b->nodes));
	b->ports = calloc(OBJ_PORTS_MAX, sizeof(*b->ports));
	b->loop = pw_thread_loop_new("audiolat-pw", NULL);
	if (!b->nodes || !b->ports || !b->loop) {
		disconnect(b);
		return -ENOMEM;
	}
	/* client-rt.conf: PipeWire's RT module raises the data thread (-p then adjusts it) */
	b->context = pw_context_new(pw_thread_loop_get_loop(b->loop),
				    pw_properties_new(PW_KEY_CONFIG_NAME, "client-rt.conf", NULL), 0);
	if (!b->context) {
		err = -errno;
		snprintf(b->error, sizeof(b->error), "PipeWire: no context: %s", strerror(-err));
		disconnect(b);
		return err ? err : -EIO;
	}
	if (b->want_blame)
		pwb_blame_load(&b->blame, b->context);
	if (pw_thread_loop_start(b->loop) < 0) {
		snprintf(b->error, sizeof(b->error), "PipeWire: the loop thread did not start");
		disconnect(b);
		return -EIO;
	}
	pw_thread_loop_lock(b->loop);
	b->core = pw_context_connect(b->context, NULL, 0);
	if (!b->core) {
		err = errno;
		pw_thread_loop_unlock(b->loop);
		snprintf(b->error, sizeof(b->error), "PipeWire server '%.64s': not running (%s)",
			 remote && *remote ? remote : "pipewire-0", strerror(err));
		disconnect(b);
		return -ECONNREFUSED;
	}
	pw_core_add_listener(b->core, &b->core_listener, &core_events, b);
	b->registry = pw_core_get_registry(b->core, PW_VERSION_REGISTRY, 0);
	if (!b->registry) {
		pw_thread_loop_unlock(b->loop);
		snprintf(b->error, sizeof(b->error), "PipeWire: no registry");
		disconnect(b);
		return -EIO;
	}
	pw_registry_add_listener(b->registry, &b->registry_listener, &registry_events, b);
	/* twice: the globals, then what binding the default metadata told */
	if (!roundtrip(b) || !roundtrip(b)) {
		pw_thread_loop_unlock(b->loop);
		snprintf(b->error, sizeof(b->error), "PipeWire server '%.64s': no answer in %d s",
			 remote && *remote ? remote : "pipewire-0", WAIT_S);
		disconnect(b);
		return -ECONNREFUSED;
	}
	return 0;
}

/* --- the data thread ------------------------------------------------------ */

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

/* The clock.nsec's clock, from one reading beside ours (the preroll). */
static void
classify_clock(struct pwb *b, int64_t nsec, int64_t mono_ns)
{
	int64_t real_ns = al_clock_realtime_ns();

	b->base = al_stamp_classify(nsec, mono_ns, real_ns);
	b->base_offset_ns = b->base == AL_STAMP_REALTIME ? mono_ns - real_ns : 0;
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

/*
 * Hot path: how many cycles the driver ran since our previous one (1:
 * none missed), from its position, as far as our own wake-ups agree.
 */
static uint64_t
cycles_since(struct pwb *b, const struct spa_io_clock *clk, int64_t frames, int64_t wake_ns,
	     int64_t nsec_ns, int64_t period_ns)
{
	int64_t adv, by_time, cycles = 1;

	if (!b->have_prev)
		return 1;
	adv = (int64_t)(clk->position - b->prev_position);
#ifdef HAVE_SPA_IO_CLOCK_CYCLE
	/* a newer clock counts its cycles itself */
	if (clk->cycle > b->prev_cycle)
		adv = b->prev_frames + (int64_t)(clk->cycle - b->prev_cycle - 1) * frames;
#endif
	if (adv <= 0) {
		/* the position stood or went back: a new driver, or it restarted */
		b->restarts++;
		al_grid_start(&b->grid, b->rate_hz);
		return 1;
	}
	/* the previous cycle lasted its own quantum; the rest are this one's */
	if (adv > b->prev_frames)
		cycles = 1 + (adv - b->prev_frames + frames / 2) / frames;
	/*
	 * What passed by our wake-ups, or by the driver's own cycle times: a
	 * driver that was itself held up (its server stopped) catches up with
	 * cycles back to back, each at its nominal time, and runs us in fewer
	 * of them than it ran (PipeWire's libjack showed 3 periods in one).
	 */
	by_time = (wake_ns - b->prev_wake_ns + period_ns / 2) / period_ns;
	if (nsec_ns && b->prev_nsec_ns && nsec_ns > b->prev_nsec_ns &&
	    (nsec_ns - b->prev_nsec_ns + period_ns / 2) / period_ns > by_time)
		by_time = (nsec_ns - b->prev_nsec_ns + period_ns / 2) / period_ns;
	if (cycles > by_time + 1) {
		/* the position jumped with no time passed (a driver that started again) */
		b->counter_jumps++;
		cycles = by_time > 1 ? by_time : 1;
		al_grid_start(&b->grid, b->rate_hz);
	}
	return (uint64_t)cycles;
}

/* Hot path: one cycle of the graph. */
static void
on_process(void *data, struct spa_io_position *position)
{
	struct pwb *b = data;
	int64_t wake_ns = al_clock_now_ns(), frames, rate, period_ns, nsec_ns, next_ns, t0_ns, t1_ns;
	int64_t late_ns;
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
			classify_clock(b, (int64_t)clk.nsec, wake_ns);
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
	cycles = cycles_since(b, &clk, frames, wake_ns, nsec_ns, period_ns);
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

	/*
	 * A stall: the driver ran cycles - 1 cycles without us (missed
	 * periods, charged to this cycle). Or a cycle we did not miss came
	 * more than a period after it was due: the driver itself was held up
	 * (its server stopped, its timer late), played nothing meanwhile, and
	 * now catches up with cycles back to back, each late, running us in
	 * fewer of them than it runs. One event from the first cycle not
	 * served (or the late one's due time) until we ran; the cycles of the
	 * catch-up after it are its tail: charged, no new event.
	 */
	late_ns = wake_ns - w.boundary_ns;
	if (cycles > 1)
		wi.missed_before = (int64_t)(cycles - 1);
	if ((cycles > 1 || (b->have_prev && late_ns > period_ns)) && !b->late_episode) {
		int64_t start_ns = cycles > 1 ? b->prev_boundary_ns + b->prev_period_ns : w.boundary_ns;

		wi.xrun_start_ns = start_ns < wake_ns ? start_ns : wake_ns;
		wi.xrun_ns = wake_ns - wi.xrun_start_ns;
		wi.lost_periods = wi.xrun_ns / period_ns > wi.missed_before ? wi.xrun_ns / period_ns
									  : wi.missed_before;
		wi.xrun_source = cycles > 1 ? AL_XRUN_COUNTER : AL_XRUN_SERVER;
		if (cycles > 1)
			b->stalls++;
		else
			b->driver_late++;
	}
	if (late_ns > b->driver_late_max_ns && cycles == 1)
		b->driver_late_max_ns = late_ns;
#ifdef HAVE_SPA_IO_CLOCK_XRUN
	if (!wi.xrun_start_ns && b->have_prev && clk.xrun > b->prev_xrun_ns) {
		/* the driver counted an xrun of its own in a cycle we ran (its hardware) */
		wi.xrun_start_ns = w.boundary_ns;
		wi.xrun_ns = clk.xrun - b->prev_xrun_ns;
		wi.lost_periods = 0;
		wi.xrun_source = AL_XRUN_SERVER;
		b->server_xruns++;
	}
	b->prev_xrun_ns = clk.xrun;
#endif
	b->late_episode = late_ns > period_ns;
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

	b->prev_position = clk.position;
#ifdef HAVE_SPA_IO_CLOCK_CYCLE
	b->prev_cycle = clk.cycle;
#endif
	b->prev_frames = frames;
	b->prev_rate = rate;
	b->prev_boundary_ns = w.boundary_ns;
	b->prev_period_ns = period_ns;
	b->prev_wake_ns = wake_ns;
	b->prev_nsec_ns = nsec_ns;
	b->have_prev = true;
	b->h->record(b->h->ctx, &w, t0_ns, t1_ns, &wi);
}

static void
on_filter_state(void *data, enum pw_filter_state old, enum pw_filter_state state,
		const char *error)
{
	struct pwb *b = data;

	(void)old;
	if (state == PW_FILTER_STATE_ERROR) {
		if (!b->error[0])
			snprintf(b->error, sizeof(b->error), "PipeWire: the filter failed: %s",
				 error ? error : "unknown error");
		atomic_store(&b->dead, 1);
		if (atomic_load(&b->armed) && b->h && b->h->fail)
			b->h->fail(b->h->ctx, -ECONNRESET);
	}
	pw_thread_loop_signal(b->loop, false);
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

/* The node -D names (its name, description, serial or id), or the default. */
static struct pw_obj_node *
target_node(struct pwb *b, const char *want, bool capture)
{
	const char *def = capture ? b->default_source : b->default_sink;
	char *end;
	unsigned long long num = want && *want ? strtoull(want, &end, 10) : 0;
	bool numeric = want && *want && !*end;
	int i;

	for (i = 0; want && *want && i < b->n_nodes; i++) {
		struct pw_obj_node *n = &b->nodes[i];

		if (!strcmp(n->name, want) || !strcmp(n->desc, want) ||
		    (numeric && (n->id == num || n->serial == num)))
			return n;
	}
	if (want && *want)
		return NULL;
	for (i = 0; *def && i < b->n_nodes; i++)
		if (!strcmp(b->nodes[i].name, def))
			return &b->nodes[i];
	for (i = 0; i < b->n_nodes; i++)
		if (!strcmp(b->nodes[i].media_class, capture ? "Audio/Source" : "Audio/Sink"))
			return &b->nodes[i];
	for (i = 0; capture && i < b->n_nodes; i++)
		if (!strcmp(b->nodes[i].media_class, "Audio/Sink"))
			return &b->nodes[i];
	return NULL;
}

/*
 * The k-th port of node for a link: its inputs (non-monitor) for our
 * playback; for our capture its outputs, a sink's monitor ones. In the
 * order the server listed them (FL, FR, ...).
 */
static const struct pw_obj_port *
node_port(struct pwb *b, uint32_t node_id, bool output, int k)
{
	int i, seen = 0, pass;

	for (pass = 0; pass < 2; pass++)
		for (i = 0; i < b->n_ports; i++) {
			const struct pw_obj_port *p = &b->ports[i];

			if (p->node_id != node_id || p->output != output)
				continue;
			/* outputs: the real ones first, then the monitors */
			if (output && p->monitor != (pass == 1))
				continue;
			if (!output && (p->monitor || pass == 1))
				continue;
			if (seen++ == k)
				return p;
		}
	return NULL;
}

static void
on_link_bound(void *data, uint32_t global_id)
{
	struct pwb *b = data;

	(void)global_id;
	atomic_fetch_add(&b->links_bound, 1);
	pw_thread_loop_signal(b->loop, false);
}

static void
on_link_error(void *data, int seq, int res, const char *message)
{
	struct pwb *b = data;

	(void)seq;
	(void)res;
	(void)message;
	atomic_fetch_add(&b->links_failed, 1);
	pw_thread_loop_signal(b->loop, false);
}

static const struct pw_proxy_events link_events = {
	PW_VERSION_PROXY_EVENTS,
	.bound = on_link_bound,
	.error = on_link_error,
};

static void
make_link(struct pwb *b, uint32_t out_node, uint32_t out_port, uint32_t in_node, uint32_t in_port)
{
	char on[16], op[16], in[16], ip[16];
	struct spa_dict_item items[5];
	struct spa_dict dict;
	struct pw_proxy *p;

	if (b->n_links >= 2 * PORTS_MAX)
		return;
	snprintf(on, sizeof(on), "%u", out_node);
	snprintf(op, sizeof(op), "%u", out_port);
	snprintf(in, sizeof(in), "%u", in_node);
	snprintf(ip, sizeof(ip), "%u", in_port);
	items[0] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_OUTPUT_NODE, on);
	items[1] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_OUTPUT_PORT, op);
	items[2] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_INPUT_NODE, in);
	items[3] = SPA_DICT_ITEM_INIT(PW_KEY_LINK_INPUT_PORT, ip);
	/* ours: gone with us */
	items[4] = SPA_DICT_ITEM_INIT(PW_KEY_OBJECT_LINGER, "false");
	dict = SPA_DICT_INIT(items, 5);
	p = pw_core_create_object(b->core, "link-factory", PW_TYPE_INTERFACE_Link, PW_VERSION_LINK,
				  &dict, 0);
	if (!p) {
		atomic_fetch_add(&b->links_failed, 1);
		return;
	}
	pw_proxy_add_listener(p, &b->link_listeners[b->n_links], &link_events, b);
	b->links[b->n_links++] = p;
}

/* Our ports to the target's, as a player (a recorder) would. 0, or -ENOENT. */
static int
link_ports(struct pwb *b, const struct al_config *cfg, const struct pw_obj_node *play,
	   const struct pw_obj_node *rec)
{
	const struct pw_obj_port *ours, *theirs;
	int i, want = 0;

	for (i = 0; play && i < b->n_out; i++) {
		ours = node_port(b, b->self_id, true, i);
		theirs = node_port(b, play->id, false, i);
		if (ours && theirs) {
			make_link(b, b->self_id, ours->id, play->id, theirs->id);
			want++;
		}
	}
	for (i = 0; rec && i < b->n_in; i++) {
		ours = node_port(b, b->self_id, false, i);
		theirs = node_port(b, rec->id, true, i);
		if (ours && theirs) {
			make_link(b, rec->id, theirs->id, b->self_id, ours->id);
			want++;
		}
	}
	(void)cfg;
	if (!want)
		return -ENOENT;
	roundtrip(b);
	wait_for(b, NULL, &b->links_bound, want - atomic_load(&b->links_failed));
	return 0;
}

static int
add_ports(struct pwb *b, const struct al_config *cfg)
{
	char name[16];
	int i;

	for (i = 0; i < PORTS_MAX && !cfg->capture; i++) {
		snprintf(name, sizeof(name), "out_%d", i + 1);
		b->out[i] = pw_filter_add_port(b->filter, PW_DIRECTION_OUTPUT,
					       PW_FILTER_PORT_FLAG_MAP_BUFFERS, sizeof(struct pwb_port),
					       pw_properties_new(PW_KEY_FORMAT_DSP,
								 "32 bit float mono audio",
								 PW_KEY_PORT_NAME, name, NULL),
					       NULL, 0);
		if (!b->out[i])
			return -errno;
		b->out[i]->index = i;
		b->n_out++;
	}
	for (i = 0; i < PORTS_MAX && (cfg->capture || cfg->duplex); i++) {
		snprintf(name, sizeof(name), "in_%d", i + 1);
		b->in[i] = pw_filter_add_port(b->filter, PW_DIRECTION_INPUT,
					      PW_FILTER_PORT_FLAG_MAP_BUFFERS, sizeof(struct pwb_port),
					      pw_properties_new(PW_KEY_FORMAT_DSP,
								"32 bit float mono audio",
								PW_KEY_PORT_NAME, name, NULL),
					      NULL, 0);
		if (!b->in[i])
			return -errno;
		b->in[i]->index = i;
		b->n_in++;
	}
	return 0;
}

static bool
own_ports_known(struct pwb *b)
{
	int i, n = 0;

	b->self_id = pw_filter_get_node_id(b->filter);
	if (b->self_id == SPA_ID_INVALID)
		return false;
	for (i = 0; i < b->n_ports; i++)
		n += b->ports[i].node_id == b->self_id;
	return n >= b->n_out + b->n_in;
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
	char name[64], latency[32];
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
		snprintf(b->error, sizeof(b->error), "PipeWire: --blame: %.160s",
			 b->blame.note[0] ? b->blame.note
					  : "the server has no profiler (libpipewire-module-profiler)");
		pw_thread_loop_unlock(b->loop);
		disconnect(b);
		return -ENOTSUP;
	}
	/* the target: -D, else the default sink (source); a recorder of a sink takes its monitor */
	if (!cfg->capture)
		play = target_node(b, cfg->device, false);
	if (cfg->capture || cfg->duplex)
		rec = target_node(b, cfg->device, true);
	if (cfg->device[0] && !play && !rec) {
		snprintf(b->error, sizeof(b->error), "PipeWire: no node '%.64s'", cfg->device);
		pw_thread_loop_unlock(b->loop);
		disconnect(b);
		return -ENODEV;
	}
	snprintf(b->target, sizeof(b->target), "%s", play ? play->name : rec ? rec->name : "");

	snprintf(name, sizeof(name), "audiolat-%d", (int)getpid());
	b->filter = pw_filter_new(b->core, name,
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
		snprintf(b->error, sizeof(b->error), "PipeWire: no filter: %s", strerror(-rc));
		goto fail;
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
	b->phase_inc = 2 * (float)M_PI * (float)cfg->tone_hz / 48000.0f;
	rc = add_ports(b, cfg);
	if (rc || pw_filter_connect(b->filter, PW_FILTER_FLAG_RT_PROCESS, NULL, 0) < 0) {
		snprintf(b->error, sizeof(b->error), "PipeWire: cannot add ports or connect the filter");
		rc = rc ? rc : -EIO;
		goto fail;
	}
	/* our node and its ports in the registry */
	for (i = 0; i < 50 && !own_ports_known(b) && !atomic_load(&b->dead); i++)
		roundtrip(b);
	if (!own_ports_known(b)) {
		snprintf(b->error, sizeof(b->error), "PipeWire: our node's ports did not appear");
		rc = -EIO;
		goto fail;
	}
	if ((play || rec) && link_ports(b, cfg, play, rec))
		snprintf(b->error, sizeof(b->error), "PipeWire: node '%.64s' has no ports to link to",
			 b->target);
	if (atomic_load(&b->links_failed))
		snprintf(b->error, sizeof(b->error), "PipeWire: %d of our links to '%.64s' failed",
			 atomic_load(&b->links_failed), b->target);
	/* a few cycles: the graph's quantum and rate, the data thread adjusted */
	if (!wait_for(b, NULL, &b->preroll, PREROLL_CYCLES)) {
		snprintf(b->error, sizeof(b->error), "PipeWire: our node was not scheduled in %d s "
			 "(no driver?)", WAIT_S);
		rc = atomic_load(&b->dead) ? -ECONNRESET : -ETIMEDOUT;
		goto fail;
	}
	pw_thread_loop_unlock(b->loop);

	b->period_frames = atomic_load(&b->preroll_frames);
	b->rate_hz = atomic_load(&b->preroll_rate);
	if (b->rate_hz <= 0 || b->period_frames <= 0) {
		snprintf(b->error, sizeof(b->error), "PipeWire: the driver's clock gives rate %lld, "
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
		 "%s, %lld Hz, quantum %lld, linked to '%.48s'", b->server_version,
		 pw_get_library_version(), name, b->self_id,
		 cfg->duplex ? "duplex" : cfg->capture ? "capture" : "playback",
		 (long long)b->rate_hz, (long long)b->period_frames,
		 b->target[0] ? b->target : "nothing");
	return 0;
fail:
	pw_thread_loop_unlock(b->loop);
	disconnect(b);
	return rc;
}

static int
pw_start_cb(void *priv, const struct al_period_hooks *h, int64_t *start_ns)
{
	struct pwb *b = priv;

	if (atomic_load(&b->dead))
		return -ECONNRESET;
	b->h = h;
	al_grid_start(&b->grid, b->rate_hz);
	*start_ns = al_clock_now_ns();
	pw_thread_loop_lock(b->loop);
	pwb_blame_window(&b->blame, b->self_id, *start_ns, 0);
	pw_thread_loop_unlock(b->loop);
	atomic_store_explicit(&b->armed, 1, memory_order_release);
	return 0;
}

static int
pw_stop(void *priv)
{
	struct pwb *b = priv;
	int64_t end_ns = al_clock_now_ns();

	atomic_store(&b->armed, 0);
	if (!b->loop)
		return 0;
	pw_thread_loop_lock(b->loop);
	if (b->blame.graph) {
		struct timespec until;

		pwb_blame_window(&b->blame, b->self_id, b->blame.graph->t0_ns, end_ns);
		/* the profiler sends what it gathered at least once a second: the last batch */
		pw_thread_loop_get_time(b->loop, &until, BLAME_TAIL_NS);
		while (b->blame.bound && !atomic_load(&b->dead) && b->blame.last_point_ns < end_ns) {
			struct timespec now;

			clock_gettime(CLOCK_MONOTONIC, &now);
			if (now.tv_sec > until.tv_sec ||
			    (now.tv_sec == until.tv_sec && now.tv_nsec >= until.tv_nsec))
				break;
			pw_thread_loop_get_time(b->loop, &now, 20 * SPA_NSEC_PER_MSEC);
			pw_thread_loop_timed_wait_full(b->loop, &now);
		}
	}
	if (b->filter && !atomic_load(&b->dead))
		pw_filter_set_active(b->filter, false);
	pw_thread_loop_unlock(b->loop);
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
	snprintf(out->error, sizeof(out->error), "%s", b->error);
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
	pw_thread_loop_lock(b->loop);
	*g = *b->blame.graph;
	pw_thread_loop_unlock(b->loop);
	al_graph_finish(g, start_mono_ns);
	if (b->blame.bad_points)
		snprintf(g->note, sizeof(g->note), "%llu profiler points would not parse",
			 (unsigned long long)b->blame.bad_points);
	return 0;
}

/* --- audiolat devices ----------------------------------------------------- */

static int
pw_list(al_device_emit_fn emit, void *ud)
{
	struct pwb *b = calloc(1, sizeof(*b));
	char desc[160], detail[96];
	int rc, i;

	if (!b)
		return -ENOMEM;
	rc = connect_server(b);
	if (rc) {
		free(b);
		return rc == -ENOMEM ? rc : -ENODEV; /* nothing reachable */
	}
	snprintf(desc, sizeof(desc), "PipeWire %s (library %s)", b->server_version,
		 pw_get_library_version());
	emit(ud, &(struct al_device){ .kind = "pipewire-server", .name = b->server_name,
				      .description = desc, .detail = "running" });
	for (i = 0; i < b->n_nodes; i++) {
		const struct pw_obj_node *n = &b->nodes[i];
		bool audio = !strncmp(n->media_class, "Audio/", 6);

		if (!audio && !n->driver)
			continue;
		snprintf(detail, sizeof(detail), "%s%s%s%s", audio ? n->media_class : "driver",
			 audio && n->driver ? ",driver" : "",
			 !strcmp(n->name, b->default_sink) ? ",default-sink" : "",
			 !strcmp(n->name, b->default_source) ? ",default-source" : "");
		snprintf(desc, sizeof(desc), "%s (id %u)", n->desc[0] ? n->desc : n->name, n->id);
		emit(ud, &(struct al_device){ .kind = audio ? "pipewire-node" : "pipewire-driver",
					      .name = n->name, .description = desc,
					      .detail = detail });
	}
	pw_thread_loop_unlock(b->loop);
	disconnect(b);
	free(b);
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
	.priv_size = sizeof(struct pwb),
	.probe = pw_probe,
	.open = pw_open,
	.start_cb = pw_start_cb,
	.stop = pw_stop,
	.close = pw_close,
	.info = pw_info,
	.list = pw_list,
	.graph = pw_graph,
};
