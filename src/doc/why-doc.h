/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Why it dropped out (core/why.h): the "why" object of a run document
 * (docs/json.md) from a struct al_why, and what its readers (the text, the
 * Markdown and the HTML report) take from it alike: the classes by count
 * and the sentence that heads them.
 */
#ifndef AL_DOC_WHY_DOC_H
#define AL_DOC_WHY_DOC_H

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

/*
 * The classes of why with a count above 0, most first (a tie in the
 * document's order), at most max of them into out. Returns how many.
 */
size_t al_doc_why_classes(const json_t *why, struct al_doc_why_count *out, size_t max);

/*
 * The sentence that heads a run's "why", from its document: "34 events
 * later than 1333.3 us (one period) or xruns: preempted 33, unattributed
 * 1, 2 not classified" (dur formats the threshold). "" when doc has no
 * "why" object. Text from the document is copied as it is: the caller
 * makes it safe for where it goes.
 */
void al_doc_why_head(const json_t *doc, al_doc_dur_fn dur, char *buf, size_t size);

#endif
