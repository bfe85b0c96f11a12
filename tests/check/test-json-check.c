/* SPDX-License-Identifier: GPL-2.0-or-later */
/* al_json_checks(): counts, fields, and valid JSON from any bytes. */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "report/json-check.h"

static void
test_counts_and_fields(void **state)
{
	struct al_syscheck c[4] = {
		{ "rtprio", "ok", "hard RLIMIT_RTPRIO is 95", "" },
		{ "smt", "warn", "SMT is on", "echo off | sudo tee /sys/devices/system/cpu/smt/control" },
		{ "rt_throttling", "fail", "sched_rt_runtime_us = 0", "sysctl -w kernel.sched_rt_runtime_us=950000" },
		{ "governor", "skip", "no cpufreq", "" },
	};
	json_t *j, *checks, *first;

	(void)state;
	j = al_json_checks(c, 4);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "ok")), 1);
	assert_int_equal(json_integer_value(json_object_get(j, "warn")), 1);
	assert_int_equal(json_integer_value(json_object_get(j, "fail")), 1);
	assert_int_equal(json_integer_value(json_object_get(j, "skip")), 1);
	checks = json_object_get(j, "checks");
	assert_true(json_is_array(checks));
	assert_int_equal(json_array_size(checks), 4);
	first = json_array_get(checks, 1);
	assert_string_equal(json_string_value(json_object_get(first, "id")), "smt");
	assert_string_equal(json_string_value(json_object_get(first, "status")), "warn");
	assert_string_equal(json_string_value(json_object_get(first, "message")), "SMT is on");
	assert_string_equal(json_string_value(json_object_get(first, "fix")),
			    "echo off | sudo tee /sys/devices/system/cpu/smt/control");
	json_decref(j);
}

static void
test_empty(void **state)
{
	json_t *j = al_json_checks(NULL, 0);

	(void)state;
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "skip")), 0);
	assert_int_equal(json_array_size(json_object_get(j, "checks")), 0);
	json_decref(j);
}

/* Control bytes of a message (ESC, DEL) become '?': a terminal shows the JSON as it is. */
static void
test_control_bytes(void **state)
{
	struct al_syscheck c[1] = { { "smt", "warn", "a\x1b[31mb\x7f" "c", "fix\x7f" } };
	json_t *j, *k;

	(void)state;
	j = al_json_checks(c, 1);
	assert_non_null(j);
	k = json_array_get(json_object_get(j, "checks"), 0);
	assert_string_equal(json_string_value(json_object_get(k, "message")), "a?[31mb?c");
	assert_string_equal(json_string_value(json_object_get(k, "fix")), "fix?");
	json_decref(j);
}

/* Unterminated fields, invalid UTF-8 and a bogus status still give valid JSON. */
static void
test_garbage(void **state)
{
	struct al_syscheck c[1];
	json_t *j, *k, *back;
	char *text;

	(void)state;
	memset(&c[0], 0xff, sizeof(c[0]));
	memcpy(c[0].status, "weird!!", 8);
	j = al_json_checks(c, 1);
	assert_non_null(j);
	assert_int_equal(json_integer_value(json_object_get(j, "skip")), 1);
	k = json_array_get(json_object_get(j, "checks"), 0);
	assert_string_equal(json_string_value(json_object_get(k, "status")), "skip");
	assert_int_equal(strlen(json_string_value(json_object_get(k, "id"))), sizeof(c[0].id));
	text = json_dumps(j, 0);
	assert_non_null(text);
	back = json_loads(text, 0, NULL);
	assert_non_null(back);
	json_decref(back);
	free(text);
	json_decref(j);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_counts_and_fields),
		cmocka_unit_test(test_empty),
		cmocka_unit_test(test_control_bytes),
		cmocka_unit_test(test_garbage),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
