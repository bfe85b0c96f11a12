/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * MIDI ports: dispatch to the API, the reader and prober threads of the
 * ALSA ports, and the sender's timing loop.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/rt.h"

#define AL_MIDI_PORT_PRIVATE_ALLOW
#include "port-private.h"

#define RECV_SLICE_NS (100 * AL_NS_PER_MS) /* how often the threads look at stop */

static const struct port_impl *
impl_of(int api)
{
	switch (api) {
#ifdef HAVE_JACK
	case AL_MIDI_API_JACK:
		return &al__midi_jack_impl;
#endif
#ifdef HAVE_ALSA
	case AL_MIDI_API_RAWMIDI:
		return &al__midi_rawmidi_impl;
	case AL_MIDI_API_SEQ:
		return &al__midi_seq_impl;
#endif
	default:
		return NULL;
	}
}

const char *
al_midi_api_unavailable(int api)
{
	if (impl_of(api))
		return NULL;
	return api == AL_MIDI_API_JACK ? "built without libjack" : "built without alsa-lib";
}

/* ---- the ALSA threads ---- */

static void *
reader_thread(void *arg)
{
	struct al_midi_port *p = arg;
	struct al_midi_msg m;
	int rc;

	al_rt_prefault_stack(64 * 1024);
	while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		rc = p->impl->recv(p, &m, RECV_SLICE_NS);
		if (rc < 0) {
			atomic_store(&p->thread_err, rc);
			break;
		}
		if (rc > 0)
			al_midi_ring_push(&p->rx, &m);
	}
	return NULL;
}

/* One probe in flight: send, wait for its echo or the timeout, repeat. */
static void *
prober_thread(void *arg)
{
	struct al_midi_port *p = arg;
	int64_t timeout_ns = p->cfg.loop_timeout_ns, deadline_ns, left_ns, now_ns;
	struct al_midi_msg probe, m, res;
	uint32_t seq = 0;
	int rc;

	al_rt_prefault_stack(64 * 1024);
	while (!atomic_load_explicit(&p->stop, memory_order_relaxed)) {
		memset(&probe, 0, sizeof(probe));
		probe.len = 3;
		al__midi_probe(seq, probe.data);
		rc = p->impl->send(p, &probe);
		if (rc < 0) {
			atomic_store(&p->thread_err, rc);
			break;
		}
		atomic_fetch_add(&p->sent, 1);
		memset(&res, 0, sizeof(res));
		res.seq = seq;
		res.ref_ns = probe.t_ns;
		res.len = 3;
		memcpy(res.data, probe.data, 3);
		deadline_ns = probe.t_ns + timeout_ns;
		for (;;) {
			if (atomic_load_explicit(&p->stop, memory_order_relaxed))
				return NULL; /* the probe in flight counts as neither */
			now_ns = al_clock_now_ns();
			left_ns = deadline_ns - now_ns;
			if (left_ns <= 0) {
				res.flags = AL_MIDI_MSG_LOST;
				al_midi_ring_push(&p->rx, &res);
				break;
			}
			rc = p->impl->recv(p, &m, left_ns < RECV_SLICE_NS ? left_ns : RECV_SLICE_NS);
			if (rc < 0) {
				atomic_store(&p->thread_err, rc);
				return NULL;
			}
			if (!rc)
				continue;
			if (m.len == 3 && !memcmp(m.data, probe.data, 3)) {
				res.t_ns = m.t_ns;
				res.wall_ns = m.t_ns - probe.t_ns;
				al_midi_ring_push(&p->rx, &res);
				break;
			}
			if (m.flags & AL_MIDI_MSG_REALTIME)
				atomic_fetch_add(&p->ignored, 1);
			else
				atomic_fetch_add(&p->unexpected, 1);
		}
		seq++;
		if (p->cfg.loop_gap_ns) {
			int64_t until_ns = al_clock_now_ns() + p->cfg.loop_gap_ns;

			while (!atomic_load_explicit(&p->stop, memory_order_relaxed) &&
			       (now_ns = al_clock_now_ns()) < until_ns)
				al_clock_sleep_until_ns(until_ns - now_ns > RECV_SLICE_NS
								? now_ns + RECV_SLICE_NS
								: until_ns);
		}
	}
	return NULL;
}

static int
start_thread(struct al_midi_port *p, void *(*fn)(void *), struct al_midi_port_info *info,
	     char *err, size_t err_size)
{
	int rc;

	rc = al_rt_thread_start(&p->thread, fn, p, p->cfg.prio, -1);
	if (rc == -EPERM && p->cfg.prio) {
		rc = al_rt_thread_start(&p->thread, fn, p, 0, -1);
		info->thread_realtime = false;
	} else {
		info->thread_realtime = p->cfg.prio > 0 && !rc;
	}
	if (rc)
		return al_text_err(err, err_size, rc, "cannot start the %s thread: %s",
				   fn == reader_thread ? "reader" : "prober", strerror(-rc));
	p->thread_started = true;
	return 0;
}

