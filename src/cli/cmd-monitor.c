/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat monitor: `run` for days at a constant cost (src/run/monitor.c):
 * rolling windows, checkpoints to the results database, Prometheus
 * metrics (a textfile, /metrics), threshold actions (src/run/action.c).
 * docs/monitor.md.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args/monitor-opts.h"
#include "doc/doc.h"
#include "metrics/prom.h"
#include "report/monitor-doc.h"
#include "report/status.h"
#include "run/monitor.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"
#include "run-common.h"

struct mon_ctx {
	struct al_run_cli *p;
	struct al_monitor m;
	char cmdline[1024];
	struct al_store_slot db;
	struct al_prom_sink prom; /* --metrics-file, --listen */
};

/* The result so far into the database: the first save, then the same row replaced. */
static int
db_put(struct mon_ctx *c, const char *text)
{
	int rc;

	if (c->p->no_db)
		return 0;
	rc = al_store_slot_put(&c->db, c->p->db_path, text, "monitor");
	if (rc && c->db.err[0] && !c->db.db) /* a local database (al_store_slot_check) */
		cli_store_failed("monitor", rc, c->db.shown, c->db.err, false);
	else if (rc && c->db.err[0])
		cli_warn("the monitor's result was not saved: %s", c->db.err);
	return rc;
}

/* A checkpoint: its document, text and the store's parse of it in the arena (doc.h). */
static void
on_checkpoint(void *ud, const struct al_result *snap, const struct al_monitor_doc_input *in)
{
	struct mon_ctx *c = ud;
	char *text;

	al_doc_arena_begin();
	text = al_report_monitor_arena_text(snap, in, c->cmdline);
	if (!text) {
		al_doc_arena_end();
		cli_warn("checkpoint: %s", strerror(ENOMEM));
		return;
	}
	if (!db_put(c, text) && !c->m.checkpoints && !c->p->no_db && !c->p->quiet) {
		if (cli_status_wanted(false))
			al_report_status_clear(stderr);
		fprintf(stderr, "saving as run %lld (%s), every --checkpoint\n", (long long)c->db.id,
			c->db.shown);
	}
	/* --json FILE is the result so far too (never stdout before the end) */
	if (c->p->json_path && strcmp(c->p->json_path, "-"))
		al_doc_write_text(c->p->json_path, text);
	al_doc_arena_end();
}

static void
on_metrics(void *ud, const struct al_prom_input *in)
{
	struct mon_ctx *c = ud;
	int rc = al_prom_publish(&c->prom, in);

	if (rc)
		cli_warn("--metrics-file %s: %s (tried again every interval)", c->prom.file,
			 strerror(-rc));
}

static void
on_warning(void *ud, const char *line)
{
	(void)ud;
	cli_warn("%s", line);
}

/* The final result into the database: the row of the checkpoints replaced. */
static int
save_final(void *ud, const char *text)
{
	struct mon_ctx *c = ud;

	if (db_put(c, text))
		return AL_EXIT_RUNTIME;
	if (!c->p->quiet)
		fprintf(stderr, "saved as run %lld (%s)\n", (long long)c->db.id, c->db.shown);
	return AL_EXIT_OK;
}

/* The end: r's own statistics, every window; reported, saved; the exit status. */
static int
finish(struct mon_ctx *c, struct al_result *r, int exit_code)
{
	struct al_monitor_doc_input in;
	struct al_mw_totals t;
	json_t *doc;

	snprintf(r->cmdline, sizeof(r->cmdline), "%s", c->cmdline);
	al_monitor_doc_input(&c->m, true, &t, &in);
	doc = al_report_monitor_doc(al_monitor_snapshot(&c->m, r, true), &in, NULL);
	/* run's thresholds over the whole run: result=PASS or FAIL when given, as run says */
	exit_code = cli_run_finish("monitor", c->p, r, doc, false, save_final, c, exit_code);
	json_decref(doc);
	return exit_code;
}

int
cmd_monitor(int argc, char **argv)
{
	struct al_monitor_cli mc;
	struct mon_ctx c = { .p = &mc.run };
	struct al_monitor_opts mo;
	struct al_result r;
	char err[256];
	int rc, exit_code;

	rc = al_monitor_parse_args(argc, argv, &mc, err, sizeof(err));
	/* a checkpoint replaces its row: the least-privilege role (INSERT, SELECT) cannot */
	if (!rc && !mc.help && !mc.run.no_db)
		rc = al_store_slot_check(mc.run.db_path, err, sizeof(err));
	if (rc || mc.help) {
		al_monitor_cli_free(&mc);
		if (mc.help)
			al_opts_help(stdout, al_monitor_optdefs, 25);
		return rc ? cli_fail("monitor", rc, NULL, err, true) : AL_EXIT_OK;
	}
	al_monitor_cli_opts(&mc, &mo);
	mo.checkpoint = on_checkpoint;
	mo.metrics = mc.metrics_file || mc.listen ? on_metrics : NULL;
	mo.warn = on_warning;
	mo.ud = &c;
	rc = al_monitor_init(&c.m, &mo);
	if (rc) {
		al_monitor_cli_free(&mc);
		return cli_fail("monitor", rc, NULL, NULL, false);
	}
	c.prom.file = mc.metrics_file;
	if (mc.listen && (rc = al_prom_http_start(mc.listen, &c.prom.http, err, sizeof(err)))) {
		al_monitor_free(&c.m);
		al_monitor_cli_free(&mc);
		return cli_fail("monitor", rc, "--listen", err, false);
	}
	if (c.prom.http && !mc.run.quiet)
		fprintf(stderr, "metrics on %s, port %d: /metrics\n", mc.listen,
			al_prom_http_port(c.prom.http));
	mc.run.measure = al_monitor_run;
	mc.run.measure_ud = &c.m;
	cli_cmdline("audiolat monitor", argc - 1, argv + 1, c.cmdline, sizeof(c.cmdline));
	exit_code = cli_run_measure("monitor", &mc.run, mc.run_argc, mc.run_argv,
				    cli_status_wanted(mc.run.quiet), &r);
	al_monitor_cli_free(&mc);
	if (r.n_phases) {
		exit_code = finish(&c, &r, exit_code);
		al_result_free(&r);
	}
	al_store_slot_close(&c.db);
	al_prom_http_stop(c.prom.http);
	al_monitor_free(&c.m);
	return exit_code;
}
