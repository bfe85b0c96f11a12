/* SPDX-License-Identifier: GPL-2.0-or-later */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "common-opts.h"
#include "run-opts.h"
#include "sweep-opts.h"

enum { OPT_FRAGMENTS = 0x2000 };

#define TO(f_) AL_OPT_TO(struct al_sweep_cli, f_)
#define LIST(id_, name_, help_) \
	{ .id = (id_), .name = (name_), .short_name = (id_), .type = AL_OPT_SPEC, .arg = "LIST", \
	  .help = (help_) }

/* the grid, the outputs, and every option of run's, which go to run_argv */
const struct al_optdef al_sweep_optdefs[] = {
	AL_OPT_TEXT("usage: audiolat sweep [--backend LIST] [--rate LIST] [--period LIST]\n"
		    "                      [--periods LIST] [--repeat N] [run options]\n"
		    "                      [--json FILE|-] [--markdown] [--html FILE] [-q]\n"
		    "\n"
		    "Run every configuration of a grid the same way (same duration, same load)\n"
		    "and print them side by side with the run-to-run variance (min-max over the\n"
		    "repeats): which buffer size is safe on this machine, in one command.\n"
		    "\n"
		    "grid (comma-separated lists):\n"),
	LIST('b', "backend", "backends, NAME or NAME:DEVICE (default sim);\n"
			     "e.g. sim,alsa:plug:jack"),
	LIST('r', "rate", "sample rates in Hz (default 48000)"),
	LIST('P', "period", "frames per period (default 64)"),
	LIST('n', "periods", "periods in the buffer (default 3)"),
	{ .name = "repeat", .type = AL_OPT_INT, .arg = "N", .min = 1, .max = AL_SWEEP_REPEAT_MAX,
	  TO(repeat), .help = "runs of each configuration, 1..100 (default 1)" },
	AL_OPT_TEXT("run options:\n"
		    "  anything `audiolat run` takes: -d TIME, --load SPEC, -L, -p, -a, --label,\n"
		    "  --no-db, ... (see audiolat run --help); they apply to every run\n"
		    "  (not --fragments: give -n and -P lists)\n"),
	{ .id = OPT_FRAGMENTS, .name = "fragments", .type = AL_OPT_SPEC },
	AL_OPT_INCLUDE(al_run_optdefs, struct al_sweep_cli, run),
	AL_OPT_TEXT("output:\n"),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.sweep/1 document with every run's\n"
					  "result (- = stdout, and then no table)", TO(json_path)),
	{ .name = "markdown", .type = AL_OPT_FLAG, TO(markdown),
	  .help = "a Markdown table instead of text" },
	{ .name = "html", .type = AL_OPT_OUT, .arg = "FILE", TO(html_path),
	  .help = "the report of every run as HTML" },
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "no progress lines", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 runtime error, 2 usage error, 4 backend or device\n"
		    "unavailable\n"),
	AL_OPT_END,
};

/* A list of -r, -P or -n: each value in the range of run's option of that letter. */
static int
grid_list(const struct al_opt_hit *h, long *vals, int *n, char *err, size_t err_size)
{
	const char tok[3] = { '-', (char)h->id, '\0' };
	struct al_optdef run;
	char label[48];

	if (al_opts_find(al_run_optdefs, tok, &run))
		return -EINVAL;
	return al_sweep_parse_list(al_opt_label(h->def, label, sizeof(label)), h->arg, run.min,
				   run.max, vals, AL_SWEEP_VALUES_MAX, n, err, err_size);
}

/* What the table cannot store itself: the grid's lists; run's options into the base. */
static int
sweep_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct al_sweep_cli *p = ctx;
	struct al_sweep_grid *g = &p->grid;
	const char *v = h->arg;

	if (h->included) /* run's: into the base, and as given for the command line */
		return al_run_take(&p->run, p->run_argv, &p->run_argc, h, err, err_size);
	switch (h->id) {
	case 'b':
		return al_sweep_parse_backends(v, g->backends, AL_SWEEP_VALUES_MAX, &g->n_backends,
					       err, err_size);
	case 'r':
		return grid_list(h, g->rates, &g->n_rates, err, err_size);
	case 'P':
		return grid_list(h, g->period_frames, &g->n_period_frames, err, err_size);
	case 'n':
		return grid_list(h, g->periods, &g->n_periods, err, err_size);
	case OPT_FRAGMENTS:
		/* run's -n/-P in one: the grid's lists would override it unseen */
		snprintf(err, err_size, "--fragments: a sweep takes -n and -P lists "
			 "(--fragments 3x256 is -n 3 -P 64)");
		return -EINVAL;
	}
	return 0;
}

int
al_sweep_parse_args(int argc, char **argv, struct al_sweep_cli *p, char *err, size_t err_size)
{
	int first, rc;

	memset(p, 0, sizeof(*p));
	p->repeat = 1;
	al_run_cli_init(&p->run);
	al_sweep_grid_init(&p->grid, &p->run.cfg);
	err[0] = '\0';
	p->run_argv = al_run_argv_new(argc, argv, &p->run_argc);
	if (!p->run_argv) {
		snprintf(err, err_size, "out of memory");
		return -ENOMEM;
	}
	rc = al_opts_parse(al_sweep_optdefs, argc, argv, sweep_set, p, &first, NULL, err, err_size);
	if (rc || p->help)
		return rc;
	if (first < argc) {
		snprintf(err, err_size, "unexpected argument '%s'", argv[first]);
		return -EINVAL;
	}
	if (p->json_path && p->html_path && !strcmp(p->json_path, "-") &&
	    !strcmp(p->html_path, "-")) {
		snprintf(err, err_size, "--json - and --html -: only one can go to stdout");
		return -EINVAL;
	}
	/* run's own, which a sweep has once for all its runs */
	if (p->run.help) {
		snprintf(err, err_size, "-h/--help: see 'audiolat sweep --help'");
		return -EINVAL;
	}
	if (p->run.json_path) {
		snprintf(err, err_size, "--json is the sweep's (one document)");
		return -EINVAL;
	}
	return al_sweep_grid_check(&p->grid, err, err_size);
}

void
al_sweep_cli_free(struct al_sweep_cli *p)
{
	free(p->run_argv);
	p->run_argv = NULL;
	p->run_argc = 0;
}
