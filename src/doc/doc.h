/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The document layer: what every audiolat JSON document is made of, below
 * the reporters and the results database. Building: the envelope (schema,
 * tool_version, the command line, when it started, the system and its
 * checks), text from outside made valid UTF-8, the histogram block.
 * Reading: one path getter. Writing: one writer (dumped, a newline, to a
 * file or stdout). Builds on src/core and jansson; never prints or exits.
 */
#ifndef AL_DOC_DOC_H
#define AL_DOC_DOC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include <jansson.h>

#include "core/hist.h"
#include "core/result.h"
#include "core/sysinfo.h"
#include "schema.h"

/* ---- reading ---- */

/*
 * The value at a dotted path ("total.wake_latency_ns.p99"), NULL when a
 * part is missing or not an object. Array elements are not addressed.
 */
json_t *al_doc_get(const json_t *o, const char *path);
/* An integer (or a real rounded down) at path, else dflt. */
int64_t al_doc_int(const json_t *o, const char *path, int64_t dflt);
/* A number (integer or real) at path, else dflt. */
double al_doc_real(const json_t *o, const char *path, double dflt);
/* A string at path, else dflt. */
const char *al_doc_str(const json_t *o, const char *path, const char *dflt);
/* true/false at path, else dflt. */
bool al_doc_bool(const json_t *o, const char *path, bool dflt);

/* One result: its document and where it came from (a file name, "db:12", NULL). */
struct al_report_doc {
	const json_t *doc;
	const char *source;
};

/*
 * Is doc a document a reader understands (report, compare, export): an object with "schema"
 * "audiolat.run/2" (or /1) and a "total" object, or "audiolat.midi/1"
 * (docs/midi.md)? 0, or -EINVAL with one line in err ("schema 'x/1' is not audiolat.run/2
 * or audiolat.midi/1").
 */
int al_doc_check(const json_t *doc, char *err, size_t err_size);

/*
 * The JSON document at path ("-": standard input; duplicate keys
 * refused). 0, or -errno with one line in err (control characters shown
 * as '?'): -ENOENT and the like (strerror: no such file ...), -EISDIR "is
 * a directory", -EBADMSG "line L, column C: ..." (not JSON), -EIO the
 * file could not be read (jansson's line).
 */
int al_doc_read(const char *path, json_t **out, char *err, size_t err_size);
/*
 * The bytes of path ("-": standard input), NUL-terminated in *text
 * (malloc'd, *len bytes before the NUL), reading at most a little more
 * than max_bytes (so a caller can say it is too large). 0 or -errno.
 */
int al_doc_read_text(const char *path, size_t max_bytes, char **text, size_t *len);

/* ---- building ---- */

/*
 * A JSON string from text that came from outside (hostnames, command
 * lines, file names, labels): bytes that are not valid UTF-8 become '?', so
 * one odd byte never costs a whole document. NULL text gives null.
 */
json_t *al_json_text(const char *s);

/* An integer, or null when v == none (a figure that was not measured). */
json_t *al_json_int_or_null(int64_t v, int64_t none);
/* A real, or null when it is not finite (NAN: not measured). */
json_t *al_json_real_or_null(double v);
/* A phase's throughput {NAME: {value, unit}, ...}, a value null when not measured (NAN). */
json_t *al_json_throughput(const struct al_metric *m, int n);

/*
 * A histogram's summary {count, min, mean, stddev, p50 ... max, overflow,
 * underflow, negative} (figures null when empty) and its sparse buckets
 * {count, overflow, underflow, negative, buckets: [[low_ns, high_ns,
 * count], ...]} in ascending order, negative ones first (docs/json.md).
 */
json_t *al_json_summary(const struct al_hist *h);
json_t *al_json_histogram(const struct al_hist *h);

/*
 * The system checks (docs/json-check.md): {"ok":N, "warn":N, "fail":N,
 * "skip":N, "checks":[{"id", "status", "message", "fix"}, ...]} for
 * c[0..n). A status other than ok/warn/fail counts as skip. NULL on ENOMEM.
 */
json_t *al_json_checks(const struct al_syscheck *c, int n);

/*
 * The envelope. A new document {"schema": schema, "tool_version": ...};
 * with kind, "kind" between them (MIDI documents). A listing (history,
 * devices) or a load's throughput has no tool version: al_doc_new_plain.
 */
json_t *al_doc_new(const char *schema, const char *kind);
json_t *al_doc_new_plain(const char *schema);
/* "2026-01-02T03:04:05.678Z" of an epoch time, as a JSON string. */
json_t *al_doc_time(int64_t epoch_ns);
/*
 * The system {sysname, hostname, kernel_release, kernel_version, machine,
 * preempt, preempt_source, cpu_model, cpus, clocksource}, every string
 * made valid UTF-8; with checks (n_checks >= 0), "checks" after them
 * (null when there are none).
 */
json_t *al_doc_system(const struct al_sysinfo *s, const struct al_syscheck *checks, int n_checks);
/* "audiolat ARGV..." (prefix "audiolat", "audiolat midi"), cut to size. */
void al_doc_cmdline(const char *prefix, int argc, char **argv, char *buf, size_t size);

/* ---- writing ---- */

/* JSON_INDENT(2) | flags, and a newline: malloc'd text, NULL on ENOMEM. */
char *al_doc_text(const json_t *doc, size_t flags);
/* The text to path ("-": stdout). 0 or -errno. */
int al_doc_write_text(const char *path, const char *text);
/* al_doc_text() to path ("-": stdout). 0 or -errno. */
int al_doc_write(const char *path, const json_t *doc, size_t flags);
/* al_doc_text() to f. 0, -ENOMEM or -EIO. */
int al_doc_fwrite(FILE *f, const json_t *doc, size_t flags);

/*
 * The document arena (arena.c): between begin and end every jansson
 * allocation comes from mmap'd chunks that end unmaps at once (freeing
 * one is a no-op), so a large document leaves nothing resident in a
 * process that locked its memory. al_doc_arena_text: al_doc_text()'s
 * bytes in the arena (valid until end), NULL on ENOMEM. One thread.
 */
void al_doc_arena_begin(void);
void al_doc_arena_end(void);
char *al_doc_arena_text(const json_t *doc);

#endif
