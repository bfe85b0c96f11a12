/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * al_sweep_parse_args(): the input split on NUL and newline bytes is the
 * argument list after "sweep". Checks: 0, -EINVAL or -ENOMEM; on success
 * every list has 1..32 distinct values within its range, the grid has at
 * most 256 configurations, --repeat is 1..100, backend names are
 * non-empty and terminated, and every argument the sweep did not take is
 * passed to run in order (run_argv[0] is "run"); on failure err is one
 * non-empty line; parsing twice gives the same result.
 */
#include <errno.h>

#include "cli/sweep-opts.h"
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
check_ok(const struct al_sweep_cli *p, int argc, char **argv)
{
	int i, j = 1;

	check_list("rate", p->rates, p->n_rates, 1000, 768000);
	check_list("period", p->period_frames, p->n_period_frames, 1, 1048576);
	check_list("periods", p->periods, p->n_periods, 2, 1024);
	FUZZ_CHECK(p->n_backends >= 1 && p->n_backends <= AL_SWEEP_VALUES_MAX, "%d backends",
		   p->n_backends);
	for (i = 0; i < p->n_backends; i++) {
		FUZZ_CHECK(memchr(p->backends[i].name, '\0', sizeof(p->backends[i].name)) &&
			       p->backends[i].name[0],
			   "%s", "backend name empty or unterminated");
		FUZZ_CHECK(memchr(p->backends[i].device, '\0', sizeof(p->backends[i].device)), "%s",
			   "device unterminated");
	}
	FUZZ_CHECK(al_sweep_cells(p) >= 1 && al_sweep_cells(p) <= AL_SWEEP_CELLS_MAX, "%d cells",
		   al_sweep_cells(p));
	FUZZ_CHECK(p->repeat >= 1 && p->repeat <= AL_SWEEP_REPEAT_MAX, "repeat %d", p->repeat);
	FUZZ_CHECK(p->run_argc >= 1 && p->run_argc <= argc && !strcmp(p->run_argv[0], "run"),
		   "run_argc %d", p->run_argc);
	/* what run gets is a subsequence of the arguments, in order */
	for (i = 1; i < argc && j < p->run_argc; i++)
		if (p->run_argv[j] == argv[i])
			j++;
	FUZZ_CHECK(j == p->run_argc, "%s", "run's arguments are not in order");
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char *s = fuzz_strndup(data, size), *argv[MAX_ARGS + 1], err[ERR_SIZE];
	struct al_sweep_cli p, q;
	int argc = fuzz_split_args("sweep", s, size, argv, MAX_ARGS), r1, r2;

	argv[argc] = NULL;
	r1 = al_sweep_parse_args(argc, argv, &p, err, sizeof(err));
	FUZZ_CHECK(r1 == 0 || r1 == -EINVAL || r1 == -ENOMEM, "returned %d", r1);
	if (r1) {
		fuzz_check_err(err, sizeof(err), memchr(data, '\n', size) != NULL);
	} else {
		check_ok(&p, argc, argv);
		r2 = al_sweep_parse_args(argc, argv, &q, err, sizeof(err));
		FUZZ_CHECK(r2 == 0 && q.repeat == p.repeat &&
			       al_sweep_cells(&q) == al_sweep_cells(&p) && q.run_argc == p.run_argc,
			   "%s", "a second parse differs");
		al_sweep_cli_free(&q);
	}
	al_sweep_cli_free(&p);
	free(s);
	return 0;
}
