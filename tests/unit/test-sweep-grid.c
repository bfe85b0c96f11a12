/* SPDX-License-Identifier: GPL-2.0-or-later */
/* core/sweep.c's grid: the lists, the backends, the cells in order; core/units' --fragments. */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "core/result.h"
#include "core/sweep.h"
#include "core/units.h"

#define LIST(arg, v, n, err) \
	al_sweep_parse_list("-r/--rate", (arg), 1000, 768000, (v), 4, (n), (err), sizeof(err))

static void
lists(void **state)
{
	long v[4];
	int n;
	char err[128];

	(void)state;
	assert_int_equal(LIST("48000,44100", v, &n, err), 0);
	assert_int_equal(n, 2);
	assert_int_equal(v[0], 48000);
	assert_int_equal(v[1], 44100);
	assert_int_equal(LIST("48000", v, &n, err), 0);
	assert_int_equal(n, 1);
	assert_int_equal(LIST("48000,,44100", v, &n, err), -EINVAL);
	assert_string_equal(err, "-r/--rate: '48000,,44100' has an empty item");
	assert_int_equal(LIST("", v, &n, err), -EINVAL);
	assert_int_equal(LIST("48000,", v, &n, err), -EINVAL);
	assert_int_equal(LIST("48k", v, &n, err), -EINVAL);
	assert_string_equal(err, "-r/--rate: '48k' is not a whole number");
	assert_int_equal(LIST("999", v, &n, err), -EINVAL);
	assert_string_equal(err, "-r/--rate: '999' is not in 1000..768000");
	assert_int_equal(LIST("8000,8000", v, &n, err), -EINVAL);
	assert_string_equal(err, "-r/--rate: 8000 is given twice");
	assert_int_equal(LIST("8000,9000,10000,11000,12000", v, &n, err), -EINVAL);
	assert_string_equal(err, "-r/--rate: more than 4 values");
	assert_int_equal(LIST("123456789012345678901234567890123", v, &n, err), -EINVAL);
	assert_string_equal(err, "-r/--rate: '123456789012345678901234' is not a whole number");
}

