/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat sweep's grid and what its runs gave, as plain data
 * (docs/sweep.md): al_sweep_run() (src/run/measure.c) fills it run by
 * run, src/report/sweep.c makes its document, text, Markdown and HTML
 * inputs. The cells are the grid in order: backends, then rates, then
 * period sizes, then period counts (the last varies fastest).
 */
#ifndef AL_CORE_SWEEP_H
#define AL_CORE_SWEEP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define AL_SWEEP_VALUES_MAX 32 /* values in one list of the grid */
#define AL_SWEEP_CELLS_MAX 256 /* configurations in the grid */

/* One backend of the grid: "alsa:plug:jack" is alsa with the device plug:jack. */
struct al_sweep_backend {
	char name[16];	  /* "sim", "alsa" */
	char device[128]; /* "plug:jack" from "alsa:plug:jack"; "" when none */
};

/* The grid as given: its lists (audiolat sweep's -b, -r, -P, -n). */
struct al_sweep_grid {
	struct al_sweep_backend backends[AL_SWEEP_VALUES_MAX];
	int n_backends;
	long rates[AL_SWEEP_VALUES_MAX];
	int n_rates;
	long period_frames[AL_SWEEP_VALUES_MAX];
	int n_period_frames;
	long periods[AL_SWEEP_VALUES_MAX];
	int n_periods;
};

/*
 * Parse "64,128,256" (opt names the option in errors): whole numbers in
 * [min, max], at most cap, none twice. 0 or -EINVAL with one line in err.
 */
int al_sweep_parse_list(const char *opt, const char *arg, long min, long max, long *vals, int cap,
			int *n, char *err, size_t err_size);

/*
 * Parse "sim,alsa:plug:jack": backend names (with a device after the
 * first ':'), at most cap, no entry twice. Names are not looked up here.
 */
int al_sweep_parse_backends(const char *arg, struct al_sweep_backend *b, int cap, int *n, char *err,
			    size_t err_size);

struct al_config;
/* The grid of one configuration, base's (its backend, no device): the lists' defaults. */
void al_sweep_grid_init(struct al_sweep_grid *g, const struct al_config *base);

/* The number of configurations: backends x rates x period sizes x period counts. */
int al_sweep_cells(const struct al_sweep_grid *g);

/* 0, or -EINVAL with one line in err: more than AL_SWEEP_CELLS_MAX configurations. */
int al_sweep_grid_check(const struct al_sweep_grid *g, char *err, size_t err_size);

/* The figures of a run the table and the summary show (report/sweep.c: their names). */
enum al_sweep_fig {
	AL_SWEEP_MAX_LATENCY,      /* the per-period wake latency's max, ns */
	AL_SWEEP_MAX_LATENCY_PCT,  /* of the buffer */
	AL_SWEEP_WITHIN_1MS,       /* latencytest's 1MS factor */
	AL_SWEEP_WITHIN_2MS,
	AL_SWEEP_WAKE_P99,
	AL_SWEEP_MAX_INTERVAL,
	AL_SWEEP_XRUNS,
	AL_SWEEP_MISSED,
	AL_SWEEP_WAKE_MAX,
	AL_SWEEP_MAX_INTERVAL_PCT,
	AL_SWEEP_FIGURES
};

/* One configuration of the grid and what its runs gave. */
struct al_backend_ops;
struct al_sweep_cell {
	char backend[16];
	/* backend's ops, resolved once before the first run (al_sweep_check_backends()) */
	const struct al_backend_ops *ops;
	char device[128];          /* "" when none */
	long rate_hz;
	long period_frames;
	long periods;
	int n_runs;                /* runs that measured (at most the sweep's repeat) */
	int failed_code;           /* a run that measured nothing: its exit code */
	double (*fig)[AL_SWEEP_FIGURES]; /* fig[run][figure]; NAN: not measured */
};

struct al_sweep {
	struct al_sweep_cell *cells;
	int n_cells;
	int n_backends, n_rates, n_period_frames, n_periods; /* the grid's dimensions */
	int repeat;
	bool interrupted;
	char cmdline[1024];
};

/* Cells for the grid (zeroed), repeat runs each. 0 or -ENOMEM; al_sweep_free() in every case. */
int al_sweep_init(struct al_sweep *s, int n_backends, int n_rates, int n_period_frames,
		  int n_periods, int repeat);
void al_sweep_free(struct al_sweep *s);
/* al_sweep_init() for grid g, each cell's backend, device, rate, period and periods filled in. */
int al_sweep_init_grid(struct al_sweep *s, const struct al_sweep_grid *g, int repeat);

/* The cell's backend, device (when it names one), rate, period and periods into cfg. */
struct al_config;
void al_sweep_cell_apply(const struct al_sweep_cell *c, struct al_config *cfg);

/* A figure over a cell's runs (the runs that have it: n). */
struct al_sweep_range {
	double min, max, sum;
	int n;
};
struct al_sweep_range al_sweep_range(const struct al_sweep_cell *c, enum al_sweep_fig f);
int al_sweep_runs_with_xruns(const struct al_sweep_cell *c);
/* The buffer (periods x period) in time. */
int64_t al_sweep_buffer_ns(const struct al_sweep_cell *c);
/* The cell with the smallest buffer (in time) whose runs all went without an xrun; -1: none. */
int al_sweep_smallest_safe(const struct al_sweep *s);
/* "sim 48000 Hz 3 x 64", "alsa:plug:jack ..."; "ok", "xruns in 1/3", "did not run (exit 4)". */
void al_sweep_cell_name(const struct al_sweep_cell *c, char *buf, size_t size);
void al_sweep_verdict(const struct al_sweep_cell *c, char *buf, size_t size);

#endif
