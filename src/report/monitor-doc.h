/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat monitor's document: its "monitor" block and a checkpoint's text. */
#ifndef AL_REPORT_MONITOR_DOC_H
#define AL_REPORT_MONITOR_DOC_H

#include <jansson.h>

#include "core/monitor-figures.h"

/* The "monitor" block of in; NULL on ENOMEM. */
json_t *al_report_monitor_json(const struct al_monitor_doc_input *in);
struct al_result;

/*
 * A monitor result's document: snap's audiolat.run/2 (al_doc_run_json)
 * with "monitor" from in and, when cmdline is not NULL, that "cmdline"
 * (a checkpoint's: snap's own is set at the end). NULL on ENOMEM.
 */
json_t *al_report_monitor_doc(const struct al_result *snap, const struct al_monitor_doc_input *in,
			      const char *cmdline);

/*
 * That document's text in the document arena (src/doc/arena.c: call it
 * between al_doc_arena_begin() and al_doc_arena_end(); valid until the
 * end): a checkpoint's, made and given back each time. NULL on ENOMEM.
 */
char *al_report_monitor_arena_text(const struct al_result *snap,
				   const struct al_monitor_doc_input *in, const char *cmdline);

#endif
