/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The document of a MIDI result (audiolat.midi/1, docs/json.md). */
#ifndef AL_DOC_MIDI_DOC_H
#define AL_DOC_MIDI_DOC_H

#include <jansson.h>

#include "core/midi-result.h"

/* The document of an analyze, record or loop result; NULL on ENOMEM. */
json_t *al_doc_midi_json(const struct al_midi_result *r);

#endif
