/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "core/units.h"

static int64_t
dur(const char *s, int64_t unit)
{
	int64_t v = -1;

	assert_int_equal(al_parse_duration_ns(s, unit, &v), 0);
	return v;
}

static void
durations_with_units(void **state)
{
	(void)state;
	assert_int_equal(dur("500us", 0), 500 * AL_NS_PER_US);
	assert_int_equal(dur("1.5ms", 0), 1500 * AL_NS_PER_US);
	assert_int_equal(dur("30s", 0), 30 * AL_NS_PER_SEC);
	assert_int_equal(dur("2m", 0), 120 * AL_NS_PER_SEC);
	assert_int_equal(dur("1h", 0), 3600 * AL_NS_PER_SEC);
	assert_int_equal(dur("7ns", 0), 7);
	assert_int_equal(dur("0.000000001s", 0), 1);
	assert_int_equal(dur("1.333333ms", 0), 1333333);
	assert_int_equal(dur(".25s", 0), 250 * AL_NS_PER_MS);
	assert_int_equal(dur("0s", 0), 0);
}

static void
bare_numbers_take_the_default_unit(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(dur("10", AL_NS_PER_SEC), 10 * AL_NS_PER_SEC);
	assert_int_equal(dur("250", AL_NS_PER_US), 250 * AL_NS_PER_US);
	assert_int_equal(al_parse_duration_ns("10", 0, &v), -EINVAL);
}

static void
malformed_durations_are_refused(void **state)
{
	static const char *bad[] = { "", "s", "abc", "5x", "-1s", "1.2.3s", "1 s", " 1s",
				     "1s ", "1S", "ms", ".", "1e3s", "+1s", "0x10s" };
	int64_t v = 42;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		assert_int_equal(al_parse_duration_ns(bad[i], AL_NS_PER_SEC, &v), -EINVAL);
		assert_int_equal(v, 42);
	}
	assert_int_equal(al_parse_duration_ns(NULL, AL_NS_PER_SEC, &v), -EINVAL);
}

static void
huge_durations_are_out_of_range(void **state)
{
	int64_t v;

	(void)state;
	assert_int_equal(al_parse_duration_ns("99999999999999999999s", 0, &v), -ERANGE);
	assert_int_equal(al_parse_duration_ns("9999999999h", 0, &v), -ERANGE);
	/* the fraction must not overflow what the whole part left */
	assert_int_equal(al_parse_duration_ns("9223372036.9", AL_NS_PER_SEC, &v), -ERANGE);
	assert_int_equal(al_parse_duration_ns("9223372036854775.999us", 0, &v), -ERANGE);
	assert_int_equal(al_parse_duration_ns("9223372036854775807ns", 0, &v), 0);
	assert_int_equal(v, INT64_MAX);
}

static void
whole_numbers(void **state)
{
	long v = 0;

	(void)state;
	assert_int_equal(al_parse_long("64", 1, 100, &v), 0);
	assert_int_equal(v, 64);
	assert_int_equal(al_parse_long("-3", -5, 5, &v), 0);
	assert_int_equal(v, -3);
	assert_int_equal(al_parse_long("1", 1, 100, &v), 0); /* both bounds are in the range */
	assert_int_equal(v, 1);
	assert_int_equal(al_parse_long("100", 1, 100, &v), 0);
	assert_int_equal(v, 100);
	assert_int_equal(al_parse_long("0", 1, 100, &v), -ERANGE);
	assert_int_equal(al_parse_long("101", 1, 100, &v), -ERANGE);
	assert_int_equal(al_parse_long("12abc", 1, 100, &v), -EINVAL);
	assert_int_equal(al_parse_long("", 1, 100, &v), -EINVAL);
	assert_int_equal(al_parse_long(" 5", 1, 100, &v), -EINVAL);
	assert_int_equal(al_parse_long("99999999999999999999999", 1, 100, &v), -ERANGE);
}

static void
formatting(void **state)
{
	char buf[32];

	(void)state;
	al_format_duration(812, buf, sizeof(buf));
	assert_string_equal(buf, "812 ns");
	al_format_duration(15200, buf, sizeof(buf));
	assert_string_equal(buf, "15.2 us");
	al_format_duration(1352000, buf, sizeof(buf));
	assert_string_equal(buf, "1352.0 us");
	al_format_duration(15198000, buf, sizeof(buf));
	assert_string_equal(buf, "15.198 ms");
	al_format_duration(31 * AL_NS_PER_SEC, buf, sizeof(buf));
	assert_string_equal(buf, "31.000 s");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(durations_with_units),
		cmocka_unit_test(bare_numbers_take_the_default_unit),
		cmocka_unit_test(malformed_durations_are_refused),
		cmocka_unit_test(huge_durations_are_out_of_range),
		cmocka_unit_test(whole_numbers),
		cmocka_unit_test(formatting),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
