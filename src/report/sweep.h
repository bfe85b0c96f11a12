/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat sweep's reporter (docs/sweep.md): from the plain cells
 * (core/sweep.h) and the run documents of each cell, the audiolat.sweep/1
 * document, the text or Markdown table with the smallest safe buffer and
 * the summary line, and the inputs of the HTML report.
 */
#ifndef AL_REPORT_SWEEP_H
#define AL_REPORT_SWEEP_H

#include <stdbool.h>
#include <stdio.h>

#include <jansson.h>

#include "core/sweep.h"
#include "report.h"

/* A run's figures (AL_SWEEP_*) from its audiolat.run/2 document; NAN: not in it. */
void al_report_sweep_figures(const json_t *run_doc, double fig[AL_SWEEP_FIGURES]);

/*
 * A sweep's run documents, cell by cell, kept as the runs end: what its
 * document and its HTML report are made of (runs[i]: cell i's, an array).
 */
struct al_sweep_runs {
	json_t **runs;
	int n;
};

/* An empty array for each of s's cells. 0 or -ENOMEM; al_sweep_runs_free() in every case. */
int al_sweep_runs_init(struct al_sweep_runs *x, const struct al_sweep *s);
void al_sweep_runs_free(struct al_sweep_runs *x);

/*
 * Run r of cell idx ended: its audiolat.run/2 document (al_doc_run_json())
 * kept in x, its figures into fig (al_report_sweep_figures()). The
 * document (x's), or NULL on ENOMEM.
 */
const json_t *al_sweep_runs_add(struct al_sweep_runs *x, int idx, const struct al_result *r,
				double fig[AL_SWEEP_FIGURES]);

/* The audiolat.sweep/1 document; runs[i]: cell i's run documents (an array). NULL on ENOMEM. */
json_t *al_report_sweep_json(const struct al_sweep *s, json_t *const *runs);

/*
 * "sweep: N configurations ...", the table (Markdown's when markdown),
 * the smallest buffer without xruns and the summary line (result=DONE,
 * or ERROR when !ok).
 */
void al_report_sweep_text(const struct al_sweep *s, bool markdown, bool ok, FILE *f);

/*
 * Every run's document with its source ("sim 48000 Hz 3 x 64, run 2"),
 * for the HTML report: one malloc'd block (free it), *n entries; NULL on
 * ENOMEM.
 */
struct al_report_doc *al_report_sweep_docs(const struct al_sweep *s, json_t *const *runs,
					   size_t *n);

/*
 * The line after each run: "sweep [2/6] sim 48000 Hz 3 x 64, run 1 of 3:
 * max latency ..., p99 wake ..., xruns N" (cell idx, run rep, r its result).
 */
void al_report_sweep_progress(const struct al_sweep *s, int idx, int rep, const struct al_result *r,
			      FILE *f);

#endif
