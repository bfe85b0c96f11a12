/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat run: one measurement, reported as text and JSON. */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "core/clock.h"
#include "check/check.h"
#include "core/units.h"
#include "report/report.h"
#include "run/run.h"
#include "cli.h"
#include "cli-devices.h"
#include "cli-store.h"
#include "commands.h"
#include "doc-io.h"
#include "run-common.h"
#include "run-opts.h"

/* Thresholds: exit 3 with one line naming what was exceeded. */
static int
verdict(const struct al_result *r, const char **word)
{
	const struct al_config *c = &r->cfg;
	const struct al_period_stats *st = &r->total;

	*word = "PASS";
	if (c->max_latency_ns && st->wake_ns.count && st->wake_ns.max_ns > c->max_latency_ns) {
		*word = "FAIL";
		return 1;
	}
	if (c->max_interval_ns && st->interval_ns.count &&
	    st->interval_ns.max_ns > c->max_interval_ns) {
		*word = "FAIL";
		return 3;
	}
	if (c->fail_on_xrun && st->xruns) {
		*word = "FAIL";
		return 2;
	}
	return 0;
}

int
cmd_run(int argc, char **argv)
{
	struct al_run_cli p;
	struct al_result r;
	struct al_report_doc rd;
	struct al_report_input ri;
	json_t *doc;
	const char *word;
	char err[256], buf[32], lim[32];
	int v, exit_code = AL_EXIT_OK;

	if (al_run_parse_args(argc, argv, &p, err, sizeof(err)))
		return cli_usage_error("run", "%s", err);
	if (p.help) {
		fputs(al_run_help, stdout);
		return AL_EXIT_OK;
	}
	/* the measurement, as sweep makes it too (run-common.c) */
	exit_code = cli_run_measure("run", &p, argc, argv, cli_status_wanted(p.quiet), &r);
	if (!r.n_phases)
		return exit_code;

	for (int i = 0; i < r.n_warnings; i++)
		if (p.quiet || (p.json_path && !strcmp(p.json_path, "-")))
			cli_warn("%s", r.warnings[i]);
	v = verdict(&r, &word);
	doc = al_report_json(&r);
	if (!doc) {
		al_result_free(&r);
		return cli_cmd_error(AL_EXIT_RUNTIME, "run", "%s", strerror(ENOMEM));
	}
	rd = (struct al_report_doc){ doc, NULL };
	ri = (struct al_report_input){ .docs = &rd, .n = 1, .verdict = word, .verbose = p.verbose,
				       .no_histogram = p.no_histogram };
	if (!p.quiet && !(p.json_path && !strcmp(p.json_path, "-"))) {
		al_reporter_text.write(&ri, stdout);
		fputc('\n', stdout);
	}
	if (!(p.json_path && !strcmp(p.json_path, "-")))
		al_reporter_summary.write(&ri, stdout);
	fflush(stdout);

	if (p.json_path || !p.no_db) {
		char *text = al_doc_text(doc, 0);
		int wrc = text ? 0 : -ENOMEM, sc = 0;

		if (text && p.json_path)
			wrc = al_doc_write_text(p.json_path, text);
		/* the database gets the very bytes --json wrote */
		if (!p.no_db && !text)
			cli_warn("the result was not saved: %s", strerror(ENOMEM));
		if (!p.no_db && (!text || (sc = cli_store_save_result(p.db_path, text, p.quiet))))
			exit_code = text ? sc : AL_EXIT_RUNTIME; /* 4: a server out of reach */
		free(text);
		if (wrc && p.json_path) {
			cli_cmd_error(AL_EXIT_RUNTIME, "run", "--json %s: %s", p.json_path,
				  strerror(-wrc));
			exit_code = AL_EXIT_RUNTIME;
		}
	}
	if (p.html_path && cli_write_html("run", "--html", p.html_path, &rd, 1, NULL, NULL))
		exit_code = AL_EXIT_RUNTIME;
	json_decref(doc);
	if (v == 1 && exit_code == AL_EXIT_OK) {
		al_format_duration(r.total.wake_ns.max_ns, buf, sizeof(buf));
		al_format_duration(r.cfg.max_latency_ns, lim, sizeof(lim));
		cli_cmd_error(AL_EXIT_THRESHOLD, "run", "max wake latency %s exceeded --max-latency %s",
			  buf, lim);
		exit_code = AL_EXIT_THRESHOLD;
	} else if (v == 3 && exit_code == AL_EXIT_OK) {
		al_format_duration(r.total.interval_ns.max_ns, buf, sizeof(buf));
		al_format_duration(r.cfg.max_interval_ns, lim, sizeof(lim));
		cli_cmd_error(AL_EXIT_THRESHOLD, "run", "max interval %s exceeded --max-interval %s",
			  buf, lim);
		exit_code = AL_EXIT_THRESHOLD;
	} else if (v == 2 && exit_code == AL_EXIT_OK) {
		cli_cmd_error(AL_EXIT_THRESHOLD, "run", "%llu xrun(s) with --fail-on-xrun",
			  (unsigned long long)r.total.xruns);
		exit_code = AL_EXIT_THRESHOLD;
	}
	al_result_free(&r);
	return exit_code;
}
