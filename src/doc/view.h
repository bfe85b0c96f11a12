/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reading audiolat JSON documents (audiolat.run/2 and /1, see docs/json.md) for
 * the HTML report and the comparison: checked getters that never fail on
 * a missing or mistyped field, and the histogram and time series decoded
 * into arrays.
 */
#ifndef AL_REPORT_DOC_H
#define AL_REPORT_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "doc/doc.h"

/* Is doc an audiolat.run/2 or /1 document (what compare takes)? */
bool al_doc_is_run(const json_t *doc);

/*
 * Do a run document's wake latencies count every period due (run/2), or
 * wake-ups only (run/1, whose stalls' swallowed periods are not in them;
 * a run imported from another tool, which has a "source": cyclictest's)?
 */
bool al_doc_per_period(const json_t *doc);

/* What a result is called: its "label", else the kernel release, else its source's tool, else "?". */
const char *al_doc_label(const json_t *doc);

/*
 * The tool an imported run came from (its "source.tool", docs/interchange.md:
 * "cyclictest"), NULL for audiolat's own.
 */
const char *al_doc_imported_from(const json_t *doc);

/*
 * The figures a run document lacks (null: its tool did not measure them),
 * by name ("backend", "rate", "xruns", ...), as a new JSON array (NULL on
 * ENOMEM); and the same joined by ", " into buf ("" when none). Returns
 * how many.
 */
json_t *al_doc_lacks(const json_t *doc);
size_t al_doc_lacks_text(const json_t *doc, char *buf, size_t size);

/* One bucket of a histogram: values low_ns <= v < high_ns. */
struct al_dbucket {
	int64_t low_ns;
	int64_t high_ns;
	uint64_t count;
};

/* A histogram as a document holds it, with the exact min and max beside it. */
struct al_dhist {
	struct al_dbucket *b; /* ascending, non-overlapping, count > 0 */
	size_t n;
	uint64_t count;	   /* sum of the bucket counts + overflow */
	uint64_t overflow; /* values above every bucket */
	int64_t min_ns;	   /* exact, from the summary; else the first bucket's low */
	int64_t max_ns;	   /* exact, from the summary; else the last bucket's high - 1 */
};

/*
 * Decode {count, overflow, underflow, buckets: [[low, high, count], ...]}
 * and the matching summary {min, max} (may be NULL). Malformed buckets
 * (not three integers, low >= high, count < 1) are skipped; buckets are
 * sorted and overlapping ones dropped. An empty or missing histogram
 * gives n = 0, count = overflow. Returns 0 or -ENOMEM. Free with
 * al_dhist_free().
 */
int al_dhist_from_json(const json_t *hist, const json_t *summary, struct al_dhist *h);
void al_dhist_free(struct al_dhist *h);

/*
 * The value at quantile q in (0, 1] by the nearest-rank rule, the same as
 * al_hist_quantile(): the bucket holding rank ceil(q * count), reported as
 * its midpoint clamped to [min, max]; a rank among the overflow reports
 * max. 0 when empty.
 */
int64_t al_dhist_quantile(const struct al_dhist *h, double q);

/* What a value in bucket i reports as: its midpoint clamped to [min, max]. */
int64_t al_dhist_bucket_value(const struct al_dhist *h, size_t i);

/*
 * The document's blocks of h, as al_json_histogram() and al_json_summary()
 * write an al_hist's: {count, overflow, underflow (0), negative, buckets}
 * and {count, min, mean, stddev, p50 ... max, overflow, underflow,
 * negative}, the percentiles by al_dhist_quantile(), mean_ns and
 * stddev_ns null when INT64_MIN (not measured), every figure null when
 * count is 0. NULL on ENOMEM.
 */
json_t *al_dhist_json(const struct al_dhist *h);
json_t *al_dhist_summary_json(const struct al_dhist *h, int64_t mean_ns, int64_t stddev_ns);

/* One window of the time series; periods == 0: nothing woke (the rest is 0). */
struct al_dwindow {
	int64_t t_ns;
	int64_t periods;
	int64_t wake_min_ns;
	int64_t wake_mean_ns;
	int64_t wake_max_ns;
	int64_t interval_max_ns;
	int64_t xruns;
	const char *phase; /* points into the document; NULL when unknown */
};

struct al_dseries {
	struct al_dwindow *w;
	size_t n;
	int64_t window_ns;
};

/*
 * Decode "timeseries" {window_ns, columns, rows}: the columns are looked
 * up by name, so added columns do not matter; rows that are not arrays
 * are skipped, a null or missing cell reads as 0. A missing time series
 * gives n = 0. The result points into doc (keep doc alive). 0 or -ENOMEM.
 */
int al_dseries_from_json(const json_t *doc, struct al_dseries *s);
void al_dseries_free(struct al_dseries *s);

#endif
