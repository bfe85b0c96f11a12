/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `audiolat sweep` options: a pure parser (no printing, no exit), unit-tested and fuzzed. */
#ifndef AL_CLI_SWEEP_OPTS_H
#define AL_CLI_SWEEP_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#define AL_SWEEP_VALUES_MAX 32 /* values in one list */
#define AL_SWEEP_CELLS_MAX 256 /* configurations in the grid */
#define AL_SWEEP_REPEAT_MAX 100

struct al_sweep_backend {
	char name[16];	  /* "sim", "alsa" */
	char device[128]; /* "plug:jack" from "alsa:plug:jack"; "" when none */
};

struct al_sweep_cli {
	struct al_sweep_backend backends[AL_SWEEP_VALUES_MAX];
	int n_backends;
	long rates[AL_SWEEP_VALUES_MAX];
	int n_rates;
	long period_frames[AL_SWEEP_VALUES_MAX];
	int n_period_frames;
	long periods[AL_SWEEP_VALUES_MAX];
	int n_periods;
	int repeat;
	const char *json_path; /* NULL, a file, or "-" */
	const char *html_path;
	bool markdown;
	bool quiet;
	bool help;
	/* everything else, for `run`'s parser: run_argv[0] is "run" */
	char **run_argv;
	int run_argc;
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

/*
 * Parse `sweep` arguments (argv[0] is "sweep"): the grid options, --repeat,
 * the outputs; the rest is kept in run_argv for run's parser, which
 * checks it. Defaults: sim, 48000 Hz, 64 frames, 3 periods, 1 repeat.
 * Returns 0, or -EINVAL with one line in err, or -ENOMEM. Free with
 * al_sweep_cli_free() in every case.
 */
int al_sweep_parse_args(int argc, char **argv, struct al_sweep_cli *p, char *err, size_t err_size);
void al_sweep_cli_free(struct al_sweep_cli *p);

/* The number of configurations: backends x rates x period sizes x period counts. */
int al_sweep_cells(const struct al_sweep_cli *p);

/* The --help text. */
extern const char al_sweep_help[];

#endif
