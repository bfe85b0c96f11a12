/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Passwords out of URLs; document UUIDs. */
#include <errno.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <sys/random.h>

#include "url.h"

static bool
url_end(char c)
{
	return c == '\0' || c == ' ' || c == '\t' || c == '\n' || c == '\'' || c == '"';
}

void
al_url_redact(const char *in, char *out, size_t size)
{
	char buf[4096];
	size_t o = 0, n = strlen(in), i = 0, j, at, colon;
	const char *src = in;

	if (!size)
		return;
	/* in and out may overlap: work from a copy when it fits */
	if (n < sizeof(buf)) {
		memcpy(buf, in, n + 1);
		src = buf;
	}
#define PUT(c)                                                                                   \
	do {                                                                                     \
		if (o + 1 < size)                                                                \
			out[o++] = (c);                                                          \
	} while (0)
	while (i < n) {
		/* "scheme://user:password@host": drop ":password" */
		if (src[i] == ':' && src[i + 1] == '/' && src[i + 2] == '/') {
			PUT(':');
			PUT('/');
			PUT('/');
			i += 3;
			/* the authority ends at the first / ? # or blank */
			at = colon = 0;
			for (j = i; !url_end(src[j]) && src[j] != '/' && src[j] != '?' &&
				    src[j] != '#';
			     j++) {
				if (src[j] == '@')
					at = j; /* the last '@': a password may hold one */
				else if (src[j] == ':' && !colon)
					colon = j;
			}
			if (at && colon && colon < at) {
				for (; i < colon; i++)
					PUT(src[i]);
				i = at; /* the '@' is copied below */
			}
			continue;
		}
		/* "password=secret" in a query or in libpq's key=value text */
		if ((i == 0 || src[i - 1] == '?' || src[i - 1] == '&' || src[i - 1] == ' ') &&
		    !strncasecmp(src + i, "password=", 9)) {
			for (j = 0; j < 9; j++)
				PUT(src[i + j]);
			PUT('*');
			PUT('*');
			PUT('*');
			for (i += 9; !url_end(src[i]) && src[i] != '&' && src[i] != '#'; i++)
				;
			continue;
		}
		PUT(src[i]);
		i++;
	}
#undef PUT
	out[o] = '\0';
}

bool
al_url_is_postgres(const char *s)
{
	return s && (!strncmp(s, "postgresql://", 13) || !strncmp(s, "postgres://", 11));
}

static void
uuid_format(const uint8_t b[16], char out[AL_UUID_LEN + 1])
{
	snprintf(out, AL_UUID_LEN + 1,
		 "%02x%02x%02x%02x-%02x%02x-%02x%02x-%02x%02x-%02x%02x%02x%02x%02x%02x", b[0], b[1],
		 b[2], b[3], b[4], b[5], b[6], b[7], b[8], b[9], b[10], b[11], b[12], b[13], b[14],
		 b[15]);
}

int
al_uuid_random(char out[AL_UUID_LEN + 1])
{
	uint8_t b[16];
	size_t got = 0;
	ssize_t r;

	while (got < sizeof(b)) {
		r = getrandom(b + got, sizeof(b) - got, 0);
		if (r < 0) {
			if (errno == EINTR)
				continue;
			return -errno;
		}
		got += (size_t)r;
	}
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x40); /* version 4 */
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80); /* the RFC variant */
	uuid_format(b, out);
	return 0;
}

static uint64_t
fnv1a(const uint8_t *p, size_t len, uint64_t h)
{
	size_t i;

	for (i = 0; i < len; i++) {
		h ^= p[i];
		h *= 0x100000001b3ULL;
	}
	return h;
}

void
al_uuid_of_bytes(const void *data, size_t len, char out[AL_UUID_LEN + 1])
{
	uint64_t h[2];
	uint8_t b[16];
	int i;

	h[0] = fnv1a(data, len, 0xcbf29ce484222325ULL);  /* the store's digest */
	h[1] = fnv1a(data, len, 0x84222325cbf29ce4ULL ^ (uint64_t)len);
	for (i = 0; i < 16; i++)
		b[i] = (uint8_t)(h[i / 8] >> (8 * (7 - i % 8)));
	b[6] = (uint8_t)((b[6] & 0x0f) | 0x80); /* version 8 */
	b[8] = (uint8_t)((b[8] & 0x3f) | 0x80);
	uuid_format(b, out);
}

bool
al_uuid_valid(const char *s)
{
	int i;

	if (!s || strlen(s) != AL_UUID_LEN)
		return false;
	for (i = 0; i < AL_UUID_LEN; i++) {
		if (i == 8 || i == 13 || i == 18 || i == 23) {
			if (s[i] != '-')
				return false;
		} else if (!((s[i] >= '0' && s[i] <= '9') || (s[i] >= 'a' && s[i] <= 'f') ||
			     (s[i] >= 'A' && s[i] <= 'F'))) {
			return false;
		}
	}
	return true;
}
