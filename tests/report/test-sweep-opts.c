/* SPDX-License-Identifier: GPL-2.0-or-later */
/* `audiolat sweep` option parsing: the grid, the outputs, what goes to run. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "args/sweep-opts.h"
#include "core/clock.h"

#define ARGV(...) ((char *[]){"sweep", __VA_ARGS__, NULL})
#define ARGC(...) ((int)(sizeof((char *[]){"sweep", __VA_ARGS__}) / sizeof(char *)))
#define PARSE(p, err, ...)                                                                         \
	al_sweep_parse_args(ARGC(__VA_ARGS__), ARGV(__VA_ARGS__), p, err, sizeof(err))

static void
defaults(void **state)
{
	struct al_sweep_cli p;
	char err[256];
	char *argv[] = {"sweep", NULL};

	(void)state;
	assert_int_equal(al_sweep_parse_args(1, argv, &p, err, sizeof(err)), 0);
	assert_int_equal(p.grid.n_backends, 1);
	assert_string_equal(p.grid.backends[0].name, "sim");
	assert_string_equal(p.grid.backends[0].device, "");
	assert_int_equal(p.grid.rates[0], 48000);
	assert_int_equal(p.grid.period_frames[0], 64);
	assert_int_equal(p.grid.periods[0], 3);
	assert_int_equal(p.repeat, 1);
	assert_int_equal(al_sweep_cells(&p.grid), 1);
	assert_int_equal(p.run_argc, 1);
	assert_string_equal(p.run_argv[0], "run");
	al_sweep_cli_free(&p);
}

static void
grid_and_passthrough(void **state)
{
	struct al_sweep_cli p;
	char err[256];

	(void)state;
	assert_int_equal(PARSE(&p, err, "--period", "64,128,256", "-d", "5s", "--periods=2,3", "-b",
			       "sim,alsa:plug:jack", "--load", "idle:2s,cpu", "-r48000,44100",
			       "--repeat", "3", "-P32", "--json", "out.json", "--markdown", "-q",
			       "--label", "x"),
			 0);
	/* the last -P wins, like any option */
	assert_int_equal(p.grid.n_period_frames, 1);
	assert_int_equal(p.grid.period_frames[0], 32);
	assert_int_equal(p.grid.n_periods, 2);
	assert_int_equal(p.grid.periods[1], 3);
	assert_int_equal(p.grid.n_backends, 2);
	assert_string_equal(p.grid.backends[1].name, "alsa");
	assert_string_equal(p.grid.backends[1].device, "plug:jack");
	assert_int_equal(p.grid.n_rates, 2);
	assert_int_equal(p.grid.rates[1], 44100);
	assert_int_equal(p.repeat, 3);
	assert_string_equal(p.json_path, "out.json");
	assert_true(p.markdown && p.quiet);
	assert_int_equal(al_sweep_cells(&p.grid), 2 * 2 * 1 * 2);
	/* run gets the rest, in order */
	assert_int_equal(p.run_argc, 7);
	assert_string_equal(p.run_argv[1], "-d");
	assert_string_equal(p.run_argv[2], "5s");
	assert_string_equal(p.run_argv[3], "--load");
	assert_string_equal(p.run_argv[4], "idle:2s,cpu");
	assert_string_equal(p.run_argv[5], "--label");
	assert_string_equal(p.run_argv[6], "x");
	/* ... and parsed once, as run parses them: the base of every cell */
	assert_int_equal(p.run.cfg.duration_ns, 5 * AL_NS_PER_SEC);
	assert_true(p.run.duration_given);
	assert_string_equal(p.run.cfg.load_spec, "idle:2s,cpu");
	assert_string_equal(p.run.cfg.label, "x");
	assert_int_equal(p.run.cfg.period_frames, 64); /* the grid's are patched in per cell */
	assert_false(p.run.quiet); /* -q is the sweep's */
	al_sweep_cli_free(&p);
	assert_int_equal(PARSE(&p, err, "-h"), 0);
	assert_true(p.help);
	al_sweep_cli_free(&p);
	/* a cluster is split: -q is the sweep's, -v and -d run's */
	assert_int_equal(PARSE(&p, err, "-qv", "-vd5s", "--no-db", "-a", "1"), 0);
	assert_true(p.quiet);
	assert_int_equal(p.run_argc, 8);
	assert_string_equal(p.run_argv[1], "-v");
	assert_string_equal(p.run_argv[2], "-v");
	assert_string_equal(p.run_argv[3], "-d");
	assert_string_equal(p.run_argv[4], "5s");
	assert_string_equal(p.run_argv[5], "--no-db");
	assert_string_equal(p.run_argv[6], "-a");
	assert_string_equal(p.run_argv[7], "1");
	al_sweep_cli_free(&p);
}

static void
expect_error(int rc, const char *err, const char *part)
{
	assert_int_equal(rc, -EINVAL);
	if (!strstr(err, part))
		fail_msg("error '%s' does not name '%s'", err, part);
	assert_null(strchr(err, '\n'));
}

static void
bad_values(void **state)
{
	struct al_sweep_cli p;
	char err[256];

	(void)state;
	expect_error(PARSE(&p, err, "--period", "64,,128"), err,
		     "-P/--period: '64,,128' has an empty item");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--period", "64,"), err, "empty item");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--period", "0"), err, "-P/--period: '0' is not in 1..1048576");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--periods", "2,3,2"), err, "-n/--periods: 2 is given twice");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-r", "48k"), err, "-r/--rate: '48k' is not a whole number");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--repeat", "0"), err, "--repeat: '0' is not in 1..100");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--repeat", "2,3"), err, "--repeat: '2,3' is not a whole number");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--period"), err, "option --period: needs a value");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-b", "sim,,alsa"), err, "empty backend name");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-b", "alsa:"), err, "no device after ':'");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-b", "sim,sim"), err, "'sim' is given twice");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--markdown=yes"), err, "--markdown takes no value");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--json", "-", "--html", "-"), err,
		     "only one can go to stdout");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--json="), err, "--json: '' is not a file name");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-P", "1,2,3,4,5,6,7,8", "-n", "2,3,4,5,6,7,8,9", "-r",
			   "8000,16000,32000,48000,96000"),
		     err, "the grid has 320 configurations, more than 256");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-P",
			   "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,"
			   "22,23,24,25,26,27,28,29,30,31,32,33"),
		     err, "more than 32 values");
	al_sweep_cli_free(&p);
}

/* run's options are checked by their type here already, with run's words */
static void
run_options(void **state)
{
	struct al_sweep_cli p;
	char err[256];

	(void)state;
	expect_error(PARSE(&p, err, "-d", "10parsecs"), err,
		     "-d/--duration: '10parsecs' is not a duration");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-L", "1001"), err, "-L/--cpu-load: '1001' is not in 0..1000");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--nosuch"), err, "unknown option '--nosuch'");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "-qX"), err, "unknown option '-X'");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "stray"), err, "unexpected argument 'stray'");
	al_sweep_cli_free(&p);
	expect_error(PARSE(&p, err, "--fragments", "3x256"), err, "a sweep takes -n and -P lists");
	al_sweep_cli_free(&p);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
	    cmocka_unit_test(defaults),
	    cmocka_unit_test(grid_and_passthrough),
	    cmocka_unit_test(bad_values),
	    cmocka_unit_test(run_options),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
