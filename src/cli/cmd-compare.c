/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat compare: results side by side, and is the difference real? */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args/common-opts.h"
#include "core/units.h"
#include "compare/compare.h"
#include "doc/view.h"
#include "cli-store.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

enum { OPT_GROUP_BY = 256, OPT_GATE };

/* The options. */
struct cmp_args {
	struct al_compare_opts co;
	const char *json_path, *html_path, *db, *baseline;
	bool markdown, quiet, fail_on_worse, group, help, within_run, allow_insufficient;
	enum al_group_key key;
	unsigned gate;
};

#define TO(f_) AL_OPT_TO(struct cmp_args, f_)
static const struct al_optdef compare_opts[] = {
	AL_OPT_TEXT("usage: audiolat compare BASELINE RESULT... [--json FILE|-] [--markdown]\n"
		    "                        [--html FILE] [--db PATH] [--fail-on-worse]\n"
		    "       audiolat compare --group-by kernel|host|label [--baseline VALUE]\n"
		    "                        [--db PATH|URL] [RESULT...]\n"
		    "\n"
		    "Put results side by side (max latency, % of buffer, 1MS and 2MS factors, p99,\n"
		    "p99.9 and xruns, per phase when there are several) and say for each result\n"
		    "against the first one whether its p50, p99 and max wake latency are better,\n"
		    "worse or not significantly different: a 95 % confidence interval for each\n"
		    "difference (docs/compare.md explains the method and its limits).\n"
		    "\n"),
	AL_OPT_TEXT("  BASELINE, RESULT     an audiolat.run/2 (or /1) JSON file (- = stdin), or the id of a\n"
		 "                       result in the results database\n"),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.compare/1 document (- = stdout, and\n"
					  "then no text)", TO(json_path)),
	{ .name = "markdown", .type = AL_OPT_FLAG, TO(markdown),
	  .help = "Markdown tables instead of text, for a patch description" },
	{ .name = "html", .type = AL_OPT_OUT, .arg = "FILE", TO(html_path),
	  .help = "the comparison and the report of every result as HTML" },
	CLI_SHARED_AS(CLI_OPT_DB, NULL, "the results database for ids (default\n"
					"$XDG_DATA_HOME/audiolat/results.db)", TO(db)),
	{ .name = "fail-on-worse", .type = AL_OPT_FLAG, TO(fail_on_worse),
	  .help = "exit 3 when a group of runs is significantly worse on a\n"
		  "gated statistic; exit 5 when there is not enough data to\n"
		  "say (fewer than 3 runs a group, single runs, a figure\n"
		  "not measured)" },
	{ .id = OPT_GATE, .name = "gate", .type = AL_OPT_SPEC, .arg = "LIST",
	  .help = "the statistics --fail-on-worse decides on: p50, p99,\n"
		  "max, comma-separated (default p99)" },
	{ .name = "within-run", .type = AL_OPT_FLAG, TO(within_run),
	  .help = "let --fail-on-worse decide on single runs, by the spread\n"
		  "within each run (not a verdict on a change: two runs of\n"
		  "the same system differ by more)" },
	{ .name = "allow-insufficient", .type = AL_OPT_FLAG, TO(allow_insufficient),
	  .help = "with --fail-on-worse, exit 0 rather than 5 when there is\n"
		  "not enough data to decide" },
	{ .id = OPT_GROUP_BY, .name = "group-by", .type = AL_OPT_SPEC, .arg = "KEY",
	  AL_OPT_ALSO(struct cmp_args, group),
	  .help = "one row per kernel, host or label over many runs (the\n"
		  "results given, else every run in --db): the spread\n"
		  "between runs decides (3 runs a group at least)" },
	{ .name = "baseline", .type = AL_OPT_SPEC, .arg = "VALUE", TO(baseline),
	  .help = "the group the others are compared with (default the\n"
		  "first)" },
	{ .name = "seed", .type = AL_OPT_INT, .arg = "N", .min = 0, .max = 2147483647, TO(co.seed),
	  .help = "seed of the bootstrap (default 1; same seed, same output)" },
	{ .name = "resamples", .type = AL_OPT_INT, .arg = "N", .min = 100, .max = 1000000,
	  TO(co.resamples), .help = "bootstrap replicates, 100..1000000 (default 4000)" },
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "no text table (with --json FILE or --html FILE)",
		      TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 a result could not be read or an output not written,\n"
		    "2 usage error, 3 a result is worse (--fail-on-worse), 5 not enough data for\n"
		    "--fail-on-worse to decide\n"),
	AL_OPT_END,
};

