/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The results database through its API: paths, creation, round trip,
 * duplicates, document checks, listing filters, migration from the first
 * schema, and files that are not ours (random bytes, a truncated database,
 * another program's SQLite database, a newer schema).
 */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>
#include <sqlite3.h>

#include "core/clock.h"
#include "core/url.h"
#include "store/store.h"
#include "store-tmp.h"

/* A minimal audiolat.run/2 document with what the summary columns need. */
static char *
run_doc(const char *label, const char *kernel, const char *backend, int64_t periods,
	int64_t max_ns)
{
	json_t *doc = json_pack(
		"{s:s, s:o, s:s, s:{s:s, s:I, s:I, s:i, s:o}, s:{s:s, s:s, s:s, s:s}, s:I, "
		"s:{s:I, s:I, s:{s:I, s:I, s:I}, s:f, s:f, s:f}}",
		"schema", "audiolat.run/2", "label", label ? json_string(label) : json_null(),
		"started_at", "2026-11-30T05:07:46.123Z", "config", "backend", backend, "rate",
		(json_int_t)48000, "period_frames", (json_int_t)64, "periods", 3, "load",
		json_null(), "system", "hostname", "host1", "kernel_release", kernel,
		"kernel_version", "#1 SMP PREEMPT_DYNAMIC", "preempt", "full", "duration_ns",
		(json_int_t)1000000000, "total", "periods", (json_int_t)periods, "xruns",
		(json_int_t)2, "wake_latency_ns", "count", (json_int_t)periods, "max",
		(json_int_t)max_ns, "p99", (json_int_t)(max_ns / 2),
		"max_interval_pct_of_buffer", 66.5, "within_1ms_pct", 99.5, "within_2ms_pct",
		100.0);
	char *text;
	size_t len;

	assert_non_null(doc);
	text = json_dumps(doc, JSON_INDENT(2));
	json_decref(doc);
	assert_non_null(text);
	len = strlen(text); /* with a trailing newline, as run --json writes it */
	text = realloc(text, len + 2);
	assert_non_null(text);
	strcpy(text + len, "\n");
	return text;
}

static struct al_store *
open_ok(const char *path)
{
	struct al_store *s = NULL;
	char err[256];
	int rc = al_store_open(path, 0, &s, err, sizeof(err));

	if (rc)
		print_error("al_store_open: %d %s\n", rc, err);
	assert_int_equal(rc, 0);
	assert_non_null(s);
	return s;
}

static int64_t
raw_int(const char *path, const char *sql)
{
	sqlite3 *db;
	sqlite3_stmt *st;
	int64_t v = -1;

	assert_int_equal(sqlite3_open_v2(path, &db, SQLITE_OPEN_READONLY, NULL), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db, sql, -1, &st, NULL), SQLITE_OK);
	if (sqlite3_step(st) == SQLITE_ROW)
		v = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	sqlite3_close(db);
	return v;
}

static void
raw_exec(const char *path, const char *sql)
{
	sqlite3 *db;
	char *msg = NULL;
	int rc;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	rc = sqlite3_exec(db, sql, NULL, NULL, &msg);
	if (rc)
		print_error("%s\n", msg);
	assert_int_equal(rc, SQLITE_OK);
	sqlite3_close(db);
}

