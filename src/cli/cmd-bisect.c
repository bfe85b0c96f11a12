/* SPDX-License-Identifier: GPL-2.0-or-later */
/* audiolat bisect: good or bad against stored baselines, for git bisect run (docs/bisect.md). */
#include <errno.h>
#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "args/common-opts.h"
#include "compare/bisect.h"
#include "bisect-trial.h"
#include "cli.h"
#include "commands.h"
#include "doc-io.h"

enum { OPT_THRESHOLD = 256, OPT_ALPHA, OPT_STAT };

/*
 * git bisect run's protocol, not audiolat's usual exit status: 0 good,
 * 1 bad, 125 this commit cannot be told (skip it), 128 stop the bisection.
 */
enum { BISECT_GOOD = 0, BISECT_BAD = 1, BISECT_SKIP = 125, BISECT_ABORT = 128 };

struct bisect_args {
	struct al_seq_design d;
	enum al_bisect_stat stat;
	const char *good, *bad, *run, *label, *db, *json_path;
	int min_trials, max_trials;
	bool quiet, help;
};

#define TO(f_) AL_OPT_TO(struct bisect_args, f_)
static const struct al_optdef bisect_opts[] = {
	AL_OPT_TEXT("usage: audiolat bisect --good LABEL [--bad LABEL] (--run CMD | -- CMD [ARG...])\n"
		    "                       [--stat p50|p99|max] [--threshold RATIO] [--alpha A]\n"
		    "                       [--min-trials N] [--max-trials N] [--label TEXT]\n"
		    "                       [--db PATH] [--json FILE|-] [-q]\n"
		    "\n"
		    "For git bisect run: measure the tree checked out, by running CMD (it builds,\n"
		    "boots or just runs, and writes one audiolat.run document to stdout or to the\n"
		    "file $AUDIOLAT_BISECT_OUT names) again and again until a sequential test of\n"
		    "the statistic decides against the stored runs labelled --good (and --bad):\n"
		    "good or bad. Every trial is saved in the results database. The method and\n"
		    "its error rates: docs/bisect.md.\n"
		    "\n"),
	{ .name = "good", .type = AL_OPT_TEXT, .arg = "LABEL", TO(good),
	  .help = "the good baseline: the saved runs of this label (a GLOB\n"
		  "pattern with * ? [...]), 3 at least" },
	{ .name = "bad", .type = AL_OPT_TEXT, .arg = "LABEL", TO(bad),
	  .help = "the bad baseline, the same way: the boundary is then\n"
		  "midway between the two, and a regression that is not\n"
		  "beyond --threshold and the noise is not bisected (128)" },
	{ .name = "run", .type = AL_OPT_TEXT, .arg = "CMD", TO(run),
	  .help = "the command, run by /bin/sh -c (or give it after --)" },
	{ .id = OPT_STAT, .name = "stat", .type = AL_OPT_SPEC, .arg = "STAT",
	  .help = "the statistic: p50, p99 or max wake latency (default p99)" },
	{ .id = OPT_THRESHOLD, .name = "threshold", .type = AL_OPT_SPEC, .arg = "RATIO",
	  .help = "the least regression that counts, a ratio > 1 (default\n"
		  "1.2); without --bad the boundary is the good baseline\n"
		  "times it" },
	{ .id = OPT_ALPHA, .name = "alpha", .type = AL_OPT_SPEC, .arg = "A",
	  .help = "the chance of a wrong verdict each way, 0 < A < 0.5\n"
		  "(default 0.05)" },
	{ .name = "min-trials", .type = AL_OPT_INT, .arg = "N", .min = 2, .max = AL_SEQ_N_MAX,
	  TO(min_trials), .help = "the first verdict after N trials (default 3)" },
	{ .name = "max-trials", .type = AL_OPT_INT, .arg = "N", .min = 2, .max = AL_SEQ_N_MAX,
	  TO(max_trials), .help = "undecided after N trials: 125 (default 10)" },
	CLI_SHARED_AS(CLI_OPT_LABEL, NULL, "the trials' label in the database (default\n"
					   "bisect:COMMIT, COMMIT from git rev-parse HEAD)",
		      TO(label)),
	CLI_SHARED(CLI_OPT_DB, TO(db)),
	CLI_SHARED_AS(CLI_OPT_JSON, NULL, "write the audiolat.bisect/1 document (- = stdout,\n"
					  "and then no text)", TO(json_path)),
	CLI_SHARED_AS(CLI_OPT_QUIET, NULL, "no text, no \"saved\" lines", TO(quiet)),
	CLI_SHARED(CLI_OPT_HELP, TO(help)),
	AL_OPT_TEXT("\n"
		    "exit status (git bisect run's, not audiolat's usual one): 0 good, 1 bad,\n"
		    "125 cannot tell this commit (undecided after --max-trials; CMD failed or\n"
		    "wrote no run document): git bisect skips it; 128 stop the bisection: nothing\n"
		    "to bisect (the bad baseline is not worse than the good one by more than\n"
		    "--threshold beyond the noise), a usage error, a baseline of fewer than 3 runs,\n"
		    "the results database failed\n"),
	AL_OPT_END,
};

