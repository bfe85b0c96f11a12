/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat export ID: the saved JSON document, byte for byte. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "doc/doc.h"
#include "export/export.h"
#include "interchange/interchange.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"
#include "doc-io.h"

struct export_cli {
	const char *db, *out, *format;
	struct al_ci_opts co;
	bool help;
};

#define TO(f_) AL_OPT_TO(struct export_cli, f_)
static const struct al_optdef export_opts[] = {
	AL_OPT_TEXT("usage: audiolat export [options] ID\n"
		    "       audiolat export --format kcidb|junit|lava [options] ID|FILE.json...\n"
		    "       audiolat export --format cyclictest [options] ID|FILE.json\n"
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
		    "--format cyclictest writes one run as cyclictest -h does (a bucket per us):\n"
		    "its per-wake-up wake latency, or each thread of a run imported from\n"
		    "cyclictest; xruns, period, frames, backend ... on '# audiolat.KEY: VALUE'\n"
		    "lines that cyclictest's readers skip (docs/interchange.md).\n"
		    "\n"),
	{ .name = "output", .short_name = 'o', .type = AL_OPT_PATH, .arg = "FILE|-", TO(out),
	  .help = "write it to FILE (default -, standard output)" },
	{ .name = "format", .type = AL_OPT_CHOICE, .arg = "FORMAT", TO(format),
	  .choices = "kcidb|junit|lava|cyclictest",
	  .help = "kcidb, junit or lava (docs/store.md, CI formats);\n"
		  "cyclictest (docs/interchange.md)" },
	{ .name = "origin", .type = AL_OPT_SPEC, .arg = "NAME", TO(co.origin),
	  .help = "the KCIDB origin (default audiolat)" },
	{ .name = "build-id", .type = AL_OPT_SPEC, .arg = "ORIGIN:ID", TO(co.build_id),
	  .help = "the KCIDB build the tests ran on: the id the CI\n"
		  "system gave it (default ORIGIN:KERNEL_RELEASE)" },
	CLI_SHARED_AS(CLI_OPT_DB, "PATH|URL", "the database (default $AUDIOLAT_DB, else\n"
					      "$XDG_DATA_HOME/audiolat/results.db)", TO(db)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error (no such id, a database error, the file\n"
		    "cannot be written; --format cyclictest: a run with no wake latency\n"
		    "histogram, as one imported from pw-profiler), 2 usage error\n"),
	AL_OPT_END,
};

/* text to out_path ("-": standard output); the exit status, after one line when it failed */
static int
write_out(const char *out_path, const char *text)
{
	int rc = al_doc_write_text(out_path, text);

	if (rc)
		return cli_cmd_error(AL_EXIT_RUNTIME, "export", "%s: %s",
				     strcmp(out_path, "-") ? out_path : "standard output",
				     strerror(-rc));
	return AL_EXIT_OK;
}

/* --format: the runs args[0..n) (ids or files) in a CI system's format, to out_path */
static int
export_ci(const char *format, const struct al_ci_opts *co, const char *db_opt, char **args,
	  int n, const char *out_path)
{
	char err[256] = "", *text = NULL;
	struct al_doc_set set;
	int rc, ret;

	if (n < 1)
		return cli_usage_error("export", "which results? (ids or FILE.json)");
	ret = cli_docs_load("export", db_opt, args, n, &set);
	if (ret)
		goto out;
	if (!strcmp(format, "cyclictest") && set.n != 1) {
		ret = cli_usage_error("export", "--format cyclictest: one result per file (%zu given)",
				      set.n);
		goto out;
	}
	if (!strcmp(format, "cyclictest"))
		rc = al_ix_export_cyclictest(set.docs[0], &text, err, sizeof(err));
	else
		rc = al_ci_format(format, set.docs, set.n, co, &text, err, sizeof(err));
	if (rc) {
		/* a document or an option the format cannot take: 2 (cli_exit_of) */
		ret = cli_cmd_error(cli_exit_of(rc), "export", "--format %s: %s", format,
				    err[0] ? err : strerror(-rc));
		goto out;
	}
	ret = write_out(out_path, text);
out:
	al_doc_set_free(&set);
	free(text);
	return ret;
}

int
cmd_export(int argc, char **argv)
{
	struct export_cli o = { .out = "-" };
	char path[PATH_MAX], *text = NULL;
	int first, ret;

	ret = cli_parse("export", export_opts, 25, argc, argv, NULL, &o, &o.help, -1, &first);
	if (ret >= 0)
		return ret;
	if (o.format)
		return export_ci(o.format, &o.co, o.db, argv + first, argc - first, o.out);
	ret = cli_store_fetch_arg("export", o.db, argc, argv, first, &text, NULL, NULL, path,
				  sizeof(path));
	if (ret)
		return ret;
	/* saved documents are checked JSON: no NUL byte inside */
	ret = write_out(o.out, text);
	free(text);
	return ret;
}
