/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * JACK duplex stream: a client with one input port "in" and one output
 * port "out". The process callback is the audio thread. With self_loop
 * our output is connected to our own input inside the graph; otherwise
 * out -> a playback port and a capture port -> in (a loop cable between
 * them closes the loop).
 */
#include <errno.h>
#include <stdatomic.h>
#include <stdio.h>
#include <string.h>

#include <jack/jack.h>

#include "core/text.h"
#include "jack.h"

#define DEFAULT_CLIENT "audiolat-roundtrip"

struct dj {
	jack_client_t *client;
	jack_port_t *in, *out;
	al_duplex_fn fn;          /* set before activation, read by the process thread */
	void *ctx;
	bool active;
	bool self_loop;
	uint32_t period_frames;
	char in_src[160];         /* port feeding "in" (not ours) */
	char out_dst[160];        /* port "out" feeds */
	atomic_uint_least64_t periods;
	atomic_uint xruns;
	struct al_duplex_xrun_times xrun_times;
	_Atomic int64_t linked_at_ns; /* the loop's ports were connected */
	atomic_int dead;          /* -errno once the server went away */
	atomic_bool period_changed;
};

static void
say(char *why, size_t size, const char *fmt, const char *a)
{
	if (why && size)
		snprintf(why, size, fmt, a);
}

static int
process(jack_nframes_t nframes, void *arg)
{
	struct dj *d = arg;
	const float *in = jack_port_get_buffer(d->in, nframes);
	float *out = jack_port_get_buffer(d->out, nframes);

	if (d->fn)
		d->fn(d->ctx, in, out, nframes);
	else
		memset(out, 0, nframes * sizeof(float));
	atomic_fetch_add_explicit(&d->periods, 1, memory_order_relaxed);
	return 0;
}

static int
on_xrun(void *arg)
{
	struct dj *d = arg;

	atomic_fetch_add_explicit(&d->xruns, 1, memory_order_relaxed);
	al_duplex_xrun_seen(&d->xrun_times);
	return 0;
}

static int
on_buffer_size(jack_nframes_t nframes, void *arg)
{
	struct dj *d = arg;

	if (nframes != d->period_frames)
		atomic_store(&d->period_changed, true);
	return 0;
}

static void
on_shutdown(jack_status_t code, const char *reason, void *arg)
{
	struct dj *d = arg;

	(void)code;
	(void)reason;
	atomic_store(&d->dead, -ENOTCONN);
}

/* The first port matching flags, or -ENODEV. */
static int
first_physical(jack_client_t *c, unsigned long flags, char *buf, size_t size)
{
	const char **ports = jack_get_ports(c, NULL, JACK_DEFAULT_AUDIO_TYPE,
					    JackPortIsPhysical | flags);
	int rc = -ENODEV;

	if (ports && ports[0]) {
		snprintf(buf, size, "%s", ports[0]);
		rc = 0;
	}
	jack_free(ports);
	return rc;
}

/* Port name must exist and carry audio in the direction flags says. */
static int
check_port(jack_client_t *c, const char *name, unsigned long flags, char *why, size_t why_size)
{
	jack_port_t *p = jack_port_by_name(c, name);

	if (!p) {
		say(why, why_size, "no JACK port '%s' (see jack_lsp)", name);
		return -ENOENT;
	}
	if (!(jack_port_flags(p) & flags) || strcmp(jack_port_type(p), JACK_DEFAULT_AUDIO_TYPE)) {
		say(why, why_size, flags & JackPortIsInput ?
			"JACK port '%s' is not an audio input (a playback port)" :
			"JACK port '%s' is not an audio output (a capture port)", name);
		return -EINVAL;
	}
	return 0;
}

/*
 * The port to connect to (flags JackPortIsInput: where we play) or from:
 * the one given, checked, else the server's first physical one. 0 or -errno.
 */
static int
pick_port(jack_client_t *c, const char *given, unsigned long flags, char *buf, size_t size,
	  char *why, size_t why_size)
{
	int rc;

	if (given) {
		rc = check_port(c, given, flags, why, why_size);
		if (!rc)
			snprintf(buf, size, "%s", given);
		return rc;
	}
	if (!first_physical(c, flags, buf, size))
		return 0;
	say(why, why_size, "%s", flags & JackPortIsInput ?
	    "the JACK server has no physical playback port: name one with --out PORT, or use --self-loop" :
	    "the JACK server has no physical capture port: name one with --in PORT, or use --self-loop");
	return -ENODEV;
}

