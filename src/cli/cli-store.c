/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "cli.h"
#include "cli-store.h"

int
cli_store_open(const char *cmd, const char *db_opt, enum cli_store_mode mode,
	       struct al_store **out, char *path, size_t path_size)
{
	unsigned flags = 0;
	char err[512];
	int rc;

	*out = NULL;
	if (db_opt) {
		if (snprintf(path, path_size, "%s", db_opt) >= (int)path_size)
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "--db: path too long");
	} else {
		rc = al_store_default_path(path, path_size);
		if (rc)
			return cli_cmd_error(AL_EXIT_RUNTIME, cmd,
					     "no place for the results database: set HOME or "
					     "XDG_DATA_HOME, or give --db PATH (%s)",
					     strerror(-rc));
		flags |= AL_STORE_MKDIR;
	}
	if (mode == CLI_STORE_READ)
		flags = AL_STORE_NOCREATE;
	rc = al_store_open(path, flags, out, err, sizeof(err));
	if (rc == -ENOENT && mode == CLI_STORE_READ && !db_opt)
		return AL_EXIT_OK; /* nothing saved yet */
	if (rc)
		return cli_cmd_error(AL_EXIT_RUNTIME, cmd, "%s: %s", path, err);
	return AL_EXIT_OK;
}

int
cli_store_save_as(const char *db_opt, const char *text, const char *what, bool quiet)
{
	struct al_store *db;
	char path[PATH_MAX], err[512];
	unsigned flags = 0;
	int64_t id;
	int rc;

	if (db_opt) {
		snprintf(path, sizeof(path), "%s", db_opt);
	} else {
		rc = al_store_default_path(path, sizeof(path));
		if (rc) {
			cli_warn("no place for the results database (set HOME or XDG_DATA_HOME, "
				 "or give --db PATH, or --no-db): the result was not saved");
			return AL_EXIT_RUNTIME;
		}
		flags = AL_STORE_MKDIR;
	}
	rc = al_store_open(path, flags, &db, err, sizeof(err));
	if (rc) {
		cli_warn("results database %s: %s: the result was not saved", path, err);
		return AL_EXIT_RUNTIME;
	}
	rc = al_store_save(db, text, strlen(text), "run", &id);
	if (rc < 0) {
		cli_warn("results database %s: %s: the result was not saved", path,
			 al_store_error(db));
		al_store_close(db);
		return AL_EXIT_RUNTIME;
	}
	if (!quiet)
		fprintf(stderr, "saved as %s %lld (%s)\n", what, (long long)id, path);
	al_store_close(db);
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
