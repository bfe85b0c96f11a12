/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results database for the subcommands: --db PATH, the default path, messages. */
#ifndef AL_CLI_CLI_STORE_H
#define AL_CLI_CLI_STORE_H

#include <stdbool.h>
#include <stddef.h>

#include <jansson.h>

#include "args/common-opts.h"
#include "store/store.h"

enum cli_store_mode {
	CLI_STORE_READ,   /* never create; a missing default database is no database */
	CLI_STORE_WRITE,  /* create it (and the directories of the default path) */
};

/*
 * Open the database of --db db_opt (al_store_open_choice(): NULL is
 * $AUDIOLAT_DB or the default path) for cmd; the path used goes to path.
 * Returns AL_EXIT_OK with *out set, AL_EXIT_OK with *out NULL
 * (CLI_STORE_READ and no database at the default path yet), or the exit
 * status after one line on stderr (cli_store_failed()).
 */
int cli_store_open(const char *cmd, const char *db_opt, enum cli_store_mode mode,
		   struct al_store **out, char *path, size_t path_size);

/*
 * A store call that failed (rc, and its struct al_load_fail's name, why
 * and server): "audiolat CMD: NAME: WHY", exit 1; a server's through
 * cli_fault() (unreachable, refused: 4). Returns the exit status.
 */
int cli_store_failed(const char *cmd, int rc, const char *name, const char *why, bool server);

/*
 * Save the JSON document a command just wrote (audiolat run; a MIDI
 * record, an analysis), db_opt as in cli_store_open(), or a list
 * "URL;PATH" tried in order until one saves (a warning for each that
 * fails; cli_store_open() takes the first): "saved as WHAT N
 * (PATH)" on stderr unless quiet (what: "run", "record", ...); a failure
 * is one warning line ("...: the result was not saved") and
 * AL_EXIT_RUNTIME, else AL_EXIT_OK.
 */
int cli_store_save_as(const char *db_opt, const char *text, const char *what, bool quiet);

/* cli_store_save_as(db_opt, text, "run", quiet): after a run. */
int cli_store_save_result(const char *db_opt, const char *text, bool quiet);

/*
 * The one positional argument of `show ID` and `export ID`: check it is
 * there and alone, parse the id, open the database and fetch the saved
 * document into *text (free it). With db non-NULL the database stays open
 * in *db for the caller (close it, also on failure when set); *id and path
 * (size bytes) get the id and the database file. Returns 0, or the exit
 * code after one line naming what was wrong (usage 2, runtime 1).
 */
int cli_store_fetch_arg(const char *cmd, const char *db_opt, int argc, char **argv, int first,
			char **text, struct al_store **db, int64_t *id, char *path, size_t size);

#endif
