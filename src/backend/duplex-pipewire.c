/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PipeWire duplex stream (audiolat roundtrip -b pipewire): a pw_filter
 * "audiolat-roundtrip" with one DSP input port "in" and one output port
 * "out", whose process callback in PipeWire's data thread
 * (PW_FILTER_FLAG_RT_PROCESS) is the audio thread. With self_loop our
 * output is linked to our own input inside the graph; otherwise out -> a
 * node's input port and a node's output port -> in (-D's node, its monitor
 * for a sink, or --out/--in NODE:PORT as pw-link names them), and whatever
 * joins the two closes the loop: a cable on a card, or the node itself (a
 * null sink's monitor gives back what it was given). The graph's rate and
 * quantum are the driver's. The server going away, or a link of the loop
 * going away, ends the stream (status()).
 */
#include <errno.h>
#include <pthread.h>
#include <sched.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <pipewire/pipewire.h>
#include <pipewire/filter.h>

#define AL_PIPEWIRE_PRIVATE
#include "pipewire-private.h"
#include "pipewire.h"

#define DEFAULT_CLIENT "audiolat-roundtrip"
#define PREROLL_CYCLES 8 /* cycles before open returns: the quantum is known */

struct dpw {
	struct pwg g;
	struct pw_filter *filter;
	struct spa_hook filter_listener;
	void *in, *out;            /* our ports */
	uint32_t self_id, in_id, out_id;
	uint32_t src_node, src_port, dst_node, dst_port; /* the cable's ends (not self_loop) */
	bool self_loop;
	/* set before armed, read by the data thread after it */
	al_duplex_fn fn;
	void *ctx;
	atomic_int armed;
	atomic_int preroll;        /* cycles seen before start */
	_Atomic int64_t preroll_frames, preroll_rate;
	atomic_bool realtime;
	atomic_uint_least64_t periods;
	atomic_uint xruns;         /* cycles of the driver that ran without us, one per gap */
	struct al_duplex_xrun_times xrun_times;
	_Atomic int64_t linked_at_ns; /* the links were bound */
	atomic_bool period_changed;
	/* the data thread's own */
	bool have_prev;
	uint32_t prev_clock_id;    /* the driver's clock: linking may move us to another */
	uint64_t prev_position;
	int64_t prev_frames;
	uint32_t period_frames;
};

static void
say(char *why, size_t size, const char *fmt, const char *a)
{
	if (why && size)
		snprintf(why, size, fmt, a);
}

/* Hot path: one cycle of the graph. */
static void
on_process(void *data, struct spa_io_position *position)
{
	struct dpw *d = data;
	uint32_t n = position ? (uint32_t)position->clock.duration : 0;
	const float *in = n ? pw_filter_get_dsp_buffer(d->in, n) : NULL;
	float *out = n ? pw_filter_get_dsp_buffer(d->out, n) : NULL;

	if (!n)
		return;
	if (!atomic_load_explicit(&d->armed, memory_order_acquire)) {
		if (out)
			memset(out, 0, n * sizeof(float));
		if (atomic_load_explicit(&d->preroll, memory_order_relaxed) == 0) {
			struct sched_param sp;
			int policy = 0;

			pthread_getschedparam(pthread_self(), &policy, &sp);
			policy &= ~SCHED_RESET_ON_FORK;
			atomic_store(&d->realtime, policy == SCHED_FIFO || policy == SCHED_RR);
		}
		atomic_store_explicit(&d->preroll_frames, n, memory_order_relaxed);
		atomic_store_explicit(&d->preroll_rate, position->clock.rate.denom,
				      memory_order_relaxed);
		atomic_fetch_add_explicit(&d->preroll, 1, memory_order_release);
		return;
	}
	d->fn(d->ctx, in, out, n);
	/* the same driver's position moved past the previous quantum: cycles without us */
	if (d->have_prev && position->clock.id == d->prev_clock_id &&
	    position->clock.position - d->prev_position > (uint64_t)d->prev_frames) {
		atomic_fetch_add_explicit(&d->xruns, 1, memory_order_relaxed);
		al_duplex_xrun_seen(&d->xrun_times);
	}
	if (n != d->period_frames)
		atomic_store_explicit(&d->period_changed, true, memory_order_relaxed);
	d->prev_clock_id = position->clock.id;
	d->prev_position = position->clock.position;
	d->prev_frames = n;
	d->have_prev = true;
	atomic_fetch_add_explicit(&d->periods, 1, memory_order_relaxed);
}

static const struct pw_filter_events filter_events = {
	PW_VERSION_FILTER_EVENTS,
	.process = on_process,
};

static void *
add_port(struct dpw *d, enum pw_direction dir, const char *name)
{
	return pw_filter_add_port(d->filter, dir, PW_FILTER_PORT_FLAG_MAP_BUFFERS, 1,
				  pw_properties_new(PW_KEY_FORMAT_DSP, "32 bit float mono audio",
						    PW_KEY_PORT_NAME, name, NULL),
				  NULL, 0);
}

/* Our node and both its ports in the registry (the lock held). */
static bool
own_ports_known(struct dpw *d)
{
	int i;

	d->self_id = pw_filter_get_node_id(d->filter);
	d->in_id = d->out_id = SPA_ID_INVALID;
	if (d->self_id == SPA_ID_INVALID)
		return false;
	for (i = 0; i < d->g.n_ports; i++)
		if (d->g.ports[i].node_id == d->self_id) {
			if (d->g.ports[i].output)
				d->out_id = d->g.ports[i].id;
			else
				d->in_id = d->g.ports[i].id;
		}
	return d->in_id != SPA_ID_INVALID && d->out_id != SPA_ID_INVALID;
}

/*
 * One end of the cable: the port named (NODE:PORT), else the first one of
 * -D's node (the default sink; a sink's monitor for our input). 0, or
 * -errno with why set.
 */
static int
cable_end(struct dpw *d, const struct al_duplex_config *cfg, bool output, char *label,
	  size_t label_size, char *why, size_t why_size)
{
	const char *named = output ? cfg->in_port : cfg->out_port;
	const struct pw_obj_port *p;
	struct pw_obj_node *node;

	if (named) {
		p = pwg_port_named(&d->g, named, output);
		if (!p && pwg_port_named(&d->g, named, !output)) {
			say(why, why_size, output ? "PipeWire port '%s' is not an output (a capture "
				"or monitor port)" : "PipeWire port '%s' is not an input (a playback "
				"port)", named);
			return -EINVAL;
		}
		if (!p) {
			say(why, why_size, "no PipeWire port '%s' (see pw-link -io)", named);
			return -ENOENT;
		}
	} else {
		node = pwg_target(&d->g, cfg->device, output);
		if (!node) {
			if (cfg->device && *cfg->device)
				say(why, why_size, "PipeWire: no node '%s'", cfg->device);
			else
				say(why, why_size, "%s", "PipeWire: no sink or source to loop through: "
				    "name one with -D NODE, or use --self-loop");
			return -ENODEV;
		}
		p = pwg_node_port(&d->g, node->id, output, 0);
		if (!p) {
			say(why, why_size, output ? "PipeWire node '%s' has no output port"
						  : "PipeWire node '%s' has no input port", node->name);
			return -ENODEV;
		}
	}
	if (output) {
		d->src_node = p->node_id;
		d->src_port = p->id;
	} else {
		d->dst_node = p->node_id;
		d->dst_port = p->id;
	}
	pwg_port_label(&d->g, p, label, label_size);
	return 0;
}

static void
dp_close(void *priv)
{
	struct dpw *d = priv;

	if (d->g.loop)
		pw_thread_loop_lock(d->g.loop);
	if (d->filter) {
		spa_hook_remove(&d->filter_listener);
		pw_filter_destroy(d->filter);
	}
	d->filter = NULL;
	if (d->g.loop)
		pw_thread_loop_unlock(d->g.loop);
	pwg_disconnect(&d->g);
}

/* The filter and its two ports, in the registry; the lock held. 0 or -errno. */
static int
make_filter(struct dpw *d, const char *name, char *why, size_t why_size)
{
	int i;

	d->filter = pw_filter_new(d->g.core, name,
				  pw_properties_new(PW_KEY_MEDIA_TYPE, "Audio",
						    PW_KEY_MEDIA_CATEGORY, "Duplex",
						    PW_KEY_MEDIA_ROLE, "DSP", PW_KEY_NODE_NAME, name,
						    /* we link ourselves; scheduled even unlinked */
						    PW_KEY_NODE_AUTOCONNECT, "false",
						    PW_KEY_NODE_ALWAYS_PROCESS, "true", NULL));
	if (!d->filter) {
		say(why, why_size, "PipeWire: no filter: %s", strerror(errno));
		return -EIO;
	}
	pw_filter_add_listener(d->filter, &d->filter_listener, &filter_events, d);
	d->in = add_port(d, PW_DIRECTION_INPUT, "in");
	d->out = add_port(d, PW_DIRECTION_OUTPUT, "out");
	if (!d->in || !d->out || pw_filter_connect(d->filter, PW_FILTER_FLAG_RT_PROCESS, NULL, 0) < 0) {
		say(why, why_size, "%s: cannot add ports or connect the PipeWire filter", name);
		return -EIO;
	}
	for (i = 0; i < 50 && !own_ports_known(d) && !atomic_load(&d->g.dead); i++)
		pwg_sync(&d->g);
	if (!own_ports_known(d)) {
		say(why, why_size, "%s: our node's ports did not appear in PipeWire's registry", name);
		return -EIO;
	}
	return 0;
}

static int
dp_open(void *priv, const struct al_duplex_config *cfg, struct al_duplex_info *info,
	char *why, size_t why_size)
{
	struct dpw *d = priv;
	const char *name = cfg->client_name ? cfg->client_name : DEFAULT_CLIENT;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(info, 0, sizeof(*info));
	d->self_loop = cfg->self_loop;
	rc = pwg_connect(&d->g);
	if (rc) {
		say(why, why_size, "%s", d->g.error);
		return rc;
	}
	if (!cfg->self_loop &&
	    ((rc = cable_end(d, cfg, false, info->out_name, sizeof(info->out_name), why, why_size)) ||
	     (rc = cable_end(d, cfg, true, info->in_name, sizeof(info->in_name), why, why_size))))
		goto fail;
	if ((rc = make_filter(d, name, why, why_size)))
		goto fail;
	if (cfg->self_loop) {
		snprintf(info->in_name, sizeof(info->in_name), "%s:out", name);
		snprintf(info->out_name, sizeof(info->out_name), "%s:in", name);
	}
	/* a few cycles: the graph's quantum and rate */
	if (!pwg_wait(&d->g, NULL, &d->preroll, PREROLL_CYCLES)) {
		say(why, why_size, "PipeWire: our node was not scheduled in %s (no driver?)", "5 s");
		rc = atomic_load(&d->g.dead) ? -ECONNRESET : -ETIMEDOUT;
		goto fail;
	}
	pw_thread_loop_unlock(d->g.loop);
	d->period_frames = (uint32_t)atomic_load(&d->preroll_frames);
	info->rate_hz = (uint32_t)atomic_load(&d->preroll_rate);
	info->period_frames = d->period_frames;
	snprintf(info->format, sizeof(info->format), "float");
	snprintf(info->server, sizeof(info->server), "PipeWire");
	return 0;
fail:
	pw_thread_loop_unlock(d->g.loop);
	dp_close(d);
	return rc;
}

static int
dp_start(void *priv, al_duplex_fn fn, void *ctx, char *why, size_t why_size)
{
	struct dpw *d = priv;
	int want = d->self_loop ? 1 : 2, rc = 0;

	d->fn = fn;
	d->ctx = ctx;
	atomic_store_explicit(&d->armed, 1, memory_order_release);
	pw_thread_loop_lock(d->g.loop);
	if (d->self_loop) {
		pwg_link(&d->g, d->self_id, d->out_id, d->self_id, d->in_id);
	} else {
		pwg_link(&d->g, d->self_id, d->out_id, d->dst_node, d->dst_port);
		pwg_link(&d->g, d->src_node, d->src_port, d->self_id, d->in_id);
	}
	pwg_sync(&d->g);
	if (!pwg_wait(&d->g, NULL, &d->g.links_bound, want) || atomic_load(&d->g.links_failed)) {
		say(why, why_size, "%s", d->self_loop ? "PipeWire refused to link our output to "
		    "our own input" : "PipeWire refused a link of the loop");
		rc = atomic_load(&d->g.dead) ? -ECONNRESET : -EIO;
	} else {
		atomic_store(&d->linked_at_ns, al_clock_now_ns());
	}
	pw_thread_loop_unlock(d->g.loop);
	return rc;
}

static void
dp_status(void *priv, struct al_duplex_status *st)
{
	struct dpw *d = priv;

	memset(st, 0, sizeof(*st));
	st->err = atomic_load(&d->g.dead) ? -ENOTCONN
		  : atomic_load(&d->g.links_removed) ? -ENOLINK : 0;
	st->periods = atomic_load_explicit(&d->periods, memory_order_relaxed);
	st->xruns = atomic_load_explicit(&d->xruns, memory_order_relaxed);
	al_duplex_xrun_times_get(&d->xrun_times, st);
	st->linked_at_ns = atomic_load(&d->linked_at_ns);
	st->period_changed = atomic_load(&d->period_changed);
	st->realtime = atomic_load(&d->realtime);
}

static int
dp_stop(void *priv)
{
	struct dpw *d = priv;

	atomic_store(&d->armed, 0);
	pw_thread_loop_lock(d->g.loop);
	if (d->filter && !atomic_load(&d->g.dead))
		pw_filter_set_active(d->filter, false);
	pw_thread_loop_unlock(d->g.loop);
	return 0;
}

const struct al_duplex_ops al_duplex_pipewire = {
	.name = "pipewire",
	.priv_size = sizeof(struct dpw),
	.open = dp_open,
	.start = dp_start,
	.status = dp_status,
	.stop = dp_stop,
	.close = dp_close,
};
