/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat history's table (history-table.h). */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/text.h"
#include "core/units.h"
#include "doc/schema.h"
#include "history-table.h"

#define COL_MAX 32   /* label and kernel columns are cut here */

/* One row of the table, its strings copied out of the listing. */
struct al_history_row {
	int64_t id;
	char date[20];
	char label[COL_MAX + 1];
	char kernel[COL_MAX + 1];
	char backend[16];
	char config[64];
	char periods[24], xruns[24], max[24], p99[24];
	char host[COL_MAX + 1];
};


/*
 * Terminal-safe text (control characters become '?') of at most
 * COL_MAX - 1 bytes, cut on a UTF-8 boundary, a "~" marking a cut.
 */
static void
cut(char *dst, const char *src)
{
	size_t n;

	al_text_term_safe(src, dst, COL_MAX, COL_MAX - 1);
	n = strlen(dst);
	if (n < strlen(src)) {
		dst[n] = '~';
		dst[n + 1] = '\0';
	}
}

int
al_history_table_add(struct al_history_table *rs, const struct al_store_entry *e)
{
	struct al_history_row *r;
	const char *date = e->started_at[0] ? e->started_at : e->saved_at;

	if (rs->n == rs->cap) {
		size_t cap = rs->cap ? rs->cap * 2 : 64;
		struct al_history_row *v = realloc(rs->v, cap * sizeof(*v));

		if (!v)
			return -ENOMEM;
		rs->v = v;
		rs->cap = cap;
	}
	r = &rs->v[rs->n++];
	memset(r, 0, sizeof(*r));
	r->id = e->id;
	/* "2026-11-30T05:07:46.123Z" -> "2026-11-30 05:07" */
	snprintf(r->date, sizeof(r->date), "%.16s", date);
	if (strlen(r->date) > 10 && r->date[10] == 'T')
		r->date[10] = ' ';
	cut(r->label, e->label[0] ? e->label : "-");
	cut(r->kernel, e->kernel_release[0] ? e->kernel_release : "-");
	cut(r->host, e->hostname[0] ? e->hostname : "-");
	snprintf(r->backend, sizeof(r->backend), "%s", e->backend[0] ? e->backend : "-");
	if (e->period_frames >= 0 && e->buffer_periods >= 0 && e->rate_hz >= 0)
		snprintf(r->config, sizeof(r->config), "%lldx%lld@%lld",
			 (long long)e->period_frames, (long long)e->buffer_periods,
			 (long long)e->rate_hz);
	else /* another kind of document: name it */
		snprintf(r->config, sizeof(r->config), "%s",
			 strncmp(e->schema, "audiolat.", 9) ? e->schema : e->schema + 9);
	if (e->has_stats) {
		/* -1: null, not measured; a run/1 result's figures are per wake-up: '*' */
		bool v1 = !strcmp(e->schema, AL_SCHEMA_RUN_V1);

		/* an imported run's tool may not count them (docs/interchange.md) */
		if (e->periods < 0)
			strcpy(r->periods, "-");
		else
			snprintf(r->periods, sizeof(r->periods), "%lld", (long long)e->periods);
		if (e->xruns < 0)
			strcpy(r->xruns, "-");
		else
			snprintf(r->xruns, sizeof(r->xruns), "%lld", (long long)e->xruns);
		if (e->wake_max_ns == -1)
			strcpy(r->max, "-");
		else
			al_format_duration(e->wake_max_ns, r->max, sizeof(r->max) - 2);
		if (e->wake_p99_ns == -1)
			strcpy(r->p99, "-");
		else
			al_format_duration(e->wake_p99_ns, r->p99, sizeof(r->p99) - 2);
		if (v1) {
			strcat(r->max, " *");
			strcat(r->p99, " *");
		}
	} else {
		strcpy(r->periods, "-");
		strcpy(r->xruns, "-");
		strcpy(r->max, "-");
		strcpy(r->p99, "-");
	}
	return 0;
}

void
al_history_table_print(const struct al_history_table *rs, FILE *f)
{
	int wl = 5, wk = 6, wb = 7, wc = 6;
	size_t i;

	for (i = 0; i < rs->n; i++) {
		const struct al_history_row *r = &rs->v[i];

#define WIDEN(w, s) (al_text_width(s) > (w) ? (w) = al_text_width(s) : 0)
		WIDEN(wl, r->label);
		WIDEN(wk, r->kernel);
		WIDEN(wb, r->backend);
		WIDEN(wc, r->config);
#undef WIDEN
	}
	fprintf(f, "%6s  %-16s  %-*s  %-*s  %-*s  %-*s  %9s  %6s  %10s  %10s  %s\n", "id",
	       "date (UTC)", wl, "label", wk, "kernel", wb, "backend", wc, "config", "periods",
	       "xruns", "max wake", "p99 wake", "host");
	for (i = 0; i < rs->n; i++) {
		const struct al_history_row *r = &rs->v[i];

		/* labels and kernel names are UTF-8: padded by characters, not bytes */
		fprintf(f, "%6lld  %-16s  ", (long long)r->id, r->date);
		al_text_pad(f, r->label, wl, false);
		fputs("  ", f);
		al_text_pad(f, r->kernel, wk, false);
		fputs("  ", f);
		al_text_pad(f, r->backend, wb, false);
		fputs("  ", f);
		al_text_pad(f, r->config, wc, false);
		fprintf(f, "  %9s  %6s  %10s  %10s  %s\n", r->periods, r->xruns, r->max, r->p99,
		       r->host);
	}
	for (i = 0; i < rs->n; i++)
		if (strchr(rs->v[i].max, '*')) {
			fprintf(f, "* per wake-up (an audiolat.run/1 result): the periods a stall swallowed "
			       "are not in it\n");
			break;
		}
}

