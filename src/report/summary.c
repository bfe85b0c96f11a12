/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The summary reporter: one plain line per run for scripts, the last one
 * `audiolat run` prints: "summary: backend=sim rate=48000 ... result=PASS"
 * (a MIDI result's, "summary: source=jack events=...": midi-text.c).
 */
#include <errno.h>
#include <inttypes.h>
#include <stdint.h>

#include "core/text.h"
#include "doc/view.h"
#include "midi.h"
#include "report.h"

/* key=N, or key=- when the document has no number there (not measured). */
static void
kv(FILE *f, const char *key, const json_t *o, const char *path)
{
	const json_t *v = al_doc_get(o, path);

	if (json_is_integer(v))
		fprintf(f, " %s=%" PRId64, key, (int64_t)json_integer_value(v));
	else
		fprintf(f, " %s=-", key);
}

static void
summary_line(const json_t *doc, const char *verdict, FILE *f)
{
	const json_t *st = json_object_get(doc, "total"), *c = json_object_get(doc, "config");
	char buf[64];

	/* a name from a document: control characters become '?' */
	al_text_term_safe(al_doc_str(c, "backend", "?"), buf, sizeof(buf), sizeof(buf));
	fprintf(f, "summary: backend=%s", buf);
	kv(f, "rate", c, "rate");
	kv(f, "period", c, "period_frames");
	kv(f, "periods", c, "periods");
	kv(f, "samples", st, "wake_latency_ns.count");
	kv(f, "min_ns", st, "wake_latency_ns.min");
	kv(f, "p50_ns", st, "wake_latency_ns.p50");
	kv(f, "p99_ns", st, "wake_latency_ns.p99");
	kv(f, "max_ns", st, "wake_latency_ns.max");
	kv(f, "max_interval_ns", st, "interval_ns.max");
	kv(f, "xruns", st, "xruns");
	kv(f, "lost_periods", st, "lost_periods");
	al_text_term_safe(al_doc_str(doc, "boundary", "-"), buf, sizeof(buf), sizeof(buf));
	fprintf(f, " boundary=%s result=%s\n", buf, verdict);
}

static int
summary_write(const struct al_report_input *in, FILE *f)
{
	size_t i;

	for (i = 0; i < in->n; i++)
		if (!al_doc_is_run(in->docs[i].doc) && !al__midi_doc(in->docs[i].doc))
			return -EINVAL;
	for (i = 0; i < in->n; i++)
		if (al_doc_is_run(in->docs[i].doc))
			summary_line(in->docs[i].doc, in->verdict ? in->verdict : "-", f);
		else
			al__midi_summary(f, in->docs[i].doc, in->verdict ? in->verdict : "-");
	return ferror(f) ? -EIO : 0;
}

const struct al_reporter al_reporter_summary = {
	.name = "summary",
	.file_ext = "txt",
	.summary = "one line per run for scripts: its figures as key=value and the verdict",
	.write = summary_write,
};
