/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat run: one measurement, reported as text and JSON. */
#include <stdio.h>
#include <stdlib.h>

#include "args/run-opts.h"
#include "report/report.h"
#include "run/run.h"
#include "cli.h"
#include "commands.h"
#include "run-common.h"

int
cmd_run(int argc, char **argv)
{
	struct al_run_cli p;
	struct al_result r;
	json_t *doc;
	char err[256];
	int exit_code = AL_EXIT_OK;

	if (al_run_parse_args(argc, argv, &p, err, sizeof(err)))
		return cli_usage_error("run", "%s", err);
	if (p.help) {
		al_opts_help(stdout, al_run_optdefs, 25);
		return AL_EXIT_OK;
	}
	/* the measurement, as sweep makes it too (run-common.c) */
	exit_code = cli_run_measure("run", &p, argc, argv, cli_status_wanted(p.quiet), &r);
	if (!r.n_phases)
		return exit_code;

	doc = al_doc_run_json(&r);
	exit_code = cli_run_finish("run", &p, &r, doc, true, NULL, NULL, exit_code);
	json_decref(doc);
	al_result_free(&r);
	return exit_code;
}
