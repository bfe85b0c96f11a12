/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results database's failures as one line and an exit status (the work: store/store-db.c). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/url.h"
#include "cli.h"
#include "cli-store.h"

int
cli_store_failed(const char *cmd, int rc, const char *name, const char *why, bool server)
{
	if (server) /* unreachable, refused ... exit 4 */
		return cli_fault(cmd, rc, name, why, NULL);
	return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s%s%s", name, name[0] ? ": " : "", why);
}

int
cli_store_open(const char *cmd, const char *db_opt, enum cli_store_mode mode,
	       struct al_store **out, char *path, size_t path_size)
{
	struct al_load_fail f;
	int rc;

	rc = al_store_open_as(db_opt, mode == CLI_STORE_WRITE, out, path, path_size, &f);
	return rc ? cli_store_failed(cmd, rc, f.name, f.why, f.server) : AL_EXIT_OK;
}

/* A database of the list that did not take the result: one warning. */
static void
refused(void *ud, const char *shown, int err, const char *why, bool last)
{
	(void)ud;
	(void)err;
	if (shown[0])
		cli_warn("results database %s: %s: %s", shown, why,
			 last ? "the result was not saved" : "trying the next one");
	else
		cli_warn("%s: the result was not saved", why);
}

int
cli_store_save_as(const char *db_opt, const char *text, const char *what, bool quiet)
{
	char shown[PATH_MAX];
	int64_t id;
	int rc;

	rc = al_store_save_first(db_opt, text, "run", &id, shown, sizeof(shown), refused, NULL);
	if (rc)
		return al_url_is_postgres(shown) ? cli_exit_of(rc) : AL_EXIT_RUNTIME;
	if (!quiet)
		fprintf(stderr, "saved as %s %lld (%s)\n", what, (long long)id, shown);
	return AL_EXIT_OK;
}

int
cli_store_save_result(const char *db_opt, const char *text, bool quiet)
{
	return cli_store_save_as(db_opt, text, "run", quiet);
}

int
cli_store_fetch_arg(const char *cmd, const char *db_opt, int argc, char **argv, int first,
		    char **text, struct al_store **db_out, int64_t *id_out, char *path, size_t size)
{
	struct al_load_fail f;
	int64_t id;
	int rc;

	*text = NULL;
	if (db_out)
		*db_out = NULL;
	if (first >= argc)
		return cli_usage_error(cmd, "which result? (an ID from audiolat history)");
	if (first + 1 < argc)
		return cli_usage_error(cmd, "unexpected argument '%s'", argv[first + 1]);
	if (al_store_parse_id(argv[first], &id))
		return cli_usage_error(cmd, "'%s' is not a result id (a number from audiolat "
					    "history)", argv[first]);
	if (id_out)
		*id_out = id;
	rc = al_store_fetch(db_opt, id, text, db_out, path, size, &f);
	return rc ? cli_store_failed(cmd, rc, f.name, f.why, f.server) : AL_EXIT_OK;
}