/* A number of --threshold or --alpha into *v: 0 or -EINVAL. */
static int
real_arg(const char *s, double lo, double hi, double *v)
{
	char *end;

	errno = 0;
	*v = strtod(s, &end);
	return errno || end == s || *end || !(*v > lo && *v < hi) ? -EINVAL : 0;
}

static int
bisect_set(void *ctx, const struct al_opt_hit *h, char *err, size_t err_size)
{
	struct bisect_args *a = ctx;

	if (h->id == OPT_STAT && al_bisect_stat_parse(h->arg, &a->stat))
		return snprintf(err, err_size, "--stat: '%s' is not p50, p99 or max", h->arg), -EINVAL;
	if (h->id == OPT_THRESHOLD && real_arg(h->arg, 1, 1e6, &a->d.threshold))
		return snprintf(err, err_size, "--threshold: '%s' is not a ratio above 1", h->arg),
		       -EINVAL;
	if (h->id == OPT_ALPHA && real_arg(h->arg, 0, 0.5, &a->d.alpha))
		return snprintf(err, err_size, "--alpha: '%s' is not between 0 and 0.5", h->arg),
		       -EINVAL;
	return 0;
}

/* A baseline: the runs labelled label; AL_EXIT_OK or BISECT_ABORT after one line. */
static int
baseline(const struct bisect_args *a, const char *opt, const char *label, struct al_doc_set *set)
{
	const struct al_store_filter f = { .label = label };
	struct al_load_fail fail;

	if (al_store_load_query(a->db, &f, set, &fail)) {
		cli_cmd_error(BISECT_ABORT, "bisect", "%s%s%s", fail.name, fail.name[0] ? ": " : "",
			      fail.why);
		return BISECT_ABORT;
	}
	if (set->n < AL_BISECT_MIN_BASE)
		return cli_cmd_error(BISECT_ABORT, "bisect", "%s '%s': %zu saved run%s of that label, "
				     "%d needed", opt, label, set->n, set->n == 1 ? "" : "s",
				     AL_BISECT_MIN_BASE);
	return AL_EXIT_OK;
}

