/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat sweep: a grid of configurations, each run --repeat times, side
 * by side. run's options are parsed once and every cell checked with them
 * (src/run/measure.c: al_sweep_check_backends(), al_sweep_check_cells());
 * al_sweep_run() (src/run/measure.c) patches each cell's backend,
 * device, rate and period into a copy (no argv parsed again) and runs it,
 * run_done() below reports and saves each run. The cells are plain data
 * (core/sweep.h), reported by src/report/sweep.c.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args/run-opts.h"
#include "args/sweep-opts.h"
#include "report/report.h"
#include "report/sweep.h"
#include "cli-store.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"
#include "run-common.h"

/* The sweep's outputs as it goes: every run's document, and where to save it. */
struct sweep_ctx {
	const struct al_sweep_cli *sp;
	struct al_sweep_runs runs;
};

/*
 * One run of cell idx done (sweep.h's al_sweep_run): reported, its figures
 * into fig, its document saved and kept for the sweep's; the exit status.
 */
static int
run_done(void *ud, const struct al_sweep *s, int idx, int rep, const struct al_measure *m, int rc,
	 struct al_result *r, double fig[AL_SWEEP_FIGURES])
{
	struct sweep_ctx *x = ud;
	int code = cli_measure_report("sweep", m, rc, r);
	const json_t *doc;
	char *text;
	int saved;

	if (!r->n_phases)
		return code;
	doc = al_sweep_runs_add(&x->runs, idx, r, fig);
	if (!x->sp->quiet)
		al_report_sweep_progress(s, idx, rep, r, stderr);
	if (!doc)
		return cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
	if (!x->sp->run.no_db) {
		/* run's exit status for it: 4 for a database server out of reach, else 1 */
		text = al_doc_text(doc, 0);
		saved = text ? cli_store_save_result(x->sp->run.db_path, text, x->sp->quiet)
			     : AL_EXIT_RUNTIME;
		if (saved)
			code = code ? code : saved;
		free(text);
	}
	return code;
}

/* The text, --json and --html of the sweep; the exit status. */
static int
report(const struct al_sweep_cli *sp, const struct al_sweep *s, json_t *const *runs,
       int exit_code)
{
	struct al_report_doc *in;
	json_t *doc;
	size_t n;
	int rc;

	if (!(sp->json_path && !strcmp(sp->json_path, "-")) &&
	    !(sp->html_path && !strcmp(sp->html_path, "-"))) {
		al_report_sweep_text(s, sp->markdown, exit_code == AL_EXIT_OK, stdout);
		fflush(stdout);
	}
	doc = al_report_sweep_json(s, runs);
	if (!doc)
		return cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
	if (sp->json_path && (rc = cli_write_doc("sweep", sp->json_path, doc, 0)))
		exit_code = rc;
	json_decref(doc);
	if (!sp->html_path)
		return exit_code;
	in = al_report_sweep_docs(s, runs, &n);
	rc = in ? cli_write_html("sweep", "--html", sp->html_path, in, n, NULL, "audiolat sweep")
		: cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
	free(in);
	return rc && exit_code == AL_EXIT_OK ? rc : exit_code;
}

int
cmd_sweep(int argc, char **argv)
{
	struct al_sweep_cli sp;
	struct al_sweep s = { 0 };
	struct sweep_ctx x = { &sp, { 0 } };
	struct al_measure m;
	char err[256], cmdline[1024];
	int rc, exit_code = AL_EXIT_OK, done = 0;

	rc = al_sweep_parse_args(argc, argv, &sp, err, sizeof(err));
	if (rc || sp.help) {
		if (!rc)
			al_opts_help(stdout, al_sweep_optdefs, 25);
		al_sweep_cli_free(&sp);
		return rc ? cli_fail("sweep", rc, NULL, err, true) : AL_EXIT_OK;
	}
	if (al_sweep_init_grid(&s, &sp.grid, sp.repeat) || al_sweep_runs_init(&x.runs, &s)) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "sweep", "out of memory");
		goto out;
	}
	if ((rc = al_sweep_check_backends(&s, err, sizeof(err)))) {
		exit_code = cli_fail("sweep", rc, NULL, err, true);
		goto out;
	}
	/* every cell with run's options (sp.run, parsed once), before the first run starts */
	if (al_sweep_check_cells(&s, &sp.run.cfg, err, sizeof(err))) {
		exit_code = cli_usage_error("sweep", "%s", err);
		goto out;
	}
	cli_cmdline("audiolat", argc, argv, s.cmdline, sizeof(s.cmdline));
	cli_measure_init(&m, &sp.run, cli_status_wanted(sp.quiet));
	cli_cmdline("audiolat", sp.run_argc, sp.run_argv, cmdline, sizeof(cmdline));
	m.cmdline = cmdline; /* each run's: the cell's options after it */
	cli_catch_stop_signals();
	exit_code = al_sweep_run(&s, &m, &cli_stop_requested,
				 &(struct al_sweep_hooks){ run_done, &x }, &done);
	if (s.interrupted)
		cli_cmd_error(AL_EXIT_OK, "sweep", "interrupted after %d of %d runs", done,
			      s.n_cells * sp.repeat);
	exit_code = report(&sp, &s, x.runs.runs, exit_code);
out:
	al_sweep_runs_free(&x.runs);
	al_sweep_free(&s);
	al_sweep_cli_free(&sp);
	return exit_code;
}
