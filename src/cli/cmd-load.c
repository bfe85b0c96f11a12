/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat load: run one built-in load on its own and report its throughput. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "args/common-opts.h"
#include "load/load.h"
#include "load/phases.h"
#include "report/report.h"
#include "cli.h"
#include "doc-io.h"
#include "commands.h"

enum { OPT_LOAD_OPT = 256 }; /* one of al_load_optdefs, by its long name or letter */

struct load_params {
	struct al_load_opts opts;
	const char *name;
	const char *command;       /* the positional COMMAND of `load cmd COMMAND` */
	int64_t duration_ns;       /* 0: not given */
	bool quiet;
	bool help;
	const char *json_path;
};

/* --help's list of loads: only the running program knows them (load/registry.c) */
static void
print_loads(FILE *f)
{
	const struct al_load_ops *ops;
	size_t i;

	for (i = 0; (ops = al_load_get(i)); i++)
		fprintf(f, "  %-11s %s\n", al_load_name(ops), al_load_summary(ops));
}

#define TO(f_) AL_OPT_TO(struct load_params, f_)
static const struct al_optdef load_optdefs[] = {
	AL_OPT_TEXT("usage: audiolat load NAME [options]\n"
		    "       audiolat load cmd 'COMMAND' [options]\n"
		    "\n"
		    "Run one built-in load on its own, for --duration or until interrupted\n"
		    "(hackbench without --duration does one run and prints its Time, like\n"
		    "rt-tests hackbench), then print its throughput. NAME may combine loads\n"
		    "with '+' (cpu+disk-write). audiolat run --load runs them in phases.\n"
		    "\n"
		    "loads:\n"),
	AL_OPT_PRINT(print_loads),
	AL_OPT_TEXT("\n"
		    "options:\n"),
	CLI_SHARED_AS(CLI_OPT_DURATION, NULL, "run for TIME (30s, 500ms; a bare number is seconds)",
		      TO(duration_ns)),
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "print only the result lines", TO(quiet)),
	CLI_SHARED_AS(CLI_OPT_JSON, "FILE", "write the throughput as JSON (- for stdout)",
		      TO(json_path)),
	CLI_SHARED_AS(CLI_OPT_HELP, NULL, "this help", TO(help)),
	AL_OPT_MERGE(OPT_LOAD_OPT, al_load_optdefs),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 a load failed or died, 2 usage error, 4 load unavailable\n"),
	AL_OPT_END,
};

static int
load_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct load_params *p = ctx;
	char msg[256];

	if (h->id == OPT_LOAD_OPT &&
	    al_load_opt_set(&p->opts, h->def->name, h->arg, msg, sizeof(msg))) {
		/* name the short form too: "-g/--groups: ..." */
		if (h->def->short_name)
			snprintf(err, err_size, "-%c/%s", h->def->short_name, msg);
		else
			snprintf(err, err_size, "%s", msg);
		return -EINVAL;
	}
	return 0;
}

/* Pure: argv -> params, or -EINVAL with one line in err. */
static int
parse_args(int argc, char **argv, struct load_params *p, char *err, size_t err_size)
{
	int first, rc;

	memset(p, 0, sizeof(*p));
	al_load_opts_init(&p->opts);
	rc = al_opts_parse(load_optdefs, argc, argv, load_set, p, &first, NULL, err, err_size);
	if (rc || p->help)
		return rc;
	if (first < argc)
		p->name = argv[first++];
	if (p->name && !strcmp(p->name, "cmd") && first < argc)
		p->command = argv[first++];
	if (first < argc)
		return snprintf(err, err_size, "unexpected argument '%s'", argv[first]), -EINVAL;
	if (!p->name)
		return snprintf(err, err_size, "a load name is needed (see --help)"), -EINVAL;
	return 0;
}

/* Planned: what will run, unless quiet or JSON goes to stdout; the signals end it from now on. */
static void
planned(void *ud, const struct al_load_solo *s)
{
	const struct load_params *p = ud;
	char intro[AL_LOAD_DESC_MAX + 256];

	if (!p->quiet && !(p->json_path && !strcmp(p->json_path, "-"))) {
		al_load_intro(&s->spec[0], s->opts, s->classic, s->planned_ns, intro, sizeof(intro));
		fputs(intro, stdout);
	}
	fflush(stdout);
	fflush(stderr);
	cli_catch_stop_signals();
}

/*
 * The text (src/report, from the document, unless JSON goes to stdout),
 * the failure (a load that could not start is reported like a failed
 * load: text, JSON, exit status), the document to --json; an exit status.
 */
static int
report(const struct load_params *p, const struct al_load_solo *s)
{
	const struct al_phase *ph = s->phase;
	json_t *doc = al_report_load_json(ph, s->spec[0].name, s->elapsed_ns, s->interrupted);
	int exit_code = AL_EXIT_OK;

	if (!doc)
		return cli_cmd_error(AL_EXIT_RUNTIME, "load", "%s", strerror(ENOMEM));
	if (!(p->json_path && !strcmp(p->json_path, "-"))) {
		al_report_load_text(stdout, doc, p->quiet, s->classic);
		fflush(stdout);
	}
	if (*ph->error && s->start_err)
		exit_code = cli_fault("load", s->start_err, "", ph->error, NULL); /* it could not start */
	else if (*ph->error)
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, "load", "%s", ph->error);
	else if (s->start_err)
		exit_code = cli_exit_of(s->start_err);
	if (p->json_path &&
	    cli_write_doc("load", p->json_path, doc, JSON_PRESERVE_ORDER | JSON_REAL_PRECISION(9)))
		exit_code = AL_EXIT_RUNTIME;
	json_decref(doc);
	return exit_code;
}

int
cmd_load(int argc, char **argv)
{
	struct load_params p;
	struct al_load_solo s;
	char err[512];
	int rc;

	rc = parse_args(argc, argv, &p, err, sizeof(err));
	if (rc)
		return cli_usage_error("load", "%s", err);
	if (p.help) {
		al_opts_help(stdout, load_optdefs, 29);
		return AL_EXIT_OK;
	}
	s = (struct al_load_solo){
		.name = p.name, .command = p.command, .duration_ns = p.duration_ns, .opts = &p.opts,
		.stop_requested = &cli_stop_requested, .planned = planned, .ud = &p,
	};
	rc = al_load_solo_run(&s, err, sizeof(err));
	if (rc) /* refused: the spec or an option (2), or the system (fault.c) */
		rc = cli_fault_or_usage("load", rc, "", err, NULL);
	else
		rc = report(&p, &s);
	al_load_solo_free(&s);
	return rc;
}
