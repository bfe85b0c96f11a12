/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * audiolat midi's result (core/midi-result.h) as its document
 * (audiolat.midi/1 of analyze and record, audiolat.midi-loop/1 of loop;
 * docs/json.md: midi-doc.c) and as text (midi-text.c): the header and the
 * status line of a measurement under way, the threshold's line, send's
 * and thru's lines; the statistics, the loop's round trips and the
 * summary line are rendered from the document by the text and summary
 * reporters (report.h), as `audiolat show` prints them too.
 */
#ifndef AL_REPORT_MIDI_H
#define AL_REPORT_MIDI_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include <jansson.h>

#include "core/midi-result.h"
#include "doc/midi-doc.h"


/* record, loop: what is measured, where ("recording into ..."); send, thru: the port. */
void al_midi_text_header(FILE *f, const struct al_midi_result *r);
/* send's and thru's last line (verbose), then their "summary: ..." line (they have no document). */
void al_midi_text_send_thru(FILE *f, const struct al_midi_result *r, bool verbose);
/* The live status line, over the last one ("\r", clear to the end of the line). */
void al_midi_text_status(FILE *f, const struct al_midi_live *live, bool interval_given);
/* The threshold exceeded, in one line ("max latency 6.1 ms exceeds --max-latency 1.0 ms"); false: none. */
bool al_midi_text_threshold(const struct al_midi_result *r, char *buf, size_t size);

/*
 * The text and summary reporters' part (text.c, summary.c): is doc an
 * audiolat.midi/1 or midi-loop/1 document; its report (analyze, record:
 * the source, the deltas, their histograms when in has them, the phases,
 * the warnings; loop: the probes, the latencies, ...); its "summary: ..."
 * line with the verdict.
 */
struct al_report_input;
bool al__midi_doc(const json_t *doc);
void al__midi_text(FILE *f, const json_t *doc, const struct al_report_input *in);
void al__midi_summary(FILE *f, const json_t *doc, const char *verdict);

#endif
