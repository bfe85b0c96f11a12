/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/url.h"
#include "cli.h"
#include "cli-store.h"

const char *
cli_store_choice(const char *db_opt)
{
	const char *env = getenv("AUDIOLAT_DB");

	return db_opt ? db_opt : env && env[0] ? env : NULL;
}

/* What a line may show of where: a URL without its password */
static void
shown(const char *where, char *out, size_t size)
{
	al_url_redact(where, out, size);
}

int
cli_store_open(const char *cmd, const char *db_opt, enum cli_store_mode mode,
	       struct al_store **out, char *path, size_t path_size)
{
	char err[512], where[PATH_MAX];
	unsigned flags = 0;
	int rc;

	*out = NULL;
	db_opt = cli_store_choice(db_opt);
	if (db_opt) {
		/* a list (run's fallbacks, "URL;PATH"): readers take the first */
		if (snprintf(where, sizeof(where), "%.*s", (int)strcspn(db_opt, ";"), db_opt) >=
		    (int)sizeof(where))
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "--db: path too long");
	} else {
		rc = al_store_default_path(where, sizeof(where));
		if (rc)
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd,
					     "no place for the results database: set HOME or "
					     "XDG_DATA_HOME, or give --db PATH (%s)",
					     strerror(-rc));
		flags |= AL_STORE_MKDIR;
	}
	/* the callers print path: never the password */
	shown(where, path, path_size);
	if (mode == CLI_STORE_READ)
		flags = AL_STORE_NOCREATE;
	rc = al_store_open(where, flags, out, err, sizeof(err));
	explicit_bzero(where, sizeof(where));
	if (rc == -ENOENT && mode == CLI_STORE_READ && !db_opt)
		return AL_EXIT_OK; /* nothing saved yet */
	if (rc && al_url_is_postgres(path)) /* a server: unreachable, refused ... exit 4 */
		return cli_fault(cmd, rc, path, err, NULL);
	if (rc)
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", path, err);
	return AL_EXIT_OK;
}

/* Save text in the database at where (a path, a URL, or NULL: the default); exit code. */
static int
save_one(const char *where_in, const char *text, const char *what, bool quiet, bool last)
{
	struct al_store *db;
	char path[PATH_MAX], err[512], where[PATH_MAX];
	unsigned flags = 0;
	int64_t id;
	int rc;

	if (where_in) {
		snprintf(where, sizeof(where), "%s", where_in);
	} else {
		rc = al_store_default_path(where, sizeof(where));
		if (rc) {
			cli_warn("no place for the results database (set HOME or XDG_DATA_HOME, "
				 "or give --db PATH, or --no-db): the result was not saved");
			return AL_EXIT_RUNTIME;
		}
		flags = AL_STORE_MKDIR;
	}
	shown(where, path, sizeof(path));
	rc = al_store_open(where, flags, &db, err, sizeof(err));
	explicit_bzero(where, sizeof(where));
	if (rc) {
		cli_warn("results database %s: %s: %s", path, err,
			 last ? "the result was not saved" : "trying the next one");
		return al_url_is_postgres(path) ? cli_exit_of(rc) : AL_EXIT_RUNTIME;
	}
	rc = al_store_save(db, text, strlen(text), "run", &id);
	if (rc < 0) {
		cli_warn("results database %s: %s: %s", path, al_store_error(db),
			 last ? "the result was not saved" : "trying the next one");
		al_store_close(db);
		return al_url_is_postgres(path) ? cli_exit_of(rc) : AL_EXIT_RUNTIME;
	}
	if (!quiet)
		fprintf(stderr, "saved as %s %lld (%s)\n", what, (long long)id, path);
	al_store_close(db);
	return AL_EXIT_OK;
}

int
cli_store_save_as(const char *db_opt, const char *text, const char *what, bool quiet)
{
	char one[PATH_MAX];
	const char *p;
	size_t n;
	int rc = AL_EXIT_RUNTIME;

	db_opt = cli_store_choice(db_opt);
	if (!db_opt)
		return save_one(NULL, text, what, quiet, true);
	/* "URL;PATH": each in turn until one saves (a server out of reach, a local file) */
	for (p = db_opt; *p; p += n + (p[n] == ';')) {
		n = strcspn(p, ";");
		if (!n)
			continue;
		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		rc = save_one(one, text, what, quiet, !p[n] || !p[n + 1]);
		explicit_bzero(one, sizeof(one));
		if (rc == AL_EXIT_OK)
			return rc;
	}
	return rc;
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
	struct al_store *db = NULL;
	int64_t id;
	int ret;

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
	ret = cli_store_open(cmd, db_opt, CLI_STORE_READ, &db, path, size);
	if (ret)
		return ret;
	if (!db)
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "no result with id %lld (no database "
							   "at %s yet)", (long long)id, path);
	if (al_store_get(db, id, text, NULL))
		ret = cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", path, al_store_error(db));
	if (db_out)
		*db_out = db;
	else
		al_store_close(db);
	return ret;
}

int
cli_store_opt(const char *cmd, int opt, const char *help, char **argv, const char **db_opt)
{
	switch (opt) {
	case CLI_OPT_DB: {
		/* checked as every subcommand checks it (common-opts.h) */
		struct cli_common com = { 0 };
		char err[256];

		if (cli_common_set(&com, CLI_OPT_DB, optarg, err, sizeof(err)))
			return cli_usage_error(cmd, "%s", err);
		*db_opt = com.db_path;
		return CLI_OPT_NEXT;
	}
	case 'h':
		fputs(help, stdout);
		return AL_EXIT_OK;
	case ':':
		return cli_usage_error(cmd, "option %s: needs a value", argv[optind - 1]);
	default:
		return cli_usage_error(cmd, "unknown option '%s'", argv[optind - 1]);
	}
}

int
cli_store_load_runs(const char *cmd, const char *db_opt, json_t ***docs, size_t *n)
{
	struct al_store *db = NULL;
	int64_t *ids = NULL;
	size_t i, len, n_ids = 0;
	char path[PATH_MAX];
	json_error_t jerr;
	char *text;
	int rc, ret;

	*docs = NULL;
	*n = 0;
	ret = cli_store_open(cmd, db_opt, CLI_STORE_READ, &db, path, sizeof(path));
	if (ret || !db)
		return ret;
	rc = al_store_ids(db, NULL, "audiolat.run/", &ids, &n_ids);
	if (rc < 0) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", path, al_store_error(db));
		goto out;
	}
	*docs = calloc(n_ids ? n_ids : 1, sizeof(**docs));
	if (!*docs) {
		ret = cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s", strerror(ENOMEM));
		goto out;
	}
	for (i = n_ids; i-- > 0;) {
		rc = al_store_get(db, ids[i], &text, &len);
		if (rc) {
			ret = cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", path, al_store_error(db));
			goto out;
		}
		(*docs)[*n] = json_loadb(text, len, 0, &jerr);
		free(text);
		if ((*docs)[*n])
			(*n)++;
	}
out:
	if (ret) {
		for (i = 0; i < *n; i++)
			json_decref((*docs)[i]);
		free(*docs);
		*docs = NULL;
		*n = 0;
	}
	free(ids);
	al_store_close(db);
	return ret;
}
