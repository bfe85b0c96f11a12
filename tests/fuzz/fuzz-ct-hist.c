/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * cyclictest's -h/-H histogram text (audiolat import, docs/interchange.md):
 * al_ct_hist_parse() returns 0 or -EINVAL, on failure one ":LINE: ..." line
 * naming a line of the input; on success the checks of fuzz-ct-common.h
 * (the counts add up, the text round trip is byte-identical).
 */
#include "fuzz-ct-common.h"

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct al_ct_run r;
	char err[256];

	memset(err, 'x', sizeof(err));
	if (fuzz_line_failed(al_ct_hist_parse((const char *)data, size, &r, err, sizeof(err)), err,
			     sizeof(err)))
		return 0;
	fuzz_ct_check_run(&r);
	fuzz_ct_round_trip(&r);
	al_ct_run_free(&r);
	return 0;
}
