/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat roundtrip: the delay of an audio loop (out -> cable or graph ->
 * in) by multi-tone delay measurement, with sub-sample accuracy; the part
 * of it that the nominal buffering does not explain; the jackd -I/-O that
 * would account for it. Parses (roundtrip-opts.c), calls al_roundtrip_run()
 * (src/run), hands the result to its reporter (src/report/roundtrip-doc.h).
 * docs/roundtrip.md.
 */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <string.h>

#include "args/roundtrip-opts.h"
#include "doc/doc.h"
#include "report/roundtrip-doc.h"
#include "report/status.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

#define CMD "roundtrip"

/* The live reading on a terminal. */
static void
reading(void *ud, const struct al_mtdm_result *r, uint32_t rate_hz)
{
	(void)ud;
	al_report_roundtrip_reading(stderr, r, rate_hz);
}

int
cmd_roundtrip(int argc, char **argv)
{
	struct al_roundtrip_result x;
	struct cli_roundtrip_opts o;
	json_t *doc = NULL;
	char why[512], err[256];
	bool json_stdout, live;
	int rc, exit_code = AL_EXIT_OK;

	if (cli_roundtrip_parse(argc, argv, &o, err, sizeof(err)))
		return cli_usage_error(CMD, "%s", err);
	if (o.help) {
		al_opts_help(stdout, cli_roundtrip_optdefs, 25);
		return AL_EXIT_OK;
	}
	if (o.be->unavailable)
		return cli_cmd_error(AL_EXIT_UNAVAILABLE, CMD, "%s: %s", o.backend,
				     o.be->unavailable);
	json_stdout = o.json_path && !strcmp(o.json_path, "-");
	live = cli_status_wanted(o.quiet) && !json_stdout;
	o.ro.stop_requested = &cli_stop_requested;
	o.ro.reading = live ? reading : NULL;
	cli_catch_stop_signals();
	rc = al_roundtrip_run(&o.ro, &x);
	if (rc) {
		exit_code = cli_fault(CMD, rc, o.backend, x.why, NULL);
		goto out;
	}
	if (live)
		al_report_status_clear(stderr);
	al_doc_cmdline("audiolat", argc, argv, x.cmdline, sizeof(x.cmdline));
	doc = al_report_roundtrip_json(&x);
	if (!doc) {
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "%s", strerror(ENOMEM));
		goto out;
	}
	if (!json_stdout) {
		if (!o.quiet)
			al_report_roundtrip_text(stdout, doc);
		al_report_roundtrip_summary(stdout, doc);
		fflush(stdout);
	}
	if (o.json_path)
		exit_code = cli_write_doc(CMD, o.json_path, doc, 0);
	if (al_report_roundtrip_failure(doc, why, sizeof(why)))
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, CMD, "%s", why);
out:
	json_decref(doc);
	al_roundtrip_result_free(&x);
	return exit_code;
}