/* The verdict out: text (unless -q or --json -), --json; the exit status. */
static int
report(const struct bisect_args *a, const struct al_bisect_req *q,
       const struct al_bisect_out *out, const char *commit)
{
	/* the gate closed: no commit can be told, stop rather than skip them all */
	int code = out->gated ? BISECT_ABORT
		   : out->verdict == AL_SEQ_GOOD ? BISECT_GOOD
		   : out->verdict == AL_SEQ_BAD ? BISECT_BAD : BISECT_SKIP;
	json_t *doc = al_bisect_doc(q, out, commit[0] ? commit : NULL, code);

	if (!doc)
		return cli_cmd_error(BISECT_ABORT, "bisect", "%s", strerror(ENOMEM));
	if (!a->quiet && !(a->json_path && !strcmp(a->json_path, "-")))
		al_bisect_text(doc, stdout);
	fflush(stdout);
	if (a->json_path && cli_write_doc("bisect", a->json_path, doc, 0))
		code = BISECT_ABORT;
	if (out->gated)
		cli_cmd_error(code, "bisect", "nothing to bisect: the bad baseline is %.2fx the good "
			      "one, at least %.2fx, not beyond --threshold %.2f (exit 128)",
			      exp(out->gap.gap), exp(out->gap.lo), q->design.threshold);
	json_decref(doc);
	return code;
}

/* The baselines loaded, the trials run: the exit status. */
static int
bisect(const struct bisect_args *a, char *const *argv)
{
	struct al_doc_set good = { 0 }, bad = { 0 };
	struct cli_trial t = { .argv = argv, .db = a->db, .quiet = a->quiet };
	struct al_bisect_req q = { .stat = a->stat, .design = a->d };
	struct al_bisect_out out;
	char commit[128], label[160], err[1024];
	int rc;

	rc = baseline(a, "--good", a->good, &good);
	if (!rc && a->bad)
		rc = baseline(a, "--bad", a->bad, &bad);
	if (!rc && (rc = cli_trial_open(&t)))
		rc = cli_cmd_error(BISECT_ABORT, "bisect", "a scratch directory: %s", strerror(-rc));
	if (rc)
		goto out;
	cli_trial_commit(&t, commit, sizeof(commit));
	snprintf(label, sizeof(label), "bisect%s%s", commit[0] ? ":" : "", commit);
	t.label = a->label ? a->label : label;
	q.good = good.in, q.n_good = good.n, q.bad = bad.in, q.n_bad = bad.n;
	rc = al_bisect_decide(&q, cli_trial_run, &t, &out, err, sizeof(err));
	if (rc && out.trial_failed && !t.store_failed)
		rc = cli_cmd_error(BISECT_SKIP, "bisect", "%s: cannot test this commit (exit 125)",
				   err);
	else if (rc)
		rc = cli_cmd_error(BISECT_ABORT, "bisect", "%s", err);
	else
		rc = report(a, &q, &out, commit);
out:
	cli_trial_close(&t);
	al_doc_set_free(&good);
	al_doc_set_free(&bad);
	return rc;
}

int
cmd_bisect(int argc, char **argv)
{
	struct bisect_args a = { .d = AL_SEQ_DESIGN_DEFAULT, .stat = AL_BISECT_P99 };
	char *sh[] = { "/bin/sh", "-c", NULL, NULL };
	int first, rc;

	rc = cli_parse("bisect", bisect_opts, 25, argc, argv, bisect_set, &a, &a.help, -1, &first);
	if (rc >= 0)
		return rc == AL_EXIT_USAGE ? BISECT_ABORT : rc;
	if (a.min_trials)
		a.d.n_min = (unsigned)a.min_trials;
	if (a.max_trials)
		a.d.n_max = (unsigned)a.max_trials;
	if (!a.good)
		rc = cli_usage_error("bisect", "--good LABEL: which stored runs are good?");
	else if (!a.run == (first >= argc))
		rc = cli_usage_error("bisect", "a command: --run CMD or -- CMD [ARG...], one of them");
	else if (a.d.n_max < a.d.n_min)
		rc = cli_usage_error("bisect", "--max-trials %u is below --min-trials %u", a.d.n_max,
				     a.d.n_min);
	if (rc >= 0)
		return BISECT_ABORT;
	sh[2] = (char *)a.run;
	return bisect(&a, a.run ? sh : argv + first);
}
