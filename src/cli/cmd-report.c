/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat report: one self-contained HTML page from result documents. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args/common-opts.h"
#include "compare/compare.h"
#include "doc/view.h"
#include "report/report.h"
#include "cli-store.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

enum { OPT_GROUP_BY = 256 };

struct report_cli {
	const char *out, *title, *db, *baseline;
	enum al_group_key key;
	bool group, help;
};

#define TO(f_) AL_OPT_TO(struct report_cli, f_)
static const struct al_optdef report_opts[] = {
	AL_OPT_TEXT("usage: audiolat report RESULT... -o FILE [--title TEXT] [--db PATH]\n"
		    "       audiolat report --group-by kernel|host|label [--baseline VALUE]\n"
		    "                       [--db PATH|URL] [RESULT...] -o FILE\n"
		    "\n"
		    "Write one self-contained HTML page (inline SVG plots, no script, nothing\n"
		    "fetched from the network) showing each result: latency over time with the\n"
		    "load phases, the period and buffer deadlines and the xruns; a log-scale\n"
		    "histogram; the percentiles as a CCDF; the phases; the configuration, the\n"
		    "system and its checks. With several results, an overview compares them.\n"
		    "\n"),
	AL_OPT_TEXT("  RESULT               an audiolat.run/2 (or /1) JSON file (- = stdin), or the id of a\n"
		 "                       result in the results database\n"),
	{ .name = "output", .short_name = 'o', .type = AL_OPT_SPEC, .arg = "FILE", TO(out),
	  .help = "the HTML file to write (- = stdout)" },
	{ .name = "title", .type = AL_OPT_SPEC, .arg = "TEXT", TO(title),
	  .help = "the page title (default \"audiolat report\")" },
	{ .id = OPT_GROUP_BY, .name = "group-by", .type = AL_OPT_CHOICE, .arg = "KEY",
	  .choices = "kernel|host|label", AL_OPT_ALSO(struct report_cli, group),
	  .help = "one page comparing the groups of runs (kernel, host or\n"
		  "label) of the results given, else of every run in --db:\n"
		  "audiolat compare --group-by's table, verdicts and a plot\n"
		  "of every run's p99" },
	{ .name = "baseline", .type = AL_OPT_SPEC, .arg = "VALUE", TO(baseline),
	  .help = "the group the others are compared with" },
	CLI_SHARED_AS(CLI_OPT_DB, NULL, "the results database for ids (default\n"
					"$XDG_DATA_HOME/audiolat/results.db)", TO(db)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status: 0 done, 1 a result could not be read or the page not written,\n"
		    "2 usage error\n"),
	AL_OPT_END,
};

/* --group-by: the key of one of the choices */
static int
report_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct report_cli *o = ctx;

	(void)err;
	(void)err_size;
	if (h->id == OPT_GROUP_BY)
		al_group_key_parse(h->arg, &o->key);
	return 0;
}

/* --group-by: the comparison of the groups of the runs named (none: all of --db) as a page */
static int
report_groups(const struct report_cli *o, const struct al_doc_set *set)
{
	struct al_group_opts go = { o->key, o->baseline, 0.95, 4000, 1 };
	json_t *cmp = NULL;
	char err[256];
	int rc;

	if (!set->n)
		return cli_cmd_error(AL_EXIT_RUNTIME, "report", "no runs in the results database");
	rc = al_compare_groups(set->in, set->n, &go, &cmp, err, sizeof(err));
	if (rc)
		return cli_fail("report", rc, NULL, err, false);
	rc = cli_write_html("report", "-o", o->out, set->in, set->n, cmp,
			    o->title ? o->title : "audiolat: groups of runs");
	json_decref(cmp);
	return rc;
}

int
cmd_report(int argc, char **argv)
{
	struct report_cli o = { .key = AL_GROUP_KERNEL };
	struct al_doc_set set;
	int first, n, rc;

	rc = cli_parse("report", report_opts, 23, argc, argv, report_set, &o, &o.help, -1, &first);
	if (rc >= 0)
		return rc;
	n = argc - first;
	if (!(o.group && o.out && o.out[0])) {
		if (n < 1)
			return cli_usage_error("report",
					       "no result to report (RESULT.json or a database id)");
		if (!o.out)
			return cli_usage_error("report",
					       "-o/--output: where to write the HTML is needed");
		if (!o.out[0])
			return cli_usage_error("report", "-o/--output: '' is not a file name");
	}
	rc = cli_docs_load("report", o.db, argv + first, n, &set);
	if (!rc && o.group)
		rc = report_groups(&o, &set);
	else if (!rc)
		rc = cli_write_html("report", "-o", o.out, set.in, set.n, NULL, o.title);
	al_doc_set_free(&set);
	return rc;
}
