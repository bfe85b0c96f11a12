/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat compare: results side by side, and is the difference real? */
#include <errno.h>
#include <getopt.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "core/units.h"
#include "report/compare.h"
#include "report/doc.h"
#include "cli-store.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

enum {
	OPT_JSON = 256,
	OPT_MARKDOWN,
	OPT_HTML,
	OPT_DB,
	OPT_SEED,
	OPT_RESAMPLES,
	OPT_FAIL_ON_WORSE,
	OPT_GROUP_BY,
	OPT_BASELINE,
};

static const struct option long_opts[] = {
    {"json", required_argument, NULL, OPT_JSON},
    {"markdown", no_argument, NULL, OPT_MARKDOWN},
    {"html", required_argument, NULL, OPT_HTML},
    {"db", required_argument, NULL, OPT_DB},
    {"seed", required_argument, NULL, OPT_SEED},
    {"resamples", required_argument, NULL, OPT_RESAMPLES},
    {"fail-on-worse", no_argument, NULL, OPT_FAIL_ON_WORSE},
    {"group-by", required_argument, NULL, OPT_GROUP_BY},
    {"baseline", required_argument, NULL, OPT_BASELINE},
    {"quiet", no_argument, NULL, 'q'},
    {"help", no_argument, NULL, 'h'},
    {NULL, 0, NULL, 0},
};

static const char help[] =
    "usage: audiolat compare BASELINE RESULT... [--json FILE|-] [--markdown]\n"
    "                        [--html FILE] [--db PATH] [--fail-on-worse]\n"
    "       audiolat compare --group-by kernel|host|label [--baseline VALUE]\n"
    "                        [--db PATH|URL] [RESULT...]\n"
    "\n"
    "Put results side by side (max latency, % of buffer, 1MS and 2MS factors, p99,\n"
    "p99.9 and xruns, per phase when there are several) and say for each result\n"
    "against the first one whether its p50, p99 and max wake latency are better,\n"
    "worse or not significantly different: a 95 % confidence interval for each\n"
    "difference (docs/compare.md explains the method and its limits).\n"
    "\n"
    "  BASELINE, RESULT     an audiolat.run/2 (or /1) JSON file (- = stdin), or the id of a\n"
    "                       result in the results database\n"
    "      --json FILE|-    write the audiolat.compare/1 document (- = stdout, and\n"
    "                       then no text)\n"
    "      --markdown       Markdown tables instead of text, for a patch description\n"
    "      --html FILE      the comparison and the report of every result as HTML\n"
    "      --db PATH        the results database for ids (default\n"
    "                       $XDG_DATA_HOME/audiolat/results.db)\n"
    "      --fail-on-worse  exit 3 when a result is significantly worse\n"
    "      --group-by KEY   one row per kernel, host or label over many runs (the\n"
    "                       results given, else every run in --db): the spread\n"
    "                       between runs decides (3 runs a group at least)\n"
    "      --baseline VALUE the group the others are compared with (default the\n"
    "                       first)\n"
    "      --seed N         seed of the bootstrap (default 1; same seed, same output)\n"
    "      --resamples N    bootstrap replicates, 100..1000000 (default 4000)\n"
    "  -q, --quiet          no text table (with --json FILE or --html FILE)\n"
    "  -h, --help           this text\n"
    "\n"
    "exit status: 0 done, 1 a result could not be read or an output not written,\n"
    "2 usage error, 3 a result is worse (--fail-on-worse)\n";

/* Is any statistic of any result significantly worse than the baseline? */
static bool
any_worse(const json_t *cmp)
{
	const json_t *scope, *c, *st;
	size_t i, j, k;

	json_array_foreach(json_object_get(cmp, "scopes"), i,
			   scope) json_array_foreach(json_object_get(scope, "comparisons"), j, c)
	    json_array_foreach(json_object_get(c, "statistics"), k,
			       st) if (!strcmp(al_doc_str(st, "verdict", ""), "worse")) return true;
	return false;
}

