/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Duplex streams: one mono input and one mono output running on the same
 * clock, for measurements through a loop (audiolat roundtrip). A process
 * callback gets every period's input and fills its output from the audio
 * thread (a JACK process callback, or an ALSA thread doing read ->
 * callback -> write). The callback is the hot path: no allocation, stdio,
 * locks or syscalls.
 *
 * The duplex stream is part of a backend: its al_backend_ops.duplex
 * (AL_CAP_DUPLEX), there is no registry of its own.
 *
 * Lifecycle: ops->open -> ops->start(fn) -> (ops->status polled from
 * another thread) -> ops->stop -> ops->close. The caller allocates
 * priv_size zeroed bytes; backends never allocate on the audio thread.
 */
#ifndef AL_BACKEND_DUPLEX_H
#define AL_BACKEND_DUPLEX_H

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/clock.h"
#include "core/roundtrip.h" /* al_duplex_info, al_duplex_status */

/*
 * When the xruns were: the first AL_DUPLEX_XRUN_TIMES kept, written by
 * the audio thread (a clock read and two atomic writes), read by status.
 */
struct al_duplex_xrun_times {
	atomic_uint n;
	_Atomic int64_t at_ns[AL_DUPLEX_XRUN_TIMES];
};

static inline void
al_duplex_xrun_seen(struct al_duplex_xrun_times *x)
{
	unsigned i = atomic_fetch_add_explicit(&x->n, 1, memory_order_relaxed);

	if (i < AL_DUPLEX_XRUN_TIMES)
		atomic_store_explicit(&x->at_ns[i], al_clock_now_ns(), memory_order_release);
}

static inline void
al_duplex_xrun_times_get(struct al_duplex_xrun_times *x, struct al_duplex_status *st)
{
	unsigned i;

	for (i = 0; i < AL_DUPLEX_XRUN_TIMES; i++)
		st->xrun_at_ns[i] = atomic_load_explicit(&x->at_ns[i], memory_order_acquire);
}

/* in[i] may alias out[i] (a JACK self-loop): read in[i] before writing out[i]. */
typedef void (*al_duplex_fn)(void *ctx, const float *in, float *out, uint32_t nframes);

struct al_duplex_config {
	/* ALSA: the playback PCM (NULL: "default"); JACK: the server (NULL: the default one) */
	const char *device;
	const char *capture_device; /* ALSA: capture PCM (NULL: same as device) */
	/* JACK: the port feeding our input, the port our output feeds (NULL: the first physical) */
	const char *in_port;
	const char *out_port;
	const char *client_name;    /* JACK client name (NULL: "audiolat-roundtrip") */
	bool self_loop;             /* JACK: our output straight into our input, inside the graph */
	uint32_t rate_hz;           /* ALSA: asked for (JACK: the server's) */
	uint32_t period_frames;     /* ALSA: asked for (JACK: the server's) */
	uint32_t periods;           /* ALSA: periods in the buffer, >= 2 */
	int priority;               /* ALSA: SCHED_FIFO priority of the audio thread, 0: OTHER */
};

struct al_duplex_ops {
	const char *name;        /* "jack", "alsa": the backend's name */
	size_t priv_size;
	/*
	 * Open the device or connect to the server and fill info. 0 or -errno:
	 * -ENOENT/-ENODEV no such device or server, -EBUSY in use, -ERANGE the
	 * two directions disagree (rate, period), -EINVAL bad configuration.
	 * why (may be NULL) gets one line on failure. close() is needed only
	 * after a successful open.
	 */
	int (*open)(void *priv, const struct al_duplex_config *cfg, struct al_duplex_info *info,
		    char *why, size_t why_size);
	/* Start the stream; fn(ctx, ...) runs every period until stop(). */
	int (*start)(void *priv, al_duplex_fn fn, void *ctx, char *why, size_t why_size);
	/* Not from the audio thread. */
	void (*status)(void *priv, struct al_duplex_status *st);
	int (*stop)(void *priv);
	void (*close)(void *priv);
};

#endif
