/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * One measurement the way `audiolat run` makes it (run, sweep, monitor):
 * the options checked against the machine (the affinity CPU), the --load
 * phases planned, al_run() (or a caller's wrapper of it), the command line
 * and the system checks recorded in the result. Every failure is one line
 * in m->err and a kind that says how to report it; nothing here prints.
 * al_sweep_run(): every cell of a sweep's grid, run by run.
 */
#ifndef AL_RUN_MEASURE_H
#define AL_RUN_MEASURE_H

#include <stdbool.h>

#include "core/result.h"
#include "core/sweep.h"
#include "load/load.h"
#include "run.h"

/* How a measurement went wrong: how a caller reports it. */
enum al_measure_fail {
	AL_MEASURE_OK,
	AL_MEASURE_OPTIONS,  /* an option cannot be: err names it (a usage error), nothing measured */
	AL_MEASURE_REFUSED,  /* the backend cannot take the configuration or is unavailable
			      * here: err names the option or the backend, nothing measured */
	AL_MEASURE_START,    /* the backend did not start: what names it, r->backend.error
			      * (may be "") says why, nothing measured */
	AL_MEASURE_DURING,   /* it failed during the run: err says how; r holds what was measured */
};

struct al_measure {
	/*
	 * The run (cfg, backend, trace, status, stop_requested); its phases
	 * and load_opts are set from load_spec. cfg.duration_ns becomes the
	 * phases' total when --load times them all.
	 */
	struct al_run_opts o;
	const char *load_spec;          /* --load, NULL when none */
	const struct al_load_opts *load_opts;
	const char *cmdline;            /* recorded in the result (no password in it) */
	/* who measures: NULL al_run(); audiolat monitor's al_monitor_run() wrapper */
	int (*measure)(const struct al_run_opts *o, struct al_result *r, void *ud);
	void *measure_ud;
	/* out */
	enum al_measure_fail fail;
	char what[160];                 /* AL_MEASURE_START: the backend (and device) */
	char err[256];                  /* one line, for every other failure */
};

/*
 * Measure m into r (free it with al_result_free(), also on failure).
 * Returns 0, or -errno with m->fail saying what kind of failure it was
 * (r->n_phases > 0 only for AL_MEASURE_DURING: what was measured is kept).
 * The command line and the system checks go into r whenever it measured.
 */
int al_run_measure(struct al_measure *m, struct al_result *r);

/*
 * A sweep's grid checked before anything runs (core/sweep.h). Every
 * cell's backend is one this build has (-EINVAL: "-b/--backend: unknown
 * backend 'x'") and can use (-ENOTSUP: "backend oss: built without ..."),
 * resolved once into the cell's ops, which al_sweep_check_cells() and
 * al_sweep_run() use; every cell's configuration (base with the cell
 * patched in) is one its backend takes (al_backend_check_config():
 * -EINVAL naming the option). 0, or the first of those with one line in
 * err.
 */
int al_sweep_check_backends(struct al_sweep *s, char *err, size_t err_size);
int al_sweep_check_cells(const struct al_sweep *s, const struct al_config *base, char *err,
			 size_t err_size);

/*
 * A sweep (core/sweep.h): s's cells (their backends resolved by
 * al_sweep_check_backends()), each run s->repeat times with the
 * options of base (its cfg patched with the cell's backend, device, rate,
 * period and periods; its cmdline with " -b ... -r ... -P ... -n ..."
 * after it, as if audiolat run had been given them). After each run,
 * done() gets it: r->n_phases > 0 when it measured (done() fills fig, the
 * cell's next run) else m says why; done() returns an exit status, which
 * a cell that did not run keeps as its failed_code. A cell that did not
 * run is not repeated; *stop ends the sweep after the run it is in
 * (s->interrupted). Returns the first nonzero status done() returned, or
 * 0; *n_done: the runs that measured.
 */
struct al_sweep_hooks {
	int (*done)(void *ud, const struct al_sweep *s, int idx, int rep,
		    const struct al_measure *m, int rc, struct al_result *r,
		    double fig[AL_SWEEP_FIGURES]);
	void *ud;
};
int al_sweep_run(struct al_sweep *s, const struct al_measure *base,
		 const volatile sig_atomic_t *stop, const struct al_sweep_hooks *h, int *n_done);

#endif