int
al_midi_port_open(const struct al_midi_port_cfg *cfg, struct al_midi_port **out,
		  struct al_midi_port_info *info, char *err, size_t err_size)
{
	const struct port_impl *impl;
	struct al_midi_port *p;
	int rc;

	*out = NULL;
	memset(info, 0, sizeof(*info));
	if (cfg->api < 0 || cfg->api >= AL_MIDI_API_COUNT)
		return al_text_err(err, err_size, -EINVAL, "unknown MIDI API %d", cfg->api);
	impl = impl_of(cfg->api);
	if (!impl)
		return al_text_err(err, err_size, -ENOTSUP, "%s: %s", al_midi_api_name(cfg->api),
				   al_midi_api_unavailable(cfg->api));
	if (cfg->mode == AL_MIDI_MODE_THRU && cfg->api != AL_MIDI_API_JACK)
		return al_text_err(err, err_size, -EINVAL, "thru needs the jack API");
	if (cfg->api != AL_MIDI_API_JACK &&
	    (((cfg->mode == AL_MIDI_MODE_SEND || cfg->mode == AL_MIDI_MODE_LOOP) && !cfg->out) ||
	     ((cfg->mode == AL_MIDI_MODE_RECORD || cfg->mode == AL_MIDI_MODE_LOOP) && !cfg->in)))
		return al_text_err(err, err_size, -EINVAL, "%s needs a port name",
				   al_midi_api_name(cfg->api));
	p = calloc(1, sizeof(*p));
	if (!p)
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	p->cfg = *cfg;
	if (!p->cfg.ring_msgs)
		p->cfg.ring_msgs = 4096;
	if (!p->cfg.loop_timeout_ns)
		p->cfg.loop_timeout_ns = AL_NS_PER_SEC;
	if (!p->cfg.client_name)
		p->cfg.client_name = "audiolat-midi";
	p->impl = impl;
	atomic_init(&p->stop, false);
	atomic_init(&p->thread_err, 0);
	atomic_init(&p->sent, 0);
	atomic_init(&p->unexpected, 0);
	atomic_init(&p->ignored, 0);
	rc = al_midi_ring_init(&p->rx, p->cfg.ring_msgs);
	if (rc) {
		free(p);
		return al_text_err(err, err_size, rc, "out of memory for the message ring");
	}
	al_rt_prefault(p->rx.buf, p->rx.size * sizeof(*p->rx.buf));
	rc = impl->open(p, info, err, err_size);
	if (rc) {
		al_midi_ring_free(&p->rx);
		free(p);
		return rc;
	}
	if (impl->recv && cfg->mode == AL_MIDI_MODE_RECORD)
		rc = start_thread(p, reader_thread, info, err, err_size);
	else if (impl->recv && cfg->mode == AL_MIDI_MODE_LOOP)
		rc = start_thread(p, prober_thread, info, err, err_size);
	if (rc) {
		impl->close(p);
		al_midi_ring_free(&p->rx);
		free(p);
		return rc;
	}
	*out = p;
	return 0;
}

int
al_midi_port_send(struct al_midi_port *p, struct al_midi_msg *m)
{
	return p->impl->send(p, m);
}

size_t
al_midi_port_drain(struct al_midi_port *p, struct al_midi_msg *out, size_t max)
{
	const struct al_midi_msg *m;
	size_t n = 0;

	while (n < max && (m = al_midi_ring_peek(&p->rx))) {
		out[n++] = *m;
		al_midi_ring_pop(&p->rx);
	}
	return n;
}

void
al_midi_port_counters(struct al_midi_port *p, struct al_midi_port_counters *c)
{
	memset(c, 0, sizeof(*c));
	if (p->impl->counters)
		p->impl->counters(p, c);
	c->sent += atomic_load(&p->sent);
	c->unexpected += atomic_load(&p->unexpected);
	c->ignored += atomic_load(&p->ignored);
	c->dropped += atomic_load(&p->rx.dropped);
}

int
al_midi_port_status(struct al_midi_port *p, char *err, size_t err_size)
{
	int rc = atomic_load(&p->thread_err);

	if (rc)
		return al_text_err(err, err_size, rc, "%s: reading %s failed: %s",
				   al_midi_api_name(p->cfg.api), p->cfg.in ? p->cfg.in : "the port",
				   strerror(-rc));
	if (p->impl->status)
		return p->impl->status(p, err, err_size);
	return 0;
}

