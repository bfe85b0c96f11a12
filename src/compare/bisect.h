/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat bisect: is the tree under test good or bad against stored
 * baselines? Trials (run documents a callback makes: the CLI runs the
 * user's command) until the sequential test (sequential.h) decides, on
 * one statistic of each run, the log of its p50, p99 or max wake latency.
 * docs/bisect.md.
 */
#ifndef AL_COMPARE_BISECT_H
#define AL_COMPARE_BISECT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "doc/doc.h"
#include "sequential.h"

/* Below this many runs in a baseline there is no test. */
#define AL_BISECT_MIN_BASE 3

enum al_bisect_stat { AL_BISECT_P50, AL_BISECT_P99, AL_BISECT_MAX };

/* "p50", "p99", "max" <-> the statistic: 0 or -EINVAL */
int al_bisect_stat_parse(const char *s, enum al_bisect_stat *out);
const char *al_bisect_stat_name(enum al_bisect_stat s);

struct al_bisect_req {
	const struct al_report_doc *good; /* the good baseline's runs */
	size_t n_good;                    /* >= AL_BISECT_MIN_BASE */
	const struct al_report_doc *bad;  /* the bad baseline's, or none */
	size_t n_bad;                     /* 0, or >= AL_BISECT_MIN_BASE */
	enum al_bisect_stat stat;
	struct al_seq_design design;
};

/*
 * One trial, the i-th (from 0): a run document into *doc (a new
 * reference, or NULL), *id where it was saved (0: not saved). 0, or
 * -errno with one line in err: the tree cannot be tested.
 */
typedef int (*al_bisect_trial_fn)(void *ud, unsigned i, json_t **doc, int64_t *id, char *err,
				  size_t err_size);

struct al_bisect_out {
	enum al_seq_verdict verdict;  /* GOOD, BAD or INCONCLUSIVE after a decision */
	bool gated;                   /* the gap gate closed: inconclusive without a trial */
	struct al_seq_gap gap;        /* with a bad baseline */
	struct al_seq_look look;      /* the last look */
	size_t trials;                /* the trials that counted */
	bool trial_failed;            /* a trial failed (the returned error is its) */
	double value_ns[AL_SEQ_N_MAX];/* each trial's figure */
	int64_t id[AL_SEQ_N_MAX];     /* where each was saved (0: not) */
	double good_gmean_ns, bad_gmean_ns; /* the baselines' geometric means (bad: NAN if none) */
};

/*
 * The baselines' figures, then trials (trial(ud, i, ...)) and a look
 * after each until the sequential test decides; with a bad baseline the
 * gap gate first (closed: inconclusive, no trial). 0 with out->verdict;
 * -EINVAL a baseline of too few runs, a run without the statistic, a bad
 * design (err says which); a trial's failure as it returned it
 * (out->trial_failed, err "trial N: ..."), or -ENODATA when its document
 * has no such figure; -ENOMEM.
 */
int al_bisect_decide(const struct al_bisect_req *q, al_bisect_trial_fn trial, void *ud,
		     struct al_bisect_out *out, char *err, size_t err_size);

/*
 * The audiolat.bisect/1 document of a decision (docs/bisect.md): commit
 * may be NULL; exit_status what the command exits with. NULL on ENOMEM.
 */
json_t *al_bisect_doc(const struct al_bisect_req *q, const struct al_bisect_out *out,
		      const char *commit, int exit_status);

/* Its text: two lines, what was measured and the verdict. */
void al_bisect_text(const json_t *doc, FILE *f);

#endif
