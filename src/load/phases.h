/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The phase driver: the one controller loop of every measurement with
 * loads (audiolat run, midi record and loop, audiolat load). It runs the
 * phases of a spec one after another, each from when its loads begin to
 * start, for the phase's time (or until the run's end), starting and
 * stopping each phase's loads; between, it sleeps, calls the caller's
 * tick, draws the status and polls the loads, until the last phase ends,
 * the stop flag is set, or the tick says to end. Not real-time: it runs
 * on the controlling thread (which must outlive the loads, load.h).
 *
 *	struct al_phase_driver d = { .spec = ph, .n_spec = n, .load_opts = &o,
 *				     .phases = out, .tick = fn, .tick_ns = ..., .ud = me };
 *	al_phase_driver_run(&d);  -> d.n_done phases ran, d.interrupted, d.ended
 */
#ifndef AL_LOAD_PHASES_H
#define AL_LOAD_PHASES_H

#include <signal.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "load.h"

struct al_phase_driver {
	/* the phases: spec[0..n_spec), or (n_spec 0) one phase "idle" without loads */
	const struct al_phase_spec *spec;
	size_t n_spec;
	const struct al_load_opts *load_opts;
	/* absolute CLOCK_MONOTONIC end of a phase without a time of its own; 0: none */
	int64_t end_ns;
	/* the phases' start_ns and end_ns count from here (0: from the driver's start) */
	int64_t origin_ns;
	/* set asynchronously (a signal handler): end now, interrupted */
	volatile sig_atomic_t *stop_requested;
	/*
	 * Called at least every tick_ns (> 0): 0 goes on, anything else ends
	 * the run (ended gets it: > 0 done, < 0 failed). May be NULL.
	 */
	int (*tick)(void *ud, int64_t now_ns);
	int64_t tick_ns;
	/* the live status line, every status_ns (may be NULL) */
	void (*status)(void *ud, int64_t now_ns);
	int64_t status_ns;
	/* called as phase i begins, before its loads start (may be NULL) */
	void (*phase_begin)(void *ud, size_t i);
	void *ud;
	/* poll the loads every poll_ns (0: every time round) */
	int64_t poll_ns;
	/*
	 * End the run when the loads end on their own or fail (audiolat load:
	 * hackbench's one run); else a load that fails is named in its phase
	 * and the others go on.
	 */
	bool end_with_loads;

	/*
	 * Out, one entry per phase (n_spec, or 1), zeroed by the caller:
	 * name, load (what was asked, then what ran), start_ns, end_ns,
	 * error ("" when every load ran to the end), throughput. The rest is
	 * the caller's.
	 */
	struct al_phase *phases;
	size_t n_done;       /* phases begun */
	bool interrupted;    /* the stop flag ended it */
	int ended;           /* the tick's return that ended it, 0 */
	int start_err;       /* the first phase whose loads could not start: -errno; 0 */
	int64_t stopped_ns;  /* absolute: when the last phase ended, before its loads stopped */
};

/* Run the phases. Returns 0 (what happened is in d). */
int al_phase_driver_run(struct al_phase_driver *d);

/*
 * audiolat load (solo.c): one load (or loads joined by '+') on its own,
 * for its time, until the stop flag, or until it ends on its own
 * (hackbench with no time: one run, the "classic" form of rt-tests).
 *
 *	struct al_load_solo s = { .name = "cpu", .duration_ns = ..., .opts = &o, ... };
 *	rc = al_load_solo_run(&s, err, sizeof(err));  -> s.phase, s.elapsed_ns, ...
 *	al_load_solo_free(&s);
 */
struct al_load_solo {
	/* in */
	const char *name;           /* NAME ("cmd": command is the COMMAND) */
	const char *command;        /* NULL unless cmd */
	int64_t duration_ns;        /* -d; 0: the spec's time, else until stopped */
	struct al_load_opts *opts;  /* checked; the classic form sets hb_runs */
	volatile sig_atomic_t *stop_requested;
	/* once planned, before the loads start (may be NULL) */
	void (*planned)(void *ud, const struct al_load_solo *s);
	void *ud;

	/* planned */
	struct al_phase_spec *spec; /* the one phase */
	bool classic;
	int64_t planned_ns;         /* 0: until stopped (or the loads' own end) */
	/* out */
	struct al_phase *phase;     /* name, load, error, throughput */
	int64_t elapsed_ns;
	bool interrupted;           /* the stop flag ended it */
	int start_err;              /* the loads could not start: -errno (phase->error says) */
};

/*
 * Plan and run s. 0 (what happened is in s, a start failure among it), or
 * with one line in err: -EINVAL (the name or options cannot run as given),
 * -EOPNOTSUPP or -EPERM (a load not available here), -ENOMEM.
 */
int al_load_solo_run(struct al_load_solo *s, char *err, size_t err_size);
void al_load_solo_free(struct al_load_solo *s);

#endif
