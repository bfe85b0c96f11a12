/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat roundtrip's result (core/roundtrip.h) as its document
 * (audiolat.roundtrip/1, docs/roundtrip.md), and the document as text:
 * the report, the summary line, and the one line that says why there is
 * no delay; the live reading, from the estimator as it runs.
 */
#ifndef AL_REPORT_ROUNDTRIP_DOC_H
#define AL_REPORT_ROUNDTRIP_DOC_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/roundtrip.h"

/* The audiolat.roundtrip/1 document; NULL on ENOMEM. */
json_t *al_report_roundtrip_json(const struct al_roundtrip_result *x);
/* The report of doc: the loop, the delay and its spread, nominal and extra, xruns. */
void al_report_roundtrip_text(FILE *f, const json_t *doc);
/* "summary: backend=jack rate=48000 ... result=valid" */
void al_report_roundtrip_summary(FILE *f, const json_t *doc);
/* One live reading, over the previous one ("\r" and erase first): for a terminal. */
void al_report_roundtrip_reading(FILE *f, const struct al_mtdm_result *r, uint32_t rate_hz);
/*
 * Why doc has no delay (the stream stopped, no signal, unstable), in
 * buf; NULL (buf untouched) when the delay is valid.
 */
const char *al_report_roundtrip_failure(const json_t *doc, char *buf, size_t size);

#endif
