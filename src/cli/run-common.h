/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One measurement the way `audiolat run` makes it: shared by run and sweep. */
#ifndef AL_CLI_RUN_COMMON_H
#define AL_CLI_RUN_COMMON_H

#include <stdbool.h>

#include "core/result.h"
#include "run-opts.h"

/*
 * Measure with the parsed options p: check the affinity CPU, resolve
 * the load phases of --load (p->cfg.duration_ns becomes their total),
 * catch the stop signals, show the live status line on stderr when
 * status, run al_run(), then record the command line (argv as given to
 * run's parser, argv[0] "run") and the system checks in r. cmd names the
 * subcommand in messages. Returns:
 *   AL_EXIT_OK        r holds the result (free it with al_result_free());
 *   AL_EXIT_RUNTIME   with r->n_phases > 0: the backend failed during the
 *                     run, r holds what was measured (one line said so);
 *   any code          with r->n_phases == 0: nothing was measured, one
 *                     line said why (2 usage, 4 unavailable, 1 other).
 */
int cli_run_measure(const char *cmd, struct al_run_cli *p, int argc, char **argv, bool status,
		    struct al_result *r);

#endif