void
al_history_table_free(struct al_history_table *t)
{
	free(t->v);
	t->v = NULL;
	t->n = t->cap = 0;
}

/* audiolat show's head: the entry's strings (from anywhere: an import) made safe for a terminal. */
static int
entry_lines(const struct al_store_entry *e, void *ud)
{
	char a[128], b[64], c[256], d[256];

	al_text_term_safe(e->schema, a, sizeof(a), sizeof(a));
	al_text_term_safe(e->saved_at, b, sizeof(b), sizeof(b));
	al_text_term_safe(e->source, c, sizeof(c), sizeof(c));
	fprintf(ud, "result %lld: %s, saved %s (%s)\n", (long long)e->id, a, b, c);
	if (e->label[0])
		fprintf(ud, "label:     %s\n", (al_text_term_safe(e->label, d, sizeof(d), sizeof(d)), d));
	return 1;
}

int
al_history_entry_print(struct al_store *db, int64_t id, FILE *f)
{
	struct al_store_filter flt = { .id = id };

	return al_store_list(db, &flt, entry_lines, f);
}

/* Each listed result: into the table, and the JSON listing when there is one. */
struct collect_ctx {
	struct al_history_table *t;
	json_t *listing;
};

static int
collect(const struct al_store_entry *e, void *ud)
{
	struct collect_ctx *x = ud;

	if (x->listing && al_store_history_add(x->listing, e))
		return -ENOMEM;
	return al_history_table_add(x->t, e);
}

int64_t
al_history_collect(struct al_store *db, const struct al_store_filter *f,
		   struct al_history_table *t, json_t *listing)
{
	struct collect_ctx x = { t, listing };
	int64_t matching = al_store_count(db, f);
	int n;

	if (matching < 0)
		return matching;
	n = al_store_list(db, f, collect, &x);
	return n < 0 ? n : matching;
}

int
al_history_list(const char *db_opt, const struct al_store_filter *f, bool listing,
		struct al_history *h, struct al_load_fail *fail)
{
	struct al_store *db = NULL;
	int64_t n;
	int rc;

	memset(h, 0, sizeof(*h));
	memset(fail, 0, sizeof(*fail));
	rc = al_store_open_as(db_opt, false, &db, h->path, sizeof(h->path), fail);
	if (rc)
		return rc;
	h->db = db != NULL;
	if (listing && !(h->listing = al_store_history_new(h->path))) {
		al_store_close(db);
		return al_text_err(fail->why, sizeof(fail->why), -ENOMEM, "%s", strerror(ENOMEM));
	}
	n = db ? al_history_collect(db, f, &h->t, h->listing) : 0;
	if (n < 0) {
		snprintf(fail->name, sizeof(fail->name), "%s", h->path);
		snprintf(fail->why, sizeof(fail->why), "%s",
			 al_store_error(db)[0] ? al_store_error(db) : strerror((int)-n));
		al_store_close(db);
		return (int)n;
	}
	al_store_close(db);
	h->matching = n;
	if (h->listing)
		al_store_history_matching(h->listing, n);
	return 0;
}

void
al_history_free(struct al_history *h)
{
	al_history_table_free(&h->t);
	json_decref(h->listing);
	h->listing = NULL;
}

void
al_history_print(const struct al_history *h, const struct al_store_filter *f, FILE *out,
		 FILE *note)
{
	if (!h->db)
		fprintf(note, "no results saved yet (no database at %s)\n", h->path);
	else if (!h->matching && (f->kernel || f->label || f->backend || f->schema))
		fprintf(note, "no saved result matches (%s)\n", h->path);
	else if (!h->matching)
		fprintf(note, "no results saved yet (%s)\n", h->path);
	if (!h->db || !h->matching)
		return;
	al_history_table_print(&h->t, out);
	if ((int64_t)h->t.n < h->matching)
		fprintf(note, "(the newest %zu of %lld; -n 0 lists all)\n", h->t.n,
			(long long)h->matching);
}
