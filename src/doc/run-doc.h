/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The document of a run's result (audiolat.run/2, docs/json.md). */
#ifndef AL_DOC_RUN_DOC_H
#define AL_DOC_RUN_DOC_H

#include <jansson.h>

#include "core/result.h"

/* The audiolat.run/2 document (see docs/json.md); NULL on ENOMEM. */
json_t *al_doc_run_json(const struct al_result *r);

#endif
