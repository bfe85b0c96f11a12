/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat check: is this system set up for low-latency audio? */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "args/common-opts.h"
#include "check/check.h"
#include "report/json-check.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

struct check_cli {
	const char *json_path; /* NULL, a file, or "-" */
	const char *root;
	bool quiet;
	bool help;
};

#define TO(f_) AL_OPT_TO(struct check_cli, f_)
static const struct al_optdef check_opts[] = {
	AL_OPT_TEXT("usage: audiolat check [options]\n"
		    "\n"
		    "Is this system set up for low-latency audio? Each check prints OK, WARN,\n"
		    "FAIL or SKIP, one line of explanation and the command or setting that fixes\n"
		    "it. Nothing on the system is changed (SCHED_FIFO is tried in a short-lived\n"
		    "thread).\n"
		    "\n"),
	AL_OPT_TEXT("options:\n"),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.check/1 JSON document (- = stdout,\n"
					  "and no text)", TO(json_path)),
	{ .name = "root", .type = AL_OPT_SPEC, .arg = "DIR", TO(root),
	  .help = "read /proc, /sys, /etc, /boot and /dev below DIR\n"
		  "instead of / (for tests; live-only checks skip)" },
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "print only failed checks and the summary line", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 nothing failed, 1 runtime error, 2 usage error, 3 a check failed\n"),
	AL_OPT_END,
};

/* Pure: 0, or AL_EXIT_USAGE with one line in err. */
static int
parse_args(int argc, char **argv, struct check_cli *p, char *err, size_t err_size)
{
	int first;

	memset(p, 0, sizeof(*p));
	p->root = "/";
	if (al_opts_parse(check_opts, argc, argv, NULL, p, &first, NULL, err, err_size))
		return AL_EXIT_USAGE;
	if (p->help)
		return 0;
	if (first < argc) {
		snprintf(err, err_size, "unexpected argument '%s'", argv[first]);
		return AL_EXIT_USAGE;
	}
	if (!*p->root) {
		snprintf(err, err_size, "--root: needs a directory");
		return AL_EXIT_USAGE;
	}
	return 0;
}

int
cmd_check(int argc, char **argv)
{
	struct al_syscheck checks[AL_SYSCHECKS_MAX];
	struct al_check_opts o = { 0 };
	struct al_check_tally t;
	struct check_cli p;
	char err[256];
	bool json_stdout;
	int n, rc;

	rc = parse_args(argc, argv, &p, err, sizeof(err));
	if (rc)
		return cli_cmd_error(AL_EXIT_USAGE, "check", "%s (see 'audiolat check --help')", err);
	if (p.help) {
		al_opts_help(stdout, check_opts, 25);
		return AL_EXIT_OK;
	}
	/* a root stat() refuses (a name too long, a loop) is no directory either */
	rc = al_check_root(p.root, err, sizeof(err));
	if (rc)
		return cli_fail("check", rc, NULL, err, false);
	o.root = p.root;
	n = al_check_run(&o, checks, AL_SYSCHECKS_MAX);
	if (n < 0) /* gone since (a race): as the table says */
		return cli_fail("check", n, p.root, NULL, false);
	al_check_tally(checks, n, &t);

	json_stdout = p.json_path && !strcmp(p.json_path, "-");
	if (!json_stdout) {
		al_report_check_text(stdout, checks, n, p.quiet);
		al_report_check_summary(stdout, checks, n);
		fflush(stdout);
	}
	if (p.json_path) {
		json_t *doc = al_report_check_json(p.root, checks, n);

		rc = cli_write_doc("check", p.json_path, doc, 0);
		json_decref(doc);
		if (rc)
			return rc;
	}
	return t.fail ? AL_EXIT_THRESHOLD : AL_EXIT_OK;
}
