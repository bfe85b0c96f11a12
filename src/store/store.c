/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The results database: paths, opening, the schema and its migrations. */
#define AL_STORE_PRIVATE
#include <errno.h>
#include <limits.h>
#include <pwd.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include <sqlite3.h>

#include "core/clock.h"
#include "store-private.h"

/*
 * The migrations, in order: migrations[v] takes a database from
 * user_version v to v + 1 and runs in one transaction with the
 * user_version update. migrations[0] creates the first schema; a new
 * database goes through all of them, so every step runs on every new
 * file. Never edit a step once released: add the next one.
 */
static const char migrate_0_to_1[] =
	/* the first schema: runs only */
	"CREATE TABLE runs (\n"
	"	id INTEGER PRIMARY KEY AUTOINCREMENT,\n"
	"	saved_at TEXT NOT NULL,\n"
	"	started_at TEXT,\n"
	"	label TEXT,\n"
	"	hostname TEXT,\n"
	"	kernel_release TEXT,\n"
	"	preempt TEXT,\n"
	"	backend TEXT,\n"
	"	rate_hz INTEGER,\n"
	"	period_frames INTEGER,\n"
	"	buffer_periods INTEGER,\n"
	"	periods INTEGER,\n"
	"	xruns INTEGER,\n"
	"	wake_max_ns INTEGER,\n"
	"	wake_p99_ns INTEGER,\n"
	"	max_interval_pct REAL,\n"
	"	within_1ms_pct REAL,\n"
	"	within_2ms_pct REAL,\n"
	"	document TEXT NOT NULL\n"
	");\n"
	"CREATE INDEX runs_kernel ON runs(kernel_release);\n"
	"PRAGMA application_id = 1095516500;\n"; /* AL_STORE_APPLICATION_ID */

static const char migrate_1_to_2[] =
	/* any audiolat document (MIDI records, analyses), where it came from,
	 * a digest to find duplicates, and what the listing filters on */
	"ALTER TABLE runs RENAME TO results;\n"
	"ALTER TABLE results ADD COLUMN schema TEXT NOT NULL DEFAULT 'audiolat.run/1';\n"
	"ALTER TABLE results ADD COLUMN source TEXT NOT NULL DEFAULT 'run';\n"
	"ALTER TABLE results ADD COLUMN kernel_version TEXT;\n"
	"ALTER TABLE results ADD COLUMN load TEXT;\n"
	"ALTER TABLE results ADD COLUMN duration_ns INTEGER;\n"
	"ALTER TABLE results ADD COLUMN digest TEXT;\n"
	"UPDATE results SET\n"
	"	schema = coalesce(CASE WHEN json_valid(document)\n"
	"		THEN json_extract(document, '$.schema') END, schema),\n"
	"	kernel_version = CASE WHEN json_valid(document)\n"
	"		THEN json_extract(document, '$.system.kernel_version') END,\n"
	"	load = CASE WHEN json_valid(document)\n"
	"		THEN json_extract(document, '$.config.load') END,\n"
	"	duration_ns = CASE WHEN json_valid(document)\n"
	"		THEN json_extract(document, '$.duration_ns') END,\n"
	"	digest = al_digest(document);\n"
	"DROP INDEX runs_kernel;\n"
	"CREATE INDEX results_kernel ON results(kernel_release);\n"
	"CREATE INDEX results_label ON results(label);\n"
	"CREATE INDEX results_digest ON results(digest);\n";

static const char migrate_2_to_3[] =
	/* a UUID per result: pushing to a shared store is idempotent by it
	 * (with the digest: an edited copy keeps the UUID and is a row of its
	 * own), and the host filter's index */
	"ALTER TABLE results ADD COLUMN uuid TEXT;\n"
	"UPDATE results SET uuid = coalesce(CASE WHEN json_valid(document)\n"
	"	THEN lower(json_extract(document, '$.uuid')) END, al_uuid(document));\n"
	"CREATE UNIQUE INDEX results_uuid ON results(uuid, digest);\n"
	"CREATE INDEX results_host ON results(hostname);\n";

static const char *const migrations[AL_STORE_SCHEMA_VERSION] = {
	migrate_0_to_1,
	migrate_1_to_2,
	migrate_2_to_3,
};

/* What the code of this version reads and writes: checked after opening. */
static const char schema_probe[] =
	"SELECT id, schema, source, saved_at, started_at, label, hostname, kernel_release,"
	" kernel_version, preempt, backend, load, rate_hz, period_frames, buffer_periods,"
	" duration_ns, periods, xruns, wake_max_ns, wake_p99_ns, max_interval_pct,"
	" within_1ms_pct, within_2ms_pct, digest, document, uuid FROM results LIMIT 0";

int
al__store_err(struct al_store *s, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(s->err, sizeof(s->err), fmt, ap);
	va_end(ap);
	return code;
}

