/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * ALSA rawmidi ports (hw:C,D). Input timestamps, best first:
 *
 * 1. alsa-lib framing: snd_rawmidi_params_set_read_mode(SND_RAWMIDI_READ_TSTAMP)
 *    with SND_RAWMIDI_CLOCK_MONOTONIC, read with snd_rawmidi_tread(): the
 *    kernel stamps the bytes when the driver receives them (Linux >= 5.14).
 *    Needs alsa-lib >= 1.2.7.2 at run time (1.2.6 to 1.2.7.1 refuse tread
 *    exactly in TSTAMP mode) and the API at build time (1.2.6 headers).
 * 2. the kernel directly: /dev/snd/midiCxDy with USER_PVERSION and
 *    SNDRV_RAWMIDI_MODE_FRAMING_TSTAMP, 32-byte records decoded by
 *    framing.c (when alsa-lib is too old but the kernel is not).
 * 3. read time: clock_gettime() right after read() returns.
 *
 * The port says which one it got (info->timestamp_source) and why not a
 * better one (info->timestamp_note).
 */
#include <errno.h>
#include <poll.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <alsa/asoundlib.h>

#include "core/clock.h"
#include "framing.h"

#define AL_MIDI_PORT_PRIVATE_ALLOW
#include "port-private.h"

#define QUEUE 64 /* parsed messages waiting to be handed out */

enum rsource { SRC_TREAD, SRC_KERNEL, SRC_READ_TIME };

struct rport {
	snd_rawmidi_t *in, *out;
	int kfd;                       /* SRC_KERNEL: /dev/snd/midiCxDy, else -1 */
	enum rsource src;
	struct pollfd pfd[4];
	int n_pfd;
	struct al_midi_stream stream;
	struct al_midi_msg q[QUEUE];
	int q_head, q_n;
	uint64_t lost_bytes;           /* queue overflow, kernel xruns */
	uint8_t buf[AL_RAWMIDI_FRAME_BYTES * 32];
};

#ifdef HAVE_RAWMIDI_TSTAMP
/* "1.2.8" >= "1.2.7.2"? */
static bool
alsa_lib_at_least_1_2_7_2(void)
{
	unsigned v[4] = { 0, 0, 0, 0 };

	sscanf(snd_asoundlib_version(), "%u.%u.%u.%u", &v[0], &v[1], &v[2], &v[3]);
	if (v[0] != 1)
		return v[0] > 1;
	if (v[1] != 2)
		return v[1] > 2;
	if (v[2] != 7)
		return v[2] > 7;
	return v[3] >= 2;
}
#endif

static int
open_error(const char *name, int rc, char *err, size_t err_size)
{
	if (access("/dev/snd", F_OK))
		return al_text_err(err, err_size, -ENODEV,
				   "rawmidi %s: %s (this system has no /dev/snd: no ALSA sound devices)",
				   name, snd_strerror(rc));
	return al_text_err(err, err_size, rc == -ENOENT || rc == -ENODEV ? -ENODEV : rc,
			   "rawmidi %s: %s", name, snd_strerror(rc));
}

static void
queue_msg(void *ud, const struct al_midi_msg *m)
{
	struct rport *r = ud;

	if (r->q_n == QUEUE) {
		r->lost_bytes += m->len;
		return;
	}
	r->q[(r->q_head + r->q_n) % QUEUE] = *m;
	r->q_n++;
}

static void
feed(struct rport *r, const uint8_t *b, size_t n, int64_t t_ns)
{
	struct al_midi_msg m;
	size_t i;

	for (i = 0; i < n; i++)
		if (al_midi_stream_byte(&r->stream, b[i], t_ns, &m))
			queue_msg(r, &m);
}

