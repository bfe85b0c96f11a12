/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The database a command names: --db, else $AUDIOLAT_DB, else the default
 * path; a list "URL;PATH" to save in the first that takes a result; a
 * result saved once and replaced at every checkpoint (audiolat monitor);
 * every run of a database as JSON; push's copy and import's file. What a
 * message may show of a
 * database is its path or its URL without the password.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "core/url.h"
#include "doc/doc.h"
#include "store.h"

const char *
al_store_choice(const char *db_opt)
{
	const char *env = getenv("AUDIOLAT_DB");

	return db_opt ? db_opt : env && env[0] ? env : NULL;
}

int
al_store_open_choice(const char *db_opt, bool create, struct al_store **out, char *shown,
		     size_t shown_size, char *err, size_t err_size)
{
	char where[PATH_MAX];
	unsigned flags = 0;
	int rc;

	*out = NULL;
	shown[0] = '\0';
	db_opt = al_store_choice(db_opt);
	if (db_opt) {
		/* a list (run's fallbacks, "URL;PATH"): readers take the first */
		if (snprintf(where, sizeof(where), "%.*s", (int)strcspn(db_opt, ";"), db_opt) >=
		    (int)sizeof(where))
			return al_text_err(err, err_size, -ENAMETOOLONG, "--db: path too long");
	} else {
		rc = al_store_default_path(where, sizeof(where));
		if (rc)
			return al_text_err(err, err_size, rc,
					   "no place for the results database: set HOME or "
					   "XDG_DATA_HOME, or give --db PATH (%s)", strerror(-rc));
		flags |= AL_STORE_MKDIR;
	}
	al_url_redact(where, shown, shown_size); /* never the password */
	if (!create)
		flags = AL_STORE_NOCREATE;
	rc = al_store_open(where, flags, out, err, err_size);
	explicit_bzero(where, sizeof(where));
	if (rc == -ENOENT && !create && !db_opt)
		return 0; /* nothing saved yet */
	return rc;
}

int
al_store_open_as(const char *db_opt, bool create, struct al_store **out, char *shown,
		 size_t shown_size, struct al_load_fail *f)
{
	int rc = al_store_open_choice(db_opt, create, out, shown, shown_size, f->why,
				      sizeof(f->why));

	if (rc) {
		snprintf(f->name, sizeof(f->name), "%s", shown);
		f->server = al_url_is_postgres(shown);
	}
	return rc;
}

int
al_store_fetch(const char *db_opt, int64_t id, char **text, struct al_store **db_out,
	       char *shown, size_t shown_size, struct al_load_fail *f)
{
	struct al_store *db = NULL;
	int rc;

	*text = NULL;
	if (db_out)
		*db_out = NULL;
	memset(f, 0, sizeof(*f));
	rc = al_store_open_as(db_opt, false, &db, shown, shown_size, f);
	if (rc)
		return rc;
	if (!db)
		return al_text_err(f->why, sizeof(f->why), -ENOENT,
				   "no result with id %lld (no database at %s yet)", (long long)id,
				   shown);
	rc = al_store_get(db, id, text, NULL);
	if (rc) {
		snprintf(f->name, sizeof(f->name), "%s", shown);
		snprintf(f->why, sizeof(f->why), "%s", al_store_error(db));
	}
	if (db_out)
		*db_out = db;
	else
		al_store_close(db);
	return rc;
}

/* Save text in the database at where_in (NULL: the default path); 0 or -errno. */
static int
save_one(const char *where_in, const char *text, const char *source, int64_t *id, char *shown,
	 size_t shown_size, char *err, size_t err_size)
{
	struct al_store *db;
	char where[PATH_MAX];
	unsigned flags = 0;
	int rc;

	shown[0] = '\0';
	if (where_in) {
		snprintf(where, sizeof(where), "%s", where_in);
	} else {
		rc = al_store_default_path(where, sizeof(where));
		if (rc)
			return al_text_err(err, err_size, rc,
					   "no place for the results database (set HOME or "
					   "XDG_DATA_HOME, or give --db PATH, or --no-db)");
		flags = AL_STORE_MKDIR;
	}
	al_url_redact(where, shown, shown_size);
	rc = al_store_open(where, flags, &db, err, err_size);
	explicit_bzero(where, sizeof(where));
	if (rc)
		return rc;
	rc = al_store_save(db, text, strlen(text), source, id);
	if (rc < 0)
		snprintf(err, err_size, "%s", al_store_error(db));
	al_store_close(db);
	return rc < 0 ? rc : 0;
}

