/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What both cyclictest parsers' targets check of a parsed run: its
 * threads' histograms add up; as a document and back, then as cyclictest
 * text, it gives the same bytes as written straight from the parse (the
 * audiolat comments aside: a --json file's host and start become some); that
 * text parses again to the same counts, and writes to the same bytes.
 */
#ifndef AL_TESTS_FUZZ_CT_COMMON_H
#define AL_TESTS_FUZZ_CT_COMMON_H

#include <errno.h>

#include "interchange/cyclictest.h"
#include "fuzz.h"

/* past this many buckets the text is megabytes: the write round trip is left out */
#define FUZZ_CT_WRITE_MAX 20000

static inline void
fuzz_ct_check_run(const struct al_ct_run *r)
{
	for (size_t i = 0; i < r->n; i++) {
		const struct al_dhist *h = &r->t[i].h;
		uint64_t sum = h->overflow;

		for (size_t k = 0; k < h->n; k++) {
			FUZZ_CHECK(h->b[k].count > 0 && h->b[k].high_ns - h->b[k].low_ns == 1000,
				   "thread %zu bucket %zu", i, k);
			FUZZ_CHECK(!k || h->b[k].low_ns > h->b[k - 1].low_ns, "thread %zu: buckets "
				   "not ascending at %zu", i, k);
			sum += h->b[k].count;
		}
		FUZZ_CHECK(sum == h->count, "thread %zu: count %llu, buckets and overflow %llu", i,
			   (unsigned long long)h->count, (unsigned long long)sum);
		FUZZ_CHECK(!h->count || h->min_ns <= h->max_ns, "thread %zu: min above max", i);
	}
}

/* text past its leading "# audiolat.KEY:" lines (a --json file's host and start become them) */
static inline const char *
fuzz_ct_theirs(const char *text)
{
	while (!strncmp(text, "# audiolat.", 11) && strchr(text, '\n'))
		text = strchr(text, '\n') + 1;
	return text;
}

static inline void
fuzz_ct_round_trip(const struct al_ct_run *r)
{
	char *text = NULL, *again = NULL, *via_doc = NULL, err[256];
	struct al_ct_run r2, r3;
	json_t *doc;
	int rc;

	if (r->buckets > FUZZ_CT_WRITE_MAX)
		return;
	FUZZ_CHECK(al_ct_hist_write(r, &text) == 0, "%s", "write failed");
	doc = al_ct_doc(r, "cyclictest-hist", "fuzz");
	FUZZ_CHECK(doc != NULL, "%s", "no document");
	rc = al_ct_from_doc(doc, &r3, err, sizeof(err));
	FUZZ_CHECK(rc == 0, "document refused: %s", err);
	FUZZ_CHECK(al_ct_hist_write(&r3, &via_doc) == 0, "%s", "write via the document failed");
	FUZZ_CHECK(!strcmp(fuzz_ct_theirs(text), fuzz_ct_theirs(via_doc)),
		   "the document changed the text:\n%s\nthen:\n%s", text, via_doc);
	rc = al_ct_hist_parse(text, strlen(text), &r2, err, sizeof(err));
	FUZZ_CHECK(rc == 0, "our own text refused: %s\n%s", err, text);
	FUZZ_CHECK(r2.n == r->n, "%zu threads, then %zu", r->n, r2.n);
	for (size_t i = 0; i < r->n; i++)
		FUZZ_CHECK(r2.t[i].h.count == r->t[i].h.count &&
				   r2.t[i].h.overflow == r->t[i].h.overflow &&
				   r2.t[i].h.n == r->t[i].h.n,
			   "thread %zu: not the same histogram again", i);
	FUZZ_CHECK(al_ct_hist_write(&r2, &again) == 0, "%s", "second write failed");
	FUZZ_CHECK(!strcmp(text, again), "%s", "a second round changed the text");
	json_decref(doc);
	al_ct_run_free(&r2);
	al_ct_run_free(&r3);
	free(text);
	free(again);
	free(via_doc);
}

#endif
