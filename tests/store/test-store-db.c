/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The database a command names (store-db.c): --db and $AUDIOLAT_DB, no
 * default database yet, the password kept out of what is shown, a
 * "URL;PATH" list saving to the first that takes it, the monitor's row
 * replaced in place, every run as JSON, oldest first, push's copy and
 * import's file, the results a reader names loaded (al_store_load_docs()),
 * import's files, push's two databases, show's and export's fetch.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <cmocka.h>

#include <jansson.h>

#include "store/store.h"
#include "store-tmp.h"

/* The fixture, with the default path in it and no $AUDIOLAT_DB. */
static int
setup_env(void **state)
{
	int rc = setup(state);

	setenv("XDG_DATA_HOME", dir, 1);
	unsetenv("AUDIOLAT_DB");
	return rc;
}

/* A small document of schema, labelled "doc N": a run's with the fields a run needs. */
static char *
doc(const char *schema, int n)
{
	static char text[512];

	snprintf(text, sizeof(text),
		 "{\"schema\": \"%s\", \"label\": \"doc %d\", \"started_at\": "
		 "\"2026-11-30T05:07:46.123Z\", \"config\": {\"backend\": \"sim\"}, "
		 "\"system\": {}, \"total\": {\"periods\": 10, \"xruns\": 0, "
		 "\"wake_latency_ns\": {\"max\": null, \"p99\": null}, "
		 "\"max_interval_pct_of_buffer\": null, \"within_1ms_pct\": null, "
		 "\"within_2ms_pct\": null}}\n",
		 schema, n);
	return text;
}

/* text into the file at path (made or emptied) */
static void
write_file(const char *path, const char *text)
{
	FILE *fp = fopen(path, "w");

	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
}

/* Save doc(schema, n) in db: al_store_save()'s return. */
static int
save(struct al_store *db, const char *schema, int n)
{
	const char *text = doc(schema, n);
	int64_t id;

	return al_store_save(db, text, strlen(text), "run", &id);
}

static void
choice_is_opt_then_env(void **state)
{
	(void)state;
	assert_null(al_store_choice(NULL));
	setenv("AUDIOLAT_DB", "", 1);
	assert_null(al_store_choice(NULL)); /* empty: not set */
	setenv("AUDIOLAT_DB", "/x/env.db", 1);
	assert_string_equal(al_store_choice(NULL), "/x/env.db");
	assert_string_equal(al_store_choice("/x/opt.db"), "/x/opt.db");
	unsetenv("AUDIOLAT_DB");
}

static void
open_choice_reads_nothing_yet(void **state)
{
	struct al_store *db = (struct al_store *)1;
	char shown[512], err[512];

	(void)state;
	/* the default path without a database: none yet, not an error, nothing made */
	assert_int_equal(al_store_open_choice(NULL, false, &db, shown, sizeof(shown), err,
					      sizeof(err)), 0);
	assert_null(db);
	assert_non_null(strstr(shown, "/audiolat/results.db"));
	assert_int_not_equal(access(shown, F_OK), 0);
	/* a path given that is not there: -ENOENT */
	assert_int_equal(al_store_open_choice(db_path, false, &db, shown, sizeof(shown), err,
					      sizeof(err)), -ENOENT);
	assert_string_equal(shown, db_path);
	/* made when asked: the default path's directories too */
	assert_int_equal(al_store_open_choice(NULL, true, &db, shown, sizeof(shown), err,
					      sizeof(err)), 0);
	assert_non_null(db);
	al_store_close(db);
	assert_int_equal(access(shown, F_OK), 0);
}

static void
open_choice_never_shows_the_password(void **state)
{
	struct al_store *db;
	char shown[512], err[512];
	int rc;

	(void)state;
	/* a list: readers take the first, a server nobody listens on */
	rc = al_store_open_choice("postgresql://u:SECRETPW@127.0.0.1:1/db;/tmp/x.db", false, &db,
				  shown, sizeof(shown), err, sizeof(err));
	assert_true(rc < 0);
	assert_null(db);
	assert_null(strstr(shown, "SECRETPW"));
	assert_null(strstr(err, "SECRETPW"));
	assert_non_null(strstr(shown, "postgresql://u@127.0.0.1:1/db"));
}

struct refusals {
	int n;
	bool last;
	char shown[512];
};

