/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Documents in and out of the results database. */
#define AL_STORE_PRIVATE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>
#include <sqlite3.h>

#include "core/clock.h"
#include "core/result.h"
#include "doc/doc.h"
#include "store-private.h"

/* run/2 is written; run/1 (per wake-up statistics) is still read */
static bool
run_schema(const char *s)
{
	return !strcmp(s, AL_SCHEMA_RUN) || !strcmp(s, AL_SCHEMA_RUN_V1);
}


static const char *
get_str(json_t *root, const char *path)
{
	return json_string_value(al_doc_get(root, path)); /* NULL unless a string */
}

static json_t *
get_int(json_t *root, const char *path)
{
	json_t *j = al_doc_get(root, path);

	return json_is_integer(j) ? j : NULL;
}

static json_t *
get_num(json_t *root, const char *path)
{
	json_t *j = al_doc_get(root, path);

	return json_is_number(j) ? j : NULL;
}

/* "audiolat.<kind>/<version>": kind [a-z0-9_-]+, version digits. */
static bool
schema_ok(const char *s)
{
	const char *p;

	if (strncmp(s, "audiolat.", 9))
		return false;
	for (p = s + 9; (*p >= 'a' && *p <= 'z') || (*p >= '0' && *p <= '9') || *p == '_' ||
			*p == '-';
	     p++)
		;
	if (p == s + 9 || *p != '/')
		return false;
	if (!(*++p >= '1' && *p <= '9'))
		return false;
	while (*p >= '0' && *p <= '9')
		p++;
	return *p == '\0' && strlen(s) < 64;
}

/* a figure that was not measured is null (the _NULL kinds take it) */
enum need { NEED_OBJ, NEED_STR, NEED_INT, NEED_NUM, NEED_INT_NULL, NEED_NUM_NULL, NEED_STR_NULL,
	    NEED_OBJ_NULL };

static const struct {
	const char *path;
	enum need need;
} run_required[] = {
	/* an imported run (docs/interchange.md) may lack these: null */
	{ "started_at", NEED_STR_NULL },
	{ "config", NEED_OBJ },
	{ "config.backend", NEED_STR_NULL },
	{ "system", NEED_OBJ },
	{ "total", NEED_OBJ },
	{ "total.periods", NEED_INT_NULL },
	{ "total.xruns", NEED_INT_NULL },
	/* pw-profiler's measures no wake latency: null, its figures with it */
	{ "total.wake_latency_ns", NEED_OBJ_NULL },
	{ "total.wake_latency_ns.max", NEED_INT_NULL },
	{ "total.wake_latency_ns.p99", NEED_INT_NULL },
	{ "total.max_interval_pct_of_buffer", NEED_NUM_NULL },
	{ "total.within_1ms_pct", NEED_NUM_NULL },
	{ "total.within_2ms_pct", NEED_NUM_NULL },
};

static const char *const need_name[] = {
	[NEED_OBJ] = "an object",
	[NEED_STR] = "a string",
	[NEED_INT] = "an integer",
	[NEED_NUM] = "a number",
	[NEED_INT_NULL] = "an integer or null",
	[NEED_NUM_NULL] = "a number or null",
	[NEED_STR_NULL] = "a string or null",
	[NEED_OBJ_NULL] = "an object or null",
};

/* Is the object holding path's last key null (a block not measured: its figures are too)? */
static bool
parent_null(json_t *root, const char *path)
{
	const char *dot = strrchr(path, '.');
	char parent[64];

	if (!dot || (size_t)(dot - path) >= sizeof(parent))
		return false;
	memcpy(parent, path, (size_t)(dot - path));
	parent[dot - path] = '\0';
	return json_is_null(al_doc_get(root, parent));
}

static int
check_run(json_t *root, const char *schema, char *err, size_t err_size)
{
	size_t i;
	json_t *j;
	bool ok;

	for (i = 0; i < sizeof(run_required) / sizeof(run_required[0]); i++) {
		j = al_doc_get(root, run_required[i].path);
		switch (run_required[i].need) {
		case NEED_OBJ:
			ok = json_is_object(j);
			break;
		case NEED_STR:
			ok = json_is_string(j);
			break;
		case NEED_INT:
			ok = json_is_integer(j);
			break;
		case NEED_INT_NULL:
			ok = json_is_integer(j) || json_is_null(j);
			break;
		case NEED_NUM_NULL:
			ok = json_is_number(j) || json_is_null(j);
			break;
		case NEED_STR_NULL:
			ok = json_is_string(j) || json_is_null(j);
			break;
		case NEED_OBJ_NULL:
			ok = json_is_object(j) || json_is_null(j);
			break;
		default:
			ok = json_is_number(j);
			break;
		}
		if (!ok && !j && parent_null(root, run_required[i].path))
			continue;
		if (!ok && !j) {
			snprintf(err, err_size, "not a valid %s document: no %s (%s)", schema,
				 run_required[i].path, need_name[run_required[i].need]);
			return -EINVAL;
		}
		if (!ok) {
			snprintf(err, err_size, "not a valid %s document: %s is not %s", schema,
				 run_required[i].path, need_name[run_required[i].need]);
			return -EINVAL;
		}
	}
	return 0;
}

