/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Listing the results database. */
#define AL_STORE_PRIVATE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <sqlite3.h>

#include "core/clock.h"
#include "store-private.h"

static bool
has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static void
add(struct al__where *w, enum al__dialect d, const char *fmt, const char *value)
{
	size_t used = strlen(w->sql);
	char ph[16];

	/* the placeholder: ? (SQLite) or $N (PostgreSQL) */
	if (d == AL__PG)
		snprintf(ph, sizeof(ph), "$%d", w->n_binds + 1);
	else
		snprintf(ph, sizeof(ph), "?");
	snprintf(w->sql + used, sizeof(w->sql) - used, " AND ");
	used = strlen(w->sql);
	/* fmt holds one %s: the placeholder */
	snprintf(w->sql + used, sizeof(w->sql) - used, fmt, ph);
	w->binds[w->n_binds++] = value;
}

/* The ] that closes the class opening at p ('['), or NULL: then '[' is literal. */
static const char *
glob_class_end(const char *p)
{
	const char *q = p + 1;

	if (*q == '^') /* negated, as in SQLite's GLOB */
		q++;
	if (*q == ']') /* a leading ] is a member */
		q++;
	return strchr(q, ']');
}

/*
 * A shell (SQLite GLOB) pattern as an anchored POSIX regular expression
 * for PostgreSQL's ~: * ? [...] ([^...] negated), every other
 * character literal.
 */
static void
glob_to_regex(const char *g, char *out, size_t size)
{
	size_t o = 0;
	const char *p;

#define PUTC(c)                                                                                  \
	do {                                                                                     \
		if (o + 2 < size)                                                                \
			out[o++] = (c);                                                          \
	} while (0)
	PUTC('^');
	for (p = g; *p; p++) {
		if (*p == '*') {
			PUTC('.');
			PUTC('*');
		} else if (*p == '?') {
			PUTC('.');
		} else if (*p == '[' && glob_class_end(p)) {
			const char *q = p + 1, *end = glob_class_end(p);

			PUTC('[');
			if (*q == '^') {
				PUTC('^');
				q++;
			}
			for (; q < end; q++) {
				if (*q == '\\' || (*q == '[' && q[1] == ':'))
					PUTC('\\');
				PUTC(*q);
			}
			PUTC(']');
			p = end;
		} else {
			if (strchr(".^$|()[]{}+*?\\", *p))
				PUTC('\\');
			PUTC(*p);
		}
	}
	PUTC('$');
	out[o] = '\0';
#undef PUTC
}

/* pattern slot k: GLOB as it is (SQLite) or as a regular expression */
static const char *
pattern(struct al__where *w, enum al__dialect d, int k, const char *glob)
{
	if (d == AL__SQLITE)
		return glob;
	glob_to_regex(glob, w->pattern[k], sizeof(w->pattern[k]));
	return w->pattern[k];
}

static bool
all_digits(const char *p, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] < '0' || p[i] > '9')
			return false;
	return n > 0;
}

/*
 * --since: an age ("90s", "30m", "12h", "7d") becomes the ISO time that
 * long ago; an ISO 8601 time or its start ("2026-11-30",
 * "2026-11-30T06:00:00Z") compares as text with started_at (always
 * "YYYY-MM-DDTHH:MM:SS.mmmZ"), a trailing Z dropped.
 */
static int
since_iso(const char *since, char *out, size_t size, char *err, size_t err_size)
{
	size_t n = strlen(since), i;
	int64_t v = 0, unit_ns;
	static const char shape[] = "dddd-dd-ddTdd:dd:dd";

	if (n >= 2 && all_digits(since, n - 1) && strchr("smhd", since[n - 1]) && n < 12) {
		for (i = 0; i + 1 < n; i++)
			v = v * 10 + (since[i] - '0');
		unit_ns = since[n - 1] == 's' ? AL_NS_PER_SEC :
			  since[n - 1] == 'm' ? 60 * AL_NS_PER_SEC :
			  since[n - 1] == 'h' ? 3600 * AL_NS_PER_SEC : 86400 * AL_NS_PER_SEC;
		al_clock_format_iso(al_clock_realtime_ns() - v * unit_ns, out, size);
		return 0;
	}
	if (n && since[n - 1] == 'Z')
		n--;
	/* a prefix of the shape, cut at a field's end: 2026, 2026-11-30, ...T06:00 */
	if (n < 4 || n > 19 || !(n == 4 || n == 7 || n == 10 || n == 13 || n == 16 || n == 19))
		goto bad;
	for (i = 0; i < n; i++)
		if (shape[i] == 'd' ? !(since[i] >= '0' && since[i] <= '9') : since[i] != shape[i])
			goto bad;
	snprintf(out, size, "%.*s", (int)n, since);
	return 0;
bad:
	snprintf(err, err_size,
		 "--since '%.40s': not a time (2026-11-30, 2026-11-30T06:00:00Z) nor an age "
		 "(30m, 12h, 7d)",
		 since);
	return -EINVAL;
}

