/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Shared by the files of src/store only: the two engines and what they share. */
#ifndef AL_STORE_STORE_PRIVATE_H
#define AL_STORE_STORE_PRIVATE_H

#ifndef AL_STORE_PRIVATE
#error "store-private.h is for src/store only"
#endif

#include <jansson.h>
#include <sqlite3.h>

#include "core/url.h"
#include "store.h"

#define AL_STORE_BUSY_TIMEOUT_MS 15000

struct al__pg; /* store-pg.c: the PostgreSQL connection and its statements */

struct al_store {
	sqlite3 *db;        /* the SQLite engine, or NULL */
	struct al__pg *pg;  /* the PostgreSQL engine, or NULL */
	char err[320];
};

/* What the columns of one row are made of; strings borrowed from root. */
struct al__doc {
	json_t *root;
	const char *schema;
	const char *started_at, *label, *hostname, *kernel_release, *kernel_version, *preempt;
	const char *backend, *load;
	json_t *rate_hz, *period_frames, *buffer_periods, *duration_ns;
	bool has_stats;
	json_t *periods, *xruns, *wake_max_ns, *wake_p99_ns;
	json_t *max_interval_pct, *within_1ms_pct, *within_2ms_pct;
	char digest[17];
	char uuid[AL_UUID_LEN + 1]; /* the document's "uuid", lowercase, or one made of its bytes */
};

/*
 * Parse and check a document, fill c (its digest and UUID too); on
 * success c->root holds the document (json_decref it). 0, -EINVAL, -EFBIG
 * with one line in err.
 */
int al__store_parse_doc(const char *text, size_t len, struct al__doc *c, char *err,
			size_t err_size);

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

/* A listing's WHERE clause and its parameters, in either engine's dialect. */
#define AL__WHERE_BINDS 8
struct al__where {
	char sql[512];
	char id_text[24];
	char since[40];
	char pattern[3][520];       /* GLOB patterns as POSIX regular expressions (PostgreSQL) */
	const char *binds[AL__WHERE_BINDS];
	int n_binds;
};
enum al__dialect { AL__SQLITE, AL__PG };
/* 0, or -EINVAL (a --since that is no time) with one line in s->err */
int al__store_where(struct al_store *s, const struct al_store_filter *f, enum al__dialect d,
		    struct al__where *w);

/* The columns a listing reads, in the order of struct al_store_entry. */
#define AL__LIST_COLUMNS                                                                         \
	"id, schema, source, saved_at, started_at, label, hostname, kernel_release,"             \
	" kernel_version, preempt, backend, load, rate_hz, period_frames, buffer_periods,"       \
	" duration_ns, periods, xruns, wake_max_ns, wake_p99_ns, max_interval_pct,"              \
	" within_1ms_pct, within_2ms_pct, uuid"

/* The PostgreSQL engine (store-pg.c; store-nopg.c when built without libpq). */
/* libpq's version, of the library loaded (--version) */
const char *al__pg_lib_version(void);
int al__pg_open(struct al_store *s, const char *url, unsigned flags);
void al__pg_close(struct al_store *s);
int al__pg_save(struct al_store *s, const struct al__doc *c, const char *text, size_t len,
		const char *source, int64_t *id);
int al__pg_get(struct al_store *s, int64_t id, char **text, size_t *len_out);
int al__pg_list(struct al_store *s, const struct al_store_filter *f, al_store_list_fn fn,
		void *ud);
int64_t al__pg_count(struct al_store *s, const struct al_store_filter *f);

#endif
