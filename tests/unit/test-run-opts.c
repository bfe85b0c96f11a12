/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `audiolat run` option validation: defaults, values, one clear error line. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "args/run-opts.h"
#include "core/clock.h"

static struct al_run_cli p;
static char err[256];

#define PARSE(...)                                                                          \
	({                                                                                  \
		char *argv_[] = { "run", __VA_ARGS__, NULL };                               \
		al_run_parse_args((int)(sizeof(argv_) / sizeof(argv_[0])) - 1, argv_, &p, err, \
				  sizeof(err));                                             \
	})

static void
defaults(void **state)
{
	char *argv[] = { "run", NULL };

	(void)state;
	assert_int_equal(al_run_parse_args(1, argv, &p, err, sizeof(err)), 0);
	assert_string_equal(p.cfg.backend, "sim");
	assert_int_equal(p.cfg.rate_hz, 48000);
	assert_int_equal(p.cfg.period_frames, 64);
	assert_int_equal(p.cfg.periods, 3);
	assert_int_equal(p.cfg.cpu_load_pct, 80);
	assert_int_equal(p.cfg.priority, 80);
	assert_int_equal(p.cfg.affinity_cpu, -1);
	assert_int_equal(p.cfg.duration_ns, 10 * AL_NS_PER_SEC);
	assert_int_equal(p.cfg.dma_latency_us, -1);
	assert_int_equal(p.cfg.max_latency_ns, 0);
	assert_false(p.cfg.fail_on_xrun);
	assert_false(p.why);
	assert_null(p.json_path);
}

static void
values(void **state)
{
	(void)state;
	assert_int_equal(PARSE("-r", "44100", "-P", "256", "-n", "2", "-L", "0", "-p", "0", "-a",
			       "1", "-d", "1.5s", "--json", "-", "-q", "--max-latency", "500us",
			       "--fail-on-xrun", "--dma-latency", "0", "--why"),
			 0);
	assert_int_equal(p.cfg.rate_hz, 44100);
	assert_int_equal(p.cfg.period_frames, 256);
	assert_int_equal(p.cfg.periods, 2);
	assert_int_equal(p.cfg.cpu_load_pct, 0);
	assert_int_equal(p.cfg.priority, 0);
	assert_int_equal(p.cfg.affinity_cpu, 1);
	assert_int_equal(p.cfg.duration_ns, 1500 * AL_NS_PER_MS);
	assert_string_equal(p.json_path, "-");
	assert_true(p.quiet);
	assert_int_equal(p.cfg.max_latency_ns, 500 * AL_NS_PER_US);
	assert_true(p.cfg.fail_on_xrun);
	assert_int_equal(p.cfg.dma_latency_us, 0);
	assert_true(p.why);
	assert_int_equal(PARSE("--duration=30", "--max-latency=250", "--periods=4"), 0);
	assert_int_equal(p.cfg.duration_ns, 30 * AL_NS_PER_SEC);
	assert_int_equal(p.cfg.max_latency_ns, 250 * AL_NS_PER_US);
	assert_int_equal(p.cfg.periods, 4);
}

static void
expect_error(int rc, const char *needle)
{
	assert_int_equal(rc, -EINVAL);
	assert_non_null(strstr(err, needle));
	assert_null(strchr(err, '\n'));
}

static void
bad_values_name_the_option(void **state)
{
	(void)state;
	expect_error(PARSE("-P", "0"), "-P/--period");
	expect_error(PARSE("-r", "0"), "-r/--rate");
	expect_error(PARSE("-n", "1"), "-n/--periods");
	expect_error(PARSE("-L", "1001"), "-L/--cpu-load");
	expect_error(PARSE("-p", "100"), "-p/--priority");
	expect_error(PARSE("-b", "nosuch"), "-b/--backend");
	expect_error(PARSE("-d", "10x"), "-d/--duration");
	expect_error(PARSE("-d", "0s"), "-d/--duration");
	expect_error(PARSE("-d", "-1"), "-d/--duration");
	expect_error(PARSE("-P", "64k"), "-P/--period");
	expect_error(PARSE("--max-latency", "fast"), "--max-latency");
	expect_error(PARSE("--dma-latency", "-1"), "--dma-latency");
	expect_error(PARSE("-a", "x"), "-a/--affinity");
}