static void
refused(void *ud, const char *shown, int err, const char *why, bool last)
{
	struct refusals *r = ud;

	assert_true(err < 0);
	assert_true(why[0]);
	r->n++;
	r->last = last;
	snprintf(r->shown, sizeof(r->shown), "%s", shown);
}

static void
save_first_tries_the_list_in_order(void **state)
{
	struct refusals r = { 0 };
	char list[700], bad[400], shown[512];
	int64_t id = 0;

	(void)state;
	snprintf(bad, sizeof(bad), "%s/no/such/dir/x.db", dir);
	snprintf(list, sizeof(list), "%s;%s", bad, db_path);
	assert_int_equal(al_store_save_first(list, doc("audiolat.run/2", 1), "run", &id, shown,
					     sizeof(shown), refused, &r), 0);
	assert_int_equal(r.n, 1);
	assert_false(r.last);
	assert_string_equal(r.shown, bad);
	assert_string_equal(shown, db_path);
	assert_int_equal(id, 1);
	/* only the bad one: refused as the last, its error returned */
	memset(&r, 0, sizeof(r));
	assert_true(al_store_save_first(bad, doc("audiolat.run/2", 2), "run", &id, shown,
					sizeof(shown), refused, &r) < 0);
	assert_int_equal(r.n, 1);
	assert_true(r.last);
	/* a list that names none */
	assert_int_equal(al_store_save_first(";", doc("audiolat.run/2", 3), "run", &id, shown,
					     sizeof(shown), refused, &r), -EINVAL);
	assert_string_equal(shown, "");
}

static void
slot_replaces_its_row(void **state)
{
	struct al_store_slot s = { 0 };
	struct al_store *db;
	char *text, err[256], bad[400];
	int64_t *ids;
	size_t n;

	(void)state;
	assert_int_equal(al_store_slot_put(&s, db_path, doc("audiolat.run/2", 1), "monitor"), 0);
	assert_int_equal(s.id, 1);
	assert_int_equal(al_store_slot_put(&s, db_path, doc("audiolat.run/2", 2), "monitor"), 0);
	assert_int_equal(s.id, 1);
	al_store_slot_close(&s);
	assert_int_equal(al_store_open(db_path, AL_STORE_NOCREATE, &db, err, sizeof(err)), 0);
	assert_int_equal(al_store_ids(db, NULL, NULL, &ids, &n), 0);
	assert_int_equal(n, 1); /* one row, the newest document in it */
	free(ids);
	assert_int_equal(al_store_get(db, 1, &text, NULL), 0);
	assert_non_null(strstr(text, "doc 2"));
	free(text);
	al_store_close(db);
	/* an open that fails is said once: later puts fail at once, with nothing to say */
	memset(&s, 0, sizeof(s));
	snprintf(bad, sizeof(bad), "%s/no/such/dir/x.db", dir);
	assert_true(al_store_slot_put(&s, bad, doc("audiolat.run/2", 3), "monitor") < 0);
	assert_null(s.db);
	assert_true(s.err[0]);
	assert_int_equal(al_store_slot_put(&s, bad, doc("audiolat.run/2", 4), "monitor"), -EIO);
	assert_string_equal(s.err, "");
	al_store_slot_close(&s);
}

