/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why it dropped out (core/why.h): the "why" object of a run document
 * (docs/json.md) from a struct al_why, and what its readers (the text, the
 * Markdown and the HTML report) take from it alike: the sentence that heads
 * it and the classes by count.
 */
#ifndef AL_DOC_WHY_DOC_H
#define AL_DOC_WHY_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <jansson.h>

#include "core/why.h"
#include "tail-doc.h"

/*
 * The "why" object of w (docs/json.md): null when w is NULL (not
 * collected); a figure not known (-1) is null, never 0. NULL on ENOMEM.
 */
json_t *al_doc_why_json(const struct al_why *w);

/* One member of a "why" object's "classes": the name as the document has it, its count. */
struct al_doc_why_count {
	const char *name; /* points into the document */
	int64_t n;
};

/* What every reader shows of a run's "why" first. */
struct al_doc_why_summary {
	const json_t *why; /* the document's "why" object */
	/*
	 * The sentence that heads it: "34 events later than 1333.3 us (one
	 * period) or xruns: preempted 33, unattributed 1, 2 not classified"
	 * (the threshold by the reader's dur). Text from the document is
	 * copied as it is: the reader makes it safe for where it goes.
	 */
	char head[512];
	/* the classes with a count above 0, most first (a tie in the document's order) */
	struct al_doc_why_count classes[AL_WHY_CLASSES];
	size_t n_classes;
};

/* The summary of doc's "why" into s; false (s untouched) when it has no "why" object. */
bool al_doc_why_summary(const json_t *doc, al_doc_dur_fn dur, struct al_doc_why_summary *s);

#endif
