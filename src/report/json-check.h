/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system checks (audiolat check): their text and their audiolat.check/1
 * document (docs/json-check.md). al_json_checks(), the checks block every
 * document carries, belongs to the document layer (doc/doc.h).
 */
#ifndef AL_REPORT_JSON_CHECK_H
#define AL_REPORT_JSON_CHECK_H

#include <stdbool.h>
#include <stdio.h>

#include "doc/doc.h"

/* One line per check ("[WARN] rtprio  ..."), its fix below; quiet: the failures only. */
void al_report_check_text(FILE *f, const struct al_syscheck *c, int n, bool quiet);
/* "summary: ok=N warn=N fail=N skip=N" of c[0..n) (al_check_tally()). */
void al_report_check_summary(FILE *f, const struct al_syscheck *c, int n);

/* The audiolat.check/1 document of the checks c[0..n) made under root; NULL: no memory. */
json_t *al_report_check_json(const char *root, const struct al_syscheck *c, int n);

#endif