/* The comparison: text or Markdown (unless -q, or stdout is taken), --json, --html, exit 3. */
static int
write_comparison(const struct cmp_args *a, const struct al_doc_set *set,
		 const struct al_compare_out *c)
{
	const struct al_report_input ri = { .docs = set->in, .n = set->n, .compare = c->cmp };
	bool html = a->html_path && !c->groups;

	if (!a->quiet && !(html && !strcmp(a->html_path, "-")) &&
	    !(a->json_path && !strcmp(a->json_path, "-"))) {
		(a->markdown ? &al_reporter_markdown : &al_reporter_text)->write(&ri, stdout);
		fflush(stdout);
	}
	if (a->json_path && cli_write_doc("compare", a->json_path, c->cmp, 0))
		return AL_EXIT_RUNTIME;
	if (html && cli_write_html("compare", "--html", a->html_path, set->in, set->n,
				   c->midi ? NULL : c->cmp, "audiolat comparison"))
		return AL_EXIT_RUNTIME;
	if (!a->fail_on_worse)
		return AL_EXIT_OK;
	if (c->worse[0])
		return cli_cmd_error(AL_EXIT_THRESHOLD, "compare", "%s (--fail-on-worse)", c->worse);
	if (c->insufficient[0] && !a->allow_insufficient)
		return cli_cmd_error(AL_EXIT_INSUFFICIENT, "compare",
				     "not enough data to decide: %s (--fail-on-worse; "
				     "--allow-insufficient to pass)", c->insufficient);
	if (c->insufficient[0])
		cli_warn("compare: not enough data to decide, passed by --allow-insufficient: %s",
			 c->insufficient);
	return AL_EXIT_OK;
}

/* One option into the arguments (its value checked by its type by the loop). */
/* --group-by: its key */
static int
compare_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct cmp_args *a = ctx;

	if (h->id == OPT_GROUP_BY && al_group_key_parse(h->arg, &a->key))
		return snprintf(err, err_size, "--group-by: '%s' is not kernel, host or label", h->arg),
		       -EINVAL;
	if (h->id == OPT_GATE && al_gate_parse(h->arg, &a->gate))
		return snprintf(err, err_size, "--gate: '%s' is not a list of p50, p99 and max",
				h->arg), -EINVAL;
	return 0;
}

int
cmd_compare(int argc, char **argv)
{
	struct cmp_args a = { .co = AL_COMPARE_OPTS_DEFAULT, .key = AL_GROUP_KERNEL,
			      .gate = AL_GATE_DEFAULT };
	struct al_compare_req q;
	struct al_compare_out c = { 0 };
	struct al_doc_set set;
	char err[512];
	int first, n, rc;

	rc = cli_parse("compare", compare_opts, 23, argc, argv, compare_set, &a, &a.help, -1, &first);
	if (rc >= 0)
		return rc;
	n = argc - first;
	if (!a.group && a.baseline)
		return cli_usage_error("compare", "--baseline goes with --group-by");
	if (a.group && a.within_run)
		return cli_usage_error("compare", "--within-run is for single runs, not --group-by");
	if (n < (a.group ? 0 : 2))
		return cli_usage_error("compare", "needs two results or more (the first is the "
				       "baseline), got %d", n);
	if (n && a.json_path && a.html_path && !strcmp(a.json_path, "-") &&
	    !strcmp(a.html_path, "-"))
		return cli_usage_error("compare",
				       "--json - and --html -: only one can go to stdout");
	/* --group-by and no results named: every run of the database */
	rc = cli_docs_load("compare", a.db, argv + first, n, &set);
	q = (struct al_compare_req){ .group = a.group, .co = a.co,
				     .go = { a.key, a.baseline, a.co.confidence, a.co.resamples,
					     a.co.seed },
				     .gate = a.gate, .within_run = a.within_run };
	if (!rc) {
		rc = al_compare_docs(set.in, set.n, &q, &c, err, sizeof(err));
		rc = rc ? cli_fail("compare", rc, NULL, err, false)
			: write_comparison(&a, &set, &c);
	}
	json_decref(c.cmp);
	al_doc_set_free(&set);
	return rc;
}