int
al_store_check_since(const char *since, char *err, size_t err_size)
{
	char iso[40];

	return since_iso(since, iso, sizeof(iso), err, err_size);
}

int
al__store_where(struct al_store *s, const struct al_store_filter *f, enum al__dialect d,
		struct al__where *w)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->sql, sizeof(w->sql), " WHERE %s", d == AL__PG ? "true" : "1");
	if (!f)
		return 0;
	if (f->id > 0) {
		snprintf(w->id_text, sizeof(w->id_text), "%lld", (long long)f->id);
		add(w, d, d == AL__PG ? "id = %s::bigint" : "id = CAST(%s AS INTEGER)", w->id_text);
	}
	if (f->kernel && f->kernel[0]) {
		if (has_glob(f->kernel))
			add(w, d, d == AL__PG ? "kernel_release ~ %s" : "kernel_release GLOB %s",
			    pattern(w, d, 0, f->kernel));
		else
			add(w, d, d == AL__PG ? "strpos(kernel_release, %s) > 0" :
						"instr(kernel_release, %s) > 0",
			    f->kernel);
	}
	if (f->label && f->label[0]) {
		if (has_glob(f->label))
			add(w, d, d == AL__PG ? "label ~ %s" : "label GLOB %s",
			    pattern(w, d, 1, f->label));
		else
			add(w, d, "label = %s", f->label);
	}
	if (f->host && f->host[0]) {
		if (has_glob(f->host))
			add(w, d, d == AL__PG ? "hostname ~ %s" : "hostname GLOB %s",
			    pattern(w, d, 2, f->host));
		else
			add(w, d, "hostname = %s", f->host);
	}
	if (f->backend && f->backend[0])
		add(w, d, "backend = %s", f->backend);
	if (f->schema && f->schema[0])
		add(w, d, "schema = %s", f->schema);
	if (f->since && f->since[0]) {
		if (since_iso(f->since, w->since, sizeof(w->since), s->err, sizeof(s->err)))
			return -EINVAL;
		add(w, d, "started_at >= %s", w->since);
	}
	return 0;
}

static int
prepare(struct al_store *s, const char *head, const struct al__where *w, const char *tail,
	sqlite3_stmt **st)
{
	char sql[1024];
	int i, rc;

	snprintf(sql, sizeof(sql), "%s%s%s", head, w->sql, tail);
	rc = sqlite3_prepare_v2(s->db, sql, -1, st, NULL);
	if (rc != SQLITE_OK)
		return rc;
	for (i = 0; i < w->n_binds; i++)
		sqlite3_bind_text(*st, i + 1, w->binds[i], -1, SQLITE_STATIC);
	return SQLITE_OK;
}

int64_t
al_store_count(struct al_store *s, const struct al_store_filter *f)
{
	sqlite3_stmt *st;
	struct al__where w;
	int64_t n = 0;
	int rc;

	if (s->pg)
		return al__pg_count(s, f);
	if (al__store_where(s, f, AL__SQLITE, &w))
		return -EINVAL;
	rc = prepare(s, "SELECT count(*) FROM results", &w, "", &st);
	if (rc != SQLITE_OK)
		return al__store_fail(s, rc, "counting");
	rc = sqlite3_step(st);
	if (rc == SQLITE_ROW)
		n = sqlite3_column_int64(st, 0);
	sqlite3_finalize(st);
	if (rc != SQLITE_ROW)
		return al__store_fail(s, rc, "counting");
	s->err[0] = '\0';
	return n;
}

static const char list_sql[] = "SELECT " AL__LIST_COLUMNS " FROM results";

