/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Why it dropped out in the text and Markdown reports (why-text.c, docs/json.md's "why"). */
#ifndef AL_REPORT_WHY_TEXT_H
#define AL_REPORT_WHY_TEXT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

/*
 * A run document's "why", nothing when it has none (null): the line that
 * heads it (its events and their classes), a card per event (all of them
 * with all, --why; else the first 10 when the run had xruns, none when it
 * had not), the verdict and what to try.
 */
void al__why_text(const json_t *doc, bool all, FILE *f);

/*
 * The same for Markdown, under a comparison (key: the run's there, "A"):
 * the head, a table of the classes, the verdict and what to try; no cards.
 */
void al__why_markdown(const json_t *doc, const char *key, FILE *f);

#endif