int
al__store_parse_doc(const char *text, size_t len, struct al__doc *c, char *err, size_t err_size)
{
	const char *uuid;
	size_t i;

	json_error_t jerr;
	json_t *root;
	int ret;

	memset(c, 0, sizeof(*c));
	if (err_size)
		err[0] = '\0';
	if (len > AL_STORE_DOC_MAX_BYTES) {
		snprintf(err, err_size, "too large: %zu bytes (at most %u)", len,
			 AL_STORE_DOC_MAX_BYTES);
		return -EFBIG;
	}
	root = json_loadb(text, len, 0, &jerr);
	if (!root) {
		snprintf(err, err_size, "%d:%d: invalid JSON: %s", jerr.line, jerr.column,
			 jerr.text);
		return -EINVAL;
	}
	if (!json_is_object(root)) {
		snprintf(err, err_size, "not an audiolat document: the JSON is not an object");
		goto bad;
	}
	c->schema = get_str(root, "schema");
	if (!c->schema) {
		snprintf(err, err_size, "not an audiolat document: no \"schema\" string");
		goto bad;
	}
	if (!schema_ok(c->schema)) {
		char shown[65];

		/* echo it on one line: control characters become '?' */
		for (i = 0; c->schema[i] && i < sizeof(shown) - 1; i++)
			shown[i] = (unsigned char)c->schema[i] < 0x20 || c->schema[i] == 0x7f ?
					   '?' : c->schema[i];
		shown[i] = '\0';
		snprintf(err, err_size,
			 "not an audiolat document: schema \"%s\" is not audiolat.KIND/VERSION",
			 shown);
		goto bad;
	}
	if (!strncmp(c->schema, "audiolat.run/", 13) && !run_schema(c->schema)) {
		snprintf(err, err_size, "%s is not a version this audiolat reads (%s, %s)",
			 c->schema, AL_SCHEMA_RUN, AL_SCHEMA_RUN_V1);
		goto bad;
	}
	if (run_schema(c->schema)) {
		ret = check_run(root, c->schema, err, err_size);
		if (ret)
			goto bad;
		c->has_stats = true;
		c->periods = get_int(root, "total.periods");
		c->xruns = get_int(root, "total.xruns");
		c->wake_max_ns = get_int(root, "total.wake_latency_ns.max");
		c->wake_p99_ns = get_int(root, "total.wake_latency_ns.p99");
		c->max_interval_pct = get_num(root, "total.max_interval_pct_of_buffer");
		c->within_1ms_pct = get_num(root, "total.within_1ms_pct");
		c->within_2ms_pct = get_num(root, "total.within_2ms_pct");
	}
	/* the rest where the document has it, whatever its kind */
	c->root = root;
	c->started_at = get_str(root, "started_at");
	c->label = get_str(root, "label");
	c->hostname = get_str(root, "system.hostname");
	c->kernel_release = get_str(root, "system.kernel_release");
	c->kernel_version = get_str(root, "system.kernel_version");
	c->preempt = get_str(root, "system.preempt");
	c->backend = get_str(root, "config.backend");
	c->load = get_str(root, "config.load");
	c->rate_hz = get_int(root, "config.rate");
	c->period_frames = get_int(root, "config.period_frames");
	c->buffer_periods = get_int(root, "config.periods");
	c->duration_ns = get_int(root, "duration_ns");
	/* known by its own UUID, or (written before audiolat gave them) by its bytes */
	uuid = get_str(root, "uuid");
	if (uuid && !al_uuid_valid(uuid)) {
		snprintf(err, err_size, "not a valid %s document: uuid is not a UUID", c->schema);
		c->root = NULL;
		goto bad;
	}
	if (uuid) {
		for (i = 0; i < AL_UUID_LEN; i++)
			c->uuid[i] = (char)(uuid[i] >= 'A' && uuid[i] <= 'F' ? uuid[i] + 32 : uuid[i]);
		c->uuid[AL_UUID_LEN] = '\0';
	} else {
		al_uuid_of_bytes(text, len, c->uuid);
	}
	al__store_digest(text, len, c->digest);
	return 0;
bad:
	json_decref(root);
	return -EINVAL;
}

int
al_store_check_document(const char *text, size_t len, char *err, size_t err_size)
{
	struct al__doc c;
	int ret;

	ret = al__store_parse_doc(text, len, &c, err, err_size);
	json_decref(c.root);
	return ret;
}

