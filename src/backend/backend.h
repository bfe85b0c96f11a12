/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Audio backends: one const ops struct per backend, listed in one registry
 * table (registry.c). The run driver owns the lifecycle:
 * probe -> open -> start -> { wait, (work), write }* -> stop -> close.
 * wait and write are the measurement hot path: no allocation, no stdio, no
 * locks, no syscalls beyond the wait itself and clock reads.
 */
#ifndef AL_BACKEND_BACKEND_H
#define AL_BACKEND_BACKEND_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/result.h"
#include "core/tasks.h"
#include "core/version.h"

/* What one wake-up looked like. */
struct al_wake {
	int64_t boundary_ns; /* when the period was due (absolute CLOCK_MONOTONIC) */
	int64_t wake_ns;     /* when the thread woke */
};

/* What one write found. */
struct al_write_info {
	int64_t margin_ns;     /* audio still queued when the write was made */
	int64_t xrun_start_ns; /* absolute start of a starvation before this write, 0: none */
	int64_t xrun_ns;       /* how long the card was starved */
	int64_t lost_periods;  /* periods the card could not play */
	enum al_xrun_source xrun_source; /* who said so */
	/*
	 * Callback backends: the period boundaries before this one that
	 * passed with no callback of ours (the server's cycle counter says
	 * how many). The run driver charges them to this wake-up.
	 */
	int64_t missed_before;
	/*
	 * Wait/write backends, when they know (missed_known): the periods
	 * of space that came free before this write beyond the one the wait
	 * served (whole periods filled - 1): no wake-up of theirs will come.
	 * Not known (an xrun's restart): the driver counts the boundaries
	 * that passed by the end of the work.
	 */
	int64_t missed;
	bool missed_known;
	/*
	 * Callback backends whose server sets the period and may change it
	 * during the run (PipeWire's quantum and rate): this cycle's; 0: the
	 * one open() gave. A change splits the statistics (core/result.h).
	 */
	int64_t period_frames;
	int64_t rate_hz;
	/* the server clock's delay (frames) and rate_diff this cycle, when clock_valid */
	bool clock_valid;
	int64_t delay_frames;
	double rate_diff;
};

/*
 * Callback-driven backends (JACK) call these from their own real-time
 * thread once per period instead of being driven through wait/write:
 * work() does the period's busy work and returns the clock after it;
 * record() accounts the period. Both are hot-path safe.
 */
struct al_period_hooks {
	int64_t (*work)(void *ctx, int64_t *start_ns);
	void (*record)(void *ctx, const struct al_wake *w, int64_t work_start_ns,
		       int64_t work_end_ns, const struct al_write_info *wi);
	void *ctx;
	/*
	 * The stream died (the server went away): the run ends with err
	 * (-errno). Async-signal-safe and callable from any thread.
	 */
	void (*fail)(void *ctx, int err);
};

/* One device a backend can reach (audiolat devices); strings valid during the call. */
struct al_device {
	const char *kind;        /* "alsa-pcm", "jack-server", "jack-port", "pipewire-node", ... */
	const char *name;        /* what -D takes; a port's full name */
	const char *description; /* one line, may be "" */
	const char *detail;      /* "playback", "capture", "input,physical", ... may be "" */
};

typedef void (*al_device_emit_fn)(void *ud, const struct al_device *d);

/*
 * What a backend can do (ops->caps, a mask of these). The option checks
 * (al_backend_refuses(), audiolat run's parser, roundtrip, devices) loop
 * over them; no option check above src/backend compares backend names.
 */
enum al_backend_cap {
	AL_CAP_CAPTURE = 1u << 0,  /* --capture: the input side of the device */
	AL_CAP_DUPLEX = 1u << 1,   /* --duplex (audiolat roundtrip: ops->duplex, where set) */
	AL_CAP_MMAP = 1u << 2,     /* --mmap */
	AL_CAP_TONE = 1u << 3,     /* --tone */
	AL_CAP_NEAREST = 1u << 4,  /* --nearest: take the device's nearest configuration */
	AL_CAP_DEVICE = 1u << 5,   /* -D names a device or server (without: -D is refused) */
	/*
	 * Periods come from the backend's (its server's) own thread
	 * (start_cb); the rate and period are the server's, not -r/-P.
	 */
	AL_CAP_CALLBACK = 1u << 6,
	AL_CAP_BLAME = 1u << 7, /* --blame: names the graph node that made a cycle late */
};

struct al_duplex_ops;

