/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the two files of the PostgreSQL engine (store-pg.c, store-pg-rows.c) only. */
#ifndef AL_STORE_STORE_PG_PRIVATE_H
#define AL_STORE_STORE_PG_PRIVATE_H

#include <libpq-fe.h>

#include "store-private.h"

struct al__pg {
	PGconn *conn;
	char where[160];    /* "host:port" or "socket DIR", for messages */
	char *password[2];  /* the URL's, as written and decoded, only to scrub them from
			     * messages; wiped at close */
};

/* A failed result (or a lost connection) as -errno and one line in s->err. */
int al__pg_fail(struct al_store *s, PGresult *res, const char *what);
/* Run sql (no parameters, no rows wanted); 0 or al__pg_fail(). */
int al__pg_exec(struct al_store *s, const char *sql, const char *what);

#endif