static int
dj_open(void *priv, const struct al_duplex_config *cfg, struct al_duplex_info *info,
	char *why, size_t why_size)
{
	struct dj *d = priv;
	jack_options_t opts = JackNoStartServer;
	jack_status_t status = 0;
	const char *name = cfg->client_name ? cfg->client_name : DEFAULT_CLIENT;
	int rc;

	memset(d, 0, sizeof(*d));
	memset(info, 0, sizeof(*info));
	jack_set_error_function(al_text_discard_line); /* open() says why */
	jack_set_info_function(al_text_discard_line);
	if (cfg->device && *cfg->device)
		opts |= JackServerName;
	d->client = jack_client_open(name, opts, &status, cfg->device);
	if (!d->client) {
		if (opts & JackServerName)
			say(why, why_size, "cannot connect to JACK server '%s' (is it running?)",
			    cfg->device);
		else
			say(why, why_size, "%s", "cannot connect to the JACK server (is jackd running?)");
		return -ENOENT;
	}
	d->in = jack_port_register(d->client, "in", JACK_DEFAULT_AUDIO_TYPE, JackPortIsInput, 0);
	d->out = jack_port_register(d->client, "out", JACK_DEFAULT_AUDIO_TYPE, JackPortIsOutput, 0);
	if (!d->in || !d->out) {
		say(why, why_size, "%s: cannot register JACK ports", name);
		rc = -EBUSY;
		goto fail;
	}
	d->self_loop = cfg->self_loop;
	d->period_frames = jack_get_buffer_size(d->client);
	if (jack_set_process_callback(d->client, process, d) ||
	    jack_set_xrun_callback(d->client, on_xrun, d) ||
	    jack_set_buffer_size_callback(d->client, on_buffer_size, d)) {
		say(why, why_size, "%s: cannot set the JACK callbacks", name);
		rc = -EIO;
		goto fail;
	}
	jack_on_info_shutdown(d->client, on_shutdown, d);

	if (cfg->self_loop) {
		snprintf(d->in_src, sizeof(d->in_src), "%s", jack_port_name(d->out));
		snprintf(d->out_dst, sizeof(d->out_dst), "%s", jack_port_name(d->in));
	} else {
		rc = pick_port(d->client, cfg->out_port, JackPortIsInput, d->out_dst,
			       sizeof(d->out_dst), why, why_size);
		if (!rc)
			rc = pick_port(d->client, cfg->in_port, JackPortIsOutput, d->in_src,
				       sizeof(d->in_src), why, why_size);
		if (rc)
			goto fail;
	}
	info->rate_hz = jack_get_sample_rate(d->client);
	info->period_frames = d->period_frames;
	snprintf(info->in_name, sizeof(info->in_name), "%s", d->in_src);
	snprintf(info->out_name, sizeof(info->out_name), "%s", d->out_dst);
	snprintf(info->format, sizeof(info->format), "float");
	snprintf(info->server, sizeof(info->server), "JACK");
	info->latency_known = true;
	info->jackd_io = true;
	return 0;
fail:
	jack_client_close(d->client);
	d->client = NULL;
	return rc;
}

static int
dj_start(void *priv, al_duplex_fn fn, void *ctx, char *why, size_t why_size)
{
	struct dj *d = priv;
	const char *our_in = jack_port_name(d->in), *our_out = jack_port_name(d->out);

	d->fn = fn;
	d->ctx = ctx;
	if (jack_activate(d->client)) {
		say(why, why_size, "%s: cannot activate the JACK client",
		    jack_get_client_name(d->client));
		return -EIO;
	}
	d->active = true;
	if (d->self_loop) {
		if (jack_connect(d->client, our_out, our_in)) {
			say(why, why_size, "cannot connect %s to its own input", our_out);
			return -EIO;
		}
		atomic_store(&d->linked_at_ns, al_clock_now_ns());
		return 0;
	}
	if (jack_connect(d->client, our_out, d->out_dst)) {
		say(why, why_size, "cannot connect to JACK port '%s'", d->out_dst);
		return -EIO;
	}
	if (jack_connect(d->client, d->in_src, our_in)) {
		say(why, why_size, "cannot connect JACK port '%s' to our input", d->in_src);
		return -EIO;
	}
	atomic_store(&d->linked_at_ns, al_clock_now_ns());
	return 0;
}

static void
dj_status(void *priv, struct al_duplex_status *st)
{
	struct dj *d = priv;
	jack_latency_range_t cap = { 0, 0 }, play = { 0, 0 };

	memset(st, 0, sizeof(*st));
	st->err = atomic_load(&d->dead);
	st->periods = atomic_load_explicit(&d->periods, memory_order_relaxed);
	st->xruns = atomic_load_explicit(&d->xruns, memory_order_relaxed);
	al_duplex_xrun_times_get(&d->xrun_times, st);
	st->linked_at_ns = atomic_load(&d->linked_at_ns);
	st->period_changed = atomic_load(&d->period_changed);
	st->realtime = jack_is_realtime(d->client);
	if (!st->err) {
		jack_port_get_latency_range(d->in, JackCaptureLatency, &cap);
		jack_port_get_latency_range(d->out, JackPlaybackLatency, &play);
	}
	st->capture_latency_frames = cap.max;
	st->playback_latency_frames = play.max;
}

static int
dj_stop(void *priv)
{
	struct dj *d = priv;

	if (d->active && !atomic_load(&d->dead))
		jack_deactivate(d->client);
	d->active = false;
	return 0;
}

static void
dj_close(void *priv)
{
	struct dj *d = priv;

	if (d->client)
		jack_client_close(d->client);
	d->client = NULL;
}

const struct al_duplex_ops al_duplex_jack = {
	.name = "jack",
	.priv_size = sizeof(struct dj),
	.open = dj_open,
	.start = dj_start,
	.status = dj_status,
	.stop = dj_stop,
	.close = dj_close,
};