static void
unknown_options_and_arguments(void **state)
{
	(void)state;
	expect_error(PARSE("--nosuch"), "--nosuch");
	expect_error(PARSE("-Z"), "-Z");
	expect_error(PARSE("-qXv"), "'-X'");
	expect_error(PARSE("--rate", "48000", "-Xq"), "'-X'");
	expect_error(PARSE("-P"), "needs a value");
	expect_error(PARSE("extra"), "extra");
}

static void
help(void **state)
{
	(void)state;
	assert_int_equal(PARSE("--help"), 0);
	assert_true(p.help);
	{
		char *text = NULL;
		size_t size = 0;
		FILE *f = open_memstream(&text, &size);

		assert_non_null(f);
		al_opts_help(f, al_run_optdefs, 25);
		fclose(f);
		assert_non_null(strstr(text, "\n      --max-latency TIME exit 3 when"));
		free(text);
	}
}

/* --label, --db, --no-db (the results database, docs/store.md) */
static void
label_and_database(void **state)
{
	char long_label[200];

	(void)state;
	assert_int_equal(PARSE("-q"), 0);
	assert_string_equal(p.cfg.label, "");
	assert_null(p.db_path);
	assert_false(p.no_db);
	assert_int_equal(PARSE("--label", "patched 6.6-rt", "--db", "/tmp/x.db", "--no-db"), 0);
	assert_string_equal(p.cfg.label, "patched 6.6-rt");
	assert_string_equal(p.db_path, "/tmp/x.db");
	assert_true(p.no_db);
	memset(long_label, 'x', sizeof(long_label) - 1);
	long_label[sizeof(long_label) - 1] = '\0';
	assert_int_equal(PARSE("--label", long_label), -EINVAL);
	assert_non_null(strstr(err, "--label: "));
	assert_non_null(strstr(err, "too long"));
	long_label[128] = '\0'; /* 128 bytes do not */
	assert_int_equal(PARSE("--label", long_label), -EINVAL);
	assert_non_null(strstr(err, "at most 127 bytes"));
	long_label[127] = '\0'; /* 127 bytes fit */
	assert_int_equal(PARSE("--label", long_label), 0);
	assert_int_equal(strlen(p.cfg.label), 127);
	assert_int_equal(PARSE("--label", "a\tb"), -EINVAL);
	assert_non_null(strstr(err, "control character"));
	assert_int_equal(PARSE("--db", ""), -EINVAL);
	assert_non_null(strstr(err, "--db: "));
}

/* --capture, --duplex, --mmap, --nearest, --tone: set, and refused where they make no sense */
static void
stream_options(void **state)
{
	(void)state;
	assert_int_equal(PARSE("-q"), 0);
	assert_false(p.cfg.capture || p.cfg.duplex || p.cfg.mmap || p.cfg.nearest);
	assert_int_equal(p.cfg.tone_hz, 0);
	assert_int_equal(PARSE("-b", "alsa", "-D", "plug:jack", "--duplex", "--mmap", "--nearest",
			       "--tone", "440"),
			 0);
	assert_true(p.cfg.duplex && p.cfg.mmap && p.cfg.nearest);
	assert_int_equal(p.cfg.tone_hz, 440);
	assert_string_equal(p.cfg.device, "plug:jack");
	assert_int_equal(PARSE("-b", "jack", "--capture"), 0);
	assert_true(p.cfg.capture);
	expect_error(PARSE("--capture"), "--capture: not with the sim backend");
	expect_error(PARSE("--tone=440"), "--tone: not with the sim backend");
	expect_error(PARSE("-b", "jack", "--mmap"), "--mmap: not with the jack backend");
	expect_error(PARSE("-b", "alsa", "--capture", "--duplex"), "--capture: not with --duplex");
	expect_error(PARSE("-b", "alsa", "--capture", "--tone", "440"), "--tone: not with --capture");
	expect_error(PARSE("-b", "alsa", "--tone", "24000"), "--tone: 24000 Hz is not below half");
	expect_error(PARSE("-b", "alsa", "--tone", "0"), "--tone: '0' is not in 1..96000");
	expect_error(PARSE("-b", "alsa", "--tone", "x"), "--tone: 'x' is not a whole number");
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults),
		cmocka_unit_test(values),
		cmocka_unit_test(bad_values_name_the_option),
		cmocka_unit_test(unknown_options_and_arguments),
		cmocka_unit_test(help),
		cmocka_unit_test(label_and_database),
		cmocka_unit_test(stream_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
