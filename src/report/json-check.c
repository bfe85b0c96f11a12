/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <stdio.h>
#include <string.h>

#include "json-check.h"

/*
 * A JSON string from a fixed-size field that may come from anywhere (a
 * stored result): bounded by the field, bytes outside printable ASCII
 * become '?', so the document stays valid UTF-8.
 */
static json_t *
field_str(const char *s, size_t size)
{
	char buf[256];
	size_t i, len = strnlen(s, size);

	if (len >= sizeof(buf))
		len = sizeof(buf) - 1;
	for (i = 0; i < len; i++)
		buf[i] = ((unsigned char)s[i] < 0x20 || (unsigned char)s[i] > 0x7e) ? '?' : s[i];
	buf[len] = '\0';
	return json_string(buf);
}

json_t *
al_json_checks(const struct al_syscheck *c, int n)
{
	json_int_t ok = 0, warn = 0, fail = 0, skip = 0;
	json_t *arr;
	int i;

	arr = json_array();
	if (!arr)
		return NULL;
	for (i = 0; i < n; i++) {
		const struct al_syscheck *k = &c[i];
		json_t *o = json_object();
		char status[sizeof(k->status)];

		snprintf(status, sizeof(status), "%.*s", (int)strnlen(k->status, sizeof(k->status)),
			 k->status);
		if (!strcmp(status, "ok"))
			ok++;
		else if (!strcmp(status, "warn"))
			warn++;
		else if (!strcmp(status, "fail"))
			fail++;
		else {
			skip++;
			snprintf(status, sizeof(status), "skip");
		}
		if (!o || json_object_set_new(o, "id", field_str(k->id, sizeof(k->id))) ||
		    json_object_set_new(o, "status", json_string(status)) ||
		    json_object_set_new(o, "message", field_str(k->message, sizeof(k->message))) ||
		    json_object_set_new(o, "fix", field_str(k->fix, sizeof(k->fix)))) {
			json_decref(o);
			json_decref(arr);
			return NULL;
		}
		if (json_array_append_new(arr, o)) { /* o is released either way */
			json_decref(arr);
			return NULL;
		}
	}
	/* "o" hands arr over, also when packing fails */
	return json_pack("{s:I, s:I, s:I, s:I, s:o}", "ok", ok, "warn", warn, "fail", fail, "skip",
			 skip, "checks", arr);
}
