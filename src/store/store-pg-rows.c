/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The PostgreSQL engine's rows: save (one transaction, found again by
 * UUID and text), get, count and list with the listing's filters as
 * parameters (never text pasted into SQL). The connection, the schema
 * and the errors: store-pg.c.
 */
#define AL_STORE_PRIVATE
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <libpq-fe.h>

#include "core/clock.h"
#include "store-pg-private.h"

/* the parameters of one row, as text (NULL: SQL NULL) */
struct params {
	const char *v[25];
	int len[25];
	int fmt[25];
	char num[11][32];
	int n_num;
};

static void
p_str(struct params *p, int i, const char *v)
{
	p->v[i] = v;
}

static void
p_int(struct params *p, int i, json_t *v)
{
	if (!v)
		return;
	snprintf(p->num[p->n_num], sizeof(p->num[0]), "%lld", (long long)json_integer_value(v));
	p->v[i] = p->num[p->n_num++];
}

static void
p_num(struct params *p, int i, json_t *v)
{
	double d;

	if (!v)
		return;
	d = json_number_value(v);
	if (!isfinite(d))
		return;
	snprintf(p->num[p->n_num], sizeof(p->num[0]), "%.17g", d);
	p->v[i] = p->num[p->n_num++];
}

/* the row with this UUID and this very text: 0 none, 1 found (*id); -errno */
static int
pg_find_same(struct al_store *s, const struct al__doc *c, const char *text, int64_t *id)
{
	const char *v[3] = { c->uuid, c->digest, text };
	PGresult *res;
	int ret = 0;

	res = PQexecPrepared(s->pg->conn, "al_find", 3, v, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = al__pg_fail(s, res, "saving");
	} else if (PQntuples(res) > 0) {
		*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		ret = 1;
	}
	PQclear(res);
	return ret;
}

static int pg_save_row(struct al_store *s, const struct al__doc *c, const char *text,
		       size_t len, const char *source, int64_t *id);

int
al__pg_save(struct al_store *s, const struct al__doc *c, const char *text, size_t len,
	    const char *source, int64_t *id)
{
	char *copy;
	int ret;

	*id = 0;
	if (len > (size_t)INT32_MAX)
		return al__store_err(s, -EFBIG, "too large for one PostgreSQL parameter");
	/* libpq takes text parameters up to their NUL: the len bytes, terminated */
	copy = malloc(len + 1);
	if (!copy)
		return al__store_err(s, -ENOMEM, "saving: %s", strerror(ENOMEM));
	memcpy(copy, text, len);
	copy[len] = '\0';
	text = copy;
	ret = pg_save_row(s, c, text, len, source, id);
	free(copy);
	return ret;
}

static int
pg_save_row(struct al_store *s, const struct al__doc *c, const char *text, size_t len,
	    const char *source, int64_t *id)
{
	struct params p;
	char saved_at[40];
	PGresult *res;
	int ret, found;

	memset(&p, 0, sizeof(p));
	al_clock_format_iso(al_clock_realtime_ns(), saved_at, sizeof(saved_at));
	p_str(&p, 0, c->schema);
	p_str(&p, 1, source ? source : "run");
	p_str(&p, 2, saved_at);
	p_str(&p, 3, c->started_at);
	p_str(&p, 4, c->label);
	p_str(&p, 5, c->hostname);
	p_str(&p, 6, c->kernel_release);
	p_str(&p, 7, c->kernel_version);
	p_str(&p, 8, c->preempt);
	p_str(&p, 9, c->backend);
	p_str(&p, 10, c->load);
	p_int(&p, 11, c->rate_hz);
	p_int(&p, 12, c->period_frames);
	p_int(&p, 13, c->buffer_periods);
	p_int(&p, 14, c->duration_ns);
	p_int(&p, 15, c->periods);
	p_int(&p, 16, c->xruns);
	p_int(&p, 17, c->wake_max_ns);
	p_int(&p, 18, c->wake_p99_ns);
	p_num(&p, 19, c->max_interval_pct);
	p_num(&p, 20, c->within_1ms_pct);
	p_num(&p, 21, c->within_2ms_pct);
	p_str(&p, 22, c->digest);
	p_str(&p, 23, text);
	p.len[23] = (int)len;
	p_str(&p, 24, c->uuid);

	ret = al__pg_exec(s, "BEGIN", "saving");
	if (ret)
		return ret;
	/* known already (a second push): nothing to add, no id used up */
	found = pg_find_same(s, c, text, id);
	if (found == 0) {
		res = PQexecPrepared(s->pg->conn, "al_insert", 25, p.v, p.len, p.fmt, 0);
		if (PQresultStatus(res) != PGRES_TUPLES_OK)
			found = al__pg_fail(s, res, "saving");
		else if (PQntuples(res) == 1)
			*id = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
		else /* another writer saved it since we looked */
			found = pg_find_same(s, c, text, id);
		PQclear(res);
	}
	if (found < 0) {
		PQclear(PQexec(s->pg->conn, "ROLLBACK"));
		*id = 0;
		return found;
	}
	if (found == 0) {
		ret = al__pg_exec(s, "COMMIT", "saving");
		if (ret) {
			*id = 0;
			return ret;
		}
		s->err[0] = '\0';
		return 0;
	}
	PQclear(PQexec(s->pg->conn, "ROLLBACK"));
	s->err[0] = '\0';
	return 1;
}

