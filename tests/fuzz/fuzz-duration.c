/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_parse_duration_ns(): the input as a string, parsed with every default
 * unit. Checks: the result code is 0, -EINVAL or -ERANGE; nothing is
 * written on failure; a parsed duration is >= 0; its canonical rendering
 * "<ns>ns" parses back to the same value; the default unit only matters
 * for a bare number (a string that parses with the unit mandatory parses
 * to the same value whatever the default); the readable rendering
 * (al_format_duration) stays inside its buffer.
 */
#include <errno.h>
#include <inttypes.h>

#include "core/clock.h"
#include "core/units.h"
#include "fuzz.h"

static const int64_t default_units_ns[] = {
	0, 1, AL_NS_PER_US, AL_NS_PER_MS, AL_NS_PER_SEC, 60 * AL_NS_PER_SEC,
	3600 * AL_NS_PER_SEC,
};

#define N_UNITS (sizeof(default_units_ns) / sizeof(default_units_ns[0]))
#define UNSET INT64_MIN

static void
check_format(int64_t t_ns)
{
	static const size_t sizes[] = { 1, 2, 5, 8, 32 };
	char buf[40];
	size_t i;

	for (i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++) {
		memset(buf, 'X', sizeof(buf));
		al_format_duration(t_ns, buf, sizes[i]);
		FUZZ_CHECK(memchr(buf, '\0', sizes[i]) != NULL,
			   "al_format_duration(%" PRId64 ") not terminated in %zu bytes", t_ns,
			   sizes[i]);
		FUZZ_CHECK(buf[sizes[i]] == 'X', "al_format_duration(%" PRId64
			   ") wrote past %zu bytes", t_ns, sizes[i]);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), canon[32];
	int64_t v[N_UNITS], back;
	int r[N_UNITS], rb;
	size_t i;

	for (i = 0; i < N_UNITS; i++) {
		v[i] = UNSET;
		r[i] = al_parse_duration_ns(s, default_units_ns[i], &v[i]);
		FUZZ_CHECK(r[i] == 0 || r[i] == -EINVAL || r[i] == -ERANGE,
			   "'%s' (default %" PRId64 " ns): returned %d", s, default_units_ns[i],
			   r[i]);
		if (r[i]) {
			FUZZ_CHECK(v[i] == UNSET, "'%s': failed with %d but wrote %" PRId64, s,
				   r[i], v[i]);
			continue;
		}
		FUZZ_CHECK(v[i] >= 0, "'%s' (default %" PRId64 " ns) parsed to %" PRId64 " ns", s,
			   default_units_ns[i], v[i]);

		/* the canonical rendering parses back to the same value, unit mandatory */
		snprintf(canon, sizeof(canon), "%" PRId64 "ns", v[i]);
		back = UNSET;
		rb = al_parse_duration_ns(canon, 0, &back);
		FUZZ_CHECK(rb == 0 && back == v[i],
			   "'%s' parsed to %" PRId64 " ns, but '%s' gives %d, %" PRId64, s, v[i],
			   canon, rb, back);
		check_format(v[i]);
	}
	/* with an explicit unit the default does not matter */
	if (r[0] == 0)
		for (i = 1; i < N_UNITS; i++)
			FUZZ_CHECK(r[i] == 0 && v[i] == v[0],
				   "'%s': %" PRId64 " ns with the unit mandatory, but %d, %" PRId64
				   " with default %" PRId64 " ns", s, v[0], r[i], v[i],
				   default_units_ns[i]);
	/* a bare number scales with the default unit (exact when whole) */
	if (r[0] == -EINVAL && r[1] == 0 && !strchr(s, '.'))
		for (i = 2; i < N_UNITS; i++)
			if (r[i] == 0)
				FUZZ_CHECK(v[i] / default_units_ns[i] == v[1] &&
					   v[i] % default_units_ns[i] == 0,
					   "'%s': %" PRId64 " ns at 1 ns, %" PRId64 " at %" PRId64, s,
					   v[1], v[i], default_units_ns[i]);
	free(s);
	return 0;
}
