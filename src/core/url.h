/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Passwords out of URLs before anything is printed or stored, and the
 * UUIDs every audiolat document carries (docs/store.md).
 */
#ifndef AL_CORE_URL_H
#define AL_CORE_URL_H

#include <stdbool.h>
#include <stddef.h>

/*
 * Copy in to out (size bytes, size >= 1; cut short when too small) with
 * every password in it removed: the ":PASSWORD" of "scheme://USER:PASSWORD@"
 * and the value of a "password=" parameter (URL query or libpq key=value
 * text, replaced by "***"). Works on a whole command line as well as on one
 * URL; in and out may be the same buffer.
 */
void al_url_redact(const char *in, char *out, size_t size);

/* A PostgreSQL connection URI ("postgresql://..." or "postgres://...")? */
bool al_url_is_postgres(const char *s);

#define AL_UUID_LEN 36 /* "xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx" */

/* A random (version 4) UUID, lowercase; 0 or -errno (getrandom). */
int al_uuid_random(char out[AL_UUID_LEN + 1]);

/*
 * A UUID made from bytes (RFC 9562 version 8: two FNV-1a 64 hashes of
 * them), for documents written before audiolat gave each one: the same
 * bytes always give the same UUID.
 */
void al_uuid_of_bytes(const void *data, size_t len, char out[AL_UUID_LEN + 1]);

/* "8-4-4-4-12" hex digits (either case)? */
bool al_uuid_valid(const char *s);

#endif