int
al__store_fail(struct al_store *s, int sqlite_rc, const char *what)
{
	const char *msg = s->db ? sqlite3_errmsg(s->db) : sqlite3_errstr(sqlite_rc);
	int sys_errno;

	switch (sqlite_rc & 0xff) {
	case SQLITE_NOTADB:
		return al__store_err(s, -EBADMSG, "not an SQLite database (SQLite: %s)", msg);
	case SQLITE_CORRUPT:
		return al__store_err(s, -EBADMSG, "the database file is damaged (%s: SQLite: %s)",
				     what, msg);
	case SQLITE_BUSY:
	case SQLITE_LOCKED:
		return al__store_err(s, -EBUSY,
				     "%s: still locked by another process after %d s (SQLite: %s)",
				     what, AL_STORE_BUSY_TIMEOUT_MS / 1000, msg);
	case SQLITE_READONLY:
	case SQLITE_PERM:
	case SQLITE_AUTH:
		return al__store_err(s, -EACCES, "%s: %s", what, msg);
	case SQLITE_CANTOPEN:
		sys_errno = s->db ? sqlite3_system_errno(s->db) : 0;
		if (sys_errno)
			return al__store_err(s, -sys_errno, "%s: %s", what, strerror(sys_errno));
		return al__store_err(s, -EACCES, "%s: %s", what, msg);
	case SQLITE_FULL:
		return al__store_err(s, -ENOSPC, "%s: %s", what, msg);
	case SQLITE_NOMEM:
		return al__store_err(s, -ENOMEM, "%s: %s", what, msg);
	case SQLITE_TOOBIG:
		return al__store_err(s, -EFBIG, "%s: %s", what, msg);
	default:
		return al__store_err(s, -EIO, "%s: %s", what, msg);
	}
}

void
al__store_digest(const void *data, size_t len, char out[17])
{
	const unsigned char *p = data;
	uint64_t h = 0xcbf29ce484222325ULL;
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	snprintf(out, 17, "%016llx", (unsigned long long)h);
}

static void
sql_digest(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	char hex[17];

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	/* the text's bytes, as bound by al_store_save() */
	al__store_digest(sqlite3_value_text(argv[0]), (size_t)sqlite3_value_bytes(argv[0]), hex);
	sqlite3_result_text(ctx, hex, -1, SQLITE_TRANSIENT);
}

static void
sql_uuid(sqlite3_context *ctx, int argc, sqlite3_value **argv)
{
	char uuid[AL_UUID_LEN + 1];

	(void)argc;
	if (sqlite3_value_type(argv[0]) == SQLITE_NULL) {
		sqlite3_result_null(ctx);
		return;
	}
	al_uuid_of_bytes(sqlite3_value_text(argv[0]), (size_t)sqlite3_value_bytes(argv[0]), uuid);
	sqlite3_result_text(ctx, uuid, -1, SQLITE_TRANSIENT);
}

int
al__store_exec(struct al_store *s, const char *sql)
{
	return sqlite3_exec(s->db, sql, NULL, NULL, NULL);
}

int
al_store_default_path(char *buf, size_t size)
{
	const char *xdg = getenv("XDG_DATA_HOME"), *home = getenv("HOME");
	struct passwd *pw;
	int n;

	/* the XDG spec: a relative XDG_DATA_HOME is invalid and ignored */
	if (xdg && xdg[0] == '/') {
		n = snprintf(buf, size, "%s/audiolat/results.db", xdg);
	} else {
		if (!home || home[0] != '/') {
			pw = getpwuid(getuid());
			home = pw ? pw->pw_dir : NULL;
		}
		if (!home || home[0] != '/')
			return -ENOENT;
		n = snprintf(buf, size, "%s/.local/share/audiolat/results.db", home);
	}
	if (n < 0 || (size_t)n >= size)
		return -ENAMETOOLONG;
	return 0;
}

/* mkdir -p of the directory part of path (mode 0700, as XDG asks). */
static int
make_parents(const char *path)
{
	char dir[PATH_MAX];
	size_t i, len;

	len = strlen(path);
	if (len >= sizeof(dir))
		return -ENAMETOOLONG;
	memcpy(dir, path, len + 1);
	while (len && dir[len - 1] != '/')
		len--;
	if (!len)
		return 0;
	dir[len] = '\0';
	for (i = 1; i <= len; i++) {
		if (dir[i] != '/' && dir[i] != '\0')
			continue;
		dir[i] = '\0';
		if (mkdir(dir, 0700) && errno != EEXIST)
			return -errno;
		if (i < len)
			dir[i] = '/';
	}
	return 0;
}

struct header {
	int64_t application_id;
	int64_t user_version;
	int64_t objects;   /* tables, indexes, views, triggers */
};