/* --group-by over the results in[0..n): the table, --json, exit 3 on a worse group */
static int
compare_groups(const struct al_compare_opts *co, enum al_group_key key, const char *baseline,
	       const struct al_report_doc *in, size_t n, const char *json_path, bool markdown,
	       bool quiet, bool fail_on_worse)
{
	struct al_group_opts go = { key, baseline, co->confidence, co->resamples, co->seed };
	const json_t *v;
	json_t *cmp = NULL;
	char err[256];
	int rc = AL_EXIT_OK, wrc;
	size_t i;

	wrc = al_compare_groups(in, n, &go, &cmp, err, sizeof(err));
	if (wrc)
		return cli_cmd_error(wrc == -EINVAL ? AL_EXIT_USAGE : AL_EXIT_RUNTIME, "compare",
				     "%s", wrc == -EINVAL ? err : strerror(-wrc));
	if (!quiet && !(json_path && !strcmp(json_path, "-")))
		al_compare_groups_text(cmp, markdown, stdout);
	if (json_path) {
		wrc = al_doc_write(json_path, cmp, 0);
		if (wrc)
			rc = cli_cmd_error(AL_EXIT_RUNTIME, "compare", "--json %s: %s", json_path,
					   strerror(-wrc));
	}
	json_array_foreach(json_object_get(cmp, "verdicts"), i, v)
		if (!rc && fail_on_worse && !strcmp(al_doc_str(v, "verdict", ""), "worse"))
			rc = cli_cmd_error(AL_EXIT_THRESHOLD, "compare",
					   "group %s is significantly worse than %s (--fail-on-worse)",
					   al_doc_str(v, "group", "?"), al_doc_str(v, "baseline", "?"));
	json_decref(cmp);
	return rc;
}

/* --group-by with no results named: every run in the database */
static int
compare_store_groups(const struct al_compare_opts *co, enum al_group_key key,
		     const char *baseline, const char *db, const char *json_path, bool markdown,
		     bool quiet, bool fail_on_worse)
{
	struct al_report_doc *in = NULL;
	json_t **docs = NULL;
	size_t n = 0, i;
	int rc;

	rc = cli_store_load_runs("compare", db, &docs, &n);
	if (rc)
		return rc;
	in = calloc(n ? n : 1, sizeof(*in));
	if (!in) {
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "compare", "out of memory");
		goto out;
	}
	for (i = 0; i < n; i++)
		in[i] = (struct al_report_doc){ docs[i], al_doc_str(docs[i], "uuid", "db") };
	if (!n)
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "compare", "no runs in the results database");
	else
		rc = compare_groups(co, key, baseline, in, n, json_path, markdown, quiet,
				    fail_on_worse);
out:
	for (i = 0; i < n; i++)
		json_decref(docs[i]);
	free(docs);
	free(in);
	return rc;
}

