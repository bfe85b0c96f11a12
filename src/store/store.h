/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results database: every audiolat JSON document (a run, and later
 * MIDI records and analyses) kept in one SQLite file or a PostgreSQL
 * database, with the columns a listing needs (system, configuration,
 * label, summary statistics) beside the full document, stored byte for
 * byte as it was written.
 *
 * Two engines behind one interface, chosen by what al_store_open() is
 * given: a path is an SQLite file, a "postgresql://" (or "postgres://")
 * URL a PostgreSQL database (libpq; -ENOTSUP when built without it).
 * Schema, migrations and paths: docs/store.md. SQLite: WAL mode, a 15 s
 * busy timeout and one BEGIN IMMEDIATE transaction per write let several
 * audiolat processes write at once; PostgreSQL: one transaction per
 * result, prepared statements, an advisory lock around migrations. One
 * struct al_store per thread.
 *
 * Every function returns 0 (or what it says) on success and a negative
 * errno on failure; a function taking a store then leaves one line of
 * explanation in al_store_error(). Nothing here prints or exits.
 *
 * A short example (compare resolving a database id):
 *
 *	struct al_store *db;
 *	char err[256], path[4096], *text;
 *	int64_t id;
 *
 *	if (al_store_parse_id(arg, &id) == 0) {
 *		al_store_default_path(path, sizeof(path));
 *		if (al_store_open(path, AL_STORE_NOCREATE, &db, err, sizeof(err)))
 *			-> error: err
 *		if (al_store_get(db, id, &text, NULL))   (-ENOENT: no such id)
 *			-> error: al_store_error(db)
 *		... json_loads(text, 0, &jerr) ...
 *		free(text);
 *		al_store_close(db);
 *	}
 */
#ifndef AL_STORE_STORE_H
#define AL_STORE_STORE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "core/version.h"

/* PRAGMA user_version this code writes and reads (older ones are migrated). */
#define AL_STORE_SCHEMA_VERSION 3
/* PRAGMA application_id of an audiolat results database: 'ALAT'. */
#define AL_STORE_APPLICATION_ID 0x414c4154
/* Documents larger than this are refused (a 24 h run is ~10 MB). */
#define AL_STORE_DOC_MAX_BYTES (256u * 1024 * 1024)

struct al_store;

/* al_store_open() flags */
enum {
	AL_STORE_NOCREATE = 1 << 0, /* -ENOENT when the file does not exist */
	AL_STORE_MKDIR = 1 << 1,    /* create missing parent directories (the default path) */
};

/*
 * The default database path: $XDG_DATA_HOME/audiolat/results.db when
 * XDG_DATA_HOME is set to an absolute path, else
 * $HOME/.local/share/audiolat/results.db. Returns 0, -ENOENT (neither
 * variable usable) or -ENAMETOOLONG.
 */
int al_store_default_path(char *buf, size_t size);

/*
 * Open (or create) the database at path: WAL mode, a busy timeout, the
 * schema created or migrated to AL_STORE_SCHEMA_VERSION. Errors, each
 * with one line in err (the path is not repeated in it):
 *   -ENOENT     no such file (AL_STORE_NOCREATE), or no such directory
 *   -EISDIR     path is a directory; -EINVAL: path is empty
 *   -EACCES     cannot be opened or written
 *   -EBADMSG    not an SQLite file, or a damaged one
 *   -EMEDIUMTYPE an SQLite database but not an audiolat results database
 *   -EPROTONOSUPPORT written by a newer audiolat (a higher user_version)
 *   -EBUSY      still locked by another process after the timeout
 *   -EIO        anything else SQLite reports
 * and for a PostgreSQL URL (err names the host, never the password):
 *   -ENXIO      not a URL libpq accepts
 *   -ECONNREFUSED the server cannot be reached (refused, no such host, timeout)
 *   -EACCES     the server refused the login, or the schema needs an owner
 *               to create or migrate it (a role with INSERT and SELECT only)
 *   -ENOENT     AL_STORE_NOCREATE and no audiolat schema in the database
 *   -EMEDIUMTYPE a results table that is not audiolat's
 *   -ENOTSUP    this audiolat was built without libpq
 */
int al_store_open(const char *path, unsigned flags, struct al_store **out, char *err,
		  size_t err_size);
void al_store_close(struct al_store *s);

/* The one-line explanation of the last failure on s ("" after success). */
const char *al_store_error(const struct al_store *s);

/*
 * Check a document without storing it: JSON (jansson), an object with a
 * "schema" string "audiolat.<kind>/<version>"; an audiolat.run/1 must
 * have the fields the summary columns come from. 0, or -EINVAL with one
 * line in err ("line 3, column 7: ..." for JSON syntax), -EFBIG.
 */
int al_store_check_document(const char *text, size_t len, char *err, size_t err_size);