static void
default_path_follows_xdg(void **state)
{
	char buf[512];

	(void)state;
	setenv("XDG_DATA_HOME", "/data/x", 1);
	assert_int_equal(al_store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/data/x/audiolat/results.db");
	setenv("XDG_DATA_HOME", "relative/ignored", 1);
	setenv("HOME", "/home/u", 1);
	assert_int_equal(al_store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/audiolat/results.db");
	unsetenv("XDG_DATA_HOME");
	assert_int_equal(al_store_default_path(buf, sizeof(buf)), 0);
	assert_string_equal(buf, "/home/u/.local/share/audiolat/results.db");
	assert_int_equal(al_store_default_path(buf, 10), -ENAMETOOLONG);
}

static void
create_sets_schema_and_wal(void **state)
{
	struct al_store *s;
	char path[400], err[256];

	(void)state;
	/* NOCREATE: nothing is created */
	assert_int_equal(al_store_open(db_path, AL_STORE_NOCREATE, &s, err, sizeof(err)),
			 -ENOENT);
	assert_null(s);
	assert_int_equal(access(db_path, F_OK), -1);
	/* a directory is refused */
	assert_int_equal(al_store_open(dir, 0, &s, err, sizeof(err)), -EISDIR);
	/* MKDIR creates the missing directories */
	snprintf(path, sizeof(path), "%s/a/b/results.db", dir);
	assert_int_equal(al_store_open(path, 0, &s, err, sizeof(err)), -ENOENT);
	assert_int_equal(al_store_open(path, AL_STORE_MKDIR, &s, err, sizeof(err)), 0);
	al_store_close(s);
	s = open_ok(db_path);
	al_store_close(s);
	assert_int_equal(raw_int(db_path, "PRAGMA user_version"), AL_STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(db_path, "PRAGMA application_id"), AL_STORE_APPLICATION_ID);
	assert_int_equal(raw_int(db_path, "SELECT count(*) FROM results"), 0);
	assert_int_equal(raw_int(db_path, "SELECT journal_mode = 'wal' FROM pragma_journal_mode"),
			 1);
	/* opening again changes nothing */
	s = open_ok(db_path);
	al_store_close(s);
	assert_int_equal(raw_int(db_path, "PRAGMA user_version"), AL_STORE_SCHEMA_VERSION);
}

static void
save_get_round_trip(void **state)
{
	struct al_store *s;
	char *doc = run_doc("patched", "6.6.7-rt18", "sim", 7500, 123456), *back = NULL;
	char *other = run_doc(NULL, "6.6.7", "sim", 7500, 99999);
	int64_t id, id2, id3;
	size_t len = 0;

	(void)state;
	s = open_ok(db_path);
	assert_int_equal(al_store_save(s, doc, strlen(doc), "run", &id), 0);
	assert_true(id >= 1);
	assert_int_equal(al_store_get(s, id, &back, &len), 0);
	assert_int_equal(len, strlen(doc));
	assert_memory_equal(back, doc, len); /* byte for byte, trailing newline kept */
	free(back);
	/* the very same text again: not a second row */
	assert_int_equal(al_store_save(s, doc, strlen(doc), "import", &id2), 1);
	assert_int_equal(id2, id);
	assert_int_equal(al_store_save(s, other, strlen(other), "import", &id3), 0);
	assert_true(id3 > id);
	assert_int_equal(al_store_count(s, NULL), 2);
	/* a missing id */
	assert_int_equal(al_store_get(s, id3 + 100, &back, NULL), -ENOENT);
	assert_null(back);
	assert_non_null(strstr(al_store_error(s), "no result with id"));
	al_store_close(s);
	free(doc);
	free(other);
}

static void
documents_are_checked(void **state)
{
	static const struct {
		const char *text;
		const char *err;
	} bad[] = {
		{ "{\n  \"schema\": \"audiolat.run/1\",\n  \"x\": ]\n}\n", "3:8: invalid JSON" },
		{ "", "invalid JSON" },
		{ "[1, 2]", "not an object" },
		{ "{\"a\": 1}", "no \"schema\" string" },
		{ "{\"schema\": 5}", "no \"schema\" string" },
		{ "{\"schema\": \"other.run/1\"}", "is not audiolat.KIND/VERSION" },
		{ "{\"schema\": \"audiolat.run\"}", "is not audiolat.KIND/VERSION" },
		{ "{\"schema\": \"audiolat.Run/1\"}", "is not audiolat.KIND/VERSION" },
		{ "{\"schema\": \"audiolat.run/3\"}", "not a version this audiolat reads" },
		{ "{\"schema\": \"audiolat.run/1\"}", "document: no started_at (a string or null)" },
		{ "{\"schema\": \"audiolat.run/1\"} trailing", "invalid JSON" },
	};
	char err[256], *doc;
	json_t *j;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(al_store_check_document(bad[i].text, strlen(bad[i].text), err,
							 sizeof(err)),
				 -EINVAL);
		if (!strstr(err, bad[i].err))
			print_error("'%s': got '%s', expected '%s'\n", bad[i].text, err, bad[i].err);
		assert_non_null(strstr(err, bad[i].err));
	}
	/* an embedded NUL byte is not JSON */
	assert_int_equal(al_store_check_document("{\"schema\":\"audiolat.x/1\"}\0{}", 28, err,
						 sizeof(err)),
			 -EINVAL);
	/* a wrong type deep inside a run is named */
	doc = run_doc("l", "k", "sim", 10, 10);
	j = json_loads(doc, 0, NULL);
	json_object_set_new(json_object_get(j, "total"), "periods", json_string("many"));
	free(doc);
	doc = json_dumps(j, 0);
	json_decref(j);
	assert_int_equal(al_store_check_document(doc, strlen(doc), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "total.periods is not an integer"));
	free(doc);
	/* a figure that was not measured is null, and fine; a string is not */
	doc = run_doc("l", "k", "sim", 0, 10);
	j = json_loads(doc, 0, NULL);
	json_object_set_new(json_object_get(json_object_get(j, "total"), "wake_latency_ns"), "max",
			    json_null());
	json_object_set_new(json_object_get(j, "total"), "within_1ms_pct", json_null());
	free(doc);
	doc = json_dumps(j, 0);
	assert_int_equal(al_store_check_document(doc, strlen(doc), err, sizeof(err)), 0);
	free(doc);
	json_object_set_new(json_object_get(j, "total"), "within_1ms_pct", json_string("-"));
	doc = json_dumps(j, 0);
	json_decref(j);
	assert_int_equal(al_store_check_document(doc, strlen(doc), err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "total.within_1ms_pct is not a number or null"));
	free(doc);
	/* the previous version, per wake-up, is still read */
	doc = run_doc("l", "k", "sim", 10, 10);
	j = json_loads(doc, 0, NULL);
	json_object_set_new(j, "schema", json_string("audiolat.run/1"));
	free(doc);
	doc = json_dumps(j, 0);
	json_decref(j);
	assert_int_equal(al_store_check_document(doc, strlen(doc), err, sizeof(err)), 0);
	free(doc);
	/* any other audiolat document is fine */
	assert_int_equal(al_store_check_document("{\"schema\": \"audiolat.midi-record/1\"}", 36,
						 err, sizeof(err)),
			 0);
	assert_string_equal(err, "");
	/* too large: refused on the length, before reading */
	assert_int_equal(al_store_check_document("{}", (size_t)AL_STORE_DOC_MAX_BYTES + 1, err,
						 sizeof(err)),
			 -EFBIG);
}

struct seen {
	int n;
	int64_t ids[16];
	char labels[16][32];
	bool stats[16];
};

static int
collect(const struct al_store_entry *e, void *ud)
{
	struct seen *s = ud;

	if (s->n < 16) {
		s->ids[s->n] = e->id;
		snprintf(s->labels[s->n], sizeof(s->labels[0]), "%s", e->label);
		s->stats[s->n] = e->has_stats;
	}
	s->n++;
	return 0;
}

static int
list(struct al_store *st, struct al_store_filter f, struct seen *s)
{
	memset(s, 0, sizeof(*s));
	return al_store_list(st, &f, collect, s);
}

static void
listing_filters(void **state)
{
	static const struct {
		const char *label, *kernel, *backend;
	} rows[] = {
		{ "base", "6.6.7", "sim" },          { "rt", "6.6.7-rt18", "sim" },
		{ "rt-alsa", "6.6.7-rt18", "alsa" }, { "new", "6.12.1", "sim" },
		{ NULL, "6.12.1-rt5", "jack" },
	};
	const char *midi = "{\"schema\": \"audiolat.midi-record/1\", \"label\": \"m\"}";
	struct al_store *s;
	struct seen seen;
	int64_t id;
	size_t i;

	(void)state;
	s = open_ok(db_path);
	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		char *d = run_doc(rows[i].label, rows[i].kernel, rows[i].backend, 100 + (int)i,
				  1000);

		assert_int_equal(al_store_save(s, d, strlen(d), "run", &id), 0);
		free(d);
	}
	assert_int_equal(al_store_save(s, midi, strlen(midi), "import", &id), 0);

	/* everything, newest first */
	assert_int_equal(list(s, (struct al_store_filter){ 0 }, &seen), 6);
	assert_string_equal(seen.labels[0], "m");
	assert_false(seen.stats[0]);
	assert_true(seen.stats[1]);
	assert_string_equal(seen.labels[5], "base");
	assert_true(seen.ids[0] > seen.ids[5]);
	/* kernel: substring without wildcards, glob with */
	assert_int_equal(list(s, (struct al_store_filter){ .kernel = "rt" }, &seen), 3);
	assert_int_equal(list(s, (struct al_store_filter){ .kernel = "6.6.*-rt*" }, &seen), 2);
	assert_int_equal(list(s, (struct al_store_filter){ .kernel = "6.12.1" }, &seen), 2);
	assert_int_equal(list(s, (struct al_store_filter){ .kernel = "6.12.1" }, &seen), 2);
	assert_int_equal(list(s, (struct al_store_filter){ .kernel = "5.*" }, &seen), 0);
	/* label: exact, or glob */
	assert_int_equal(list(s, (struct al_store_filter){ .label = "rt" }, &seen), 1);
	assert_string_equal(seen.labels[0], "rt");
	assert_int_equal(list(s, (struct al_store_filter){ .label = "rt*" }, &seen), 2);
	/* backend, schema, combined, limit, id */
	assert_int_equal(list(s, (struct al_store_filter){ .backend = "sim" }, &seen), 3);
	assert_int_equal(list(s, (struct al_store_filter){ .backend = "sim", .kernel = "rt" },
			      &seen),
			 1);
	assert_int_equal(
		list(s, (struct al_store_filter){ .schema = "audiolat.midi-record/1" }, &seen), 1);
	assert_int_equal(list(s, (struct al_store_filter){ .limit = 2 }, &seen), 2);
	assert_string_equal(seen.labels[1], "");
	assert_int_equal(list(s, (struct al_store_filter){ .id = seen.ids[1] }, &seen), 1);
	assert_int_equal(al_store_count(s, &(struct al_store_filter){ .kernel = "rt", .limit = 1 }),
			 3);
	/* SQL in a pattern is just text */
	assert_int_equal(list(s, (struct al_store_filter){ .label = "x' OR 1=1 --" }, &seen), 0);
	al_store_close(s);
}

