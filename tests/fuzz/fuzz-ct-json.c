/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest --json files (audiolat import, docs/interchange.md):
 * al_ct_json_parse() returns 0 or -EINVAL with one line in err; on success
 * the checks of fuzz-ct-common.h (the counts add up, the text round trip
 * is byte-identical).
 */
#include "fuzz-ct-common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct al_ct_run r;
	char err[256];
	int rc;

	memset(err, 'x', sizeof(err));
	rc = al_ct_json_parse((const char *)data, size, &r, err, sizeof(err));
	FUZZ_CHECK(rc == 0 || rc == -EINVAL, "returned %d", rc);
	if (rc) {
		/* jansson quotes the token near the error: it may carry a newline */
		fuzz_check_err(err, sizeof(err), 1);
		FUZZ_CHECK(err[0] == ':', "'%s' does not follow a file's name", err);
		return 0;
	}
	fuzz_ct_check_run(&r);
	fuzz_ct_round_trip(&r);
	al_ct_run_free(&r);
	return 0;
}
