/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Result documents named by file or database id, loaded for a reader (store.h). */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "store.h"

/* Result id (named name) of the database of db_opt into *out, or -errno with f. */
static int
load_id(const char *db_opt, const char *name, int64_t id, json_t **out, struct al_load_fail *f)
{
	char path[PATH_MAX], err[512];
	struct al_store *db = NULL;
	int rc = al_store_open_as(db_opt, false, &db, path, sizeof(path), f);

	if (rc)
		return rc;
	if (!db) {
		snprintf(f->name, sizeof(f->name), "%s", name);
		snprintf(f->why, sizeof(f->why), "no such file, and no results database yet (%s)",
			 path);
		return -ENOENT;
	}
	rc = al_store_get_json(db, id, out, err, sizeof(err));
	al_store_close(db);
	if (rc == -ENOENT) {
		snprintf(f->name, sizeof(f->name), "%s", name);
		snprintf(f->why, sizeof(f->why), "no such file, and no result %s in %s", name, path);
	} else if (rc == -EBADMSG) {
		snprintf(f->name, sizeof(f->name), "result %s in %s", name, path);
		snprintf(f->why, sizeof(f->why), "%s", err);
	} else if (rc) {
		snprintf(f->name, sizeof(f->name), "%s", path);
		snprintf(f->why, sizeof(f->why), "result %s: %s", name, err);
	}
	return rc;
}

/* One document named arg into *out with its source, or -errno with f. */
static int
load_one(const char *db_opt, const char *arg, json_t **out, char *source, size_t source_size,
	 struct al_load_fail *f)
{
	char name[256];
	int64_t id;
	int rc;

	al_text_term_safe(arg, name, sizeof(name), sizeof(name));
	rc = al_doc_read(arg, out, f->why, sizeof(f->why));
	/* not a file: a database id, if it is a number */
	if (rc == -ENOENT && !al_store_parse_id(arg, &id)) {
		rc = load_id(db_opt, name, id, out, f);
		if (rc)
			return rc;
		snprintf(source, source_size, "db:%s", name);
	} else if (rc) {
		snprintf(f->name, sizeof(f->name), "%s", name);
		return rc;
	} else {
		snprintf(source, source_size, "%s", strcmp(arg, "-") ? arg : "stdin");
	}
	rc = al_doc_check(*out, f->why, sizeof(f->why));
	if (rc) {
		json_decref(*out);
		*out = NULL;
		snprintf(f->name, sizeof(f->name), "%s", name);
	}
	return rc;
}

static int
alloc_set(struct al_doc_set *set, size_t n, struct al_load_fail *f)
{
	set->in = calloc(n ? n : 1, sizeof(*set->in));
	set->sources = calloc(n ? n : 1, sizeof(*set->sources));
	if (!set->docs)
		set->docs = calloc(n ? n : 1, sizeof(*set->docs));
	if (set->in && set->sources && set->docs)
		return 0;
	snprintf(f->why, sizeof(f->why), "%s", strerror(ENOMEM));
	return -ENOMEM;
}

/* Every run of the database of db_opt (none yet: no documents). */
static int
load_runs(const char *db_opt, struct al_doc_set *set, struct al_load_fail *f)
{
	char path[PATH_MAX];
	struct al_store *db = NULL;
	size_t n = 0;
	int rc = al_store_open_as(db_opt, false, &db, path, sizeof(path), f);

	if (rc || !db)
		return rc;
	rc = al_store_load_runs(db, &set->docs, &n);
	set->n = n;
	if (rc == -ENOMEM)
		snprintf(f->why, sizeof(f->why), "%s", strerror(ENOMEM));
	else if (rc)
		snprintf(f->name, sizeof(f->name), "%s", path),
		    snprintf(f->why, sizeof(f->why), "%s", al_store_error(db));
	al_store_close(db);
	if (!rc)
		rc = alloc_set(set, n, f);
	for (size_t i = 0; !rc && i < n; i++) {
		snprintf(set->sources[i], sizeof(set->sources[i]), "%s",
			 al_doc_str(set->docs[i], "uuid", "db"));
		set->in[i] = (struct al_report_doc){ set->docs[i], set->sources[i] };
	}
	return rc;
}

int
al_store_load_docs(const char *db_opt, char *const *names, size_t n, struct al_doc_set *set,
		   struct al_load_fail *f)
{
	int rc;

	memset(set, 0, sizeof(*set));
	memset(f, 0, sizeof(*f));
	if (!n)
		return load_runs(db_opt, set, f);
	rc = alloc_set(set, n, f);
	for (; !rc && set->n < n; set->n++) {
		rc = load_one(db_opt, names[set->n], &set->docs[set->n], set->sources[set->n],
			      sizeof(set->sources[set->n]), f);
		set->in[set->n] = (struct al_report_doc){ set->docs[set->n], set->sources[set->n] };
	}
	return rc;
}

void
al_doc_set_free(struct al_doc_set *set)
{
	for (size_t i = 0; set->docs && i < set->n; i++)
		json_decref(set->docs[i]);
	free(set->docs);
	free(set->in);
	free(set->sources);
	memset(set, 0, sizeof(*set));
}

/* The document id of db into *out, checked (al_doc_check()); -errno with f naming it. */
static int
query_one(struct al_store *db, const char *path, int64_t id, json_t **out, char *source,
	  size_t source_size, struct al_load_fail *f)
{
	int rc = al_store_get_json(db, id, out, f->why, sizeof(f->why));

	snprintf(source, source_size, "db:%lld", (long long)id);
	if (!rc && (rc = al_doc_check(*out, f->why, sizeof(f->why)))) {
		json_decref(*out);
		*out = NULL;
	}
	if (rc)
		snprintf(f->name, sizeof(f->name), "result %lld in %s", (long long)id, path);
	return rc;
}

int
al_store_load_query(const char *db_opt, const struct al_store_filter *filter,
		    struct al_doc_set *set, struct al_load_fail *f)
{
	char path[PATH_MAX];
	struct al_store *db = NULL;
	int64_t *ids = NULL;
	size_t n = 0;
	int rc;

	memset(set, 0, sizeof(*set));
	memset(f, 0, sizeof(*f));
	rc = al_store_open_as(db_opt, false, &db, path, sizeof(path), f);
	if (rc || !db)
		return rc;
	rc = al_store_ids(db, filter, "audiolat.run/", &ids, &n);
	if (rc)
		snprintf(f->name, sizeof(f->name), "%s", path),
		    snprintf(f->why, sizeof(f->why), "%s", al_store_error(db));
	if (!rc)
		rc = alloc_set(set, n, f);
	/* the newest first in ids, the oldest first in set */
	for (; !rc && set->n < n; set->n++) {
		rc = query_one(db, path, ids[n - 1 - set->n], &set->docs[set->n],
			       set->sources[set->n], sizeof(set->sources[set->n]), f);
		set->in[set->n] = (struct al_report_doc){ set->docs[set->n], set->sources[set->n] };
	}
	al_store_close(db);
	free(ids);
	return rc;
}
