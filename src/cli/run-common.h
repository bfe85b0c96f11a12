/* SPDX-License-Identifier: GPL-2.0-or-later */
/* One measurement the way `audiolat run` makes it (run/measure.h), reported: run, sweep, monitor. */
#ifndef AL_CLI_RUN_COMMON_H
#define AL_CLI_RUN_COMMON_H

#include <stdbool.h>

#include <jansson.h>

#include "args/run-opts.h"
#include "core/result.h"
#include "run/measure.h"

/*
 * The measurement p asks for into m: its configuration, backend, trace,
 * --load, who measures, the stop flag, and the live status line on stderr
 * when status (cleared by cli_measure_report()).
 */
void cli_measure_init(struct al_measure *m, const struct al_run_cli *p, bool status);

/*
 * al_run_measure()'s outcome (m, rc, r) as the exit status, after one line
 * for a failure: AL_EXIT_OK; AL_EXIT_RUNTIME for a failure during the run
 * (r holds what was measured); else the code of what refused it (2 usage,
 * 4 unavailable, with the devices for no such device, 1 other).
 */
int cli_measure_report(const char *cmd, const struct al_measure *m, int rc,
		       const struct al_result *r);

/*
 * The command line a result records (al_doc_cmdline() of prog and
 * argv[0..argc)) with every password taken out (al_url_redact(): a --db
 * URL's is never stored).
 */
void cli_cmdline(const char *prog, int argc, char **argv, char *buf, size_t size);

/*
 * Measure with the parsed options p (argv as given to run's parser,
 * argv[0] "run", recorded as the command line; p->cfg.duration_ns becomes
 * --load's total), catching the stop signals, and report the outcome
 * (cli_measure_report()). r holds the result when r->n_phases > 0 (free it
 * with al_result_free() in every case). Returns the exit status.
 */
int cli_run_measure(const char *cmd, struct al_run_cli *p, int argc, char **argv, bool status,
		    struct al_result *r);

/*
 * A measured result r and its document doc (NULL: ENOMEM) as run and
 * monitor finish them (cli_finish() with .warn: the document's warnings
 * on stderr when its text is not shown, -q or --json -), the text and summary with the verdict of r's thresholds
 * (PASS or FAIL; NULL when none was given, unless always_verdict), the
 * document's bytes to --json, the database (saver as cli_finish() takes
 * it; NULL: p's --db, unless --no-db) and --html, exit 3 naming what was
 * exceeded. Returns the exit status (exit_code when nothing failed).
 */
int cli_run_finish(const char *cmd, const struct al_run_cli *p, const struct al_result *r,
		   json_t *doc, bool always_verdict, int (*saver)(void *ud, const char *text),
		   void *ud, int exit_code);

#endif