static void
ids_parse(void **state)
{
	int64_t id = -1;

	(void)state;
	assert_int_equal(al_store_parse_id("42", &id), 0);
	assert_int_equal(id, 42);
	assert_int_equal(al_store_parse_id("0", &id), 0);
	assert_int_equal(id, 0);
	assert_int_equal(al_store_parse_id("9223372036854775807", &id), 0);
	assert_int_equal(id, INT64_MAX);
	assert_int_equal(al_store_parse_id("9223372036854775808", &id), -ERANGE);
	assert_int_equal(al_store_parse_id("99999999999999999999x", &id), -EINVAL);
	assert_int_equal(al_store_parse_id("", &id), -EINVAL);
	assert_int_equal(al_store_parse_id("-1", &id), -EINVAL);
	assert_int_equal(al_store_parse_id("1a", &id), -EINVAL);
	assert_int_equal(al_store_parse_id(" 1", &id), -EINVAL);
	assert_int_equal(al_store_parse_id("run.json", &id), -EINVAL);
}

/* The first schema (tests/store/schema-v1.sql), read into memory. */
static char *
schema_v1(void)
{
	const char *tests = getenv("TESTS_DIR");
	char path[512], *buf;
	FILE *f;
	long n;

	assert_non_null(tests);
	snprintf(path, sizeof(path), "%s/store/schema-v1.sql", tests);
	f = fopen(path, "r");
	assert_non_null(f);
	assert_int_equal(fseek(f, 0, SEEK_END), 0);
	n = ftell(f);
	rewind(f);
	buf = malloc((size_t)n + 1);
	assert_non_null(buf);
	assert_int_equal(fread(buf, 1, (size_t)n, f), (size_t)n);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static void
v1_insert(const char *path, const char *doc, const char *label, const char *kernel)
{
	sqlite3 *db;
	sqlite3_stmt *st;

	assert_int_equal(sqlite3_open(path, &db), SQLITE_OK);
	assert_int_equal(sqlite3_prepare_v2(db,
					    "INSERT INTO runs (saved_at, started_at, label, "
					    "kernel_release, backend, rate_hz, period_frames, "
					    "buffer_periods, periods, xruns, wake_max_ns, wake_p99_ns,"
					    " max_interval_pct, within_1ms_pct, within_2ms_pct, "
					    "document) VALUES ('2026-01-01T00:00:00.000Z', "
					    "'2026-01-01T00:00:00.000Z', ?1, ?2, 'sim', 48000, 64, 3, "
					    "500, 0, 1000, 500, 50.0, 100.0, 100.0, ?3)",
					    -1, &st, NULL),
			 SQLITE_OK);
	sqlite3_bind_text(st, 1, label, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 2, kernel, -1, SQLITE_STATIC);
	sqlite3_bind_text(st, 3, doc, -1, SQLITE_STATIC);
	assert_int_equal(sqlite3_step(st), SQLITE_DONE);
	sqlite3_finalize(st);
	sqlite3_close(db);
}

static int
first_entry(const struct al_store_entry *e, void *ud)
{
	struct al_store_entry *out = ud;

	/* strings are valid during the call only: keep the numbers and test strings here */
	*out = *e;
	assert_string_equal(e->schema, "audiolat.run/2");
	assert_string_equal(e->source, "run");
	assert_string_equal(e->kernel_version, "#1 SMP PREEMPT_DYNAMIC");
	assert_string_equal(e->label, "old");
	return 1;
}

static void
migrates_the_first_schema(void **state)
{
	char *doc = run_doc("old", "6.1.0", "sim", 500, 1000), *back = NULL;
	struct al_store_entry e;
	struct al_store *s;
	char *ddl = schema_v1();
	int64_t id;

	(void)state;
	raw_exec(db_path, ddl);
	free(ddl);
	v1_insert(db_path, doc, "old", "6.1.0");
	v1_insert(db_path, "not json at all", "broken", "6.1.0");
	assert_int_equal(raw_int(db_path, "PRAGMA user_version"), 1);

	s = open_ok(db_path);
	assert_int_equal(raw_int(db_path, "PRAGMA user_version"), AL_STORE_SCHEMA_VERSION);
	assert_int_equal(raw_int(db_path, "SELECT count(*) FROM sqlite_master WHERE name = 'runs'"),
			 0);
	assert_int_equal(al_store_count(s, NULL), 2);
	/* columns v2 added are filled in from the stored documents */
	assert_int_equal(al_store_list(s, &(struct al_store_filter){ .label = "old" }, first_entry,
				       &e),
			 1);
	assert_int_equal(e.duration_ns, 1000000000);
	assert_int_equal(e.periods, 500);
	assert_true(e.has_stats);
	/* the digest the migration computed in SQL is the one the code computes */
	assert_int_equal(al_store_save(s, doc, strlen(doc), "import", &id), 1);
	assert_int_equal(id, e.id);
	assert_int_equal(al_store_get(s, id, &back, NULL), 0);
	assert_string_equal(back, doc);
	free(back);
	/* and new rows go in after the old ones */
	free(doc);
	doc = run_doc("new", "6.1.0", "sim", 500, 1000);
	assert_int_equal(al_store_save(s, doc, strlen(doc), "run", &id), 0);
	assert_int_equal(id, 3);
	al_store_close(s);
	free(doc);
}

static int
keep_uuid(const struct al_store_entry *e, void *ud)
{
	snprintf(ud, AL_UUID_LEN + 1, "%s", e->uuid);
	return 1;
}

/* A UUID is kept in lower case; --since's ages count back from now in their unit. */
static void
uuid_case_and_since_ages(void **state)
{
	char *text = run_doc("aged", "6.1.0", "sim", 500, 1000), started[40], uuid[AL_UUID_LEN + 1];
	json_t *doc = json_loads(text, 0, NULL);
	struct al_store *s = open_ok(db_path);
	int64_t id;

	(void)state;
	assert_non_null(doc);
	free(text);
	/* started two days ago */
	al_clock_format_iso(al_clock_realtime_ns() - 2 * 86400 * AL_NS_PER_SEC, started,
			    sizeof(started));
	json_object_set_new(doc, "started_at", json_string(started));
	json_object_set_new(doc, "uuid", json_string("ABCDEF01-0000-4000-8000-00000000000A"));
	text = json_dumps(doc, 0);
	json_decref(doc);
	assert_non_null(text);
	assert_int_equal(al_store_save(s, text, strlen(text), "run", &id), 0);
	free(text);
	assert_int_equal(al_store_list(s, &(struct al_store_filter){ .label = "aged" }, keep_uuid,
				       uuid),
			 1);
	assert_string_equal(uuid, "abcdef01-0000-4000-8000-00000000000a");
	assert_int_equal(al_store_count(s, &(struct al_store_filter){ .since = "3d" }), 1);
	assert_int_equal(al_store_count(s, &(struct al_store_filter){ .since = "1d" }), 0);
	assert_int_equal(al_store_count(s, &(struct al_store_filter){ .since = "49h" }), 1);
	assert_int_equal(al_store_count(s, &(struct al_store_filter){ .since = "47h" }), 0);
	al_store_close(s);
}

static void
write_bytes(const char *path, const void *data, size_t len)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	assert_int_equal(fwrite(data, 1, len, f), len);
	fclose(f);
}