int
al_store_save_first(const char *db_opt, const char *text, const char *source, int64_t *id,
		    char *shown, size_t shown_size, al_store_refused_fn refused, void *ud)
{
	char one[PATH_MAX], err[512];
	const char *p;
	size_t n;
	int rc = -EINVAL;

	shown[0] = '\0';
	db_opt = al_store_choice(db_opt);
	if (!db_opt) {
		rc = save_one(NULL, text, source, id, shown, shown_size, err, sizeof(err));
		if (rc && refused)
			refused(ud, shown, rc, err, true);
		return rc;
	}
	/* "URL;PATH": each in turn until one saves (a server out of reach, a local file) */
	for (p = db_opt; *p; p += n + (p[n] == ';')) {
		bool last;

		n = strcspn(p, ";");
		if (!n)
			continue;
		last = !p[n] || !p[n + 1];
		snprintf(one, sizeof(one), "%.*s", (int)n, p);
		rc = save_one(one, text, source, id, shown, shown_size, err, sizeof(err));
		explicit_bzero(one, sizeof(one));
		if (!rc)
			return 0;
		if (refused)
			refused(ud, shown, rc, err, last);
	}
	return rc;
}

int
al_store_slot_put(struct al_store_slot *s, const char *db_opt, const char *text,
		  const char *source)
{
	int rc;

	s->err[0] = '\0';
	if (s->failed)
		return -EIO; /* said when it failed */
	if (!s->db) {
		rc = al_store_open_choice(db_opt, true, &s->db, s->shown, sizeof(s->shown), s->err,
					  sizeof(s->err));
		if (rc) {
			s->failed = true;
			return rc;
		}
	}
	if (s->id)
		rc = al_store_replace(s->db, s->id, text, strlen(text), source);
	else
		rc = al_store_save(s->db, text, strlen(text), source, &s->id);
	if (rc < 0) {
		snprintf(s->err, sizeof(s->err), "%s", al_store_error(s->db));
		return rc;
	}
	return 0;
}

int
al_store_slot_check(const char *db_opt, char *err, size_t err_size)
{
	const char *db = al_store_choice(db_opt);

	if (!db || !al_url_is_postgres(db))
		return 0;
	snprintf(err, err_size, "--db: a monitor saves to a local database (its checkpoints "
		 "replace their row); audiolat push copies it to PostgreSQL");
	return -EINVAL;
}

void
al_store_slot_close(struct al_store_slot *s)
{
	al_store_close(s->db);
	s->db = NULL;
}

int
al_store_load_runs(struct al_store *db, json_t ***docs, size_t *n)
{
	int64_t *ids = NULL;
	size_t i, len, n_ids = 0;
	json_error_t jerr;
	char *text;
	int rc;

	*docs = NULL;
	*n = 0;
	rc = al_store_ids(db, NULL, "audiolat.run/", &ids, &n_ids);
	if (rc < 0)
		return rc;
	*docs = calloc(n_ids ? n_ids : 1, sizeof(**docs));
	if (!*docs) {
		free(ids);
		return -ENOMEM;
	}
	for (i = n_ids; i-- > 0;) {
		rc = al_store_get(db, ids[i], &text, &len);
		if (rc)
			break;
		(*docs)[*n] = json_loadb(text, len, 0, &jerr);
		free(text);
		if ((*docs)[*n])
			(*n)++;
	}
	free(ids);
	if (rc) {
		for (i = 0; i < *n; i++)
			json_decref((*docs)[i]);
		free(*docs);
		*docs = NULL;
		*n = 0;
	}
	return rc;
}

int
al_store_get_json(struct al_store *db, int64_t id, json_t **out, char *err, size_t err_size)
{
	char *text = NULL, why[200];
	json_error_t jerr;
	size_t len = 0;
	int rc;

	*out = NULL;
	rc = al_store_get(db, id, &text, &len);
	if (rc)
		return al_text_err(err, err_size, rc, "%s", al_store_error(db));
	*out = json_loadb(text, len, JSON_REJECT_DUPLICATES, &jerr);
	free(text);
	if (*out)
		return 0;
	al_text_term_safe(jerr.text, why, sizeof(why), sizeof(why));
	return al_text_err(err, err_size, -EBADMSG, "line %d, column %d: %s", jerr.line,
			   jerr.column, why);
}