int
cmd_compare(int argc, char **argv)
{
	struct al_compare_opts co = AL_COMPARE_OPTS_DEFAULT;
	const char *json_path = NULL, *html_path = NULL, *db = NULL;
	bool markdown = false, quiet = false, fail_on_worse = false, midi = false, group = false;
	enum al_group_key key = AL_GROUP_KERNEL;
	const char *baseline = NULL;
	struct al_report_doc *in = NULL;
	char(*sources)[512] = NULL;
	json_t **docs = NULL, *cmp = NULL;
	int opt, n, i, rc = AL_EXIT_OK, wrc;
	long v;

	optind = 0;
	opterr = 0;
	while ((opt = getopt_long(argc, argv, ":qh", long_opts, NULL)) != -1) {
		switch (opt) {
		case OPT_JSON:
			json_path = optarg;
			break;
		case OPT_MARKDOWN:
			markdown = true;
			break;
		case OPT_HTML:
			html_path = optarg;
			break;
		case OPT_DB:
			db = optarg;
			break;
		case OPT_SEED:
			if (cli_opt_long("--seed", optarg, 0, 2147483647, &v))
				return AL_EXIT_USAGE;
			co.seed = (uint64_t)v;
			break;
		case OPT_RESAMPLES:
			if (cli_opt_long("--resamples", optarg, 100, 1000000, &v))
				return AL_EXIT_USAGE;
			co.resamples = (int)v;
			break;
		case OPT_FAIL_ON_WORSE:
			fail_on_worse = true;
			break;
		case OPT_GROUP_BY:
			if (al_group_key_parse(optarg, &key))
				return cli_usage_error("compare", "--group-by: '%s' is not kernel, "
								  "host or label", optarg);
			group = true;
			break;
		case OPT_BASELINE:
			baseline = optarg;
			break;
		case 'q':
			quiet = true;
			break;
		case 'h':
			fputs(help, stdout);
			return AL_EXIT_OK;
		case ':':
			return cli_usage_error("compare", "option %s: needs a value",
					       argv[optind - 1]);
		default:
			return cli_usage_error("compare", "unknown option '%s'", argv[optind - 1]);
		}
	}
	n = argc - optind;
	if (group && !n) /* every run of the database */
		return compare_store_groups(&co, key, baseline, db, json_path, markdown, quiet,
					    fail_on_worse);
	if (!group && baseline)
		return cli_usage_error("compare", "--baseline goes with --group-by");
	if (n < (group ? 1 : 2))
		return cli_usage_error("compare",
				       "needs two results or more (the first is the "
				       "baseline), got %d",
				       n);
	if ((json_path && !json_path[0]) || (html_path && !html_path[0]))
		return cli_usage_error("compare", "%s: '' is not a file name",
				       json_path && !json_path[0] ? "--json" : "--html");
	if (json_path && html_path && !strcmp(json_path, "-") && !strcmp(html_path, "-"))
		return cli_usage_error("compare",
				       "--json - and --html -: only one can go to stdout");
	docs = calloc((size_t)n, sizeof(*docs));
	in = calloc((size_t)n, sizeof(*in));
	sources = calloc((size_t)n, sizeof(*sources));
	if (!docs || !in || !sources) {
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "compare", "out of memory");
		goto out;
	}
	for (i = 0; i < n && !rc; i++) {
		rc = cli_doc_load("compare", argv[optind + i], db, &docs[i], sources[i],
				  sizeof(sources[i]));
		in[i] = (struct al_report_doc){docs[i], sources[i]};
	}
	/* all MIDI timing results (record, analyze), or all run results */
	midi = n > 0 && !rc && al_doc_is_midi(docs[0]);
	for (i = 0; i < n && !rc; i++) {
		char name[256], schema[64];

		if (midi ? al_doc_is_midi(docs[i]) : al_doc_is_run(docs[i]))
			continue;
		cli_printable(sources[i], name, sizeof(name));
		cli_printable(al_doc_str(docs[i], "schema", "?"), schema, sizeof(schema));
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "compare",
				   "%s: schema %s: compare takes audiolat.run results, or "
				   "audiolat.midi/1 results of midi record/analyze (not mixed)", name,
				   schema);
	}
	if (rc)
		goto out;
	if (group && !midi) {
		rc = compare_groups(&co, key, baseline, in, (size_t)n, json_path, markdown,
				    quiet, fail_on_worse);
		goto out;
	}
	if (midi && n > 26) {
		rc = cli_cmd_error(AL_EXIT_USAGE, "compare", "at most 26 MIDI results");
		goto out;
	}
	wrc = midi ? al_compare_midi(in, (size_t)n, &co, &cmp) : al_compare(in, (size_t)n, &co, &cmp);
	if (wrc) {
		rc = cli_cmd_error(AL_EXIT_RUNTIME, "compare", "%s", strerror(-wrc));
		goto out;
	}
	if (!quiet && !(json_path && !strcmp(json_path, "-")) &&
	    !(html_path && !strcmp(html_path, "-"))) {
		const struct al_report_input ri = {.docs = in, .n = (size_t)n, .compare = cmp};

		(markdown ? &al_reporter_markdown : &al_reporter_text)->write(&ri, stdout);
		fflush(stdout);
	}
	if (json_path) {
		wrc = al_doc_write(json_path, cmp, 0);
		if (wrc)
			rc = cli_cmd_error(AL_EXIT_RUNTIME, "compare", "--json %s: %s", json_path,
					   strerror(-wrc));
	}
	if (html_path && !rc)
		rc = cli_write_html("compare", "--html", html_path, in, (size_t)n,
				    midi ? NULL : cmp, "audiolat comparison");
	if (!rc && fail_on_worse && any_worse(cmp))
		rc = cli_cmd_error(
		    AL_EXIT_THRESHOLD, "compare",
		    "a result is significantly worse than the baseline (--fail-on-worse)");
out:
	json_decref(cmp);
	for (i = 0; docs && i < n; i++)
		json_decref(docs[i]);
	free(docs);
	free(in);
	free(sources);
	return rc;
}
