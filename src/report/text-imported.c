/* SPDX-License-Identifier: GPL-2.0-or-later */
/*
 * The text reporter's lines for a run imported from another tool
 * (docs/interchange.md): where it came from and what it lacks; for
 * pw-profiler's log, the driver's cycles and each node's WAIT and BUSY.
 */
#include <inttypes.h>
#include <stdio.h>

#include "core/clock.h"
#include "core/text.h"
#include "doc/view.h"
#include "text-imported.h"

static const char *
safe(const char *s, char *buf, size_t size)
{
	al_text_term_safe(s ? s : "-", buf, size, size);
	return buf;
}

/* "p50 A p99 B max C" of a summary in us, "-" for what it does not have. */
static void
us_figures(const json_t *s, FILE *f)
{
	static const char *const keys[] = { "p50", "p99", "max" };

	for (size_t i = 0; i < sizeof(keys) / sizeof(keys[0]); i++) {
		const json_t *v = json_object_get(s, keys[i]);

		if (json_is_integer(v))
			fprintf(f, "%s%s %.1f", i ? " " : "", keys[i],
				(double)json_integer_value(v) / AL_NS_PER_US);
		else
			fprintf(f, "%s%s -", i ? " " : "", keys[i]);
	}
	fprintf(f, " us");
}

/* pw-profiler's driver and nodes, a line each. */
static void
graph_lines(const json_t *src, FILE *f)
{
	const json_t *d = json_object_get(src, "driver"), *n;
	size_t i;

	fprintf(f, "driver: %" PRId64 " points (%" PRId64 " of cycles incomplete at the next, %"
		   PRId64 " over 1.3 periods); interval ", al_doc_int(src, "points", 0),
		al_doc_int(src, "incomplete_points", 0), al_doc_int(src, "clamped_points", 0));
	us_figures(json_object_get(d, "interval_ns"), f);
	fprintf(f, "; its end ");
	us_figures(json_object_get(d, "end_ns"), f);
	fprintf(f, "\n");
	json_array_foreach(json_object_get(src, "nodes"), i, n) {
		fprintf(f, "node %" PRId64 ": %" PRId64 " points, %" PRId64 " unfinished; wait ",
			al_doc_int(n, "id", 0), al_doc_int(n, "points", 0),
			al_doc_int(n, "unfinished", 0));
		us_figures(json_object_get(n, "wait_ns"), f);
		fprintf(f, "; busy ");
		us_figures(json_object_get(n, "busy_ns"), f);
		fprintf(f, "\n");
	}
}

void
al__text_imported(const json_t *doc, FILE *f)
{
	char tool[40], file[200], fmt[40], lacks[400];
	const json_t *c = json_object_get(doc, "config");
	size_t threads = json_array_size(al_doc_get(doc, "source.threads"));

	fprintf(f, "imported from %s (%s, %s)", safe(al_doc_imported_from(doc), tool, sizeof(tool)),
		safe(al_doc_str(doc, "source.format", "?"), fmt, sizeof(fmt)),
		safe(al_doc_str(doc, "source.file", "?"), file, sizeof(file)));
	if (threads)
		fprintf(f, ": %zu thread%s, their values together", threads, threads == 1 ? "" : "s");
	fprintf(f, "\n");
	if (json_is_string(json_object_get(c, "backend")))
		fprintf(f, "backend=%s rate=%" PRId64 " Hz  %" PRId64 " x %" PRId64 " frames  "
			   "period=%.3f ms\n",
			safe(al_doc_str(c, "backend", "?"), file, sizeof(file)), al_doc_int(c, "rate", 0),
			al_doc_int(c, "periods", 0), al_doc_int(c, "period_frames", 0),
			(double)al_doc_int(c, "period_ns", 0) / AL_NS_PER_MS);
	else if (json_is_integer(json_object_get(c, "period_ns")))
		fprintf(f, "period=%.3f ms\n", (double)al_doc_int(c, "period_ns", 0) / AL_NS_PER_MS);
	if (json_is_array(al_doc_get(doc, "source.nodes")))
		graph_lines(json_object_get(doc, "source"), f);
	if (al_doc_lacks_text(doc, lacks, sizeof(lacks)))
		fprintf(f, "not measured by %s: %s\n", tool, lacks);
}
