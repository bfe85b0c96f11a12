/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "doc/doc.h"
#include "doc/view.h"
#include "store/store.h"
#include "cli-store.h"
#include "cli.h"
#include "doc-io.h"

int
cli_docs_load(const char *cmd, const char *db_opt, char *const *names, int n,
	      struct al_doc_set *set)
{
	struct al_load_fail f;
	int rc = al_store_load_docs(db_opt, names, n > 0 ? (size_t)n : 0, set, &f);

	return rc ? cli_store_failed(cmd, rc, f.name, f.why, f.server) : AL_EXIT_OK;
}

int
cli_write_doc(const char *cmd, const char *path, const json_t *doc, size_t flags)
{
	int rc = doc ? al_doc_write(path, doc, flags) : -ENOMEM;

	if (!rc)
		return AL_EXIT_OK;
	return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "--json %s: %s", path, strerror(-rc));
}

int
cli_write_html(const char *cmd, const char *opt, const char *path, const struct al_report_doc *in,
	       size_t n, const json_t *cmp, const char *title)
{
	const struct al_report_input ri = { .docs = in, .n = n, .compare = cmp, .title = title };
	char name[256];
	int rc;

	al_text_term_safe(path, name, sizeof(name), sizeof(name));
	rc = al_report_write_file(&al_reporter_html, &ri, path);
	if (rc)
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s %s: %s", opt, name, strerror(-rc));
	return AL_EXIT_OK;
}

int
cli_finish(const struct cli_finish *f, int exit_code)
{
	bool to_stdout = f->json_path && !strcmp(f->json_path, "-");
	const char *sep = f->sub ? ": " : "", *sub = f->sub ? f->sub : "";
	const json_t *w;
	size_t i;
	int rc;

	/* the warnings on stderr when the text does not show them */
	if (f->warn && f->ri && (f->quiet || to_stdout))
		json_array_foreach(json_object_get(f->ri->docs[0].doc, "warnings"), i, w)
			cli_warn("%s", json_string_value(w));
	if (f->ri && !to_stdout)
		al_report_text_summary(f->ri, f->quiet, stdout);
	fflush(stdout);
	if (f->json_path && (rc = al_doc_write_text(f->json_path, f->text)))
		exit_code = cli_cmd_error(AL_EXIT_RUNTIME, f->cmd, "%s%s--json %s: %s", sub, sep,
					  f->json_path, strerror(-rc));
	/* the database gets the very bytes --json wrote */
	if (f->save && (rc = f->saver ? f->saver(f->ud, f->text)
				      : cli_store_save_result(f->db_path, f->text, f->quiet)))
		exit_code = rc; /* 4: a server out of reach */
	if (f->html_path && f->ri &&
	    cli_write_html(f->cmd, "--html", f->html_path, f->ri->docs, 1, NULL, NULL))
		exit_code = AL_EXIT_RUNTIME;
	if (f->threshold && exit_code == AL_EXIT_OK)
		exit_code = cli_cmd_error(AL_EXIT_THRESHOLD, f->cmd, "%s%s%s", sub, sep,
					  f->threshold);
	return exit_code;
}
