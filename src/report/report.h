/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reporters: they take a finished struct al_result and never see live data. */
#ifndef AL_REPORT_REPORT_H
#define AL_REPORT_REPORT_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "core/result.h"

struct al_text_opts {
	bool verbose;       /* every xrun event, not just the first ones */
	bool no_histogram;
};

/* The human summary: latencytest line, percentile table, histogram, phases. */
void al_report_text(const struct al_result *r, const struct al_text_opts *o, FILE *f);

/* The one plain closing line: "summary: backend=sim ... result=PASS". */
void al_report_summary_line(const struct al_result *r, const char *verdict, FILE *f);

/*
 * A JSON string from text that came from outside (hostnames, command
 * lines, file names, labels): bytes that are not valid UTF-8 become '?', so
 * one odd byte never costs a whole document. NULL text gives null.
 */
json_t *al_json_text(const char *s);

/* The audiolat.run/1 document (see docs/json.md); NULL on ENOMEM. */
json_t *al_report_json(const struct al_result *r);

#endif
