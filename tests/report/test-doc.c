/* SPDX-License-Identifier: GPL-2.0-or-later */
/* Reading documents: checked getters, the histogram and the time series. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "core/clock.h"
#include "compare/ci.h"
#include "doc/view.h"
#include "report/report.h"

static json_t *
parse(const char *text)
{
	json_error_t e;
	json_t *j = json_loads(text, 0, &e);

	if (!j)
		fail_msg("bad test JSON: %s", e.text);
	return j;
}

static void
getters(void **state)
{
	json_t *d = parse("{\"a\": {\"b\": {\"i\": 7, \"r\": 2.5, \"s\": \"x\", \"t\": true}}, "
			  "\"n\": null, \"arr\": [1]}");

	(void)state;
	assert_int_equal(al_doc_int(d, "a.b.i", -1), 7);
	assert_int_equal(al_doc_int(d, "a.b.r", -1), 2);
	assert_true(al_doc_real(d, "a.b.i", 0) == 7.0);
	assert_true(al_doc_real(d, "a.b.r", 0) == 2.5);
	assert_string_equal(al_doc_str(d, "a.b.s", "?"), "x");
	assert_true(al_doc_bool(d, "a.b.t", false));
	/* missing, mistyped, through a non-object: the default */
	assert_int_equal(al_doc_int(d, "a.b.s", -1), -1);
	assert_int_equal(al_doc_int(d, "a.x.i", -1), -1);
	assert_int_equal(al_doc_int(d, "n.i", -1), -1);
	assert_int_equal(al_doc_int(d, "arr.0", -1), -1);
	assert_string_equal(al_doc_str(d, "a.b.i", "?"), "?");
	assert_false(al_doc_bool(d, "a.b.s", false));
	assert_null(al_doc_get(d, "a.b.i.deeper"));
	assert_null(al_doc_get(NULL, "a"));
	json_decref(d);
}

static void
check_refuses_what_it_cannot_read(void **state)
{
	char err[128];
	json_t *d;

	(void)state;
	d = parse("[1, 2]");
	assert_int_equal(al_doc_check(d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "not a JSON object");
	json_decref(d);
	d = parse("{\"total\": {}}");
	assert_int_equal(al_doc_check(d, err, sizeof(err)), -EINVAL);
	assert_non_null(strstr(err, "schema"));
	json_decref(d);
	d = parse("{\"schema\": \"audiolat.check/1\", \"total\": {}}");
	assert_int_equal(al_doc_check(d, err, sizeof(err)), -EINVAL);
	assert_string_equal(err,
			    "schema 'audiolat.check/1' is not audiolat.run/2, audiolat.run/1, audiolat.midi/1 or audiolat.midi-loop/1");
	json_decref(d);
	/* an odd schema string is shown printable */
	d = parse("{\"schema\": \"x\\u001b[2J\", \"total\": {}}");
	assert_int_equal(al_doc_check(d, err, sizeof(err)), -EINVAL);
	assert_null(strchr(err, '\x1b'));
	json_decref(d);
	d = parse("{\"schema\": \"audiolat.run/1\", \"total\": 3}");
	assert_int_equal(al_doc_check(d, err, sizeof(err)), -EINVAL);
	json_decref(d);
	d = parse("{\"schema\": \"audiolat.run/1\", \"total\": {}}");
	assert_int_equal(al_doc_check(d, err, sizeof(err)), 0);
	assert_string_equal(al_doc_label(d), "?");
	json_decref(d);
	d = parse("{\"schema\": \"audiolat.run/1\", \"total\": {}, \"label\": null, "
		  "\"system\": {\"kernel_release\": \"6.6.0-rt\"}}");
	assert_string_equal(al_doc_label(d), "6.6.0-rt");
	json_object_set_new(d, "label", json_string("patched"));
	assert_string_equal(al_doc_label(d), "patched");
	json_decref(d);
}

/* The histogram of a real result, decoded, gives the same percentiles as the live one. */
static void
histogram_round_trip(void **state)
{
	struct al_config cfg = {.backend = "sim",
				.rate_hz = 48000,
				.period_frames = 64,
				.periods = 3,
				.affinity_cpu = -1,
				.dma_latency_us = -1,
				.duration_ns = 10 * AL_NS_PER_SEC};
	static const double qs[] = {1e-6, 0.01, 0.1, 0.25, 0.5, 0.9, 0.99, 0.999, 0.9999, 1};
	struct al_result r;
	struct al_sample s = {0};
	struct al_rng rng;
	struct al_dhist h;
	json_t *doc;
	size_t i;
	int k;

	(void)state;
	assert_int_equal(al_result_alloc(&r, &cfg, 1, 16), 0);
	snprintf(r.phases[0].name, sizeof(r.phases[0].name), "idle");
	r.start_mono_ns = AL_NS_PER_SEC;
	al_rng_seed(&rng, 5);
	for (k = 0; k < 5000; k++) {
		s.boundary_ns = AL_NS_PER_SEC + k * r.period_ns;
		/* exact small values, log-linear larger ones, a few huge ones */
		s.wake_ns = s.boundary_ns + (int64_t)(k % 97 == 0 ? 3e6 * al_rng_uniform(&rng)
						      : k % 3	  ? 250 * al_rng_uniform(&rng)
								  : 40000 * al_rng_uniform(&rng));
		s.prev_wake_ns = 0;
		s.work_ns = -1;
		s.margin_ns = INT64_MAX;
		al_result_record(&r, &s);
	}
	al_result_finish(&r);
	doc = al_doc_run_json(&r);
	assert_non_null(doc);
	assert_int_equal(al_dhist_from_json(al_doc_get(doc, "total.histogram.wake_latency_ns"),
					    al_doc_get(doc, "total.wake_latency_ns"), &h),
			 0);
	assert_int_equal(h.count, 5000);
	assert_int_equal(h.min_ns, r.total.wake_ns.min_ns);
	assert_int_equal(h.max_ns, r.total.wake_ns.max_ns);
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++)
		assert_int_equal(al_dhist_quantile(&h, qs[i]),
				 al_hist_quantile(&r.total.wake_ns, qs[i]));
	al_dhist_free(&h);
	json_decref(doc);
	al_result_free(&r);
}

