/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PostgreSQL engine of the results database (libpq): the same table
 * and columns as the SQLite file, the schema version in a table of its
 * own (audiolat_schema: PostgreSQL has no user_version), migrations under
 * an advisory lock, named prepared statements for the fixed queries and
 * parameters (never text pasted into SQL) for the listing's filters, one
 * transaction per saved result. Nothing here prints: libpq's notices go
 * to a processor that drops them, and every message is scrubbed of the
 * password before it reaches s->err. This file connects, migrates and
 * turns failures into -errno; store-pg-rows.c saves, reads and lists.
 */
#define AL_STORE_PRIVATE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "store-pg-private.h"

const char *
al__pg_lib_version(void)
{
	static char v[24];
	int n = PQlibVersion(); /* 150005: 15.5 (10 and later) */

	snprintf(v, sizeof(v), "%d.%d", n / 10000, n % 10000);
	return v;
}

/* the lock migrations take: the application id */
#define PG_LOCK_KEY "1095516500"
/* libpq waits for ever on a host that drops packets: unless the URL says */
#define PG_CONNECT_TIMEOUT_S "10"

/*
 * The migrations, in order, as in store.c for SQLite: pg_migrations[v]
 * takes the database from version v to v + 1, in the transaction that
 * sets audiolat_schema.version. They make the same table as the SQLite
 * steps (PostgreSQL types: bigint, double precision, an identity id that
 * is never reused). PostgreSQL came at version 3, so steps 0 -> 1 and
 * 1 -> 2 only ever run on an empty database (the digest of rows that
 * step 1 -> 2 would fill is the C function's, not SQL's: left NULL).
 */
static const char pg_migrate_0_to_1[] =
	"CREATE TABLE audiolat_schema (application_id bigint NOT NULL,"
	" version integer NOT NULL);\n"
	"INSERT INTO audiolat_schema VALUES (" PG_LOCK_KEY ", 0);\n"
	"CREATE TABLE runs (\n"
	"	id bigint GENERATED ALWAYS AS IDENTITY PRIMARY KEY,\n"
	"	saved_at text NOT NULL,\n"
	"	started_at text,\n"
	"	label text,\n"
	"	hostname text,\n"
	"	kernel_release text,\n"
	"	preempt text,\n"
	"	backend text,\n"
	"	rate_hz bigint,\n"
	"	period_frames bigint,\n"
	"	buffer_periods bigint,\n"
	"	periods bigint,\n"
	"	xruns bigint,\n"
	"	wake_max_ns bigint,\n"
	"	wake_p99_ns bigint,\n"
	"	max_interval_pct double precision,\n"
	"	within_1ms_pct double precision,\n"
	"	within_2ms_pct double precision,\n"
	"	document text NOT NULL\n"
	");\n"
	"CREATE INDEX runs_kernel ON runs(kernel_release);\n";

static const char pg_migrate_1_to_2[] =
	"ALTER TABLE runs RENAME TO results;\n"
	"ALTER TABLE results ADD COLUMN schema text NOT NULL DEFAULT 'audiolat.run/1',\n"
	"	ADD COLUMN source text NOT NULL DEFAULT 'run',\n"
	"	ADD COLUMN kernel_version text,\n"
	"	ADD COLUMN load text,\n"
	"	ADD COLUMN duration_ns bigint,\n"
	"	ADD COLUMN digest text;\n"
	"UPDATE results SET\n"
	"	schema = coalesce(document::jsonb->>'schema', schema),\n"
	"	kernel_version = document::jsonb#>>'{system,kernel_version}',\n"
	"	load = document::jsonb#>>'{config,load}',\n"
	"	duration_ns = (document::jsonb->>'duration_ns')::bigint;\n"
	"DROP INDEX runs_kernel;\n"
	"CREATE INDEX results_kernel ON results(kernel_release);\n"
	"CREATE INDEX results_label ON results(label);\n"
	"CREATE INDEX results_digest ON results(digest);\n";

static const char pg_migrate_2_to_3[] =
	"ALTER TABLE results ADD COLUMN uuid text;\n"
	"UPDATE results SET uuid = lower(document::jsonb->>'uuid');\n"
	"CREATE UNIQUE INDEX results_uuid ON results(uuid, digest);\n"
	"CREATE INDEX results_host ON results(hostname);\n";

