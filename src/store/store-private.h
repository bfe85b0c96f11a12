/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of src/store only. */
#ifndef AL_STORE_STORE_PRIVATE_H
#define AL_STORE_STORE_PRIVATE_H

#ifndef AL_STORE_PRIVATE
#error "store-private.h is for src/store only"
#endif

#include <sqlite3.h>

#include "store.h"

#define AL_STORE_BUSY_TIMEOUT_MS 15000

struct al_store {
	sqlite3 *db;
	char err[320];
};

/*
 * Turn an SQLite failure into -errno and one line in s->err: "what" says
 * what was being done ("saving", "reading id 12").
 */
int al__store_fail(struct al_store *s, int sqlite_rc, const char *what);

/* printf into s->err; returns code. */
int al__store_err(struct al_store *s, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/* FNV-1a 64 of the bytes, as 16 lowercase hex digits (+ NUL). */
void al__store_digest(const void *data, size_t len, char out[17]);

/* Run one statement with no result rows; SQLite code. */
int al__store_exec(struct al_store *s, const char *sql);

#endif
