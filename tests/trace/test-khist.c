/* SPDX-License-Identifier: GPL-2.0-or-later */
/* The kernel's wake-to-run hist file read (src/trace/khist-parse.c). */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "trace/trace.h"

static const char guest[] =
	"# event histogram\n"
	"#\n"
	"# trigger info: hist:keys=lat_us:vals=hitcount:sort=lat_us:size=8192 [paused]\n"
	"#\n"
	"\n"
	"{ lat_us:         38 } hitcount:          3\n"
	"{ lat_us:         40 } hitcount:        120\n"
	"{ lat_us:         41 } hitcount:        160\n"
	"{ lat_us:         43 } hitcount:        100\n"
	"{ lat_us:         60 } hitcount:        173\n"
	"{ lat_us:        602 } hitcount:          5\n"
	"{ lat_us:        630 } hitcount:          1\n"
	"\n"
	"Totals:\n"
	"    Hits: 562\n"
	"    Entries: 7\n"
	"    Dropped: 0\n";

static int
parse(const char *text, struct al_kernel_wake *k)
{
	return al_khist_parse(text, strlen(text), k);
}

/* 562 wake-ups: the 281st (p50) at 41 us, the 557th (p99) at 602 us, the last at 630 */
static void
a_guest_histogram(void **state)
{
	struct al_kernel_wake k;

	(void)state;
	assert_int_equal(parse(guest, &k), 0);
	assert_true(k.measured);
	assert_int_equal(k.count, 562);
	assert_int_equal(k.dropped, 0);
	assert_int_equal(k.p50_ns, 41000);
	assert_int_equal(k.p99_ns, 602000);
	assert_int_equal(k.max_ns, 630000);
}

/* what the kernel could not keep is said; an empty histogram is a measured 0 */
static void
dropped_and_empty(void **state)
{
	struct al_kernel_wake k;

	(void)state;
	assert_int_equal(parse("{ lat_us: 5 } hitcount: 2\n{ lat_us: 7 } hitcount: 1\n"
			       "Totals:\n    Hits: 5\n    Dropped: 2\n", &k), 0);
	assert_int_equal(k.count, 3);
	assert_int_equal(k.dropped, 2);
	assert_int_equal(k.max_ns, 7000);
	assert_int_equal(parse("Totals:\n    Hits: 0\n    Entries: 0\n    Dropped: 0\n", &k), 0);
	assert_true(k.measured);
	assert_int_equal(k.count, 0);
	assert_int_equal(k.max_ns, 0);
}

/* anything else is -EPROTO, out zeroed: keys out of order, no totals, a bad count, a cut line */
static void
not_a_hist_file(void **state)
{
	struct al_kernel_wake k;

	(void)state;
	assert_int_equal(parse("{ lat_us: 7 } hitcount: 1\n{ lat_us: 5 } hitcount: 2\nHits: 3\n", &k),
			 -EPROTO);
	assert_false(k.measured);
	assert_int_equal(parse("{ lat_us: 5 } hitcount: 2\n", &k), -EPROTO);
	assert_int_equal(parse("{ lat_us: 5 } hitcount: x\nHits: 1\n", &k), -EPROTO);
	assert_int_equal(parse("{ lat_us: 5 }\nHits: 1\n", &k), -EPROTO);
	assert_int_equal(parse("{ lat_us: 99999999999999999999 } hitcount: 1\nHits: 1\n", &k),
			 -EPROTO);
	assert_int_equal(parse("", &k), -EPROTO);
	assert_int_equal(k.count, 0);
	/* the length bounds it: the totals past len are not read */
	assert_int_equal(al_khist_parse(guest, strlen(guest) - strlen("    Hits: 562\n    Entries: 7\n    Dropped: 0\n"), &k),
			 -EPROTO);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(a_guest_histogram),
		cmocka_unit_test(dropped_and_empty),
		cmocka_unit_test(not_a_hist_file),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