static void
backends(void **state)
{
	struct al_sweep_backend b[3];
	int n;
	char err[256];

	(void)state;
	assert_int_equal(al_sweep_parse_backends("sim,alsa:plug:jack,alsa", b, 3, &n, err,
						 sizeof(err)), 0);
	assert_int_equal(n, 3);
	assert_string_equal(b[0].name, "sim");
	assert_string_equal(b[0].device, "");
	assert_string_equal(b[1].name, "alsa");
	assert_string_equal(b[1].device, "plug:jack"); /* after the first ':' */
	assert_string_equal(b[2].device, "");
	assert_int_equal(al_sweep_parse_backends(":x", b, 3, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-b/--backend: ':x' has an empty backend name");
	assert_int_equal(al_sweep_parse_backends("sim:", b, 3, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-b/--backend: 'sim:': no device after ':'");
	assert_int_equal(al_sweep_parse_backends("sim:x,sim:x", b, 3, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "-b/--backend: 'sim:x' is given twice");
	assert_int_equal(al_sweep_parse_backends("a,b,c,d", b, 3, &n, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "-b/--backend: more than 3 backends");
	assert_int_equal(al_sweep_parse_backends("abcdefghijklmnop", b, 3, &n, err, sizeof(err)),
			 -EINVAL);
	assert_string_equal(err, "-b/--backend: 'abcdefghijklmnop' is too long");
}

/* The cells in core/sweep.h's order: the last list varies fastest. */
static void
cells_in_order(void **state)
{
	struct al_sweep_grid g = { .n_backends = 2, .rates = { 48000, 44100 }, .n_rates = 2,
				   .period_frames = { 64 }, .n_period_frames = 1,
				   .periods = { 2, 3 }, .n_periods = 2 };
	struct al_sweep s;

	(void)state;
	snprintf(g.backends[0].name, sizeof(g.backends[0].name), "sim");
	snprintf(g.backends[1].name, sizeof(g.backends[1].name), "alsa");
	snprintf(g.backends[1].device, sizeof(g.backends[1].device), "hw:0");
	assert_int_equal(al_sweep_cells(&g), 8);
	assert_int_equal(al_sweep_init_grid(&s, &g, 3), 0);
	assert_int_equal(s.n_cells, 8);
	assert_int_equal(s.repeat, 3);
	assert_string_equal(s.cells[0].backend, "sim");
	assert_int_equal(s.cells[0].rate_hz, 48000);
	assert_int_equal(s.cells[0].periods, 2);
	assert_int_equal(s.cells[1].periods, 3);
	assert_int_equal(s.cells[2].rate_hz, 44100);
	assert_string_equal(s.cells[4].backend, "alsa");
	assert_string_equal(s.cells[4].device, "hw:0");
	assert_int_equal(s.cells[7].rate_hz, 44100);
	assert_int_equal(s.cells[7].period_frames, 64);
	assert_int_equal(s.cells[7].periods, 3);
	al_sweep_free(&s);
}

/* a list not given is run's value; a grid too large is refused, saying its size */
static void
grid_defaults_and_size(void **state)
{
	struct al_sweep_grid g;
	struct al_config c;
	char err[128];

	(void)state;
	al_config_defaults(&c);
	al_sweep_grid_init(&g, &c);
	assert_int_equal(al_sweep_cells(&g), 1);
	assert_string_equal(g.backends[0].name, "sim");
	assert_string_equal(g.backends[0].device, "");
	assert_int_equal(g.rates[0], 48000);
	assert_int_equal(g.period_frames[0], 64);
	assert_int_equal(g.periods[0], 3);
	assert_int_equal(al_sweep_grid_check(&g, err, sizeof(err)), 0);
	/* 16 x 16 = 256: the most */
	assert_int_equal(al_sweep_parse_list("-P", "1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16", 1, 99,
					     g.period_frames, AL_SWEEP_VALUES_MAX,
					     &g.n_period_frames, err, sizeof(err)), 0);
	assert_int_equal(al_sweep_parse_list("-n", "2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17", 2,
					     99, g.periods, AL_SWEEP_VALUES_MAX, &g.n_periods, err,
					     sizeof(err)), 0);
	assert_int_equal(al_sweep_grid_check(&g, err, sizeof(err)), 0);
	g.n_rates = 2;
	assert_int_equal(al_sweep_grid_check(&g, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "the grid has 512 configurations, more than 256");
}

static void
fragments(void **state)
{
	int periods = 0;
	int64_t frames = 0;
	char err[128];

	(void)state;
	assert_int_equal(al_parse_fragments("3x256", &periods, &frames, err, sizeof(err)), 0);
	assert_int_equal(periods, 3);
	assert_int_equal(frames, 64);
	assert_int_equal(al_parse_fragments("x256", &periods, &frames, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--fragments: 'x256' is not NxBYTES (e.g. 3x256)");
	assert_int_equal(al_parse_fragments("1x256", &periods, &frames, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--fragments: '1x256' is not NxBYTES with N 2..1024 and BYTES "
				 "4..4194304");
	assert_int_equal(al_parse_fragments("3x255", &periods, &frames, err, sizeof(err)), -EINVAL);
	assert_string_equal(err, "--fragments: '3x255': BYTES is not whole 16-bit stereo frames "
				 "(a multiple of 4)");
	assert_int_equal(periods, 3); /* untouched on failure */
	assert_int_equal(frames, 64);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lists),
		cmocka_unit_test(backends),
		cmocka_unit_test(cells_in_order),
		cmocka_unit_test(grid_defaults_and_size),
		cmocka_unit_test(fragments),
	};

	return cmocka_run_group_tests(tests, NULL, NULL);
}