static const char *const pg_migrations[AL_STORE_SCHEMA_VERSION] = {
	pg_migrate_0_to_1,
	pg_migrate_1_to_2,
	pg_migrate_2_to_3,
};

static const char pg_probe[] = "SELECT " AL__LIST_COLUMNS ", digest, document FROM results LIMIT 0";

/* the named prepared statements */
static const char pg_insert[] =
	"INSERT INTO results (schema, source, saved_at, started_at, label, hostname,"
	" kernel_release, kernel_version, preempt, backend, load, rate_hz, period_frames,"
	" buffer_periods, duration_ns, periods, xruns, wake_max_ns, wake_p99_ns,"
	" max_interval_pct, within_1ms_pct, within_2ms_pct, digest, document, uuid)"
	" VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12::bigint, $13::bigint,"
	" $14::bigint, $15::bigint, $16::bigint, $17::bigint, $18::bigint, $19::bigint,"
	" $20::double precision, $21::double precision, $22::double precision, $23, $24, $25)"
	" ON CONFLICT (uuid, digest) DO NOTHING RETURNING id";
static const char pg_find[] =
	"SELECT id FROM results WHERE uuid = $1 AND digest = $2 AND document = $3";
static const char pg_get[] = "SELECT document FROM results WHERE id = $1::bigint";

static void
drop_notice(void *arg, const char *message)
{
	(void)arg;
	(void)message; /* the library never prints */
}

/* Replace every copy of pw in s->err by "***". */
static void
scrub_one(struct al_store *s, const char *pw)
{
	char out[sizeof(s->err)], *hit;
	const char *p = s->err;
	size_t o = 0, pl;

	if (!pw || (pl = strlen(pw)) == 0)
		return;
	while ((hit = strstr(p, pw)) && o + (size_t)(hit - p) + 4 < sizeof(out)) {
		memcpy(out + o, p, (size_t)(hit - p));
		o += (size_t)(hit - p);
		memcpy(out + o, "***", 3);
		o += 3;
		p = hit + pl;
	}
	snprintf(out + o, sizeof(out) - o, "%s", p);
	memcpy(s->err, out, sizeof(out));
}

/* The password out of s->err: as the URL has it, decoded, and any URL's. */
static void
scrub(struct al_store *s)
{
	if (s->pg) {
		scrub_one(s, s->pg->password[0]);
		scrub_one(s, s->pg->password[1]);
	}
	al_url_redact(s->err, s->err, sizeof(s->err));
}

/* The password as written in the URL (between "USER:" and "@"), or NULL. */
static char *
raw_password(const char *url)
{
	const char *a = strstr(url, "://"), *end, *at = NULL, *colon = NULL, *p;

	if (!a)
		return NULL;
	a += 3;
	end = a + strcspn(a, "/?#");
	for (p = a; p < end; p++)
		if (*p == '@')
			at = p;
	for (p = a; at && p < at; p++)
		if (*p == ':') {
			colon = p;
			break;
		}
	if (!colon || at - colon < 2)
		return NULL;
	return strndup(colon + 1, (size_t)(at - colon - 1));
}

/* libpq's message, its lines joined, without the trailing newline */
static void
one_line(const char *msg, char *out, size_t size)
{
	size_t o = 0;

	for (; msg && *msg && o + 1 < size; msg++) {
		if (*msg == '\n') {
			if (!msg[1])
				break;
			if (o + 3 < size) {
				out[o++] = ';';
				out[o++] = ' ';
			}
			while (msg[1] == '\t' || msg[1] == ' ')
				msg++;
			continue;
		}
		out[o++] = *msg == '\t' ? ' ' : *msg;
	}
	out[o] = '\0';
}