/*
 * One statement, so one snapshot: read apart, another process creating
 * the schema between the reads would make a half-made file look foreign.
 */
static int
read_header(struct al_store *s, struct header *h)
{
	sqlite3_stmt *st;
	int rc;

	rc = sqlite3_prepare_v2(s->db,
				"SELECT (SELECT application_id FROM pragma_application_id),"
				" (SELECT user_version FROM pragma_user_version),"
				" (SELECT count(*) FROM sqlite_master)",
				-1, &st, NULL);
	if (rc == SQLITE_OK) {
		rc = sqlite3_step(st);
		if (rc == SQLITE_ROW) {
			h->application_id = sqlite3_column_int64(st, 0);
			h->user_version = sqlite3_column_int64(st, 1);
			h->objects = sqlite3_column_int64(st, 2);
			rc = SQLITE_OK;
		}
	}
	sqlite3_finalize(st);
	if (rc != SQLITE_OK)
		return al__store_fail(s, rc, "reading the database header");
	return 0;
}

/* Is this ours, new, or something else? 1: empty (create), 0: ours, -errno. */
static int
classify(struct al_store *s, const struct header *h)
{
	if (h->application_id == 0 && h->user_version == 0 && h->objects == 0)
		return 1;
	if (h->application_id != AL_STORE_APPLICATION_ID)
		return al__store_err(s, -EMEDIUMTYPE,
				     "an SQLite database, but not an audiolat results database "
				     "(application_id %lld, user_version %lld, %lld schema objects)",
				     (long long)h->application_id, (long long)h->user_version,
				     (long long)h->objects);
	if (h->user_version > AL_STORE_SCHEMA_VERSION)
		return al__store_err(s, -EPROTONOSUPPORT,
				     "written by a newer audiolat (schema version %lld; this "
				     "audiolat reads up to %d)",
				     (long long)h->user_version, AL_STORE_SCHEMA_VERSION);
	if (h->user_version < 1)
		return al__store_err(s, -EBADMSG,
				     "an audiolat results database without a schema version "
				     "(user_version 0, %lld schema objects): damaged",
				     (long long)h->objects);
	return 0;
}

/* Bring the schema to AL_STORE_SCHEMA_VERSION, in one transaction. */
static int
migrate(struct al_store *s)
{
	struct header h;
	char sql[64], what[96];
	int rc, ret;
	int64_t v;

	rc = al__store_exec(s, "BEGIN IMMEDIATE");
	if (rc != SQLITE_OK)
		return al__store_fail(s, rc, "locking the database to set up its schema");
	/* another process may have done it while we waited for the lock */
	ret = read_header(s, &h);
	if (!ret)
		ret = classify(s, &h);
	if (ret < 0)
		goto rollback;
	for (v = h.user_version; v < AL_STORE_SCHEMA_VERSION; v++) {
		snprintf(what, sizeof(what), "migrating schema version %lld to %lld", (long long)v,
			 (long long)v + 1);
		rc = al__store_exec(s, migrations[v]);
		if (rc == SQLITE_OK) {
			snprintf(sql, sizeof(sql), "PRAGMA user_version = %lld", (long long)v + 1);
			rc = al__store_exec(s, sql);
		}
		if (rc != SQLITE_OK) {
			ret = al__store_fail(s, rc, what);
			goto rollback;
		}
	}
	rc = al__store_exec(s, "COMMIT");
	if (rc != SQLITE_OK) {
		ret = al__store_fail(s, rc, "committing the schema");
		goto rollback;
	}
	return 0;
rollback:
	al__store_exec(s, "ROLLBACK");
	return ret;
}

static int
set_wal(struct al_store *s)
{
	int64_t deadline_ns;
	sqlite3_stmt *st;
	int rc;

	if (sqlite3_db_readonly(s->db, "main") == 1)
		return 0; /* readers of a read-only file get what is there */
	/*
	 * Changing the journal mode needs the file to itself, and SQLite
	 * answers SQLITE_BUSY at once, without its busy handler, while another
	 * process opens the same new file: retry until the busy timeout.
	 */
	deadline_ns = al_clock_now_ns() + (int64_t)AL_STORE_BUSY_TIMEOUT_MS * AL_NS_PER_MS;
	for (;;) {
		rc = sqlite3_prepare_v2(s->db, "PRAGMA journal_mode = WAL", -1, &st, NULL);
		if (rc == SQLITE_OK) {
			rc = sqlite3_step(st);
			sqlite3_finalize(st);
		}
		if ((rc & 0xff) != SQLITE_BUSY || al_clock_now_ns() >= deadline_ns)
			break;
		al_clock_sleep_until_ns(al_clock_now_ns() + 2 * AL_NS_PER_MS);
	}
	if (rc != SQLITE_ROW && rc != SQLITE_DONE)
		return al__store_fail(s, rc, "switching to WAL mode");
	rc = al__store_exec(s, "PRAGMA synchronous = NORMAL");
	if (rc != SQLITE_OK)
		return al__store_fail(s, rc, "setting synchronous mode");
	return 0;
}