#ifdef HAVE_RAWMIDI_TSTAMP
/* 1. alsa-lib framing; 0, or -errno (then the stream is unchanged). */
static int
try_tread(struct rport *r)
{
	snd_rawmidi_params_t *params;
	int rc;

	if (!alsa_lib_at_least_1_2_7_2())
		return -ENOTSUP;
	rc = snd_rawmidi_params_malloc(&params);
	if (rc)
		return rc;
	rc = snd_rawmidi_params_current(r->in, params);
	if (!rc)
		rc = snd_rawmidi_params_set_read_mode(r->in, params, SND_RAWMIDI_READ_TSTAMP);
	if (!rc)
		rc = snd_rawmidi_params_set_clock_type(r->in, params, SND_RAWMIDI_CLOCK_MONOTONIC);
	if (!rc)
		rc = snd_rawmidi_params(r->in, params);
	snd_rawmidi_params_free(params);
	return rc;
}
#endif

/* 2. the kernel directly (hw:C,D only); 0 or -errno. */
static int
try_kernel(struct rport *r, const char *name)
{
	int card, dev, fd;
	char tail;

	if (sscanf(name, "hw:%d,%d%c", &card, &dev, &tail) != 2)
		return -ENOTSUP;
	fd = al_rawmidi_kernel_open(card, dev, AL_RAWMIDI_MODE_CLOCK_MONOTONIC);
	if (fd < 0)
		return fd;
	r->kfd = fd;
	return 0;
}

static void
raw_close(struct al_midi_port *p)
{
	struct rport *r = p->priv;

	if (!r)
		return;
	if (r->in)
		snd_rawmidi_close(r->in);
	if (r->out)
		snd_rawmidi_close(r->out);
	if (r->kfd >= 0)
		close(r->kfd);
	free(r);
	p->priv = NULL;
}

static int
raw_open(struct al_midi_port *p, struct al_midi_port_info *info, char *err, size_t err_size)
{
	const struct al_midi_port_cfg *cfg = &p->cfg;
	struct rport *r;
	int rc;

	snd_lib_error_set_handler(al_text_discard);
	r = calloc(1, sizeof(*r));
	if (!r)
		return al_text_err(err, err_size, -ENOMEM, "out of memory");
	r->kfd = -1;
	p->priv = r;
	al_midi_stream_init(&r->stream);
	if (cfg->mode == AL_MIDI_MODE_SEND || cfg->mode == AL_MIDI_MODE_LOOP) {
		rc = snd_rawmidi_open(NULL, &r->out, cfg->out, 0);
		if (rc < 0) {
			raw_close(p);
			return open_error(cfg->out, rc, err, err_size);
		}
		snprintf(info->out_name, sizeof(info->out_name), "%s", cfg->out);
	}
	if (cfg->mode == AL_MIDI_MODE_SEND)
		return 0;

	rc = snd_rawmidi_open(&r->in, NULL, cfg->in, SND_RAWMIDI_NONBLOCK);
	if (rc < 0) {
		raw_close(p);
		return open_error(cfg->in, rc, err, err_size);
	}
	snprintf(info->in_name, sizeof(info->in_name), "%s", cfg->in);
	r->src = SRC_READ_TIME;
#ifdef HAVE_RAWMIDI_TSTAMP
	rc = try_tread(r);
	if (!rc) {
		r->src = SRC_TREAD;
	} else if (rc == -ENOTSUP && !alsa_lib_at_least_1_2_7_2()) {
		snprintf(info->timestamp_note, sizeof(info->timestamp_note),
			 "alsa-lib %s cannot read framing timestamps (needs 1.2.7.2)",
			 snd_asoundlib_version());
	} else {
		snprintf(info->timestamp_note, sizeof(info->timestamp_note),
			 "no framing timestamps from the driver or kernel (%s; needs Linux 5.14)",
			 snd_strerror(rc));
	}
#else
	snprintf(info->timestamp_note, sizeof(info->timestamp_note),
		 "built with alsa-lib %s, which has no SND_RAWMIDI_READ_TSTAMP", SND_LIB_VERSION_STR);
#endif
	if (r->src == SRC_READ_TIME && !try_kernel(r, cfg->in)) {
		r->src = SRC_KERNEL;
		snd_rawmidi_close(r->in);
		r->in = NULL;
		r->pfd[0] = (struct pollfd){ .fd = r->kfd, .events = POLLIN };
		r->n_pfd = 1;
		snprintf(info->timestamp_source, sizeof(info->timestamp_source),
			 "rawmidi-framing-monotonic");
		/* virmidi drops input until the first poll or read has triggered it */
		poll(r->pfd, 1, 0);
		return 0;
	}
	r->n_pfd = snd_rawmidi_poll_descriptors(r->in, r->pfd, 4);
	if (r->n_pfd <= 0) {
		raw_close(p);
		return al_text_err(err, err_size, -EIO, "rawmidi %s: no poll descriptors", cfg->in);
	}
	snprintf(info->timestamp_source, sizeof(info->timestamp_source), "%s",
		 r->src == SRC_TREAD ? "rawmidi-framing-monotonic" : "rawmidi-read-time");
	/* virmidi drops input until the first poll or read has triggered it */
	poll(r->pfd, (nfds_t)r->n_pfd, 0);
	return 0;
}

