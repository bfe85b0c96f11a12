/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat import FILE...: save JSON documents written elsewhere. */
#include <stdio.h>
#include <string.h>

#include "interchange/interchange.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

struct import_cli {
	const char *db, *format;
	bool quiet, help;
	int ret; /* the exit status so far */
};

#define TO(f_) AL_OPT_TO(struct import_cli, f_)
static const struct al_optdef import_opts[] = {
	AL_OPT_TEXT("usage: audiolat import [options] FILE|-...\n"
		    "\n"
		    "Check and save audiolat JSON documents (audiolat run --json, and any other\n"
		    "audiolat.KIND/VERSION document) in the results database, byte for byte. A\n"
		    "document that is already saved is not saved twice. Prints one line per file:\n"
		    "FILE: saved as result ID.\n"
		    "\n"
		    "Other tools' results are recognised by their content and saved as\n"
		    "audiolat.run/2 documents with a \"source\" (docs/interchange.md): cyclictest\n"
		    "-h/-H histogram text, cyclictest --json files and pw-profiler's log\n"
		    "(pw-profiler -o FILE: the driver's cycles, each node's wait and busy time).\n"
		    "What the tool does not measure (xruns, periods, the audio configuration;\n"
		    "pw-profiler: the wake latency) is null.\n"
		    "\n"),
	{ .name = "format", .type = AL_OPT_CHOICE, .arg = "FORMAT", TO(format),
	  .choices = AL_IX_IMPORT_FORMATS,
	  .help = "read every file as this format, not by its content:\n"
		  "audiolat, cyclictest-hist, cyclictest-json or pw-profiler" },
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "no line per saved file", TO(quiet)),
	CLI_SHARED_AS(CLI_OPT_DB, NULL, "the database (default $XDG_DATA_HOME/audiolat/results.db)",
		      TO(db)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 every file saved, 1 a file could not be read, is not valid JSON\n"
		    "(FILE:LINE:COLUMN: ...), not an audiolat document, not in the format it\n"
		    "claims (FILE:LINE: expected ...; nothing of it saved), or a database error\n"
		    "(the other files are still saved), 2 usage error\n"),
	AL_OPT_END,
};

/* One file saved, or why not: a line each (the exit status in *ud). */
static void
imported(void *ud, const char *file, int rc, int64_t id, const char *why)
{
	struct import_cli *o = ud;
	const char *name = strcmp(file, "-") ? file : "<stdin>";

	if (rc < 0)
		o->ret = cli_cmd_error(AL_EXIT_RUNTIME, "import", "%s%s", name, why);
	else if (!o->quiet)
		printf("%s: %s as result %lld\n", name, rc == 1 ? "already saved" : "saved",
		       (long long)id);
}

int
cmd_import(int argc, char **argv)
{
	struct import_cli o = { .ret = AL_EXIT_OK };
	enum al_ix_format fmt = AL_IX_AUTO;
	struct al_store_convert conv = { al_ix_convert, &fmt };
	struct al_load_fail f;
	int first, rc;

	rc = cli_parse("import", import_opts, 25, argc, argv, NULL, &o, &o.help, -1, &first);
	if (rc >= 0)
		return rc;
	if (first >= argc)
		return cli_usage_error("import", "which files? (FILE.json, - for standard input)");
	if (o.format && al_ix_format_of(o.format, &fmt))
		return cli_usage_error("import", "--format %s: not a format", o.format);
	rc = al_store_import(o.db, argv + first, (size_t)(argc - first), &conv, imported, &o, &f);
	return rc ? cli_store_failed("import", rc, f.name, f.why, f.server) : o.ret;
}
