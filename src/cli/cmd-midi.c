/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi: MIDI timing. analyze reads a Standard MIDI File, send
 * plays a 10 Hz test stream, record receives and times one, loop measures
 * the round trip through a cable or a JACK connection, thru is a JACK MIDI
 * thru client (for loops and benchmarks).
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args/midi-opts.h"
#include "core/clock.h"
#include "doc/doc.h"
#include "midi/measure.h"
#include "report/midi.h"
#include "report/status.h"
#include "cli.h"
#include "doc-io.h"
#include "commands.h"
#include "run-common.h"


#define STATUS_NS (200 * AL_NS_PER_MS)

/* A subcommand as it runs: what was asked, and whether its port opened (a status line to clear). */
struct midi_cmd {
	struct al_midi_cli o;
	bool opened;
};

static bool
json_stdout(const struct al_midi_cli *o)
{
	return o->json_path && !strcmp(o->json_path, "-");
}

static void
status_line(void *ud, const struct al_midi_live *v)
{
	const struct al_midi_cli *o = &((const struct midi_cmd *)ud)->o;

	al_midi_text_status(stderr, v, o->cfg.interval_ns != 0);
}

/* The port is open: the signals end it from now on; what is measured, where. */
static void
opened(void *ud, const struct al_midi_result *r)
{
	struct midi_cmd *c = ud;
	const struct al_midi_cli *o = &c->o;

	c->opened = true;
	cli_catch_stop_signals();
	if (!o->quiet && !json_stdout(o)) {
		al_midi_text_header(stdout, r);
		fflush(stdout);
	}
}

/* No result: the one line, its exit status by the one table (fault.c). */
static int
no_result(const struct al_midi_cli *o, const struct al_midi_result *r, int rc)
{
	if (r->stage == AL_MIDI_STAGE_OPEN)
		return cli_fault("midi", rc, o->sub, r->err, NULL);
	if (r->stage == AL_MIDI_STAGE_CONFIG) /* refused: a usage error says Try --help */
		return cli_fail("midi", rc, o->sub, r->err, true);
	return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: %s", o->sub, r->err);
}

/* send and thru: their lines (they have no document), their failure */
static int
report_send_thru(const struct al_midi_cli *o, const struct al_midi_result *r)
{
	al_midi_text_send_thru(stdout, r, !o->quiet);
	fflush(stdout);
	return r->failed ? cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: %s", o->sub, r->err)
			 : AL_EXIT_OK;
}

/*
 * analyze, record, loop: the -o file's failure, then the document leaves
 * as run's does (cli_finish(): the warnings, the text and the summary
 * line, --json, the database, the threshold), then the failure that cut
 * the run short. Returns the exit status.
 */
static int
report(const struct al_midi_cli *o, const struct al_midi_result *r)
{
	bool live = o->cfg.kind != AL_MIDI_ANALYZE;
	struct al_report_input ri;
	struct al_report_doc rd;
	char line[256], *text;
	int exit_code = AL_EXIT_OK;
	json_t *doc;

	if (o->cfg.kind == AL_MIDI_RECORD && r->smf_err[0])
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "midi", "record: -o %s", r->smf_err);
	if (r->failed || !al_midi_text_threshold(r, line, sizeof(line)))
		line[0] = '\0';
	doc = al_doc_midi_json(r);
	text = doc ? al_doc_text(doc, JSON_PRESERVE_ORDER) : NULL;
	if (!text) {
		json_decref(doc);
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: out of memory for the JSON", o->sub);
	}
	rd = (struct al_report_doc){ doc, NULL };
	ri = (struct al_report_input){
		.docs = &rd, .n = 1, .verdict = r->threshold ? "FAIL" : "PASS",
		.no_histogram = o->no_histogram };
	exit_code = cli_finish(&(struct cli_finish){
		.cmd = "midi", .sub = o->sub, .json_path = o->json_path, .quiet = o->quiet,
		.warn = live, .ri = &ri, .text = text, .save = live && !o->no_db,
		.db_path = o->db_path, .threshold = line[0] ? line : NULL }, exit_code);
	free(text);
	json_decref(doc);
	if (r->failed) {
		cli_cmd_error(AL_EXIT_RUNTIME, "midi", "%s: %s; reporting what was %s", o->sub, r->err,
			      o->cfg.kind == AL_MIDI_LOOP ? "measured" : "received");
		exit_code = AL_EXIT_RUNTIME;
	}
	return exit_code;
}

/* argv: the subcommand's, as the result records it (no --db URL's password) */
static int
run(struct midi_cmd *c, int argc, char **argv)
{
	struct al_midi_cli *o = &c->o;
	struct al_midi_ctl ctl = {
		.load_opts = &o->load_opts, .stop_requested = &cli_stop_requested, .opened = opened,
		.status = cli_status_wanted(o->quiet) ? status_line : NULL, .status_ns = STATUS_NS,
		.ud = c,
	};
	struct al_midi_result *r = calloc(1, sizeof(*r));
	int rc, exit_code;

	if (!r)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "out of memory");
	cli_cmdline("audiolat midi", argc, argv, o->cfg.cmdline, sizeof(o->cfg.cmdline));
	rc = al_midi_run(&o->cfg, &ctl, r);
	if (ctl.status && c->opened && o->cfg.kind != AL_MIDI_THRU)
		al_report_status_clear(stderr);
	if (rc)
		exit_code = no_result(o, r, rc);
	else if (o->cfg.kind == AL_MIDI_SEND || o->cfg.kind == AL_MIDI_THRU)
		exit_code = report_send_thru(o, r);
	else
		exit_code = report(o, r);
	al_midi_result_free(r);
	free(r);
	return exit_code;
}

int
cmd_midi(int argc, char **argv)
{
	struct midi_cmd *c;
	int sub, rc;
	char err[512];

	if (argc < 2) {
		fputs(al_midi_help, stderr);
		return AL_EXIT_USAGE;
	}
	if (!strcmp(argv[1], "-h") || !strcmp(argv[1], "--help") || !strcmp(argv[1], "help")) {
		fputs(al_midi_help, stdout);
		return AL_EXIT_OK;
	}
	sub = al_midi_sub_find(argv[1]);
	if (sub < 0)
		return cli_usage_error("midi", "unknown subcommand '%s' (analyze, send, record, loop, thru)",
				       argv[1]);
	c = calloc(1, sizeof(*c));
	if (!c)
		return cli_cmd_error(AL_EXIT_RUNTIME, "midi", "out of memory");
	rc = al_midi_parse_args(sub, argc - 1, argv + 1, &c->o, err, sizeof(err));
	if (rc) {
		free(c);
		fprintf(stderr, "%s midi %s: %s\n", cli_progname, argv[1], err);
		fprintf(stderr, "Try '%s midi %s --help'.\n", cli_progname, argv[1]);
		return AL_EXIT_USAGE;
	}
	if (c->o.help) {
		al_midi_sub_help(stdout, sub);
		free(c);
		return AL_EXIT_OK;
	}
	rc = run(c, argc - 1, argv + 1);
	free(c);
	return rc;
}