/* A failed result (or a lost connection) as -errno and one line in s->err. */
int
al__pg_fail(struct al_store *s, PGresult *res, const char *what)
{
	const char *state = res ? PQresultErrorField(res, PG_DIAG_SQLSTATE) : NULL;
	const char *msg = res ? PQresultErrorMessage(res) : "";
	char line[256];
	int code = -EIO;

	if (!msg || !msg[0])
		msg = PQerrorMessage(s->pg->conn);
	one_line(msg, line, sizeof(line));
	/*
	 * The server going away is not always CONNECTION_BAD yet: a shutdown's
	 * FATAL (57P01 admin, 57P02 crash, 57P03 cannot connect now), a
	 * connection exception (class 08), or an error of libpq's own (no
	 * SQLSTATE: "server closed the connection unexpectedly" on a write)
	 * whose connection then fails to read is the connection lost too.
	 */
	if (PQstatus(s->pg->conn) == CONNECTION_BAD ||
	    (state && (!strncmp(state, "08", 2) || !strcmp(state, "57P01") ||
		       !strcmp(state, "57P02") || !strcmp(state, "57P03"))) ||
	    (!state && (!PQconsumeInput(s->pg->conn) || PQstatus(s->pg->conn) == CONNECTION_BAD))) {
		al__store_err(s, -ECONNRESET, "%s: the connection to %s was lost (%s)", what,
			      s->pg->where, line);
		scrub(s);
		return -ECONNRESET;
	}
	if (state) {
		if (!strcmp(state, "42501"))
			code = -EACCES; /* insufficient privilege */
		else if (!strcmp(state, "23505"))
			code = -EEXIST;
		else if (!strcmp(state, "40001") || !strcmp(state, "40P01") ||
			 !strcmp(state, "55P03"))
			code = -EBUSY;
		else if (!strcmp(state, "42P01") || !strcmp(state, "42703"))
			code = -EBADMSG; /* a table or column missing */
		else if (!strncmp(state, "53", 2))
			code = -ENOSPC; /* insufficient resources */
	}
	al__store_err(s, code, "%s: PostgreSQL: %s", what, line);
	scrub(s);
	return code;
}

/* Run sql (no parameters, no rows wanted); 0 or al__pg_fail(). */
int
al__pg_exec(struct al_store *s, const char *sql, const char *what)
{
	PGresult *res = PQexec(s->pg->conn, sql);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK && PQresultStatus(res) != PGRES_TUPLES_OK)
		ret = al__pg_fail(s, res, what);
	PQclear(res);
	return ret;
}

/* "host:port", "socket directory DIR" or "the default socket" */
static void
describe(PQconninfoOption *opts, char *out, size_t size)
{
	const char *host = NULL, *port = NULL, *addr = NULL;
	PQconninfoOption *o;

	for (o = opts; o && o->keyword; o++) {
		if (!strcmp(o->keyword, "host") && o->val && o->val[0])
			host = o->val;
		else if (!strcmp(o->keyword, "hostaddr") && o->val && o->val[0])
			addr = o->val;
		else if (!strcmp(o->keyword, "port") && o->val && o->val[0])
			port = o->val;
	}
	if (!host)
		host = addr;
	if (host && host[0] == '/')
		snprintf(out, size, "socket directory %s%s%s", host, port ? " port " : "",
			 port ? port : "");
	else if (host)
		snprintf(out, size, "%s%s%s", host, port ? ":" : "", port ? port : "");
	else
		snprintf(out, size, "the default socket%s%s", port ? " port " : "",
			 port ? port : "");
}

/*
 * The version of the audiolat schema in the database: 0 (none, and no
 * table of ours would be overwritten), a version, or -errno.
 */
