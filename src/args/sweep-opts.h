/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `audiolat sweep` options: a pure parser (no printing, no exit), unit-tested and fuzzed. */
#ifndef AL_ARGS_SWEEP_OPTS_H
#define AL_ARGS_SWEEP_OPTS_H

#include <stdbool.h>
#include <stddef.h>

#include "core/sweep.h"
#include "run-opts.h"

#define AL_SWEEP_REPEAT_MAX 100

struct al_sweep_cli {
	struct al_sweep_grid grid; /* -b, -r, -P, -n (core/sweep.h parses the lists) */
	int repeat;
	const char *json_path; /* NULL, a file, or "-" */
	const char *html_path;
	bool markdown;
	bool quiet;
	bool help;
	/*
	 * run's options (al_run_optdefs, checked by type already), as given,
	 * for run's parser: run_argv[0] is "run"; a letter of a cluster comes
	 * alone ("-qv": -q is the sweep's, "-v" run's)
	 */
	char **run_argv;
	int run_argc;
	/*
	 * The same options parsed once, as al_run_parse_opts() parses run_argv
	 * (the defaults for the rest): the base each cell patches its backend,
	 * device, rate, period and periods into; checked together per cell by
	 * al_sweep_check_cells() (al_backend_check_config()).
	 */
	struct al_run_cli run;
};

/*
 * Parse `sweep` arguments (argv[0] is "sweep"): the grid options, --repeat,
 * the outputs; run's options go into run (parsed as run parses them) and,
 * as given, into run_argv (the results' command lines). Defaults: sim, 48000 Hz, 64 frames, 3 periods, 1 repeat.
 * Returns 0, or -EINVAL with one line in err, or -ENOMEM. Free with
 * al_sweep_cli_free() in every case.
 */
int al_sweep_parse_args(int argc, char **argv, struct al_sweep_cli *p, char *err, size_t err_size);
void al_sweep_cli_free(struct al_sweep_cli *p);

/* sweep's options, usage and prose: its whole --help (al_opts_help() at column 25) */
extern const struct al_optdef al_sweep_optdefs[];

#endif
