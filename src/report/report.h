/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reporters: they take a finished result, as its document (what --json
 * writes, what the database keeps), and never see live data.
 */
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

/*
 * The human summary of a run document (audiolat.run/2, or /1): the
 * latencytest line, the percentile table, phases, xruns, spikes, the
 * histogram. What `audiolat run` and `audiolat show` print.
 */
void al_report_run_text(const json_t *doc, const struct al_text_opts *o, FILE *f);

/* The one plain closing line: "summary: backend=sim ... result=PASS" ("-": not measured). */
void al_report_summary_line(const json_t *doc, const char *verdict, FILE *f);

/*
 * A JSON string from text that came from outside (hostnames, command
 * lines, file names, labels): bytes that are not valid UTF-8 become '?', so
 * one odd byte never costs a whole document. NULL text gives null.
 */
json_t *al_json_text(const char *s);

/*
 * A histogram's summary {count, min, mean, stddev, p50 ... max, overflow,
 * underflow, negative} (figures null when empty) and its sparse buckets
 * {count, overflow, underflow, negative, buckets: [[low_ns, high_ns,
 * count], ...]} in ascending order, negative ones first (docs/json.md).
 */
json_t *al_json_summary(const struct al_hist *h);
json_t *al_json_histogram(const struct al_hist *h);

/* The audiolat.run/2 document (see docs/json.md); NULL on ENOMEM. */
json_t *al_report_json(const struct al_result *r);

#endif