static void
runs_load_oldest_first_and_copy_once(void **state)
{
	struct al_store *src, *dst;
	struct al_store_copied c;
	char err[256], to[320];
	json_t **docs, *one;
	size_t n;

	(void)state;
	assert_int_equal(al_store_open(db_path, 0, &src, err, sizeof(err)), 0);
	assert_int_equal(save(src, "audiolat.run/2", 1), 0);
	assert_int_equal(save(src, "audiolat.midi/1", 2), 0);
	assert_int_equal(save(src, "audiolat.midi-loop/1", 3), 0);
	assert_int_equal(save(src, "audiolat.run/2", 4), 0);
	assert_int_equal(al_store_load_runs(src, &docs, &n), 0);
	assert_int_equal(n, 2); /* runs only, oldest first */
	assert_string_equal(json_string_value(json_object_get(docs[0], "label")), "doc 1");
	assert_string_equal(json_string_value(json_object_get(docs[1], "label")), "doc 4");
	for (size_t i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	assert_int_equal(al_store_get_json(src, 2, &one, err, sizeof(err)), 0);
	json_decref(one);
	assert_int_equal(al_store_get_json(src, 99, &one, err, sizeof(err)), -ENOENT);

	snprintf(to, sizeof(to), "%s/to.db", dir);
	assert_int_equal(al_store_open(to, 0, &dst, err, sizeof(err)), 0);
	assert_int_equal(al_store_copy(src, dst, NULL, "push", &c, NULL, NULL), 0);
	assert_int_equal(c.n, 4);
	assert_int_equal(c.added, 4);
	assert_int_equal(c.there, 0);
	assert_int_equal(al_store_copy(src, dst, NULL, "push", &c, NULL, NULL), 0);
	assert_int_equal(c.added, 0);
	assert_int_equal(c.there, 4);
	assert_true(c.listed);
	assert_false(c.dst_failed);
	al_store_close(dst);
	al_store_close(src);
}

static void
save_file_says_what_went_wrong(void **state)
{
	struct al_store *db;
	char err[512], file[320];
	int64_t id = 0;
	FILE *f;

	(void)state;
	assert_int_equal(al_store_open(db_path, 0, &db, err, sizeof(err)), 0);
	snprintf(file, sizeof(file), "%s/one.json", dir);
	assert_non_null(f = fopen(file, "w"));
	fputs(doc("audiolat.run/2", 1), f);
	fclose(f);
	assert_int_equal(al_store_save_file(db, db_path, file, "import", &id, err, sizeof(err)), 0);
	assert_int_equal(id, 1);
	assert_int_equal(al_store_save_file(db, db_path, file, "import", &id, err, sizeof(err)), 1);
	snprintf(file, sizeof(file), "%s/none.json", dir);
	assert_int_equal(al_store_save_file(db, db_path, file, "import", &id, err, sizeof(err)),
			 -ENOENT);
	assert_string_equal(err, ": No such file or directory");
	/* reads as FILE:LINE:COLUMN: */
	assert_true(al_store_save_file(db, db_path, "/dev/null", "import", &id, err,
				       sizeof(err)) == -EINVAL);
	assert_true(!strncmp(err, ":1:0: invalid JSON", 18));
	al_store_close(db);
}

/* Results named by file or id (al_store_load_docs()): the sources, and which name failed and why. */
static void
docs_load_by_name_and_say_which_failed(void **state)
{
	struct al_doc_set set;
	struct al_load_fail f;
	struct al_store *db;
	char err[256], file[320], bad[320];
	char *names[3] = { file, "1", bad };
	FILE *fp;

	(void)state;
	snprintf(file, sizeof(file), "%s/a.json", dir);
	snprintf(bad, sizeof(bad), "%s/bad.json", dir);
	fp = fopen(file, "w");
	assert_non_null(fp);
	fputs(doc("audiolat.run/2", 7), fp);
	fclose(fp);
	fp = fopen(bad, "w");
	assert_non_null(fp);
	fputs("{\"schema\": \"x/1\"}\n", fp);
	fclose(fp);
	/* --db names no database yet: the database named */
	assert_int_equal(al_store_load_docs(db_path, names, 2, &set, &f), -ENOENT);
	assert_string_equal(f.name, db_path);
	assert_false(f.server);
	al_doc_set_free(&set);
	assert_int_equal(al_store_open(db_path, 0, &db, err, sizeof(err)), 0);
	assert_int_equal(save(db, "audiolat.run/2", 1), 0);
	al_store_close(db);
	assert_int_equal(al_store_load_docs(db_path, names, 2, &set, &f), 0);
	assert_int_equal(set.n, 2);
	assert_string_equal(set.in[0].source, file);
	assert_string_equal(set.in[1].source, "db:1");
	assert_string_equal(json_string_value(json_object_get(set.docs[1], "label")), "doc 1");
	al_doc_set_free(&set);
	names[1] = "99";
	assert_int_equal(al_store_load_docs(db_path, names, 2, &set, &f), -ENOENT);
	assert_string_equal(f.name, "99");
	assert_non_null(strstr(f.why, "no such file, and no result 99 in"));
	al_doc_set_free(&set);
	names[1] = "1";
	/* the third is no audiolat document: named, with why */
	assert_int_equal(al_store_load_docs(db_path, names, 3, &set, &f), -EINVAL);
	assert_string_equal(f.name, bad);
	assert_non_null(strstr(f.why, "schema 'x/1'"));
	al_doc_set_free(&set);
	/* none named: every run of the database, by uuid or "db" */
	assert_int_equal(al_store_load_docs(db_path, NULL, 0, &set, &f), 0);
	assert_int_equal(set.n, 1);
	assert_string_equal(set.in[0].source, "db");
	al_doc_set_free(&set);
}

/* import's files, a line each; push's copy; show/export's fetch; the monitor's slot is local. */
struct imported {
	int n, saved, there, failed;
	char why[600];
};

static void
imported(void *ud, const char *file, int rc, int64_t id, const char *why)
{
	struct imported *x = ud;

	(void)file;
	x->n++;
	if (rc < 0)
		x->failed++, snprintf(x->why, sizeof(x->why), "%s", why);
	else if (rc == 1)
		x->there++;
	else
		x->saved++, assert_true(id > 0);
}

static void
import_push_fetch(void **state)
{
	char file[400], missing[400], to[400], none[400], shown[4096], *text;
	char *files[3] = { file, missing, file };
	struct al_store_pushed p;
	struct imported x = { 0 };
	struct al_load_fail f;

	(void)state;
	snprintf(file, sizeof(file), "%s/a.json", dir);
	snprintf(missing, sizeof(missing), "%s/missing.json", dir);
	snprintf(to, sizeof(to), "%s/to.db", dir);
	snprintf(none, sizeof(none), "%s/none.db", dir);
	write_file(file, doc("audiolat.run/2", 7));
	/* every file tried: one saved, one missing said, the same one again already there */
	assert_int_equal(al_store_import(db_path, files, 3, NULL, imported, &x, &f), 0);
	assert_int_equal(x.n, 3);
	assert_int_equal(x.saved, 1);
	assert_int_equal(x.there, 1);
	assert_int_equal(x.failed, 1);
	assert_string_equal(x.why, ": No such file or directory");
	/* the saved document, byte for byte; an id there is not; a database not there */
	assert_int_equal(al_store_fetch(db_path, 1, &text, NULL, shown, sizeof(shown), &f), 0);
	assert_string_equal(text, doc("audiolat.run/2", 7));
	free(text);
	assert_int_equal(al_store_fetch(db_path, 9, &text, NULL, shown, sizeof(shown), &f),
			 -ENOENT);
	assert_string_equal(f.name, db_path);
	assert_false(f.server);
	assert_int_equal(al_store_fetch(none, 1, &text, NULL, shown, sizeof(shown), &f), -ENOENT);
	assert_string_equal(f.name, none);
	assert_null(text);
	/* push: into a new database, then nothing again; from none: nothing there */
	assert_int_equal(al_store_push(to, db_path, NULL, &p, NULL, NULL, &f), 0);
	assert_int_equal(p.c.n, 1);
	assert_int_equal(p.c.added, 1);
	assert_string_equal(p.to, to);
	assert_int_equal(al_store_push(to, db_path, NULL, &p, NULL, NULL, &f), 0);
	assert_int_equal(p.c.added, 0);
	assert_int_equal(p.c.there, 1);
	unsetenv("AUDIOLAT_DB");
	assert_int_equal(al_store_push(to, NULL, NULL, &p, NULL, NULL, &f), 0);
	assert_true(p.from_none);
	/* a monitor saves to a local database only */
	assert_int_equal(al_store_slot_check(db_path, shown, sizeof(shown)), 0);
	assert_int_equal(al_store_slot_check("postgresql://u@h/db", shown, sizeof(shown)),
			 -EINVAL);
	assert_non_null(strstr(shown, "audiolat push"));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(choice_is_opt_then_env, setup_env, teardown),
		cmocka_unit_test_setup_teardown(open_choice_reads_nothing_yet, setup_env, teardown),
		cmocka_unit_test_setup_teardown(open_choice_never_shows_the_password, setup_env,
						teardown),
		cmocka_unit_test_setup_teardown(save_first_tries_the_list_in_order, setup_env, teardown),
		cmocka_unit_test_setup_teardown(slot_replaces_its_row, setup_env, teardown),
		cmocka_unit_test_setup_teardown(runs_load_oldest_first_and_copy_once, setup_env,
						teardown),
		cmocka_unit_test_setup_teardown(save_file_says_what_went_wrong, setup_env, teardown),
		cmocka_unit_test_setup_teardown(docs_load_by_name_and_say_which_failed, setup_env,
						teardown),
		cmocka_unit_test_setup_teardown(import_push_fetch, setup_env, teardown),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
