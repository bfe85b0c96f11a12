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
#include "doc/render.h"
#include "doc/run-doc.h"
#include "html/html.h"



/*
 * text: the comparison's table and verdicts if there is one, else each
 * run's report, what `audiolat run` and `audiolat show` print (the
 * latencytest line, the percentiles, phases, xruns, spikes, the
 * histogram; audiolat.run/2 or /1 documents), or what `audiolat midi`
 * prints of an audiolat.midi/1 or midi-loop/1 document.
 */
extern const struct al_reporter al_reporter_text;
/* summary: per run (or MIDI result) one plain line, "summary: backend=sim ... result=PASS" ("-": not measured). */
extern const struct al_reporter al_reporter_summary;
/* json: the comparison if there is one, else the one document, indented, and a newline. */
extern const struct al_reporter al_reporter_json;
/* markdown: the comparison's tables, to paste into a patch description (a comparison only). */
extern const struct al_reporter al_reporter_markdown;

/* Every format, NULL-terminated; and the one called name, NULL when there is none. */
extern const struct al_reporter *const al_reporters[];
const struct al_reporter *al_reporter_find(const char *name);
/* r's rendering of in, made in memory, then written to path ("-": stdout). 0 or -errno. */
int al_report_write_file(const struct al_reporter *r, const struct al_report_input *in,
			 const char *path);

/*
 * What run and midi print of a result they measured: the text (unless
 * quiet; a blank line after a run's), then the summary line. 0 or -errno
 * (a reporter's).
 */
int al_report_text_summary(const struct al_report_input *in, bool quiet, FILE *f);


/*
 * The audiolat.load/1 document of one load run on its own (audiolat load):
 * name as given, the phase's load, throughput and error, how long it ran.
 * NULL on ENOMEM.
 */
json_t *al_report_load_json(const struct al_phase *ph, const char *name, int64_t elapsed_ns,
			    bool interrupted);
/*
 * Its text, from that document: "time: ..." and a line per figure (not
 * when quiet), then the summary line; classic (hackbench's one run, as
 * rt-tests prints it): only "Time: S" when it ended well.
 */
void al_report_load_text(FILE *f, const json_t *doc, bool quiet, bool classic);

#endif
