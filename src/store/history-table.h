/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat history's table: one row per listed result (al_store_list()),
 * its strings copied out of the entry (terminal-safe, cut to a column),
 * printed newest first with the columns as wide as their entries.
 */
#ifndef AL_STORE_HISTORY_TABLE_H
#define AL_STORE_HISTORY_TABLE_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "store.h"

struct al_history_row;

struct al_history_table {
	struct al_history_row *v;
	size_t n, cap;
};

/* Append e's row. 0 or -ENOMEM. */
int al_history_table_add(struct al_history_table *t, const struct al_store_entry *e);
/* The header, the rows, and the note on audiolat.run/1 figures when one has them. */
void al_history_table_print(const struct al_history_table *t, FILE *f);
void al_history_table_free(struct al_history_table *t);

/*
 * audiolat show's head for result id of db: "result ID: SCHEMA, saved AT
 * (SOURCE)" and its label, terminal-safe. al_store_list()'s count, or
 * -errno (al_store_error(db) may say why).
 */
int al_history_entry_print(struct al_store *db, int64_t id, FILE *f);

/*
 * The listing of db by f (f->limit rows): its rows into t and, when
 * listing is not NULL, its entries into that audiolat.history/1 listing.
 * Returns how many results match f in all, or -errno (al_store_error(db)
 * may say why).
 */
int64_t al_history_collect(struct al_store *db, const struct al_store_filter *f,
			   struct al_history_table *t, json_t *listing);

/* audiolat history's listing of a database: what it shows. */
struct al_history {
	char path[4096];              /* the database, as a message shows it */
	bool db;                      /* false: no database there yet (nothing saved) */
	int64_t matching;             /* the results that match the filter, in all */
	struct al_history_table t;    /* the newest f->limit of them */
	json_t *listing;              /* the audiolat.history/1 listing, when asked for */
};

/*
 * The listing of the database of db_opt (al_store_open_choice(), never
 * created) by f (f->limit rows) into h; with listing, its JSON too (an
 * empty one when there is no database yet). 0, or -errno with fail (the
 * open's, "PATH: why" of the store's, or ENOMEM's line). Free h with
 * al_history_free() in every case.
 */
int al_history_list(const char *db_opt, const struct al_store_filter *f, bool listing,
		    struct al_history *h, struct al_load_fail *fail);
void al_history_free(struct al_history *h);

/*
 * h for a reader: the table to out, with "(the newest N of M; -n 0 lists
 * all)" to note when it is cut; when there is nothing to list, one line
 * to note saying why (no database at PATH yet, nothing matches f, nothing
 * saved yet).
 */
void al_history_print(const struct al_history *h, const struct al_store_filter *f, FILE *out,
		      FILE *note);

#endif