static const char *
col_str(sqlite3_stmt *st, int i)
{
	const unsigned char *t = sqlite3_column_text(st, i);

	return t ? (const char *)t : "";
}

static int64_t
col_int(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? -1 : sqlite3_column_int64(st, i);
}

static double
col_num(sqlite3_stmt *st, int i)
{
	return sqlite3_column_type(st, i) == SQLITE_NULL ? NAN : sqlite3_column_double(st, i);
}

static void
fill_entry(sqlite3_stmt *st, struct al_store_entry *e)
{
	memset(e, 0, sizeof(*e));
	e->id = sqlite3_column_int64(st, 0);
	e->schema = col_str(st, 1);
	e->source = col_str(st, 2);
	e->saved_at = col_str(st, 3);
	e->started_at = col_str(st, 4);
	e->label = col_str(st, 5);
	e->hostname = col_str(st, 6);
	e->kernel_release = col_str(st, 7);
	e->kernel_version = col_str(st, 8);
	e->preempt = col_str(st, 9);
	e->backend = col_str(st, 10);
	e->load = col_str(st, 11);
	e->rate_hz = col_int(st, 12);
	e->period_frames = col_int(st, 13);
	e->buffer_periods = col_int(st, 14);
	e->duration_ns = col_int(st, 15);
	/* a run has the statistics columns (an imported one may have null periods) */
	e->has_stats = !strncmp(e->schema, "audiolat.run/", 13);
	e->periods = col_int(st, 16);
	e->xruns = col_int(st, 17);
	e->wake_max_ns = col_int(st, 18);
	e->wake_p99_ns = col_int(st, 19);
	e->max_interval_pct = col_num(st, 20);
	e->within_1ms_pct = col_num(st, 21);
	e->within_2ms_pct = col_num(st, 22);
	e->uuid = col_str(st, 23);
}

int
al_store_list(struct al_store *s, const struct al_store_filter *f, al_store_list_fn fn,
	      void *ud)
{
	struct al_store_entry e;
	sqlite3_stmt *st;
	struct al__where w;
	char tail[64];
	int rc, n = 0, stop = 0;

	if (s->pg)
		return al__pg_list(s, f, fn, ud);
	if (al__store_where(s, f, AL__SQLITE, &w))
		return -EINVAL;
	snprintf(tail, sizeof(tail), " ORDER BY id DESC LIMIT %lld",
		 f && f->limit > 0 ? (long long)f->limit : -1LL);
	rc = prepare(s, list_sql, &w, tail, &st);
	if (rc != SQLITE_OK)
		return al__store_fail(s, rc, "listing");
	while ((rc = sqlite3_step(st)) == SQLITE_ROW) {
		fill_entry(st, &e);
		n++;
		stop = fn(&e, ud);
		if (stop)
			break;
	}
	sqlite3_finalize(st);
	if (stop < 0)
		return stop;
	if (!stop && rc != SQLITE_DONE)
		return al__store_fail(s, rc, "listing");
	s->err[0] = '\0';
	return n;
}

struct id_list {
	const char *prefix;
	int64_t *v;
	size_t n, cap;
};

static int
collect_id(const struct al_store_entry *e, void *ud)
{
	struct id_list *l = ud;
	int64_t *nv;

	if (l->prefix && strncmp(e->schema, l->prefix, strlen(l->prefix)))
		return 0;
	if (l->n == l->cap) {
		l->cap = l->cap ? 2 * l->cap : 256;
		nv = realloc(l->v, l->cap * sizeof(*nv));
		if (!nv)
			return -ENOMEM;
		l->v = nv;
	}
	l->v[l->n++] = e->id;
	return 0;
}

int
al_store_ids(struct al_store *s, const struct al_store_filter *f, const char *schema_prefix,
	     int64_t **ids, size_t *n)
{
	struct id_list l = { schema_prefix, NULL, 0, 0 };
	int rc;

	rc = al_store_list(s, f, collect_id, &l);
	if (rc < 0) {
		if (rc == -ENOMEM && !s->err[0])
			al__store_err(s, rc, "listing: %s", strerror(ENOMEM));
		free(l.v);
		*ids = NULL;
		*n = 0;
		return rc;
	}
	*ids = l.v;
	*n = l.n;
	return 0;
}
