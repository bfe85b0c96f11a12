/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Inside src/backend (the pipewire*.c files, and the fuzz target): the
 * JSON PipeWire's metadata carries, read with spa_json (its own parser).
 */
#ifndef AL_BACKEND_PIPEWIRE_JSON_H
#define AL_BACKEND_PIPEWIRE_JSON_H

#include <stddef.h>

/*
 * The "name" of a metadata value such as { "name": "null-sink" } into
 * out[0..size) (size >= 1), NUL-terminated; "" when there is none, when
 * value is NULL or not an object, or when the name does not fit.
 */
void al__pw_json_name(const char *value, char *out, size_t size);

#endif
