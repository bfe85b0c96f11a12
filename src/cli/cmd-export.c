/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat export ID: the saved JSON document, byte for byte. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "report/ci-formats.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"
#include "doc-io.h"

static const char help[] =
	"usage: audiolat export [options] ID\n"
	"       audiolat export --format kcidb|junit|lava [options] ID|FILE.json...\n"
	"\n"
	"Write the JSON document saved under ID (audiolat history lists them) exactly as\n"
	"it was saved: for a run, the same bytes audiolat run --json wrote.\n"
	"\n"
	"With --format, write runs (saved ids or files) for a kernel CI system, one\n"
	"test per figure under stable names (audiolat.run.wake_latency.p99 ...):\n"
	"  kcidb   KCIDB v5 JSON (KernelCI): status DONE with the number in seconds, or\n"
	"          PASS/FAIL for the max when the run had --max-latency\n"
	"  junit   JUnit XML: one testcase per run, figures and histogram as properties\n"
	"  lava    the lava-test-case lines a LAVA test definition prints\n"
	"\n"
	"  -o, --output FILE|-    write it to FILE (default -, standard output)\n"
	"      --format FORMAT    kcidb, junit or lava (docs/store.md, CI formats)\n"
	"      --origin NAME      the KCIDB origin (default audiolat)\n"
	"      --db PATH|URL      the database (default $AUDIOLAT_DB, else\n"
	"                         $XDG_DATA_HOME/audiolat/results.db)\n"
	"  -h, --help             this text\n"
	"\n"
	"exit status: 0 done, 1 runtime error (no such id, a database error, the file\n"
	"cannot be written), 2 usage error\n";

enum { OPT_FORMAT = 0x320, OPT_ORIGIN };

static const struct option long_opts[] = {
	{ "output", required_argument, NULL, 'o' },
	{ "format", required_argument, NULL, OPT_FORMAT },
	{ "origin", required_argument, NULL, OPT_ORIGIN },
	{ "db", required_argument, NULL, CLI_OPT_DB },
	{ "help", no_argument, NULL, 'h' },
	{ NULL, 0, NULL, 0 },
};

/* --format: the runs args[0..n) (ids or files) in a CI system's format, to out_path */
static int
export_ci(const char *format, const struct al_ci_opts *co, const char *db_opt, char **args,
	  int n, const char *out_path)
{
	char source[PATH_MAX], err[256], *text = NULL;
	json_t **docs, *kcidb = NULL;
	int i, rc, ret = AL_EXIT_OK;

	if (n < 1)
		return cli_usage_error("export", "which results? (ids or FILE.json)");
	docs = calloc((size_t)n, sizeof(*docs));
	if (!docs)
		return cli_cmd_error(AL_EXIT_RUNTIME, "export", "%s", strerror(ENOMEM));
	for (i = 0; i < n && !ret; i++)
		ret = cli_doc_load("export", args[i], db_opt, &docs[i], source, sizeof(source));
	if (ret)
		goto out;
	if (!strcmp(format, "kcidb")) {
		rc = al_ci_kcidb(docs, (size_t)n, co, &kcidb, err, sizeof(err));
		if (!rc) {
			text = al_doc_text(kcidb, 0);
			rc = text ? 0 : -ENOMEM;
		}
	} else if (!strcmp(format, "junit")) {
		rc = al_ci_junit(docs, (size_t)n, co, &text, err, sizeof(err));
	} else {
		rc = al_ci_lava(docs, (size_t)n, co, &text, err, sizeof(err));
	}
	if (rc) {
		ret = cli_cmd_error(rc == -EINVAL ? AL_EXIT_USAGE : AL_EXIT_RUNTIME, "export",
				    "--format %s: %s", format, rc == -EINVAL ? err : strerror(-rc));
		goto out;
	}
	rc = al_doc_write_text(out_path, text);
	if (rc)
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "export", "%s: %s",
				    strcmp(out_path, "-") ? out_path : "standard output",
				    strerror(-rc));
out:
	for (i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	json_decref(kcidb);
	free(text);
	return ret;
}

int
cmd_export(int argc, char **argv)
{
	const char *db_opt = NULL, *out_path = "-", *format = NULL;
	struct al_ci_opts co = { 0 };
	char path[PATH_MAX], *text = NULL;
	int opt, rc, ret;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			if (!optarg[0])
				return cli_usage_error("export", "-o/--output: '' is not a path");
			out_path = optarg;
			break;
		case OPT_FORMAT:
			if (strcmp(optarg, "kcidb") && strcmp(optarg, "junit") && strcmp(optarg, "lava"))
				return cli_usage_error("export", "--format: '%s' is not kcidb, junit "
								 "or lava", optarg);
			format = optarg;
			break;
		case OPT_ORIGIN:
			co.origin = optarg;
			break;
		default:
			rc = cli_store_opt("export", opt, help, argv, &db_opt);
			if (rc != CLI_OPT_NEXT)
				return rc;
			break;
		}
	}
	if (format)
		return export_ci(format, &co, db_opt, argv + optind, argc - optind, out_path);
	ret = cli_store_fetch_arg("export", db_opt, argc, argv, optind, &text, NULL, NULL, path,
				  sizeof(path));
	if (ret)
		return ret;
	/* saved documents are checked JSON: no NUL byte inside */
	rc = al_doc_write_text(out_path, text);
	if (rc) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "export", "%s: %s",
				    strcmp(out_path, "-") ? out_path : "standard output",
				    strerror(-rc));
		goto out;
	}
	ret = AL_EXIT_OK;
out:
	free(text);
	return ret;
}