void
al_midi_port_stop(struct al_midi_port *p)
{
	if (!p || p->stopped)
		return;
	atomic_store(&p->stop, true);
	if (p->thread_started)
		pthread_join(p->thread, NULL);
	p->thread_started = false;
	if (p->impl->stop)
		p->impl->stop(p);
	p->stopped = true;
}

void
al_midi_port_close(struct al_midi_port *p)
{
	if (!p)
		return;
	al_midi_port_stop(p);
	p->impl->close(p);
	al_midi_ring_free(&p->rx);
	free(p);
}

/* ---- the sender ---- */

struct al_midi_sender {
	struct al_midi_port *port;
	pthread_t thread;
	atomic_bool stop;
	int64_t start_ns;
	int64_t interval_ns;
	uint8_t channel;
	_Atomic uint64_t sent;
	_Atomic uint64_t errors;
	_Atomic int64_t late_max_ns;
	bool realtime;
};

/* Sleep until t_ns, looking at stop every RECV_SLICE_NS; false when stopped. */
static bool
sleep_until(struct al_midi_sender *s, int64_t t_ns)
{
	int64_t now_ns;

	for (;;) {
		if (atomic_load_explicit(&s->stop, memory_order_relaxed))
			return false;
		now_ns = al_clock_now_ns();
		if (now_ns >= t_ns)
			return true;
		al_clock_sleep_until_ns(t_ns - now_ns > RECV_SLICE_NS ? now_ns + RECV_SLICE_NS : t_ns);
	}
}

static void
send_one(struct al_midi_sender *s, int64_t due_ns, uint8_t status, uint8_t velocity)
{
	struct al_midi_msg m = { .len = 3, .data = { status, 60, velocity } };
	int64_t late_ns = al_clock_now_ns() - due_ns;

	if (late_ns > atomic_load_explicit(&s->late_max_ns, memory_order_relaxed))
		atomic_store_explicit(&s->late_max_ns, late_ns, memory_order_relaxed);
	if (al_midi_port_send(s->port, &m) < 0)
		atomic_fetch_add_explicit(&s->errors, 1, memory_order_relaxed);
	else
		atomic_fetch_add_explicit(&s->sent, 1, memory_order_relaxed);
}

static void *
sender_thread(void *arg)
{
	struct al_midi_sender *s = arg;
	int64_t on_ns;
	uint64_t k;

	al_rt_prefault_stack(64 * 1024);
	for (k = 0;; k++) {
		/* absolute times from the start: no drift */
		on_ns = s->start_ns + (int64_t)k * s->interval_ns;
		if (!sleep_until(s, on_ns))
			break;
		send_one(s, on_ns, (uint8_t)(0x90 | s->channel), 100);
		if (!sleep_until(s, on_ns + s->interval_ns / 2))
			break;
		send_one(s, on_ns + s->interval_ns / 2, (uint8_t)(0x80 | s->channel), 64);
	}
	return NULL;
}

int
al_midi_sender_start(struct al_midi_port *p, double rate_hz, int64_t start_ns, int prio,
		     int channel, struct al_midi_sender **out)
{
	struct al_midi_sender *s;
	int rc;

	*out = NULL;
	if (!(rate_hz > 0) || rate_hz > 10000 || channel < 1 || channel > 16)
		return -EINVAL;
	s = calloc(1, sizeof(*s));
	if (!s)
		return -ENOMEM;
	s->port = p;
	s->start_ns = start_ns;
	s->interval_ns = (int64_t)(1e9 / rate_hz + 0.5);
	s->channel = (uint8_t)(channel - 1);
	atomic_init(&s->stop, false);
	atomic_init(&s->sent, 0);
	atomic_init(&s->errors, 0);
	atomic_init(&s->late_max_ns, 0);
	rc = al_rt_thread_start(&s->thread, sender_thread, s, prio, -1);
	if (rc == -EPERM && prio)
		rc = al_rt_thread_start(&s->thread, sender_thread, s, 0, -1);
	else
		s->realtime = prio > 0 && !rc;
	if (rc) {
		free(s);
		return rc;
	}
	*out = s;
	return 0;
}

void
al_midi_sender_stats(struct al_midi_sender *s, struct al_midi_sender_stats *st)
{
	st->sent = atomic_load(&s->sent);
	st->errors = atomic_load(&s->errors);
	st->late_max_ns = atomic_load(&s->late_max_ns);
	st->realtime = s->realtime;
}

void
al_midi_sender_stop(struct al_midi_sender *s, struct al_midi_sender_stats *final)
{
	if (!s)
		return;
	atomic_store(&s->stop, true);
	pthread_join(s->thread, NULL);
	if (final)
		al_midi_sender_stats(s, final);
	free(s);
}
