/* SPDX-License-Identifier: GPL-2.0-or-later */
/* PipeWire's metadata JSON, read with spa_json (pipewire-json.h). */
#include <limits.h>
#include <string.h>

#include <spa/utils/json.h>

#include "pipewire-json.h"

void
al__pw_json_name(const char *value, char *out, size_t size)
{
	struct spa_json it[2];
	char key[64];
	const char *v;
	int len;

	out[0] = '\0';
	if (!value || size > INT_MAX)
		return;
	spa_json_init(&it[0], value, strlen(value));
	if (spa_json_enter_object(&it[0], &it[1]) <= 0)
		return;
	while (spa_json_get_string(&it[1], key, sizeof(key)) > 0) {
		if (!strcmp(key, "name")) {
			if (spa_json_get_string(&it[1], out, (int)size) <= 0)
				out[0] = '\0';
			return;
		}
		len = spa_json_next(&it[1], &v); /* the value of another key */
		if (len <= 0)
			return;
		if (spa_json_is_container(v, len)) { /* skipped: read to its end */
			struct spa_json sub;

			spa_json_enter(&it[1], &sub);
			while (spa_json_next(&sub, &v) > 0)
				;
		}
	}
}
