/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Reporters: every output format is one struct al_reporter, whose write()
 * renders one input, finished results as their documents (what --json
 * writes, what the database keeps), to a FILE; none sees live data. They
 * are listed in one table (report.c): a new format is a file of its own,
 * a row there and a line below. The JSON builders of a run's document
 * follow (json.c).
 */
#ifndef AL_REPORT_REPORT_H
#define AL_REPORT_REPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "core/result.h"
#include "doc/doc.h"

/* One result: its document and where it came from (a file name, "db:12", NULL). */
struct al_report_doc {
	const json_t *doc;
	const char *source;
};

/* What a reporter renders: results, their comparison, and how. */
struct al_report_input {
	const struct al_report_doc *docs; /* the results, docs[0..n) */
	size_t n;
	/* their comparison (audiolat.compare/1 or compare-midi/1, from al_compare*()), or NULL */
	const json_t *compare;
	const char *title;   /* html: the page's; NULL: "audiolat report" */
	const char *verdict; /* summary: its result= word ("PASS", "FAIL"); NULL: "-" */
	bool verbose;	     /* text: every xrun and spike, not just the first ones */
	bool no_histogram;   /* text: without the ASCII histogram */
};

struct al_reporter {
	const char *name;     /* what a user calls the format */
	const char *file_ext; /* of a file in it, without the dot */
	const char *summary;  /* one line: what it writes */
	/*
	 * Write in to f. 0; -EINVAL when in is nothing this format renders
	 * (then nothing is written); -ENOMEM; -EIO when writing to f failed.
	 */
	int (*write)(const struct al_report_input *in, FILE *f);
};

/*
 * text: the comparison's table and verdicts if there is one, else each
 * run's report, what `audiolat run` and `audiolat show` print (the
 * latencytest line, the percentiles, phases, xruns, spikes, the
 * histogram; audiolat.run/2 or /1 documents only).
 */
extern const struct al_reporter al_reporter_text;
/* summary: per run one plain line, "summary: backend=sim ... result=PASS" ("-": not measured). */
extern const struct al_reporter al_reporter_summary;
/* json: the comparison if there is one, else the one document, indented, and a newline. */
extern const struct al_reporter al_reporter_json;
/* markdown: the comparison's tables, to paste into a patch description (a comparison only). */
extern const struct al_reporter al_reporter_markdown;
/*
 * html: one self-contained page (html.c, docs/report.md) of the results
 * (documents al_doc_check() accepts) with an audiolat.compare/1
 * comparison first, when there is one; an -EINVAL leaves f untouched.
 */
extern const struct al_reporter al_reporter_html;

/* Every format, NULL-terminated; and the one called name, NULL when there is none. */
extern const struct al_reporter *const al_reporters[];
const struct al_reporter *al_reporter_find(const char *name);

/* The audiolat.run/2 document (see docs/json.md); NULL on ENOMEM. */
json_t *al_report_json(const struct al_result *r);

#endif
