/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * Other tools' data in and out (docs/interchange.md): their files turned
 * into audiolat.run/2 documents for the results database, and runs written
 * in their formats. Builds on src/core and src/doc (and jansson); never
 * prints or exits: 0 or a negative errno, one line of explanation in the
 * caller's buffer.
 */
#ifndef AL_INTERCHANGE_INTERCHANGE_H
#define AL_INTERCHANGE_INTERCHANGE_H

#include <stddef.h>

#include <jansson.h>

/* The formats `audiolat import --format` names (AL_IX_AUTO: recognised by content). */
enum al_ix_format {
	AL_IX_AUTO,
	AL_IX_AUDIOLAT,	       /* an audiolat JSON document, saved byte for byte */
	AL_IX_CYCLICTEST_HIST, /* cyclictest -h N / -H N text */
	AL_IX_CYCLICTEST_JSON, /* cyclictest --json=FILE */
	AL_IX_PW_PROFILER,     /* pw-profiler -o FILE (PipeWire 0.3.65's log) */
};

/* "audiolat|cyclictest-hist|...|pw-profiler": the --format choices, in one place. */
#define AL_IX_IMPORT_FORMATS "audiolat|cyclictest-hist|cyclictest-json|pw-profiler"

/* The format named name (one of AL_IX_IMPORT_FORMATS, or "auto"): 0, or -EINVAL. */
int al_ix_format_of(const char *name, enum al_ix_format *f);
/* Its name ("cyclictest-hist"), "auto" for AL_IX_AUTO. */
const char *al_ix_format_name(enum al_ix_format f);

/*
 * What text (len bytes) is, by its content: a cyclictest histogram (a "#
 * Histogram" line, then bucket lines), a cyclictest JSON file (an object
 * with "thread" and "num_threads"), pw-profiler's log (a first line of 4
 * tab-separated integers), else AL_IX_AUDIOLAT (the store says what is
 * wrong with it).
 */
enum al_ix_format al_ix_detect(const char *text, size_t len);

/*
 * Turn text (len bytes, read from the file called name: only its last
 * path component is kept, in the document's source.file) in format f
 * (AL_IX_AUTO: al_ix_detect()) into the text of an audiolat document:
 * *out malloc'd, NUL-terminated, *out_len bytes; AL_IX_AUDIOLAT gives a
 * copy of text. 0, or -EINVAL (-ENOMEM) with err the rest of a line after
 * the file's name: ":LINE: expected ..." (text formats), ": thread \"0\":
 * expected ..." or ":LINE:COLUMN: invalid JSON: ..." (JSON).
 */
int al_ix_import(const char *text, size_t len, const char *name, enum al_ix_format f, char **out,
		 size_t *out_len, char *err, size_t err_size);

/*
 * al_ix_import() in the shape of the store's converter (struct
 * al_store_convert, audiolat import): ud points to the enum al_ix_format.
 */
int al_ix_convert(void *ud, const char *file, const char *text, size_t len, char **out,
		  size_t *out_len, char *err, size_t err_size);

/*
 * The run document doc in cyclictest's -h histogram text (docs/interchange.md):
 * one column per thread of a run imported from cyclictest, else one column
 * of the run's per-wake-up wake latency; audiolat's own figures in "#
 * audiolat.KEY: JSON" comment lines. *text malloc'd. 0, or -EINVAL with
 * one line in err (not a run document), -ENODATA (a run without a wake
 * latency histogram: one imported from pw-profiler), -ENOMEM.
 */
int al_ix_export_cyclictest(const json_t *doc, char **text, char *err, size_t err_size);

#endif
