/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * KCIDB's build id (export --format kcidb --build-id): every test of every
 * run gets it as given; the default is ORIGIN:KERNEL_RELEASE; an id that
 * is not ORIGIN:ID is refused with one line and no report. The figures in
 * each format's units (KCIDB and JUnit seconds, LAVA microseconds), and a
 * run whose max is its --max-latency exactly passes.
 */
#include <errno.h>
#include <math.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "export/export.h"

static json_t *
run_doc(const char *uuid)
{
	return json_pack("{s:s, s:s, s:s, s:I, s:{s:s}, s:{s:s}, s:{s:I, s:I, s:{s:I, s:I, s:I, s:I}}}",
			 "schema", "audiolat.run/2", "uuid", uuid, "started_at",
			 "2026-12-01T15:00:00.000Z", "duration_ns", (json_int_t)5000000000,
			 "system", "kernel_release", "6.18.44-rt", "config", "backend", "sim",
			 "total", "periods", (json_int_t)3750, "xruns", (json_int_t)0,
			 "wake_latency_ns", "p50", (json_int_t)15000, "p99", (json_int_t)34000,
			 "p999", (json_int_t)44000, "max", (json_int_t)68000);
}

/* the report of two runs with opts; every test's build_id must be want */
static void
expect_build(const struct al_ci_opts *o, const char *want)
{
	json_t *docs[2] = { run_doc("5f0c6a36-1f7e-4c29-9d0b-8d6f1e0e2a41"),
			    run_doc("6a1d7b47-2a8f-4d3a-8e7a-9e7f2f1f3b52") };
	json_t *out = NULL, *t;
	char err[256] = "";
	size_t i;

	assert_int_equal(al_ci_kcidb(docs, 2, o, &out, err, sizeof(err)), 0);
	assert_non_null(out);
	assert_true(json_array_size(json_object_get(out, "tests")) > 2);
	json_array_foreach(json_object_get(out, "tests"), i, t)
		assert_string_equal(json_string_value(json_object_get(t, "build_id")), want);
	json_decref(out);
	json_decref(docs[0]);
	json_decref(docs[1]);
}

static void
build_id_given_or_made(void **state)
{
	struct al_ci_opts o = { 0 };
	char long_id[202];

	(void)state;
	expect_build(NULL, "audiolat:6.18.44-rt");
	o.origin = "lab_7";
	expect_build(&o, "lab_7:6.18.44-rt");
	o.build_id = "kernelci:build-6c0b2a4f";
	expect_build(&o, "kernelci:build-6c0b2a4f");
	o.build_id = "lab_7:a:b/c d"; /* the ID is the CI system's: anything printable */
	expect_build(&o, "lab_7:a:b/c d");
	memset(long_id, 'x', sizeof(long_id) - 1);
	long_id[sizeof(long_id) - 1] = '\0';
	memcpy(long_id, "ci:", 3);
	long_id[200] = '\0'; /* 200 bytes: the most */
	o.build_id = long_id;
	expect_build(&o, long_id);
}

static void
bad_build_ids_are_refused(void **state)
{
	static const char *const bad[] = { "kernelci", "kernelci:", ":1", "Kernel CI:1",
					   "ker-nel:1", "kernelci:a\nb", "kernelci:a\x7f" };
	char long_id[202], err[256];
	struct al_ci_opts o = { 0 };
	json_t *doc = run_doc("5f0c6a36-1f7e-4c29-9d0b-8d6f1e0e2a41"), *out;
	size_t i;

	(void)state;
	for (i = 0; i <= sizeof(bad) / sizeof(bad[0]); i++) {
		if (i < sizeof(bad) / sizeof(bad[0])) {
			o.build_id = bad[i];
		} else {
			memset(long_id, 'x', sizeof(long_id) - 1);
			long_id[sizeof(long_id) - 1] = '\0'; /* 201 bytes: one too many */
			memcpy(long_id, "ci:", 3);
			o.build_id = long_id;
		}
		out = (json_t *)1;
		err[0] = '\0';
		assert_int_equal(al_ci_kcidb(&doc, 1, &o, &out, err, sizeof(err)), -EINVAL);
		assert_null(out);
		assert_non_null(strstr(err, "is not ORIGIN:ID"));
		assert_null(strchr(err, '\n'));
		assert_null(strchr(err, '\x7f'));
	}
	json_decref(doc);
}

/* The figure of path in fig[0..n), NULL when there is none. */
static const struct al_ci_figure *
figure(const struct al_ci_figure *fig, size_t n, const char *path)
{
	for (size_t i = 0; i < n; i++)
		if (!strcmp(fig[i].path, path))
			return &fig[i];
	return NULL;
}

static void
figures_in_their_units(void **state)
{
	struct al_ci_figure fig[AL_CI_FIGURES_MAX];
	const struct al_ci_figure *max;
	json_t *doc = run_doc("5f0c6a36-1f7e-4c29-9d0b-8d6f1e0e2a41"), *out = NULL, *t;
	char err[256] = "", *text = NULL;
	bool seen = false;
	size_t n, i;

	(void)state;
	/* the max (68 us) is the --max-latency exactly: within it */
	json_object_set_new(json_object_get(doc, "config"), "max_latency_ns",
			    json_integer(68000));
	n = al_ci_run_figures(doc, fig, AL_CI_FIGURES_MAX);
	max = figure(fig, n, "audiolat.run.wake_latency.max");
	assert_non_null(max);
	assert_true(max->measured && max->has_limit && max->pass);
	assert_string_equal(max->unit, "s");
	assert_true(fabs(max->value - 68e-6) < 1e-12);

	assert_int_equal(al_ci_kcidb(&doc, 1, NULL, &out, err, sizeof(err)), 0);
	json_array_foreach(json_object_get(out, "tests"), i, t) {
		/* the run's 5 s, in seconds */
		assert_true(fabs(json_real_value(json_object_get(t, "duration")) - 5.0) < 1e-9);
		if (strcmp(json_string_value(json_object_get(t, "path")),
			   "audiolat.run.wake_latency.max"))
			continue;
		assert_string_equal(json_string_value(json_object_get(t, "status")), "PASS");
		seen = true;
	}
	assert_true(seen);
	json_decref(out);

	assert_int_equal(al_ci_format("lava", &doc, 1, NULL, &text, err, sizeof(err)), 0);
	assert_non_null(strstr(text, "lava-test-case audiolat.run.wake_latency.max --result pass "
				     "--measurement 68.000 --units us\n"));
	assert_non_null(strstr(text, "lava-test-case audiolat.run.wake_latency.p50 --result pass "
				     "--measurement 15.000 --units us\n"));
	free(text);

	assert_int_equal(al_ci_format("junit", &doc, 1, NULL, &text, err, sizeof(err)), 0);
	assert_non_null(strstr(text, " time=\"5.000\">"));
	assert_non_null(strstr(text, "name=\"audiolat.run.wake_latency.max\" value=\"6.8e-05\""));
	assert_null(strstr(text, "<failure"));
	free(text);
	json_decref(doc);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(build_id_given_or_made),
		cmocka_unit_test(bad_build_ids_are_refused),
		cmocka_unit_test(figures_in_their_units),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
