/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading and writing result documents for report, compare, sweep, the
 * measuring commands' --json and run --html: one line per failure, naming
 * the file.
 */
#ifndef AL_CLI_DOC_IO_H
#define AL_CLI_DOC_IO_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "report/report.h"
#include "store/store.h"

/*
 * Load the results names[0..n) for cmd (n 0: every run of the database):
 * al_store_load_docs(), db_opt its --db. AL_EXIT_OK, or the exit status
 * after one line on stderr ("audiolat compare: a.json: line 3, column 7:
 * ..."); free set in both cases (al_doc_set_free()).
 */
int cli_docs_load(const char *cmd, const char *db_opt, char *const *names, int n,
		  struct al_doc_set *set);

/*
 * Write doc (NULL: it could not be made, ENOMEM) to --json's path ("-" =
 * stdout; al_doc_write() with flags). AL_EXIT_OK, or AL_EXIT_RUNTIME
 * after one line ("audiolat CMD: --json FILE: ...").
 */
int cli_write_doc(const char *cmd, const char *path, const json_t *doc, size_t flags);

/*
 * Render the HTML report of in[0..n) (with the comparison cmp, may be
 * NULL) to path ("-" = stdout). AL_EXIT_OK, or AL_EXIT_RUNTIME after one
 * line ("audiolat CMD: --html FILE: ...").
 */
int cli_write_html(const char *cmd, const char *opt, const char *path,
		   const struct al_report_doc *in, size_t n, const json_t *cmp, const char *title);

/*
 * How a measuring command's result leaves the program (run, monitor,
 * midi): the document's warnings on stderr when the text does not show
 * them (warn: when quiet, or JSON goes to stdout), the text and summary
 * (ri, unless JSON goes to stdout; the text also unless quiet:
 * al_report_text_summary()), text's bytes to --json, the same bytes to the
 * database (save: saver, else cli_store_save_result()), --html of ri's document, then exit 3 with the line
 * threshold (NULL: none exceeded) when nothing else failed.
 */
struct cli_finish {
	const char *cmd;
	const char *sub;            /* midi's "record": the messages' "SUB: "; NULL */
	const char *json_path, *html_path;
	bool quiet;
	bool warn;                  /* ri's warnings to stderr when quiet or JSON to stdout */
	const struct al_report_input *ri; /* NULL: the caller showed its text */
	const char *text;           /* the document's bytes */
	bool save;                  /* to the database of db_path (--db) */
	const char *db_path;
	int (*saver)(void *ud, const char *text); /* NULL: cli_store_save_result(); an exit status */
	void *ud;
	const char *threshold;
};

/* Returns the exit status: exit_code, or what failed first (one line each). */
int cli_finish(const struct cli_finish *f, int exit_code);

#endif