static int
schema_version(struct al_store *s, int64_t *version)
{
	PGresult *res;
	int ret = 0;
	bool have_meta, have_results, have_runs;
	int64_t app;

	*version = 0;
	res = PQexec(s->pg->conn,
		     "SELECT to_regclass('audiolat_schema') IS NOT NULL,"
		     " to_regclass('results') IS NOT NULL, to_regclass('runs') IS NOT NULL");
	if (PQresultStatus(res) != PGRES_TUPLES_OK || PQntuples(res) != 1) {
		ret = al__pg_fail(s, res, "reading the schema");
		PQclear(res);
		return ret;
	}
	have_meta = PQgetvalue(res, 0, 0)[0] == 't';
	have_results = PQgetvalue(res, 0, 1)[0] == 't';
	have_runs = PQgetvalue(res, 0, 2)[0] == 't';
	PQclear(res);
	if (!have_meta) {
		if (have_results || have_runs)
			return al__store_err(s, -EMEDIUMTYPE,
					     "a PostgreSQL database with a %s table that is not "
					     "audiolat's (no audiolat_schema table)",
					     have_results ? "results" : "runs");
		return 0;
	}
	res = PQexec(s->pg->conn, "SELECT application_id, version FROM audiolat_schema");
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = al__pg_fail(s, res, "reading the schema version");
		PQclear(res);
		return ret;
	}
	if (PQntuples(res) != 1) {
		int rows = PQntuples(res);

		PQclear(res);
		return al__store_err(s, -EBADMSG,
				     "the audiolat_schema table has %d rows, not 1: damaged", rows);
	}
	app = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	*version = strtoll(PQgetvalue(res, 0, 1), NULL, 10);
	PQclear(res);
	if (app != AL_STORE_APPLICATION_ID)
		return al__store_err(s, -EMEDIUMTYPE,
				     "a PostgreSQL database, but not an audiolat results database "
				     "(application_id %lld)",
				     (long long)app);
	if (*version > AL_STORE_SCHEMA_VERSION)
		return al__store_err(s, -EPROTONOSUPPORT,
				     "written by a newer audiolat (schema version %lld; this "
				     "audiolat reads up to %d)",
				     (long long)*version, AL_STORE_SCHEMA_VERSION);
	if (*version < 1 && have_results)
		return al__store_err(s, -EBADMSG,
				     "an audiolat results database at schema version 0 with a "
				     "results table: damaged");
	return 0;
}

/* Bring the schema to AL_STORE_SCHEMA_VERSION in one transaction, under the lock. */
static int
pg_migrate(struct al_store *s)
{
	char sql[96], what[96];
	int64_t v;
	int ret;

	ret = al__pg_exec(s, "BEGIN", "starting the schema's transaction");
	if (ret)
		return ret;
	ret = al__pg_exec(s, "SELECT pg_advisory_xact_lock(" PG_LOCK_KEY ")",
		      "locking the database to set up its schema");
	/* another process may have done it while we waited for the lock */
	if (!ret)
		ret = schema_version(s, &v);
	for (; !ret && v < AL_STORE_SCHEMA_VERSION; v++) {
		snprintf(what, sizeof(what), "migrating schema version %lld to %lld",
			 (long long)v, (long long)v + 1);
		ret = al__pg_exec(s, pg_migrations[v], what);
		snprintf(sql, sizeof(sql), "UPDATE audiolat_schema SET version = %lld",
			 (long long)v + 1);
		if (!ret)
			ret = al__pg_exec(s, sql, what);
	}
	if (!ret)
		ret = al__pg_exec(s, "COMMIT", "committing the schema");
	if (ret) {
		PQclear(PQexec(s->pg->conn, "ROLLBACK"));
		if (ret == -EACCES) {
			/* a role with INSERT and SELECT only: say who must do it */
			char why[sizeof(s->err)];

			snprintf(why, sizeof(why), "%s", s->err);
			al__store_err(s, -EACCES,
				      "the audiolat schema (version %d) must be created or "
				      "migrated by the database's owner first (%s)",
				      AL_STORE_SCHEMA_VERSION, why);
		}
	}
	return ret;
}

static int
pg_prepare(struct al_store *s, const char *name, const char *sql, int n)
{
	PGresult *res = PQprepare(s->pg->conn, name, sql, n, NULL);
	int ret = 0;

	if (PQresultStatus(res) != PGRES_COMMAND_OK)
		ret = al__pg_fail(s, res, "preparing the statements");
	PQclear(res);
	return ret;
}

