/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What the results database accepts (audiolat import, every saved run):
 * al_store_check_document() on the input bytes, and al_store_parse_id()
 * on the input as a string. The JSON itself is jansson's; this checks
 * the layer on top (the schema string, the fields a run must have).
 * Checks: 0 or -EINVAL; on failure err is one non-empty terminated line
 * (or the input had a newline), with a small buffer as well, and the same
 * code either way; on success err is empty and the bytes are a JSON
 * object with a "schema" "audiolat.KIND/VERSION" (a run/1 or /2 with integer
 * or null total.periods); an id parses exactly when the string is all digits and
 * fits, to the value strtoull gives.
 */
#include <errno.h>
#include <inttypes.h>

#include <jansson.h>

#include "store/store.h"
#include "fuzz.h"

#define ERR_SIZE 512
#define SMALL_ERR 12

static void
check_success(const uint8_t *data, size_t size)
{
	json_t *doc = json_loadb((const char *)data, size, 0, NULL), *total;
	const char *schema;

	FUZZ_CHECK(json_is_object(doc), "%s", "accepted, but not a JSON object");
	schema = json_string_value(json_object_get(doc, "schema"));
	FUZZ_CHECK(schema && !strncmp(schema, "audiolat.", 9) && strchr(schema, '/'),
		   "accepted with schema '%s'", schema ? schema : "(none)");
	if (!strcmp(schema, "audiolat.run/1") || !strcmp(schema, "audiolat.run/2")) {
		total = json_object_get(doc, "total");
		/* null: an imported run's tool did not count them (docs/interchange.md) */
		FUZZ_CHECK(json_is_integer(json_object_get(total, "periods")) ||
				   json_is_null(json_object_get(total, "periods")),
			   "%s", "a run accepted without an integer or null total.periods");
	}
	json_decref(doc);
}

static void
check_id(const char *s)
{
	int64_t id = -1;
	int rc = al_store_parse_id(s, &id), digits = s[0] != '\0';
	unsigned long long ref;
	const char *p;
	char *end;

	for (p = s; *p; p++)
		if (*p < '0' || *p > '9')
			digits = 0;
	FUZZ_CHECK(rc == 0 || rc == -EINVAL || rc == -ERANGE, "'%s': returned %d", s, rc);
	if (!digits) {
		FUZZ_CHECK(rc == -EINVAL, "'%s' is not all digits, but %d", s, rc);
		return;
	}
	errno = 0;
	ref = strtoull(s, &end, 10);
	if (errno == ERANGE || ref > INT64_MAX) {
		FUZZ_CHECK(rc == -ERANGE, "'%s' does not fit, but %d", s, rc);
		return;
	}
	FUZZ_CHECK(rc == 0 && (unsigned long long)id == ref, "'%s' is %llu, but %d, %" PRId64, s,
		   ref, rc, id);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[ERR_SIZE], small[SMALL_ERR], *s;
	int rc, rc_small, nl = memchr(data, '\n', size) != NULL;

	memset(err, 'x', sizeof(err));
	rc = al_store_check_document((const char *)data, size, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL, "returned %d", rc);
	if (rc) {
		/* jansson quotes the token near the error: it may carry a NUL-free newline */
		fuzz_check_err(err, sizeof(err), nl || memchr(data, '\r', size) != NULL);
	} else {
		FUZZ_CHECK(err[0] == '\0', "accepted, but err is '%s'", err);
		check_success(data, size);
	}
	memset(small, 'x', sizeof(small));
	rc_small = al_store_check_document((const char *)data, size, small, sizeof(small));
	FUZZ_CHECK(rc_small == rc, "%d with a small buffer, %d with a large one", rc_small, rc);
	FUZZ_CHECK(memchr(small, '\0', sizeof(small)), "%s", "small err not terminated");

	s = fuzz_strndup(data, size);
	check_id(s);
	free(s);
	return 0;
}
