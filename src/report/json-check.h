/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The system checks (audiolat check) as JSON, docs/json-check.md:
 * al_json_checks() belongs to the document layer now (doc/doc.h).
 */
#ifndef AL_REPORT_JSON_CHECK_H
#define AL_REPORT_JSON_CHECK_H

#include "doc/doc.h"

#endif