static int
setup(struct al_store *s)
{
	struct header h;
	sqlite3_stmt *st;
	int rc, ret;

	ret = read_header(s, &h);
	if (ret)
		return ret;
	ret = classify(s, &h);
	if (ret < 0)
		return ret; /* a foreign file is never touched */
	ret = set_wal(s);
	if (ret)
		return ret;
	if (h.user_version < AL_STORE_SCHEMA_VERSION) {
		ret = migrate(s);
		if (ret)
			return ret;
	}
	rc = sqlite3_prepare_v2(s->db, schema_probe, -1, &st, NULL);
	sqlite3_finalize(st);
	if (rc == SQLITE_ERROR)
		return al__store_err(s, -EBADMSG,
				     "an audiolat results database (schema version %d) with "
				     "its results table missing or incomplete: %s",
				     AL_STORE_SCHEMA_VERSION, sqlite3_errmsg(s->db));
	if (rc != SQLITE_OK)
		return al__store_fail(s, rc, "checking the schema");
	return 0;
}

int
al_store_open(const char *path, unsigned flags, struct al_store **out, char *err,
	      size_t err_size)
{
	struct al_store *s;
	struct stat sb;
	int rc, ret;

	*out = NULL;
	if (err_size)
		err[0] = '\0';
	if (!path || !path[0]) {
		snprintf(err, err_size, "no database path");
		return -EINVAL;
	}
	if (al_url_is_postgres(path)) {
		s = calloc(1, sizeof(*s));
		if (!s) {
			snprintf(err, err_size, "%s", strerror(ENOMEM));
			return -ENOMEM;
		}
		ret = al__pg_open(s, path, flags);
		if (ret) {
			snprintf(err, err_size, "%s", s->err);
			al_store_close(s);
			return ret;
		}
		s->err[0] = '\0';
		*out = s;
		return 0;
	}
	if (stat(path, &sb) == 0) {
		if (S_ISDIR(sb.st_mode)) {
			snprintf(err, err_size, "is a directory");
			return -EISDIR;
		}
	} else if (errno == ENOENT) {
		if (flags & AL_STORE_NOCREATE) {
			snprintf(err, err_size, "no such file");
			return -ENOENT;
		}
		if (flags & AL_STORE_MKDIR) {
			ret = make_parents(path);
			if (ret) {
				snprintf(err, err_size, "creating its directory: %s", strerror(-ret));
				return ret;
			}
		}
	} else {
		ret = -errno;
		snprintf(err, err_size, "%s", strerror(errno));
		return ret;
	}

	s = calloc(1, sizeof(*s));
	if (!s) {
		snprintf(err, err_size, "%s", strerror(ENOMEM));
		return -ENOMEM;
	}
	rc = sqlite3_open_v2(path, &s->db,
			     SQLITE_OPEN_READWRITE |
				     ((flags & AL_STORE_NOCREATE) ? 0 : SQLITE_OPEN_CREATE),
			     NULL);
	if (rc != SQLITE_OK) {
		ret = al__store_fail(s, rc, "opening");
		goto fail;
	}
	sqlite3_extended_result_codes(s->db, 1);
	sqlite3_busy_timeout(s->db, AL_STORE_BUSY_TIMEOUT_MS);
	rc = sqlite3_create_function(s->db, "al_digest", 1, SQLITE_UTF8 | SQLITE_DETERMINISTIC,
				     NULL, sql_digest, NULL, NULL);
	if (rc == SQLITE_OK)
		rc = sqlite3_create_function(s->db, "al_uuid", 1,
					     SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, sql_uuid,
					     NULL, NULL);
	if (rc != SQLITE_OK) {
		ret = al__store_fail(s, rc, "registering functions");
		goto fail;
	}
	ret = setup(s);
	if (ret)
		goto fail;
	s->err[0] = '\0';
	*out = s;
	return 0;
fail:
	snprintf(err, err_size, "%s", s->err);
	al_store_close(s);
	return ret;
}

void
al_store_close(struct al_store *s)
{
	if (!s)
		return;
	if (s->pg)
		al__pg_close(s);
	sqlite3_close_v2(s->db);
	free(s);
}

const char *
al_store_engine(const struct al_store *s)
{
	return s && s->pg ? "postgresql" : "sqlite";
}

const char *
al_store_error(const struct al_store *s)
{
	return s ? s->err : "";
}

const struct al_lib_version al_store_libs[] = {
	{ "SQLite", sqlite3_libversion },
#ifdef HAVE_LIBPQ
	{ "libpq", al__pg_lib_version },
#endif
	{ NULL, NULL },
};
