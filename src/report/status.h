/* SPDX-License-Identifier: GPL-2.0-or-later */
/* A measurement's live status line on a terminal (run, sweep, monitor; midi's is midi.h's), and its clearing. */
#ifndef AL_REPORT_STATUS_H
#define AL_REPORT_STATUS_H

#include <stdint.h>
#include <stdio.h>

#include "core/result.h"

/*
 * "[  12.3/30.0 s] periods=N max wake latency=T xruns=N" over the last
 * one ("\r", clear to the end of the line), from r's live figures
 * (elapsed_ns since the stream start; no total for a run until stopped).
 */
void al_report_status(FILE *f, const struct al_result *r, int64_t elapsed_ns);

/* What every live line starts with (run's, midi's, roundtrip's): "\r", clear to the end of the line. */
#define AL_STATUS_CLEAR "\r\033[K"

/* The live line of f taken away (AL_STATUS_CLEAR): what follows starts a clean line. */
void al_report_status_clear(FILE *f);

#endif