int
al__pg_open(struct al_store *s, const char *url, unsigned flags)
{
	const char *keys[4] = { "dbname", NULL, NULL, NULL }, *vals[4] = { url, NULL, NULL, NULL };
	PQconninfoOption *opts, *o;
	char *perr = NULL, line[256];
	bool has_timeout = false, has_app = false;
	PGresult *res;
	int64_t v;
	int n = 1, ret;

	s->pg = calloc(1, sizeof(*s->pg));
	if (!s->pg)
		return al__store_err(s, -ENOMEM, "%s", strerror(ENOMEM));
	s->pg->password[0] = raw_password(url);
	opts = PQconninfoParse(url, &perr);
	if (!opts) {
		/* libpq quotes the token it could not read: it may be the password */
		one_line(perr ? perr : "out of memory", line, sizeof(line));
		PQfreemem(perr);
		al__store_err(s, -ENXIO, "not a PostgreSQL URL libpq accepts: %s", line);
		scrub(s);
		return -ENXIO;
	}
	for (o = opts; o->keyword; o++) {
		if (!strcmp(o->keyword, "password") && o->val && o->val[0])
			s->pg->password[1] = strdup(o->val);
		else if (!strcmp(o->keyword, "connect_timeout") && o->val && o->val[0])
			has_timeout = true;
		else if (!strcmp(o->keyword, "application_name") && o->val && o->val[0])
			has_app = true;
	}
	describe(opts, s->pg->where, sizeof(s->pg->where));
	PQconninfoFree(opts);
	/* later keywords override the URL's: only add what it does not say */
	if (!has_timeout) {
		keys[n] = "connect_timeout";
		vals[n++] = PG_CONNECT_TIMEOUT_S;
	}
	if (!has_app) {
		keys[n] = "application_name";
		vals[n++] = "audiolat";
	}
	s->pg->conn = PQconnectdbParams(keys, vals, 1);
	if (!s->pg->conn)
		return al__store_err(s, -ENOMEM, "%s", strerror(ENOMEM));
	PQsetNoticeProcessor(s->pg->conn, drop_notice, NULL);
	if (PQstatus(s->pg->conn) != CONNECTION_OK) {
		const char *msg = PQerrorMessage(s->pg->conn);

		one_line(msg, line, sizeof(line));
		if (PQconnectionNeedsPassword(s->pg->conn) || strstr(msg, "authentication") ||
		    strstr(msg, "password") || strstr(msg, "permission denied") ||
		    (strstr(msg, "role \"") && strstr(msg, "does not exist")))
			ret = -EACCES;
		else if (strstr(msg, "database \"") && strstr(msg, "does not exist"))
			ret = -ENOENT;
		else
			ret = -ECONNREFUSED;
		al__store_err(s, ret, "cannot connect to the PostgreSQL server at %s: %s",
			      s->pg->where, line);
		scrub(s);
		return ret;
	}
	/* the columns are text in UTF-8, times in UTC, whatever the server's defaults */
	ret = al__pg_exec(s, "SET client_encoding = 'UTF8'", "setting the client encoding");
	if (ret)
		return ret;
	ret = schema_version(s, &v);
	if (ret)
		return ret;
	if (v == 0 && (flags & AL_STORE_NOCREATE))
		return al__store_err(s, -ENOENT, "no audiolat results in this database yet "
						 "(no audiolat_schema table)");
	if (v < AL_STORE_SCHEMA_VERSION) {
		ret = pg_migrate(s);
		if (ret)
			return ret;
	}
	res = PQexec(s->pg->conn, pg_probe);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = al__pg_fail(s, res, "checking the schema");
		PQclear(res);
		if (ret == -EBADMSG)
			return al__store_err(s, -EBADMSG,
					     "an audiolat results database (schema version %d) "
					     "with its results table missing or incomplete",
					     AL_STORE_SCHEMA_VERSION);
		return ret;
	}
	PQclear(res);
	ret = pg_prepare(s, "al_insert", pg_insert, 25);
	if (!ret)
		ret = pg_prepare(s, "al_find", pg_find, 3);
	if (!ret)
		ret = pg_prepare(s, "al_get", pg_get, 1);
	return ret;
}

void
al__pg_close(struct al_store *s)
{
	if (!s->pg)
		return;
	if (s->pg->conn)
		PQfinish(s->pg->conn);
	for (int i = 0; i < 2; i++) {
		if (s->pg->password[i]) {
			explicit_bzero(s->pg->password[i], strlen(s->pg->password[i]));
			free(s->pg->password[i]);
		}
	}
	free(s->pg);
	s->pg = NULL;
}