/*
 * Save a document (len bytes of JSON text, kept byte for byte) with its
 * source ("run", "import", "push", ...), in one transaction. *id gets the
 * new row's id. A document is known by its UUID (its "uuid" field, or one
 * made of its bytes when it has none: al_uuid_of_bytes()) and its bytes:
 * when a row with that UUID and the very same text is already stored,
 * nothing is added, *id is that row and 1 is returned (a second push adds
 * nothing). An edited copy (same UUID, other text) is a row of its own.
 * -EINVAL/-EFBIG for a document al_store_check_document
 * refuses.
 */
int al_store_save(struct al_store *s, const char *text, size_t len, const char *source,
		  int64_t *id);

/*
 * Replace the document saved as id by text (audiolat monitor's
 * checkpoints: one result that grows), in one transaction: the row keeps
 * its id, the columns are the new document's. -ENOENT when there is no
 * such id; else as al_store_save().
 */
int al_store_replace(struct al_store *s, int64_t id, const char *text, size_t len,
		     const char *source);

/*
 * The document with this id, as saved (malloc'd, NUL-terminated; *len_out
 * may be NULL). -ENOENT when there is no such id.
 */
int al_store_get(struct al_store *s, int64_t id, char **text, size_t *len_out);

/*
 * A database id: decimal digits only (ids start at 1; 0 is well formed
 * and never found). 0, -EINVAL (not digits) or -ERANGE.
 */
int al_store_parse_id(const char *str, int64_t *id);

/* What a listing sees of one stored document (strings are "" when unknown). */
struct al_store_entry {
	int64_t id;
	const char *schema;         /* "audiolat.run/1" */
	const char *source;         /* "run", "import" */
	const char *saved_at;       /* ISO 8601 UTC, when it was saved */
	const char *started_at;     /* when the run started, from the document */
	const char *label;
	const char *hostname;
	const char *kernel_release;
	const char *kernel_version;
	const char *preempt;
	const char *backend;
	const char *load;
	const char *uuid;           /* the document's UUID (see al_store_save()) */
	int64_t rate_hz;            /* -1 when unknown (the same for the numbers below) */
	int64_t period_frames;
	int64_t buffer_periods;     /* periods in the buffer */
	int64_t duration_ns;
	bool has_stats;             /* the statistics below are set (run documents) */
	int64_t periods;
	int64_t xruns;
	int64_t wake_max_ns;        /* -1 when null (not measured) */
	int64_t wake_p99_ns;
	double max_interval_pct;    /* of the buffer; NAN when null (so the two below) */
	double within_1ms_pct;
	double within_2ms_pct;
};

/*
 * Which documents to list; NULL or zeroed fields match everything.
 * kernel: a GLOB pattern on the kernel release ("6.6.*-rt*": * ? and
 * [...] as in the shell, case-sensitive, the same on both engines); a
 * pattern without * ? [ matches as a substring. label, host: the exact
 * text, or a GLOB pattern when it has * ? [. backend, schema: exact.
 * since: results started at or after it: an ISO 8601 UTC time or its
 * start ("2026-11-30", "2026-11-30T06:00"), or an age ("30m", "12h", "7d").
 */
struct al_store_filter {
	int64_t id;                 /* this id only; 0: any */
	const char *kernel;
	const char *label;
	const char *backend;
	const char *schema;
	int64_t limit;              /* the newest N; 0: all */
	const char *host;           /* system.hostname */
	const char *since;
};

/*
 * Called once per entry, newest (highest id) first; the entry's strings
 * are valid during the call only. A nonzero return stops the listing.
 */
typedef int (*al_store_list_fn)(const struct al_store_entry *e, void *ud);

/*
 * List the documents matching f. Returns the number of entries passed to
 * fn (a positive callback return stops the listing early, that entry
 * counted), a negative callback return as is, or -errno.
 */
int al_store_list(struct al_store *s, const struct al_store_filter *f, al_store_list_fn fn,
		  void *ud);

/* How many documents match f (f->limit is ignored); -errno on failure. */
int64_t al_store_count(struct al_store *s, const struct al_store_filter *f);

/*
 * The ids of the documents matching f, newest first, into *ids (malloc'd,
 * *n of them; free it), only those of a schema starting with
 * schema_prefix when it is not NULL ("audiolat.run/"). 0 or -errno.
 */
int al_store_ids(struct al_store *s, const struct al_store_filter *f, const char *schema_prefix,
		 int64_t **ids, size_t *n);

/* Which engine s is: "sqlite" or "postgresql". */
const char *al_store_engine(const struct al_store *s);

/*
 * Check a --since value (see struct al_store_filter): 0, or -EINVAL with
 * one line in err.
 */
int al_store_check_since(const char *since, char *err, size_t err_size);

/* The database libraries built in (--version), NULL-terminated. */
extern const struct al_lib_version al_store_libs[];

#endif
