/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What every importer of src/interchange shares (ix-common.c): the error
 * line naming a line of the input, a piece of the input quoted in it, the
 * envelope of an imported run document (everything null that the tool does
 * not measure), and a histogram of whole microseconds. Private to
 * src/interchange.
 */
#ifndef AL_INTERCHANGE_IX_COMMON_H
#define AL_INTERCHANGE_IX_COMMON_H

#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "doc/view.h"

/* -EINVAL, with ":LINE: WHAT" in err (line 0 reads as 1). */
int al_ix_line_err(char *err, size_t err_size, int line, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

/* At most 20 bytes of [s, end) to quote in a message: one line, printable ASCII ('?' else). */
const char *al_ix_quoted(const char *s, const char *end, char buf[24]);

/* file without its directories (the document's source.file). */
const char *al_ix_basename(const char *file);

/*
 * A run document (audiolat.run/2) of an import: schema and tool version,
 * cmdline, label, every config.* null; system (NULL: every field null),
 * started_at (NULL: null) and total (al_ix_total_null()'s, with what the
 * tool measured), each stolen; realtime, priority, duration and the rest
 * of what only audiolat measures null; no phases, no warnings. The caller
 * adds "source". NULL on ENOMEM.
 */
json_t *al_ix_doc_new(json_t *system, json_t *started_at, json_t *total);

/*
 * The "total" block with every figure null (the tool measured none of
 * them; the caller sets what it did), its "histogram" block too. NULL on
 * ENOMEM.
 */
json_t *al_ix_total_null(void);

/*
 * Append the size bytes at elem to the array v holding *n of *cap (grown
 * by doubling, 64 first): the array (v or where it moved), or NULL on
 * ENOMEM (v as it was).
 */
void *al_ix_push(void *v, size_t *n, size_t *cap, size_t size, const void *elem);

/* Growable list of values in whole microseconds. */
struct al_ix_us {
	int64_t *v;
	size_t n, cap;
};

int al_ix_us_add(struct al_ix_us *u, int64_t us);
void al_ix_us_free(struct al_ix_us *u);

/*
 * The values of u (sorted in place) as a histogram of 1 us buckets
 * ([us * 1000, us * 1000 + 1000) ns: a value the tool truncated to us lies
 * in its bucket), min and max exact, *mean_ns the mean (INT64_MIN when u is
 * empty). 0 or -ENOMEM; free h with al_dhist_free().
 */
int al_ix_us_hist(struct al_ix_us *u, struct al_dhist *h, int64_t *mean_ns);

/*
 * u as a document's summary block (count, min, mean, percentiles, max;
 * stddev null) in *summary and, when hist is not NULL, its histogram block
 * in *hist. 0 or -ENOMEM (nothing set).
 */
int al_ix_us_json(struct al_ix_us *u, json_t **summary, json_t **hist);

#endif