struct al_backend_ops {
	const char *name;
	const char *summary;
	const char *unavailable; /* non-NULL: not built in, and why */
	unsigned caps;           /* enum al_backend_cap (0 on an unavailable entry) */
	/* the duplex stream of audiolat roundtrip (duplex.h), or NULL: no roundtrip */
	const struct al_duplex_ops *duplex;
	/*
	 * A server backend: the environment variable naming the default
	 * server ("JACK_DEFAULT_SERVER"); list()'s -ENODEV then reads "no
	 * <NAME> server running (<VAR>=...)". NULL: none.
	 */
	const char *server_env;
	/*
	 * A server backend whose server is named so in messages ("PipeWire"):
	 * a run it left (-ECONNRESET) reads "the PipeWire server went away".
	 * NULL: the server is the one -D names (JACK's "the JACK server 'x'").
	 */
	const char *server_name;
	size_t priv_size;        /* the run driver allocates and zeroes it */
	/*
	 * Optional: can this configuration run here? 0, -ENODEV/-ENOENT
	 * (unavailable), -EINVAL. What caps says need not be checked again:
	 * al_run() refuses those options first (al_backend_refuses()).
	 */
	int (*probe)(const struct al_config *cfg);
	/*
	 * Open the device and write back what it gave: rate_hz,
	 * period_frames, periods, channels, format (and device when it
	 * was chosen by default). -ERANGE: not close enough to what was
	 * asked (cfg holds what the device offered); -ENOENT/-ENODEV: no
	 * such device or server; -EBUSY: in use; -ENOTSUP: cannot be
	 * configured at all. On error info() may say why.
	 */
	int (*open)(void *priv, struct al_config *cfg);
	/* Start the stream full; *start_ns is when it started. */
	int (*start)(void *priv, int64_t *start_ns);
	/*
	 * Callback mode (optional; when set, start/wait/write are not used):
	 * start the stream and return; every period calls h->work and
	 * h->record from the backend's thread until stop(). *start_ns must be
	 * set before the first period is delivered (h stays valid until stop).
	 */
	int (*start_cb)(void *priv, const struct al_period_hooks *h, int64_t *start_ns);
	/* HOT: sleep until one period of space is free. 0 or -errno. */
	int (*wait)(void *priv, struct al_wake *w);
	/* HOT: fill the free space; now_ns is a fresh clock reading. 0 or -errno. */
	int (*write)(void *priv, int64_t now_ns, struct al_write_info *wi);
	int (*stop)(void *priv);
	void (*close)(void *priv);
	/* Optional: what the backend saw beyond the periods (after stop, or after a failed open). */
	void (*info)(void *priv, struct al_backend_info *out);
	/*
	 * Optional: list the devices this backend can reach, one emit() each.
	 * 0, or -errno: -ENODEV when nothing is reachable (no server running).
	 */
	int (*list)(al_device_emit_fn emit, void *ud);
	/*
	 * Optional: the graph blame gathered during the run (after stop),
	 * into g (zeroed by the run driver), its times relative to
	 * start_mono_ns. 0, or -ENODATA when there is none (g->note may say why).
	 */
	int (*graph)(void *priv, struct al_graph *g, int64_t start_mono_ns);
	/*
	 * Optional (--trace, --blame on a server without a profiler: JACK):
	 * the real-time threads of the server's clients, ours among them
	 * (self), for the flight recorder to follow (core/tasks.h). From the
	 * controller, never the stream's thread, after start; clients that
	 * joined since are looked up here. Up to max into out; *gen moves
	 * when the set changed. The number written, or -errno.
	 */
	int (*tasks)(void *priv, struct al_task *out, int max, unsigned *gen);
};

/* NULL when there is no backend of that name. */
const struct al_backend_ops *al_backend_find(const char *name);
/* True when the backend has every capability in caps (a mask of enum al_backend_cap). */
bool al_backend_can(const struct al_backend_ops *ops, unsigned caps);
/*
 * The first option in cfg the backend cannot honour by its caps
 * ("--capture", "--duplex", "--tone", "--nearest", "--mmap"; -D is
 * al_run()'s to refuse, -EINVAL, AL_CAP_DEVICE),
 * or NULL when its caps allow cfg, or it is unavailable (that is the
 * answer then). (What no backend does, --capture with
 * --duplex or --tone, al_run() refuses on its own.)
 */
const char *al_backend_refuses(const struct al_backend_ops *ops, const struct al_config *cfg);
/*
 * cfg checked against what ops declares (al_backend_refuses()) and what
 * no backend does (--capture with --duplex or --tone; --tone at or above
 * half the rate where the backend sets the rate itself): audiolat run's,
 * sweep's (every cell) and monitor's check before anything runs. 0, or
 * -EINVAL with one line in err naming the option.
 */
int al_backend_check_config(const struct al_backend_ops *ops, const struct al_config *cfg,
			    char *err, size_t err_size);
/*
 * audiolat roundtrip's backend and loop checked against the caps: name
 * resolved into *out (NULL when there is none); it needs a duplex stream
 * (a backend not built in passes: its own line says why, exit 4); a loop
 * inside the graph (--self-loop) or named ports (--in, --out) need a
 * callback (server) backend, and the device's own rate, period, periods
 * and priority a backend without one (fixed_opt: the last of those options
 * given, as its message names it, or NULL). 0, or -EINVAL with one line in
 * err naming the option.
 */
struct al_duplex_config;
int al_backend_check_duplex(const char *name, const struct al_duplex_config *cfg,
			    const char *fixed_opt, const struct al_backend_ops **out, char *err,
			    size_t err_size);
/*
 * What b can reach (devices.c), into g (core/devices.h: its name, why it
 * is unavailable, what its list() gave); and the groups of every backend
 * in registry order (only: that one) appended to l.
 */
struct al_device_group;
struct al_device_list;
void al_backend_devices(const struct al_backend_ops *b, struct al_device_group *g);
void al_backend_device_list(struct al_device_list *l, const struct al_backend_ops *only);
/* The registry, NULL-terminated, in a fixed order. */
extern const struct al_backend_ops *const al_backends[];
/* The libraries of the backends built in (--version), NULL-terminated. */
extern const struct al_lib_version al_backend_libs[];

#endif
