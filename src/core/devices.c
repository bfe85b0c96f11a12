/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "devices.h"

static char *
dup_or_null(const char *s, bool *failed)
{
	char *d = s ? strdup(s) : NULL;

	if (s && !d)
		*failed = true;
	return d;
}

int
al_device_rows_add(struct al_device_row **rows, size_t *n, size_t *cap, const char *kind,
		   const char *name, const char *description, const char *detail)
{
	struct al_device_row *r;
	bool failed = false;

	if (*n == *cap) {
		size_t c = *cap ? *cap * 2 : 16;
		struct al_device_row *v = realloc(*rows, c * sizeof(*v));

		if (!v)
			return -ENOMEM;
		*rows = v;
		*cap = c;
	}
	r = &(*rows)[*n];
	r->kind = dup_or_null(kind, &failed);
	r->name = dup_or_null(name, &failed);
	r->description = dup_or_null(description, &failed);
	r->detail = dup_or_null(detail, &failed);
	(*n)++;
	return failed ? -ENOMEM : 0;
}

struct al_device_group *
al_device_list_group(struct al_device_list *l)
{
	if (l->n == l->cap) {
		size_t c = l->cap ? l->cap * 2 : 8;
		struct al_device_group *v = realloc(l->groups, c * sizeof(*v));

		if (!v)
			return NULL;
		l->groups = v;
		l->cap = c;
	}
	memset(&l->groups[l->n], 0, sizeof(l->groups[l->n]));
	return &l->groups[l->n++];
}

static void
rows_free(struct al_device_row *rows, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		free(rows[i].kind);
		free(rows[i].name);
		free(rows[i].description);
		free(rows[i].detail);
	}
	free(rows);
}

void
al_device_group_free(struct al_device_group *g)
{
	rows_free(g->rows, g->n);
	g->rows = NULL;
	g->n = g->cap = 0;
}

void
al_device_list_free(struct al_device_list *l)
{
	for (size_t i = 0; i < l->n; i++)
		al_device_group_free(&l->groups[i]);
	free(l->groups);
	rows_free(l->midi, l->n_midi);
	memset(l, 0, sizeof(*l));
}
