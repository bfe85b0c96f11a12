/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Listing the results database. */
#define AL_STORE_PRIVATE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <string.h>

#include <sqlite3.h>

#include "store-private.h"

#define MAX_BINDS 5

struct where {
	char sql[256];
	char id_text[24];
	const char *binds[MAX_BINDS];
	int n_binds;
};

static bool
has_glob(const char *s)
{
	return strpbrk(s, "*?[") != NULL;
}

static void
add(struct where *w, const char *clause, const char *value)
{
	size_t used = strlen(w->sql);

	snprintf(w->sql + used, sizeof(w->sql) - used, " AND %s", clause);
	w->binds[w->n_binds++] = value;
}

static void
build_where(const struct al_store_filter *f, struct where *w)
{
	memset(w, 0, sizeof(*w));
	snprintf(w->sql, sizeof(w->sql), " WHERE 1");
	if (!f)
		return;
	if (f->id > 0) {
		snprintf(w->id_text, sizeof(w->id_text), "%lld", (long long)f->id);
		add(w, "id = CAST(? AS INTEGER)", w->id_text);
	}
	if (f->kernel && f->kernel[0]) {
		if (has_glob(f->kernel))
			add(w, "kernel_release GLOB ?", f->kernel);
		else
			add(w, "instr(kernel_release, ?) > 0", f->kernel);
	}
	if (f->label && f->label[0])
		add(w, has_glob(f->label) ? "label GLOB ?" : "label = ?", f->label);
	if (f->backend && f->backend[0])
		add(w, "backend = ?", f->backend);
	if (f->schema && f->schema[0])
		add(w, "schema = ?", f->schema);
}

static int
prepare(struct al_store *s, const char *head, const struct where *w, const char *tail,
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
	struct where w;
	int64_t n = 0;
	int rc;

	build_where(f, &w);
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

static const char list_sql[] =
	"SELECT id, schema, source, saved_at, started_at, label, hostname, kernel_release,"
	" kernel_version, preempt, backend, load, rate_hz, period_frames, buffer_periods,"
	" duration_ns, periods, xruns, wake_max_ns, wake_p99_ns, max_interval_pct,"
	" within_1ms_pct, within_2ms_pct FROM results";

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
	e->has_stats = sqlite3_column_type(st, 16) != SQLITE_NULL;
	e->periods = col_int(st, 16);
	e->xruns = col_int(st, 17);
	e->wake_max_ns = col_int(st, 18);
	e->wake_p99_ns = col_int(st, 19);
	e->max_interval_pct = col_num(st, 20);
	e->within_1ms_pct = col_num(st, 21);
	e->within_2ms_pct = col_num(st, 22);
}

int
al_store_list(struct al_store *s, const struct al_store_filter *f, al_store_list_fn fn,
	      void *ud)
{
	struct al_store_entry e;
	sqlite3_stmt *st;
	struct where w;
	char tail[64];
	int rc, n = 0, stop = 0;

	build_where(f, &w);
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
