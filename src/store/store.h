/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results database: every audiolat JSON document (a run, and later
 * MIDI records and analyses) kept in one SQLite file, with the columns a
 * listing needs (system, configuration, label, summary statistics) beside
 * the full document, stored byte for byte as it was written.
 *
 * Schema, migrations and paths: docs/store.md. WAL mode, a 15 s busy
 * timeout and one BEGIN IMMEDIATE transaction per write let several
 * audiolat processes write at once. One struct al_store per thread.
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

#include <jansson.h>

/* PRAGMA user_version this code writes and reads (older ones are migrated). */
#define AL_STORE_SCHEMA_VERSION 2
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
 * source ("run", "import", ...). *id gets the new row's id. When the very
 * same text is already stored, nothing is added, *id is the existing row
 * and 1 is returned. -EINVAL/-EFBIG for a document al_store_check_document
 * refuses.
 */
int al_store_save(struct al_store *s, const char *text, size_t len, const char *source,
		  int64_t *id);

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
 * kernel: an SQLite GLOB pattern on the kernel release ("6.6.*-rt*"); a
 * pattern without * ? [ matches as a substring. label: the exact label, or
 * a GLOB pattern when it has * ? [. backend, schema: exact.
 */
struct al_store_filter {
	int64_t id;                 /* this id only; 0: any */
	const char *kernel;
	const char *label;
	const char *backend;
	const char *schema;
	int64_t limit;              /* the newest N; 0: all */
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
 * The audiolat.history/1 listing: a new one for the database at db_path
 * (NULL on ENOMEM), one entry added (0, -ENOMEM), and how many matched
 * the filter in all (set last: "matching" stays where it is).
 */
json_t *al_store_history_new(const char *db_path);
int al_store_history_add(json_t *listing, const struct al_store_entry *e);
void al_store_history_matching(json_t *listing, int64_t matching);

#endif