int
al_store_copy(struct al_store *src, struct al_store *dst, const struct al_store_filter *f,
	      const char *source, struct al_store_copied *c, al_store_skipped_fn skipped,
	      void *ud)
{
	int64_t *ids = NULL;
	size_t i;
	int rc;

	memset(c, 0, sizeof(*c));
	rc = al_store_ids(src, f, NULL, &ids, &c->n);
	if (rc < 0)
		return rc;
	c->listed = true;
	/* oldest first: the target's ids follow the order they were measured in */
	for (i = c->n; i-- > 0;) {
		char *text;
		size_t len;
		int64_t id;

		rc = al_store_get(src, ids[i], &text, &len);
		if (rc)
			break;
		rc = al_store_save(dst, text, len, source, &id);
		free(text);
		if (rc == 1) {
			c->there++;
		} else if (rc == 0) {
			c->added++;
		} else if (rc == -EEXIST || rc == -EINVAL || rc == -EFBIG) {
			/* this one only: the others are still copied */
			if (skipped)
				skipped(ud, ids[i], rc, al_store_error(dst));
		} else {
			c->dst_failed = true;
			break;
		}
		rc = 0;
	}
	free(ids);
	return rc;
}

int
al_store_push(const char *to, const char *from, const struct al_store_filter *filter,
	      struct al_store_pushed *p, al_store_skipped_fn skipped, void *ud,
	      struct al_load_fail *f)
{
	struct al_store *src = NULL, *dst = NULL;
	int rc;

	memset(p, 0, sizeof(*p));
	memset(f, 0, sizeof(*f));
	rc = al_store_open_as(to, true, &dst, p->to, sizeof(p->to), f);
	if (!rc)
		rc = al_store_open_as(from, false, &src, p->from, sizeof(p->from), f);
	p->from_none = !rc && !src;
	if (!rc && src) {
		rc = al_store_copy(src, dst, filter, "push", &p->c, skipped, ud);
		snprintf(f->name, sizeof(f->name), "%s", p->c.dst_failed ? p->to : p->from);
		snprintf(f->why, sizeof(f->why), "%s",
			 al_store_error(p->c.dst_failed ? dst : src));
	}
	al_store_close(dst);
	al_store_close(src);
	return rc;
}

int
al_store_save_file(struct al_store *db, const char *shown, const char *file, const char *source,
		   int64_t *id, char *err, size_t err_size)
{
	return al_store_save_file_as(db, shown, file, source, NULL, id, err, err_size);
}

int
al_store_save_file_as(struct al_store *db, const char *shown, const char *file,
		      const char *source, const struct al_store_convert *conv, int64_t *id,
		      char *err, size_t err_size)
{
	char *text, *doc;
	size_t len = 0;
	int rc;

	rc = al_doc_read_text(file, AL_STORE_DOC_MAX_BYTES, &text, &len);
	if (rc)
		return al_text_err(err, err_size, rc, ": %s", strerror(-rc));
	if (conv && conv->fn) {
		rc = conv->fn(conv->ud, file, text, len, &doc, &len, err, err_size);
		free(text);
		if (rc)
			return rc; /* err says why: nothing saved */
		text = doc;
	}
	rc = al_store_save(db, text, len, source, id);
	free(text);
	if (rc == -EINVAL || rc == -EFBIG) {
		const char *why = al_store_error(db);

		/* "LINE:COLUMN: invalid JSON: ..." reads as FILE:LINE:COLUMN: */
		return al_text_err(err, err_size, rc, "%s%s",
				   why[0] >= '0' && why[0] <= '9' ? ":" : ": ", why);
	}
	if (rc < 0)
		return al_text_err(err, err_size, rc, ": %s: %s", shown, al_store_error(db));
	return rc;
}

int
al_store_import(const char *db_opt, char *const *files, size_t n,
		const struct al_store_convert *conv, al_store_imported_fn done, void *ud,
		struct al_load_fail *f)
{
	struct al_store *db = NULL;
	char shown[PATH_MAX], why[PATH_MAX + 512];
	int rc;

	memset(f, 0, sizeof(*f));
	rc = al_store_open_as(db_opt, true, &db, shown, sizeof(shown), f);
	if (rc)
		return rc;
	for (size_t i = 0; i < n; i++) {
		int64_t id = 0;

		why[0] = '\0';
		rc = al_store_save_file_as(db, shown, files[i], "import", conv, &id, why,
					   sizeof(why));
		done(ud, files[i], rc, id, why);
	}
	al_store_close(db);
	return 0;
}
