/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/clock.h"
#include "core/threshold.h"
#include "core/url.h"
#include "doc/doc.h"
#include "report/status.h"
#include "cli.h"
#include "doc-io.h"
#include "run-common.h"

static void
status_line(void *ud, const struct al_result *r, int64_t elapsed_ns)
{
	(void)ud;
	al_report_status(stderr, r, elapsed_ns);
}

void
cli_measure_init(struct al_measure *m, const struct al_run_cli *p, bool status)
{
	al_run_cli_measure(p, m);
	m->o.stop_requested = &cli_stop_requested;
	if (status) {
		m->o.status = status_line;
		m->o.status_interval_ns = 200 * AL_NS_PER_MS;
	}
}

int
cli_measure_report(const char *cmd, const struct al_measure *m, int rc, const struct al_result *r)
{
	if (m->o.status && m->fail != AL_MEASURE_OPTIONS) /* it ran: its status line away */
		al_report_status_clear(stderr);
	switch (m->fail) {
	case AL_MEASURE_OK:
		return AL_EXIT_OK;
	case AL_MEASURE_OPTIONS:
		return cli_usage_error(cmd, "%s", m->err);
	case AL_MEASURE_REFUSED:
		return cli_fail(cmd, rc, NULL, m->err, false);
	case AL_MEASURE_START:
		return cli_fault(cmd, rc, m->what, r->backend.error, m->o.backend);
	case AL_MEASURE_DURING:
		break;
	}
	return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s", m->err);
}

void
cli_cmdline(const char *prog, int argc, char **argv, char *buf, size_t size)
{
	al_doc_cmdline(prog, argc, argv, buf, size);
	al_url_redact(buf, buf, size);
}

int
cli_run_measure(const char *cmd, struct al_run_cli *p, int argc, char **argv, bool status,
		struct al_result *r)
{
	struct al_measure m;
	char cmdline[sizeof(r->cmdline)];
	int rc;

	cli_measure_init(&m, p, status);
	cli_cmdline("audiolat", argc, argv, cmdline, sizeof(cmdline)); /* as run's parser got it */
	m.cmdline = cmdline;
	cli_catch_stop_signals();
	rc = al_run_measure(&m, r);
	p->cfg.duration_ns = m.o.cfg.duration_ns;
	return cli_measure_report(cmd, &m, rc, r);
}

int
cli_run_finish(const char *cmd, const struct al_run_cli *p, const struct al_result *r,
	       json_t *doc, bool always_verdict, int (*saver)(void *ud, const char *text),
	       void *ud, int exit_code)
{
	enum al_threshold th = al_threshold_exceeded(r);
	const char *verdict = th ? "FAIL" : "PASS";
	struct al_report_doc rd = { doc, NULL };
	struct al_report_input ri;
	char *text = doc ? al_doc_text(doc, 0) : NULL, why[160];

	if (!text)
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s", strerror(ENOMEM));
	/* thresholds: exit 3 with one line naming what was exceeded (core/threshold.h) */
	if (th)
		al_threshold_describe(r, th, why, sizeof(why));
	if (!always_verdict && !al_threshold_given(&r->cfg))
		verdict = NULL; /* monitor: no threshold given, no verdict */
	ri = (struct al_report_input){ .docs = &rd, .n = 1, .verbose = p->verbose, .why = p->why,
				       .no_histogram = p->no_histogram, .verdict = verdict };
	exit_code = cli_finish(&(struct cli_finish){
		.cmd = cmd, .json_path = p->json_path, .html_path = p->html_path,
		.quiet = p->quiet, .warn = true, .ri = &ri, .text = text, .save = !p->no_db,
		.db_path = p->db_path, .saver = saver, .ud = ud, .threshold = th ? why : NULL },
		exit_code);
	free(text);
	return exit_code;
}
