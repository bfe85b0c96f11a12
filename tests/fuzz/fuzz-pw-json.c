/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * PipeWire's metadata JSON (src/backend/pipewire-json.c: the default
 * sink's and source's { "name": ... }, read with spa_json): whatever the
 * input, the name is NUL-terminated inside its buffer, at every size from
 * 1 to the backend's own (a buffer of exactly that size, so that ASan
 * sees a write past it).
 */
#include "fuzz.h"
#include "backend/pipewire-json.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const size_t sizes[] = { 1, 2, 5, 64, 256 };
	char *text = fuzz_strndup(data, size), *out;

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		out = malloc(sizes[i]);
		if (!out)
			abort();
		memset(out, 'x', sizes[i]);
		al__pw_json_name(text, out, sizes[i]);
		FUZZ_CHECK(memchr(out, '\0', sizes[i]) != NULL, "size %zu: no NUL", sizes[i]);
		free(out);
	}
	free(text);
	return 0;
}
