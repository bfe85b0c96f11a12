/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text reporter's table of the tail beyond the run (tail-text.c, docs/tail.md). */
#ifndef AL_REPORT_TAIL_TEXT_H
#define AL_REPORT_TAIL_TEXT_H

#include <stdio.h>

#include <jansson.h>

/*
 * Per scope (the whole run, each phase when there are several): the
 * observed max and the predicted medians of a 1 h and a 24 h maximum
 * with their 95 % intervals, or why there are none; then how likely a
 * wake-up a whole buffer late is and how long a run it takes to see one.
 */
void al__tail_text(const json_t *doc, FILE *f);

#endif