static int
open_err(const char *path, char *err, size_t size)
{
	struct al_store *s = NULL;
	int rc = al_store_open(path, 0, &s, err, size);

	if (!rc)
		al_store_close(s);
	else
		assert_null(s);
	return rc;
}

static void
random_bytes_are_refused(void **state)
{
	unsigned char junk[8192];
	char err[256];
	size_t i;

	(void)state;
	srand(7);
	for (i = 0; i < sizeof(junk); i++)
		junk[i] = (unsigned char)rand();
	write_bytes(db_path, junk, sizeof(junk));
	assert_int_equal(open_err(db_path, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "not an SQLite database"));
	/* a text file, too */
	write_bytes(db_path, "{\"schema\": \"audiolat.run/1\"}\n", 29);
	assert_int_equal(open_err(db_path, err, sizeof(err)), -EBADMSG);
	/* an empty file is an empty database: it becomes ours */
	write_bytes(db_path, "", 0);
	assert_int_equal(open_err(db_path, err, sizeof(err)), 0);
}

static void
foreign_sqlite_is_left_alone(void **state)
{
	char err[256];
	struct stat before, after;

	(void)state;
	raw_exec(db_path, "CREATE TABLE songs (title TEXT); INSERT INTO songs VALUES ('x');");
	assert_int_equal(stat(db_path, &before), 0);
	assert_int_equal(open_err(db_path, err, sizeof(err)), -EMEDIUMTYPE);
	assert_non_null(strstr(err, "not an audiolat results database"));
	assert_int_equal(stat(db_path, &after), 0);
	assert_int_equal(before.st_size, after.st_size);
	assert_int_equal(before.st_mtime, after.st_mtime);
	assert_int_equal(raw_int(db_path, "SELECT journal_mode = 'delete' FROM pragma_journal_mode"),
			 1);
	/* ours by application_id but no schema version: damaged */
	raw_exec(db_path, "PRAGMA application_id = 1095516500;");
	assert_int_equal(open_err(db_path, err, sizeof(err)), -EBADMSG);
}

