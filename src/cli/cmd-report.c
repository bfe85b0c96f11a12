/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat report: one self-contained HTML page from result documents. */
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <errno.h>

#include "report/compare.h"
#include "report/doc.h"
#include "report/report.h"
#include "cli-store.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

enum {
	OPT_TITLE = 256,
	OPT_DB,
	OPT_GROUP_BY,
	OPT_BASELINE,
};

static const struct option long_opts[] = {
    {"output", required_argument, NULL, 'o'},
    {"title", required_argument, NULL, OPT_TITLE},
    {"db", required_argument, NULL, OPT_DB},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char help[] =
    "usage: audiolat report RESULT... -o FILE [--title TEXT] [--db PATH]\n"
    "       audiolat report --group-by kernel|host|label [--baseline VALUE]\n"
    "                       [--db PATH|URL] [RESULT...] -o FILE\n"
    "\n"
    "Write one self-contained HTML page (inline SVG plots, no script, nothing\n"
    "fetched from the network) showing each result: latency over time with the\n"
    "load phases, the period and buffer deadlines and the xruns; a log-scale\n"
    "histogram; the percentiles as a CCDF; the phases; the configuration, the\n"
    "system and its checks. With several results, an overview compares them.\n"
    "\n"
    "  RESULT               an audiolat.run/2 (or /1) JSON file (- = stdin), or the id of a\n"
    "                       result in the results database\n"
    "  -o, --output FILE    the HTML file to write (- = stdout)\n"
    "      --title TEXT     the page title (default \"audiolat report\")\n"
    "      --group-by KEY   one page comparing the groups of runs (kernel, host or\n"
    "                       label) of the results given, else of every run in --db:\n"
    "                       audiolat compare --group-by's table, verdicts and a plot\n"
    "                       of every run's p99\n"
    "      --baseline VALUE the group the others are compared with\n"
    "      --db PATH        the results database for ids (default\n"
    "                       $XDG_DATA_HOME/audiolat/results.db)\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 done, 1 a result could not be read or the page not written,\n"
    "2 usage error\n";

/* --group-by: the comparison of the groups of the runs named (none: all of --db) as a page */
static int
report_groups(enum al_group_key key, const char *baseline, const char *db, char **args, int n,
	      const char *out, const char *title)
{
	struct al_group_opts go = { key, baseline, 0.95, 4000, 1 };
	struct al_report_doc *in = NULL;
	char(*sources)[512] = NULL;
	json_t **docs = NULL, *cmp = NULL;
	char err[256];
	size_t i, nd = 0;
	int rc = AL_EXIT_OK;

	if (n == 0) {
		rc = cli_store_load_runs("report", db, &docs, &nd);
		if (rc)
			return rc;
	} else {
		docs = calloc((size_t)n, sizeof(*docs));
		if (!docs)
			return cli_cmd_error(AL_EXIT_RUNTIME, "report", "out of memory");
		for (; nd < (size_t)n && !rc; nd++)
			rc = cli_doc_load("report", args[nd], db, &docs[nd], err, sizeof(err));
		if (rc)
			nd--;
	}
	in = calloc(nd ? nd : 1, sizeof(*in));
	sources = calloc(nd ? nd : 1, sizeof(*sources));
	if (!rc && (!in || !sources))
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "report", "out of memory");
	for (i = 0; !rc && i < nd; i++) {
		snprintf(sources[i], sizeof(sources[i]), "%s",
			 n ? args[i] : al_doc_str(docs[i], "uuid", "db"));
		in[i] = (struct al_report_doc){ docs[i], sources[i] };
	}
	if (!rc && !nd)
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "report", "no runs in the results database");
	if (!rc) {
		int wrc = al_compare_groups(in, nd, &go, &cmp, err, sizeof(err));

		if (wrc)
			rc = cli_cmd_error(wrc == -EINVAL ? AL_EXIT_USAGE : AL_EXIT_RUNTIME, "report",
					   "%s", wrc == -EINVAL ? err : strerror(-wrc));
	}
	if (!rc)
		rc = cli_write_html("report", "-o", out, in, nd, cmp,
				    title ? title : "audiolat: groups of runs");
	json_decref(cmp);
	for (i = 0; i < nd; i++)
		json_decref(docs[i]);
	free(docs);
	free(in);
	free(sources);
	return rc;
}

int
cmd_report(int argc, char **argv)
{
	const char *out = NULL, *title = NULL, *db = NULL, *baseline = NULL;
	enum al_group_key key = AL_GROUP_KERNEL;
	bool group = false;
	struct al_report_doc *in = NULL;
	char(*sources)[512] = NULL;
	json_t **docs = NULL;
	int opt, n, i, rc = AL_EXIT_OK;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":o:h", long_opts, NULL)) != -1) {
		switch (opt) {
		case 'o':
			out = optarg;
			break;
		case OPT_TITLE:
			title = optarg;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_GROUP_BY:
			if (al_group_key_parse(optarg, &key))
				return cli_usage_error("report", "--group-by: '%s' is not kernel, "
								 "host or label", optarg);
			group = true;
			break;
		case OPT_BASELINE:
			baseline = optarg;
			break;
		case 'h':
			fputs(help, stdout);
			return AL_EXIT_OK;
		case ':':
			return cli_usage_error("report", "option %s: needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("report", "unknown option '%s'", argv[optind - 1]);
		}
	}
	n = argc - optind;
	if (group && out && out[0])
		return report_groups(key, baseline, db, argv + optind, n, out, title);
	if (n < 1)
		return cli_usage_error("report",
				       "no result to report (RESULT.json or a database id)");
	if (!out)
		return cli_usage_error("report", "-o/--output: where to write the HTML is needed");
	if (!out[0])
		return cli_usage_error("report", "-o/--output: '' is not a file name");
	docs = calloc((size_t)n, sizeof(*docs));
	in = calloc((size_t)n, sizeof(*in));
	sources = calloc((size_t)n, sizeof(*sources));
	if (!docs || !in || !sources) {
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "report", "out of memory");
		goto out;
	}
	for (i = 0; i < n && !rc; i++) {
		rc = cli_doc_load("report", argv[optind + i], db, &docs[i], sources[i],
				  sizeof(sources[i]));
		in[i] = (struct al_report_doc){docs[i], sources[i]};
	}
	if (!rc)
		rc = cli_write_html("report", "-o", out, in, (size_t)n, NULL, title);
out:
	for (i = 0; docs && i < n; i++)
		json_decref(docs[i]);
	free(docs);
	free(in);
	free(sources);
	return rc;
}
