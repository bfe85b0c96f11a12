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

#include <jansson.h>

#include "core/version.h"
#include "doc/doc.h"

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
 * The audiolat.history/1 listing: a new one for the database at db_path
 * (NULL on ENOMEM), one entry added (0, -ENOMEM), and how many matched
 * the filter in all (set last: "matching" stays where it is).
 */
json_t *al_store_history_new(const char *db_path);
int al_store_history_add(json_t *listing, const struct al_store_entry *e);
void al_store_history_matching(json_t *listing, int64_t matching);

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

/*
 * Why a call naming a database or a file failed (al_store_open_as(),
 * al_store_fetch(), al_store_load_docs(), al_history_list()): one line
 * "NAME: WHY" (NAME may be "").
 */
struct al_load_fail {
	char name[4608]; /* the file or database named, "" when none */
	char why[4608];
	bool server;     /* a database server's open failure: say it by its errno */
};

/* ---- the database a command names (store-db.c) ---- */

/* db_opt (--db), else $AUDIOLAT_DB when set and not empty, else NULL: the default path. */
const char *al_store_choice(const char *db_opt);

/*
 * Open the database of al_store_choice(db_opt): a path, a URL, or a list
 * "URL;PATH" of which readers take the first; NULL: the default path
 * (its directories made when create). Without create nothing is made,
 * and a missing default database is no database yet: 0 with *out NULL.
 * shown (shown_size bytes) gets what a message may show of it: the path,
 * or the URL without its password ("" when there is no path at all).
 * 0 with *out set, or -errno with one line in err (al_store_open()'s, or
 * why there is no path: -ENAMETOOLONG, no HOME).
 */
int al_store_open_choice(const char *db_opt, bool create, struct al_store **out, char *shown,
			 size_t shown_size, char *err, size_t err_size);
/* The same, its failure in f: name the database as shown, server for a PostgreSQL one. */
int al_store_open_as(const char *db_opt, bool create, struct al_store **out, char *shown,
		     size_t shown_size, struct al_load_fail *f);

/*
 * The document saved as id in the database of db_opt (never created),
 * as saved, into *text (malloc'd). With db_out the database stays open
 * there (close it, also on failure when set); shown gets the database as
 * al_store_open_choice() shows it. 0, or -errno with f: the open's
 * failure, "no result with id N (no database at PATH yet)" (-ENOENT), or
 * the store's ("PATH: no result with id N").
 */
int al_store_fetch(const char *db_opt, int64_t id, char **text, struct al_store **db_out,
		   char *shown, size_t shown_size, struct al_load_fail *f);

/* A database that did not take a result: shown as above, -errno, one line, the last one? */
typedef void (*al_store_refused_fn)(void *ud, const char *shown, int err, const char *why,
				    bool last);

/*
 * Save text (from source: "run") in the database of al_store_choice(db_opt),
 * made when missing (the default path with its directories); a list
 * "URL;PATH" is tried in order until one takes it (a server out of reach,
 * then a local file), refused() told of each that did not (may be NULL).
 * 0 with *id and shown (where it went), or the last one's -errno (shown:
 * the last one tried; -EINVAL and "" when the list named none).
 */
int al_store_save_first(const char *db_opt, const char *text, const char *source, int64_t *id,
			char *shown, size_t shown_size, al_store_refused_fn refused, void *ud);

/*
 * One result that grows (audiolat monitor's checkpoints): saved in the
 * database of db_opt (opened, made when missing, at the first put), then
 * the same row replaced. Zero it before the first put; close it at the end.
 */
struct al_store_slot {
	struct al_store *db;   /* NULL until the first put opened it */
	int64_t id;            /* the row, 0 until saved */
	bool failed;           /* the open failed: every later put fails at once */
	char shown[4096];      /* the database, as a message may show it */
	char err[512];         /* the last failure's one line ("" when already said) */
};
/*
 * 0; -errno with one line in s->err (s->db NULL: the open failed, and
 * every later put returns -EIO with s->err "").
 */
int al_store_slot_put(struct al_store_slot *s, const char *db_opt, const char *text,
		      const char *source);
void al_store_slot_close(struct al_store_slot *s);
/*
 * Whether db_opt (al_store_choice()) can hold a slot: a local database. A
 * PostgreSQL one cannot (the least-privilege role, INSERT and SELECT, may
 * not replace a row): -EINVAL with one line in err naming --db and push.
 */
int al_store_slot_check(const char *db_opt, char *err, size_t err_size);

/*
 * Every run (audiolat.run/2 and /1) in db, oldest first, parsed: *docs (n
 * of them; json_decref each, free the array; a document that does not
 * parse is left out). 0 or -errno (-ENOMEM, or al_store_error(db) says).
 */
int al_store_load_runs(struct al_store *db, json_t ***docs, size_t *n);

/*
 * The document with this id, parsed (duplicate keys refused). 0, or
 * -errno with one line in err: -ENOENT no such id, -EBADMSG "line L,
 * column C: ..." (control characters shown as '?'), else the store's.
 */
int al_store_get_json(struct al_store *db, int64_t id, json_t **out, char *err, size_t err_size);

/* What al_store_copy() did. */
struct al_store_copied {
	size_t n;              /* documents matching the filter */
	size_t added, there;   /* saved; already in the target */
	bool listed;           /* the matching ones were listed (a failure came later) */
	bool dst_failed;       /* the target failed in a way that ends the copy */
};
/* A document the target refused (-EEXIST another under its UUID, -EINVAL, -EFBIG). */
typedef void (*al_store_skipped_fn)(void *ud, int64_t id, int err, const char *why);