static void
newer_schema_is_refused(void **state)
{
	struct al_store *s;
	char err[256];

	(void)state;
	s = open_ok(db_path);
	al_store_close(s);
	raw_exec(db_path, "PRAGMA user_version = 99;");
	assert_int_equal(open_err(db_path, err, sizeof(err)), -EPROTONOSUPPORT);
	assert_non_null(strstr(err, "newer audiolat (schema version 99"));
	assert_int_equal(raw_int(db_path, "PRAGMA user_version"), 99);
	/* ours, at our version, with the table gone */
	raw_exec(db_path, "PRAGMA user_version = 3; DROP TABLE results;");
	assert_int_equal(open_err(db_path, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "results table missing"));
}

static int
count_cb(const struct al_store_entry *e, void *ud)
{
	(void)e;
	(*(int *)ud)++;
	return 0;
}

/* A database of 40 runs, the WAL folded in (one file); returns their ids. */
static void
make_40(int64_t ids[40])
{
	struct al_store *s;
	int i;

	s = open_ok(db_path);
	for (i = 0; i < 40; i++) {
		char *d = run_doc("t", "6.6.7", "sim", i + 1, 1000 + i);

		assert_int_equal(al_store_save(s, d, strlen(d), "run", &ids[i]), 0);
		free(d);
	}
	al_store_close(s);
	raw_exec(db_path, "PRAGMA wal_checkpoint(TRUNCATE); PRAGMA journal_mode = DELETE;");
}

