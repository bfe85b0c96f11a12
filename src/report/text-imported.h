/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The text reporter's lines for a run imported from another tool (text-imported.c). */
#ifndef AL_REPORT_TEXT_IMPORTED_H
#define AL_REPORT_TEXT_IMPORTED_H

#include <stdio.h>

#include <jansson.h>

/*
 * Where it came from, its threads (cyclictest) or its driver and nodes
 * (pw-profiler), and the figures it lacks (shown as "-" or "not measured",
 * never 0).
 */
void al__text_imported(const json_t *doc, FILE *f);

#endif
