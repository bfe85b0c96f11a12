/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Built without libpq: a PostgreSQL URL is refused with the reason. */
#define AL_STORE_PRIVATE
#include <errno.h>

#include "store-private.h"

int
al__pg_open(struct al_store *s, const char *url, unsigned flags)
{
	(void)url;
	(void)flags;
	return al__store_err(s, -ENOTSUP,
			     "this audiolat was built without PostgreSQL (libpq-dev was missing)");
}

void
al__pg_close(struct al_store *s)
{
	(void)s;
}

int
al__pg_save(struct al_store *s, const struct al__doc *c, const char *text, size_t len,
	    const char *source, int64_t *id)
{
	(void)c, (void)text, (void)len, (void)source, (void)id;
	return al__store_err(s, -ENOTSUP, "built without PostgreSQL");
}

int
al__pg_get(struct al_store *s, int64_t id, char **text, size_t *len_out)
{
	(void)id, (void)text, (void)len_out;
	return al__store_err(s, -ENOTSUP, "built without PostgreSQL");
}

int
al__pg_list(struct al_store *s, const struct al_store_filter *f, al_store_list_fn fn, void *ud)
{
	(void)f, (void)fn, (void)ud;
	return al__store_err(s, -ENOTSUP, "built without PostgreSQL");
}

int64_t
al__pg_count(struct al_store *s, const struct al_store_filter *f)
{
	(void)f;
	return al__store_err(s, -ENOTSUP, "built without PostgreSQL");
}
