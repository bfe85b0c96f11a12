/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * What a reporter is and what it renders: finished results as their
 * documents, their comparison and how to show them. Every output format
 * (src/report's text, summary, json and markdown; src/html's page) is one
 * struct al_reporter; src/report lists them.
 */
#ifndef AL_DOC_RENDER_H
#define AL_DOC_RENDER_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "doc.h"

/* What a reporter renders: results, their comparison, and how. */
struct al_report_input {
	const struct al_report_doc *docs; /* the results, docs[0..n) */
	size_t n;
	/* their comparison (audiolat.compare/1, compare-midi/1 or compare-groups/1: al_compare*()), or NULL */
	const json_t *compare;
	const char *title;   /* html: the page's; NULL: "audiolat report" */
	const char *verdict; /* summary: its result= word ("PASS", "FAIL"); NULL: "-" */
	bool verbose;	     /* text: every xrun and spike, not just the first ones */
	bool no_histogram;   /* text: without the ASCII histogram */
	/* text: a line per event of the run's "why", not only a run with xruns' first ten (--why) */
	bool why;
	/*
	 * text (audiolat show): first when and where each result ran (and a
	 * run's load and command line); then a run's report, nothing more of
	 * any other result (which is then no -EINVAL)
	 */
	bool provenance;
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

#endif