static void
histogram_malformed_buckets(void **state)
{
	struct al_dhist h;
	json_t *d;

	(void)state;
	d = parse("{\"count\": 9, \"overflow\": 2, \"buckets\": ["
		  "[300, 310, 3], [100, 101, 1], \"x\", [5, 5, 1], [7, 9, -1], [7, 9, 0],"
		  "[100, 105, 4], [1.5, 3, 1], [200, 300, 2], [1, 2]]}");
	assert_int_equal(al_dhist_from_json(d, NULL, &h), 0);
	/* kept: [100,101) [200,300) [300,310); [100,105) overlaps and goes */
	assert_int_equal(h.n, 3);
	assert_int_equal(h.b[0].low_ns, 100);
	assert_int_equal(h.b[1].low_ns, 200);
	assert_int_equal(h.b[2].low_ns, 300);
	assert_int_equal(h.count, 1 + 2 + 3 + 2);
	assert_int_equal(h.min_ns, 100);
	assert_int_equal(h.max_ns, 309);
	assert_int_equal(al_dhist_quantile(&h, 0.1), 100);
	assert_int_equal(al_dhist_quantile(&h, 0.3), 249); /* midpoint of [200, 300) */
	assert_int_equal(al_dhist_quantile(&h, 1.0), 309); /* rank 8: the overflow, max */
	al_dhist_free(&h);
	json_decref(d);
	/* nothing at all */
	assert_int_equal(al_dhist_from_json(NULL, NULL, &h), 0);
	assert_int_equal(h.n, 0);
	assert_int_equal(h.count, 0);
	assert_int_equal(al_dhist_quantile(&h, 0.5), 0);
	al_dhist_free(&h);
	/* buckets spanning all of int64 must not overflow the midpoint */
	d = parse("{\"buckets\": [[-9223372036854775807, 9223372036854775807, 1]]}");
	assert_int_equal(al_dhist_from_json(d, NULL, &h), 0);
	assert_int_equal(h.n, 1);
	(void)al_dhist_quantile(&h, 0.5);
	al_dhist_free(&h);
	json_decref(d);
}

static void
series_by_column_name(void **state)
{
	struct al_dseries s;
	json_t *d;

	(void)state;
	d = parse("{\"timeseries\": {\"window_ns\": 100000000, \"columns\": [\"phase\", \"t_ns\", "
		  "\"extra\", \"wake_max_ns\", \"periods\", \"wake_mean_ns\"], \"rows\": ["
		  "[\"idle\", 0, 1, 500, 75, 200], 7, [null, 100000000, 1, null, 0, null],"
		  "[\"load\", 200000000, 1, 900.7, 74, \"x\"]]}}");
	assert_int_equal(al_dseries_from_json(d, &s), 0);
	assert_int_equal(s.window_ns, 100000000);
	assert_int_equal(s.n, 3);
	assert_string_equal(s.w[0].phase, "idle");
	assert_int_equal(s.w[0].wake_max_ns, 500);
	assert_int_equal(s.w[0].periods, 75);
	assert_int_equal(s.w[0].wake_mean_ns, 200);
	assert_int_equal(s.w[0].wake_min_ns, 0); /* no such column */
	assert_int_equal(s.w[1].periods, 0);
	assert_null(s.w[1].phase);
	assert_int_equal(s.w[2].wake_max_ns, 900);
	assert_int_equal(s.w[2].wake_mean_ns, 0); /* a string reads as 0 */
	al_dseries_free(&s);
	json_decref(d);
	d = parse("{\"timeseries\": 5}");
	assert_int_equal(al_dseries_from_json(d, &s), 0);
	assert_int_equal(s.n, 0);
	al_dseries_free(&s);
	json_decref(d);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(getters),
	    cmocka_unit_test(check_refuses_what_it_cannot_read),
	    cmocka_unit_test(histogram_round_trip),
	    cmocka_unit_test(histogram_malformed_buckets),
	    cmocka_unit_test(series_by_column_name),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
