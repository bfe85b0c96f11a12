/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Every audiolat JSON document's "schema" name, in one place (docs/json.md ...). */
#ifndef AL_DOC_SCHEMA_H
#define AL_DOC_SCHEMA_H

#define AL_SCHEMA_RUN "audiolat.run/2"
#define AL_SCHEMA_RUN_V1 "audiolat.run/1" /* still read: per-wake-up statistics */
#define AL_SCHEMA_MIDI "audiolat.midi/1"
#define AL_SCHEMA_MIDI_LOOP "audiolat.midi-loop/1"
#define AL_SCHEMA_ROUNDTRIP "audiolat.roundtrip/1"
#define AL_SCHEMA_LOAD "audiolat.load/1"
#define AL_SCHEMA_SWEEP "audiolat.sweep/1"
#define AL_SCHEMA_CHECK "audiolat.check/1"
#define AL_SCHEMA_DEVICES "audiolat.devices/1"
#define AL_SCHEMA_HISTORY "audiolat.history/1"
#define AL_SCHEMA_COMPARE "audiolat.compare/1"
#define AL_SCHEMA_COMPARE_MIDI "audiolat.compare-midi/1"
#define AL_SCHEMA_COMPARE_GROUPS "audiolat.compare-groups/1"
#define AL_SCHEMA_BISECT "audiolat.bisect/1"

#endif
