/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ALSA sequencer ports (client:port, or a client name). The input port
 * stamps every event in real time (sec + nsec) on a queue of its own,
 * started when the port opens: the kernel stamps at delivery, in the
 * sequencer's workqueue (seed 002: the path hackbench delays). Queue time
 * is mapped onto CLOCK_MONOTONIC with an offset measured once at the start
 * (the queue's real time runs on the monotonic clock).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <alsa/asoundlib.h>

#include "core/clock.h"

#define AL_MIDI_PORT_PRIVATE_ALLOW
#include "port-private.h"

struct sport {
	snd_seq_t *seq;
	int port;
	int queue;
	snd_midi_event_t *enc, *dec;
	int64_t offset_ns;         /* CLOCK_MONOTONIC - queue real time */
	struct pollfd pfd[4];
	int n_pfd;
	uint64_t ignored;
};

static void
seq_close(struct al_midi_port *p)
{
	struct sport *s = p->priv;

	if (!s)
		return;
	if (s->enc)
		snd_midi_event_free(s->enc);
	if (s->dec)
		snd_midi_event_free(s->dec);
	if (s->seq) {
		if (s->queue >= 0) {
			snd_seq_stop_queue(s->seq, s->queue, NULL);
			snd_seq_drain_output(s->seq);
			snd_seq_free_queue(s->seq, s->queue);
		}
		snd_seq_close(s->seq);
	}
	free(s);
	p->priv = NULL;
}

/* The queue's real time against CLOCK_MONOTONIC, best of a few reads. */
static int
measure_offset(struct sport *s)
{
	snd_seq_queue_status_t *qs;
	const snd_seq_real_time_t *rt;
	int64_t best = INT64_MAX, a, b, q;
	int i, rc;

	rc = snd_seq_queue_status_malloc(&qs);
	if (rc)
		return rc;
	for (i = 0; i < 8; i++) {
		a = al_clock_now_ns();
		rc = snd_seq_get_queue_status(s->seq, s->queue, qs);
		b = al_clock_now_ns();
		if (rc)
			break;
		rt = snd_seq_queue_status_get_real_time(qs);
		q = (int64_t)rt->tv_sec * AL_NS_PER_SEC + rt->tv_nsec;
		if (b - a < best) {
			best = b - a;
			s->offset_ns = a + (b - a) / 2 - q;
		}
	}
	snd_seq_queue_status_free(qs);
	return rc;
}

static int
seq_connect_port(struct sport *s, const char *name, bool from, char *err, size_t err_size)
{
	snd_seq_addr_t addr;
	int rc;

	rc = snd_seq_parse_address(s->seq, &addr, name);
	if (rc < 0)
		return al_text_err(err, err_size, -EINVAL, "seq: no port '%s' (aconnect -l lists them)",
				   name);
	if (from) {
		snd_seq_port_subscribe_t *sub;
		snd_seq_addr_t dest;

		/* real-time stamps on our queue */
		rc = snd_seq_port_subscribe_malloc(&sub);
		if (rc)
			return al_text_err(err, err_size, rc, "seq: out of memory");
		snd_seq_port_subscribe_set_sender(sub, &addr);
		dest.client = (unsigned char)snd_seq_client_id(s->seq);
		dest.port = (unsigned char)s->port;
		snd_seq_port_subscribe_set_dest(sub, &dest);
		snd_seq_port_subscribe_set_queue(sub, s->queue);
		snd_seq_port_subscribe_set_time_update(sub, 1);
		snd_seq_port_subscribe_set_time_real(sub, 1);
		rc = snd_seq_subscribe_port(s->seq, sub);
		snd_seq_port_subscribe_free(sub);
	} else {
		rc = snd_seq_connect_to(s->seq, s->port, addr.client, addr.port);
	}
	if (rc < 0)
		return al_text_err(err, err_size, -EIO, "seq: cannot connect %s %s: %s",
				   from ? "from" : "to", name, snd_strerror(rc));
	return 0;
}

static int
seq_open(struct al_midi_port *p, struct al_midi_port_info *info, char *err, size_t err_size)
{
	const struct al_midi_port_cfg *cfg = &p->cfg;
	snd_seq_port_info_t *pinfo;
	bool want_in = cfg->mode != AL_MIDI_MODE_SEND, want_out = cfg->mode != AL_MIDI_MODE_RECORD;
	struct sport *s;
	unsigned caps;
	int rc;

	snd_lib_error_set_handler(al_text_discard);
	s = calloc(1, sizeof(*s));
	if (!s)
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	s->queue = -1;
	p->priv = s;
	rc = snd_seq_open(&s->seq, "default", SND_SEQ_OPEN_DUPLEX, SND_SEQ_NONBLOCK);
	if (rc < 0) {
		s->seq = NULL;
		seq_close(p);
		if (access("/dev/snd/seq", F_OK))
			return al_text_err(err, err_size, -ENODEV,
					   "seq: %s (no /dev/snd/seq: this system has no ALSA sequencer)",
					   snd_strerror(rc));
		return al_text_err(err, err_size, -ENODEV, "seq: cannot open the sequencer: %s",
				   snd_strerror(rc));
	}
	snd_seq_set_client_name(s->seq, cfg->client_name);
	if (snd_midi_event_new(16, &s->enc) || snd_midi_event_new(256, &s->dec)) {
		seq_close(p);
		return al_text_err(err, err_size, -ENOMEM, "seq: out of memory");
	}
	snd_midi_event_no_status(s->dec, 1); /* no running status in what we decode */
	if (want_in) {
		s->queue = snd_seq_alloc_named_queue(s->seq, "audiolat");
		if (s->queue < 0) {
			rc = s->queue;
			seq_close(p);
			return al_text_err(err, err_size, -EIO, "seq: cannot allocate a queue: %s",
					   snd_strerror(rc));
		}
	}
	rc = snd_seq_port_info_malloc(&pinfo);
	if (rc) {
		seq_close(p);
		return al_text_err(err, err_size, -ENOMEM, "seq: out of memory");
	}
	snd_seq_port_info_set_name(pinfo, cfg->client_name);
	caps = want_in ? SND_SEQ_PORT_CAP_WRITE | SND_SEQ_PORT_CAP_SUBS_WRITE : 0;
	if (want_out)
		caps |= SND_SEQ_PORT_CAP_READ | SND_SEQ_PORT_CAP_SUBS_READ;
	snd_seq_port_info_set_capability(pinfo, caps);
	snd_seq_port_info_set_type(pinfo, SND_SEQ_PORT_TYPE_MIDI_GENERIC | SND_SEQ_PORT_TYPE_APPLICATION);
	if (want_in) {
		snd_seq_port_info_set_timestamping(pinfo, 1);
		snd_seq_port_info_set_timestamp_real(pinfo, 1);
		snd_seq_port_info_set_timestamp_queue(pinfo, s->queue);
	}
	rc = snd_seq_create_port(s->seq, pinfo);
	s->port = snd_seq_port_info_get_port(pinfo);
	snd_seq_port_info_free(pinfo);
	if (rc < 0) {
		seq_close(p);
		return al_text_err(err, err_size, -EIO, "seq: cannot create a port: %s",
				   snd_strerror(rc));
	}
	if (want_in) {
		rc = snd_seq_start_queue(s->seq, s->queue, NULL);
		if (rc >= 0)
			rc = snd_seq_drain_output(s->seq);
		if (rc >= 0)
			rc = measure_offset(s);
		if (rc < 0) {
			seq_close(p);
			return al_text_err(err, err_size, -EIO, "seq: cannot start the queue: %s",
					   snd_strerror(rc));
		}
		rc = seq_connect_port(s, cfg->in, true, err, err_size);
		if (rc) {
			seq_close(p);
			return rc;
		}
		s->n_pfd = snd_seq_poll_descriptors(s->seq, s->pfd, 4, POLLIN);
		snprintf(info->in_name, sizeof(info->in_name), "%d:%d", snd_seq_client_id(s->seq),
			 s->port);
		snprintf(info->timestamp_source, sizeof(info->timestamp_source),
			 "seq-real-time-queue");
	}
	if (want_out) {
		rc = seq_connect_port(s, cfg->out, false, err, err_size);
		if (rc) {
			seq_close(p);
			return rc;
		}
		snprintf(info->out_name, sizeof(info->out_name), "%d:%d", snd_seq_client_id(s->seq),
			 s->port);
	}
	return 0;
}

static int
seq_send(struct al_midi_port *p, struct al_midi_msg *m)
{
	struct sport *s = p->priv;
	snd_seq_event_t ev;
	long n;
	int rc;

	snd_seq_ev_clear(&ev);
	snd_midi_event_reset_encode(s->enc);
	n = snd_midi_event_encode(s->enc, m->data, m->len, &ev);
	if (n < 0 || ev.type == SND_SEQ_EVENT_NONE)
		return -EINVAL;
	snd_seq_ev_set_source(&ev, (unsigned char)s->port);
	snd_seq_ev_set_subs(&ev);
	snd_seq_ev_set_direct(&ev);
	m->t_ns = al_clock_now_ns();
	rc = snd_seq_event_output_direct(s->seq, &ev);
	return rc < 0 ? rc : 0;
}

static int
seq_recv(struct al_midi_port *p, struct al_midi_msg *m, int64_t timeout_ns)
{
	struct sport *s = p->priv;
	snd_seq_event_t *ev;
	uint8_t buf[256];
	long n;
	int rc;

	for (;;) {
		rc = snd_seq_event_input(s->seq, &ev);
		if (rc == -EAGAIN) {
			if (!timeout_ns)
				return 0;
			rc = al__midi_poll(s->pfd, s->n_pfd, timeout_ns);
			if (rc <= 0)
				return rc;
			timeout_ns = 0;
			continue;
		}
		if (rc == -ENOSPC) {
			s->ignored++; /* the kernel's input pool overran */
			continue;
		}
		if (rc < 0)
			return rc;
		if (ev->type == SND_SEQ_EVENT_SYSEX) {
			memset(m, 0, sizeof(*m));
			m->len = 1;
			m->data[0] = 0xF0;
			m->flags = AL_MIDI_MSG_SYSEX;
		} else {
			snd_midi_event_reset_decode(s->dec);
			n = snd_midi_event_decode(s->dec, buf, sizeof(buf), ev);
			if (n <= 0) {
				s->ignored++; /* not a MIDI message (port events, ...) */
				continue;
			}
			memset(m, 0, sizeof(*m));
			m->len = (uint8_t)(n > 3 ? 3 : n);
			memcpy(m->data, buf, m->len);
			if (buf[0] >= 0xF8)
				m->flags = AL_MIDI_MSG_REALTIME;
		}
		if (snd_seq_ev_is_real(ev))
			m->t_ns = (int64_t)ev->time.time.tv_sec * AL_NS_PER_SEC + ev->time.time.tv_nsec +
				  s->offset_ns;
		else
			m->t_ns = al_clock_now_ns();
		return 1;
	}
}

static void
seq_counters(struct al_midi_port *p, struct al_midi_port_counters *c)
{
	struct sport *s = p->priv;

	c->ignored = s->ignored;
}

const struct port_impl al__midi_seq_impl = {
	.open = seq_open,
	.send = seq_send,
	.recv = seq_recv,
	.counters = seq_counters,
	.status = NULL,
	.close = seq_close,
};