static int
raw_send(struct al_midi_port *p, struct al_midi_msg *m)
{
	struct rport *r = p->priv;
	ssize_t n;

	m->t_ns = al_clock_now_ns();
	n = snd_rawmidi_write(r->out, m->data, m->len);
	if (n < 0)
		return (int)n;
	return n == m->len ? 0 : -EIO;
}

static int
raw_recv(struct al_midi_port *p, struct al_midi_msg *m, int64_t timeout_ns)
{
	struct rport *r = p->priv;
	struct timespec ts;
	ssize_t n;
	int rc;

	for (;;) {
		if (r->q_n) {
			*m = r->q[r->q_head];
			r->q_head = (r->q_head + 1) % QUEUE;
			r->q_n--;
			return 1;
		}
		rc = al__midi_poll(r->pfd, r->n_pfd, timeout_ns);
		if (rc <= 0)
			return rc;
		timeout_ns = 0; /* one read, then return what it gave */
		switch (r->src) {
		case SRC_KERNEL:
			n = read(r->kfd, r->buf, sizeof(r->buf));
			if (n < 0)
				return errno == EAGAIN ? 0 : -errno;
			n -= n % AL_RAWMIDI_FRAME_BYTES;
			if (al_rawmidi_frames_parse(r->buf, (size_t)n, &r->stream, queue_msg, r, NULL) < 0)
				return -EIO;
			break;
#ifdef HAVE_RAWMIDI_TSTAMP
		case SRC_TREAD:
			n = snd_rawmidi_tread(r->in, &ts, r->buf, sizeof(r->buf));
			if (n == -EAGAIN)
				return 0;
			if (n < 0)
				return (int)n;
			feed(r, r->buf, (size_t)n, (int64_t)ts.tv_sec * AL_NS_PER_SEC + ts.tv_nsec);
			break;
#endif
		default:
			n = snd_rawmidi_read(r->in, r->buf, sizeof(r->buf));
			(void)ts;
			if (n == -EAGAIN)
				return 0;
			if (n < 0)
				return (int)n;
			feed(r, r->buf, (size_t)n, al_clock_now_ns());
			break;
		}
		if (!r->q_n)
			return 0;
	}
}

static void
raw_counters(struct al_midi_port *p, struct al_midi_port_counters *c)
{
	struct rport *r = p->priv;
	snd_rawmidi_status_t *st;

	c->ignored = r->stream.dropped;
	c->xruns = r->lost_bytes;
	if (r->in && !snd_rawmidi_status_malloc(&st)) {
		if (!snd_rawmidi_status(r->in, st))
			c->xruns += snd_rawmidi_status_get_xruns(st);
		snd_rawmidi_status_free(st);
	}
}

const struct port_impl al__midi_rawmidi_impl = {
	.open = raw_open,
	.send = raw_send,
	.recv = raw_recv,
	.counters = raw_counters,
	.status = NULL,
	.close = raw_close,
};
