/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The system checks (audiolat check) as JSON; see docs/json-check.md. */
#ifndef AL_REPORT_JSON_CHECK_H
#define AL_REPORT_JSON_CHECK_H

#include <jansson.h>

#include "core/result.h"

/*
 * {"ok":N, "warn":N, "fail":N, "skip":N,
 *  "checks":[{"id", "status", "message", "fix"}, ...]} for c[0..n).
 * A status other than ok/warn/fail counts as skip. NULL on ENOMEM.
 */
json_t *al_json_checks(const struct al_syscheck *c, int n);

#endif