static int
bind_str(sqlite3_stmt *st, int i, const char *v)
{
	return v ? sqlite3_bind_text(st, i, v, -1, SQLITE_STATIC) : sqlite3_bind_null(st, i);
}

static int
bind_int(sqlite3_stmt *st, int i, json_t *v)
{
	return v ? sqlite3_bind_int64(st, i, json_integer_value(v)) : sqlite3_bind_null(st, i);
}

static int
bind_num(sqlite3_stmt *st, int i, json_t *v)
{
	return v ? sqlite3_bind_double(st, i, json_number_value(v)) : sqlite3_bind_null(st, i);
}

/* The id of a row with this UUID and exactly this text, 0 when none; SQLite code. */
static int
find_same(struct al_store *s, const char *text, size_t len, const struct al__doc *c,
	  int64_t *id)
{
	sqlite3_stmt *st;
	int rc;

	*id = 0;
	rc = sqlite3_prepare_v2(s->db,
				"SELECT id FROM results WHERE uuid = ?1 AND digest = ?2"
				" AND document = ?3 LIMIT 1",
				-1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_text(st, 1, c->uuid, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, c->digest, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, text, (int)len, SQLITE_STATIC);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		*id = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	return rc == SQLITE_ROW || rc == SQLITE_DONE ? SQLITE_OK : rc;
}

static const char insert_sql[] =
	"INSERT INTO results (schema, source, saved_at, started_at, label, hostname,"
	" kernel_release, kernel_version, preempt, backend, load, rate_hz, period_frames,"
	" buffer_periods, duration_ns, periods, xruns, wake_max_ns, wake_p99_ns,"
	" max_interval_pct, within_1ms_pct, within_2ms_pct, digest, document, uuid)"
	" VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,"
	" ?18, ?19, ?20, ?21, ?22, ?23, ?24, ?25)";

static int
insert(struct al_store *s, const struct al__doc *c, const char *source, const char *text,
       size_t len, int64_t *id)
{
	sqlite3_stmt *st;
	char saved_at[40];
	int rc;

	al_clock_format_iso(al_clock_realtime_ns(), saved_at, sizeof(saved_at));
	rc = sqlite3_prepare_v2(s->db, insert_sql, -1, &st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	bind_str(st, 1, c->schema);
	bind_str(st, 2, source ? source : "run");
	bind_str(st, 3, saved_at);
	bind_str(st, 4, c->started_at);
	bind_str(st, 5, c->label);
	bind_str(st, 6, c->hostname);
	bind_str(st, 7, c->kernel_release);
	bind_str(st, 8, c->kernel_version);
	bind_str(st, 9, c->preempt);
	bind_str(st, 10, c->backend);
	bind_str(st, 11, c->load);
	bind_int(st, 12, c->rate_hz);
	bind_int(st, 13, c->period_frames);
	bind_int(st, 14, c->buffer_periods);
	bind_int(st, 15, c->duration_ns);
	bind_int(st, 16, c->periods);
	bind_int(st, 17, c->xruns);
	bind_int(st, 18, c->wake_max_ns);
	bind_int(st, 19, c->wake_p99_ns);
	bind_num(st, 20, c->max_interval_pct);
	bind_num(st, 21, c->within_1ms_pct);
	bind_num(st, 22, c->within_2ms_pct);
	bind_str(st, 23, c->digest);
	bind_str(st, 25, c->uuid);
	rc = sqlite3_bind_text(st, 24, text, (int)len, SQLITE_STATIC);
	if (rc == SQLITE_OK)
		rc = sqlite3_step(st);
	sqlite3_finalize(st);
	if (rc != SQLITE_DONE)
		return rc;
	*id = sqlite3_last_insert_rowid(s->db);
	return SQLITE_OK;
}

/* IMMEDIATE: take the write lock now (waiting up to the busy timeout). 0 or -errno. */
static int
begin_save(struct al_store *s)
{
	int rc = al__store_exec(s, "BEGIN IMMEDIATE");

	return rc == SQLITE_OK ? 0 : al__store_fail(s, rc, "locking the database to save");
}

/* COMMIT when rc (what the transaction did so far) is SQLITE_OK, else ROLLBACK: 0 or -errno. */
static int
end_save(struct al_store *s, int rc)
{
	int ret;

	if (rc == SQLITE_OK)
		rc = al__store_exec(s, "COMMIT");
	if (rc != SQLITE_OK) {
		ret = al__store_fail(s, rc, "saving");
		al__store_exec(s, "ROLLBACK");
		return ret;
	}
	s->err[0] = '\0';
	return 0;
}

int
al_store_save(struct al_store *s, const char *text, size_t len, const char *source,
	      int64_t *id)
{
	struct al__doc c;
	int rc, ret;

	*id = 0;
	ret = al__store_parse_doc(text, len, &c, s->err, sizeof(s->err));
	if (ret)
		return ret;
	if (s->pg) {
		ret = al__pg_save(s, &c, text, len, source, id);
		goto out;
	}
	ret = begin_save(s);
	if (ret)
		goto out;
	rc = find_same(s, text, len, &c, id);
	if (rc == SQLITE_OK && *id) {
		al__store_exec(s, "ROLLBACK");
		ret = 1;
		goto out;
	}
	if (rc == SQLITE_OK)
		rc = insert(s, &c, source, text, len, id);
	ret = end_save(s, rc);
	if (ret)
		*id = 0;
out:
	json_decref(c.root);
	return ret;
}

/* One statement on result ids, ?1 = a (and ?2 = b when it takes two): SQLITE_OK or the error. */
static int
exec_ids(struct al_store *s, const char *sql, int64_t a, int64_t b)
{
	sqlite3_stmt *st = NULL;
	int rc = sqlite3_prepare_v2(s->db, sql, -1, &st, NULL);

	if (rc != SQLITE_OK)
		return rc;
	sqlite3_bind_int64(st, 1, a);
	if (sqlite3_bind_parameter_count(st) >= 2)
		sqlite3_bind_int64(st, 2, b);
	rc = sqlite3_step(st);
	sqlite3_finalize(st);
	return rc == SQLITE_DONE ? SQLITE_OK : rc;
}

int
al_store_replace(struct al_store *s, int64_t id, const char *text, size_t len, const char *source)
{
	struct al__doc c;
	int64_t new_id = 0;
	int rc, ret;

	ret = al__store_parse_doc(text, len, &c, s->err, sizeof(s->err));
	if (ret)
		return ret;
	if (s->pg) {
		ret = al__store_err(s, -EOPNOTSUPP,
				    "replacing result %lld: not on a PostgreSQL store (yet)",
				    (long long)id);
		goto out;
	}
	ret = begin_save(s);
	if (ret)
		goto out;
	/* the new row takes the old one's id: one transaction, never none of them */
	rc = exec_ids(s, "DELETE FROM results WHERE id = ?1", id, 0);
	if (rc == SQLITE_OK && sqlite3_changes(s->db) != 1) {
		al__store_exec(s, "ROLLBACK");
		ret = al__store_err(s, -ENOENT, "no result with id %lld", (long long)id);
		goto out;
	}
	if (rc == SQLITE_OK)
		rc = insert(s, &c, source, text, len, &new_id);
	if (rc == SQLITE_OK)
		rc = exec_ids(s, "UPDATE results SET id = ?1 WHERE id = ?2", id, new_id);
	ret = end_save(s, rc);
out:
	json_decref(c.root);
	return ret;
}

int
al_store_get(struct al_store *s, int64_t id, char **text, size_t *len_out)
{
	sqlite3_stmt *st;
	const unsigned char *t;
	char what[48];
	size_t len;
	int rc, ret = 0;

	*text = NULL;
	if (s->pg)
		return al__pg_get(s, id, text, len_out);
	snprintf(what, sizeof(what), "reading id %lld", (long long)id);
	rc = sqlite3_prepare_v2(s->db, "SELECT document FROM results WHERE id = ?1", -1, &st,
				NULL);
	if (rc != SQLITE_OK)
		return al__store_fail(s, rc, what);
	sqlite3_bind_int64(st, 1, id);
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW) {
		t = sqlite3_column_text(st, 0);
		len = (size_t)sqlite3_column_bytes(st, 0);
		*text = t ? malloc(len + 1) : NULL;
		if (!*text) {
			ret = al__store_err(s, -ENOMEM, "%s: %s", what, strerror(ENOMEM));
		} else {
			memcpy(*text, t, len);
			(*text)[len] = '\0';
			if (len_out)
				*len_out = len;
		}
	} else if (rc == SQLITE_DONE) {
		ret = al__store_err(s, -ENOENT, "no result with id %lld", (long long)id);
	} else {
		ret = al__store_fail(s, rc, what);
	}
	sqlite3_finalize(st);
	if (!ret)
		s->err[0] = '\0';
	return ret;
}

int
al_store_parse_id(const char *str, int64_t *id)
{
	int64_t v = 0;
	const char *p;

	if (!str || !*str)
		return -EINVAL;
	for (p = str; *p; p++)
		if (*p < '0' || *p > '9')
			return -EINVAL;
	for (p = str; *p; p++) {
		if (v > (INT64_MAX - (*p - '0')) / 10)
			return -ERANGE;
		v = v * 10 + (*p - '0');
	}
	*id = v;
	return 0;
}
