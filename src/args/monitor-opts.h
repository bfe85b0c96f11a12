/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `audiolat monitor` options: a pure parser (no printing, no exit); run's go to run's parser. */
#ifndef AL_ARGS_MONITOR_OPTS_H
#define AL_ARGS_MONITOR_OPTS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "run/action.h"
#include "run/monitor.h"
#include "run-opts.h"

struct al_monitor_cli {
	int64_t window_ns;
	int64_t checkpoint_ns;
	int64_t metrics_interval_ns;
	int64_t threshold_ns;
	int64_t action_interval_ns;
	const char *metrics_file;
	const char *listen;
	struct al_action action;  /* --on-threshold */
	bool help;
	struct al_run_cli run;    /* every other option, as `audiolat run` takes it */
	char **run_argv;          /* what run's parser got (argv[0] "run"), for the command line */
	int run_argc;
};

/*
 * Parse `monitor` arguments (argv[0] is "monitor"): monitor's own options,
 * the rest through al_run_parse_args(), then what they ask together.
 * Returns 0, or -EINVAL with one line in err naming the option, or
 * -ENOMEM. Free with al_monitor_cli_free() in every case.
 */
int al_monitor_parse_args(int argc, char **argv, struct al_monitor_cli *mc, char *err,
			  size_t err_size);
void al_monitor_cli_free(struct al_monitor_cli *mc);

/* monitor's options, usage and prose: its whole --help (al_opts_help() at column 25) */
extern const struct al_optdef al_monitor_optdefs[];

/*
 * The monitor mc asks for into mo (cleared first): the windows, the
 * checkpoint and metrics intervals, the threshold, the action (pointing
 * into mc) and its rate; the callbacks and ud are the caller's.
 */
void al_monitor_cli_opts(struct al_monitor_cli *mc, struct al_monitor_opts *mo);

#endif
