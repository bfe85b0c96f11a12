/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The kernel's hist file of the wake-to-run synthetic event (khist.c),
 * read into an al_kernel_wake. Pure (no tracefs): the unit tests and a
 * fuzz target drive it. The kernel writes, sorted by the key:
 *
 *   { lat_us:         12 } hitcount:          5
 *   ...
 *   Totals:
 *       Hits: 562
 *       Entries: 40
 *       Dropped: 0
 */
#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "trace.h"

#define KEY "{ lat_us:"
#define COUNT "} hitcount:"
#define MAX_US (INT64_MAX / 1000)

/* an unsigned decimal after blanks at *p (within end): 0 and *v, *p past it; -1 */
static int
number(const char **p, const char *end, uint64_t *v)
{
	const char *q = *p;
	uint64_t n = 0;

	while (q < end && (*q == ' ' || *q == '\t'))
		q++;
	if (q == end || *q < '0' || *q > '9')
		return -1;
	for (; q < end && *q >= '0' && *q <= '9'; q++) {
		if (n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*q - '0');
	}
	*p = q;
	*v = n;
	return 0;
}

/* line [p, end) begins (after blanks) with word: the rest; NULL otherwise */
static const char *
after(const char *p, const char *end, const char *word)
{
	size_t n = strlen(word);

	while (p < end && (*p == ' ' || *p == '\t'))
		p++;
	return (size_t)(end - p) >= n && !memcmp(p, word, n) ? p + n : NULL;
}

/* one pass: the entries (ascending keys) and the totals; p50/p99 once n is known */
static int
pass(const char *text, size_t len, uint64_t n_known, struct al_kernel_wake *out, bool *hits_seen)
{
	const char *p = text, *end = text + len, *eol, *q;
	uint64_t key, count, seen = 0, v;
	int64_t last = -1;
	bool p50 = false, p99 = false;

	while (p < end) {
		eol = memchr(p, '\n', (size_t)(end - p));
		if (!eol)
			eol = end;
		if ((q = after(p, eol, KEY))) {
			if (number(&q, eol, &key) || key > MAX_US || (int64_t)key <= last)
				return -EPROTO;
			while (q < eol && *q == ' ')
				q++;
			if ((size_t)(eol - q) < strlen(COUNT) || memcmp(q, COUNT, strlen(COUNT)))
				return -EPROTO;
			q += strlen(COUNT);
			if (number(&q, eol, &count) || seen > UINT64_MAX - count)
				return -EPROTO;
			last = (int64_t)key;
			seen += count;
			if (n_known) {
				if (!p50 && seen >= (n_known + 1) / 2) {
					out->p50_ns = (int64_t)key * 1000;
					p50 = true;
				}
				if (!p99 && seen >= n_known - n_known / 100) {
					out->p99_ns = (int64_t)key * 1000;
					p99 = true;
				}
			}
			if (count)
				out->max_ns = (int64_t)key * 1000;
		} else if ((q = after(p, eol, "Hits:"))) {
			if (number(&q, eol, &v))
				return -EPROTO;
			*hits_seen = true;
		} else if ((q = after(p, eol, "Dropped:"))) {
			if (number(&q, eol, &v))
				return -EPROTO;
			out->dropped = v;
		}
		p = eol + 1;
	}
	out->count = seen;
	return 0;
}

int
al_khist_parse(const char *text, size_t len, struct al_kernel_wake *out)
{
	bool hits = false;
	int rc;

	memset(out, 0, sizeof(*out));
	rc = pass(text, len, 0, out, &hits);
	if (!rc && !hits)
		rc = -EPROTO; /* no totals: not a hist file, or cut short */
	if (!rc && out->count)
		rc = pass(text, len, out->count, out, &hits);
	if (rc) {
		memset(out, 0, sizeof(*out));
		return rc;
	}
	out->measured = true;
	return 0;
}
