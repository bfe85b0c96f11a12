/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The run driver: one measurement from start to finish. It owns the
 * lifecycle: probe -> allocate -> lock memory -> open -> real-time thread
 * -> phases (loads) -> stop -> restore -> finish.
 */
#ifndef AL_RUN_RUN_H
#define AL_RUN_RUN_H

#include <signal.h>
#include <stdint.h>

#include "core/result.h"
#include "load/load.h"

struct al_backend_ops;

struct al_run_opts {
	struct al_config cfg;
	/* the backend, resolved once by the caller (cfg.backend is its name); NULL: -ENOENT */
	const struct al_backend_ops *backend;
	/* set asynchronously (a signal handler) to end the run early */
	volatile sig_atomic_t *stop_requested;
	/* called from the controlling thread about every status_interval_ns */
	void (*status)(void *ud, const struct al_result *r, int64_t elapsed_ns);
	void *status_ud;
	int64_t status_interval_ns;
	/*
	 * Load phases (from al_load_spec_parse, durations resolved), run in
	 * order; n_phases 0: one "idle" phase of cfg.duration_ns. The run
	 * lasts cfg.duration_ns; the last phase ends with it.
	 */
	const struct al_phase_spec *phases;
	size_t n_phases;
	const struct al_load_opts *load_opts;
	/*
	 * --trace: explain wake latencies above trace_threshold_ns from an
	 * ftrace instance on the audio thread's CPU (pinned to the last CPU
	 * when not pinned); without root or tracefs the run goes on untraced
	 * with a warning.
	 */
	bool trace;
	int64_t trace_threshold_ns;  /* 0: half the buffer */
	/*
	 * A cause for every xrun and late period (docs/why.md): why collects
	 * the unprivileged evidence (src/run/why-sampler.c) into r->why;
	 * why_threshold_ns is the lateness that makes a period an event (0:
	 * one period). fault_pages: the audio thread touches that many fresh
	 * pages every 100 ms of the stream (a fault of known kind, for the
	 * tests; 0: none).
	 */
	bool why;
	int64_t why_threshold_ns;
	int fault_pages;
	/*
	 * audiolat monitor's hooks (src/run/monitor.c); NULL: none. tap runs
	 * on the audio thread after each period was recorded into the result
	 * (the hot path: arithmetic and lock-free writes only); tick on the
	 * controlling thread at every turn of its loop (at least every 50 ms),
	 * where it may block briefly, write files and run commands.
	 */
	void (*tap)(void *ud, const struct al_sample *s, const struct al_result *r);
	void (*tick)(void *ud, struct al_result *r, int64_t now_ns);
	void *hook_ud;
};

/*
 * Run one measurement into r (which al_run allocates; free it with
 * al_result_free()). Returns 0, or -errno:
 * -ENOENT: unknown backend (or no such device); -ENODEV/-ENOTSUP:
 * backend or device unavailable; -EBUSY: device in use; -EINVAL:
 * configuration refused by the backend; -ERANGE: the device cannot come
 * close to the rate/period/periods asked (r->cfg then holds what it
 * offered); other: a runtime error. When open failed, r->backend.error
 * may say why (r->cfg and r->backend stay readable after the call). When
 * the measurement had started, r holds what was measured even on error
 * (r->n_phases > 0, r->interrupted set).
 */
int al_run(const struct al_run_opts *o, struct al_result *r);

#endif
