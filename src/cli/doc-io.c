/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "report/doc.h"
#include "store/store.h"
#include "cli-store.h"
#include "cli.h"
#include "doc-io.h"

void
cli_printable(const char *in, char *out, size_t size)
{
	size_t i;

	for (i = 0; in[i] && i + 1 < size; i++)
		out[i] = (unsigned char)in[i] < 0x20 || in[i] == 0x7f ? '?' : in[i];
	out[i] = '\0';
}

static int
load_db(const char *cmd, const char *arg, int64_t id, const char *db_opt, json_t **out,
	char *source, size_t source_size)
{
	char path[PATH_MAX], *text = NULL;
	struct al_store *db = NULL;
	json_error_t jerr;
	size_t len = 0;
	int rc;

	rc = cli_store_open(cmd, db_opt, CLI_STORE_READ, &db, path, sizeof(path));
	if (rc)
		return rc;
	if (!db)
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd,
				     "%s: no such file, and no results database yet (%s)", arg,
				     path);
	rc = al_store_get(db, id, &text, &len);
	if (rc == -ENOENT) {
		al_store_close(db);
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd,
				     "%s: no such file, and no result %s in %s", arg, arg, path);
	}
	if (rc) {
		rc = cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: result %s: %s", path, arg,
				   al_store_error(db));
		al_store_close(db);
		return rc;
	}
	al_store_close(db);
	*out = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (!*out) {
		char why[200];

		cli_printable(jerr.text, why, sizeof(why));
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd,
				     "result %s in %s: line %d, column %d: %s", arg, path,
				     jerr.line, jerr.column, why);
	}
	snprintf(source, source_size, "db:%s", arg);
	return AL_EXIT_OK;
}

int
cli_doc_load(const char *cmd, const char *arg, const char *db_opt, json_t **out, char *source,
	     size_t source_size)
{
	char name[256], err[200];
	json_error_t jerr;
	struct stat st;
	int64_t id;
	int rc;

	*out = NULL;
	cli_printable(arg, name, sizeof(name));
	if (strcmp(arg, "-") && stat(arg, &st)) {
		int e = errno;

		/* not a file: a database id, if it is a number */
		if (e != ENOENT || al_store_parse_id(arg, &id))
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", name, strerror(e));
		rc = load_db(cmd, name, id, db_opt, out, source, source_size);
		if (rc)
			return rc;
	} else {
		if (strcmp(arg, "-") && S_ISDIR(st.st_mode))
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: is a directory", name);
		if (!strcmp(arg, "-"))
			*out = json_loadf(stdin, JSON_REJECT_DUPLICATES, &jerr);
		else
			*out = json_load_file(arg, JSON_REJECT_DUPLICATES, &jerr);
		/* jansson quotes the input near the error: keep it printable */
		cli_printable(jerr.text, err, sizeof(err));
		if (!*out && jerr.line < 0) /* could not read the file at all */
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", name, err);
		if (!*out)
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: line %d, column %d: %s",
					     name, jerr.line, jerr.column, err);
		snprintf(source, source_size, "%s", strcmp(arg, "-") ? arg : "stdin");
	}
	if (al_doc_check(*out, err, sizeof(err))) {
		json_decref(*out);
		*out = NULL;
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", name, err);
	}
	return AL_EXIT_OK;
}

/* Render in with r in memory, then write it to path ("-" = stdout): 0 or -errno. */
static int
write_report(const struct al_reporter *r, const struct al_report_input *in, const char *path)
{
	char *buf = NULL;
	size_t len = 0;
	FILE *f;
	int rc;

	f = open_memstream(&buf, &len);
	if (!f)
		return -errno;
	rc = r->write(in, f);
	if (fclose(f) && !rc)
		rc = -EIO;
	if (!rc)
		rc = al_doc_write_text(path, buf);
	free(buf);
	return rc;
}

int
cli_write_html(const char *cmd, const char *opt, const char *path, const struct al_report_doc *in,
	       size_t n, const json_t *cmp, const char *title)
{
	const struct al_report_input ri = { .docs = in, .n = n, .compare = cmp, .title = title };
	char name[256];
	int rc;

	cli_printable(path, name, sizeof(name));
	rc = write_report(&al_reporter_html, &ri, path);
	if (rc)
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s %s: %s", opt, name, strerror(-rc));
	return AL_EXIT_OK;
}
