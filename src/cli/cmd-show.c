/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat show ID: a concise summary of one saved result, from its JSON. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "doc/view.h"
#include "report/report.h"
#include "store/history-table.h"
#include "store/store.h"
#include "cli.h"
#include "cli-store.h"
#include "commands.h"

struct show_cli {
	const char *db;
	bool why, help;
};

#define TO(f_) AL_OPT_TO(struct show_cli, f_)
static const struct al_optdef show_opts[] = {
	AL_OPT_TEXT("usage: audiolat show [options] ID\n"
		    "\n"
		    "Print a summary of the result saved under ID (audiolat history lists them):\n"
		    "label, system, configuration, the latencytest line, the percentile table,\n"
		    "phases, xruns, why it dropped out and warnings. audiolat export ID prints\n"
		    "the whole document.\n"
		    "\n"),
	{ .name = "why", .type = AL_OPT_FLAG, TO(why),
	  .help = "a line per event of why it dropped out, not only the\n"
		  "first 10 of a run with xruns" },
	CLI_SHARED_AS(CLI_OPT_DB, NULL, "the database (default $XDG_DATA_HOME/audiolat/results.db)",
		      TO(db)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error (no such id, a database error),\n"
		    "2 usage error\n"),
	AL_OPT_END,
};

int
cmd_show(int argc, char **argv)
{
	struct al_store *db = NULL;
	const char *db_opt = NULL;
	struct show_cli o = { 0 };
	struct al_report_doc rd;
	struct al_report_input in;
	char path[PATH_MAX], *text = NULL;
	json_error_t jerr;
	json_t *doc;
	int64_t id;
	int first, rc, ret;

	rc = cli_parse("show", show_opts, 25, argc, argv, NULL, &o, &o.help, -1, &first);
	if (rc >= 0)
		return rc;
	db_opt = o.db;
	ret = cli_store_fetch_arg("show", db_opt, argc, argv, first, &text, &db, &id, path,
				  sizeof(path));
	if (ret)
		goto out;
	doc = json_loads(text, 0, &jerr);
	if (!doc) { /* saved documents were checked: the file was changed behind our back */
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "show", "%s: result %lld: %d:%d: invalid JSON: %s",
				    path, (long long)id, jerr.line, jerr.column, jerr.text);
		goto out;
	}
	rc = al_history_entry_print(db, id, stdout);
	if (rc < 0) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, "show", "%s: %s", path, al_store_error(db));
		json_decref(doc);
		goto out;
	}
	/* when and where it ran; a run's report, else where to find the rest */
	in = (struct al_report_input){ .docs = &rd, .n = 1, .no_histogram = true, .provenance = true,
				       .why = o.why };
	rd = (struct al_report_doc){ doc, NULL };
	al_reporter_text.write(&in, stdout);
	if (!al_doc_is_run(doc))
		printf("%zu bytes of JSON; audiolat export %lld prints it\n", strlen(text),
		       (long long)id);
	json_decref(doc);
	ret = AL_EXIT_OK;
out:
	free(text);
	al_store_close(db);
	return ret;
}
