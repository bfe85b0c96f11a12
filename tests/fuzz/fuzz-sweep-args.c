/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_sweep_parse_args(): the input split on NUL and newline bytes is the
 * argument list after "sweep". Checks: 0, -EINVAL or -ENOMEM; on success
 * every list has 1..32 distinct values within its range, the grid has at
 * most 256 configurations, --repeat is 1..100, backend names are
 * non-empty and terminated, and what is passed to run (run_argv[0] is
 * "run") is, in order, arguments as given or a letter of a cluster alone
 * ("-v"), and run's parser makes of it what the sweep parsed into run; on
 * failure err is one non-empty line; parsing twice gives the
 * same result.
 */
#include <errno.h>

#include "args/run-opts.h"
#include "args/sweep-opts.h"
#include "fuzz.h"

#define MAX_ARGS 256
#define ERR_SIZE 512

static void
check_list(const char *name, const long *v, int n, long min, long max)
{
	FUZZ_CHECK(n >= 1 && n <= AL_SWEEP_VALUES_MAX, "%s: %d values", name, n);
	for (int i = 0; i < n; i++) {
		FUZZ_CHECK(v[i] >= min && v[i] <= max, "%s: %ld outside %ld..%ld", name, v[i], min,
			   max);
		for (int j = 0; j < i; j++)
			FUZZ_CHECK(v[i] != v[j], "%s: %ld twice", name, v[i]);
	}
}

static void
check_ok(const struct al_sweep_cli *p, int argc, char **given)
{
	const struct al_sweep_grid *g = &p->grid;
	int i;

	check_list("rate", g->rates, g->n_rates, 1000, 768000);
	check_list("period", g->period_frames, g->n_period_frames, 1, 1048576);
	check_list("periods", g->periods, g->n_periods, 2, 1024);
	FUZZ_CHECK(g->n_backends >= 1 && g->n_backends <= AL_SWEEP_VALUES_MAX, "%d backends",
		   g->n_backends);
	for (i = 0; i < g->n_backends; i++) {
		FUZZ_CHECK(memchr(g->backends[i].name, '\0', sizeof(g->backends[i].name)) &&
			       g->backends[i].name[0],
			   "%s", "backend name empty or unterminated");
		FUZZ_CHECK(memchr(g->backends[i].device, '\0', sizeof(g->backends[i].device)), "%s",
			   "device unterminated");
	}
	FUZZ_CHECK(al_sweep_cells(g) >= 1 && al_sweep_cells(g) <= AL_SWEEP_CELLS_MAX, "%d cells",
		   al_sweep_cells(g));
	FUZZ_CHECK(p->repeat >= 1 && p->repeat <= AL_SWEEP_REPEAT_MAX, "repeat %d", p->repeat);
	fuzz_check_run_argv(p->run_argv, p->run_argc, given, argc);
	/* run's options parsed once are what run's parser makes of run_argv */
	{
		char *argv[2 * MAX_ARGS + 2], err[ERR_SIZE];
		struct al_run_cli r;

		memcpy(argv, p->run_argv, (size_t)p->run_argc * sizeof(*argv));
		argv[p->run_argc] = NULL;
		FUZZ_CHECK(al_run_parse_opts(p->run_argc, argv, &r, err, sizeof(err)) == 0,
			   "run's parser refuses what the sweep took: %s", err);
		FUZZ_CHECK(!memcmp(&r.cfg, &p->run.cfg, sizeof(r.cfg)) &&
			       !memcmp(&r.load_opts, &p->run.load_opts, sizeof(r.load_opts)) &&
			       r.backend == p->run.backend && r.no_db == p->run.no_db &&
			       r.verbose == p->run.verbose && r.trace == p->run.trace,
			   "%s", "the base differs from run's parse of run_argv");
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), *argv[MAX_ARGS + 1], *given[MAX_ARGS + 1];
	char err[ERR_SIZE];
	struct al_sweep_cli p, q;
	int argc = fuzz_args("sweep", s, size, argv, given, MAX_ARGS), r1, r2;

	r1 = al_sweep_parse_args(argc, argv, &p, err, sizeof(err));
	FUZZ_CHECK(r1 == 0 || r1 == -EINVAL || r1 == -ENOMEM, "returned %d", r1);
	if (r1) {
		fuzz_check_err(err, sizeof(err), memchr(data, '\n', size) != NULL);
	} else {
		check_ok(&p, argc, given);
		r2 = al_sweep_parse_args(argc, argv, &q, err, sizeof(err));
		FUZZ_CHECK(r2 == 0 && q.repeat == p.repeat &&
			       al_sweep_cells(&q.grid) == al_sweep_cells(&p.grid) &&
			       q.run_argc == p.run_argc,
			   "%s", "a second parse differs");
		al_sweep_cli_free(&q);
	}
	al_sweep_cli_free(&p);
	free(s);
	return 0;
}