/*
 * Copy the documents of src matching f into dst (audiolat push), oldest
 * first, one transaction each (al_store_save(): one already there is not
 * saved again, so a copy cut short leaves whole documents and the next
 * one sends the rest); one dst refuses goes to skipped() (may be NULL)
 * and the others are still copied. 0; or -errno of the failure that ended
 * it: src's (al_store_error(src); c->listed says whether before or after
 * the listing) or dst's (c->dst_failed; al_store_error(dst)). *c counts
 * what was done either way.
 */
int al_store_copy(struct al_store *src, struct al_store *dst, const struct al_store_filter *f,
		  const char *source, struct al_store_copied *c, al_store_skipped_fn skipped,
		  void *ud);

/* What al_store_push() did: where from and to, and what it copied. */
struct al_store_pushed {
	char to[4096], from[4096]; /* the databases, as a message shows them */
	bool from_none;            /* no database at from yet: nothing to push */
	struct al_store_copied c;
};

/*
 * audiolat push: the database of to opened (made when missing: a push
 * with nothing to send still makes its schema), then the one of from
 * (al_store_choice(); never made), and al_store_copy() of the documents
 * matching filter from one to the other (source "push"; skipped as
 * there, p->to already set when it is called). 0 (p->from_none: nothing
 * there yet), or -errno with f: an open's failure, the target's that
 * ended the copy (p->c.dst_failed), or the source's (p->c.listed: after
 * the listing).
 */
int al_store_push(const char *to, const char *from, const struct al_store_filter *filter,
		  struct al_store_pushed *p, al_store_skipped_fn skipped, void *ud,
		  struct al_load_fail *f);

/*
 * Another tool's file made into an audiolat document before it is saved
 * (audiolat import: src/interchange's al_ix_import()): text (len bytes,
 * read from file) into *out (malloc'd, *out_len bytes). 0, or -errno with
 * err the rest of a line after the file's name (":12: expected ...").
 */
struct al_store_convert {
	int (*fn)(void *ud, const char *file, const char *text, size_t len, char **out,
		  size_t *out_len, char *err, size_t err_size);
	void *ud;
};

/*
 * Save the document in file ("-": standard input) byte for byte, from
 * source (audiolat import), or what conv (may be NULL) makes of it:
 * al_store_save()'s 0, or 1 when it was saved already, *id either way.
 * -errno with err the rest of a line after the file's name: ": No such
 * file or directory" (the file could not be read), ":3:7: invalid JSON:
 * ..." or ": not an audiolat document ..." (refused: -EINVAL, -EFBIG),
 * conv's line, ": SHOWN: why" (the database at shown failed). Nothing is
 * saved of a file that fails (one transaction).
 */
int al_store_save_file(struct al_store *db, const char *shown, const char *file,
		       const char *source, int64_t *id, char *err, size_t err_size);
int al_store_save_file_as(struct al_store *db, const char *shown, const char *file,
			  const char *source, const struct al_store_convert *conv, int64_t *id,
			  char *err, size_t err_size);

/*
 * audiolat import: files[0..n) saved one by one (al_store_save_file_as(),
 * source "import", through conv when not NULL) into the database of
 * db_opt (al_store_choice(), made when missing); done() told of each: rc
 * 0 saved, 1 already saved (id either way), or -errno with why (the rest
 * of a line after the file's name, as al_store_save_file() says it), and
 * the others still saved. 0 after every file was tried, or the open's
 * -errno with f (nothing tried).
 */
typedef void (*al_store_imported_fn)(void *ud, const char *file, int rc, int64_t id,
				     const char *why);
int al_store_import(const char *db_opt, char *const *files, size_t n,
		    const struct al_store_convert *conv, al_store_imported_fn done, void *ud,
		    struct al_load_fail *f);

/* The database libraries built in (--version), NULL-terminated. */
extern const struct al_lib_version al_store_libs[];

/*
 * Result documents loaded for a reader (report, compare, export): in[i]
 * is docs[i] with sources[i] (the file name, "stdin", "db:ID", or a
 * database run's uuid). al_doc_set_free() it, also after a failure.
 */
struct al_doc_set {
	struct al_report_doc *in;
	json_t **docs;
	char (*sources)[512];
	size_t n;
};


/*
 * Load names[0..n): each a JSON file ("-" = stdin) or, when no such file
 * exists and it is a number, that id in the database of db_opt (NULL: the
 * default, never created). Every document must pass al_doc_check(). n 0:
 * every run of the database (none: 0 with set->n 0). 0, or -errno with
 * f filled (the documents loaded so far stay in set).
 */
int al_store_load_docs(const char *db_opt, char *const *names, size_t n, struct al_doc_set *set,
		       struct al_load_fail *f);
void al_doc_set_free(struct al_doc_set *set);

/*
 * Load the runs (audiolat.run/2 and /1) of the database of db_opt (never
 * created) that match filter, oldest first, their sources "db:ID"; no
 * database yet: none. Every document must pass al_doc_check(). 0 (set->n
 * may be 0), or -errno with f filled.
 */
int al_store_load_query(const char *db_opt, const struct al_store_filter *filter,
			struct al_doc_set *set, struct al_load_fail *f);

#endif