static void
truncated_database_is_refused(void **state)
{
	struct stat sb;
	char err[256];
	int64_t ids[40];

	(void)state;
	make_40(ids);
	assert_int_equal(stat(db_path, &sb), 0);
	assert_true(sb.st_size > 8192);
	assert_int_equal(truncate(db_path, sb.st_size / 2), 0);
	/* SQLite sees the file is shorter than its header says */
	assert_int_equal(open_err(db_path, err, sizeof(err)), -EBADMSG);
	assert_non_null(strstr(err, "damaged"));
}

static void
damaged_pages_fail_cleanly(void **state)
{
	struct al_store *s;
	struct stat sb;
	char err[256], *text = NULL, *zeros;
	int64_t id, ids[40];
	int i, fd, n = 0, rc, errors = 0;

	(void)state;
	make_40(ids);
	/* zero the second half of the file, keeping its size: page 1 is intact */
	assert_int_equal(stat(db_path, &sb), 0);
	zeros = calloc(1, (size_t)sb.st_size);
	assert_non_null(zeros);
	fd = open(db_path, O_WRONLY);
	assert_true(fd >= 0);
	assert_int_equal(pwrite(fd, zeros, (size_t)(sb.st_size - sb.st_size / 2), sb.st_size / 2),
			 sb.st_size - sb.st_size / 2);
	close(fd);
	free(zeros);

	rc = al_store_open(db_path, 0, &s, err, sizeof(err));
	if (rc) {
		assert_int_equal(rc, -EBADMSG);
		return;
	}
	rc = al_store_list(s, NULL, count_cb, &n);
	if (rc < 0) {
		assert_int_equal(rc, -EBADMSG);
		assert_non_null(strstr(al_store_error(s), "damaged"));
		errors++;
	}
	for (i = 0; i < 40; i++) {
		rc = al_store_get(s, ids[i], &text, NULL);
		if (rc) {
			assert_true(rc == -EBADMSG || rc == -ENOENT);
			errors++;
		} else {
			free(text);
		}
		text = NULL;
	}
	{
		char *d = run_doc("after", "6.6.7", "sim", 1, 1);

		rc = al_store_save(s, d, strlen(d), "run", &id);
		free(d);
		if (rc < 0) {
			assert_int_equal(rc, -EBADMSG);
			errors++;
		}
	}
	al_store_close(s);
	/* half the pages are zeros: something must have noticed */
	assert_true(errors > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(default_path_follows_xdg),
		cmocka_unit_test(ids_parse),
		cmocka_unit_test(documents_are_checked),
		cmocka_unit_test_setup_teardown(create_sets_schema_and_wal, setup, teardown),
		cmocka_unit_test_setup_teardown(save_get_round_trip, setup, teardown),
		cmocka_unit_test_setup_teardown(listing_filters, setup, teardown),
		cmocka_unit_test_setup_teardown(migrates_the_first_schema, setup, teardown),
		cmocka_unit_test_setup_teardown(uuid_case_and_since_ages, setup, teardown),
		cmocka_unit_test_setup_teardown(random_bytes_are_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(foreign_sqlite_is_left_alone, setup, teardown),
		cmocka_unit_test_setup_teardown(newer_schema_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(truncated_database_is_refused, setup, teardown),
		cmocka_unit_test_setup_teardown(damaged_pages_fail_cleanly, setup, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
