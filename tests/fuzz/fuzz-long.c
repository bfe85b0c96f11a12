/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_parse_long(): the input as a string, parsed against several ranges.
 * Checks: the result code is 0, -EINVAL or -ERANGE; nothing is written on
 * failure; a result lies in [min, max]; whether a range accepts the
 * string agrees with the full-range result; the canonical rendering
 * ("%ld") parses back to the same value.
 */
#include <errno.h>
#include <limits.h>

#include "core/units.h"
#include "fuzz.h"

static const struct {
	long min, max;
} ranges[] = {
	{ LONG_MIN, LONG_MAX },	/* first: the reference */
	{ 0, 0 },
	{ 0, 100 },
	{ 0, 99 },
	{ 1, 1048576 },
	{ 2, 1024 },
	{ 1000, 768000 },
	{ -20, 19 },
	{ 0, 2000000000 },
	{ LONG_MIN, -1 },
	{ LONG_MAX, LONG_MAX },
	{ 5, 1 },		/* empty range: nothing fits */
};

#define N_RANGES (sizeof(ranges) / sizeof(ranges[0]))
#define UNSET 0x5a5a5a5aL

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), canon[32];
	long v, ref = UNSET, back;
	int r, r_ref = 0;
	size_t i;

	for (i = 0; i < N_RANGES; i++) {
		v = UNSET;
		r = al_parse_long(s, ranges[i].min, ranges[i].max, &v);
		FUZZ_CHECK(r == 0 || r == -EINVAL || r == -ERANGE, "'%s' in %ld..%ld: returned %d",
			   s, ranges[i].min, ranges[i].max, r);
		if (r)
			FUZZ_CHECK(v == UNSET, "'%s' in %ld..%ld: failed with %d but wrote %ld", s,
				   ranges[i].min, ranges[i].max, r, v);
		else
			FUZZ_CHECK(v >= ranges[i].min && v <= ranges[i].max,
				   "'%s': %ld is outside %ld..%ld", s, v, ranges[i].min,
				   ranges[i].max);
		if (i == 0) {
			r_ref = r;
			ref = v;
			continue;
		}
		/* a malformed string is malformed whatever the range */
		if (r_ref == -EINVAL)
			FUZZ_CHECK(r == -EINVAL, "'%s': malformed, but %d in %ld..%ld", s, r,
				   ranges[i].min, ranges[i].max);
		else if (r_ref == 0)
			FUZZ_CHECK(ref >= ranges[i].min && ref <= ranges[i].max ?
					   r == 0 && v == ref : r == -ERANGE,
				   "'%s' is %ld, but %d (%ld) in %ld..%ld", s, ref, r, v,
				   ranges[i].min, ranges[i].max);
		else
			FUZZ_CHECK(r == -ERANGE, "'%s' overflows a long, but %d in %ld..%ld", s, r,
				   ranges[i].min, ranges[i].max);
	}
	if (r_ref == 0) {
		snprintf(canon, sizeof(canon), "%ld", ref);
		back = UNSET;
		r = al_parse_long(canon, LONG_MIN, LONG_MAX, &back);
		FUZZ_CHECK(r == 0 && back == ref, "'%s' is %ld, but '%s' gives %d, %ld", s, ref,
			   canon, r, back);
	}
	free(s);
	return 0;
}
