/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading and writing result documents for report, compare, sweep and
 * run --html: one line per failure, naming the file.
 */
#ifndef AL_CLI_DOC_IO_H
#define AL_CLI_DOC_IO_H

#include <stddef.h>

#include <jansson.h>

#include "report/report.h"

/*
 * Load the result named by arg for cmd: a JSON file ("-" = stdin) or,
 * when no such file exists and arg is a number, that id in the results
 * database (db_opt: --db, NULL for the default). The document must be
 * one al_doc_check() accepts. source gets what to call it (the file name,
 * or "db:ID"). Returns AL_EXIT_OK with *out set, or AL_EXIT_RUNTIME after
 * one line on stderr ("audiolat compare: a.json: line 3, column 7: ...").
 */
int cli_doc_load(const char *cmd, const char *arg, const char *db_opt, json_t **out, char *source,
		 size_t source_size);

/* in for a message: control characters shown as '?' (size > 0). */
void cli_printable(const char *in, char *out, size_t size);

/*
 * Render the HTML report of in[0..n) (with the comparison cmp, may be
 * NULL) to path ("-" = stdout). AL_EXIT_OK, or AL_EXIT_RUNTIME after one
 * line ("audiolat CMD: --html FILE: ...").
 */
int cli_write_html(const char *cmd, const char *opt, const char *path,
		   const struct al_report_doc *in, size_t n, const json_t *cmp, const char *title);

#endif
