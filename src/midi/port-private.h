/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by port.c and the API implementations (jackmidi.c, rawmidi.c, seq.c). */
#ifndef AL_MIDI_PORT_PRIVATE_H
#define AL_MIDI_PORT_PRIVATE_H

#ifndef AL_MIDI_PORT_PRIVATE_ALLOW
#error "port-private.h is private to src/midi/port.c, jackmidi.c, rawmidi.c and seq.c"
#endif

#include <errno.h>
#include <poll.h>
#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>

#include "core/text.h"
#include "port.h"

struct port_impl {
	/* Open and start; fill info. 0 or -errno with one line in err. */
	int (*open)(struct al_midi_port *p, struct al_midi_port_info *info, char *err,
		    size_t err_size);
	/* Send now (ALSA) or queue for the next cycle (JACK); stamps m->t_ns. */
	int (*send)(struct al_midi_port *p, struct al_midi_msg *m);
	/* ALSA: wait up to timeout_ns for one message: 1, 0 (none) or -errno. */
	int (*recv)(struct al_midi_port *p, struct al_midi_msg *m, int64_t timeout_ns);
	void (*counters)(struct al_midi_port *p, struct al_midi_port_counters *c);
	int (*status)(struct al_midi_port *p, char *err, size_t err_size);
	/* Stop acting (JACK: deactivate); counters are final afterwards. May be NULL. */
	void (*stop)(struct al_midi_port *p);
	void (*close)(struct al_midi_port *p);
};

extern const struct port_impl al__midi_jack_impl;
extern const struct port_impl al__midi_rawmidi_impl;
extern const struct port_impl al__midi_seq_impl;

struct al_midi_port {
	struct al_midi_port_cfg cfg;
	const struct port_impl *impl;
	struct al_midi_ring rx;       /* record: messages; loop: probes */
	void *priv;                   /* the implementation's state */

	/* the reader (record) or prober (loop) thread of the ALSA ports */
	pthread_t thread;
	bool thread_started;
	bool stopped;
	atomic_bool stop;
	_Atomic int thread_err;       /* -errno once the thread failed */
	_Atomic uint64_t sent;
	_Atomic uint64_t unexpected;
	_Atomic uint64_t ignored;
};

/*
 * The ALSA ports' wait: up to timeout_ns (rounded up to whole ms) for one
 * of n fds. 1 ready, 0 none (the time is up, or a signal), or -errno.
 */
static inline int
al__midi_poll(struct pollfd *pfd, int n, int64_t timeout_ns)
{
	int rc = poll(pfd, (nfds_t)n, (int)((timeout_ns + 999999) / 1000000));

	if (rc < 0)
		return errno == EINTR ? 0 : -errno;
	return rc > 0;
}

/* The probe of sequence number seq: alternating note-on / note-off status. */
static inline void
al__midi_probe(uint32_t seq, uint8_t data[3])
{
	data[0] = (seq & 1) ? 0x80 : 0x90;
	data[1] = seq & 0x7F;
	data[2] = 0x40;
}

#endif