int
al__pg_get(struct al_store *s, int64_t id, char **text, size_t *len_out)
{
	char idtext[24], what[48];
	const char *v[1] = { idtext };
	PGresult *res;
	size_t len;
	int ret = 0;

	*text = NULL;
	snprintf(idtext, sizeof(idtext), "%lld", (long long)id);
	snprintf(what, sizeof(what), "reading id %lld", (long long)id);
	res = PQexecPrepared(s->pg->conn, "al_get", 1, v, NULL, NULL, 0);
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		ret = al__pg_fail(s, res, what);
	} else if (PQntuples(res) == 0) {
		ret = al__store_err(s, -ENOENT, "no result with id %lld", (long long)id);
	} else {
		len = (size_t)PQgetlength(res, 0, 0);
		*text = malloc(len + 1);
		if (!*text) {
			ret = al__store_err(s, -ENOMEM, "%s: %s", what, strerror(ENOMEM));
		} else {
			memcpy(*text, PQgetvalue(res, 0, 0), len);
			(*text)[len] = '\0';
			if (len_out)
				*len_out = len;
		}
	}
	PQclear(res);
	if (!ret)
		s->err[0] = '\0';
	return ret;
}

static PGresult *
pg_query(struct al_store *s, const char *head, const struct al__where *w, const char *tail,
	 const char *what, int *ret)
{
	char sql[1536];
	PGresult *res;

	snprintf(sql, sizeof(sql), "%s%s%s", head, w->sql, tail);
	res = PQexecParams(s->pg->conn, sql, w->n_binds, NULL, w->binds, NULL, NULL, 0);
	*ret = 0;
	if (PQresultStatus(res) != PGRES_TUPLES_OK) {
		*ret = al__pg_fail(s, res, what);
		PQclear(res);
		return NULL;
	}
	return res;
}

int64_t
al__pg_count(struct al_store *s, const struct al_store_filter *f)
{
	struct al__where w;
	PGresult *res;
	int64_t n;
	int ret;

	if (al__store_where(s, f, AL__PG, &w))
		return -EINVAL;
	res = pg_query(s, "SELECT count(*) FROM results", &w, "", "counting", &ret);
	if (!res)
		return ret;
	n = strtoll(PQgetvalue(res, 0, 0), NULL, 10);
	PQclear(res);
	s->err[0] = '\0';
	return n;
}

static const char *
col_str(PGresult *res, int row, int i)
{
	return PQgetisnull(res, row, i) ? "" : PQgetvalue(res, row, i);
}

static int64_t
col_int(PGresult *res, int row, int i)
{
	return PQgetisnull(res, row, i) ? -1 : strtoll(PQgetvalue(res, row, i), NULL, 10);
}

static double
col_num(PGresult *res, int row, int i)
{
	return PQgetisnull(res, row, i) ? NAN : strtod(PQgetvalue(res, row, i), NULL);
}

int
al__pg_list(struct al_store *s, const struct al_store_filter *f, al_store_list_fn fn, void *ud)
{
	struct al_store_entry e;
	struct al__where w;
	char tail[64];
	PGresult *res;
	int ret, row, n = 0, stop = 0;

	if (al__store_where(s, f, AL__PG, &w))
		return -EINVAL;
	if (f && f->limit > 0)
		snprintf(tail, sizeof(tail), " ORDER BY id DESC LIMIT %lld", (long long)f->limit);
	else
		snprintf(tail, sizeof(tail), " ORDER BY id DESC");
	res = pg_query(s, "SELECT " AL__LIST_COLUMNS " FROM results", &w, tail, "listing", &ret);
	if (!res)
		return ret;
	for (row = 0; row < PQntuples(res) && !stop; row++) {
		memset(&e, 0, sizeof(e));
		e.id = strtoll(PQgetvalue(res, row, 0), NULL, 10);
		e.schema = col_str(res, row, 1);
		e.source = col_str(res, row, 2);
		e.saved_at = col_str(res, row, 3);
		e.started_at = col_str(res, row, 4);
		e.label = col_str(res, row, 5);
		e.hostname = col_str(res, row, 6);
		e.kernel_release = col_str(res, row, 7);
		e.kernel_version = col_str(res, row, 8);
		e.preempt = col_str(res, row, 9);
		e.backend = col_str(res, row, 10);
		e.load = col_str(res, row, 11);
		e.rate_hz = col_int(res, row, 12);
		e.period_frames = col_int(res, row, 13);
		e.buffer_periods = col_int(res, row, 14);
		e.duration_ns = col_int(res, row, 15);
		e.has_stats = !strncmp(e.schema, "audiolat.run/", 13);
		e.periods = col_int(res, row, 16);
		e.xruns = col_int(res, row, 17);
		e.wake_max_ns = col_int(res, row, 18);
		e.wake_p99_ns = col_int(res, row, 19);
		e.max_interval_pct = col_num(res, row, 20);
		e.within_1ms_pct = col_num(res, row, 21);
		e.within_2ms_pct = col_num(res, row, 22);
		e.uuid = col_str(res, row, 23);
		n++;
		stop = fn(&e, ud);
	}
	PQclear(res);
	if (stop < 0)
		return stop;
	s->err[0] = '\0';
	return n;
}
