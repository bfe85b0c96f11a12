/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat bisect's trials: the user's command run once per trial, its
 * run document read and saved with the trials' label (docs/bisect.md).
 */
#ifndef AL_CLI_BISECT_TRIAL_H
#define AL_CLI_BISECT_TRIAL_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

struct cli_trial {
	char *const *argv;    /* the command, NULL-terminated */
	const char *db;       /* --db (al_store_choice()) */
	const char *label;    /* the trials' label */
	bool quiet;           /* no "saved as" lines */
	char dir[PATH_MAX];   /* the scratch directory (cli_trial_open()) */
	bool store_failed;    /* the database did not take a trial */
};

/* The scratch directory into t->dir: 0 or -errno. */
int cli_trial_open(struct cli_trial *t);
/* Its files and itself removed. */
void cli_trial_close(struct cli_trial *t);

/* `git rev-parse HEAD` in the working directory into buf ("" when it fails). */
void cli_trial_commit(struct cli_trial *t, char *buf, size_t size);

/*
 * One trial (an al_bisect_trial_fn; ud a struct cli_trial): the command
 * run with AUDIOLAT_BISECT_OUT (a file it may write the document to,
 * else its stdout is the document) and AUDIOLAT_BISECT_TRIAL (1, 2, ...)
 * in its environment; the document read, checked, labelled and saved.
 * 0, or -errno with one line in err (t->store_failed: the database's).
 */
int cli_trial_run(void *ud, unsigned i, json_t **doc, int64_t *id, char *err, size_t err_size);

#endif
