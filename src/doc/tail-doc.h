/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The tail beyond the run (docs/tail.md) of a run document's scope ("total"
 * or a phase): core/tail.h's fit of its wake-latency histogram, the
 * median maxima of a 1 h and a 24 h run at its period, and the run a
 * whole buffer's lateness would take to be seen, as the "tail" object of
 * docs/json.md.
 */
#ifndef AL_DOC_TAIL_DOC_H
#define AL_DOC_TAIL_DOC_H

#include <jansson.h>

#include "core/tail.h"

/* 1 h and 24 h of periods: the horizons of struct al_tail's level[] */
#define AL_TAIL_HORIZON_NAMES { "predicted_1h", "predicted_24h" }

/*
 * Fit scope's histogram.wake_latency_ns (with its wake_latency_ns summary)
 * for doc's period (config.period_ns; none when the period changed during
 * the run, segments, or is not known: an imported run). *period_ns is 0
 * then, and the fit is made without horizons. 0 or -ENOMEM.
 */
int al_doc_tail_fit(const json_t *doc, const json_t *scope, struct al_tail *t, int64_t *period_ns);

/* The "tail" object of scope (docs/json.md), NULL on ENOMEM. */
json_t *al_doc_tail_json(const json_t *doc, const json_t *scope);

/*
 * What a reader shows: the scope's own "tail" (a new reference) when the
 * document has one, else al_doc_tail_json() (a document written before it).
 */
json_t *al_doc_scope_tail(const json_t *doc, const json_t *scope);

/*
 * One prediction of a "tail" object for a reader: "91.3 us (73.5 us -
 * 135.7 us)" (the upper end "unbounded" when the data do not bound it),
 * or why there is none: its status ("too few exceedances", "shape out of
 * range", ...), "-" for a document without it. name: "predicted_1h" or
 * "predicted_24h". dur formats a duration (al_format_duration(), the HTML's
 * with its micro sign).
 */
typedef void (*al_doc_dur_fn)(int64_t ns, char *buf, size_t size);
void al_doc_tail_text(const json_t *tail, const char *name, al_doc_dur_fn dur, char *buf,
		      size_t size);
/* The observed max of a "tail" object by dur, "-" when none. */
void al_doc_tail_max_text(const json_t *tail, al_doc_dur_fn dur, char *buf, size_t size);

/* A long time for a reader: "42 s", "18 min", "5.2 h", "3 days", "1.2e+06 years". */
void al_doc_span_text(double t_ns, char *buf, size_t size);

#endif
