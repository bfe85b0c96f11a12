/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat check: is this system set up for low-latency audio? */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include <jansson.h>

#include "check/check.h"
#include "doc/doc.h"
#include "cli.h"
#include "commands.h"

enum {
	OPT_JSON = 1,
	OPT_ROOT,
};

struct check_cli {
	const char *json_path; /* NULL, a file, or "-" */
	const char *root;
	bool quiet;
	bool help;
};

static const struct option long_opts[] = {
	{ "json", required_argument, NULL, OPT_JSON },
	{ "root", required_argument, NULL, OPT_ROOT },
	{ "quiet", no_argument, NULL, 'q' },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

static const char check_help[] =
	"usage: audiolat check [options]\n"
	"\n"
	"Is this system set up for low-latency audio? Each check prints OK, WARN,\n"
	"FAIL or SKIP, one line of explanation and the command or setting that fixes\n"
	"it. Nothing on the system is changed (SCHED_FIFO is tried in a short-lived\n"
	"thread).\n"
	"\n"
	"options:\n"
	"      --json FILE|-      write the audiolat.check/1 JSON document (- = stdout,\n"
	"                         and no text)\n"
	"      --root DIR         read /proc, /sys, /etc, /boot and /dev below DIR\n"
	"                         instead of / (for tests; live-only checks skip)\n"
	"  -q, --quiet            print only failed checks and the summary line\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 nothing failed, 1 runtime error, 2 usage error, 3 a check failed\n";

/* Pure: 0, or AL_EXIT_USAGE with one line in err. */
static int
parse_args(int argc, char **argv, struct check_cli *p, char *err, size_t err_size)
{
	int opt;

	memset(p, 0, sizeof(*p));
	p->root = "/";
	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":qh", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
			p->json_path = optarg;
			break;
		case OPT_ROOT:
			p->root = optarg;
			break;
		case 'q':
			p->quiet = true;
			break;
		case 'h':
			p->help = true;
			return 0;
		case ':':
			snprintf(err, err_size, "option %s: needs a value", argv[optind - 1]);
			return AL_EXIT_USAGE;
		default:
			snprintf(err, err_size, "unknown option '%s'", argv[optind - 1]);
			return AL_EXIT_USAGE;
		}
	}
	if (optind < argc) {
		snprintf(err, err_size, "unexpected argument '%s'", argv[optind]);
		return AL_EXIT_USAGE;
	}
	if (!*p->root) {
		snprintf(err, err_size, "--root: needs a directory");
		return AL_EXIT_USAGE;
	}
	return 0;
}

static const char *
label(const char *status)
{
	if (!strcmp(status, "ok"))
		return "[ OK ]";
	if (!strcmp(status, "warn"))
		return "[WARN]";
	if (!strcmp(status, "fail"))
		return "[FAIL]";
	return "[SKIP]";
}

static void
print_text(const struct al_syscheck *c, int n, bool quiet, FILE *f)
{
	int i;

	for (i = 0; i < n; i++) {
		if (quiet && strcmp(c[i].status, "fail"))
			continue;
		fprintf(f, "%s %-15s %s\n", label(c[i].status), c[i].id, c[i].message);
		if (c[i].fix[0] && strcmp(c[i].status, "ok"))
			fprintf(f, "       fix: %s\n", c[i].fix);
	}
}

static int
write_json(const struct check_cli *p, const struct al_syscheck *c, int n)
{
	json_t *doc, *checks;
	int rc = -ENOMEM;

	doc = al_doc_new(AL_SCHEMA_CHECK, NULL);
	if (doc)
		json_object_set_new(doc, "root", al_json_text(p->root));
	checks = al_json_checks(c, n);
	if (doc && checks && !json_object_update(doc, checks))
		rc = al_doc_write(p->json_path, doc, 0);
	json_decref(checks);
	json_decref(doc);
	return rc;
}

int
cmd_check(int argc, char **argv)
{
	struct al_syscheck checks[AL_SYSCHECKS_MAX];
	struct al_check_opts o = { 0 };
	struct al_check_tally t;
	struct check_cli p;
	struct stat st;
	char err[256];
	bool json_stdout;
	int n, rc;

	rc = parse_args(argc, argv, &p, err, sizeof(err));
	if (rc)
		return cli_cmd_error(AL_EXIT_USAGE, "check", "%s (see 'audiolat check --help')", err);
	if (p.help) {
		fputs(check_help, stdout);
		return AL_EXIT_OK;
	}
	if (stat(p.root, &st) || !S_ISDIR(st.st_mode))
		return cli_cmd_error(AL_EXIT_USAGE, "check", "--root: '%s' is not a directory",
				     p.root);

	o.root = p.root;
	n = al_check_run(&o, checks, AL_SYSCHECKS_MAX);
	if (n == -ENOTDIR || n == -ENOENT)
		return cli_cmd_error(AL_EXIT_USAGE, "check", "--root: '%s' is not a directory",
				     p.root);
	if (n < 0)
		return cli_cmd_error(AL_EXIT_RUNTIME, "check", "%s: %s", p.root, strerror(-n));
	al_check_tally(checks, n, &t);

	json_stdout = p.json_path && !strcmp(p.json_path, "-");
	if (!json_stdout) {
		print_text(checks, n, p.quiet, stdout);
		printf("summary: ok=%d warn=%d fail=%d skip=%d\n", t.ok, t.warn, t.fail, t.skip);
		fflush(stdout);
	}
	if (p.json_path) {
		rc = write_json(&p, checks, n);
		if (rc)
			return cli_cmd_error(AL_EXIT_RUNTIME, "check", "--json %s: %s", p.json_path,
					     strerror(-rc));
	}
	return t.fail ? AL_EXIT_THRESHOLD : AL_EXIT_OK;
}
