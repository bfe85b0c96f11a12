/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat compare: results side by side (latencytest's figures and the
 * wake-latency percentiles), and for every result against the first one
 * (the baseline) 95 % confidence intervals for the differences of p50,
 * p99 and max wake latency with a verdict. The comparison is an
 * audiolat.compare/1 document (docs/compare.md); text and Markdown are
 * rendered from it.
 */
#ifndef AL_REPORT_COMPARE_H
#define AL_REPORT_COMPARE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "doc/doc.h"


struct al_compare_opts {
	double confidence; /* 0.95 */
	int resamples;	   /* bootstrap replicates, >= 100 (4000) */
	uint64_t seed;	   /* of the PRNG; the output is a function of it */
};

#define AL_COMPARE_OPTS_DEFAULT                                                                    \
	{                                                                                          \
		.confidence = 0.95, .resamples = 4000, .seed = 1                                   \
	}

/*
 * Compare in[0..n) (n >= 2; in[0] is the baseline) into *out. 0, -EINVAL
 * (fewer than two results, bad options, a document al_doc_check()
 * refuses) or -ENOMEM.
 */
int al_compare(const struct al_report_doc *in, size_t n, const struct al_compare_opts *o,
	       json_t **out);

/* The result of a comparison (either kind) called key ("A", "B", ...), NULL if none. */
const json_t *al_compare_result(const json_t *cmp, const char *key);

/*
 * What compare takes: all MIDI timing results (*midi, as in[0] is one) or
 * all run results. -1, or the index of the first result that is not.
 */
long al_compare_odd_one(const struct al_report_doc *in, size_t n, bool *midi);

/* The statistics a gate (compare --fail-on-worse) decides on: --gate p50,p99,max */
enum {
	AL_GATE_P50 = 1 << 0,
	AL_GATE_P99 = 1 << 1,
	AL_GATE_MAX = 1 << 2,
};
#define AL_GATE_DEFAULT AL_GATE_P99
/* "p99,max" -> the bits; 0 or -EINVAL (an empty list, an unknown name) */
int al_gate_parse(const char *s, unsigned *gate);
/* Is the statistic called name ("p99", "max", MIDI's "p99_abs_jitter") gated? */
bool al_gate_has(unsigned gate, const char *name);

/* The table (per phase when there are several) and one line per verdict. */
void al_compare_text(const json_t *cmp, FILE *f);
/* The same as Markdown tables, to paste into a patch description. */
void al_compare_markdown(const json_t *cmp, FILE *f);
/*
 * Outside text for Markdown (a table cell, a line): made safe for a
 * terminal, at most max_chars characters (255 bytes), with what would end
 * a cell or start markup escaped.
 */
void al_compare_md_escape(FILE *f, const char *s, size_t max_chars);

/*
 * MIDI results (audiolat.midi/1 with a jitter histogram): a row per result
 * and, for each against the first, intervals for the difference of the
 * p99 and the max of |delta - interval|. -EINVAL unless every document is
 * one. *out is an audiolat.compare-midi/1 document.
 */
bool al_doc_is_midi(const json_t *doc);
int al_compare_midi(const struct al_report_doc *in, size_t n, const struct al_compare_opts *o,
		    json_t **out);
/* Its table and verdicts as text, or Markdown. */
void al_compare_midi_table(const json_t *cmp, bool markdown, FILE *f);

/* Groups of runs: compare --group-by (compare-group.c) */
enum al_group_key { AL_GROUP_KERNEL, AL_GROUP_HOST, AL_GROUP_LABEL };
/* below this many runs in a group (or its baseline): "not enough runs" */
#define AL_GROUP_MIN_RUNS 3

struct al_group_opts {
	enum al_group_key key;
	const char *baseline;  /* the baseline group's name; NULL: the first group met */
	double confidence;     /* 0.95 */
	int resamples;         /* >= 100 */
	uint64_t seed;
};

/* "kernel", "host", "label" <-> the key: 0 or -EINVAL */
int al_group_key_parse(const char *s, enum al_group_key *key);
const char *al_group_key_name(enum al_group_key key);

/*
 * Group the runs in[0..n) by o->key (a run without the field is in
 * "(none)") into an audiolat.compare-groups/1 document: a row per group
 * (runs, mean and min-max of p50, p99 and max wake latency over its runs,
 * xruns) and, for every other group against the baseline, a verdict per
 * statistic from al_ci_group_diff(). 0, -EINVAL (no runs, a document
 * that is not a run, an unknown --baseline) or -ENOMEM, with one line in
 * err.
 */
int al_compare_groups(const struct al_report_doc *in, size_t n, const struct al_group_opts *o,
		      json_t **out, char *err, size_t err_size);
/* The table and the verdict lines (Markdown when asked). */
void al_compare_groups_text(const json_t *cmp, bool markdown, FILE *f);

/* What audiolat compare asks of its results. */
struct al_compare_req {
	bool group;                /* groups of runs (al_compare_groups()); MIDI results never */
	struct al_group_opts go;   /* with group */
	struct al_compare_opts co; /* without */
	unsigned gate;             /* the statistics the gate decides on (AL_GATE_*) */
	bool within_run;           /* the gate may decide on single runs (their spread within) */
};

/*
 * What it found. The gate: a verdict "worse" on a gated statistic (worse),
 * else a gated statistic it could not decide (insufficient): too few runs
 * in a group, a figure not measured, too few windows for the max, or single
 * runs compared without within_run (their spread between runs unknown).
 */
struct al_compare_out {
	json_t *cmp;               /* the comparison (json_decref() it) */
	bool midi;                 /* of MIDI results (al_compare_midi()) */
	bool groups;               /* of groups of runs */
	char worse[512];           /* a result or group significantly worse: the line; "" */
	char insufficient[512];    /* nothing worse, but not enough data to say so: the line; "" */
};

/*
 * audiolat compare's comparison of in[0..n) (in[i].source their names):
 * all MIDI results against the first (at most 26), or all runs grouped
 * (q->group) or against the first. 0; -ENODATA no results at all ("no
 * runs in the results database"); -EPROTO a result of another kind than
 * the first (its name and schema), or one the comparison refused;
 * -EINVAL too many MIDI results, an
 * unknown --baseline ...; -ENOMEM. err has the line in every case.
 */
int al_compare_docs(const struct al_report_doc *in, size_t n, const struct al_compare_req *q,
		    struct al_compare_out *out, char *err, size_t err_size);

#endif
