/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The one path getter of documents: every reader (report, store, show) goes through it. */
#include <math.h>
#include <string.h>

#include "doc.h"

json_t *
al_doc_get(const json_t *o, const char *path)
{
	const char *p = path, *dot;
	char key[64];
	size_t len;

	while (o && json_is_object(o)) {
		dot = strchr(p, '.');
		len = dot ? (size_t)(dot - p) : strlen(p);
		if (len >= sizeof(key))
			return NULL;
		memcpy(key, p, len);
		key[len] = '\0';
		o = json_object_get(o, key);
		if (!dot)
			return (json_t *)o;
		p = dot + 1;
	}
	return NULL;
}

int64_t
al_doc_int(const json_t *o, const char *path, int64_t dflt)
{
	const json_t *v = al_doc_get(o, path);
	double d;

	if (json_is_integer(v))
		return json_integer_value(v);
	if (json_is_real(v)) {
		d = floor(json_real_value(v));
		if (d > -9.2e18 && d < 9.2e18)
			return (int64_t)d;
	}
	return dflt;
}

double
al_doc_real(const json_t *o, const char *path, double dflt)
{
	const json_t *v = al_doc_get(o, path);

	return json_is_number(v) ? json_number_value(v) : dflt;
}

const char *
al_doc_str(const json_t *o, const char *path, const char *dflt)
{
	const json_t *v = al_doc_get(o, path);

	return json_is_string(v) ? json_string_value(v) : dflt;
}

bool
al_doc_bool(const json_t *o, const char *path, bool dflt)
{
	const json_t *v = al_doc_get(o, path);

	return json_is_boolean(v) ? json_is_true(v) : dflt;
}
